"""Sicilian Tarocchi (Mineo, Tortorici, Calatafimi, Barcellona): 63 cards counted in threes, 104 + 5 = 109 points
(docs/rules.md §10)."""
from __future__ import annotations

from .. import cards as C
from ..errors import BadHand, BadRequest, DuplicateCard
from ..naming import ITALIAN_MARKS, Naming, card_name
from .piles import seat_piles
from ..text import N_, line, signed
from ..entry import ALONE, Count, Entry, EntryError, Group, Number, PerSeat, Pick, Ticks, pile_or_rest, seats
from ..game import (PLAYERS, Counting, Example, Game, Option, Result, check_players, count_pile, hand_fields, one_of,
                    renamed, seat, whole_points)

# docs/rules.md §10: trumps 20 down to 1, the unnumbered Miseria (T0), the Fugitive (FOOL); swords, batons and cups
# K Q C J 10 … 5, coins K Q C J 10 … 4.
TRUMPS = tuple(f"T{n}" for n in range(20, -1, -1))
SUIT_CARDS = tuple(f"{s}-{r}" for s in C.SUITS for r in C.COURTS + tuple(str(n) for n in range(10, 3 if s == "CO" else 4, -1)))
DECK = TRUMPS + (C.FOOL,) + SUIT_CARDS
ACE = "CO-1"  # docs/rules.md §10: the Ace of coins, put aside except in one Barcellona game (`ace_of_coins`)
DECK_WITH_ACE = DECK + (ACE,)
CARDS_TOTAL = 104  # docs/rules.md §10: 146 − 21 × 2
HALF = 55  # docs/rules.md §10: 55 of 109 wins by 1, 54 loses by 1
TENS = {"T20", "T1", C.FOOL}  # Giove, the Picciotti, the Fugitive: 10 each
ARIE = ("T16", "T17", "T18", "T19")  # the four arie: 5 each
GIOVE = "T20"
MONTE = 3  # the dealer deals in fives; three cards are the monte, which goes to whoever plays
SIDES = ("declarer", "opponents")

# AGTS (docs/rules.md §10): "U Fujutu", Giove, i Picciotti, la Miseria; the jack is the Donna, the queen the Regina.
NAMING = Naming(
    fool="Fujutu",
    trumps={20: "Giove", 1: "Picciotti", 0: "Miseria"},
    suits={"SW": "Spade", "BA": "Bastoni", "CU": "Coppe", "CO": "Denari"},
    suit_marks=ITALIAN_MARKS,
    courts={"K": "Re", "Q": "Rg", "C": "C", "J": "D"},
    court_names={"K": "Re", "Q": "Regina", "C": "Cavallo", "J": "Donna"},
    roman=False,  # docs/rules.md §10: trumps are coded by the number printed on them
    round_ace_high=False,  # docs/rules.md §10 lists every suit 10 down to 5 (coins to 4)
    legend=line("Re the king, Rg the queen (Regina), C the cavallo, D the jack: the Donna, 2 points."),
    honours=line("The arie ({names})"),
    great=line("Giove and the Picciotti ({names})"),
    # docs/rules.md §10: "In every language the Donna is the jack (2 points), never the queen": the generic words
    # for queens and jacks (Italian "Donne" for queens) would say the opposite
    class_words={"queens": line("Regine (the queens)"), "jacks": line("Donne (the jacks)"),
                 "others": line("Scartine (the other cards)")},
)

OPTIONS = {
    "version": Option("tortorici", "How a played hand is scored: Tortorici's card points against 55 (the one formula "
                      "the sources give in full), Mineo's game points, or Calatafimi's and Barcellona's deals scored "
                      "as Tortorici.", ("tortorici", "mineo", "calatafimi", "barcellona"), title=N_("Version"),
                      words={"tortorici": N_("Tortorici: card points against 55"),
                             "mineo": N_("Mineo: game points"),
                             "calatafimi": N_("Calatafimi (scored as Tortorici)"),
                             "barcellona": N_("Barcellona (scored as Tortorici)")}),
    "count_leftover": Option("rounded_thirds", "The cards over the last full three lose 1 point together, a lone "
                             "card too (every split makes 104), or as in Scarto a lone card keeps its value (then "
                             "two sides can make 105).", ("rounded_thirds", "as_scarto"), title=N_("Cards left over"),
                             words={"rounded_thirds": N_("a partial three loses 1, a lone card too"),
                                    "as_scarto": N_("as in Scarto: a lone card keeps its value")}),
    "last_trick_points": Option(5, "Points for the last trick (5), or 0 for tables that count the cards only.", (5, 0),
                                title=N_("Last trick")),
    "ace_of_coins": Option(False, "Play with the Ace of coins as the lowest coin (one Barcellona game), 64 cards.",
                           title=N_("Ace of coins")),
    "stata_multiplier": Option(2, "A stata (a solo declared on the first five cards) multiplies the score by this.",
                               (2, 1), title=N_("Stata")),
    "cappotto_bonus": Option(0, "Points each opponent pays on top when the soloist takes every trick (the sources "
                             "read don't give it).", title=N_("Cappotto bonus")),
}

