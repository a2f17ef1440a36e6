"""The evening, pure (engine/evening.py): no Flask, no database, no words. Its totals equal the engine's scores
added up, an evening extended by added hands equals one built afresh, every hand's money sums to zero, and its
rows hold the engine's Lines and plain data (one evening serves every language)."""
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import evening
from scorekeeper.engine.evening import Change, Setup
from scorekeeper.engine.games import get_game, resolve_rules
from scorekeeper.engine.text import Line

SEATS = ("Anna", "Ben", "Cla", "Zoë")
HAND = {"teams": [["Anna", "Cla"], ["Ben", "Zoë"]], "side": "Anna"}
TROCCAS = Setup("troccas", SEATS, 5, "CHF", 0)


@dataclass(frozen=True)
class Hand:  # what the store's Hand gives the evening: a number, facts, who dealt, the setup it was played with
    number: int
    facts: dict
    dealer: str | None = None
    setup: dict | None = None


def hands(points, start=1):
    return [Hand(start + i, {**HAND, "points": p}) for i, p in enumerate(points)]


def said(e):
    return ([(r.index, r.hand.number, r.dealer, r.scores, r.payouts, r.after_units, r.after_money, r.summary,
              r.warnings, r.error, r.changes, r.low, r.high, r.charted) for r in e.rows],
            e.units, e.money, e.next_dealer, e.games, e.players, e.left, e.pending, e.arrival)


def test_the_totals_are_the_engines_scores_added_up():
    played = hands([(i * 11) % 73 for i in range(30)])
    e = evening.build(TROCCAS, played)
    game = get_game("troccas")
    fresh = dict.fromkeys(SEATS, 0)
    for h in played:  # the engine directly, no cache
        for p, s in game.score(list(SEATS), h.facts, resolve_rules(game, {})).scores.items():
            fresh[p] += s
    assert e.units == fresh
    assert e.rows[-1].after_units == fresh  # the running total after the last hand is the total
    # money: 5 Rappen a unit (the setup's stake), each hand's payouts summing to zero
    assert e.money == {p: 5 * u for p, u in fresh.items()} and sum(e.money.values()) == 0


def test_rows_hold_the_engines_lines_and_data_not_words():
    """A row's summary is the engine's Line and a change of the table is a Change: the web says them in the
    reader's language, so the same evening serves German and French phones."""
    then = {"players": list(SEATS), "stake": 5, "rules": {}}
    later = {"players": ["Anna", "Ben", "Cla", "Dario"], "stake": 10, "rules": {}}
    played = [Hand(1, {**HAND, "points": 40}, setup=then),
              Hand(2, {"teams": [["Anna", "Cla"], ["Ben", "Dario"]], "side": "Anna", "points": 40}, setup=later)]
    e = evening.build(Setup("troccas", ("Anna", "Ben", "Cla", "Dario"), 10, "CHF", 0), played)
    assert isinstance(e.rows[0].summary, Line)
    assert e.rows[1].changes == (Change("joins", "Dario"), Change("leaves", "Zoë"), Change("stake", 10))
    assert e.players == ["Anna", "Ben", "Cla", "Dario", "Zoë"] and e.left == {"Zoë"}
    # Zoë keeps hand 1's −4 units (36 − 40, docs/rules.md §1) at 5 Rappen; Dario hand 2's −4 at 10
    assert (e.units["Zoë"], e.money["Zoë"], e.money["Dario"]) == (-4, -20, -40)
    # the order they came in (each one's colour on the chart): hand 1's seats, then Dario, who joined at hand 2
    assert e.arrival == ("Anna", "Ben", "Cla", "Zoë", "Dario")
    third = Hand(3, {"teams": [["Anna", "Dario"], ["Ben", "Cla"]], "side": "Anna", "points": 40}, setup=later)
    extended = evening.extend(e, Setup("troccas", ("Anna", "Ben", "Cla", "Dario"), 10, "CHF", 0), [third])
    assert said(extended) == said(evening.build(extended.setup, [*played, third]))  # the same order, kept


def test_a_hand_the_engine_refuses_is_a_row_with_its_error_and_counts_nothing():
    played = hands([40, 90, 40])  # 90 of Troccas's 72 points can't be
    e = evening.build(TROCCAS, played)
    assert e.rows[1].error is not None and e.rows[1].scores == {}
    assert e.units["Anna"] == 8  # hands 1 and 3: (40 − 36) × 2 (docs/rules.md §1)
    broken = evening.build(TROCCAS, [Hand(1, [1, 2]), *hands([40], start=2)])
    assert broken.rows[0].error is not None and broken.units["Anna"] == 4


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 72), min_size=2, max_size=30), st.data())
def test_an_evening_extended_by_added_hands_equals_one_built_afresh(points, data):
    """What the scoreboard keeps (an evening extended by the hands a Save adds) never drifts from the evening built
    from every hand's facts: rows, totals, the next dealer and the games of four deals."""
    cut = data.draw(st.integers(1, len(points) - 1))
    played = hands(points)
    kept = evening.build(TROCCAS, played[:cut])
    extended = evening.extend(kept, TROCCAS, played[cut:])
    assert said(extended) == said(evening.build(TROCCAS, played))
    assert all(sum(r.payouts.values()) == 0 for r in extended.rows) and sum(extended.money.values()) == 0


def test_a_change_of_the_table_is_never_extended_over():
    then = {"players": list(SEATS), "stake": 5, "rules": {}}
    kept = evening.build(TROCCAS, [Hand(1, {**HAND, "points": 40}, setup=then)])
    doubled = Setup("troccas", SEATS, 10, "CHF", 0)
    assert evening.extend(kept, doubled, [Hand(2, {**HAND, "points": 40}, setup={**then, "stake": 10})]) is None


def test_the_evening_in_numbers_counts_contracts_by_the_engines_words():
    """French Tarot, 4 players: Anna takes a Garde twice and makes it once; Ben a Prise he makes."""
    players = ("Anna", "Ben", "Cla", "Dan")
    base = {"oudlers": 2}  # with 2 oudlers the taker needs 41 (docs/rules.md §6): 50 and 45 make it, 30 not
    played = [Hand(1, {**base, "taker": "Anna", "contract": "garde", "points": 50}),
              Hand(2, {**base, "taker": "Anna", "contract": "garde", "points": 30}),
              Hand(3, {**base, "taker": "Ben", "contract": "prise", "points": 45})]
    e = evening.build(Setup("french_tarot", players, 10, "EUR", 0), played)
    assert all(r.error is None for r in e.rows), [r.error for r in e.rows]
    n = evening.numbers(e)
    anna = next(p for p in n.players if p.name == "Anna")
    assert (anna.hands, anna.declared, anna.won) == (3, 2, 1)
    assert sorted((str(c), t, m) for c, t, m in n.contracts) == [("Garde", 2, 1), ("Prise", 1, 1)]
