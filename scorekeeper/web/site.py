"""App-wide web behaviour: security headers, proxies and HTTPS, friendly error pages, template helpers."""
from __future__ import annotations

import hashlib
from urllib.parse import quote, urlencode

import flask
from flask import (Flask, abort, current_app, g, has_request_context, jsonify, make_response, render_template,
                   request)
from flask.sessions import SecureCookieSessionInterface
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.utils import cached_property

from .. import LANGUAGES
from .bounds import nfc
from .limits import in_words, retry_after

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'self'; object-src 'none'")

# Why "same-origin" (not "no-referrer"): over HTTPS Flask-WTF's strict check (WTF_CSRF_SSL_STRICT, kept on)
# refuses a POST without a same-origin Referer, and "no-referrer" made browsers send none, so every form
# failed. "same-origin" sends the full Referer to this site only and nothing at all to any other origin,
# so a table's address (/t/<key>, /v/<key>: the key is the only secret) still never leaks to another site. A page
# that never posts (a watcher's) says "no-referrer" itself (app/base.html): its polls needn't carry the address.
REFERRER_POLICY = "same-origin"
# Pages whose address is a table's or a circle's key: never stored by the browser or a shared cache (nor any
# error page answering a guessed key).
CAPABILITY_PATHS = ("/t/", "/v/", "/c/")
# set by the server (scorekeeper/serve.py) on a request whose body it refused as too large before the app saw it:
# the app answers it with its own 413, in the request's format and the phone's language
TOO_LARGE = "scorekeeper.too_large"


class Request(flask.Request):
    """A request whose body may be 2 MB only when it is a file upload (a table's import), and whose form fields and
    query come in Unicode's composed form (NFC: one spelling of "Zoé", however the phone's keyboard typed it).

    Every other form and every API request is a few hundred bytes; Werkzeug reads a URL-encoded body in
    one go (MAX_FORM_MEMORY_SIZE and MAX_FORM_PARTS apply to uploads only), and a 2 MB one of 200,000
    fields kept a worker busy for half a second. MAX_FORM_SIZE (256 KB) bounds them far below that.
    """

    @property
    def max_content_length(self) -> int | None:
        limit = super().max_content_length
        if self.mimetype == "multipart/form-data" or not has_request_context():
            return limit
        small = current_app.config["MAX_FORM_SIZE"]
        return small if limit is None else min(limit, small)

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        flask.Request.max_content_length.fset(self, value)

    # Every name comes in composed (bounds.nfc): a form's fields and the address's query, as Werkzeug parses them
    def _load_form_data(self) -> None:
        if "form" in self.__dict__:
            return
        super()._load_form_data()
        self.__dict__["form"] = _composed(self.__dict__["form"])

    @cached_property
    def args(self):
        return _composed(super().args)


def _composed(values):
    """A request's MultiDict with every value and key in Unicode's composed form (NFC), the same class."""
    if all(k.isascii() and all(v.isascii() for v in vs) for k, vs in values.lists()):
        return values  # the usual case: nothing to compose
    return type(values)([(nfc(k), nfc(v)) for k, vs in values.lists() for v in vs])


class SessionCookie(SecureCookieSessionInterface):
    """The session cookie, marked Secure whenever the request came over HTTPS.

    Flask's SESSION_COOKIE_SECURE is fixed per app; this decides per request, so one app serves both
    `make run` on plain-HTTP localhost (where a Secure cookie would never come back) and HTTPS behind a
    proxy. SESSION_COOKIE_SECURE=True still forces it on everywhere.
    """

    def get_cookie_secure(self, app: Flask) -> bool:
        return super().get_cookie_secure(app) or (has_request_context() and request.is_secure)

    def open_session(self, app: Flask, request):
        session = super().open_session(app, request)
        g.opened_session = session  # read without Flask's `session`, which marks it used (same_for_everyone)
        return session

    def save_session(self, app: Flask, session, response) -> None:
        super().save_session(app, session, response)
        if swapped_in():
            response.headers.pop("Vary", None)  # no cache ever keeps it: nothing to vary


