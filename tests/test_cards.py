import pytest

from scorekeeper.engine import cards as C
from scorekeeper.engine.errors import DuplicateCard, NotInDeck, UnknownCard


def test_deck_sizes():
    # docs/rules.md (card codes): 21 trumps + Fool + 4 suits × 14 = 78; Troggu drops 16 pips = 62.
    assert len(C.DECK_78) == 78 and len(set(C.DECK_78)) == 78
    assert len(C.DECK_62) == 62


def test_troggu_deck_holds_the_right_pips():
    # docs/rules.md §5: long suits K Q C J 10 9 8 7 6 5; round suits K Q C J 1..6.
    for s in ("SW", "BA"):
        assert [c for c in C.DECK_62 if c.startswith(s)] == [f"{s}-{r}" for r in "K Q C J 10 9 8 7 6 5".split()]
    for s in ("CU", "CO"):
        assert sorted(c for c in C.DECK_62 if c.startswith(s)) == sorted(f"{s}-{r}" for r in "K Q C J 6 5 4 3 2 1".split())


@pytest.mark.parametrize("text,code", [
    ("t21", "T21"), ("EXCUSE", "FOOL"), ("fool", "FOOL"), ("sp-k", "SW-K"), ("CL-10", "BA-10"),
    ("HE-Q", "CU-Q"), ("di-1", "CO-1"), (" co-c ", "CO-C"),
    ("T0", "T0"), ("miseria", "T0"), ("MISERIA", "T0"),  # docs/rules.md (card codes): the Sicilian Miseria
])
def test_aliases(text, code):
    assert C.parse_card(text) == code


@pytest.mark.parametrize("text", ["T00", "T22", "T01", "SW-11", "XX-K", "", "K", "SW-K-1", "SW-0", "T¹", "T١", "SW-¹",
                                  "T" + "9" * 5000])  # past int()'s 4300-digit limit: a ValueError, once a 500
def test_unknown(text):
    with pytest.raises(UnknownCard):
        C.parse_card(text)


def test_parse_pile_errors():
    with pytest.raises(NotInDeck) as e:
        C.parse_pile(["SW-1"], C.DECK_62, "Troggu")
    assert e.value.cards == ["SW-1"]
    with pytest.raises(NotInDeck) as e:  # docs/rules.md (card codes): the Miseria exists only in the Sicilian pack
        C.parse_pile(["miseria"], C.DECK_78, "Troccas")
    assert e.value.cards == ["T0"]
    with pytest.raises(DuplicateCard):
        C.parse_pile(["SW-K", "sp-k"], C.DECK_78, "Troccas")
