"""Issue 41 items 10 and 11: printed, and on a tablet or a TV, the history reads in order (hand 4 beside hand 3, not
beside hand 2), and a printout says what it is: the game, the players, the date, not the live line."""
import pytest
from playwright.sync_api import expect

from test_tables_browser import WAIT, choose, open_table, save

pytestmark = pytest.mark.browser

BOXES = """() => [...document.querySelectorAll('#hands .hand-list > li, main > .hand-list > li')]
  .map(li => { const r = li.getBoundingClientRect(); return [li.id, Math.round(r.left), Math.round(r.top)]; })"""


def four_hands(page, base):
    open_table(page, base, "troccas", ["Anna", "Ben", "Cla", "Zoë"], stake="0.10")
    for points in (40, 30, 50, 36):
        choose(page, "Anna plays with", "Cla")
        page.fill("input[name=points]", str(points))
        save(page)
    return page.url


def in_reading_order(boxes):
    """Read row by row, left to right, the hands come newest first, as the list is (columns would read 4, 2 on the
    first row and 3, 1 on the second); and there are side-by-side hands to read at all."""
    ids = [i for i, _x, _y in boxes]
    by_rows = [i for i, _x, _y in sorted(boxes, key=lambda b: (b[2], b[1]))]
    side_by_side = len({y for _i, _x, y in boxes}) < len(boxes)
    return ids == ["hand-4", "hand-3", "hand-2", "hand-1"] and by_rows == ids and side_by_side


def test_the_printed_history_reads_in_order_and_says_what_it_is(page, live_server):
    table = four_hands(page, live_server)
    page.emulate_media(media="print")
    page.goto(table + "/history")
    expect(page.locator(".paper-head")).to_be_visible(timeout=WAIT)
    # the game, the players and the day (today: the table was opened today; "full" in English: "Saturday, …")
    expect(page.locator(".paper-head")).to_contain_text("Troccas · Anna, Ben, Cla, Zoë · ")
    assert in_reading_order(page.evaluate(BOXES)), page.evaluate(BOXES)
    page.screenshot(path="/tmp/print-history.png", full_page=True)
    page.goto(table + "/settle")
    expect(page.locator(".paper-head")).to_contain_text("Troccas · Anna, Ben, Cla, Zoë · ")
    page.emulate_media(media="screen")
    page.goto(table + "/settle")
    expect(page.locator(".paper-head")).to_be_hidden()  # on paper only


def test_the_board_on_a_tv_lists_the_hands_in_reading_order(page, live_server):
    table = four_hands(page, live_server)
    page.set_viewport_size({"width": 1280, "height": 720})  # a TV's or a laptop's landscape board
    page.goto(table.replace("/t/", "/v/"))
    expect(page.locator("#hands .hand")).to_have_count(4, timeout=WAIT)
    assert in_reading_order(page.evaluate(BOXES)), page.evaluate(BOXES)
    page.screenshot(path="/tmp/tv-board.png")
