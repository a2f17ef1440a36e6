"""Static scripts and style sheets minified and compressed once at brotli's best and kept
(web/precompressed.py), through the test client: each is sent in the best encoding the browser takes and
decompresses to the file's minified bytes (rjsmin, rcssmin; the vendored htmx as it is), the same in every
encoding, varies on Accept-Encoding, revalidates with a 304, and a changed file is a new URL and new bytes.
The minified scripts still parse, to the same syntax tree as their sources (Node.js), and the minified
style sheet to the same rules (Chromium)."""
import gzip
import json
import re
import shutil
import subprocess
from pathlib import Path

import brotli
import pytest
import rcssmin
import rjsmin

from scorekeeper.web import assets
from tests.opening import open_table

ROOT = Path(__file__).resolve().parent.parent
BROWSER = "gzip, deflate, br, zstd"  # what Chromium sends
OURS = ("outbox.js", "tables.js", "app.css")  # static/'s own scripts and styles (the worker, /sw.js, apart)


def minified(name: str, source: bytes) -> bytes:
    """What the server should send for static/<name>: ours minified, the vendored files as they are."""
    if name.startswith("vendor/"):
        return source
    return rcssmin.cssmin(source) if name.endswith(".css") else rjsmin.jsmin(source)


def static_urls(client):
    """The scripts and styles the home page, a table's page and its settle-up name (each loads what it uses)."""
    table = open_table(client)
    pages = "".join(client.get(url).get_data(as_text=True) for url in ("/", table, table + "/settle"))
    return {re.sub(r"\?v=.*", "", u)[len("/static/"):]: u
            for u in re.findall(r'"(/static/[^"]+\.(?:js|css)\?v=[0-9a-f]{12})"', pages)}


def get(client, url, encoding=BROWSER, **headers):
    r = client.get(url, headers={"Accept-Encoding": encoding, **headers})
    data = r.get_data()
    r.close()
    return r, data


def test_scripts_and_styles_come_brotli_compressed_at_its_best_and_cached_a_year(app, client):
    urls = static_urls(client)
    with app.test_request_context():  # and every file the worker may keep (a cup's round clock: on cup pages only)
        kept = {name: assets.static_url(name) for name in assets.PRECACHE}
    assert set(urls) <= set(kept), set(urls) - set(kept)
    for name, url in {**kept, **urls}.items():
        source = (ROOT / "static" / name).read_bytes()
        r, data = get(client, url)
        assert r.status_code == 200 and r.headers["Content-Encoding"] == "br", name
        assert brotli.decompress(data) == minified(name, source), name
        assert len(data) == len(brotli.compress(minified(name, source), quality=11)), name  # 11, not on the fly
        assert r.headers["Vary"] == "Accept-Encoding"
        assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        with app.app_context():
            assert r.headers["ETag"] == f'"{assets.digest(name)}-br"'
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert r.mimetype == ("text/css" if name.endswith(".css") else "text/javascript")


def test_gzip_for_a_browser_without_brotli_and_plain_for_one_with_neither(client):
    url = static_urls(client)["app.css"]
    sent = minified("app.css", (ROOT / "static" / "app.css").read_bytes())
    r, data = get(client, url, "gzip, deflate")
    assert r.headers["Content-Encoding"] == "gzip" and gzip.decompress(data) == sent
    r, data = get(client, url, "br;q=0, gzip")
    assert r.headers["Content-Encoding"] == "gzip"
    r, data = get(client, url, "identity")  # minified too: every client gets the same bytes
    assert "Content-Encoding" not in r.headers and data == sent
    assert r.headers["Content-Length"] == str(len(sent))
    assert r.headers["Vary"] == "Accept-Encoding"


def test_a_revalidation_is_a_304_per_encoding(client):
    url = "/static/app.css"  # the unhashed name is no-cache: the browser asks again each time
    r, _ = get(client, url)
    assert r.headers["Cache-Control"] == "no-cache"
    again, body = get(client, url, **{"If-None-Match": r.headers["ETag"]})
    assert again.status_code == 304 and body == b""
    other, _ = get(client, url, "gzip", **{"If-None-Match": r.headers["ETag"]})
    assert other.status_code == 200 and other.headers["Content-Encoding"] == "gzip"


