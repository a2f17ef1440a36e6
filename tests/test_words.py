"""Each language written as its readers write it (issue 41, items 6–11): the rules pages' worked examples
translated, French typography set by the code, plurals, elision, one register, and the pot rule in each game's words."""
from __future__ import annotations

import html
import re

import pytest

from tests import opening
from tests.test_i18n import catalogue, page

TRANSLATED = ["de", "fr", "it", "rm"]


def engine_working(html_text: str) -> list[str]:
    """The steps of a rules page's "Check it: the app's working" box."""
    box = re.search(r'<details class="engine">(.*?)</details>', html_text, re.S).group(1)
    return [html.unescape(step) for step in re.findall(r"<li>(.*?)</li>", box, re.S)]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_french_tarot_rules_example_is_worked_in_the_readers_language(client, lang):
    """Item 6: the page's example (2 oudlers, 53 points: the FFT needs 41, docs/rules.md §6) was worked in English
    in every language; its first step is the catalogue's plural sentence, as in a hand's working."""
    entry = next(m for m in catalogue(lang) if m.id and m.id[0].startswith("Attack {points} points with {oudlers}"))
    expected = entry.string[-1].format(points=53, oudlers=2, defence=38, threshold=41)  # the plural: 2 oudlers
    steps = engine_working(page(client, f"/rules/french_tarot?lang={lang}"))
    assert steps[0].replace("\u202f", " ") == expected.replace("\u202f", " ")
    assert not any(step.startswith("Attack") for step in steps)