CONTRACTS = ("solo", "call", "each", "pago", "offer", "passed")
FIELDS = ("contract", "declarer", "partner", "stata", "declarer_points", "declarer_cards", "last_trick",
          "points_each", "cards_each", "game_points", "cappotto", "payers", "taker", "offer")


def deck_for(rules: dict) -> tuple[str, ...]:
    """Return the pack: 63 cards, 64 with the Barcellona Ace of coins (docs/rules.md §10)."""
    return DECK_WITH_ACE if rules.get("ace_of_coins") else DECK


def values(rules):
    """Return the values in the group arithmetic: Giove, Picciotti, Fujutu 10; arie and kings 5; Q 4; C 3; J 2;
    every scartina (the Miseria and the ace too) 1 (docs/rules.md §10)."""
    out = {}
    for card in deck_for(rules):
        if card in TENS:
            out[card] = 10
        elif card in ARIE:
            out[card] = 5
        else:
            out[card] = C.COURT_VALUES.get(C.rank_of(card) or "", 1)
    return out


def rounded(rules) -> bool:
    """Say whether a partial three loses 1 whatever its size (docs/rules.md §10 `count_leftover`)."""
    return rules.get("count_leftover", "rounded_thirds") == "rounded_thirds"


def total(rules) -> int:
    """Return the points of a whole hand: 104 for the cards, plus the last trick (docs/rules.md §10)."""
    return CARDS_TOTAL + rules.get("last_trick_points", 5)


def _possible(n_cards: int, fool: bool, n_players: int | None) -> bool:
    """Say whether a pile (one player's, or one side's with the monte) of this size comes from a real deal.

    docs/rules.md §10: at 3 players every pile is a multiple of 3, or (the Fugitive kept) 3k+1 holding it and
    3m+2 across; at 4 a side holds tricks of 4, plus the monte's 3 where it went, one more or less around the
    Fugitive kept.
    """
    three = n_cards % 3 == 0 or n_cards % 3 == (1 if fool else 2)
    four = n_cards % 4 in ((0, 3, 1) if fool else (0, 3, 2))
    if n_players == 3:
        return three
    if n_players == 4:
        return four
    return three or four


def pile_warnings(cards, rules):
    """Warn about a pile size no deal gives, at 3 players or at 4 (docs/rules.md §10)."""
    if rules.get("ace_of_coins") or _possible(len(cards), C.FOOL in cards, None):
        return []
    return [line("No deal gives a pile of {n} cards: at 3 players a pile is a multiple of 3 (3k+1 with the Fujutu "
                 "kept, 3k+2 across from it); at 4 a side holds tricks of 4 and perhaps the monte's 3.",
                 n=len(cards))]


def score(players: list[str], hand: dict, rules: dict) -> Result:
    """Score and settle one hand of Sicilian Tarocchi (docs/rules.md §10)."""
    players = check_players(GAME, players)
    hand = hand_fields(hand, required=("contract",), optional=FIELDS)
    contract = hand["contract"]
    if not isinstance(contract, str):
        raise BadRequest(line("“contract” must be solo, call, each, pago, offer or passed."))
    if contract not in CONTRACTS:
        raise BadHand(line("“{contract}” is not a way a hand of Sicilian Tarocchi ends: solo, call, each, pago, "
                           "offer or passed.", contract=contract))
    used = {"solo": ("declarer", "stata", "declarer_points", "declarer_cards", "last_trick", "game_points", "cappotto"),
            "call": ("declarer", "partner", "declarer_points", "declarer_cards", "last_trick", "game_points", "cappotto"),
            "each": ("points_each", "cards_each", "last_trick"),
            "pago": ("payers", "taker"), "offer": ("offer",), "passed": ()}[contract]
    for f in FIELDS[1:]:
        if f not in used and hand.get(f) not in (None, False):
            raise BadHand(line("“{field}” doesn't belong to a hand that ends “{contract}”.", field=f, contract=contract))
    if contract == "passed":
        return Result({}, dict.fromkeys(players, 0), (line("Everyone passed: nobody scores; the next dealer deals."),))
    if contract == "pago":
        return _pago(players, hand)
    if contract == "offer":
        return _offer(players, hand)
    if contract == "each":
        return _each(players, hand, rules)
    return _played(players, hand, rules, contract)


