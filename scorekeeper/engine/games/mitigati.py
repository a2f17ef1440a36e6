"""Mitigati (Piedmont, 3 players): direct sum, 129 points, declarations (docs/rules.md §3)."""
from __future__ import annotations

from .. import cards as C
from ..errors import BadHand, BadRequest, DuplicateCard
from ..text import N_, line
from ..game import Counting, Example, Game, Option, Result, check_players, hand_fields, renamed, resolve_rules, seat
from ..entry import Entry, Group, Number, PerSeat, Pick, Ticks
from ..naming import ITALIAN, card_name
from ..text import signed
from .piles import (baseline_example, baseline_scores, fool_kept, per_player, piles_counts, piles_from_facts,
                    piles_summary, piles_to_facts, read_piles)

DECK = C.DECK_78
TOTAL = 129
BASELINE = 43
KINGS = frozenset(f"{s}-K" for s in C.SUITS)
HAND = 25  # cards a player holds when he shows his declarations: 78 = 3 × 25 + the dealer's 3 laid away
ROMAN = {"T20": "XX", "T21": "XXI"}

OPTIONS = {
    "honour_trump": Option("T20", "The 5-point honour trump beside the Bagatto: the Angel, XX (Phil), or XXI (Rufus).", ("T20", "T21"),
                           title=N_("Honour trump")),
    "declarations_paid": Option("each_player", "Declarations are paid by each other player, or added to the declarer's score only (not zero-sum).",
                                ("each_player", "flat"), title=N_("Declarations paid"),
                                words={"each_player": N_("paid by each other player"),
                                       "flat": N_("added to the declarer only")}),
    "honours_reading": Option("canonical", "Honours held together: four kings 20, else the trio 15, else any four 10, each +5 per further honour;"
                              " or the trio and any four both paid (trio and one king 25); or any four replacing the trio (trio and one king 10).",
                              ("canonical", "trio_and_four", "four_over_trio"), title=N_("Honours held together"),
                              words={"canonical": N_("the best of kings, trio or four, +5 per further honour"),
                                     "trio_and_four": N_("trio and four both paid"),
                                     "four_over_trio": N_("four honours instead of the trio")}),
    "fool_in_trumps": Option("tenth_only", "Ten or more trumps: the Fool counts as a trump only when it is the tenth (Rufus), or never (Phil names only trumps).",
                             ("tenth_only", "never"), title=N_("Matto among ten trumps"),
                             words={"tenth_only": N_("only as the tenth"), "never": N_("never")}),
}


def values(rules):
    """Return Mitigati's values: the honour trump, the Bagatto and kings 5; Fool 4; Q 4; C 3; J 2; else 1."""
    return C.nominal_values(DECK, {"T1", rules.get("honour_trump", "T20")}, fool=4)


def honours_value(held: int, kings: bool, trio: bool, reading: str) -> tuple[int, str]:
    """Return the honours declaration for `held` of the 7 honours and which one it is (docs/rules.md §3.1)."""
    if kings:  # Rufus: all four kings 20, any extra honour +5 (his example: 4 kings, I, XXI = 30)
        return 20 + 5 * (held - 4), "kings"
    if trio and reading == "trio_and_four" and held >= 4:
        return 15 + 10 + 5 * (held - 4), "trio_and_four"
    if trio and not (reading == "four_over_trio" and held >= 4):
        return 15 + 5 * (held - 3), "trio"
    if held >= 4:
        return 10 + 5 * (held - 4), "four"
    return 0, ""


def trumps_value(trumps: int, fool: bool, rules: dict) -> int:
    """Return the trump-length declaration: 10 or more trumps, 1 point each (Phil: 10 +1 per trump above 10)."""
    if fool and trumps == 9 and rules["fool_in_trumps"] == "tenth_only":
        trumps = 10  # Rufus: "the Fool counts as a trump only if it is the 10th card"
    return trumps if trumps >= 10 else 0


