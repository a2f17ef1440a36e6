"""Money across evenings (issue 26): settle-up lines marked paid, on an evening and on its circle, with Undo; two
phones marking one line mark it once; the circle settles only what is still owed."""
from __future__ import annotations

import html
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine import season, settle
from tests.opening import TROCCAS, open_table


def hand(client, url, points, token):
    r = client.post(url + "/hands", data={"partner": "Cla", "side": "first", "points": str(points), "token": token})
    assert r.status_code == 303


def lines(page) -> list[tuple]:
    """The lines still owed, as the settle-up page lists them, with each Paid button's fields."""
    section = re.search(r'<ol class="transfers">(.*?)</ol>', page, re.S).group(1)
    return [dict(re.findall(r'name="([^"]+)" value="([^"]*)"', li)) for li in re.findall(r"<li>(.*?)</li>", section, re.S)]


def test_lines_marked_paid_leave_what_is_still_owed_and_undo_brings_them_back(client):
    url = open_table(client)
    hand(client, url, 40, "p1")  # Anna & Cla +4 units × 5 Rappen = +20 each; Ben & Zoë −20 (docs/rules.md §1)
    owed = lines(client.get(url + "/settle").get_data(as_text=True))
    assert sorted((l["payer"], l["payee"], l["amount"]) for l in owed) == [("Ben", "Cla", "20"), ("Zoë", "Anna", "20")] \
        or sorted((l["payer"], l["payee"], l["amount"]) for l in owed) == [("Ben", "Anna", "20"), ("Zoë", "Cla", "20")]
    first = owed[0]
    assert client.post(url + "/settle/paid", data=first).status_code == 303
    page = client.get(url + "/settle").get_data(as_text=True)
    assert len(lines(page)) == 1  # one line left
    assert f"{first['payer']} paid {first['payee']} 20 Rappen" in html.unescape(page)
    # the same form again (a double tap) and a second phone that saw the line open: marked once
    assert client.post(url + "/settle/paid", data=first).status_code == 303
    r = client.post(url + "/settle/paid", data={**first, "token": "other-phone"}, follow_redirects=True)
    assert "isn't owed any more" in html.unescape(r.get_data(as_text=True))
    assert html.unescape(client.get(url + "/settle").get_data(as_text=True)).count(" paid ") == 1
    # the other line: everything paid
    assert client.post(url + "/settle/paid", data=lines(page)[0]).status_code == 303
    page = client.get(url + "/settle").get_data(as_text=True)
    assert "Everything is paid." in page
    # Undo one mark: its line is owed again
    payment = re.search(r'name="payment" value="(\d+)"', page).group(1)
    assert client.post(url + "/settle/unpaid", data={"payment": payment}).status_code == 303
    assert len(lines(client.get(url + "/settle").get_data(as_text=True))) == 1


def test_a_watch_link_sees_the_marks_and_cannot_mark(client):
    url = open_table(client)
    hand(client, url, 40, "w1")
    share = client.get(url + "/share").get_data(as_text=True)
    watch = re.search(r'data-link="viewer">http://[^/<]+/v/([^<]+)<', share).group(1)
    page = client.get(f"/t/{watch}/settle").get_data(as_text=True)
    assert "Ben" in page and 'name="payer"' not in page
    assert client.post(f"/t/{watch}/settle/paid", data={"payer": "Ben", "payee": "Anna", "amount": "20"}).status_code == 403


def test_a_circle_settles_only_what_is_still_owed():
    """Pure: two evenings, one line of the first paid; the season's settling up is the rest."""
    first = season.Played("t1", "troccas", None, "CHF", {}, {"Anna": 20, "Ben": -20})
    second = season.Played("t2", "troccas", None, "CHF", {}, {"Anna": -50, "ben": 50})
    # Ben paid Anna 20 on the night of the first: what is left is the second's 50, Anna to Ben
    owed = season.unpaid([first, second], [("Ben", "Anna", 20)], "CHF")
    assert owed == {"Anna": -50, "ben": 50} and sum(owed.values()) == 0
    assert [(t.payer, t.payee, t.amount) for t in settle.settle(owed, "CHF").transfers] == [("Anna", "ben", 50)]


def test_the_circle_page_marks_season_lines_paid(client):
    r = client.post("/circles/new", data={"name": "Krone"})
    circle = r.headers["Location"]
    key = circle.rsplit("/", 1)[1]
    url = client.post(f"/tables/new/troccas?circle={key}", data=TROCCAS).headers["Location"]
    hand(client, url, 40, "c1")  # +20 / −20 Rappen, as above
    on_night = lines(client.get(url + "/settle").get_data(as_text=True))[0]
    client.post(url + "/settle/paid", data=on_night)  # one line paid on the night
    page = client.get(circle).get_data(as_text=True)
    season_lines = lines(page)
    assert len(season_lines) == 1 and season_lines[0]["amount"] == "20"  # the other line is still owed
    assert client.post(circle + "/paid", data=season_lines[0]).status_code == 303
    page = html.unescape(client.get(circle).get_data(as_text=True))
    assert "Nobody owes anything." in page and "paid" in page


