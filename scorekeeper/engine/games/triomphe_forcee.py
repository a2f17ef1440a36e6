"""Triomphe Forcée (4-10 players): stakes and tricks, no card points (docs/rules.md §7)."""
from __future__ import annotations

from .. import cards as C
from ..errors import BadHand, BadRequest, DuplicateCard
from ..naming import GENERIC_SUITS, ITALIAN_MARKS, Naming, card_name
from ..text import N_, line
from ..game import Counting, PLAYERS, Example, Game, Option, Result, check_players, hand_fields, renamed, resolve_rules, seat
from dataclasses import replace

from ..entry import Entry, EntryError, Group, PerSeat, Pick, Ticks, seats
from ..text import signed

DECK = C.DECK_78
LA_MORT = "T13"
TRICKS = 5  # five cards each, five tricks (italian-swiss-archive.txt)

# italian-swiss-archive.txt, Triomphe Forcée: Le Fou, Le Basteleur, La Force (XI, or IX in Vievil's
# deck: the force_trump option), La Mort (XIII).
NAMING = Naming(
    fool="Le Fou",
    trumps={1: "Le Basteleur", 11: "La Force", 13: "La Mort"},
    suits=GENERIC_SUITS,
    suit_marks=ITALIAN_MARKS,
    courts={"K": "K", "Q": "Q", "C": "C", "J": "J"},
)

OPTIONS = {
    "force_trump": Option("T11", "La Force is trump XI (most decks) or IX (Vievil's).", ("T11", "T9"), title=N_("La Force")),
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
    """Settle a hand in antes: La Mort takes the pot, else the declarations, then most tricks (docs/rules.md §7)."""
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
                                        card=card_name(GAME, card, rules), value=value[card]))
        rest = pot - sum(gains.values())
        if rest == 0:
            if tricks is not None:
                raise BadHand(line("The declarations emptied the pot, so the hand ends without play: leave out “tricks”."))
            explanation.append(line("The declarations empty the pot: the hand is not played."))
        else:
            if tricks is None:
                raise BadHand(line("{rest} antes are left in the pot, so the hand is played: give “tricks”, the winners of the five tricks.", rest=rest))
            winner, points = trick_winner(players, tricks)
            _fool_never_wins(declared, points)
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


def _fool_never_wins(declared: dict, won: dict) -> None:
    """Refuse five tricks to the player who declared the Fool (docs/rules.md §7 bounds).

    italian-swiss-archive.txt: the Fool "never wins a trick"; its holder plays all five of his cards,
    the Fool to one trick, which he can't win: he takes four tricks at most.
    """
    for p, cards in declared.items():
        if C.FOOL in cards and won[p] == TRICKS:
            raise BadHand(line("{player} declared Le Fou, which never wins a trick, so {player} can't have won all "
                               "five.", player=p))


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
            raise BadHand(line("{player} declared {odd}: only the Fool, the Bateleur (T1) and La Force ({force}) are paid from the pot.", player=p, odd=', '.join(card_name(GAME, c, rules) for c in odd), force=rules['force_trump']), cards=odd)
        twice += [c for c in cards if c in seen]
        seen.update(cards)
        out[p] = cards
    if twice:
        raise DuplicateCard(line("{twice} was declared by two players; each card exists only once.", twice=', '.join(card_name(GAME, c, rules) for c in twice)), cards=twice)
    return out


# ---- the rules page: sample piles and a worked example ----

SAMPLES = []