def swapped_in() -> bool:
    """Say whether this request is htmx posting a form whose answer it swaps into the page: an answer never
    stored anywhere (a POST's, never a page of its own), so it needs no caching headers."""
    return has_request_context() and request.method == "POST" and request.headers.get("HX-Request") == "true"


def asked_tags() -> set[str]:
    """Return the tags the phone's If-None-Match names, each without the encoding Flask-Compress adds to a
    compressed 200's ETag ("<tag>:br", ":gzip"): the same page or version either way."""
    return {t.split(":")[0] for t in request.if_none_match.as_set(include_weak=True)}


def same_for_everyone(response) -> bool:
    """Say whether an answer is a page anyone asking the same address in the same language is given: a GET's
    whole page that read no session (so carries no CSRF token, no message said once: the home page, the counting
    pages, the rules) and that says nothing itself of how to keep it (a table's page has its own tag)."""
    session = g.get("opened_session")  # none opened (no secret key: Flask's null session): say it was read
    return (request.method in ("GET", "HEAD") and response.status_code == 200 and response.mimetype == "text/html"
            and session is not None and not session.accessed and request.headers.get("HX-Request") != "true"
            and "Cache-Control" not in response.headers and response.get_etag()[0] is None)


def tagged_by_content(response):
    """Tag a page the same for everyone by its content; asked again with that tag, unchanged: a 304 (about
    0.7 KB on the wire instead of the page). Kept by the browser or the service worker, asked again each time."""
    response.headers["Cache-Control"] = "no-cache"
    tag = "c" + hashlib.sha256(response.get_data()).hexdigest()[:24]
    response.set_etag(tag)
    if tag in asked_tags():
        response.status_code = 304  # Werkzeug sends no body and no entity headers with it
    return response


def error_page(message: str, status: int, posted=None):
    """A friendly page saying what went wrong (app/error.html). A post refused so says it in X-Refused too (one
    sentence, percent-encoded UTF-8), as a refused Save does (web/table/tables.py refused): the phone's queue shows the
    server's own words beside the change it kept (static/outbox.js), never reading them out of a page."""
    response = make_response(render_template("app/error.html", status=status, message=message, posted=posted), status)
    if request.method == "POST":
        response.headers["X-Refused"] = quote(message)
    return response


