"""The counting engine over every registered game: deck totals, splits, order, duplicates, known values."""
from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import cards as C
from scorekeeper.__main__ import main as cli
from scorekeeper.engine.errors import DuplicateCard, NotInDeck, TooManyCards, UnknownCard
from scorekeeper.engine.games import all_games, count_pile, get_game, pile_of, resolve_rules

COUNTING = [g for g in all_games().values() if g.counting != "tricks"]
TWO_SIDED = [g for g in COUNTING if g.two_sided]

# docs/rules.md §0.3 and issue 2: the deck totals; §10 (issue 27): Sicilian Tarocchi 146 − 21 × 2 = 104.
TOTALS = {"troccas": 72, "scarto": 78, "swiss_tarot_1659": 78, "mitigati": 129, "troggu": 114, "french_tarot": 91,
          "sicilian_tarocchi": 104, "koenigrufen": 70}  # §11: 210 thirds = 70


def points(game_id, *codes, rules=None):
    game = get_game(game_id)
    return pile_of(game, list(codes), resolve_rules(game, rules)).points


def test_every_counting_game_has_a_total():
    assert {g.id for g in COUNTING} == set(TOTALS)


@pytest.mark.parametrize("game", COUNTING, ids=lambda g: g.id)
def test_deck_total(game):
    rules = resolve_rules(game, None)
    assert game.total == TOTALS[game.id]
    if game.id == "scarto":
        # docs/rules.md §2.1: the Fool stays with its owner, so a real hand has piles 3k+2, 3m+1 (with the
        # Fool) and 3n. One pile of all 78 cards is 26 groups: 129 − 52 = 77, the "trap" total.
        no_fool = [c for c in game.deck if c != C.FOOL]
        piles = [no_fool[:26], no_fool[26:50] + [C.FOOL], no_fool[50:]]  # 26 (3·8+2), 25 (3·8+1), 27 (3·9)
        assert [len(p) % 3 for p in piles] == [2, 1, 0]
        assert sum(count_pile(game, p, rules).points for p in piles) == 78
        assert count_pile(game, list(game.deck), rules).points == 77
    else:
        whole = count_pile(game, list(game.deck), rules)
        assert whole.points == TOTALS[game.id]
        if game.two_sided:
            assert whole.rest.points == 0 and whole.rest.cards == 0


@pytest.mark.parametrize("game", COUNTING, ids=lambda g: g.id)
def test_empty_pile_is_zero(game):
    result = count_pile(game, [], resolve_rules(game, None))
    assert result.points == 0 and result.cards == 0


@pytest.mark.parametrize("game", TWO_SIDED, ids=lambda g: g.id)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_split_adds_up_to_the_total(game, data):
    pile = data.draw(st.lists(st.sampled_from(game.deck), unique=True))
    if game.id == "troccas":
        # docs/rules.md §1: a real hand splits 4k+2 / 4m (either side may hold the scart).
        assume(len(pile) % 4 in (0, 2))
    result = count_pile(game, pile, resolve_rules(game, None))
    if result.blatt is not None:  # docs/rules.md §11: counted to the Blatt, the two sides make 210 thirds
        assert result.thirds + result.rest.thirds == 3 * game.total
    else:
        assert result.points + result.rest.points == game.total
    assert result.cards + result.rest.cards == len(game.deck)


@pytest.mark.parametrize("game", COUNTING, ids=lambda g: g.id)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_order_never_matters(game, data):
    pile = data.draw(st.lists(st.sampled_from(game.deck), unique=True))
    shuffled = data.draw(st.permutations(pile))
    rules = resolve_rules(game, None)
    a, b = count_pile(game, pile, rules), count_pile(game, list(shuffled), rules)
    assert (a.points, a.working, a.warnings) == (b.points, b.working, b.warnings)


@pytest.mark.parametrize("game", COUNTING, ids=lambda g: g.id)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_duplicates_are_rejected(game, data):
    pile = data.draw(st.lists(st.sampled_from(game.deck), min_size=1, max_size=20, unique=True))
    twice = data.draw(st.sampled_from(pile))
    with pytest.raises(DuplicateCard) as e:
        pile_of(game, pile + [twice.lower()], resolve_rules(game, None))
    assert e.value.cards == [twice]


