"""A small cup night in Chromium, at phone size (390x844) and on the projector (1280x720): 8 players, 2 rounds of one
game a table, a walk-in and a drop between the rounds, the director ending a table that hasn't played, and the
standings with ties checked against the figures worked out by hand below."""
import re

import pytest
from playwright.sync_api import expect

from test_tables_browser import WAIT, choose, save
from tests.conftest import in_use

pytestmark = pytest.mark.browser
PLAYERS = ["Anna", "Beat", "Cla", "Duri", "Elsa", "Fadri", "Gion", "Hanna"]


def tap(page, name):
    page.get_by_role("button", name=name).click()
    in_use(page)


def seats(page, table) -> list[str]:
    """The names at a table of the round, by seat, as the director's page lists them ("#4 Duri +4, …")."""
    row = page.locator(".cup-tables tbody tr").nth(table - 1)
    return re.findall(r"#\d+ (\S+)", row.locator("td").first.inner_text())


def score_table(page, director, table, points):
    """From the director's page, open table `table`'s scorer link and save one hand: its first seat plays with its
    third and they make `points` (of 72): points − 36 each, the other two the negative (docs/rules.md §1)."""
    names = seats(page, table)
    page.locator(".cup-tables tbody tr").nth(table - 1).locator("th a").click()
    expect(page.locator("#hand-form")).to_be_visible(timeout=WAIT)
    in_use(page)
    choose(page, f"{names[0]} plays with", names[2])
    page.fill("input[name=points]", str(points))
    save(page)
    page.goto(director)


def standings(page) -> list[tuple[int, str, str]]:
    """(rank, "#n name", points) by line, as the cup's standings show them."""
    out = []
    for row in page.locator(".cup-standings tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        out.append((int(cells[0]), row.locator("th a").inner_text().strip(), cells[-1].strip()))
    return out


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_small_cup_night(page, live_server, browser):
    page.goto(live_server + "/cups/new")
    page.fill("input[name=name]", "Dorfcup")
    page.fill("input[name=held_on]", "2026-11-28")
    page.select_option("select[name=game]", "troccas")
    tap(page, "Show this game's house rules")
    page.fill("input[name=rounds]", "2")
    page.fill("input[name=games]", "1")
    page.fill("input[name=seed]", "5")
    page.fill("textarea[name=players]", "\n".join(PLAYERS))
    tap(page, "Start the cup")
    expect(page.locator("h1")).to_have_text("Dorfcup", timeout=WAIT)
    director = page.url
    tap(page, "Draw round 1")
    # seed 5 draws (engine/draw.py, the same as `python -m scorekeeper draw --game troccas --players 8 --rounds 2
    # --seed 5` prints for round 1): table 1 Duri, Beat, Anna, Gion; table 2 Elsa, Hanna, Cla, Fadri
    assert seats(page, 1) == ["Duri", "Beat", "Anna", "Gion"] and seats(page, 2) == ["Elsa", "Hanna", "Cla", "Fadri"]
    no_sideways_scroll(page)
    score_table(page, director, 1, 40)  # Duri and Anna +4, Beat and Gion −4
    score_table(page, director, 2, 46)  # Elsa and Cla +10, Hanna and Fadri −10
    expect(page.locator(".cup-in")).to_have_text("2 of 2 tables in", timeout=WAIT)
    tap(page, "Close round 1")
    # between the rounds: Ines walks in (start number 9), Hanna (8) drops out
    page.fill("input[name=name]", "Ines")
    tap(page, "Add the player")
    page.locator("#player-8").get_by_role("button", name="Drops out").click()
    in_use(page)
    expect(page.locator("#player-8")).to_contain_text("dropped out", timeout=WAIT)
    tap(page, "Draw round 2")
    # round 2 by local search away from round 1's meetings: table 1 Duri, Gion, Ines, Fadri; table 2 Elsa, Cla,
    # Anna, Beat
    assert seats(page, 1) == ["Duri", "Gion", "Ines", "Fadri"] and seats(page, 2) == ["Elsa", "Cla", "Anna", "Beat"]
    score_table(page, director, 1, 30)  # Duri and Ines 30 − 36 = −6, Gion and Fadri +6
    expect(page.locator(".cup-in")).to_have_text("1 of 2 tables in", timeout=WAIT)
    tap(page, "End the unfinished tables and close round 2")  # table 2 ends with no hand: 0 for its four
    expect(page.locator(".cup-round")).to_contain_text("All rounds are played.", timeout=WAIT)
    # by hand: Anna +4 + 0 = +4; Beat −4 + 0 = −4; Cla +10 + 0 = +10; Duri +4 − 6 = −2; Elsa +10 + 0 = +10;
    # Fadri −10 + 6 = −4; Gion −4 + 6 = +2; Hanna −10 (round 1 only); Ines −6 (round 2 only).
    # Cla and Elsa share rank 1 (best round +10 each: the lower start number first); Beat and Fadri share rank 6,
    # Fadri listed first: his best round (+6) beats Beat's (0)
    expected = [(1, "#3 Cla", "+10"), (1, "#5 Elsa", "+10"), (3, "#1 Anna", "+4"), (4, "#7 Gion", "+2"),
                (5, "#4 Duri", "−2"), (6, "#6 Fadri", "−4"), (6, "#2 Beat", "−4"), (8, "#9 Ines", "−6"),
                (9, "#8 Hanna", "−10")]
    assert standings(page) == expected
    no_sideways_scroll(page)
    page.screenshot(path="/tmp/cup-phone.png", full_page=True)
    # the projector: the watch link's view at a landscape board's size, the same standings
    watch = page.locator(".cup-share a").first.get_attribute("href")
    projector = browser.new_page(viewport={"width": 1280, "height": 720})
    projector.goto(watch + "/projector")
    expect(projector.locator(".projector .cup-in")).to_contain_text("Round 2 of 2", timeout=WAIT)
    lines = projector.locator(".projector-standings tbody tr").all()
    rows = [(int(r.locator("td").first.inner_text()), r.locator("th").inner_text().strip(),
             r.locator("td").last.inner_text().strip()) for r in lines]
    assert rows == expected
    no_sideways_scroll(projector)
    projector.screenshot(path="/tmp/cup-projector.png")
    projector.close()