def install(app: Flask) -> None:
    """Attach the proxy setting, session cookie, headers, error handlers and template globals to the app."""
    # Trust X-Forwarded-For/-Proto/-Host only from the number of proxies configured (PROXY_FIX, default
    # 0): without a proxy in front, anyone could send them and pass for HTTPS or another host.
    hops = app.config["PROXY_FIX"]  # a number (create_app read it)
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
    app.session_interface = SessionCookie()
    app.request_class = Request

    @app.after_request
    def headers(response):
        if request.path.startswith(CAPABILITY_PATHS) and not swapped_in():
            # the address is the key: keep it out of the browser's disk cache and any shared cache
            # (the board poll sets this itself and keeps its ETag/304: it sends If-None-Match itself)
            response.headers["Cache-Control"] = "no-store"
        if response.status_code == 304:
            return response  # no body to protect: the 200 carried these, and an idle poll needs none
        if "lang" in request.args and request.args["lang"] in LANGUAGES:
            response.set_cookie("lang", request.args["lang"], max_age=3600 * 24 * 365, samesite="Lax",
                                secure=request.is_secure)
        if same_for_everyone(response) and tagged_by_content(response).status_code == 304:
            return response
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        if request.headers.get("HX-Request") == "true" and response.mimetype == "text/html":
            # a fragment htmx puts into a page already open: the page's own CSP, framing and referrer rules
            # govern it (they are document headers; a navigation never sends HX-Request)
            return response
        if not (request.endpoint in ("static", "pwa.words") and response.mimetype in ("text/javascript", "text/css")):
            # a document's policy (and a worker's: /sw.js keeps it); on a script or a style sheet it governs
            # nothing
            response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("Referrer-Policy", REFERRER_POLICY)
        if response.mimetype == "text/html":
            response.headers.setdefault("X-Frame-Options", "DENY")  # frame-ancestors, for older browsers
        return response

    def refused_by_the_server():
        if request.environ.get(TOO_LARGE):
            abort(413)
    # first of all: before the CSRF check, which would read the (empty) form and call it an expired one
    app.before_request_funcs.setdefault(None, []).insert(0, refused_by_the_server)

    @app.before_request
    def address_length():
        # An address longer than any this app makes (a table's is under 100 characters): 414, in the
        # request's format. gunicorn refuses request lines over 4094 bytes itself; this also covers
        # servers that take longer ones, and answers in JSON under /api/.
        if len(request.full_path) > app.config["MAX_URL"]:
            abort(414)

    def wants_json() -> bool:
        return request.path.startswith("/api/")

    def error(status: int, code: str, message: str, resend: bool = False):
        """Answer an error in the request's format. `resend`: a form post that may not have been recorded comes
        back as a page holding what was posted (its token included), with a button that sends it again."""
        if wants_json():
            return jsonify({"error": {"code": code, "message": message}}), status
        posted = request.form if resend and request.method == "POST" and request.form else None
        return error_page(message, status, posted)

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

    @app.errorhandler(414)
    def address_too_long(e):
        return error(414, "bad_request", gettext("This address is far too long. Check the link, or start from the home page."))

    @app.errorhandler(431)
    def headers_too_large(e):
        return error(431, "bad_request", gettext("The request's headers are far too large. Clear this site's cookies and try again."))

    @app.errorhandler(429)
    def too_many(e):
        limit = in_words(getattr(e, "limit", None))
        message = (gettext("Too many requests from your address in a short time (at most %(limit)s). Wait a "
                           "little and try again; nothing was changed.", limit=limit) if limit else
                   gettext("Too many requests from your address in a short time. Wait a little and try again; "
                           "nothing was changed."))
        response = make_response(error(429, "rate_limited", message))
        wait = retry_after()
        if wait is not None:
            response.headers["Retry-After"] = str(wait)
        return response

    def database_down(e):
        # The database can't be reached, is read-only or out of space (a stopped PostgreSQL, a full disk): not
        # the request's fault, and over once the database is back. 503 with Retry-After: the phone keeps a
        # Save in its queue (static/outbox.js) and sends it then; a plain form post gets its values back.
        app.logger.warning("database unavailable: %s", str(getattr(e, "orig", None) or e).strip().splitlines()[0])
        if request.method == "POST" and request.form and not wants_json():
            message = gettext("The database isn't answering just now, so this wasn't saved yet. What you entered "
                              "is kept below: try again in a moment.")
        else:
            message = gettext("The database isn't answering just now. Wait a moment and try again.")
        response = make_response(error(503, "unavailable", message, resend=True))
        response.headers["Retry-After"] = "10"
        return response

    for unavailable in (OperationalError, InterfaceError, PoolTimeout):
        app.register_error_handler(unavailable, database_down)

    @app.errorhandler(500)
    def server_error(e):
        if request.method == "POST" and request.form and not wants_json():
            return error(500, "server_error", gettext("Something went wrong on our side, so this may not have been "
                                                      "saved. What you entered is kept below: try again."), resend=True)
        return error(500, "server_error", gettext("Something went wrong on our side. Nothing you entered is lost: go back and try again."))

    @app.errorhandler(HTTPException)
    def any_other(e):
        # Every other status Werkzeug or an extension can raise (410, 415, 416, 501, ...): the same two
        # formats, never Werkzeug's bare page. abort(Response) and redirects never come here (no code).
        if e.code is not None and e.code >= 500:
            return error(e.code, "server_error", gettext("Something went wrong on our side. Nothing you entered is lost: go back and try again."))
        return error(e.code or 400, "bad_request", gettext("The request could not be understood. Reload the page and try again."))


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
    # the path as an address of this site: a decoded backslash, tab or newline ("/%5Cevil.example") would make
    # a browser read "/\\evil.example" as another host (an open redirect); quoted, it stays a path here
    return f"/{quote(path.lstrip('/'), safe='/')}?{urlencode([*args, ('lang', code)])}"