def test_a_changed_file_is_a_new_url_and_its_new_bytes(app, tmp_path):
    app.static_folder = str(tmp_path)
    app.debug = True  # a file edited under the running app (precompressed.digest): read again
    client = app.test_client()
    (tmp_path / "x.css").write_text("a{color:blue}" * 50)
    with app.test_request_context():
        first = assets.static_url("x.css")
    r, data = get(client, first)
    assert brotli.decompress(data) == (tmp_path / "x.css").read_bytes()
    (tmp_path / "x.css").write_text("a{color:red}" * 50)
    with app.test_request_context():
        second = assets.static_url("x.css")
    assert second != first
    r, data = get(client, second)
    assert brotli.decompress(data) == b"a{color:red}" * 50
    assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    r, data = get(client, first)  # the old URL: today's file, not to be kept under the old name
    assert brotli.decompress(data) == b"a{color:red}" * 50 and r.headers["Cache-Control"] == "no-cache"


def test_the_service_worker_comes_compressed_and_revalidates(client):
    r, data = get(client, "/sw.js")
    assert r.headers["Content-Encoding"] == "br" and r.headers["Cache-Control"] == "no-cache"
    assert '"version":"' in brotli.decompress(data).decode()  # filled in (web/pwa.py), then minified
    assert get(client, "/sw.js", **{"If-None-Match": r.headers["ETag"]})[0].status_code == 304
    assert "script-src 'self'" in r.headers["Content-Security-Policy"]  # a worker's policy: kept


def test_other_static_files_and_wrong_paths_are_served_as_before(client):
    r, data = get(client, "/static/icons/icon-192.png")
    assert r.status_code == 200 and data[:8] == b"\x89PNG\r\n\x1a\n" and "Content-Encoding" not in r.headers
    for path in ("/static/missing.js", "/static/../pyproject.toml", "/static/..%2f..%2fpyproject.toml",
                 "/static/vendor", "/static/icons/../../scorekeeper/__init__.py"):
        assert get(client, path)[0].status_code == 404, path


def test_pages_are_compressed_per_answer_at_brotli_5(client):
    r = client.post("/tables/new/troccas", data={"players-0": "Anna", "players-1": "Ben", "players-2": "Cla",
                                                "players-3": "Zoë", "first_dealer": "0", "stake": "0.05",
                                                "currency": "CHF"})
    r, data = get(client, r.headers["Location"])
    assert r.headers["Content-Encoding"] == "br"
    page = brotli.decompress(data)
    assert b'id="hand-form"' in page and len(data) == len(brotli.compress(page, quality=5))


def test_a_change_to_a_comment_alone_is_still_a_new_url_and_etag(app, tmp_path):
    """The digest is the source's, not the minified body's: any edit to a source file is a new version."""
    app.static_folder = str(tmp_path)
    app.debug = True  # a file edited under the running app (precompressed.digest): read again
    client = app.test_client()
    (tmp_path / "x.js").write_text("/* one */\nvar a = 1;\n")
    with app.test_request_context():
        first = assets.static_url("x.js")
    r1, body1 = get(client, first, "identity")
    (tmp_path / "x.js").write_text("/* two, longer */\nvar a = 1;\n")
    with app.test_request_context():
        second = assets.static_url("x.js")
    r2, body2 = get(client, second, "identity")
    assert body1 == body2 == b"var a=1;"  # the comment and the whitespace gone
    assert second != first and r2.headers["ETag"] != r1.headers["ETag"]
    assert get(client, second, **{"If-None-Match": r1.headers["ETag"]})[0].status_code == 200  # not a stale 304


def served(client):
    """static/'s own scripts and styles and the worker, as a client without any encoding gets them."""
    urls = static_urls(client)
    out = {name: get(client, urls[name], "identity")[1] for name in OURS}
    out["sw.js"] = get(client, "/sw.js", "identity")[1]
    return out


