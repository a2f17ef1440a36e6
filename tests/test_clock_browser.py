"""One clock (issue 36): every time a phone shows is in the phone's own time zone, whatever the server's."""
from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from test_tables_browser import choose, save
from tests.conftest import in_use
from tests.opening import TROCCAS

pytestmark = pytest.mark.browser


def test_a_line_marked_paid_says_when_in_the_phones_time_zone(browser, live_server, browser_context_args):
    """A phone in Auckland (UTC+13 in November) and the app's zone (Europe/Zurich, UTC+1) are 12 hours apart: the
    time the server writes is Zurich's, the phone shows its own."""
    phone = browser.new_context(**browser_context_args, timezone_id="Pacific/Auckland", locale="en-US")
    page = phone.new_page()
    page.goto(live_server + "/tables/new/troccas")
    for i in range(4):
        page.fill(f"#players-{i}", TROCCAS[f"players-{i}"])
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#hand-form")).to_be_visible()
    in_use(page)  # the hand form's script (it asks for the preview) has run: a tap now is a player's
    choose(page, "Anna plays with", "Cla")
    page.fill("input[name=points]", "40")
    save(page)
    page.goto(page.url.split("#")[0].split("?")[0] + "/settle")
    page.locator(".mark-paid button").first.click()
    in_use(page)  # its scripts ran: the times are the phone's
    when = page.locator(".transfers.paid time[data-local]").first
    expect(when).to_be_visible()
    at = datetime.fromisoformat(when.get_attribute("datetime").replace("Z", "+00:00"))
    here = at.astimezone(ZoneInfo("Pacific/Auckland"))
    shown = when.inner_text()
    clock = f"{here.hour % 12 or 12}:{here.minute:02d}"
    assert re.search(rf"\b{clock}\s?[AP]M\b", shown), (shown, clock)  # Auckland's hour, not the server's
    zurich = at.astimezone(ZoneInfo("Europe/Zurich"))
    assert zurich.hour != here.hour  # (12 hours apart: the test tells the two clocks apart)
    phone.close()
