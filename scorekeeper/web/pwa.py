"""On the home screen and offline: the web app manifest, the service worker, content-hashed static URLs.

- Every `url_for('static', ...)` gets `?v=<digest of the file>` (static_url() is the same, by name): a
  hashed URL is cached for a year (`immutable`), and a new version of a file is a new URL, so no phone
  keeps an old CSS or script. A static URL without the current digest is served `no-cache`.
- `/sw.js` (static/sw.js, served from the root so its scope is every page) is told the version and the
  files to keep at install; it is `no-cache` with an ETag, so a phone's update check is a 304.
- `/manifest.webmanifest` makes the app installable; `/offline` is the page the service worker shows
  for an address this phone never opened; `/csrf` gives the offline queue (static/outbox.js) a fresh
  CSRF token before it sends what waited.
"""
from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_wtf.csrf import generate_csrf

from . import precompressed
from .assets import THEME, words_script, build, digest, kept_by_digest, static_url, sw_source
from .l10n import locale_id

bp = Blueprint("pwa", __name__)

ICONS = (("icons/icon-192.png", "192x192", "any"), ("icons/icon-512.png", "512x512", "any"),
         ("icons/maskable-512.png", "512x512", "maskable"))
@bp.app_url_defaults
def hashed(endpoint, values):
    if endpoint == "static" and "v" not in values:
        v = digest(values.get("filename", ""))
        if v:
            values["v"] = v


@bp.get("/offline-words.js")
def words():
    """The offline scripts' texts (app/_offline_words.html): the same on every page in a language, so they come once
    and are kept a year (and by the worker, like a file) under the digest of what they say."""
    body, current = words_script(locale_id())
    return kept_by_digest(Response(body, mimetype="text/javascript"), current)


@bp.after_app_request
def static_caching(response):
    """A year for a URL naming the file's current digest; otherwise revalidate every time."""
    if request.endpoint == "static" and response.status_code in (200, 304):
        kept_by_digest(response, digest((request.view_args or {}).get("filename", "")) or None)
    return response


@bp.get("/sw.js")
def service_worker():
    """The service worker, served from the root so that it may keep every page of the app."""
    b = build()
    body = sw_source().replace("var BUILD = {};", f"var BUILD = {json.dumps(b)};", 1)
    # minified and compressed once per version (web/precompressed.py), its ETag the version and the encoding;
    # the version hashes the commented source, so any change to static/sw.js is a new worker
    response = precompressed.answer("/sw.js", b["version"], lambda: precompressed.minify("sw.js", body.encode()),
                                    "text/javascript")
    response.headers["Cache-Control"] = "no-cache"  # each update check asks; an unchanged worker is a 304
    return response


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest: name, icons and colours for installing the app."""
    data = {
        "name": _("Scorekeeper"),
        "short_name": _("Scorekeeper"),
        "description": _("Count the cards, score the hand, settle the evening."),
        "start_url": url_for("home.home"),
        "scope": "/",
        "id": "/",
        "display": "standalone",
        # no "orientation": the installed app turns with the phone, as a tab does (the board is wider on its side)
        "background_color": "#ffffff",
        "theme_color": THEME,
        "lang": str(get_locale() or "en"),
        "icons": [{"src": static_url(src), "sizes": sizes, "type": "image/png", "purpose": purpose}
                  for src, sizes, purpose in ICONS],
        # a long press on the installed app's icon: straight to a new table, or to counting the cards
        "shortcuts": [{"name": _("Open a table"), "url": url_for("setup.choose_game")},
                      {"name": _("Count"), "url": url_for("counting.count_start")}],
    }
    response = Response(json.dumps(data, ensure_ascii=False), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/offline")
def offline():
    """The page the service worker shows offline for an address this phone never opened, fetched at its install on
    every phone (a watcher's too): it changes nothing, so it makes no session (no cookie)."""
    return render_template("app/offline.html", read_only=True)


@bp.get("/csrf")
def csrf():
    """A fresh CSRF token for this phone's session: the offline queue sends it with each waiting change."""
    response = jsonify({"csrf_token": generate_csrf()})
    response.headers["Cache-Control"] = "no-store"
    return response
