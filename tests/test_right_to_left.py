"""A right-to-left name is kept apart from the words and numbers beside it wherever it sits in a sentence (issue 37):
in every page a table or a circle shows, in what it says aloud (titles, labels) and in its share texts, the name is
between FSI and PDI (U+2068, U+2069: web/l10n.py isolated) or in a <bdi>, or alone in an element of its own (a
cell, a list item, an option: a paragraph of its own). Else "נועה pays Anna CHF 0.20" may be shown with the amount
or the other name on the wrong side of it."""
from __future__ import annotations

import html
import pathlib
import re
from html.parser import HTMLParser

import pytest
from flask import template_rendered

from scorekeeper import store
from tests.opening import TROCCAS

ROOT = pathlib.Path(__file__).resolve().parent.parent

NOA = "נועה"  # Noa, in Hebrew
ARABIC = "ليلى"  # Layla
FSI, PDI = "\u2068", "\u2069"
# an element whose whole text is its own paragraph, or a box of its own: a name alone in it is apart already
OWN = {"th", "td", "li", "option", "h1", "h2", "h3", "h4", "p", "div", "dt", "dd", "legend", "caption", "title",
       "label", "button", "summary", "bdi", "text", "tspan", "textarea"}
SAID_ALOUD = {"title", "aria-label", "alt", "placeholder", "data-share-text", "aria-description", "content"}


VOID = {"br", "input", "meta", "link", "img", "hr", "source", "col", "wbr", "area", "base", "embed"}


class Unisolated(HTMLParser):
    """Collect each place a right-to-left name sits in a sentence without being kept apart: an occurrence neither
    between FSI and PDI nor in a <bdi> counts unless the nearest element that is a paragraph of its own (OWN) holds
    that name and nothing else."""

    def __init__(self, names):
        super().__init__(convert_charrefs=True)
        self.names, self.found = names, []
        self.stack = [["", [], []]]  # [tag, text of it and all within it, names waiting for it to close]

    def handle_starttag(self, tag, attrs):
        for key, value in attrs:
            if key in SAID_ALOUD and value and self.bare(value):
                self.found.append(f"<{tag} {key}>: {value.strip()[:120]!r}")
        if tag not in VOID:
            self.stack.append([tag, [], []])

    def handle_endtag(self, tag):
        if tag not in {t for t, _x, _w in self.stack}:
            return
        while len(self.stack) > 1:
            open_tag, text, waiting = self.stack.pop()
            whole = "".join(text)
            for name in waiting:
                if whole.strip() != name:
                    self.found.append(f"<{open_tag}>: {whole.strip()[:120]!r}")
            if open_tag == tag:
                break

    def handle_data(self, data):
        for element in self.stack:
            element[1].append(data)
        if any(t == "bdi" for t, _x, _w in self.stack):
            return
        own = next(e for e in reversed(self.stack) if e[0] in OWN or e is self.stack[0])
        own[2].extend(self.bare(data))

    def close(self):
        super().close()
        self.handle_endtag("")

    def bare(self, text) -> list[str]:
        """The names in `text` that are not between an FSI and its PDI (alone, or in a phrase kept apart whole)."""
        return [name for name in self.names for m in re.finditer(re.escape(name), text)
                if text[:m.start()].count(FSI) <= text[:m.start()].count(PDI)]


def unisolated(page: str, names=(NOA, ARABIC)) -> list[str]:
    parser = Unisolated(names)
    parser.feed(page)
    parser.close()
    return sorted(set(parser.found))


def test_the_checker_finds_a_name_in_a_sentence_and_lets_one_kept_apart_or_alone():
    assert unisolated(f"<p><strong>{NOA}</strong> pays Anna</p>")  # <strong> keeps nothing apart
    assert unisolated(f'<button data-share-text="{NOA} pays Anna 0.20">Share</button>')
    assert unisolated(f"<p>{NOA} pays Anna</p>")
    assert not unisolated(f"<p>{FSI}{NOA}{PDI} pays Anna</p>")
    assert not unisolated(f"<p><bdi>{NOA}</bdi> pays Anna</p>")
    assert not unisolated(f"<ul><li>{NOA}</li></ul><table><tr><th>{NOA}</th></tr></table>")
    assert not unisolated(f'<input type="hidden" name="payer" value="{NOA}">')  # not said: a form's value
    assert not unisolated(f'<label><input type="radio"><span>{NOA}</span></label>')  # alone in its label
    assert unisolated(f"<th>{NOA} <span>deals</span></th>")


