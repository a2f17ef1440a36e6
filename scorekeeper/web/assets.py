"""The app's files as phones keep them: content-hashed static URLs, what the service worker keeps at install,
the digest of a release. No views (web/pwa.py serves the worker, the manifest and the offline page)."""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from flask import current_app, has_request_context, render_template, request, url_for

from . import precompressed
from .l10n import locale_id

YEAR = 60 * 60 * 24 * 365
THEME = "#0b5394"  # app.css --accent
# The app's files a service worker may keep (htmx, the styles, the scripts). The icons are not: the home screen keeps
# its own copy. At install it keeps CORE, what every page and /offline need (kept at install: it lists this phone's
# tables), and the files the worker before it kept; each page tells it the files it uses (static/kept_pages.js), so a
# phone keeps the scripts of the pages it opens, not every script of the app (issue 40).
PRECACHE = ("app.css", "theme.js", "page.js", "tables.js", "outbox.js", "outbox_list.js", "kept_pages.js", "offline_edit.js",
            "board.js", "hand_form.js", "phone_list.js", "wake.js", "share_text.js", "round_clock.js",
            "vendor/htmx-2.0.11.min.js")
# The posts a phone's outbox keeps while the server can't be reached (a hand saved, edited or deleted; an undo), as
# a JavaScript regular expression, written here once: static/outbox.js and offline_edit.js read it from #net's
# data-queued (app/_net.html), the service worker (static/sw.js) from its BUILD. Its groups: the table's key, what
# follows it, the hand's number, "/delete".
CORE = ("app.css", "theme.js", "page.js", "tables.js", "outbox.js", "outbox_list.js", "kept_pages.js")
QUEUED = r"^/t/([^/]+)/(hands(?:/(\d+)(/delete)?)?|undo)$"
digest = precompressed.digest  # a static file's content digest: its URL's ?v= (static_url, hashed)


def static_url(filename: str) -> str:
    """Return a static file's URL with its content digest (`/static/app.css?v=3f2a...`)."""
    return url_for("static", filename=filename)


def kept_by_digest(response, current: str | None):
    """Keep an answer a year if its URL names the digest of what it is now (?v=); otherwise revalidate every time
    (an older digest is answered with today's content, which must not be kept under the old name)."""
    fresh = current is not None and request.args.get("v") == current
    response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable" if fresh else "no-cache"
    return response


def build() -> dict:
    """Return what this version's service worker keeps: its version and the URLs to cache at install. Worked out
    once per version of the files (their digests: a file changed under a running app is a new version), not per
    request: every table page and Save names it (page_tag), and 15 url_for() cost ~2 ms."""
    files = tuple(digest(f) for f in (*PRECACHE, "sw.js"))
    return _build(current_app.static_folder, request.script_root if has_request_context() else "", files)


@lru_cache(maxsize=8)
def _build(static_folder: str, script_root: str, files: tuple) -> dict:
    assets = [static_url(f) for f in PRECACHE]
    source = sw_source()
    version = hashlib.sha256("\n".join([source, QUEUED, *assets]).encode()).hexdigest()[:12]
    return {"version": version, "assets": assets, "core": [static_url(f) for f in CORE], "offline": url_for("pwa.offline"),
            "queued": QUEUED}


def release() -> str:
    """Return a digest of what renders the pages (the app's code, its templates and translations), read once
    per set of folders: a new release is a new process. Part of a kept page's tag (web/scoreboard.py page_tag), so a
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


def words_url() -> str:
    """Return the address of the offline scripts' texts in this request's language, named by their digest."""
    return url_for("pwa.words", v=words_script(locale_id())[1])


@lru_cache(maxsize=16)
def words_script(language: str) -> tuple[bytes, str]:
    """Return the words script in a language (the request's: `language` keys it) and its digest."""
    body = f"window.SK_WORDS={render_template('app/_offline_words.html').strip()};".encode()
    return body, hashlib.sha256(body).hexdigest()[:12]
