"""Every player's pile, for the three-player games that score each player alone. Pure.

Scarto, Swiss Tarot 1659 and Mitigati all take `points: {player: n}` or `cards: {player: [codes]}`
(docs/api.md); this reads and checks either form the same way.
"""
from __future__ import annotations

from .. import cards as C
from ..errors import BadHand, BadRequest, DuplicateCard
from ..naming import card_name
from ..text import Line, line, signed
from ..entry import Count, Entry, Group, Number, PerSeat
from ..game import PLAYERS, Example, Game, count_pile, one_of, seat


def per_player(mapping, players: list[str], what: str) -> dict:
    """Check an object keyed by every player (no one missing, no stranger); return it in seating order."""
    if not isinstance(mapping, dict):
        raise BadRequest(line("“{what}” must be an object with one entry per player.", what=what))
    for name in mapping:
        seat(name, players, line("player"))
    missing = [p for p in players if p not in mapping]
    if missing:
        raise BadHand(line("“{what}” has no entry for {missing}: give one for every player.", what=what, missing=', '.join(missing)))
    return {p: mapping[p] for p in players}


def read_piles(game: Game, players: list[str], hand: dict, rules: dict, fool_alone: bool = False,
               other_total: int | None = None):
    """Return ({player: points}, explanation lines, warnings) from every player's points or cards.

    Points must add up to the deck, or to `other_total` where a house rule allows it (bad_hand
    otherwise). Cards must hold the whole deck once; each
    pile is counted by the game's scheme. With `fool_alone` (Scarto) a pile that holds the Fool
    but is whole groups of three counts the Fool alone as 4 (italian-swiss-archive.txt, the letter).
    """
    field = one_of(hand, "points", "cards")
    given = per_player(hand[field], players, field)
    explanation: list[Line] = []
    warnings: list[Line] = []
    if field == "points":
        points = {}
        for p, n in given.items():
            if type(n) is not int:
                raise BadRequest(line("{player}'s points must be a whole number.", player=p))
            if not 0 <= n <= game.total:
                raise BadHand(line("{player}'s points must be between 0 and {deck_total}, not {n}.", player=p, deck_total=game.total, n=n))
            points[p] = n
        total = sum(points.values())
        if total not in (game.total, other_total):
            if fool_alone and total == game.total - 1:  # Scarto: its Matto is never exchanged
                raise BadHand(line("The points add up to {total}, but the {game} deck is worth {deck_total}: one of"
                                   " them is wrong. 77 is what an exchanged Matto gives: in Scarto its owner keeps it"
                                   " and counts it alone as 4, which makes 78.",
                                   total=total, game=line(game.name), deck_total=game.total))
            raise BadHand(line("The points add up to {total}, but the {game} deck is worth {deck_total}: one of"
                               " them is wrong.", total=total, game=line(game.name), deck_total=game.total))
        if total == game.total:
            explanation.append(line("The points add up to {total}, the whole deck.", total=total))
        else:
            explanation.append(line("The points add up to {total}.", total=total))
        return points, explanation, warnings

    piles = {}
    for p, codes in given.items():
        if not isinstance(codes, list):
            raise BadRequest(line("{player}'s pile must be a list of card codes.", player=p))
        piles[p] = C.parse_pile(codes, game.deck, game.name)
    owner: dict[str, str] = {}
    twice = []
    for p, pile in piles.items():
        for card in pile:
            if card in owner:
                twice.append(card)
            owner[card] = p
    if twice:
        raise DuplicateCard(line("{twice} is in two players' piles; each card exists only once.",
                                 twice=', '.join(card_name(game, c) for c in twice)),
                            cards=twice)
    missing = [c for c in game.deck if c not in owner]
    if missing:
        shown = ", ".join(missing[:8]) + (" …" if len(missing) > 8 else "")
        raise BadHand(line("The piles hold {n_owner} of the {n_deck} cards; every card ends in someone's pile. Missing: {shown}.", n_owner=len(owner), n_deck=len(game.deck), shown=shown), cards=missing)
    points = {}
    for p, pile in piles.items():
        count = count_pile(game, pile, rules)
        n = count.points
        explanation.append(line("{player}'s pile, {n} cards:", player=p, n=len(pile)))
        explanation.append(count.working)
        if fool_alone and C.FOOL in pile and len(pile) % 3 == 0:
            n += 1
            warnings.append(line("{player}'s pile has the Matto and {n} cards, whole groups of three: it looks"
                                 " exchanged French-style. In Scarto the Matto is never exchanged; it counts"
                                 " alone as 4, so {player} has {points}, one more than the groups give.",
                                 player=p, n=len(pile), points=n))
        else:
            warnings.extend(count.warnings)
        points[p] = n
    total = sum(points.values())
    if total not in (game.total, other_total):
        sizes = ", ".join(f"{p} {len(pile)}" for p, pile in piles.items())
        raise BadHand(line("The piles count {total}, not the {deck_total} of the {game} deck: their sizes ({sizes} cards) can't come from a real hand.", total=total, deck_total=game.total, game=line(game.name), sizes=sizes))
    return points, explanation, warnings