def declaration(player: str, shown: list[str], rules: dict):
    """Return (value, lines) for the cards one player showed."""
    trio = {"T1", rules["honour_trump"], C.FOOL}
    honours = KINGS | trio
    odd = [c for c in shown if c not in honours and not C.is_trump(c)]
    if odd:
        raise BadHand(line("{player} showed {odd}: only honours (kings, I, {honour}, the Fool) and trumps are declared in Mitigati.", player=player, odd=', '.join(card_name(GAME, c, rules) for c in odd), honour=ROMAN[rules['honour_trump']]), cards=odd)
    if len(shown) > HAND:
        # italian-swiss-archive.txt (Phil): 25 cards each, the dealer discarding his 3 extra ones first
        raise BadHand(line("{player} showed {n} cards, but a hand has only 25.", player=player, n=len(shown)))
    held = sum(1 for c in shown if c in honours)
    has_kings = KINGS <= set(shown)
    has_trio = trio <= set(shown)
    h, kind = honours_value(held, has_kings, has_trio, rules["honours_reading"])
    trumps = sum(1 for c in shown if C.is_trump(c))
    t = trumps_value(trumps, C.FOOL in shown, rules)
    lines = []
    angel = ROMAN[rules["honour_trump"]]
    if kind == "kings":
        lines.append(line("{player} showed the four kings and {held} honours in all: 20 + 5 for each honour"
                          " beyond four = {value}.", player=player, held=held, value=h))
    elif kind == "trio":
        lines.append(line("{player} showed the trio (I, {angel}, the Fool) and {held} honours in all: 15 + 5 for"
                          " each honour beyond three = {value}.", player=player, angel=angel, held=held, value=h))
    elif kind == "trio_and_four":
        lines.append(line("{player} showed the trio (I, {angel}, the Fool), 15, and {held} honours, 10 + 5 for"
                          " each beyond four: {value}.", player=player, angel=angel, held=held, value=h))
    elif kind == "four":
        lines.append(line("{player} showed {held} honours: 10 + 5 for each honour beyond four = {value}.",
                          player=player, held=held, value=h))
    if t and trumps < 10:
        lines.append(line("{player} showed 9 trumps and the Fool as the tenth: 10.", player=player))
    elif t:
        lines.append(line("{player} showed {trumps} trumps, 1 point each: {value}.", player=player,
                          trumps=trumps, value=t))
    return h + t, lines


def declarations(players: list[str], shown, rules: dict):
    """Return ({player: declaration value}, lines) from the cards each player showed."""
    if shown is None:
        return {p: 0 for p in players}, []
    if not isinstance(shown, dict):
        raise BadRequest(line("“declarations” must be an object: {{player: [the cards shown]}}."))
    for name in shown:
        seat(name, players, line("player"))
    shown = {p: shown.get(p) or [] for p in players}
    owner, twice, out, lines = {}, [], {}, []
    for p, codes in shown.items():
        if not isinstance(codes, list):
            raise BadRequest(line("{player}'s declaration must be a list of card codes.", player=p))
        cards = C.parse_pile(codes, DECK, "Mitigati")
        for c in cards:
            if c in owner:
                twice.append(c)
            owner[c] = p
        out[p], more = declaration(p, cards, rules)
        lines += more
    if twice:
        raise DuplicateCard(line("{twice} was shown by two players; each card exists only once.", twice=', '.join(card_name(GAME, c, rules) for c in twice)), cards=twice)
    return out, lines


def score(players, hand, rules):
    """Score a Mitigati hand: points − 43 plus declarations, or the agreed bids (docs/rules.md §3)."""
    check_players(GAME, players)
    hand_fields(hand, optional=("points", "cards", "declarations", "bids"))
    if hand.get("bids") is not None:
        return bid_score(players, hand, rules)
    points, explanation, warnings = read_piles(GAME, players, hand, rules)
    _real_piles(points, hand.get("cards"), warnings)
    declared, lines = declarations(players, hand.get("declarations"), rules)
    explanation += lines
    scores = baseline_scores(players, points, BASELINE, explanation)
    for p, value in declared.items():
        if not value:
            continue
        if rules["declarations_paid"] == "flat":
            scores[p] += value
            explanation.append(line("{player}'s declarations add {value} to {player} only.", player=p, value=value))
            continue
        # Rufus: "30 points from each player … they would go up 60 and each of the other players would go down 30"
        for q in players:
            scores[q] += value * (len(players) - 1) if q == p else -value
        explanation.append(line("Each other player pays {player} {value}: {player} {gain}.", player=p,
                                value=value, gain=signed(value * (len(players) - 1))))
    explanation.append(line("Scores: {scores}.", scores=", ".join(f"{p} {signed(s)}" for p, s in scores.items())))
    return Result(points=points, scores=scores, explanation=tuple(explanation), warnings=tuple(warnings))