def _pago(players, hand) -> Result:
    """Mineo's pago: each player who said pago pays 1 game point to the one who said prendo (AGTS)."""
    if hand.get("taker") is None:
        raise BadRequest(line("The hand lacks “taker”, the player who said prendo."))
    taker = seat(hand["taker"], players, line("taker"))
    payers = hand.get("payers")
    if not isinstance(payers, list) or not payers:
        raise BadRequest(line("“payers” must list the players who said pago."))
    for p in payers:
        seat(p, players, line("payer"))
    if len(set(payers)) != len(payers):
        raise BadHand(line("A player says pago once: {names}.", names=", ".join(payers)))
    if taker in payers:
        raise BadHand(line("{name} said pago and so can't take the pago too: the taker is the one who said prendo.",
                           name=taker))
    scores = dict.fromkeys(players, 0)
    for p in payers:
        scores[p] = -1
    scores[taker] = len(payers)
    return Result({}, scores, (line("Pago: {names} pay 1 each to {taker}, who said prendo → {taker} +{k}.",
                                    names=", ".join(payers), taker=taker, k=len(payers)),))


def _offer(players, hand) -> Result:
    """Calatafimi's "offro x" and "piglio": x points from the offerer to the taker (AGTS)."""
    offer = hand.get("offer")
    if not isinstance(offer, dict) or set(offer) != {"from", "to", "amount"}:
        raise BadRequest(line("“offer” must be an object with “from”, “to” and “amount”."))
    giver = seat(offer["from"], players, line("offerer"))
    taker = seat(offer["to"], players, line("taker"))
    if giver == taker:
        raise BadHand(line("{name} can't take his own offer: the offer goes to another player.", name=giver))
    amount = whole_points(offer["amount"], 1, CARDS_TOTAL + 5, line("The points offered"))
    scores = dict.fromkeys(players, 0)
    scores[giver], scores[taker] = -amount, amount
    return Result({}, scores, (line("{giver} offered {amount} and {taker} took them (piglio): {giver} −{amount}, "
                                    "{taker} +{amount}.", giver=giver, taker=taker, amount=amount),))


def _cards(codes, rules, who):
    if not isinstance(codes, list):
        raise BadRequest(line("{who}'s pile must be a list of card codes.", who=who))
    return C.parse_pile(codes, deck_for(rules), GAME.name)


def _each(players, hand, rules) -> Result:
    """Each for himself (Tortorici, 3 players): each scores 3·p − 109 (docs/rules.md §10 [inferred])."""
    n, whole = len(players), total(rules)
    if n != 3:
        raise BadHand(line("Each for himself is played at 3 players, not {n}.", n=n))
    explanation, warnings = [], []
    if one_of(hand, "points_each", "cards_each") == "points_each":
        given = _per_player(hand["points_each"], players, "points_each")
        points = {p: whole_points(given[p], 0, whole, line("{player}'s points", player=p)) for p in players}
        if hand.get("last_trick") is not None:
            seat(hand["last_trick"], players, line("last trick's winner"))
        added = sum(points.values())
        if added != whole:
            raise BadHand(line("The three players' points add up to {total}, not {whole}: one of them is wrong.",
                               total=added, whole=whole))
    else:
        given = _per_player(hand["cards_each"], players, "cards_each")
        last = seat(hand.get("last_trick"), players, line("last trick's winner"))
        piles = {p: _cards(given[p], rules, p) for p in players}
        _whole_deck(piles, rules)
        points = {}
        for p in players:
            count = count_pile(GAME, piles[p], rules)
            explanation.append(line("{player}'s pile, {n} cards: {working}.", player=p, n=count.cards,
                                    working=count.working))
            if not rules["ace_of_coins"] and not _possible(count.cards, C.FOOL in piles[p], 3):
                warnings.append(line("At 3 players a pile has a multiple of 3 cards (3k+1 with the Fujutu kept, 3k+2 "
                                     "across from it); {player}'s {n} can't happen.", player=p, n=count.cards))
            points[p] = count.points
        cards_sum = sum(points.values())
        if cards_sum != CARDS_TOTAL:
            sizes = ", ".join(f"{p} {len(piles[p])}" for p in players)
            if rounded(rules):
                raise BadHand(line("The piles count {total}, not 104: their sizes ({sizes} cards) can't come from a "
                                   "real hand.", total=cards_sum, sizes=sizes))
            warnings.append(line("The piles count {total}, not 104 (house rule “Cards left over”).", total=cards_sum))
        points[last] += rules["last_trick_points"]
        if rules["last_trick_points"]:
            explanation.append(line("{player} took the last trick: +{points}.", player=last,
                                    points=rules["last_trick_points"]))
    added = sum(points.values())
    explanation.append(line("Each for himself: {listing} (together {total}).",
                            listing=", ".join(f"{p} {points[p]}" for p in players), total=added))
    # docs/rules.md §10 [inferred]: each settles the difference with each other player: 3·p − the whole
    scores = {p: 3 * points[p] - added for p in players}
    for p in players:
        explanation.append(line("{player}: 3 × {points} − {total} = {score}.", player=p, points=points[p],
                                total=added, score=signed(scores[p])))
    return Result(points, scores, tuple(explanation), tuple(warnings))