@pytest.fixture
def evening(app, client):
    """A circle's evening at which Noa and Layla play, with every part a page can show: hands, lines marked paid
    (the evening's and the season's), the pot; returns the pages' keys."""
    circle = client.post("/circles/new", data={"name": "Krone"}).headers["Location"]
    key = circle.rsplit("/", 1)[1]
    seats = {**TROCCAS, "players-1": ARABIC, "players-3": NOA}
    table = client.post(f"/tables/new/troccas?circle={key}", data=seats).headers["Location"]
    for n, points in enumerate((40, 30, 45)):  # Anna & Cla +4, −6, +9 (docs/rules.md §1)
        assert client.post(table + "/hands", data={"partner": "Cla", "side": "first", "points": str(points),
                                                   "token": f"h{n}"}).status_code == 303
    settle = client.get(table + "/settle").get_data(as_text=True)
    line = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', re.search(r'<form[^>]*class="mark-paid".*?</form>',
                                                                      settle, re.S).group(0)))
    assert client.post(table + "/settle/paid", data={k: html.unescape(v) for k, v in line.items()}).status_code == 303
    client.post(circle + "/pot", data={"amount": "1", "direction": "in", "currency": "CHF", "who": NOA,
                                       "note": "a solo lost"})
    with app.app_context():
        circle_id = store.find_circle(key).id
        store.mark_paid(NOA, "Anna", 5, "CHF", circle_id=circle_id)
        viewer = store.share_links(store.find_link(table.rsplit("/", 1)[1]).table_id)[store.VIEWER]
    return {"table": table, "viewer": f"/v/{viewer}", "circle": circle}


def test_every_page_of_a_table_and_a_circle_keeps_a_right_to_left_name_apart(app, client, evening):
    table, circle = evening["table"], evening["circle"]
    rendered = []

    def record(sender, template, context, **kw):
        rendered.append(template.name)
    template_rendered.connect(record, app)
    pages = [table, table + "/history", table + "/settle", table + "/share", table + "/setup", table + "/numbers",
             table + "/hands/1", table + "/hands/1/how", table + "/board", evening["viewer"], circle, circle + "/evenings", circle + "/share", circle + "/live?since=x"]
    found = {}
    for url in pages:
        r = client.get(url)
        assert r.status_code == 200, url
        page = r.get_data(as_text=True)
        assert NOA in page or url.endswith("/share"), url
        if unisolated(page):
            found[url] = unisolated(page)
    # a hand saved through htmx: the answer that says it and its share text
    r = client.post(table + "/hands", data={"partner": NOA, "side": "first", "points": "50", "token": "hx"},
                    headers={"HX-Request": "true", "HX-Target": "hand-form"})  # as htmx sends it
    assert r.status_code == 200
    if unisolated(r.get_data(as_text=True)):
        found["a Save's answer"] = unisolated(r.get_data(as_text=True))
    # a merge asks first, naming both spellings and the evenings (Noa and a second evening's Noah become one)
    key = circle.rsplit("/", 1)[1]
    other = client.post(f"/tables/new/troccas?circle={key}", data={**TROCCAS, "players-3": "Noah"}).headers["Location"]
    assert other
    r = client.post(circle + "/people", data={"person": "Noah", "name": NOA})
    assert r.status_code == 200 and "Make them one person?" in r.get_data(as_text=True)
    if unisolated(r.get_data(as_text=True)):
        found["a merge's question"] = unisolated(r.get_data(as_text=True))
    assert not found, "\n".join(f"{url}:\n  " + "\n  ".join(lines) for url, lines in found.items())
    template_rendered.disconnect(record, app)
    # the walk went through every page of a table's and a circle's that shows its people (the forms that open,
    # import and choose show none yet)
    pages = {f"{area}/{p.name}" for area in ("table", "circle") for p in (ROOT / "templates" / area).glob("*.html")
             if not p.name.startswith("_")}
    assert pages - set(rendered) == {"table/new.html", "table/games.html", "table/import.html", "circle/new.html",
                                     "circle/import.html"}, sorted(set(rendered))