def _real_piles(points, cards, warnings):
    """Refuse points no pile gives, and warn about pile sizes no deal gives (docs/rules.md §3 bounds).

    italian-swiss-archive.txt (Phil, Rufus): the Fool never wins a trick and "is always scored by the
    person who played it", so the winner of its trick gets 2 cards; the dealer's 3 discards count for him.
    A player's pile is then nothing, the Fool alone (4), or 2 cards and more, each worth 1 or more: never 1
    point. The piles are 3m+1 cards (the Fool's owner), 3k+2 (the winner of its trick) and 3n.
    """
    fool_kept(points)
    for p, n in points.items():
        if n == 1:
            raise BadHand(line("{player} can't have 1 point: the smallest piles are the 2 cards of the trick the Fool "
                               "was played to (2 points at least), the Fool alone (4) and 3 cards (3).", player=p))
    if not isinstance(cards, dict):
        return
    for p, pile in cards.items():
        has_fool = any(str(c).strip().upper() in ("FOOL", "EXCUSE") for c in pile)
        if (len(pile) % 3 == 1) != has_fool:
            warnings.append(line("{player}'s pile has {n} cards: the Fool's owner has 3k+1 cards and the others 3k or "
                                 "3k+2, so {n} cards {with_fool} can't happen.", player=p, n=len(pile),
                                 with_fool=line("with the Fool") if has_fool else line("without the Fool")))


def bid_score(players, hand, rules):
    """Record bids that sum to zero as the scores; the hand is not played (Rufus)."""
    for f in ("points", "cards", "declarations"):
        if hand.get(f) not in (None, {}, []):
            raise BadRequest(line("Bids replace a played hand: give “bids” alone, without “{field}”.", field=f))
    bids = per_player(hand["bids"], players, "bids")
    for p, b in bids.items():
        if type(b) is not int:
            raise BadRequest(line("{player}'s bid must be a whole number.", player=p))
        if not -BASELINE <= b <= TOTAL - BASELINE:
            raise BadHand(line("A bid says how far above or below 43 a player will take, so it is between −43 and {most}; {player}'s is {bid}.", most=TOTAL - BASELINE, player=p, bid=b))
    if sum(bids.values()):
        raise BadHand(line("The bids sum to {total}, not 0: the hand is recorded from bids only when they agree (sum to zero); otherwise it is played out.", total=sum(bids.values())))
    explanation = [line("The bids sum to 0: they are the scores and the hand is not played.")]
    for p, b in bids.items():
        explanation.append(line("{player} bid {bid}: {points} points.", player=p, bid=signed(b), points=BASELINE + b))
    points = {p: BASELINE + b for p, b in bids.items()}
    return Result(points=points, scores=dict(bids), explanation=tuple(explanation))


# ---- the rules page: sample piles and a worked example ----

SAMPLES = [["T20", "T1", "FOOL", "SW-K", "T21", "CU-3"]]


def example(game: Game) -> Example:
    """Return the hand the rules page settles, with the page's own arithmetic."""
    example = baseline_example(game, [38, 50, 41], BASELINE)  # Phil: "a score of 38 should be converted to -5"
    rules = resolve_rules(game, None)
    # Rufus: four kings with two more honours, 20 + 5 + 5 = 30 from each player.
    shown = ["SW-K", "BA-K", "CU-K", "CO-K", "T1", rules["honour_trump"]]
    declarer = example.players[1]
    value = 20 + 5 + 5
    payouts = {p: v - value for p, v in example.payouts.items()}
    payouts[declarer] = example.payouts[declarer] + value * (len(example.players) - 1)
    numbers = {**example.numbers, "declarer": declarer, "shown": shown, "value": value,
               "gain": value * (len(example.players) - 1),
               "final": [(p, example.payouts[p], payouts[p]) for p in example.players]}
    hand = {**example.hand, "declarations": {declarer: shown}}
    return Example(example.players, hand, 1, payouts, numbers)


# ---- how a hand is entered (engine/entry.py) ----