def test_our_scripts_and_styles_are_sent_minified_in_every_encoding(client):
    bodies = served(client)
    for name, body in bodies.items():
        source = (ROOT / "static" / name).read_bytes()
        url = "/sw.js" if name == "sw.js" else static_urls(client)[name]
        assert brotli.decompress(get(client, url)[1]) == body, name  # brotli, gzip and identity: one script
        assert gzip.decompress(get(client, url, "gzip")[1]) == body, name
        assert len(body) < len(source), name
        text = body.decode()
        if name.endswith(".css"):
            assert b"/*" in source and "/*" not in text, name
            continue
        comments = re.findall(r"^\s*// (.*\S)", source.decode(), re.M)  # the source's whole-line comments
        assert comments, name
        assert not any(line.lstrip().startswith("//") for line in text.splitlines()), name
        for comment in comments:
            assert "// " + comment not in text, (name, comment)
    assert bodies["sw.js"].startswith(b'"use strict";var BUILD={"version":')  # its header comment gone, filled in


def test_the_vendored_htmx_is_sent_as_it_is(client):
    name = next(f for f in assets.PRECACHE if f.startswith("vendor/"))  # already minified by its authors
    r, data = get(client, static_urls(client)[name], "identity")
    assert data == (ROOT / "static" / name).read_bytes()


def node():
    found = shutil.which("node") or shutil.which("nodejs")
    if found is None:
        pytest.skip("Node.js not installed: the browser tests run the minified scripts instead")
    return found


def unfilled(worker: bytes) -> bytes:
    """The served worker with its BUILD back to `{}`, as static/sw.js has it (to compare the two)."""
    text = worker.decode()
    start = text.index("var BUILD=") + len("var BUILD=")
    _, end = json.JSONDecoder().raw_decode(text, start)
    return (text[:start] + "{}" + text[end:]).encode()


def test_the_minified_scripts_parse(client, tmp_path):
    for name, body in served(client).items():
        if name.endswith(".js"):
            (tmp_path / name).write_bytes(body)
            run = subprocess.run([node(), "--check", str(tmp_path / name)], capture_output=True, text=True, timeout=60)
            assert run.returncode == 0, (name, run.stderr)


# Node.js's own copy of the acorn parser (reachable with --expose-internals): both files' syntax trees, without
# the positions and the raw spelling of literals (a minifier moves the first; neither changes the second).
SAME_TREE = r"""
let acorn;
try { acorn = require('internal/deps/acorn/acorn/dist/acorn'); } catch (e) { process.exit(3); }
const fs = require('fs');
const tree = (f) => JSON.stringify(acorn.parse(fs.readFileSync(f, 'utf8'), { ecmaVersion: 'latest' }),
  (k, v) => ['start', 'end', 'raw'].includes(k) ? undefined : (v instanceof RegExp ? String(v) : v));
process.exit(tree(process.argv[2]) === tree(process.argv[3]) ? 0 : 1);
"""


def test_the_minified_scripts_are_their_sources_without_comments_and_spaces(client, tmp_path):
    """rjsmin only removes comments and whitespace: the served script parses to the source's syntax tree."""
    bodies = served(client)
    bodies["sw.js"] = unfilled(bodies["sw.js"])
    (tmp_path / "same.js").write_text(SAME_TREE)
    for name, body in bodies.items():
        if not name.endswith(".js"):
            continue
        (tmp_path / name).write_bytes(body)
        run = subprocess.run([node(), "--expose-internals", str(tmp_path / "same.js"), str(ROOT / "static" / name),
                              str(tmp_path / name)], capture_output=True, text=True, timeout=60)
        if run.returncode == 3:
            pytest.skip("this Node.js has no acorn inside: test_the_minified_scripts_parse and the browser tests")
        assert run.returncode == 0, (name, run.stderr)


@pytest.mark.browser
def test_the_minified_style_sheet_is_the_same_rules_in_chromium(client, page):
    rules = "(t) => { const s = new CSSStyleSheet(); s.replaceSync(t); return Array.from(s.cssRules, r => r.cssText); }"
    source = page.evaluate(rules, (ROOT / "static" / "app.css").read_text())
    sent = page.evaluate(rules, served(client)["app.css"].decode())
    assert source and sent == source
