"""The evening as it really goes, at phone size (390x844) in Chromium: a Troggu evening where a fifth
player joins at hand 4, the stake doubles at hand 6, one player leaves at hand 8 and a name is corrected."""
import pytest
from playwright.sync_api import expect

from test_tables_browser import WAIT, choose, open_table, saved_and_settled, totals

pytestmark = pytest.mark.browser


def troggu_hand(page, declarer, points, n):
    choose(page, "Tappist or soloist", declarer)
    page.fill("input[name=points]", str(points))
    saved_and_settled(page, lambda: page.locator("button.save").click())
    expect(page.locator(".hand-list > li")).to_have_count(n, timeout=WAIT)


def change_table(page, names=None, stake=None, join=None, leaves=None):
    page.get_by_role("link", name="Change the table").click()
    expect(page.locator("h1")).to_have_text("Change the table", timeout=WAIT)
    for i, name in (names or {}).items():
        page.fill(f"input[name=name{i}]", name)
    if stake:
        page.fill("input[name=stake]", stake)
    if join:
        page.fill("input[name=join]", join)
    if leaves is not None:
        page.locator(f"input[name=leaves{leaves}]").check()
    page.get_by_role("button", name="Change the table").click()
    expect(page.locator("#hand-form")).to_be_visible(timeout=WAIT)


def test_a_troggu_evening_that_changes(page, live_server):
    open_table(page, live_server, "troggu", ["Anna", "Ben", "Cla", "Dumeng"])
    # 63 ≥ 58 wins; opponents 51 ≥ 30: each opponent pays 1 unit of 10 Rappen (docs/rules.md §5)
    for n, who in enumerate(["Anna", "Ben", "Cla"], 1):
        troggu_hand(page, who, 63, n)
    change_table(page, join="Eva")
    troggu_hand(page, "Dumeng", 63, 4)
    troggu_hand(page, "Eva", 63, 5)
    change_table(page, stake="0.20")
    troggu_hand(page, "Anna", 63, 6)
    troggu_hand(page, "Ben", 40, 7)  # 40 < 57: Ben loses, single: he pays each of 4 one unit
    change_table(page, leaves=1)
    troggu_hand(page, "Cla", 63, 8)
    change_table(page, names={2: "Duri"})  # Dumeng is Duri: corrected in every hand
    # worked in tests/test_table_changes.py: units A +3, B −6, C +2, D −1, E +2;
    # money A +0.70, B −1.10, C +0.50, D −0.20, E +0.10 (hands 1–5 at 10 Rappen, 6–8 at 20)
    assert totals(page) == {"Anna": ("+3", "+CHF 0.70"), "Cla": ("+2", "+CHF 0.50"), "Duri": ("−1", "−CHF 0.20"),
                            "Eva": ("+2", "+CHF 0.10"), "Ben left": ("−6", "−CHF 1.10")}
    expect(page.locator(".change").first).to_be_visible()
    expect(page.locator("#chart path")).to_have_count(5)
    expect(page.locator(".hand .after").first).to_contain_text("Duri −1")
    page.screenshot(path="/tmp/table-changes.png", full_page=True)
    page.get_by_role("link", name="Settle up").click()
    expect(page.locator("body")).to_contain_text("Ben", timeout=WAIT)
    expect(page.locator("body")).to_contain_text("1.10")


def test_this_phones_tables_are_told_apart_and_a_finished_one_opens_on_its_settle_up(page, live_server):
    open_table(page, live_server, "troccas", ["Anna", "Ben", "Cla", "Zoë"])
    page.fill("input[name=points]", "40")
    saved_and_settled(page, lambda: page.locator("button.save").click())  # this phone's list counts it then
    expect(page.locator(".hand-list > li")).to_have_count(1, timeout=WAIT)
    page.goto(live_server + "/")
    entry = page.locator("#my-tables li").first
    expect(entry).to_contain_text("Troccas: Anna, Ben, Cla, Zoë")
    expect(entry).to_contain_text("1 hand")
    expect(entry).to_contain_text("this phone scores")
    entry.get_by_role("button", name="Finished").click()
    expect(entry).to_contain_text("finished: opens on its settle-up")
    page.screenshot(path="/tmp/home-tables.png")
    entry.locator("a").click()
    expect(page).to_have_url(__import__("re").compile(r"/settle$"), timeout=WAIT)
