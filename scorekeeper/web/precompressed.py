"""Static files minified and compressed once, at brotli's best, and kept in memory.

Flask-Compress compresses every other answer on the fly, at a level cheap enough for each request
(COMPRESS_BR_LEVEL). A script or a style sheet is the same bytes until its content changes, so it is
compressed once, on its first request, at brotli's best (quality 11: htmx is 14.9 KB, where Flask-Compress
sent Chromium 17.5 KB of zstd at level 3) and at gzip's best for a browser without brotli, and kept under
its content digest (the `?v=` its URLs carry, web/pwa.py): a changed file is compressed again under its
new digest, and only the newest version of each file is kept. The answer says `Vary: Accept-Encoding`;
its ETag names the digest and the encoding, so a revalidation of the no-cache, unhashed URL is a 304.

Our own scripts and style sheets are minified first (rjsmin, rcssmin: comments and whitespace out, nothing
renamed or rewritten), so static/ keeps the commented sources and every client, whatever encoding it takes,
gets the same script: outbox.js is 22.7 KB as written, 12.8 KB minified, 3.7 KB in brotli (6.2 KB before).
The vendored files (static/vendor, already minified) are sent as they are. The `?v=` digest is the source
file's, so any change to a source is a new URL, a new ETag and a new minified body.

The service worker (/sw.js, web/pwa.py) is answered the same way, minified, kept per version.
"""
from __future__ import annotations

import gzip
import hashlib
import os
from pathlib import Path

import brotli
import rcssmin
import rjsmin
from flask import Flask, Response, current_app, request
from werkzeug.security import safe_join

# What is compressed (Flask-Compress's list in scorekeeper/__init__.py, for the files static/ holds); the
# rest (the PNG icons) is served as Flask serves it.
TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
_kept: dict[str, tuple[str, dict[str, bytes]]] = {}  # name -> (version, {encoding: body})


def minify(filename: str, data: bytes) -> bytes:
    """Return a script or a style sheet of ours without its comments and spare whitespace; anything else as is.

    Conservative by design: rjsmin keeps every token and each line break that could end a statement, rcssmin
    every rule and value. A file under vendor/ (htmx) or named *.min.* is someone else's, already minified.
    """
    name = Path(filename)
    if name.parts[:1] == ("vendor",) or ".min." in name.name:
        return data
    if name.suffix == ".js":
        return rjsmin.jsmin(data)
    if name.suffix == ".css":
        return rcssmin.cssmin(data)
    return data


def encodings(data: bytes) -> dict[str, bytes]:
    """Return the body as sent for each encoding: brotli and gzip at their best, and as is."""
    return {"br": brotli.compress(data, quality=11), "gzip": gzip.compress(data, 9, mtime=0), "identity": data}


def kept(name: str, version: str, read) -> dict[str, bytes]:
    """Return the bodies of `name` at `version`, compressing read()'s bytes when that isn't the kept one."""
    found = _kept.get(name)
    if found is None or found[0] != version:
        found = (version, encodings(read()))
        _kept[name] = found  # a race compresses twice and keeps either: both are this version
    return found[1]


def choose() -> str:
    """The best encoding the request accepts: brotli, else gzip, else none."""
    accepted = request.accept_encodings
    for encoding in ("br", "gzip"):
        if accepted[encoding]:  # its quality; 0 when absent or refused (q=0)
            return encoding
    return "identity"


def answer(name: str, version: str, read, mimetype: str) -> Response:
    """Answer with `name` at `version` (read() gives its bytes) in the encoding the request accepts, or a 304."""
    bodies = kept(name, version, read)
    encoding = choose()
    response = Response(bodies[encoding], mimetype=mimetype)
    if encoding != "identity":
        response.headers["Content-Encoding"] = encoding
    response.headers["Vary"] = "Accept-Encoding"
    response.set_etag(f"{version}-{encoding}")
    return response.make_conditional(request)


def digest(filename: str) -> str | None:
    """Return the first 12 hex digits of the SHA-256 of a static file, or None if there is none: the version
    its URL carries (?v=, web/pwa.py) and its kept copies are known by.

    Read once by an app, as its code and templates are (web/assets.py release: a new release is a new process, and
    its app reads them anew); in debug (`flask run --debug`), a file edited under the running app is read again.
    Every table page and Save names the worker's files (assets.build): 16 files looked at on the disk were ~3 % of
    a Save's CPU."""
    path = os.path.join(current_app.static_folder, filename)
    digests = current_app.extensions.setdefault("static_digests", {})  # {path: ((mtime, size), digest)}
    known = digests.get(path)
    if known is not None and not current_app.debug:
        return known[1]
    try:
        st = os.stat(path)
    except OSError:
        return None
    stamp = (st.st_mtime_ns, st.st_size)
    if known is None or known[0] != stamp:
        known = (stamp, hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12])
        digests[path] = known
    return known[1]


def _file(filename: str):
    """Return (path, version, read) of a script or a style sheet in static/, or None for anything else."""
    path = safe_join(current_app.static_folder, filename) if filename and Path(filename).suffix in TYPES else None
    version = digest(filename) if path and Path(path).is_file() else None
    if version is None:
        return None
    return path, version, lambda: minify(filename, Path(path).read_bytes())


def keep_all() -> None:
    """Minify and compress every script and style sheet in static/ now (web/startup.py: as the server starts), not
    on the first phone's request."""
    folder = Path(current_app.static_folder)
    for f in sorted(folder.rglob("*")):
        found = _file(f.relative_to(folder).as_posix())
        if found is not None:
            kept(*found)


def install(app: Flask) -> None:
    """Serve static/'s scripts and style sheets from the kept, minified and compressed copies."""
    plain = app.view_functions["static"]

    def static(filename: str):
        found = _file(filename)
        if found is None:  # not a script or a style sheet, or no such file
            return plain(filename=filename)
        path, version, read = found
        return answer(path, version, read, TYPES[Path(filename).suffix])

    app.view_functions["static"] = static