def _played(players, hand, rules, contract) -> Result:
    """A solo (3 or 4 players) or a call (4 players): the declarer's side against the others."""
    n, whole, lp = len(players), total(rules), rules["last_trick_points"]
    if hand.get("declarer") is None:
        raise BadRequest(line("The hand lacks “declarer”, the soloist or the caller."))
    declarer = seat(hand["declarer"], players, line("declarer"))
    partner = None
    if contract == "call":
        if n != 4:
            raise BadHand(line("A trump is called only at 4 players, not at {n}: at 3 it is a solo.", n=n))
        if hand.get("partner") is not None:
            partner = seat(hand["partner"], players, line("partner"))
            partner = None if partner == declarer else partner  # the called trump in his hand or the monte
    stata = hand.get("stata") or False
    if type(stata) is not bool or type(hand.get("cappotto") or False) is not bool:
        raise BadRequest(line("“stata” and “cappotto” are true or false."))
    if stata and contract != "solo":
        raise BadHand(line("A stata is a solo declared on the first five cards: a call can't be one."))
    explanation, warnings = [], []
    last = hand.get("last_trick")
    if last is not None and last not in SIDES:
        raise BadRequest(line("“last_trick” is “declarer” or “opponents”."))
    arie_side = None
    # docs/rules.md §10, issue 41: in Mineo the game points the table typed decide the score; the card points may
    # then be left out (given, they are checked for being possible)
    alone = rules["version"] == "mineo" and hand.get("game_points") is not None \
        and hand.get("declarer_points") is None and hand.get("declarer_cards") is None
    if alone:
        points = None
    elif one_of(hand, "declarer_points", "declarer_cards") == "declarer_points":
        points = whole_points(hand["declarer_points"], 0, whole, line("The declarer's side's points"))
    else:
        if last is None:
            raise BadRequest(line("With the cards, say who took the last trick: “last_trick”, declarer or opponents."))
        pile = _cards(hand["declarer_cards"], rules, declarer)
        count = count_pile(GAME, pile, rules)
        explanation.append(line("The declarer's side's cards, the monte included: {working}.", working=count.working))
        if count.points + count.rest.points != CARDS_TOTAL:
            warnings.append(line("The two sides' cards count {a} and {b}, {total} together, not 104 (house rule "
                                 "“Cards left over”).", a=count.points, b=count.rest.points,
                                 total=count.points + count.rest.points))
        if not rules["ace_of_coins"] and not _possible(count.cards, C.FOOL in pile, n):
            if n == 3:
                warnings.append(line("At 3 players a side holds a multiple of 3 cards (3k+1 with the Fujutu kept, 3k+2 "
                                     "across from it); {cards} cards can't happen.", cards=count.cards))
            else:
                warnings.append(line("At 4 players the declarer's side holds tricks of 4 and the monte's 3 (one card "
                                     "more or less around the Fujutu kept); {cards} cards can't happen.",
                                     cards=count.cards))
        points = count.points + (lp if last == "declarer" else 0)
        if lp:
            explanation.append(line("Last trick to the {side}: +{points}.",
                                    side=line("declarer's side") if last == "declarer" else line("opponents"),
                                    points=lp))
        theirs = set(deck_for(rules)) - set(pile)
        if set(ARIE) <= set(pile):
            arie_side = "declarer"
        elif set(ARIE) <= theirs:
            arie_side = "opponents"
        giove = arie_side is not None and (GIOVE in pile) == (arie_side == "declarer")
    pts = {}
    if points is not None:
        opponents = whole - points
        pts = {"declarer": points, "opponents": opponents}
        if partner:
            explanation.append(line("{name} and {partner}: {points} points; opponents {opponents} (of {whole}).",
                                    name=declarer, partner=partner, points=points, opponents=opponents, whole=whole))
        else:
            explanation.append(line("{name} alone: {points} points; opponents {opponents} (of {whole}).",
                                    name=declarer, points=points, opponents=opponents, whole=whole))
    cappotto = hand.get("cappotto") or False
    if cappotto and points is not None and points != whole:
        raise BadHand(line("A cappotto is every trick, so all {whole} points, not {points}.", whole=whole, points=points))

    if rules["version"] == "mineo":
        unit, kind = _game_points(hand, pts, last, arie_side, arie_side is not None and giove, whole, explanation)
    else:
        # docs/rules.md §10 (AGTS, Tortorici): the soloist scores 2 × (S − 55), each opponent −(S − 55)
        unit = points - HALF
        explanation.append(line("{points} − 55 = {unit}.", points=points, unit=signed(unit)))
    opps = [p for p in players if p not in (declarer, partner)]
    side = [declarer] + ([partner] if partner else [])
    times = rules["stata_multiplier"] if stata else 1
    if times != 1:
        explanation.append(line("Stata: × {times}.", times=times))
    unit *= times
    scores = {p: -unit for p in opps}
    if partner:
        # [inferred] two against two: each of the pair +(P − 55), each opponent −(P − 55)
        for p in side:
            scores[p] = unit
        explanation.append(line("{name} and {partner} {score} each; each opponent {other}.", name=declarer,
                                partner=partner, score=signed(unit), other=signed(-unit)))
    else:
        # 3 players: 2 × ; alone against 3 [inferred]: 3 × (the sourced 2:1 split)
        scores[declarer] = len(opps) * unit
        explanation.append(line("{name}: {k} × {unit} = {score}; each opponent {other}.", name=declarer, k=len(opps),
                                unit=signed(unit), score=signed(len(opps) * unit), other=signed(-unit)))
    if cappotto and rules["version"] != "mineo" and rules["cappotto_bonus"]:
        bonus = rules["cappotto_bonus"]
        for p in opps:
            scores[p] -= bonus
        for p in side:
            scores[p] += bonus * len(opps) // len(side)
        explanation.append(line("Cappotto: each opponent pays {bonus} more (house rule “Cappotto bonus”).",
                                bonus=bonus))
    return Result(pts, {p: scores[p] for p in players}, tuple(explanation), tuple(warnings))


