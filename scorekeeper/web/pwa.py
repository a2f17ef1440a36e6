"""On the home screen and offline: the web app manifest, the service worker, content-hashed static URLs.

- Every `url_for('static', ...)` gets `?v=<digest of the file>` (static_url() is the same, by name): a
  hashed URL is cached for a year (`immutable`), and a new version of a file is a new URL, so no phone
  keeps an old CSS or script. A static URL without the current digest is served `no-cache`.
- `/sw.js` (static/sw.js, served from the root so its scope is every page) is told the version and the
  files to keep at install; it is `no-cache` with an ETag, so a phone's update check is a 304.
- `/manifest.webmanifest` makes the app installable; `/offline` is the page the service worker shows
  for an address this phone never opened; `/csrf` gives the offline queue (static/offline.js) a fresh
  CSRF token before it sends what waited.
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_wtf.csrf import generate_csrf

from . import precompressed
from .l10n import locale_id

bp = Blueprint("pwa", __name__)

YEAR = 60 * 60 * 24 * 365
THEME = "#0b5394"  # app.css --accent
ICONS = (("icons/icon-192.png", "192x192", "any"), ("icons/icon-512.png", "512x512", "any"),
         ("icons/maskable-512.png", "512x512", "maskable"))
# Kept by the service worker at install: what every page needs (htmx, the styles, the scripts). The icons
# are not: the home screen keeps its own copy. Nor is the home page: it is kept once opened, and until
# then /offline (kept at install) lists this phone's tables.
PRECACHE = ("app.css", "tables.js", "offline.js", "vendor/htmx-2.0.11.min.js")
digest = precompressed.digest  # a static file's content digest: its URL's ?v= (static_url, hashed)


def static_url(filename: str) -> str:
    """Return a static file's URL with its content digest (`/static/app.css?v=3f2a...`)."""
    return url_for("static", filename=filename)


@bp.app_url_defaults
def hashed(endpoint, values):
    if endpoint == "static" and "v" not in values:
        v = digest(values.get("filename", ""))
        if v:
            values["v"] = v


@bp.record_once
def helpers(state):
    state.app.jinja_env.globals.update({"static_url": static_url, "theme_colour": THEME, "words_url": words_url})


def words_url() -> str:
    """Return the address of static/offline.js's texts in this request's language, named by their digest."""
    return url_for("pwa.words", v=_words(locale_id())[1])


@lru_cache(maxsize=16)
def _words(language: str) -> tuple[bytes, str]:
    """Return the words script in a language (the request's: `language` keys it) and its digest."""
    body = f"window.SK_WORDS={render_template('_offline_words.html').strip()};".encode()
    return body, hashlib.sha256(body).hexdigest()[:12]


@bp.get("/offline-words.js")
def words():
    """static/offline.js's texts (_offline_words.html): the same on every page in a language, so they come once
    and are kept a year (and by the worker, like a file) under the digest of what they say."""
    body, current = _words(locale_id())
    return kept_by_digest(Response(body, mimetype="text/javascript"), current)


def kept_by_digest(response, current: str | None):
    """Keep an answer a year if its URL names the digest of what it is now (?v=); otherwise revalidate every time
    (an older digest is answered with today's content, which must not be kept under the old name)."""
    fresh = current is not None and request.args.get("v") == current
    response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable" if fresh else "no-cache"
    return response


@bp.after_app_request
def static_caching(response):
    """A year for a URL naming the file's current digest; otherwise revalidate every time."""
    if request.endpoint == "static" and response.status_code in (200, 304):
        kept_by_digest(response, digest((request.view_args or {}).get("filename", "")) or None)
    return response


def build() -> dict:
    """Return what this version's service worker keeps: its version and the URLs to cache at install."""
    assets = [static_url(f) for f in PRECACHE]
    source = sw_source()
    version = hashlib.sha256("\n".join([source, *assets]).encode()).hexdigest()[:12]
    return {"version": version, "assets": assets, "offline": url_for("pwa.offline")}


def release() -> str:
    """Return a digest of what renders the pages (the app's code, its templates and translations), read once
    per set of folders: a new release is a new process. Part of a kept page's tag (web/live.py page_tag), so a
    release that changes a page's markup alone is never answered with a 304 for the page a phone kept."""
    return _release(current_app.root_path, current_app.template_folder)


@lru_cache(maxsize=4)
def _release(code: str, templates: str) -> str:
    digest = hashlib.sha256()
    for folder, patterns in ((Path(code), ("*.py", "*.mo")), (Path(templates), ("*.html",))):
        for f in sorted(f for pattern in patterns for f in folder.rglob(pattern)):
            digest.update(f.relative_to(folder).as_posix().encode() + b"\x00" + f.read_bytes() + b"\x00")
    return digest.hexdigest()[:12]


def sw_source() -> str:
    return (Path(current_app.static_folder) / "sw.js").read_text(encoding="utf-8")


@bp.get("/sw.js")
def service_worker():
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
    data = {
        "name": _("Scorekeeper"),
        "short_name": _("Scorekeeper"),
        "description": _("Count the cards, score the hand, settle the evening."),
        "start_url": url_for("counting.home"),
        "scope": "/",
        "id": "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": "#ffffff",
        "theme_color": THEME,
        "lang": str(get_locale() or "en"),
        "icons": [{"src": static_url(src), "sizes": sizes, "type": "image/png", "purpose": purpose}
                  for src, sizes, purpose in ICONS],
    }
    response = Response(json.dumps(data, ensure_ascii=False), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/offline")
def offline():
    return render_template("offline.html")


@bp.get("/csrf")
def csrf():
    """A fresh CSRF token for this phone's session: the offline queue sends it with each waiting change."""
    response = jsonify({"csrf_token": generate_csrf()})
    response.headers["Cache-Control"] = "no-store"
    return response
