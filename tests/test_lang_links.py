"""The language links (EN DE FR IT RM, on every page) stay on this site, whatever address the page answers.

A 404 page for /%5Cevil.example links its languages to "/\\evil.example?lang=de": a browser reads a backslash
after the first slash as a second slash (the WHATWG URL standard, for http and https), so the link leads to
evil.example. A tab or line break (%09, %0A) is dropped from a link before it is read, so "/\\t/evil.example"
is "//evil.example" too. WSGI servers hand the path over decoded, so these arrive in request.path as such.
"""
from __future__ import annotations

import html
import re

import pytest

# request.path as a WSGI server gives it for /%5Cevil.example, /%5C/evil.example, /%09/evil.example, /%0A/…
ODD_PATHS = ["/\\evil.example", "/\\/evil.example", "/\\\\evil.example/x", "/\t/evil.example", "/\n/evil.example",
             "/\r/evil.example"]
# //evil.example/x (or /%2F%2Fevil.example, decoded by the server): Werkzeug's request.path keeps one leading slash
SLASHES = ["//evil.example/x", "///evil.example", "/%2F%2Fevil.example"]


def language_links(client, method: str, path: str) -> list[str]:
    r = client.open("/", method=method, environ_overrides={"PATH_INFO": path})
    assert r.status_code in (404, 405)
    return [html.unescape(h) for h in re.findall(r'<a href="([^"]*(?:\?|&amp;)lang=[a-z]+)"', r.get_data(as_text=True))]


def same_site(href: str) -> bool:
    """Say whether a browser opens `href` on this site: a path with one leading slash, nothing a browser would read
    as a slash (a backslash) or drop from it (ASCII tab, line feed, carriage return), no other control character."""
    return (href.startswith("/") and href[1:2] not in ("/", "\\")
            and not any(c == "\\" or ord(c) < 0x20 or ord(c) == 0x7f for c in href))


@pytest.mark.parametrize("method", ["GET", "POST"])
@pytest.mark.parametrize("path", ODD_PATHS)
def test_the_language_links_of_an_odd_address_stay_on_this_site(client, method, path):
    links = language_links(client, method, path)
    assert len(links) == 5  # EN DE FR IT RM
    assert all(same_site(h) for h in links), links


@pytest.mark.parametrize("method", ["GET", "POST"])
@pytest.mark.parametrize("path", SLASHES)
def test_the_language_links_of_an_address_with_leading_slashes_stay_on_this_site(client, method, path):
    links = language_links(client, method, path)
    assert len(links) == 5 and all(same_site(h) for h in links), links


def test_the_language_links_of_a_page_keep_its_address_and_arguments(client):
    r = client.get("/rules?x=1")
    links = re.findall(r'<a href="([^"]*(?:\?|&amp;)lang=[a-z]+)"', r.get_data(as_text=True))
    assert [html.unescape(h) for h in links] == [f"/rules?x=1&lang={code}" for code in ("en", "de", "fr", "it", "rm")]