def honours(rules: dict) -> list[str]:
    """Return the honours a player can show: the kings, the Bagatto, the honour trump, the Fool."""
    return ["SW-K", "BA-K", "CU-K", "CO-K", "T1", rules["honour_trump"], C.FOOL]


def entry(players: list[str], rules: dict, last: dict | None) -> Entry:
    """Declare the Mitigati hand form: card points and declarations, or a hand settled by bids."""
    shown = tuple((c, card_name(GAME, c, rules)) for c in honours(rules))
    return Entry(
        (Pick("mode", line("This hand was"), (("played", line("Played")), ("bids", line("Settled by bids"))),
              default="played", style="contract"),
         Group((PerSeat((Number("pp", None, 0, TOTAL, what=line("points")),), fill_from=TOTAL),),
               line("Each player's card points (leave one empty: it is worked out from 129)"),
               unless=("mode", "bids"), style="per-player"),
         Group((PerSeat((Ticks("hon", line("Honours shown by {name}"), shown),
                         Number("tr", line("Trumps shown by {name} (10 or more)"), 0, 21, what=line("trumps"),
                                optional=True))),),
               line("Declarations"), unless=("mode", "bids"), folded=True, style="bonuses"),
         Group((PerSeat((Number("bid", None, -TOTAL, TOTAL, what=line("bid")),), fill_from=0),),
               line("Each player's bid, above or below 43 (they sum to zero; leave one empty)"),
               when=("mode", "bids"), style="per-player")),
        counts=piles_counts(players, {"mode": "played"}))


def to_facts(v: dict, players: list[str], rules: dict) -> dict:
    """Return the facts: every player's points and declarations (ten trumps or more), or the bids."""
    if v["mode"] == "bids":
        return {"bids": v["bid"]}
    declarations = {}
    taken = {c for p in players for c in v["hon"][p]}  # a card is shown by one player only
    for p in players:
        shown, trumps = v["hon"][p], v["tr"][p] or 0
        if trumps >= 10:  # the trumps themselves don't matter, only how many: the lowest nobody shows
            need = max(0, trumps - sum(1 for c in shown if C.is_trump(c)))
            plain = [f"T{n}" for n in range(2, 22) if f"T{n}" not in (rules["honour_trump"], *shown)]  # honours: ticked
            free = [c for c in plain if c not in taken]
            # two players may show 10 trumps each; more than the deck's 19 plain trumps (with I and the honour
            # trump ticked) stays impossible: the trumps run short and the score refuses the card shown twice
            low = (free + [c for c in plain if c not in free])[:need]
            taken.update(low)
            shown = shown + low
        if shown:
            declarations[p] = shown
    facts = piles_to_facts(v, players, rules, GAME)  # the points, or the cards the counting aid counted tapped
    if declarations:
        facts["declarations"] = declarations
    return facts


def from_facts(facts: dict, players: list[str], rules: dict) -> dict:
    """Return the form's values for a stored hand."""
    if "bids" in facts:
        return {"mode": "bids", "bid": facts["bids"]}
    hon, tr = {}, {}
    for p in players:
        cards = (facts.get("declarations") or {}).get(p, [])
        trumps = [c for c in cards if C.is_trump(c)]
        hon[p] = [c for c in honours(rules) if c in cards]
        tr[p] = len(trumps) if len(trumps) >= 10 else None
    return {"mode": "played", **piles_from_facts(facts, players, rules, GAME), "hon": hon, "tr": tr}


def summary(f: dict):
    """Say a hand in a few words: each player's points, or the bids."""
    if "bids" in f:
        return line("Bids: {bids}", bids=" · ".join(f"{p} {v:+d}" for p, v in f["bids"].items()))
    return piles_summary(f)


def zero_sum(rules: dict, n_players: int) -> bool:
    """Say whether the scores sum to zero: not when declarations are added to the declarer only."""
    return rules["declarations_paid"] != "flat"


GAME = Game(
    id="mitigati", name=N_("Mitigati"), min_players=3, max_players=3, deck=DECK, counting=Counting.SUM,
    values=values, total=TOTAL, options=OPTIONS, score=score, entry=entry, to_facts=to_facts,
    from_facts=from_facts, summary=summary, naming=ITALIAN, zero_sum=zero_sum, samples=SAMPLES, example=example,
    rename=lambda f, old, new: renamed(f, old, new, keyed=("points", "cards", "declarations", "bids")),
)