# ---- the pot ----

def test_the_pot_is_the_sum_of_its_entries_and_cannot_go_below_empty(client):
    circle = client.post("/circles/new", data={"name": "Krone"}).headers["Location"]
    assert client.post(circle + "/pot", data={"amount": "2.50", "direction": "in", "currency": "CHF",
                                              "who": "Anna", "note": "a solo lost", "token": "pot1"}).status_code == 303
    client.post(circle + "/pot", data={"amount": "2.50", "direction": "in", "currency": "CHF", "token": "pot1"})  # twice
    assert client.post(circle + "/pot", data={"amount": "1", "direction": "out", "currency": "CHF",
                                              "note": "coffee", "token": "pot2"}).status_code == 303
    page = html.unescape(client.get(circle).get_data(as_text=True))
    assert "The pot holds CHF\xa01.50." in page  # 2.50 in, 1.00 out (the repeated form counted once)
    # a withdrawal beyond what it holds: refused at the amount, the input kept, nothing written
    r = client.post(circle + "/pot", data={"amount": "5", "direction": "out", "currency": "CHF", "note": "dinner"})
    page = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 400 and "The pot holds CHF\xa01.50: it can't give out more" in page
    assert 'value="5"' in page and 'value="dinner"' in page
    for amount, says in (("", "Write an amount such as 0.10."), ("1e9", "Write an amount such as 0.10."),
                         ("0.001", "at most two decimals"), ("0", "above zero")):
        page = html.unescape(client.post(circle + "/pot", data={"amount": amount}).get_data(as_text=True))
        assert says in page, amount
    assert "The pot holds CHF\xa01.50." in html.unescape(client.get(circle).get_data(as_text=True))
    # undoing the deposit would leave it below empty (1.00 went out of 2.50): refused, said
    page = client.get(circle).get_data(as_text=True)
    entries = re.findall(r'name="entry" value="(\d+)"', page)  # newest first: the withdrawal, then the deposit
    r = client.post(circle + "/pot/undo", data={"entry": entries[1], "currency": "CHF"})
    assert r.status_code == 400 and "below empty" in html.unescape(r.get_data(as_text=True))
    assert client.post(circle + "/pot/undo", data={"entry": entries[0]}).status_code == 303  # the withdrawal back
    assert "The pot holds CHF\xa02.50." in html.unescape(client.get(circle).get_data(as_text=True))


def test_a_rename_in_the_circle_carries_the_lines_paid_and_the_pot(client):
    r = client.post("/circles/new", data={"name": "Krone"})
    circle = r.headers["Location"]
    key = circle.rsplit("/", 1)[1]
    url = client.post(f"/tables/new/troccas?circle={key}", data=TROCCAS).headers["Location"]
    hand(client, url, 40, "rn1")  # Anna & Cla +20 Rappen each, Ben & Zoë −20 (docs/rules.md §1)
    for line in lines(client.get(url + "/settle").get_data(as_text=True)):
        client.post(url + "/settle/paid", data=line)  # everything paid on the night
    client.post(circle + "/pot", data={"amount": "1", "direction": "in", "currency": "CHF", "who": "Cla", "note": "x"})
    assert "Nobody owes anything." in client.get(circle).get_data(as_text=True)
    assert client.post(circle + "/people", data={"person": "Cla", "name": "Claudia", "token": "rn"}).status_code == 303
    page = html.unescape(client.get(circle).get_data(as_text=True))
    # still nothing owed: Claudia's 20 Rappen were paid to her as Cla, and the pot's entry is hers (only the last
    # change, with its Undo, names Cla)
    page = re.sub(r'<form[^>]*class="undo-rename">.*?</form>', "", page, flags=re.S)
    assert "Nobody owes anything." in page and "Claudia · x" in page and " Cla " not in page


