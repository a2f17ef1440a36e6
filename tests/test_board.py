"""The scoreboard stays exact at any length: totals from the cache equal totals worked out afresh from the
facts, and a long table's page shows the latest hands with the older ones a tap away. A hand stored wrong is
named on its row, and every other hand is still shown and counted."""
import html
import re

import pytest
from sqlalchemy import update

from scorekeeper import store
from scorekeeper.engine.games import get_game
from scorekeeper.engine import evening
from scorekeeper.engine.evening import Setup
from scorekeeper.web import scoreboard

HAND = {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna"}


def test_a_long_table_shows_the_latest_hands_and_pages_the_rest(client, app):
    with app.app_context():
        table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
        for i in range(45):
            store.add_hand(table.id, {**HAND, "points": 40}, f"p{i}")
    page = client.get(f"/t/{table.id}").get_data(as_text=True)
    shown = re.findall(r'<li id="hand-(\d+)" class="hand">', page)
    assert shown == [str(n) for n in range(45, 25, -1)]  # the newest 20, newest first
    assert "+180" in page  # 45 hands × (40 − 36) = +180 for Anna: the totals cover every hand
    older = re.search(r'href="([^"]*/history\?before=25)"', page).group(1)
    history = client.get(older).get_data(as_text=True)
    assert re.findall(r'<li id="hand-(\d+)" class="hand">', history) == [str(n) for n in range(25, 0, -1)]


def test_a_kept_board_is_never_stale(client, app):
    """The table page's board is kept per version: after any change the page shows the change."""
    with app.app_context():
        table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
        store.add_hand(table.id, {**HAND, "points": 40}, "k1")
    assert "+4" in client.get(f"/t/{table.id}").get_data(as_text=True)  # 40 − 36 (docs/rules.md §1)
    with app.app_context():
        store.edit_hand(table.id, 1, {**HAND, "points": 50}, "k2")  # another phone, straight to the store
    page = client.get(f"/t/{table.id}").get_data(as_text=True)
    assert "+14" in page and "+4<" not in page


def summary_of(b):
    """What a board says, row by row and in total (everything a page, a poll or settle-up reads)."""
    return ([(r.index, r.hand.number, r.dealer, r.scores, r.payouts, r.after_units, r.after_money, r.summary,
              r.warnings, r.error, r.changes, r.low, r.high, r.charted) for r in b.rows],
            b.units, b.money, b.next_dealer, b.games, b.players, b.left, b.pending)


def test_a_board_kept_and_extended_by_added_hands_equals_one_built_from_the_facts(app):
    """scoreboard.current scores only the hands added since the kept board; the result must never drift from a
    board rebuilt from every hand's facts (the running totals, totals, next dealer and the games of four deals)."""
    with app.app_context(), app.test_request_context():
        table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
        for i in range(6):
            store.add_hand(table.id, {**HAND, "points": (i * 13) % 73}, f"x{i}")
        kept = scoreboard.current(store.get_table(table.id))[1]
        for i in range(6, 9):  # three more, with the kept board at 6 hands
            store.add_hand(table.id, {**HAND, "points": (i * 13) % 73}, f"x{i}")
        now = store.get_table(table.id)
        extended = scoreboard.current(now)[1]
        assert len(extended.rows) == 9 and all(a is b for a, b in zip(extended.rows[:6], kept.rows))  # reused, not rebuilt
        assert summary_of(extended) == summary_of(evening.build(Setup.of(now), store.list_hands(table.id), evening.latest(len(store.list_hands(table.id)))))
        for i in range(9, 14):  # one at a time, across the ends of games of four deals (games kept, not redone)
            store.add_hand(table.id, {**HAND, "points": (i * 13) % 73}, f"x{i}")
            now = store.get_table(table.id)
            assert summary_of(scoreboard.current(now)[1]) == summary_of(evening.build(Setup.of(now), store.list_hands(table.id), evening.latest(len(store.list_hands(table.id)))))
        # an edit among them is not an addition: the board is built afresh, and again equals the facts' board
        store.edit_hand(table.id, 2, {**HAND, "points": 72}, "x-edit")
        now = store.get_table(table.id)
        assert summary_of(scoreboard.current(now)[1]) == summary_of(evening.build(Setup.of(now), store.list_hands(table.id), evening.latest(len(store.list_hands(table.id)))))


def test_the_charts_steps_drawn_on_the_chart_a_phone_shows_make_the_chart_of_the_evening_now(app):
    """A Save's answer or a poll brings only the new steps of the chart the phone shows (web/chart.py chart_steps),
    which static/board.js draws on: its last point off when it was off the grid, the steps on, the width anew. Drawn
    that way (here as board.js does it) onto the chart of the first m hands, they must make the very chart of all n,
    for every evening length up to 250 (the grid widens at 61, 121, 181, 241) and 1 to 3 hands added; where they can't
    (a new highest or lowest past the axis's round step, a wider grid), none come and the whole chart does."""
    from scorekeeper.web.chart import axis, chart, chart_steps
    with app.app_context(), app.test_request_context():
        table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
        hands = [store.Hand(i, i, {**HAND, "points": (i * 29) % 73}, 1, None, None, None, None) for i in range(1, 251)]
        full = evening.build(Setup.of(table), hands, evening.latest(len(hands)))
        came, whole = 0, 0
        for n in range(3, 251):
            b = evening.build(Setup.of(table), hands[:n], evening.latest(n))
            for added in (1, 2, 3):
                m = n - added
                if m < 2:
                    continue
                steps, shown, now = chart_steps(b, added), chart(evening.build(Setup.of(table), hands[:m],
                                                                            evening.latest(m))), chart(b)
                widened = -(-m // 60) != -(-n // 60)
                rescaled = axis(b.rows[m - 1].low, b.rows[m - 1].high) != axis(b.rows[-1].low, b.rows[-1].high)
                assert (steps is None) == (widened or rescaled), (n, added)
                if steps is None:
                    whole += 1
                    continue
                came += 1
                assert (steps["from"], steps["to"]) == (m, n) == (shown["hands"], now["hands"])
                for line, old, new in zip(steps["lines"], shown["lines"], now["lines"]):
                    head, _, drawn = old["path"].partition("l")
                    drawn = drawn.split(" ")
                    assert head + "l" + " ".join(drawn[:len(drawn) - steps["drop"]] + line.split(" ")) == new["path"]
                assert (steps["left"], steps["width"], steps["right"]) == (now["left"], now["width"], now["right"])
                assert steps["words"] == now["words"]
        assert came > 500 and whole > 20  # both ways were taken, most often the steps
        assert full.rows[-1].charted == 250


def test_the_chart_kept_with_the_rows_draws_what_every_running_total_says(app):
    """web/chart.py reads the extremes and the hands scored from the last row (kept by engine/evening.py), not every
    hand: its chart must be the one worked out from all the running totals, here over 130 hands (sampled every
    3rd: 130 / 60 points, rounded up) whose totals wander up and down."""
    from scorekeeper.web.chart import HEIGHT, PAD, POINTS, axis, chart, path
    from scorekeeper.web.l10n import signed
    with app.app_context(), app.test_request_context():
        table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
        hands = [store.Hand(i, i, {**HAND, "points": (i * 29) % 73}, 1, None, None, None, None) for i in range(1, 131)]
        b = evening.build(Setup.of(table), hands, evening.latest(len(hands)))
        got = chart(b)
        series = {p: [0] + [r.after_units[p] for r in b.rows] for p in b.players}  # every running total
        low = min(min(line) for line in series.values())
        high = max(max(line) for line in series.values())
        assert (b.rows[-1].low, b.rows[-1].high, b.rows[-1].charted) == (low, high, 130)
        every = -(-130 // POINTS)
        ks = list(range(0, 131, every)) + ([130] if 130 % every else [])
        xs = ks  # x: the hand's number (chart.frame)
        # the drawing's bottom and top: the extremes rounded out to a round step of at least a quarter of their
        # span (chart.axis): 1, 2, 5, 10 … of them the least whose four steps reach from low to high
        step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000) if 4 * s >= high - low)
        bottom, top = low // step * step, -(-high // step) * step
        assert (bottom, top) == axis(low, high) and bottom <= low and top >= high and top - bottom <= high - low + 2 * step
        ys = {p: [round(PAD + (top - series[p][k]) * (HEIGHT - 2 * PAD) / ((top - bottom) or 1)) for k in ks]
              for p in b.players}
        assert [line["path"] for line in got["lines"]] == [path(xs, ys[p]) for p in b.players]
        assert "After 130 hands: " + ", ".join(f"{p} {signed(series[p][-1])}" for p in b.players) \
            in got["words"]


def test_a_board_built_after_a_save_meanwhile_shows_the_table_its_hands_are_of(app):
    """A request reads the table, another phone saves, then the request builds its board from the hands: the
    board must say the version its hands are of (b.table), or a watcher's next poll adds hand 2 a second time."""
    with app.app_context(), app.test_request_context():
        table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
        store.add_hand(table.id, {**HAND, "points": 40}, "s1")
        seen = store.get_table(table.id)  # version 1
        store.add_hand(table.id, {**HAND, "points": 30}, "s2")  # version 2, saved before the board is built
        shown, b = scoreboard.current(seen)  # no evening kept yet: built from the hands as they are now
        assert (shown.version, len(b.rows)) == (2, 2)
        assert scoreboard.current(store.get_table(table.id))[1] is b  # kept as version 2


def test_a_change_of_the_table_is_never_extended_over(app):
    with app.app_context(), app.test_request_context():
        table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
        store.add_hand(table.id, {**HAND, "points": 40}, "y1")
        scoreboard.current(store.get_table(table.id))
        store.change_table(table.id, ["Anna", "Ben", "Cla", "Zoë"], 10, {}, {}, get_game("troccas").rename, "y-stake")  # the stake doubles
        store.add_hand(table.id, {**HAND, "points": 40}, "y2")
        now = store.get_table(table.id)
        b = scoreboard.current(now)[1]
        assert summary_of(b) == summary_of(evening.build(Setup.of(now), store.list_hands(table.id), evening.latest(len(store.list_hands(table.id)))))
        assert b.money["Anna"] == 4 * 5 + 4 * 10  # +4 units at 5 Rappen, then +4 at 10 (40 − 36, docs/rules.md §1)


def test_a_game_of_four_deals_names_its_winners_or_a_draw(client, app):
    """Troccas's games of four deals (docs/rules.md): the totals say who won each complete game, A–Z."""
    with app.app_context():
        table = store.create_table("troccas", ["Anna", "Ben", "Cla", "Zoë"], {}, 5, "CHF", 0)
        for i in range(4):  # Anna and Cla take 40 of 72 each time: +4 each hand (40 − 36, docs/rules.md §1)
            store.add_hand(table.id, {**HAND, "points": 40}, f"w{i}")
        for i in range(4):  # then exactly half: 36 − 36 = 0 each hand, a draw
            store.add_hand(table.id, {**HAND, "points": 36}, f"d{i}")
    page = client.get(f"/t/{table.id}").get_data(as_text=True)
    assert "Game 1: 4 deals – won by Anna &amp; Cla" in " ".join(page.split())
    assert "Game 2: 4 deals – a draw" in " ".join(page.split())


def test_the_boards_kept_hold_at_most_rows_kept_hands_counted_as_they_come_and_go(client, app, monkeypatch):
    """The kept boards count their rows as boards are kept, replaced and dropped (not summed on every request):
    the count is always the sum, and the oldest boards go once it passes ROWS_KEPT."""
    monkeypatch.setattr(scoreboard, "ROWS_KEPT", 10)
    hand = {"partner": "Cla", "side": "first", "points": "40"}
    urls = []
    for t in range(4):
        r = client.post("/tables/new/troccas", data={"players-0": "Anna", "players-1": "Ben", "players-2": "Cla",
                                                      "players-3": "Zoë", "first_dealer": "0", "stake": "0.05",
                                                      "currency": "CHF"})
        urls.append(r.headers["Location"])
        for i in range(4):  # each save replaces the table's kept board by one a hand longer
            client.post(urls[-1] + "/hands", data={**hand, "token": f"k{t}x{i}"},
                        headers={"HX-Request": "true", "HX-Target": "hand-form"})
        kept = app.extensions["boards"].items()
        assert app.extensions["boards"].held == sum(len(e.rows) for _key, (_v, (_t, e)) in kept)
        assert app.extensions["boards"].held <= 10 or len(kept) == 1
    # 4 tables of 4 hands: only the two newest fit in 10 rows
    assert [key for key, _kept in app.extensions["boards"].items()] == [u.rsplit("/", 1)[1] for u in urls[2:]]


def test_the_kept_rows_count_follows_every_board_kept_replaced_and_dropped():
    """The kept boards count rows as boards are kept, replaced by a longer one, and dropped least recently used
    first; an older version never replaces a newer one (another thread kept it meanwhile)."""
    from scorekeeper.web.kept import ByVersion
    kept = ByVersion(22, weight=len)  # a value here is its rows
    keys = lambda: [key for key, _kept in kept.items()]
    for key, n in (("a", 3), ("b", 4), ("c", 5), ("d", 6)):
        kept.keep(key, 1, [None] * n)
    kept.keep("a", 2, [None] * 7)  # a board replaced by a longer one: 7 + 4 + 5 + 6
    assert kept.held == 22 and keys() == ["b", "c", "d", "a"]
    assert kept.get("b")[0] == 1 and kept.get("gone") is None  # b now the most recently used
    assert kept.at("a", 2) == [None] * 7 and kept.at("a", 1) is None  # only the version asked for
    kept.keep("a", 1, [None])  # older than the kept version 2: ignored
    assert kept.at("a", 2) == [None] * 7 and kept.held == 22
    kept.keep("e", 1, [None] * 8)  # 30 rows: c (5) and d (6) go, the least used
    assert keys() == ["b", "a", "e"] and kept.held == 19  # 4 + 7 + 8
    kept.keep("f", 1, [None] * 30)  # more than all alone: everything else goes
    assert keys() == ["f"] and kept.held == 30


# ---- a hand stored wrong: every other hand is still shown and counted, and the broken one says so ----

SEATS = ["Anna", "Ben", "Cla", "Zoë"]
TABLE_RULES = {"all_tricks_take_scart": True, "odd_pile": "reject"}
BROKEN = [  # (column, value written straight into the database, what its row says)
    ("facts", [1, 2], "“hand” must be an object with the hand's facts."),  # AttributeError in summary()
    ("facts", {"teams": "x", "side": "Anna", "points": 40},  # TypeError in summary()
     "“teams” must be two pairs of players"),
    ("facts", {**HAND, "side": "Anaa", "points": 40},  # a name missing from the hand's players
     "The side “Anaa” is not one of the players (Anna, Ben, Cla, Zoë)."),
    ("setup", {"players": SEATS, "rules": TABLE_RULES},  # no stake: KeyError
     "The players, stake and house rules stored for this hand can't be read, so it can't be scored: delete it"),
    ("setup", {"players": SEATS, "stake": 5, "rules": {"nope": 1}}, "Troccas has no house rule “nope”"),
    ("setup", [1], "The players, stake and house rules stored for this hand can't be read"),
]


def broken_table(app, column, value, number):
    """A Troccas table of 3 hands (Anna and Cla take 40, 41, 42 of 72) with hand `number`'s column overwritten."""
    with app.app_context():
        table = store.create_table("troccas", SEATS, TABLE_RULES, 5, "CHF", 0)
        for i, points in enumerate((40, 41, 42)):
            store.add_hand(table.id, {**HAND, "points": points}, f"b{i}")
        with store.writing() as conn:
            conn.execute(update(store.hands).where(store.hands.c.table_id == table.id, store.hands.c.number == number)
                         .values(**{column: value}))
    return table.id


@pytest.mark.parametrize("number", [2, 3])  # in the middle; the last hand (the next hand's defaults follow it)
@pytest.mark.parametrize("column, value, says", BROKEN, ids=[f"{c}-{i}" for i, (c, _v, _s) in enumerate(BROKEN)])
def test_a_hand_stored_wrong_is_named_and_every_page_still_answers(client, app, column, value, says, number):
    table_id = broken_table(app, column, value, number)
    url = f"/t/{table_id}"
    pages = {path: client.get(path) for path in (url, url.replace("/t/", "/v/"), url + "/board", url + "/export.csv",
                                                 url + "/export.json", url + "/history", url + "/settle",
                                                 url + "/numbers", url + "/setup", f"{url}/hands/{number}",
                                                 f"{url}/hands/{number}/how")}
    assert {path: r.status_code for path, r in pages.items()} == dict.fromkeys(pages, 200)
    for path in (url, url.replace("/t/", "/v/"), url + "/board"):
        page = html.unescape(pages[path].get_data(as_text=True))
        row = re.search(r'<li id="hand-%s" class="hand">.*?</li>\s*(?=<li id="hand-|</ol>)' % number, page, re.S)
        assert row and "Hand %s" % number in row.group(0) and says in row.group(0), path
    page = html.unescape(pages[url].get_data(as_text=True))
    row = re.search(r'<li id="hand-%s" class="hand">.*?</li>\s*(?=<li id="hand-|</ol>)' % number, page, re.S).group(0)
    assert f'/hands/{number}"' in row and "Delete" in row  # Edit and Delete, beside the sentence
    assert "edit it or delete it" in row
    # the other two hands still count: Anna and Cla (40 − 36) + (42 − 36) = 10 or (40 − 36) + (41 − 36) = 9 points,
    # at 5 Rappen a point (docs/rules.md §1)
    units = 4 + (42 if number == 2 else 41) - 36
    assert pages[url + "/export.json"].get_json()["totals"]["units"] == {"Anna": units, "Ben": -units, "Cla": units,
                                                                         "Zoë": -units}
    assert f"Total,,,{units},-{units},{units},-{units}" in pages[url + "/export.csv"].get_data(as_text=True)
    # the edit page opens (an empty form when the facts can't be shown); the hand can be deleted, and the next saved
    assert 'name="token"' in pages[f"{url}/hands/{number}"].get_data(as_text=True)
    assert client.post(f"{url}/hands/{number}/delete", data={"token": "d"}).status_code == 303
    assert client.post(url + "/hands", data={"partner": "Cla", "side": "first", "points": "40",
                                             "token": "n"}).status_code == 303
    assert client.get(url).status_code == 200


def test_a_table_whose_players_list_disagrees_with_its_hands_still_answers(client, app):
    """A Troccas table stored with "Anna" in its list and "Anaa" in its hands (what an edited import let in): the
    games of four deals are said by who played them, never a 500 (their totals were looked up by the table's list)."""
    with app.app_context():
        table = store.create_table("troccas", ["Anaa", "Ben", "Cla", "Zoë"], TABLE_RULES, 5, "CHF", 0)
        for i in range(3):
            store.add_hand(table.id, {"teams": [["Anaa", "Cla"], ["Ben", "Zoë"]], "side": "Anaa", "points": 40},
                           f"a{i}")
        with store.writing() as conn:
            conn.execute(update(store.tables).where(store.tables.c.id == table.id)
                         .values(players=["Anna", "Ben", "Cla", "Zoë"]))
    for path in (f"/t/{table.id}", f"/v/{table.id}", f"/t/{table.id}/board", f"/t/{table.id}/export.csv"):
        assert client.get(path).status_code == 200, path
    # 3 deals of 40: Anaa and Cla + 3 × 4 = +12 each (docs/rules.md §1), in game 1's line
    page = " ".join(client.get(f"/t/{table.id}").get_data(as_text=True).split())
    assert "Game 1: deal 3 of 4 (Anaa +12, Ben −12, Cla +12, Zoë −12)" in page


@pytest.mark.parametrize("error", [KeyError, ValueError, TypeError, AttributeError, StopIteration])
def test_what_a_game_raises_on_facts_it_never_saw_is_that_rows_sentence(client, app, monkeypatch, error):
    """A game's score() that fails on stored facts with a Python error (not a sentence of its own) fails that row
    only: the row says the hand can't be read, the others count, every page answers."""
    table_id = broken_table(app, "facts", {**HAND, "points": 41}, 2)  # a good hand, until the game can't score it
    real = evening._scored

    def scored(game_id, players, facts, rules):
        if '"points": 41' in facts:
            raise error("points")
        return real(game_id, players, facts, rules)
    monkeypatch.setattr(evening, "_scored", scored)
    url = f"/t/{table_id}"
    for path in (url, url.replace("/t/", "/v/"), url + "/board", url + "/export.csv", url + "/export.json",
                 url + "/hands/2", url + "/hands/2/how"):
        r = client.get(path)
        assert r.status_code == 200, path
    page = html.unescape(client.get(url).get_data(as_text=True))
    assert "What is stored for this hand can't be read, so it can't be scored." in page
    # hands 1 and 3 still count: Anna and Cla (40 − 36) + (42 − 36) = 10 (docs/rules.md §1)
    assert client.get(url + "/export.json").get_json()["totals"]["units"]["Anna"] == 10


def test_the_pages_swap_lists_are_the_declared_regions_and_each_region_is_on_the_page(client):
    """web/scoreboard.py declares the regions once: the hand form's and the poll's hx-select-oob lists are written
    from it (two hand-kept lists had drifted apart), and every region it names is an element of the table page."""
    import re

    from scorekeeper.web import scoreboard
    r = client.post("/tables/new/troccas", data={"players-0": "Anna", "players-1": "Ben", "players-2": "Cla",
                                                 "players-3": "Zoë", "first_dealer": "0", "stake": "0.05",
                                                 "currency": "CHF"})
    url = r.headers["Location"]
    assert client.post(url + "/hands", data={"partner": "Cla", "side": "first", "points": "40", "token": "rg"}).status_code == 303
    page = client.get(url).get_data(as_text=True)
    lists = dict(re.findall(r'<(?:form|div) id="(hand-form|live)"[^>]*?hx-select-oob="([^"]+)"', page, re.S))
    assert lists == {"hand-form": scoreboard.select_oob("save"), "live": scoreboard.select_oob("poll")}
    ids = set(re.findall(r'\sid="([^"]+)"', page))
    for kind in ("poll", "save"):
        assert set(scoreboard.REGIONS[kind]) <= ids, (kind, set(scoreboard.REGIONS[kind]) - ids)
    # a circle's page is one more client: its poll's list is declared beside the table's, and its regions are there
    circle = client.post("/circles/new", data={"name": "Krone"}).headers["Location"]
    page = client.get(circle).get_data(as_text=True)
    assert dict(re.findall(r'<div id="(live)"[^>]*?hx-select-oob="([^"]+)"', page, re.S)) == {
        "live": scoreboard.select_oob("circle")}
    assert set(scoreboard.REGIONS["circle"]) <= set(re.findall(r'\sid="([^"]+)"', page))
    # a cup's page (issue 38) the same way
    cup = client.post("/cups/new", data={"name": "Dorfcup", "held_on": "2026-11-28", "game": "troccas", "rounds": "1",
                                         "games": "1", "players": "A\nB\nC\nD"}).headers["Location"]
    page = client.get(cup).get_data(as_text=True)
    assert dict(re.findall(r'<div id="(live)"[^>]*?hx-select-oob="([^"]+)"', page, re.S)) == {
        "live": scoreboard.select_oob("cup")}
    assert set(scoreboard.REGIONS["cup"]) <= set(re.findall(r'\sid="([^"]+)"', page))
    page = client.get(cup + "/projector").get_data(as_text=True)  # the cup's projector view: one more client
    assert dict(re.findall(r'<div id="(live)"[^>]*?hx-select-oob="([^"]+)"', page, re.S)) == {
        "live": scoreboard.select_oob("projector")}
    assert set(scoreboard.REGIONS["projector"]) <= set(re.findall(r'\sid="([^"]+)"', page))
    assert set(scoreboard.REGIONS) == {"poll", "save", "circle", "cup", "projector"}  # a new kind: check its page here


def test_a_page_says_it_uses_htmx_and_its_markup_agrees(client):
    """htmx (15 KB) and the board's script come where a page says it uses them (`uses_htmx`, `live_board`: an
    explicit flag, not a search of the page's text); every page whose markup has hx- attributes says so, and no
    page without them loads htmx."""
    import re

    r = client.post("/tables/new/troccas", data={"players-0": "Anna", "players-1": "Ben", "players-2": "Cla",
                                                 "players-3": "Zoë", "first_dealer": "0", "stake": "0.05",
                                                 "currency": "CHF"})
    table = r.headers["Location"]
    assert client.post(table + "/hands", data={"partner": "Cla", "side": "first", "points": "40",
                                               "token": "hx"}).status_code == 303
    watch = re.search(r'/v/[\w-]+', client.get(table + "/share").get_data(as_text=True)).group(0)
    circle = client.post("/circles/new", data={"name": "Krone"}).headers["Location"]
    pages = ["/", "/rules", "/rules/troccas", "/count/troccas", "/count/troccas/classes",
             "/count/troccas/groups", "/tables/new", "/tables/new/troccas", "/tables/import", table, watch,
             table + "/history", table + "/hands/1", table + "/settle", table + "/setup", table + "/share",
             circle, circle + "/share", circle + "/evenings", "/circles/new", "/circles/import"]
    boards = {table, watch, circle}
    for url in pages:
        r = client.get(url)
        assert r.status_code == 200, url
        page = r.get_data(as_text=True)
        main = page.split("<main>", 1)[1]
        assert (" hx-" in main) == ("htmx-2" in page), url
        assert ("board.js" in page) == (url in boards), url
        assert "page.js" in page, url
