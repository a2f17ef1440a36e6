"""A round's clock in Chromium (issue 38 item 1), at phone size (390x844) and on the projector (1280x720): the
director starts a cup with 45 minutes a round and draws; the director's page, the round's table page (its scorer
link), the player's page and the projector count down from the server's end (static/round_clock.js, no poll of its
own); the director's new end reaches each with its poll; at zero each says the time is up without a reload, and the
director still closes the round, which the table's page then says."""
import re
from datetime import datetime, timedelta, timezone

import pytest
from playwright.sync_api import expect
from sqlalchemy import create_engine, update

from scorekeeper.store.schema import tournaments
from test_cups_browser import PLAYERS, no_sideways_scroll, tap
from test_tables_browser import WAIT
from tests.conftest import in_use

pytestmark = pytest.mark.browser
LEFT = re.compile(r"^(44:[0-5]\d|45:00) left$")  # a moment after a 45 minutes' draw, counted each second


def test_a_rounds_clock_counts_down_on_every_page_and_says_when_the_time_is_up(page, live_server, browser, tmp_path):
    page.goto(live_server + "/cups/new")
    page.fill("input[name=name]", "Dorfcup")
    page.fill("input[name=held_on]", "2026-11-28")
    page.select_option("select[name=game]", "troccas")
    tap(page, "Show this game's house rules")
    page.fill("input[name=rounds]", "2")
    page.fill("input[name=games]", "1")
    page.fill("input[name=round_minutes]", "45")
    page.fill("input[name=seed]", "5")
    page.fill("textarea[name=players]", "\n".join(PLAYERS))
    tap(page, "Start the cup")
    tap(page, "Draw round 1")
    director = page.url
    clock = page.locator(".round-clock [data-clock-left]")
    expect(clock).to_have_text(LEFT, timeout=WAIT)
    first = clock.inner_text()
    expect(clock).not_to_have_text(first, timeout=WAIT)  # it counts down by itself, the page not reloaded
    end = page.locator(".round-clock time[data-clock-end]").inner_text()
    assert re.fullmatch(r"\d{1,2}:\d\d(\s?[AP]M)?", end), end  # the end as the phone's clock time
    no_sideways_scroll(page)
    page.locator(".cup-round").scroll_into_view_if_needed()
    page.screenshot(path="/tmp/clock-director-top.png")
    page.locator("#clock").scroll_into_view_if_needed()
    page.screenshot(path="/tmp/clock-director.png")
    watch = page.locator(".cup-share a").first.get_attribute("href")
    table = page.locator(".cup-tables tbody tr").first.locator("th a").get_attribute("href")
    # the round's first table, from its card's QR (its scorer link): the clock above its hand form
    scorer = browser.new_page(viewport={"width": 390, "height": 844})
    scorer.goto(live_server + table if table.startswith("/") else table)
    in_use(scorer)
    expect(scorer.locator(".round-clock [data-clock-left]")).to_have_text(LEFT, timeout=WAIT)
    no_sideways_scroll(scorer)
    scorer.screenshot(path="/tmp/clock-table.png")
    player = browser.new_page(viewport={"width": 390, "height": 844})
    player.goto(watch + "/p/1")
    expect(player.locator(".round-clock [data-clock-left]")).to_have_text(LEFT, timeout=WAIT)
    no_sideways_scroll(player)
    player.screenshot(path="/tmp/clock-player.png")
    projector = browser.new_page(viewport={"width": 1280, "height": 720})
    projector.goto(watch + "/projector")
    expect(projector.locator(".round-clock [data-clock-left]")).to_have_text(LEFT, timeout=WAIT)
    no_sideways_scroll(projector)
    projector.screenshot(path="/tmp/clock-projector.png")
    # the director gives the round 3 seconds more (as if 45 minutes had passed but 3 seconds): the poll brings the
    # new end to every live page, the table's too (its round, X-Cup-Round: its version didn't move), and each says
    # the time is up when it comes, by itself
    engine = create_engine(f"sqlite:///{tmp_path / 'live.sqlite'}")
    with engine.begin() as conn:
        conn.execute(update(tournaments).values(round_ends_at=datetime.now(timezone.utc) + timedelta(seconds=3),
                                                version=tournaments.c.version + 1))
    engine.dispose()
    for shown in (page, projector, scorer):
        expect(shown.locator(".round-clock [data-clock-left]")).to_have_text(
            "Time is up: the director closes the round.", timeout=WAIT + 5000)
    expect(page.locator(".round-clock")).to_have_class(re.compile(r"\bup\b"))
    projector.screenshot(path="/tmp/clock-projector-up.png")
    page.screenshot(path="/tmp/clock-director-up.png")
    page.goto(director)
    tap(page, "End the unfinished tables and close round 1")
    expect(page.locator(".cup-in")).to_have_text("The round is closed.", timeout=WAIT)
    expect(page.locator(".round-clock")).to_have_count(0)
    # the table's page says the round is closed, and its clock is gone, without a reload
    expect(scorer.locator("#round-closed")).to_be_visible(timeout=WAIT)
    expect(scorer.locator(".round-clock")).to_have_count(0)
    for other in (scorer, player, projector):
        other.close()
