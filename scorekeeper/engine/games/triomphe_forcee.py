"""Triomphe Forcée (4-10 players): stakes and tricks, no card points (RULES.md §7)."""
from __future__ import annotations

from .. import cards as C
from ..errors import BadHand, BadRequest, DuplicateCard
from ..text import N_, line
from . import Game, Option, Result, check_players, hand_fields, seat
from .piles import signed

DECK = C.DECK_78
LA_MORT = "T13"
TRICKS = 5  # five cards each, five tricks (italian-swiss-archive.txt)

OPTIONS = {
    "force_trump": Option("T11", "La Force is trump XI (most decks) or IX (Vievil's).", ("T11", "T9")),
}


def values(rules):
    """Return nominal values for reference; Triomphe Forcée counts tricks, not card points."""
    return C.nominal_values(DECK, {"T1", "T21"})


def claims(rules: dict) -> dict[str, int]:
    """Return what each declared card takes from the pot, in antes: Fool 1, Bateleur 1, La Force 2."""
    return {C.FOOL: 1, "T1": 1, rules["force_trump"]: 2}


def trick_winner(players: list[str], tricks) -> tuple[str, dict[str, int]]:
    """Return who takes the rest of the pot and the tricks per player: most tricks, ties to who got there first."""
    if not isinstance(tricks, list):
        raise BadRequest(line("“tricks” must be the list of the five tricks' winners."))
    if len(tricks) != TRICKS:
        raise BadHand(line("A hand has {TRICKS} tricks; “tricks” names {n_tricks} winners.", TRICKS=TRICKS, n_tricks=len(tricks)))
    for name in tricks:
        seat(name, players, line("trick winner"))
    won = {p: 0 for p in players}
    reached = {}  # (player, count) -> the trick at which the player reached that count
    for i, name in enumerate(tricks):
        won[name] += 1
        reached[name, won[name]] = i
    top = max(won.values())
    # italian-swiss-archive.txt: "the one who won two tricks first"; all different: the first trick's winner
    winner = min((p for p in players if won[p] == top), key=lambda p: reached[p, top])
    return winner, won


def score(players, hand, rules):
    """Settle a hand in antes: La Mort takes the pot, else the declarations, then most tricks (RULES.md §7)."""
    check_players(GAME, players)
    hand_fields(hand, optional=("la_mort", "declarations", "tricks"))
    n = len(players)
    pot = n  # each player antes 1: the stake is the ante
    gains = {p: 0 for p in players}
    explanation = [line("{n} players ante 1 each: the pot is {pot}.", n=n, pot=pot)]
    declared = declarations_of(players, hand.get("declarations"), rules)
    tricks = hand.get("tricks")
    mort = hand.get("la_mort")
    points = {}
    if mort is not None:
        seat(mort, players, line("holder of La Mort"))
        if any(declared.values()) or tricks is not None:
            raise BadHand(line("La Mort ends the hand as soon as it is shown: there are no declarations and no tricks."))
        gains[mort] = pot
        explanation.append(line("{player} holds La Mort (XIII) and takes the whole pot of {pot}.", player=mort, pot=pot))
    else:
        value = claims(rules)
        for p, cards in declared.items():
            for card in cards:
                gains[p] += value[card]
                explanation.append(line("{player} shows {card}: {value} from the pot.", player=p,
                                        card=card, value=value[card]))
        rest = pot - sum(gains.values())
        if rest == 0:
            if tricks is not None:
                raise BadHand(line("The declarations emptied the pot, so the hand ends without play: leave out “tricks”."))
            explanation.append(line("The declarations empty the pot: the hand is not played."))
        else:
            if tricks is None:
                raise BadHand(line("{rest} antes are left in the pot, so the hand is played: give “tricks”, the winners of the five tricks.", rest=rest))
            winner, points = trick_winner(players, tricks)
            gains[winner] += rest
            if list(points.values()).count(points[winner]) > 1:
                explanation.append(line("{player} took {n} tricks, tied for most, and got there first: the rest of"
                                        " the pot, {rest}.", player=winner, n=points[winner], rest=rest))
            else:
                explanation.append(line("{player} took the most tricks, {n}: the rest of the pot, {rest}.",
                                        player=winner, n=points[winner], rest=rest))
    scores = {p: gains[p] - 1 for p in players}
    explanation.append(line("Less each player's ante: {scores}.",
                            scores=", ".join(f"{p} {signed(s)}" for p, s in scores.items())))
    return Result(points=points, scores=scores, explanation=tuple(explanation))


def declarations_of(players: list[str], declared, rules: dict) -> dict[str, list[str]]:
    """Check the declared cards: only the Fool, the Bateleur and La Force, each held once."""
    if declared is None:
        return {p: [] for p in players}
    if not isinstance(declared, dict):
        raise BadRequest(line("“declarations” must be an object: {{player: [the cards declared]}}."))
    for name in declared:
        seat(name, players, line("player"))
    out, seen, twice = {}, set(), []
    allowed = claims(rules)
    for p in players:
        codes = declared.get(p) or []
        if not isinstance(codes, list):
            raise BadRequest(line("{player}'s declaration must be a list of card codes.", player=p))
        cards = C.parse_pile(codes, DECK, "Triomphe Forcée")
        odd = [c for c in cards if c not in allowed]
        if odd:
            raise BadHand(line("{player} declared {odd}: only the Fool, the Bateleur (T1) and La Force ({force}) are paid from the pot.", player=p, odd=', '.join(odd), force=rules['force_trump']), cards=odd)
        twice += [c for c in cards if c in seen]
        seen.update(cards)
        out[p] = cards
    if twice:
        raise DuplicateCard(line("{twice} was declared by two players; each card exists only once.", twice=', '.join(twice)), cards=twice)
    return out


GAME = Game(
    id="triomphe_forcee", name=N_("Triomphe Forcée"), min_players=4, max_players=10, deck=DECK,
    counting="tricks", values=values, options=OPTIONS, unit="ante", score=score,
)