def _game_points(hand, pts, last, arie_side, with_giove, whole, explanation):
    """Return J, the declarer's game points minus the opponents', for version mineo (docs/rules.md §10).

    The table's own count ("game_points") wins; else what the cards show: the majority of card points, the last
    trick, all arie in one side's tricks (1), all arie with Giove (2).
    """
    given = hand.get("game_points")
    if given is not None:
        if not isinstance(given, dict) or set(given) != set(SIDES):
            raise BadRequest(line("“game_points” must be {{\"declarer\": n, \"opponents\": n}}."))
        gp = {s: whole_points(given[s], 0, 20, line("The game points")) for s in SIDES}
        explanation.append(line("Game points as the table counted them: declarer's side {d}, opponents {o}.",
                                d=gp["declarer"], o=gp["opponents"]))
    else:
        gp = dict.fromkeys(SIDES, 0)
        if pts["declarer"] * 2 != whole:
            major = "declarer" if pts["declarer"] * 2 > whole else "opponents"
            gp[major] += 1
        if last is not None:
            gp[last] += 1
        if arie_side is not None:
            gp[arie_side] += 2 if with_giove else 1
        explanation.append(line("Game points from what the cards show (majority, last trick, arie): declarer's "
                                "side {d}, opponents {o}; the table adds the rest by hand.",
                                d=gp["declarer"], o=gp["opponents"]))
    j = gp["declarer"] - gp["opponents"]
    explanation.append(line("{d} − {o} = {unit} game points.", d=gp["declarer"], o=gp["opponents"], unit=signed(j)))
    return j, "game"


def _per_player(value, players, field):
    """Check a {player: ...} object names each player exactly once."""
    if not isinstance(value, dict):
        raise BadRequest(line("“{field}” must be an object with one entry per player.", field=field))
    for name in value:
        seat(name, players, line("player"))
    missing = [p for p in players if p not in value]
    if missing:
        raise BadRequest(line("“{field}” lacks {missing}: give every player's pile.", field=field,
                              missing=", ".join(missing)))
    return value


def _whole_deck(piles, rules):
    """Check the piles hold every card of the pack once (docs/rules.md §10 invariants)."""
    owner, twice = {}, []
    for p, pile in piles.items():
        for card in pile:
            if card in owner and card not in twice:
                twice.append(card)
            owner[card] = p
    if twice:
        raise DuplicateCard(line("{twice} is in two players' piles; each card exists only once.",
                                 twice=", ".join(card_name(GAME, c) for c in twice)), cards=twice)
    deck = deck_for(rules)
    missing = [c for c in deck if c not in owner]
    if missing:
        shown = ", ".join(missing[:8]) + (" …" if len(missing) > 8 else "")
        raise BadHand(line("The piles hold {n_owner} of the {n_deck} cards; every card ends in someone's pile. "
                           "Missing: {shown}.", n_owner=len(owner), n_deck=len(deck), shown=shown), cards=missing)