def example(game: Game) -> Example:
    """Return the hand the rules page settles, with the page's own arithmetic."""
    # italian-swiss-archive.txt: Fool and Bateleur win one stake from the pot, La Force two; the rest
    # goes to the most tricks, a tie to whoever reached that count first.
    rules = resolve_rules(game, None)
    players = list(PLAYERS[:5])
    ante = 2
    pot = ante * len(players)
    claims = {players[0]: ante, players[1]: 2 * ante}
    tricks = [players[2], players[3], players[2], players[3], players[4]]
    rest = pot - sum(claims.values())
    wins = dict(claims)
    wins[players[2]] = rest  # Carla reaches two tricks at trick 3, Dario only at trick 4
    payouts = {p: wins.get(p, 0) - ante for p in players}
    numbers = {"ante": ante, "pot": pot, "rest": rest, "force": rules["force_trump"], "tricks": tricks,
               "la_mort": LA_MORT, "n_tricks": TRICKS,
               "rows": [(p, wins.get(p, 0), payouts[p]) for p in players]}
    hand = {"la_mort": None, "declarations": {players[0]: ["FOOL"], players[1]: [rules["force_trump"]]},
            "tricks": tricks}
    return Example(players, hand, ante, payouts, numbers)


# ---- how a hand is entered (engine/entry.py) ----

def naming(rules: dict) -> Naming:
    """Return the cards' names: La Force is XI, or IX under the house rule force_trump."""
    force = int(rules.get("force_trump", "T11")[1:])
    return replace(NAMING, trumps={**{n: v for n, v in NAMING.trumps.items() if v != "La Force"}, force: "La Force"})


def entry(players: list[str], rules: dict, last: dict | None) -> Entry:
    """Declare the Triomphe Forcée hand form: La Mort, the declarations, the five tricks' winners."""
    force = rules["force_trump"]
    shown = ((C.FOOL, line("Le Fou")), ("T1", line("Le Bateleur (I)")), (force, line("La Force ({n})", n=force[1:])))
    return Entry((
        Pick("la_mort", line("La Mort (XIII) was dealt to"), seats(players), blank=line("Nobody"), style="people"),
        Group((PerSeat((Ticks("dc", None, shown),)),), line("Declared: Le Fou, Le Bateleur, La Force"),
              style="per-player"),
        Group(tuple(Pick(f"trick{t}", line("Trick {n}", n=t + 1), seats(players), style="people")
                    for t in range(TRICKS)), style="tricks",
              hint=line("Leave the tricks empty when the hand was not played (La Mort, or the pot was emptied)."))))


def to_facts(v: dict, players: list[str], rules: dict) -> dict:
    """Return the facts; the tricks only when some were entered (then every one of them)."""
    facts = {"la_mort": v["la_mort"], "declarations": {p: cards for p, cards in v["dc"].items() if cards}}
    tricks = [v[f"trick{t}"] for t in range(TRICKS)]
    if v["la_mort"] is None and any(tricks):
        missing = {f"trick{t}": line("Choose who won this trick.") for t, w in enumerate(tricks) if w is None}
        if missing:
            raise EntryError(missing)
        facts["tricks"] = tricks
    return facts


def from_facts(facts: dict, players: list[str], rules: dict) -> dict:
    """Return the form's values for a stored hand."""
    tricks = facts.get("tricks") or [None] * TRICKS
    return {"la_mort": facts.get("la_mort"), "dc": facts.get("declarations") or {},
            **{f"trick{t}": winner for t, winner in enumerate(tricks)}}


def summary(f: dict):
    """Say a hand in a few words: who had La Mort, or who won the tricks."""
    if f.get("la_mort"):
        return line("La Mort: {player}", player=f["la_mort"])
    if f.get("tricks"):
        return line("Tricks: {winners}", winners=", ".join(f["tricks"]))
    return line("Not played")


GAME = Game(
    id="triomphe_forcee", name=N_("Triomphe Forcée"), min_players=4, max_players=10, deck=DECK,
    counting=Counting.TRICKS, values=values, options=OPTIONS, unit="ante", score=score, entry=entry, to_facts=to_facts,
    from_facts=from_facts, summary=summary, naming=naming, unit_label=N_("Antes"), shown_players=5,
    example=example,
    rename=lambda f, old, new: renamed(f, old, new, names=("la_mort",), keyed=("declarations",), lists=("tricks",)),
)