def test_the_settle_up_for_the_group_chat_says_who_pays_whom_the_totals_and_the_watch_link(client):
    url = open_table(client)
    hand(client, url, 40, "s1")  # Anna & Cla +20 Rappen each, Ben & Zoë −20 (docs/rules.md §1)
    page = html.unescape(client.get(url + "/settle?lang=de").get_data(as_text=True))
    text = re.search(r'data-share-text="([^"]*)"', page, re.S).group(1)
    lines_ = text.split("\n")
    assert lines_[0].startswith("Troccas, ") and len([l for l in lines_ if " zahlt " in l]) == 2
    assert lines_[1:3] == ["Ben zahlt Anna 20 Rappen", "Zoë zahlt Cla 20 Rappen"]
    assert lines_[3] == "Stand: Anna +CHF\xa00.20, Ben −CHF\xa00.20, Cla +CHF\xa00.20, Zoë −CHF\xa00.20"
    assert re.search(r"Punkteliste: http://localhost/v/[A-Za-z0-9_-]+$", text)  # the watch link, never the scorer's


@pytest.mark.parametrize("lang, pays, to_anna", [("fr", " paie ", "paie 10 centimes à Anna"),
                                                 ("de", " zahlt ", "zahlt Anna 10 Rappen")])
def test_a_five_player_settle_up_for_the_group_chat_in_french_and_german(client, lang, pays, to_anna):
    names = ["Anna", "Ben", "Cla", "Dumeng", "Zoë"]
    url = open_table(client, "troggu", {**{f"players-{i}": n for i, n in enumerate(names)}, "first_dealer": "0",
                                        "stake": "0.10", "currency": "CHF", "rule_min_players": "3",
                                        "rule_match_with_tapp_points": "y", "rule_misere_tie": "each_top_pays"})
    # Anna's normal with 62 wins single: each of the 4 opponents pays her 1 unit, 10 Rappen (docs/rules.md §5)
    assert client.post(url + "/hands", data={"contract": "normal", "declarer": "Anna", "side": "declarer",
                                             "points": "62", "token": "g5"}).status_code == 303
    text = html.unescape(re.search(r'data-share-text="([^"]*)"', client.get(url + f"/settle?lang={lang}").get_data(
        as_text=True), re.S).group(1))
    lines_ = text.split("\n")
    assert lines_[0].startswith("Troggu, ") and len([l for l in lines_ if pays in l]) == 4  # four payments to Anna
    assert all(l.endswith(to_anna) for l in lines_ if pays in l)
    assert "/v/" in lines_[-1] and len(lines_) == 7  # the evening, 4 payments, the totals, the watch link


def owed_lines(page) -> list[str]:
    """The lines still owed on a settle-up (an evening's or the circle's), as the page says them."""
    body = re.search(r'<ol class="transfers">(.*?)</ol>', html.unescape(page), re.S).group(1)
    return [" ".join(re.sub(r"<[^>]+>", " ", li).replace("Paid", "").split())
            for li in re.findall(r"<li>(.*?)</li>", body, re.S)]


def test_the_tables_rule_puts_each_lost_hand_of_whoever_took_it_on_into_the_pot(client):
    """Troggu: Anna's normal with 50 loses single (docs/rules.md §5), Ben's 62 wins: at 10 Rappen a unit Anna is
    −40 and Ben +40 (the standings). With a rule of 20 Rappen a lost hand, Anna owes the pot 20 Rappen: one more
    line of the season's ledger (issue 36), the same on the circle's page and the evening's, owed until marked
    paid; the pot holds what was paid to it, and a withdrawal may take it."""
    r = client.post("/circles/new", data={"name": "Krone"})
    circle = r.headers["Location"]
    key = circle.rsplit("/", 1)[1]
    names = ["Anna", "Ben", "Cla", "Dumeng"]
    url = client.post(f"/tables/new/troggu?circle={key}", data={
        **{f"players-{i}": n for i, n in enumerate(names)}, "first_dealer": "0", "stake": "0.10", "currency": "CHF",
        "rule_min_players": "3", "rule_match_with_tapp_points": "y", "rule_misere_tie": "each_top_pays"}).headers["Location"]
    for i, (who, points) in enumerate((("Anna", 50), ("Ben", 62))):
        assert client.post(url + "/hands", data={"contract": "normal", "declarer": who, "side": "declarer",
                                                 "points": str(points), "token": f"pr{i}"}).status_code == 303
    assert client.post(circle + "/pot/rule", data={"per_lost_hand": "0.20"}).status_code == 303
    page = html.unescape(client.get(circle).get_data(as_text=True))
    assert "The pot is empty." in page and "Anna: 1 hand lost, 20 Rappen" in page  # owed, not yet paid
    owed = ["Anna pays Ben 40 Rappen", "Anna pays into the pot 20 Rappen"]
    assert owed_lines(page) == owed and owed_lines(client.get(url + "/settle").get_data(as_text=True)) == owed
    evening = client.get(url + "/settle").get_data(as_text=True)  # marked paid on the evening's page
    form = next(f for f in re.findall(r'<form[^>]*class="mark-paid"[^>]*>(.*?)</form>', evening, re.S)
                if "\N{BANK}" in html.unescape(f))
    assert client.post(url + "/settle/paid", data=dict(re.findall(r'name="([^"]+)" value="([^"]*)"', html.unescape(
        form)))).status_code == 303
    page = html.unescape(client.get(circle).get_data(as_text=True))
    assert "The pot holds 20 Rappen." in page  # 0 + the 20 paid to it
    assert owed_lines(page) == owed[:1] and owed_lines(client.get(url + "/settle").get_data(as_text=True)) == owed[:1]
    assert client.post(circle + "/pot", data={"amount": "0.20", "direction": "out", "currency": "CHF",
                                              "note": "coffee"}).status_code == 303  # the 20 paid in may go out
    assert "The pot holds 0 Rappen." in html.unescape(client.get(circle).get_data(as_text=True))  # 20 − 20
    r = client.post(circle + "/pot/rule", data={"per_lost_hand": "abc"})
    assert r.status_code == 400 and "Write an amount such as 0.10." in html.unescape(r.get_data(as_text=True))