@settings(max_examples=60, deadline=None)
@given(order=st.permutations([c for c in C.DECK_78 if c != C.FOOL]), k=st.integers(0, 25), data=st.data())
def test_scarto_real_deals_add_up_to_78(order, k, data):
    # docs/rules.md §2.1: piles of 3k+2, 3m+1 (the Fool's owner) and 3n cards, k + m + n = 25.
    m = data.draw(st.integers(0, 25 - k))
    game = get_game("scarto")
    rules = resolve_rules(game, {"honour_trump": data.draw(st.sampled_from(["T20", "T21"]))})
    a, b = 3 * k + 2, 3 * m
    piles = [order[:a], order[a:a + b] + [C.FOOL], order[a + b:]]
    assert len(piles[2]) % 3 == 0
    counts = [count_pile(game, p, rules) for p in piles]
    assert sum(c.points for c in counts) == 78
    assert all(not c.warnings for c in counts)


@settings(max_examples=40, deadline=None)
@given(order=st.permutations(C.DECK_78), a=st.integers(0, 26), data=st.data())
def test_swiss_1659_and_mitigati_three_piles(order, a, data):
    b = data.draw(st.integers(0, 26 - a))
    piles = [order[:3 * a], order[3 * a:3 * (a + b)], order[3 * (a + b):]]
    swiss, mitigati = get_game("swiss_tarot_1659"), get_game("mitigati")
    # docs/rules.md §4: every 1659 pile is whole tricks of three; the three add up to 78.
    assert sum(count_pile(swiss, p, {}).points for p in piles) == 78
    # docs/rules.md §3: Mitigati is a direct sum: 129 whatever the split and whichever honour trump.
    rules = resolve_rules(mitigati, {"honour_trump": data.draw(st.sampled_from(["T20", "T21"]))})
    assert sum(count_pile(mitigati, p, rules).points for p in piles) == 129


# Known values, each from the rule texts.
@pytest.mark.parametrize("cards,expected", [
    # italian-swiss-archive.txt (SCA Troccas): "1 king (5), 1 queen (4-1), 1 valet (2-1), 1 suit card (0) = 9 points"
    (["SW-K", "CU-Q", "BA-J", "CO-5"], 9),
    # "1 trocca (not XXI or I), 1 queen (4), 1 knight (3-1), 1 suit card = 6 points"
    (["T7", "SW-Q", "CU-C", "BA-3"], 6),
    # "3 troccas (not XXI or I), fool (5) = 5 points"
    (["T2", "T3", "T4", "FOOL"], 5),
    # "XXI (5), I (5-1), queen (4-1), 1 suit card = 12 points"
    (["T21", "T1", "CO-Q", "SW-10"], 12),
    # "4 troccas (not XXI or I) = 1 point", "4 suit cards = 1 point", "2 troccas, 2 suit cards = 1 point"
    (["T5", "T6", "T8", "T9"], 1),
    (["SW-2", "BA-3", "CU-4", "CO-6"], 1),
    (["T10", "T11", "SW-4", "CU-9"], 1),
    # troccas-wikipedia.txt: the dealer's "two odd cards, counting for combined value, minus one": K + pip = 5
    (["SW-K", "BA-7"], 5),
])
def test_troccas_groups(cards, expected):
    assert points("troccas", *cards) == expected


@pytest.mark.parametrize("cards,expected", [
    # italian-swiss-archive.txt (Phil's Scarto table): "3 low cards 1 point"
    (["SW-2", "CU-3", "T5"], 1),
    # "1 high, 2 low: the points of the high card": King 5
    (["BA-K", "SW-9", "T3"], 5),
    # "2 high, 1 low: the sum of the points of the high card minus 1"; the letter: "the Mage, a Queen and
    # another card has a value of 8 points"
    (["T1", "CU-Q", "SW-6"], 8),
    # "3 high cards: the sum ... minus 2": Angel 5 + Queen 4 + Cavalier 3 − 2 = 10
    (["T20", "CO-Q", "BA-C"], 10),
    # docs/rules.md §2.1 (Phil: the World is not in the high-card list): T21 is low, so XXI + 2 low = 1
    (["T21", "T4", "SW-5"], 1),
    # the letter: "The player with the Fool normally counts it separately for 4 points"
    (["FOOL"], 4),
    # the letter: two cards left over count "as if they were a full set of three": King + low = 5 + 1 − 1
    (["CU-K", "T9"], 5),
])
def test_scarto_table(cards, expected):
    assert points("scarto", *cards) == expected


