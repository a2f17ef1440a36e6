"""The counting page in Chromium at 390×844: tapping, switching games, class counts, groups, no JavaScript."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def tap(page, code):
    page.locator(f"label:has(input[value='{code}'])").tap()


def points(page):
    return page.locator("#result .score strong")


def test_tap_troccas_then_switch_to_troggu(live_server, page):
    page.goto(f"{live_server}/count/troccas")
    page.evaluate("window.notReloaded = true")
    # italian-swiss-archive.txt (SCA Troccas): a king, a queen, a valet and a suit card are 9 points.
    for code in ("SW-K", "CU-Q", "BA-J", "CO-5"):
        tap(page, code)
    expect(points(page)).to_have_text("9")
    expect(page.locator("#result")).to_contain_text("4 cards")
    expect(page.locator("#result")).to_contain_text("1 group of 4: 12 − 3 = 9")
    expect(page.locator("#result")).to_contain_text("The other side: 63 points, 74 cards")
    assert page.evaluate("window.notReloaded") is True  # updated in place, the picker kept
    expect(page.locator("input[value='SW-K']")).to_be_checked()
    tap(page, "CO-5")  # tap again: out of the pile; 3 cards = 11 − 2 = 9, with a warning
    expect(page.locator("#result")).to_contain_text("3 cards")
    expect(page.locator("#result .warning")).to_be_visible()
    page.locator(".switch summary").tap()
    page.get_by_role("link", name="Troggu", exact=True).tap()
    expect(page).to_have_url(f"{live_server}/count/troggu")
    expect(page.locator("input[name='card']")).to_have_count(62)


@pytest.mark.parametrize("game_id", ["troggu", "french_tarot"])
def test_phone_layout(live_server, page, game_id):
    page.goto(f"{live_server}/count/{game_id}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no horizontal scroll
    for box in page.locator("label.card").evaluate_all("els => els.map(e => e.getBoundingClientRect())"):
        assert box["height"] >= 44 and box["width"] >= 44


def test_class_counts_match_tapping(live_server, page):
    page.goto(f"{live_server}/count/troccas")
    for code in ("SW-K", "CU-K", "CO-Q", "BA-J", "T5", "T6", "T7", "T8"):
        tap(page, code)
    # 5 + 5 + 4 + 2 + 4·1 = 20, two groups of four: 20 − 6 = 14
    expect(points(page)).to_have_text("14")
    page.get_by_role("link", name="By class").tap()
    steps = {"Kings": ("kings", 2), "Queens": ("queens", 1), "Jacks": ("jacks", 1), "Other cards": ("others", 4)}
    for name, (field, times) in steps.items():
        for i in range(times):
            page.get_by_role("button", name=f"One more: {name}").tap()
            expect(page.locator(f"#n-{field}")).to_have_value(str(i + 1))  # the swap is done
    expect(points(page)).to_have_text("14")
    expect(page.locator("#result")).to_contain_text("2 groups of 4: 20 − 6 = 14")
    expect(page.locator("#n-kings")).to_have_value("2")


def test_group_by_group(live_server, page):
    page.goto(f"{live_server}/count/troccas/groups")
    for code in ("SW-K", "CU-Q", "BA-J", "CO-5"):
        tap(page, code)
    expect(page.locator("#result")).to_contain_text("This group: 9")
    page.get_by_role("button", name="Add group").tap()
    for code in ("T21", "T1", "CO-Q", "SW-10"):  # SCA: XXI, I, queen, suit card = 12
        tap(page, code)
    page.get_by_role("button", name="Add group").tap()
    expect(page.locator(".total strong")).to_have_text("21")
    expect(page.locator("input[value='SW-K']")).to_be_disabled()
    page.get_by_role("button", name="Change").first.tap()
    expect(page.locator("h2")).to_contain_text("Changing group 1")
    tap(page, "BA-J")
    tap(page, "BA-C")  # the cavalier instead of the jack: 3 − 1 instead of 2 − 1
    page.get_by_role("button", name="Save group").tap()
    expect(page.locator(".total strong")).to_have_text("22")


def test_works_without_javascript(live_server, browser, browser_context_args):
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server}/count/troccas")
    for code in ("SW-K", "CU-Q", "BA-J", "CO-5"):
        page.locator(f"label:has(input[value='{code}'])").tap()
    page.get_by_role("button", name="Count").tap()
    expect(points(page)).to_have_text("9")
    expect(page.locator("input[value='CU-Q']")).to_be_checked()
    context.close()
