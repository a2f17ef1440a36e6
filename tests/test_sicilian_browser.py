"""Sicilian Tarocchi through an evening in Italian at phone size (390x844): the counting page, a solo and a pago
through the table's form, the settle-up and the exports; nothing wider than the phone."""
import re

import pytest
from playwright.sync_api import expect

from test_tables_browser import WAIT

pytestmark = pytest.mark.browser


def tap(page, name, value):
    page.locator(f"label:has(input[name={name}][value='{value}'])").first.click()


def test_an_evening_of_sicilian_tarocchi_in_italian(page, live_server):
    # Counting: Giove (T20), the Fujutu and the king of coins, 10 + 10 + 5 = 25 nominal; as one group of three,
    # (10 − 1) + (10 − 1) + (5 − 1) + round(3/3) = 23 (docs/rules.md §10)
    page.goto(f"{live_server}/count/sicilian_tarocchi?lang=it")
    for card in ("T20", "FOOL", "CO-K"):
        page.locator(f"label.card:has(input[value='{card}'])").click()
    expect(page.locator("#result")).to_contain_text("23", timeout=WAIT)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="/tmp/sicily-count.png", full_page=True)
    # A table of three: Anna, Beat, Carla at 10 centimes
    page.goto(f"{live_server}/tables/new/sicilian_tarocchi?lang=it")
    for i, name in enumerate(["Anna", "Beat", "Carla"]):
        page.fill(f"#players-{i}", name)
    page.fill("input[name=stake]", "0.10")
    page.locator("form button.big").last.click()
    expect(page.locator("#hand-form")).to_be_visible(timeout=WAIT)
    table = page.url
    # A solo: Anna takes 60 of 109: 2 × (60 − 55) = +10 for her, −5 each for Beat and Carla (§10, tortorici)
    tap(page, "contract", "solo")
    tap(page, "declarer", "Anna")
    page.fill("input[name=points]", "60")
    expect(page.locator("#preview .sentence")).to_be_visible(timeout=WAIT)
    hands = int(page.locator("#table").get_attribute("data-hands"))
    page.locator("button.save").click()
    expect(page.locator("#table")).not_to_have_attribute("data-hands", str(hands), timeout=WAIT)
    # A pago: Beat and Carla pay Anna 1 game point each
    page.goto(table)
    tap(page, "contract", "pago")
    tap(page, "declarer", "Anna")
    folded = page.locator("details:has(input[name=payers])")  # "not played": a folded group of the form
    if folded.count() and not folded.first.evaluate("d => d.open"):
        folded.first.locator(":scope > summary").click()
    for payer in ("Beat", "Carla"):
        tap(page, "payers", payer)
    expect(page.locator("#preview .sentence")).to_be_visible(timeout=WAIT)  # read the result, then tap
    page.locator("button.save").click()
    expect(page.locator(".hand-list > li[id^='hand-']")).to_have_count(2, timeout=WAIT)
    # Anna +10 + 2 = +12, Beat −5 − 1 = −6, Carla −6: at 10 centimes, +1.20, −0.60, −0.60
    totals = {r.locator("th").evaluate("th => th.firstChild.textContent.trim()"):  # the name, not "mazziere"
              r.locator("td").first.inner_text() for r in page.locator("#totals tbody tr").all()}
    assert totals == {"Anna": "+12", "Beat": "−6", "Carla": "−6"}, totals
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="/tmp/sicily-table.png", full_page=True)
    page.goto(table + "/settle?lang=it")
    expect(page.locator(".transfers li")).to_have_count(2, timeout=WAIT)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for path in ("/export.csv", "/export.json"):
        assert page.request.get(table + path).status == 200