# ---- the rules page: sample piles and a worked example ----

# docs/rules.md §10: a full three (Giove, a king, a scartina: 16 − 2), another (an aria, a queen, a scartina: 10 − 2),
# two cards over (a Donna and a cavallo: 5 − 1), the Fujutu alone (10 − 1).
SAMPLES = [["T20", "SW-K", "CU-5"], ["T19", "CO-Q", "T7"], ["BA-J", "CU-C"], ["FOOL"]]


def example(game: Game) -> Example:
    """Return the hand the rules page settles: a Tortorici solo at 3 players (docs/rules.md §10)."""
    players = list(PLAYERS[:3])
    soloist_points = 70
    unit = soloist_points - HALF  # 15
    payouts = {players[0]: 2 * unit, players[1]: -unit, players[2]: -unit}
    numbers = {"soloist": players[0], "points": soloist_points, "opponents": CARDS_TOTAL + 5 - soloist_points,
               "half": HALF, "unit": unit, "gain": 2 * unit, "whole": CARDS_TOTAL + 5, "cards_total": CARDS_TOTAL,
               "four_gain": 3 * unit,
               # docs/rules.md §10: dealt in fives, 3 cards to the monte: (63 − 3) / n each
               "deal": [(n, (len(DECK) - MONTE) // n, MONTE) for n in (3, 4)]}
    hand = {"contract": "solo", "declarer": players[0], "declarer_points": soloist_points}
    return Example(players, hand, 1, payouts, numbers)


# ---- how a hand is entered (engine/entry.py) ----

CONTRACT_WORDS = {"solo": line("Solo"), "call": line("Call"), "each": line("Each for himself"),
                  "pago": line("Pago"), "offer": line("Offer"), "passed": line("Everyone passed")}
SIDE_WORDS = (("declarer", line("Declarer's side")), ("opponents", line("Opponents")))
EXTRAS = (("stata", line("Stata (declared on the first five cards)")), ("cappotto", line("Cappotto (every trick)")))


def entry(players: list[str], rules: dict, last: dict | None) -> Entry:
    """Declare the hand form: how it ended, who played or took, either side's points; or each player's points."""
    n, whole = len(players), total(rules)
    contracts = [c for c in CONTRACTS if not (c == "call" and n != 4) and not (c == "each" and n != 3)]
    played = [Pick("declarer", line("Who plays, or who takes (prendo, piglio)"), seats(players), style="people")]
    if n == 4:
        played.append(Pick("partner", line("In a call, the holder of the called trump"),
                           seats(players) + ((ALONE, line("Alone")),), style="people"))
    played += [Group((Pick("side", line("Points of"), SIDE_WORDS, default="declarer"),
                      Number("points", line("Points"), 0, whole, what=line("points"), optional=True, style="points")),
                     style="points-row",
                     hint=line("Of {whole}, the last trick's {last} included. Type either side's points: the other "
                               "side has the rest.", whole=whole, last=rules["last_trick_points"])),
               # docs/rules.md §10: the last trick's points are in no pile; a count of the cards asks whose they are
               # (never guessed: half of all counted hands would be 5 points off, issue 41)
               Pick("last_trick", line("Who took the last trick"), SIDE_WORDS, default=""),
               Ticks("extras", line("Also"), EXTRAS)]
    if rules["version"] == "mineo":
        played.append(Group((Number("gp_declarer", line("Declarer's side"), 0, 20, what=line("game points"),
                                    optional=True),
                             Number("gp_opponents", line("Opponents"), 0, 20, what=line("game points"),
                                    optional=True)),
                            line("Game points as the table counted them (empty: from the points; typed, they "
                                 "decide the score, and the points may stay empty)")))
    played.append(Group((Ticks("payers", line("Said pago (each pays 1 to the taker)"), seats(players)),
                         Pick("offer_from", line("Offered by"), seats(players), style="people"),
                         Number("amount", line("Points offered"), 1, whole, what=line("points"), optional=True)),
                        line("Not played: a pago or an offer"), folded=True))
    fields = [Pick("contract", line("How the hand ended"), tuple((c, CONTRACT_WORDS[c]) for c in contracts),
                   default="solo", style="contract")]
    lp = rules["last_trick_points"]
    counts = [Count(side, words, "points", {"side": side}, bonus=("last_trick", side, lp) if lp else None)
              for side, words in SIDE_WORDS]
    if n == 3:
        fields += [Group(tuple(played), unless=("contract", "each")),
                   Group((PerSeat((Number("pp", None, 0, whole, what=line("points")),), fill_from=whole),
                          Pick("last_each", line("Who took the last trick"), seats(players), default="",
                               style="people")),
                         line("Each player's points, the last trick included (leave one empty: it is worked out "
                              "from {whole})", whole=whole), when=("contract", "each"), style="per-player")]
        counts += [Count(f"pp{i}", p, f"pp{i}", {"contract": "each"}, bonus=("last_each", p, lp) if lp else None)
                   for i, p in enumerate(players)]
    else:
        fields += played
    return Entry(tuple(fields), counts=tuple(counts))


def to_facts(v: dict, players: list[str], rules: dict) -> dict:
    """Return the hand's facts from the form's values."""
    contract = v["contract"] or "solo"
    if contract == "passed":
        return {"contract": "passed"}
    piles = v.get("piles") or {}
    if contract == "each":
        cards = seat_piles(piles, players, deck_for(rules))
        if cards is not None:  # the cards tapped: the engine counts them, as the API's cards_each
            if v.get("last_each") is None:
                raise EntryError({"last_each": line("Choose who took the last trick.")})
            return {"contract": "each", "cards_each": cards, "last_trick": v["last_each"]}
        facts = {"contract": "each", "points_each": v["pp"]}
        if v.get("last_each") is not None:
            facts["last_trick"] = v["last_each"]
        return facts
    if contract == "pago":
        errors = {}
        if v.get("declarer") is None:
            errors["declarer"] = line("Choose who said prendo.")
        if not v.get("payers"):
            errors["payers"] = line("Tick who said pago.")
        if errors:
            raise EntryError(errors)
        return {"contract": "pago", "taker": v["declarer"], "payers": v["payers"]}
    if contract == "offer":
        errors = {}
        if v.get("declarer") is None:
            errors["declarer"] = line("Choose who took the offer.")
        if v.get("offer_from") is None:
            errors["offer_from"] = line("Choose who made the offer.")
        elif v.get("offer_from") == v.get("declarer"):
            errors["offer_from"] = line("An offer goes to another player.")
        if v.get("amount") is None:
            errors["amount"] = line("Enter the points offered.")
        if errors:
            raise EntryError(errors)
        return {"contract": "offer", "offer": {"from": v["offer_from"], "to": v["declarer"], "amount": v["amount"]}}
    errors = {}
    gp = (v.get("gp_declarer"), v.get("gp_opponents"))
    cards = pile_or_rest(piles, "declarer", "opponents", deck_for(rules))
    if v.get("declarer") is None:
        errors["declarer"] = line("Choose the soloist.") if contract == "solo" else line("Choose the caller.")
    if v.get("points") is None and cards is None and not (rules["version"] == "mineo" and None not in gp):
        errors["points"] = line("Enter the points.")  # Mineo's game points typed decide alone (docs/rules.md §10)
    if cards is not None and v.get("last_trick") is None:
        errors["last_trick"] = line("Choose who took the last trick.")
    if contract == "call" and v.get("partner") is None:
        errors["partner"] = line("Choose the called trump's holder, or Alone.")
    if errors:
        raise EntryError(errors)
    facts = {"contract": contract, "declarer": v["declarer"]}
    if cards is not None:  # the cards tapped: the engine counts them and adds the last trick, as the API does
        facts["declarer_cards"] = cards
    elif v.get("points") is not None:
        facts["declarer_points"] = v["points"] if v["side"] != "opponents" else total(rules) - v["points"]
    if v.get("last_trick") is not None:
        facts["last_trick"] = v["last_trick"]
    if contract == "call":
        facts["partner"] = None if v["partner"] == ALONE else v["partner"]
    for extra, _words in EXTRAS:
        if extra in (v.get("extras") or []):
            facts[extra] = True
    if gp != (None, None):
        if None in gp:
            raise EntryError({"gp_declarer" if gp[0] is None else "gp_opponents":
                              line("Enter both sides' game points, or neither.")})
        facts["game_points"] = {"declarer": gp[0], "opponents": gp[1]}
    return facts


def from_facts(facts: dict, players: list[str], rules: dict) -> dict:
    """Return the form's values for a stored hand."""
    contract = facts["contract"]
    out = {"contract": contract, "side": "declarer", "extras": [e for e, _w in EXTRAS if facts.get(e)]}
    lp = rules["last_trick_points"]
    if contract == "each":
        out["pp"] = facts.get("points_each") or {}
        out["last_each"] = facts.get("last_trick")
        if isinstance(facts.get("cards_each"), dict):  # entered with the cards: their count, the last trick's 5
            piles = facts["cards_each"]
            out["pp"] = {p: _counted(piles.get(p) or [], rules) + (lp if facts.get("last_trick") == p else 0)
                         for p in players}
            out["piles"] = {f"pp{i}": piles.get(p) or [] for i, p in enumerate(players)}
    elif contract == "pago":
        out.update(declarer=facts.get("taker"), payers=facts.get("payers") or [])
    elif contract == "offer":
        offer = facts.get("offer") or {}
        out.update(declarer=offer.get("to"), offer_from=offer.get("from"), amount=offer.get("amount"))
    elif contract in ("solo", "call"):
        out.update(declarer=facts.get("declarer"), points=facts.get("declarer_points"),
                   last_trick=facts.get("last_trick"))
        if isinstance(facts.get("declarer_cards"), list):  # entered with the cards: their count, the last trick's 5
            out["points"] = _counted(facts["declarer_cards"], rules) + (lp if facts.get("last_trick") == "declarer"
                                                                        else 0)
            out["piles"] = {"declarer": facts["declarer_cards"]}
        if contract == "call":
            out["partner"] = facts.get("partner") or ALONE
        gp = facts.get("game_points") or {}
        out.update(gp_declarer=gp.get("declarer"), gp_opponents=gp.get("opponents"))
    return out


def _counted(cards, rules) -> int:
    return count_pile(GAME, C.parse_pile(cards, deck_for(rules), GAME.name), rules).points


def summary(f: dict):
    """Say a hand in a few words: "Anna: Solo, 70 points", "Pago: Beat, Carla → Anna"."""
    contract = f.get("contract")
    if contract == "passed":
        return line("Everyone passed")
    if contract == "each":
        if f.get("points_each") is None:
            return line("Each for himself, counted from the cards")
        return " · ".join(f"{p} {n}" for p, n in (f.get("points_each") or {}).items())
    if contract == "pago":
        return line("Pago: {payers} → {taker}", payers=", ".join(f.get("payers") or []), taker=f.get("taker"))
    if contract == "offer":
        offer = f.get("offer") or {}
        return line("Offer: {giver} → {taker}, {amount}", giver=offer.get("from"), taker=offer.get("to"),
                    amount=offer.get("amount"))
    if f.get("declarer_points") is not None:
        text = line("{player}: {contract}, {points} points", player=f.get("declarer"),
                    contract=CONTRACT_WORDS.get(contract, contract), points=f.get("declarer_points"))
    elif f.get("declarer_cards") is not None:
        text = line("{player}: {contract}, counted from the cards", player=f.get("declarer"),
                    contract=CONTRACT_WORDS.get(contract, contract))
    else:  # Mineo: the game points alone
        gp = f.get("game_points") or {}
        text = line("{player}: {contract}, game points {d} to {o}", player=f.get("declarer"),
                    contract=CONTRACT_WORDS.get(contract, contract), d=gp.get("declarer"), o=gp.get("opponents"))
    if f.get("partner") and f.get("partner") != f.get("declarer"):
        text = line("{hand} with {partner}", hand=text, partner=f["partner"])
    if f.get("stata"):
        text = line("{hand} · stata", hand=text)
    if f.get("cappotto"):
        text = line("{hand} · cappotto", hand=text)
    return text


def rename(facts: dict, old: str, new: str) -> dict:
    """Return the facts with a player renamed (the offer's two names too)."""
    out = renamed(facts, old, new, names=("declarer", "partner", "taker", "last_trick"),
                  keyed=("points_each", "cards_each"), lists=("payers",))
    if isinstance(out.get("offer"), dict):
        out["offer"] = renamed(out["offer"], old, new, names=("from", "to"))
    return out


GAME = Game(
    id="sicilian_tarocchi", name=N_("Sicilian Tarocchi"), min_players=3, max_players=4, deck=DECK,
    counting=Counting.GROUPS, group_size=3, values=values, total=CARDS_TOTAL, options=OPTIONS, two_sided=True,
    pile_warnings=pile_warnings, partial_loses_one=rounded, deck_for=deck_for,
    score=score, entry=entry, to_facts=to_facts, from_facts=from_facts, summary=summary, naming=NAMING,
    samples=SAMPLES, samples_combine=True, example=example, rename=rename,
    declarer=lambda f: f.get("declarer") if f.get("contract") in ("solo", "call") else None,
    contract=lambda f: CONTRACT_WORDS.get(f.get("contract")),
    taken_on=line("a solo or a call"),
)
