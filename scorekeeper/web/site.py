"""App-wide web behaviour: security headers, friendly error pages, template helpers."""
from __future__ import annotations

from urllib.parse import urlencode

from flask import Flask, current_app, jsonify, render_template, request
from flask_babel import get_locale, gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from .. import LANGUAGES

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'self'; object-src 'none'")


def install(app: Flask) -> None:
    """Attach headers, error handlers and template globals to the app."""

    @app.after_request
    def headers(response):
        if response.status_code == 304:
            return response  # no body to protect; the 200 carried these (saves ~300 bytes per idle poll)
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if "lang" in request.args and request.args["lang"] in LANGUAGES:
            response.set_cookie("lang", request.args["lang"], max_age=3600 * 24 * 365, samesite="Lax")
        return response

    def wants_json() -> bool:
        return request.path.startswith("/api/")

    def error(status: int, code: str, message: str):
        if wants_json():
            return jsonify({"error": {"code": code, "message": message}}), status
        return render_template("error.html", status=status, message=message), status

    @app.errorhandler(404)
    def not_found(e):
        return error(404, "not_found", gettext("There is nothing at this address. Check the link, or start from the home page."))

    @app.errorhandler(405)
    def not_allowed(e):
        return error(405, "bad_request", gettext("This address can't be used that way."))

    @app.errorhandler(CSRFError)
    def csrf_error(e):
        return error(400, "bad_request", gettext("This form has expired or didn't come from this app. Reload the page and try again; nothing was changed."))

    @app.errorhandler(400)
    def bad_request(e):
        return error(400, "bad_request", gettext("The request could not be understood. Reload the page and try again."))

    @app.errorhandler(413)
    def too_large(e):
        return error(413, "bad_request", gettext("That is far too much data for one request."))

    @app.errorhandler(500)
    def server_error(e):
        return error(500, "server_error", gettext("Something went wrong on our side. Nothing you entered is lost: go back and try again."))

    @app.context_processor
    def globals_():
        return {"lang": str(get_locale() or "en"), "lang_url": lang_url}


def lang_url(code: str) -> str:
    """Return this page's address in language `code` (after a POST, the nearest page that answers GET)."""
    path, args = request.path, []
    if request.method == "GET":
        args = [(k, v) for k, v in request.args.items(multi=True) if k != "lang"]
    else:
        adapter = current_app.url_map.bind("localhost")
        while path.count("/") > 1:
            try:
                adapter.match(path, method="GET")
                break
            except HTTPException:
                path = path.rsplit("/", 1)[0]
    return f"{path}?{urlencode([*args, ('lang', code)])}"
