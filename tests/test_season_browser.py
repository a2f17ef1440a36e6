"""A season on two phones at 390x844 (issue 36): two Troggu evenings of a circle, the pot's rule and an entry, a
merge made on one phone and undone on the other, a line marked paid on the circle and one on an evening, an evening
re-dated into the month before; the evening's settle-up, the circle's and the standings checked against figures
worked out by hand below, on both phones."""
from datetime import date, timedelta

import pytest
from playwright.sync_api import expect

from test_circle_browser import SHOTS, open_evening, standings
from test_tables_browser import WAIT, save, troggu_normal
from tests.conftest import PHONE, in_use

pytestmark = pytest.mark.browser


def phone(browser):
    """A second phone: its own browser context (cookies, storage), held upright at 390x844."""
    return browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2).new_page()


def owed(page) -> list[str]:
    """The lines still owed on the settle-up the page shows (the circle's or an evening's), as it says them, A–Z
    (two evenings of one day come in the order of their ids: every page of the circle lists them so)."""
    lines = page.locator("ol.transfers:not(.paid) li").all_inner_texts()
    return sorted(" ".join(t.replace("Paid", "").split()) for t in lines)


def mark(page, line: str) -> None:
    """Tap Paid beside the line that says `line`, and wait until it is no longer owed."""
    page.locator("ol.transfers:not(.paid) li", has_text=line).get_by_role("button", name="Paid").click()
    expect(page.locator("ol.transfers:not(.paid) li", has_text=line)).to_have_count(0, timeout=WAIT)


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_season_on_two_phones_agrees_on_every_page(page, browser, live_server):
    page.goto(live_server + "/circles/new")
    page.fill("input[name=name]", "Krone")
    page.get_by_role("button", name="Start the circle").click()
    expect(page.locator("h1")).to_have_text("Krone", timeout=WAIT)
    circle = page.url
    # Evening 1, Troggu at 10 Rappen a unit, four players: each hand's 3 opponents pay or are paid 1 unit each
    # (a normal game won or lost single, docs/rules.md §5). Anna's normal with 50 loses: Anna −3, the others +1;
    # Ben's with 62 wins: Ben +3, the others −1. Anna −4 units (−40 Rappen), Ben +4 (+40), Cla 0, Dario 0.
    first = open_evening(page, "Troggu", ["Anna", "Ben", "Cla", "Dario"], "0.10")
    troggu_normal(page, "Anna", 50)
    save(page)
    troggu_normal(page, "Ben", 62)
    save(page)
    # Evening 2, Anna written "Ana": Ana's 62 wins (Ana +3, others −1), Cla's 50 loses (Cla −3, others +1):
    # Ana +4 (+40), Ben 0, Cla −4 (−40), Dario 0.
    page.goto(circle)
    second = open_evening(page, "Troggu", ["Ana", "Ben", "Cla", "Dario"], "0.10")
    troggu_normal(page, "Ana", 62)
    save(page)
    troggu_normal(page, "Cla", 50)
    save(page)
    # The pot: 20 Rappen for each hand lost by whoever took it on (Anna's 50, Cla's 50: 20 each, owed to the pot);
    # Dario pays 50 Rappen in for the coffee
    page.goto(circle)
    page.fill("input[name=per_lost_hand]", "0.20")
    page.get_by_role("button", name="Keep this rule").click()
    expect(page.locator("ul.pot-rule")).to_contain_text("Anna: 1 hand lost, 20 Rappen", timeout=WAIT)
    page.fill(".pot-form input[name=amount]", "0.50")
    page.fill(".pot-form input[name=who]", "Dario")
    page.fill(".pot-form input[name=note]", "coffee")
    page.get_by_role("button", name="Add to the pot's list").click()
    expect(page.locator("#pot .sentence")).to_have_text("The pot holds 50 Rappen.", timeout=WAIT)
    # Owed: Anna −40 − 20 = −60, Cla −40 − 20 = −60; Ben +40, Ana +40, the pot +40 (the fewest payments)
    before = ["Anna pays Ben 40 Rappen", "Anna pays into the pot 20 Rappen", "Cla pays Ana 40 Rappen",
              "Cla pays into the pot 20 Rappen"]
    assert owed(page) == before

    # Ana is Anna: made one person, on this phone (it asks first, then says what it did, with Undo)
    people = page.locator("form.rename-person")
    people.locator("select[name=person]").select_option("Ana")
    people.locator("input[name=name]").fill("Anna")
    people.get_by_role("button", name="Rename everywhere").click()
    page.get_by_role("button", name="Yes, make them one").click()
    expect(page.locator("#people .message")).to_have_text("Ana and Anna are now one: Anna, in 1 evening.",
                                                          timeout=WAIT)
    # Anna over both evenings: −4 + 4 = 0 units, −40 + 40 = 0 money
    assert standings(page)["Anna"] == ["2", "0", "0"] and "Ana" not in standings(page)
    no_sideways_scroll(page)
    page.locator("#people").screenshot(path=f"{SHOTS}/season-merged.png")
    # The other phone opens the circle by the same link, sees the merge, and takes it back: it was a mistake
    other = phone(browser)
    other.goto(circle)
    expect(other.locator("form.undo-rename")).to_contain_text("Last change: Ana and Anna made one.", timeout=WAIT)
    other.locator("form.undo-rename").get_by_role("button", name="Undo").click()
    expect(other.locator("#people .message")).to_have_text(
        "Undone: Ana and Anna are two people again, in the 1 evening it changed.", timeout=WAIT)
    expect(other.locator("form.undo-rename")).to_have_count(0)
    other.locator("#people").screenshot(path=f"{SHOTS}/season-merge-undone.png")
    page.reload()
    assert owed(page) == before and standings(page)["Ana"] == ["1", "+4", "+CHF 0.40"]

    # One line marked paid on the circle (this phone), one on evening 2's settle-up (the other phone)
    mark(page, "Anna pays into the pot 20 Rappen")
    expect(page.locator("#pot .sentence")).to_have_text("The pot holds 70 Rappen.", timeout=WAIT)  # 50 + 20
    other.goto(second.rstrip("/") + "/settle")
    in_use(other)
    assert owed(other) == [line for line in before if line != "Anna pays into the pot 20 Rappen"]  # the circle's mark
    mark(other, "Cla pays Ana 40 Rappen")
    left = ["Anna pays Ben 40 Rappen", "Cla pays into the pot 20 Rappen"]  # 120 owed in all, 20 + 40 paid: 60 left
    assert owed(other) == left
    no_sideways_scroll(other)
    other.screenshot(path=f"{SHOTS}/season-evening-settle.png", full_page=True)
    # every page of the season says the same, on either phone
    page.reload()
    assert owed(page) == left
    for url in (first, second):
        other.goto(url.rstrip("/") + "/settle")
        assert owed(other) == left, url

    # Evening 1 was played last month: re-dated under Change the table
    last_month = date.today().replace(day=1) - timedelta(days=1)
    page.goto(first.rstrip("/") + "/setup")
    page.fill("input[name=played_on]", last_month.isoformat())
    page.get_by_role("button", name="Keep this date").click()
    expect(page.locator(".evening-date .message")).to_be_visible(timeout=WAIT)
    # The season (all time): every evening; this month: evening 2 alone (Anna played only evening 1)
    page.goto(circle)
    assert standings(page) == {"Ana": ["1", "+4", "+CHF 0.40"], "Ben": ["2", "+4", "+CHF 0.40"],
                               "Dario": ["2", "0", "0"], "Anna": ["1", "−4", "−CHF 0.40"],
                               "Cla": ["2", "−4", "−CHF 0.40"]}
    page.goto(circle + "?period=month")
    assert standings(page) == {"Ana": ["1", "+4", "+CHF 0.40"], "Ben": ["1", "0", "0"], "Dario": ["1", "0", "0"],
                               "Cla": ["1", "−4", "−CHF 0.40"]}
    assert owed(page) == left  # what is owed is owed whatever the period shown
    no_sideways_scroll(page)
    page.screenshot(path=f"{SHOTS}/season-circle.png", full_page=True)
    other.goto(circle + "?period=month")
    assert owed(other) == left and "Anna" not in standings(other)