@given(st.lists(st.tuples(st.lists(st.integers(-500, 500), min_size=2, max_size=5),
                          st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=5, max_size=5)),
                min_size=1, max_size=6),
       st.integers(0, 100), st.lists(st.tuples(st.sampled_from(["P0", "P1", "P2", settle.BANK]),
                                               st.sampled_from(["P0", "P3", settle.BANK]), st.integers(1, 300)),
                                     max_size=4))
def test_the_ledger_with_the_pots_rule_and_any_lines_paid_sums_to_zero(nights, rule, paid):
    """Issue 36: whatever the evenings, the pot's rule and the lines marked paid (to or from the pot too), what is
    still owed over the season sums to zero with the pot as one more party, and the pot is owed exactly what its
    rule asks (each hand lost by whoever took it on: declared − won, times the rule) less what was paid to it."""
    from scorekeeper.engine.evening import Numbers, PlayerNumbers
    played = []
    for n, (money, taken) in enumerate(nights):
        names = [f"P{i}" for i in range(len(money))]
        money = dict(zip(names, money[:-1] + [-sum(money[:-1])]))  # an evening's money sums to zero
        numbers = Numbers([PlayerNumbers(p, declared=max(d, w), won=min(d, w)) for p, (d, w) in zip(names, taken)])
        played.append(season.Played(f"t{n}", "troccas", None, "CHF", {}, money, 1, numbers))
    owed = season.unpaid(played, paid, "CHF", rule)
    assert sum(owed.values()) == 0
    asked = rule * sum(p.declared - p.won for e in played for p in e.numbers.players)
    to_pot = sum(a for _p, b, a in paid if b == settle.BANK) - sum(a for p, _b, a in paid if p == settle.BANK)
    assert owed.get(settle.BANK, 0) == asked - to_pot
    s = settle.settle(owed, "CHF")
    assert sum(r.rounded for r in s.balances) == 0


def test_a_hand_saved_between_finding_a_line_owed_and_marking_it_paid_is_seen_under_the_tables_lock(client, monkeypatch):
    """An evening in no circle: the line is found owed, then another phone saves a hand that settles it, before the
    mark is written. The mark is written only if the table's version is still the one the line was found owed at
    (store.mark_paid's `version`, checked under the table's lock): here it moved, so the line is worked out again,
    is no longer owed, and nothing is marked."""
    from scorekeeper import store
    from scorekeeper.web.table import settle as settle_view

    url = open_table(client)
    hand(client, url, 40, "r1")  # Anna & Cla +20 Rappen each, Ben & Zoë −20 (as in the first test)
    line = lines(client.get(url + "/settle").get_data(as_text=True))[0]
    real = store.list_hands
    other_phone = []

    def list_then_save(table_id):
        hands = real(table_id)
        if not other_phone:  # once, after the version was read and the hands listed: the other phone's Save
            other_phone.append(1)
            # 32 points: the other side's 40 of 72, −4 units × 5 = −20 for Anna & Cla: everyone back at 0
            hand(client, url, 32, "r2")
        return hands

    monkeypatch.setattr(settle_view.store, "list_hands", list_then_save)
    r = client.post(url + "/settle/paid", data=line, follow_redirects=True)
    assert other_phone and "isn't owed any more" in html.unescape(r.get_data(as_text=True))
    monkeypatch.undo()
    page = html.unescape(client.get(url + "/settle").get_data(as_text=True))
    assert f"{line['payer']} paid {line['payee']}" not in page and 'name="payment"' not in page  # nothing marked