def test_scarto_honour_trump_option():
    # docs/rules.md §2: with honour_trump T21 the World is the 5-point trump and the Angel is low.
    assert points("scarto", "T21", "T4", "SW-5", rules={"honour_trump": "T21"}) == 5
    assert points("scarto", "T20", "T4", "SW-5", rules={"honour_trump": "T21"}) == 1


@pytest.mark.parametrize("cards,expected", [
    # italian-swiss-archive.txt (Swiss Tarot 1659): "the Cavalier of Swords, the Queen of Swords, and the
    # Fool would be worth 3 + 4 + 5 -2= 10 points"
    (["SW-C", "SW-Q", "FOOL"], 10),
    # "a trick containing the World, the Magician, and Death would be worth 5 + 5 - 1= 9 points"
    (["T21", "T1", "T13"], 9),
    # "A trick with one counting card has the value of that card": a jack 2
    (["CO-J", "CO-7", "T8"], 2),
    # "A trick with no counting cards has a value of 1"
    (["SW-1", "BA-2", "T12"], 1),
])
def test_swiss_1659_tricks(cards, expected):
    assert points("swiss_tarot_1659", *cards) == expected


@pytest.mark.parametrize("cards,expected", [
    # french-tarot-wikipedia.txt: "Cards are paired, with each counter matched to an ordinary card";
    # the pair values (docs/rules.md §0.2 halves): oudler or king + ordinary 5, queen 4, knight 3, jack 2, two ordinary 1
    (["T21", "T5"], 5),
    (["FOOL", "SW-2"], 5),
    (["HE-K", "CO-3"], 5),
    (["SP-Q", "T7"], 4),
    (["DI-C", "CL-10"], 3),
    (["CU-J", "T2"], 2),
    (["BA-1", "T19"], 1),
    # an unpaired card keeps its own value: a king alone 4.5, an ordinary card alone 0.5
    (["SW-K"], Fraction(9, 2)),
    (["T6"], Fraction(1, 2)),
])
def test_french_pairs(cards, expected):
    assert points("french_tarot", *cards) == expected


def test_french_tarot_counts_oudlers():
    game = get_game("french_tarot")
    result = pile_of(game, ["T1", "EXCUSE", "SW-K"], {})
    # french-tarot-wikipedia.txt: the oudlers are the Petit (T1), the 21 and the Excuse.
    assert result.oudlers == 2 and result.points == Fraction(27, 2)  # 4.5 · 3
    assert result.rest.oudlers == 1


def test_troggu_direct_sum():
    # troggu-visp-de.txt: "Narr, Munt (XXI) und Bagatt (I) 5 Punkte", Könige 5, Königin 4, Ritter 3, Buben 2.
    assert points("troggu", "FOOL", "T21", "T1", "CO-K", "CU-Q", "SW-C", "BA-J", "T7", "CO-1") == 5 + 5 + 5 + 5 + 4 + 3 + 2 + 1 + 1


