"""Static scripts and style sheets compressed once at brotli's best and kept (web/precompressed.py), through
the test client: each is sent in the best encoding the browser takes and decompresses to the file's bytes,
varies on Accept-Encoding, revalidates with a 304, and a changed file is a new URL and new bytes."""
import gzip
import re
from pathlib import Path

import brotli

from scorekeeper.web import pwa

ROOT = Path(__file__).resolve().parent.parent
BROWSER = "gzip, deflate, br, zstd"  # what Chromium sends


def static_urls(client):
    page = client.get("/").get_data(as_text=True)
    return {re.sub(r"\?v=.*", "", u)[len("/static/"):]: u
            for u in re.findall(r'"(/static/[^"]+\.(?:js|css)\?v=[0-9a-f]{12})"', page)}


def get(client, url, encoding=BROWSER, **headers):
    r = client.get(url, headers={"Accept-Encoding": encoding, **headers})
    data = r.get_data()
    r.close()
    return r, data


def test_scripts_and_styles_come_brotli_compressed_at_its_best_and_cached_a_year(app, client):
    urls = static_urls(client)
    assert set(pwa.PRECACHE) <= set(urls)
    for name, url in urls.items():
        source = (ROOT / "static" / name).read_bytes()
        r, data = get(client, url)
        assert r.status_code == 200 and r.headers["Content-Encoding"] == "br", name
        assert brotli.decompress(data) == source, name
        assert len(data) == len(brotli.compress(source, quality=11)), name  # quality 11, not an on-the-fly level
        assert r.headers["Vary"] == "Accept-Encoding"
        assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        with app.app_context():
            assert r.headers["ETag"] == f'"{pwa.digest(name)}-br"'
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert r.mimetype == ("text/css" if name.endswith(".css") else "text/javascript")


def test_gzip_for_a_browser_without_brotli_and_plain_for_one_with_neither(client):
    url = static_urls(client)["app.css"]
    source = (ROOT / "static" / "app.css").read_bytes()
    r, data = get(client, url, "gzip, deflate")
    assert r.headers["Content-Encoding"] == "gzip" and gzip.decompress(data) == source
    r, data = get(client, url, "br;q=0, gzip")
    assert r.headers["Content-Encoding"] == "gzip"
    r, data = get(client, url, "identity")
    assert "Content-Encoding" not in r.headers and data == source
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
    client = app.test_client()
    (tmp_path / "x.css").write_text("a{color:blue}" * 50)
    with app.test_request_context():
        first = pwa.static_url("x.css")
    r, data = get(client, first)
    assert brotli.decompress(data) == (tmp_path / "x.css").read_bytes()
    (tmp_path / "x.css").write_text("a{color:red}" * 50)
    with app.test_request_context():
        second = pwa.static_url("x.css")
    assert second != first
    r, data = get(client, second)
    assert brotli.decompress(data) == b"a{color:red}" * 50
    assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    r, data = get(client, first)  # the old URL: today's file, not to be kept under the old name
    assert brotli.decompress(data) == b"a{color:red}" * 50 and r.headers["Cache-Control"] == "no-cache"


def test_the_service_worker_comes_compressed_and_revalidates(client):
    r, data = get(client, "/sw.js")
    assert r.headers["Content-Encoding"] == "br" and r.headers["Cache-Control"] == "no-cache"
    assert '"version": ' in brotli.decompress(data).decode()
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