def fool_kept(points: dict) -> None:
    """Refuse two players with no card at all, where the Fool stays with the player who played it.

    italian-swiss-archive.txt (Scarto and Mitigati): the Fool "can never take a trick" and "is always
    retained by the player who plays it"; the trick it was played to goes to another player. So two
    players at least end with cards, and a pile of one card or more is worth 1 point or more.
    """
    empty = [p for p, n in points.items() if n == 0]
    if len(empty) > 1:  # three players and a deck worth 77 or more: two at most
        raise BadHand(line("{a} and {b} can't both have 0 points: the Fool never wins a trick and stays with the player "
                           "who played it, so its owner and the winner of the trick it was played to both hold cards.",
                           a=empty[0], b=empty[1]))


def baseline_scores(players: list[str], points: dict, baseline: int, explanation: list) -> dict:
    """Score each player's points against the game's baseline, explaining each line (points − 26, − 43)."""
    scores = {}
    for p in players:
        scores[p] = points[p] - baseline
        explanation.append(line("{player}: {points} − {baseline} = {score}.", player=p, points=points[p],
                                baseline=baseline, score=signed(scores[p])))
    return scores


def baseline_example(game: Game, piles: list[int], baseline: int) -> Example:
    """Return a rules-page example: three players' points, each scored against the baseline."""
    # italian-swiss-archive.txt: each player scores relative to the average (26 of 78, 43 of 129).
    players = list(PLAYERS[:3])
    points = dict(zip(players, piles))
    payouts = {p: points[p] - baseline for p in players}
    numbers = {"points": points, "baseline": baseline, "rows": [(p, points[p], payouts[p]) for p in players]}
    return Example(players, {"points": points}, 1, payouts, numbers)


# ---- how a hand is entered: every player's points, one left blank is worked out ----

def piles_entry(total: int):
    """Return the entry of a game scored by every player's card points (Scarto, 1659, Mitigati)."""
    def entry(players: list[str], rules: dict, last: dict | None) -> Entry:
        return Entry((_points(total),), counts=piles_counts(players))
    return entry


def _points(total: int) -> Group:
    return Group((PerSeat((Number("pp", None, 0, total, what=line("points")),), fill_from=total),),
                 line("Each player's card points (leave one empty: it is worked out from {total})", total=total),
                 style="per-player")


def piles_counts(players: list[str], sets: dict | None = None) -> tuple:
    """Return the counting aid's targets: each player's pile fills that player's points."""
    return tuple(Count(f"pp{i}", p, f"pp{i}", sets or {}) for i, p in enumerate(players))


def seat_piles(piles: dict, players: list[str], deck, prefix: str = "pp") -> dict | None:
    """Return every player's cards from the piles the counting aid counted by seat (`pp0`, `pp1`, …): all of them,
    or all but one, whose pile is the rest of the deck; None if fewer were counted (their points were typed)."""
    mine = {p: piles[f"{prefix}{i}"] for i, p in enumerate(players) if f"{prefix}{i}" in piles}
    rest = [p for p in players if p not in mine]
    if len(rest) > 1:
        return None
    if rest:
        held = {c for cards in mine.values() for c in cards}
        mine[rest[0]] = [c for c in deck if c not in held]
    return {p: list(mine[p]) for p in players}


def piles_to_facts(v: dict, players: list[str], rules: dict, game: Game | None = None) -> dict:
    """Return the facts of a hand entered as every player's points, or as their cards where the counting aid counted
    them tapped (all piles, or all but one: the rest of the deck), as the API takes them: the engine then counts
    them and warns of a pile no deal gives (the Fool in the wrong pile), as it does there."""
    cards = seat_piles(v.get("piles") or {}, players, game.deck_of(rules)) if game is not None else None
    return {"cards": cards} if cards is not None else {"points": v["pp"]}


def piles_from_facts(facts: dict, players: list[str], rules: dict, game: Game | None = None) -> dict:
    """Return the form's values for a stored hand of every player's points (or cards: their counts, the cards kept)."""
    cards = facts.get("cards")
    if game is not None and isinstance(cards, dict):
        return {"pp": {p: count_pile(game, C.parse_pile(cards.get(p) or [], game.deck, game.name), rules).points
                       for p in players},
                "piles": {f"pp{i}": cards.get(p) or [] for i, p in enumerate(players)}}
    return {"pp": facts.get("points") or {}}


def piles_summary(f: dict) -> str:
    """Say a hand in a few words: "Anna 30 · Beat 20 · Carla 28"; a hand entered with the cards by their sizes."""
    if f.get("points") is None and isinstance(f.get("cards"), dict):
        return line("Counted from the cards")
    return " · ".join(f"{p} {v}" for p, v in (f.get("points") or {}).items())
