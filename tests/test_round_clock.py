"""A round's clock (issue 38 item 1: "or a time limit the director closes"): the cup's minutes a round, the clock
started by the draw in server time, set again by the director, shown on the director's and the watch page, the
projector, the player's page and the round's tables' own pages (the end as a clock time, for a page without
scripts; static/round_clock.js counts down), "time is up" at zero, and the director still closing the round."""
import re
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from sqlalchemy import update

from scorekeeper import store
from scorekeeper.store.db import engine
from scorekeeper.store.schema import tournaments
from tests.test_cups_web import CUP, cup_of, start, tables_of, text, troccas_hand


def clock_on(page: str) -> tuple[str, str] | None:
    """(data-ends, the words the server wrote in it, every space one) of the page's clock, or None."""
    found = re.search(r'<p class="round-clock[^"]*" data-clock data-ends="([^"]+)"[^>]*>(.*?)</p>', page, re.S)
    return (found.group(1), " ".join(re.sub(r"<[^>]+>", "", found.group(2)).split())) if found else None


def ends_of(app, url) -> datetime:
    with app.app_context():
        return store.get_tournament(cup_of(app, url).id).round_ends_at


def zurich(moment: datetime) -> str:
    """The end as the app writes a clock time (BABEL_DEFAULT_TIMEZONE Europe/Zurich, English "short": 9:45 PM, its
    narrow space one as clock_on reads it)."""
    local = moment.astimezone(ZoneInfo("Europe/Zurich"))
    return f"{local.hour % 12 or 12}:{local.minute:02d} {'AM' if local.hour < 12 else 'PM'}"


