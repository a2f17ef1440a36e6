"""A season's list to another phone by its QR code (issue 36): 30 tables and 20 circles, sealed on the phone, the
code an address and a key (at most ~300 characters), the list whole on the other phone."""
from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_a_long_list_goes_by_a_short_code_and_arrives_whole(browser, live_server, browser_context_args):
    tables = [{"id": f"t{n:02d}", "game": "Troccas", "href": f"/t/{'k' * 20}{n:02d}", "players": ["Anna", "Ben",
               "Cla", "Zoë"], "at": 1_700_000_000_000 + n, "hands": n, "role": "scorer", "started": "2026-11-27"}
              for n in range(30)]
    circles = [{"key": f"c{n:02d}", "name": f"Donnerstagsrunde {n}", "href": f"/c/{'c' * 20}{n:02d}",
                "role": "scorer"} for n in range(20)]
    first = browser.new_context(**browser_context_args)
    page = first.new_page()
    page.goto(live_server + "/")
    page.evaluate("([t, c]) => { localStorage.setItem('scorekeeper.tables', JSON.stringify(t));"
                  " localStorage.setItem('scorekeeper.circles', JSON.stringify(c)); }", [tables, circles])
    page.reload()
    whole = page.locator("#phone-list-link").input_value()
    assert len(whole) > 2900  # the whole list: too long for any code
    page.get_by_text("Take this list to another phone").click()
    qr = page.locator("#phone-list-qr")
    expect(qr).to_be_visible()
    link = qr.get_attribute("data-link")
    assert "#k=" in link and len(link) <= 300, link  # an address and a key
    page.screenshot(path="/tmp/list-qr.png", full_page=True)
    first.close()
    second = browser.new_context(**browser_context_args)
    other = second.new_page()
    other.goto(link)
    expect(other.locator("#take-summary")).to_have_text("This link carries 30 tables and 20 circles.")
    other.get_by_role("button", name="Keep them on this phone").click()
    kept = json.loads(other.evaluate("localStorage.getItem('scorekeeper.tables')"))
    assert sorted(t["id"] for t in kept) == [t["id"] for t in tables]
    second.close()