@pytest.mark.parametrize("game_id,cards,text", [
    ("troccas", ["SW-K", "CU-Q", "BA-J", "T5"], "1 group of 4: 12 − 3 = 9"),
    ("troccas", ["SW-K"], "1 card worth 5"),
    ("troccas", ["SW-K", "BA-7"], "2 odd cards: 6 − 1 = 5"),
    ("troccas", ["SW-K", "CU-Q", "BA-J", "T5", "T6"], "1 group of 4 and 1 odd card: 13 − 3 = 10"),
    ("troccas", ["SW-K", "CU-Q", "BA-J", "T5", "T6", "T7"], "1 group of 4 and 2 odd cards: 14 − 3 − 1 = 10"),
    # T21..T14: 5 + 7·1 = 12 nominal, two groups: 12 − 2·3 = 6
    ("troccas", list(C.DECK_78[:8]), "2 groups of 4: 12 − 6 = 6"),
    ("scarto", [], "No cards: 0 points"),
    ("troggu", ["T1"], "1 card worth 5"),
    ("troggu", ["T1", "T2"], "2 cards added up: 6 points"),
    ("french_tarot", ["T1", "T2"], "2 cards, 1 oudler: 5 points"),
    ("french_tarot", ["T3", "T2", "SW-J"], "3 cards, 0 oudlers: 2.5 points"),
])
def test_working_lines_are_singular_or_plural(game_id, cards, text):
    game = get_game(game_id)
    assert str(pile_of(game, cards, resolve_rules(game, None)).working) == text


def test_whole_troccas_deck_working():
    # troccas-wikipedia.txt: the full deck is 72; docs/rules.md §1: 130 − 19×3 − 1.
    game = get_game("troccas")
    assert str(pile_of(game, list(game.deck), {}).working) == "19 groups of 4 and 2 odd cards: 130 − 57 − 1 = 72"


@pytest.mark.parametrize("game_id,size,warned", [
    ("troccas", 5, True), ("troccas", 6, False), ("troccas", 8, False), ("troccas", 7, True),
    ("swiss_tarot_1659", 4, True), ("swiss_tarot_1659", 6, False),
])
def test_pile_size_warnings(game_id, size, warned):
    game = get_game(game_id)
    pile = [c for c in game.deck if c != C.FOOL][:size]
    assert bool(count_pile(game, pile, {}).warnings) is warned


def test_scarto_warnings_follow_the_fool():
    game = get_game("scarto")
    rules = resolve_rules(game, None)
    # docs/rules.md §0.3: the Fool's owner has 3m+1 cards, the others 3k or 3k+2.
    assert count_pile(game, ["FOOL", "T2", "T3", "T4"], rules).warnings == ()
    assert count_pile(game, ["FOOL", "T2", "T3"], rules).warnings
    assert count_pile(game, ["T2", "T3", "T4", "T5"], rules).warnings


def test_pile_errors():
    troggu = get_game("troggu")
    with pytest.raises(NotInDeck):
        pile_of(troggu, ["SW-1"], {})  # docs/rules.md (card codes): Troggu has no 1 of swords
    with pytest.raises(UnknownCard):
        pile_of(troggu, ["ZZ"], {})
    with pytest.raises(TooManyCards):
        pile_of(troggu, list(troggu.deck) + ["SW-1"], {})


# The command line.
def test_cli_counts(capsys):
    assert cli(["count", "troccas", "SW-K", "CU-Q", "BA-J", "T5"]) == 0
    out = capsys.readouterr().out.splitlines()
    # italian-swiss-archive.txt: king, queen, valet and a plain card = 9.
    assert out[:3] == ["9 points (4 cards)", "1 group of 4: 12 − 3 = 9", "the other side: 63 points (74 cards)"]


@pytest.mark.parametrize("args,message", [
    (["count", "troggu", "SW-1"], "not in the Troggu deck"),
    (["count", "troggu", "SW-K", "sp-k"], "twice"),
    (["count", "troggu", "QQ"], "Not a card"),
    (["count", "nogame", "SW-K"], "There is no game"),
    (["count"], "usage"),
])
def test_cli_bad_input_exits_2(capsys, args, message):
    assert cli(args) == 2
    assert message in capsys.readouterr().err


def test_cli_as_a_process():
    root = Path(__file__).resolve().parent.parent
    ok = subprocess.run([sys.executable, "-m", "scorekeeper", "count", "french_tarot", "T21", "T5"],
                        cwd=root, capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stdout.startswith("5 points (2 cards)")
    bad = subprocess.run([sys.executable, "-m", "scorekeeper", "count", "troggu", "CU-10"],
                         cwd=root, capture_output=True, text=True)
    assert bad.returncode == 2 and "CU-10 is not in the Troggu deck" in bad.stderr