def test_a_rounds_clock_shows_on_every_page_of_the_round_and_the_director_closes_it(app, client):
    url = start(client, round_minutes="45")
    cup = cup_of(app, url)
    assert clock_on(client.get(url).get_data(as_text=True)) is None  # no round drawn: no clock
    drawn_at = datetime.now(timezone.utc)
    client.post(url + "/draw")
    ends = ends_of(app, url)
    assert drawn_at + timedelta(minutes=45) <= ends <= datetime.now(timezone.utc) + timedelta(minutes=45)
    iso = ends.astimezone(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
    with app.app_context():
        watch = "/k/" + store.share_links(cup.id, store.TOURNAMENT)[store.VIEWER]
        one = tables_of(app, cup, 1)[0]
        scorer = "/t/" + store.share_links(one.table_id)[store.SCORER]
    pages = {"director": url, "watch": watch, "projector": watch + "/projector",
             "player": f"{watch}/p/{one.seats[0]}", "table": scorer}
    for name, page_url in pages.items():
        r = client.get(page_url)
        shown = clock_on(r.get_data(as_text=True))
        # 45 minutes from the draw, a moment ago: 45 whole minutes left, rounded up
        assert shown == (iso, f"About 45 minutes left Round 1 ends at {zurich(ends)}."), (name, shown)
        assert "round_clock.js" in r.get_data(as_text=True), name
    # the director sets the clock again: 10 minutes from now; the cup's poll brings it (its version moved on)
    page = client.get(url).get_data(as_text=True)
    tag = re.search(r'<div id="live"[^>]*data-etag=\'([^\']+)\'', page).group(1)
    poll = re.search(r'<div id="live"[^>]*hx-get="([^"]+)"', page).group(1)
    assert client.get(poll, headers={"If-None-Match": tag}).status_code == 304
    assert client.post(url + "/clock", data={"round": "1", "minutes": "10"}).status_code == 303
    r = client.get(poll, headers={"If-None-Match": tag})
    assert r.status_code == 200 and clock_on(r.get_data(as_text=True))[1].startswith("About 10 minutes left")
    assert clock_on(client.get(scorer).get_data(as_text=True))[1].startswith("About 10 minutes left")
    # the time is up (the end a minute ago, as if the minutes had passed): every page says so; the tables still
    # take hands, and the director still closes the round, ending the unfinished tables
    with app.app_context(), engine().begin() as conn:
        conn.execute(update(tournaments).where(tournaments.c.id == cup.id)
                     .values(round_ends_at=datetime.now(timezone.utc) - timedelta(minutes=1)))
    for name, page_url in pages.items():
        assert clock_on(client.get(page_url).get_data(as_text=True))[1].startswith(
            "Time is up: the director closes the round."), name
    r = client.post(url + "/close", data={"round": "1"})
    assert r.status_code == 409  # not every table is in: the clock changes nothing of closing
    assert client.post(url + "/close", data={"round": "1", "end": "1"}).status_code == 303
    for name, page_url in pages.items():
        assert clock_on(client.get(page_url).get_data(as_text=True)) is None, name  # a closed round: no clock
    r = client.post(url + "/clock", data={"round": "1", "minutes": "10"})
    assert r.status_code == 409 and "Round 1 isn't being played: only the round being played has a clock." in text(r)


def test_a_clock_in_bad_words_is_refused_at_its_field_with_the_input_kept(app, client):
    r = client.post("/cups/new", data={**CUP, "round_minutes": "three quarters"})
    assert r.status_code == 422 and "A round's minutes are a whole number from 0 to 600" in text(r)
    assert 'value="three quarters"' in r.get_data(as_text=True)
    url = start(client)  # no minutes: no clock
    client.post(url + "/draw")
    assert clock_on(client.get(url).get_data(as_text=True)) is None
    page = client.get(url).get_data(as_text=True)
    assert 'name="minutes"' in page and "Set the clock of round 1" in page
    for typed in ("x", "601", "-5", ""):
        r = client.post(url + "/clock", data={"round": "1", "minutes": typed})
        said = "Write the minutes from now: a whole number from 0 (no clock) to 600."
        assert r.status_code == 400 and said in text(r)
        assert f'name="minutes" inputmode="numeric" size="4" autocomplete="off" value="{typed}"' in r.get_data(
            as_text=True)
    assert ends_of(app, url) is None  # nothing stored
    assert client.post(url + "/clock", data={"round": "1", "minutes": "20"}).status_code == 303
    assert clock_on(client.get(url).get_data(as_text=True))[1].startswith("About 20 minutes left")
    assert client.post(url + "/clock", data={"round": "1", "minutes": "0"}).status_code == 303  # the clock taken off
    assert clock_on(client.get(url).get_data(as_text=True)) is None


def test_a_cups_file_carries_its_running_clock(app, client):
    import io
    import json
    url = start(client, round_minutes="30")
    client.post(url + "/draw")
    data = json.loads(client.get(url + "/export.json").data)
    assert data["clock"]["minutes"] == 30
    r = client.post("/cups/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "c.json")},
                    content_type="multipart/form-data")
    assert r.status_code == 303
    restored = r.headers["Location"]
    assert ends_of(app, restored) == ends_of(app, url) and cup_of(app, restored).round_minutes == 30
    for bad in ({"minutes": "30"}, {"minutes": 601}, {"minutes": 30, "ends_at": "soon"}, []):
        data["clock"] = bad
        r = client.post("/cups/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "c.json")},
                        content_type="multipart/form-data")
        assert r.status_code == 400, bad
        assert ("The cup's round clock in the file is not valid." in text(r)
                or "A date in the file can't be read." in text(r)), bad


def test_a_cup_tables_poll_brings_its_round_again_when_the_director_sets_the_clock_or_closes_it(app, client):
    """Setting a round's clock or closing the round moves no table's version on (the table's hands are as they
    were), so a table page's poll, which asks by the table's version, brought neither: the players' pages counted
    down to the old end until reloaded. The page now says the round it shows (X-Cup-Round, static/board.js), and the
    poll brings the round alone when only it changed (web/table/live.py), with the table's version as before."""
    url = start(client, round_minutes="45")
    cup = cup_of(app, url)
    client.post(url + "/draw")
    with app.app_context():
        one = tables_of(app, cup, 1)[0]
        scorer = "/t/" + store.share_links(one.table_id)[store.SCORER]
    page = client.get(scorer).get_data(as_text=True)
    round_tag = re.search(r'<div id="cup-round" data-round-tag="([^"]+)"', page).group(1)
    live = re.search(r'<div id="live"[^>]*hx-get="([^"]+)"[^>]*data-etag=\'([^\']+)\'', page, re.S)
    poll, tag = live.group(1), live.group(2)

    def ask(shown_round, board=None):
        return client.get(poll, headers={"If-None-Match": board or tag, "X-Cup-Round": shown_round})

    assert ask(round_tag).status_code == 304
    assert client.post(url + "/clock", data={"round": "1", "minutes": "10"}).status_code == 303
    assert client.get(poll, headers={"If-None-Match": tag}).status_code == 304  # a page that says no round: as before
    r = ask(round_tag)
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and r.headers["ETag"] == tag  # the table's version, unmoved
    assert 'id="cup-round"' in body and 'hx-swap-oob="true"' in body and 'id="totals"' not in body  # the round alone
    assert clock_on(body)[1].startswith("About 10 minutes left")
    now_tag = re.search(r'data-round-tag="([^"]+)"', body).group(1)
    assert now_tag != round_tag and ask(now_tag).status_code == 304
    # a hand saved and the clock set again: the board as always, and the round beside it
    troccas_hand(app, one, 40)
    assert client.post(url + "/clock", data={"round": "1", "minutes": "20"}).status_code == 303
    r = ask(now_tag)
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and r.headers["ETag"] != tag and 'id="totals"' in body
    assert clock_on(body)[1].startswith("About 20 minutes left")
    now_tag, tag = re.search(r'data-round-tag="([^"]+)"', body).group(1), r.headers["ETag"]
    # the director closes the round (its tables unfinished, ended): the page says so, and its clock is gone
    assert client.post(url + "/close", data={"round": "1", "end": "1"}).status_code == 303
    r = ask(now_tag)
    body = r.get_data(as_text=True)
    assert r.status_code == 200 and 'id="round-closed"' in body and clock_on(body) is None
    closed_tag = re.search(r'data-round-tag="([^"]+)"', body).group(1)
    assert closed_tag.startswith("closed.") and ask(closed_tag).status_code == 304
