"""Troggu (Upper Valais): 62 cards, direct sum, 114 points, Rappen payouts (docs/rules.md §5)."""
from __future__ import annotations

from .. import cards as C
from ..errors import BadHand, BadRequest, DuplicateCard, ScoreError
from ..naming import ITALIAN_MARKS, Naming, card_name
from ..text import N_, line, signed
from ..entry import ALONE, Count, Entry, EntryError, Group, Number, PerSeat, Pick, seats
from ..game import Counting, PLAYERS, Example, Game, Option, Result, check_players, count_pile, hand_fields, one_of, pile_of, renamed, resolve_rules, seat, whole_points

DECK = C.DECK_62
HONOURS = {"T1", "T21"}  # with the Fool and the kings: 5 points (troggu-visp-de.txt)
TOTAL = 114
WIN = 58  # troggu-visp-de.txt: "mehr als die Hälfte der Punkte (58 oder mehr) gewinnt"
DRAW = 57  # 57–57: "gewinnt niemand und kein Geld wird gezahlt"
LOW = 30  # fewer than 30 points: the losers pay double
TAPP = {3: 8, 4: 10, 5: 7, 6: 8, 7: 6, 8: 6}  # docs/rules.md §5 deal table (4 players: see tapp_4p)
PARTNER_TABLE = (7, 8)  # the Tappist may call a partner only at 7 or 8 players
PARTNER_UNITS = 2  # troggu-visp-de.txt: "Der Partner des Tappisten bekommt oder bezahlt den doppelten Grundbetrag"
FOOL_ALONE = 5  # a side without a trick can only hold the Fool kept back by "schgüsieru"
# troggu-visp-de.txt has its holder give "eine niedrige Karte vom eigenen Gewinnstapel" to the last trick's winners;
# docs/rules.md §5 [inferred]: with no trick to give from, nothing is given and the Fool counts 5 (never 4).
NO_TRICK = (0, FOOL_ALONE)  # what a side (or a misère player) without a trick and Tapp can hold
FIVES = frozenset({C.FOOL, "T1", "T21"}) | {f"{s}-K" for s in C.SUITS}  # the 5-point cards
SIDES = ("declarer", "opponents")

# troggu-visp-de.txt: "Bagatt", "Der Zwänzger", "Der Munt", the Fool "Bättler"; suits Schwerter,
# Stecken, Rosen, Coppe; court cards König, Königin, Ritter, Bube.
NAMING = Naming(
    fool="Bättler",
    trumps={1: "Bagatt", 20: "Zwänzger", 21: "Munt"},
    suits={"SW": "Schwerter", "BA": "Stecken", "CU": "Coppe", "CO": "Rosen"},
    suit_marks=ITALIAN_MARKS,
    courts={"K": "K", "Q": "Kö", "C": "R", "J": "B"},
    court_names={"K": "König", "Q": "Königin", "C": "Ritter", "J": "Bube"},
    legend=line("K König (king), Kö Königin (queen), R Ritter (knight), B Bube (jack)."),  # its own letters
)

OPTIONS = {
    "min_players": Option(3, "Fewest players at the table: 3 (the English rules, BGA) or 4 (the Visp sheet).", (3, 4),
                          title=N_("Fewest players")),
    "match_with_tapp_points": Option(True, "A side that took no trick is a Match (×3) even if the Tapp gave it points.",
                                     title=N_("A Match with Tapp points")),
    "misere_tie": Option("each_top_pays", "Misère tie for most points: each top scorer pays everyone else, they split one payment, or nobody pays.",
                         ("each_top_pays", "split", "none"), title=N_("Tie in a Misère"),
                         words={"each_top_pays": N_("each top scorer pays everyone else"),
                                "split": N_("the top scorers split one payment"), "none": N_("nobody pays")}),
    "tapp_4p": Option(10, "Cards in the Tapp at 4 players: 10 (13 cards each) or 6 (14 each, the Visp sheet's “besser”).", (10, 6),
                      title=N_("Tapp at 4 players")),
}

CONTRACTS = ("normal", "solo", "misere")
FIELDS = ("contract", "declarer", "partner", "declarer_points", "declarer_cards", "no_tricks",
          "misere_points", "misere_cards")


def values(rules):
    """Return Troggu's nominal values: Fool, I, XXI and kings 5; Q 4; C 3; J 2; the rest 1."""
    return C.nominal_values(DECK, HONOURS)


def tapp_size(n_players: int, rules: dict) -> int:
    """Return how many cards lie in the Tapp at this table size."""
    return rules["tapp_4p"] if n_players == 4 else TAPP[n_players]


def tapp_range(n_players: int, rules: dict) -> tuple[int, int]:
    """Return the fewest and most points the Tapp's cards can hold."""
    size = tapp_size(n_players, rules)
    richest = sorted(values(rules).values(), reverse=True)[:size]
    return size, sum(richest)  # every card is worth at least 1


def trick_least(n_players: int) -> int:
    """Return the fewest points a side that took a trick holds: a trick's cards, at least 1 point each.

    troggu-en.txt keeps no exchange for the Fool shown at the last trick, so that trick's winners may
    get only n − 1 cards (Visp's exchange card makes it n); the looser bound is the one that holds.
    """
    return n_players - 1


def richest(cards, k: int) -> int:
    """Return the points of the k richest of these cards."""
    vals = values({})
    return sum(sorted((vals[c] for c in cards), reverse=True)[:k])


def no_trick_most(n_players: int, contract: str, rules: dict) -> int:
    """Return the most a declarer's side that took no trick can hold: the Tapp and a Fool kept back.

    troggu-visp-de.txt: the Tappist may lay away no 5-point card, unless all four kings together; a
    soloist's Tapp is as dealt. The Fool kept back by "schgüsieru" counts for its holder's side (5; English,
    troggu-en.txt, has no exchange card), and the Fool never lies in the discards.
    """
    size = tapp_size(n_players, rules)
    if contract == "solo":
        return richest(DECK, size + 1)  # the Tapp, or the Tapp and the Fool: the richest size + 1 cards
    plain = [c for c in DECK if c not in FIVES]
    best = richest(plain, size)
    if size >= 4:
        best = max(best, 20 + richest(plain, size - 4))  # the four kings laid away together
    return best + FOOL_ALONE


def score(players: list[str], hand: dict, rules: dict) -> Result:
    """Score and settle one Troggu hand in units of the base stake."""
    players = check_players(GAME, players, low=rules["min_players"])
    hand = hand_fields(hand, required=("contract",), optional=FIELDS)
    contract = hand["contract"]
    if not isinstance(contract, str):
        raise BadRequest(line("“contract” must be normal, solo or misere."))
    if contract not in CONTRACTS:
        raise BadHand(line("“{contract}” is not a Troggu contract: normal, solo or misere.", contract=contract))
    if contract == "misere":
        return _misere(players, hand, rules)
    return _declared(players, hand, rules, contract)


def _declared(players, hand, rules, contract) -> Result:
    n = len(players)
    for f in ("misere_points", "misere_cards"):
        if hand.get(f) is not None:
            raise BadHand(line("“{field}” belongs to a misère; this hand is a {contract}.", field=f, contract=contract))
    if hand.get("declarer") is None:
        raise BadRequest(line("The hand lacks “declarer”, the Tappist or soloist."))
    declarer = seat(hand["declarer"], players, line("declarer"))
    partner = _partner(hand.get("partner"), players, declarer, contract)

    explanation = []
    warnings = []
    if one_of(hand, "declarer_points", "declarer_cards") == "declarer_points":
        points = whole_points(hand["declarer_points"], 0, TOTAL, line("The declarer's points"))
        opponents = TOTAL - points
    else:
        count = pile_of(GAME, hand["declarer_cards"], rules)
        points, opponents = count.points, count.rest.points
        explanation.append(line("The declarer's side's cards: {working}.", working=count.working))
        size = tapp_size(n, rules)
        _discards(C.parse_pile(hand["declarer_cards"], DECK, GAME.name), size, contract)
        if count.cards < size:
            warnings.append(line("The declarer's side always has the {size} cards of the Tapp or the discards; "
                                 "this pile has only {n}.", size=size, n=count.cards))
        elif (count.cards - size) % n:
            # Tricks of n cards plus the Tapp (the Visp Fool exchange keeps the sizes).
            warnings.append(line("The declarer's side should hold tricks of {n} cards plus the {size} of the Tapp; "
                                 "{cards} cards can't happen (unless the Fool was kept back without exchange).",
                                 n=n, size=size, cards=count.cards))
    pts = {"declarer": points, "opponents": opponents}

    if contract == "solo":
        explanation.append(line("Soloist {name} (Tapp included): {points} points; opponents {opponents}.",
                                name=declarer, points=points, opponents=opponents))
    elif partner:
        explanation.append(line("Tappist {name} and partner {partner}: {points} points; opponents {opponents}.",
                                name=declarer, partner=partner, points=points, opponents=opponents))
    else:
        explanation.append(line("Tappist {name} (Tapp included): {points} points; opponents {opponents}.",
                                name=declarer, points=points, opponents=opponents))
        if n in PARTNER_TABLE:
            explanation.append(line("No partner (the called card was in the Tapp or {name}'s own hand): {name} plays alone.",
                                    name=declarer))

    no_tricks = hand.get("no_tricks")
    if no_tricks is not None and not isinstance(no_tricks, str):
        raise BadRequest(line("“no_tricks” must be null, “declarer” or “opponents”."))
    if no_tricks is not None and no_tricks not in SIDES:
        raise BadHand(line("“{no_tricks}” is not a side: “no_tricks” is null, “declarer” or “opponents”.", no_tricks=no_tricks))

    if points == DRAW:
        if no_tricks is not None:
            raise BadHand(line("At 57 points each, both sides took tricks: a side with no trick can't reach 57."))
        explanation.append(line("57 points each: a draw, nobody pays."))
        return Result(pts, dict.fromkeys(players, 0), tuple(explanation), tuple(warnings))

    won = points >= WIN
    loser = "opponents" if won else "declarer"
    loser_points = opponents if won else points
    _check_no_tricks(no_tricks, loser, pts, n, contract, rules)
    if won:
        explanation.append(line("{points} ≥ 58: the declarer's side wins.", points=points))
    else:
        explanation.append(line("{points} < 57: the declarer's side loses.", points=points))

    # troggu-visp-de.txt: "Bei einem Match müssen die Verlierer den dreifachen Grundbetrag zahlen";
    # docs/rules.md §5 [inferred]: a Match takes precedence over <30.
    match = no_tricks == loser and (loser == "opponents" or rules["match_with_tapp_points"] or loser_points == 0)
    if match:
        times = 3
        explanation.append(line("The losing side took no trick: a Match, triple stake."))
    elif loser_points < LOW:
        times = 2
        if no_tricks == loser:
            explanation.append(line("No trick, but {points} points from the Tapp: no Match at this table.", points=loser_points))
        explanation.append(line("Losing side {points} < 30: double stake.", points=loser_points))
    else:
        times = 1
        if no_tricks == loser:
            explanation.append(line("No trick, but {points} points from the Tapp: no Match at this table.", points=loser_points))
        explanation.append(line("Losing side {points} ≥ 30: single stake.", points=loser_points))
    unit = times
    if contract == "solo":
        unit = 2 * times  # troggu-visp-de.txt: "beim Solo ... der Grundbetrag wird aber verdoppelt"
        explanation.append(line("Solo doubles the base: {times} × 2 = {unit} units per opponent.", times=times, unit=unit))

    sign = 1 if won else -1
    opponents_list = [p for p in players if p not in (declarer, partner)]
    scores = {p: -sign * unit for p in opponents_list}
    k = len(opponents_list)
    if partner:
        # troggu-visp-de.txt: the partner gets or pays double the base, the Tappist the rest.
        scores[partner] = sign * PARTNER_UNITS * unit
        scores[declarer] = sign * (k - PARTNER_UNITS) * unit
        explanation.append(line("{k} opponents × {unit} = {total}: partner {partner} 2 × {unit} → {p_score}, "
                                "Tappist {name} the rest → {d_score}.",
                                k=k, unit=unit, total=k * unit, partner=partner, name=declarer,
                                p_score=signed(scores[partner]), d_score=signed(scores[declarer])))
    else:
        scores[declarer] = sign * k * unit
        if won:
            explanation.append(line("{k} opponents × {unit} → {name} +{total}.", k=k, unit=unit, name=declarer, total=k * unit))
        else:
            explanation.append(line("{name} pays {k} opponents × {unit} → {name} −{total}.", k=k, unit=unit, name=declarer, total=k * unit))
    return Result(pts, {p: scores[p] for p in players}, tuple(explanation), tuple(warnings))


def _partner(value, players, declarer, contract):
    """Return the called partner, or None when the declarer plays alone."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadRequest(line("“partner” must be a player's name or null."))
    if contract != "normal":
        raise BadHand(line("A soloist plays alone: a solo has no partner."))
    if len(players) not in PARTNER_TABLE:
        raise BadHand(line("A partner is called only at 7 or 8 players, not at {n_players}.", n_players=len(players)))
    partner = seat(value, players, line("partner"))
    # troggu-visp-de.txt: calling a card from his own hand, the Tappist plays alone.
    return None if partner == declarer else partner


def _check_no_tricks(no_tricks, loser, pts, n, contract, rules):
    """Check the points each side holds against the Tapp and the tricks it took (docs/rules.md §5 bounds)."""
    if no_tricks is not None and no_tricks != loser:
        if no_tricks == "declarer":
            raise BadHand(line("The declarer took no trick, so they can't have won with {points} points.",
                               points=pts[no_tricks]))
        raise BadHand(line("The opponents took no trick, so they can't have won with {points} points.",
                           points=pts[no_tricks]))
    size, least = tapp_size(n, rules), trick_least(n)
    declarer, opponents = pts["declarer"], pts["opponents"]
    # troggu-visp-de.txt: "Der Punktwert der abgelegten Karten gehört dem Tappisten"; the soloist "kann den
    # Punktwert des Tapps ... hinzuzählen": the Tapp's cards, 1 point or more each, are the declarer's side's.
    if declarer < size:
        raise BadHand(line("The declarer's side always has the {size} cards of the Tapp or the discards, so at least "
                           "{size} points, not {points}.", size=size, points=declarer))
    if no_tricks == "opponents":
        if opponents not in NO_TRICK:
            raise BadHand(line("Opponents without a trick hold nothing but perhaps the Fool's 5 points kept back "
                               "(with no trick to give a card from, nothing is given), not {points}.",
                               points=opponents))
    elif opponents < least:
        if opponents in NO_TRICK:
            raise BadHand(line("With {points} points the opponents took no trick (a trick holds at least {least} "
                               "points): mark their Match.", points=opponents, least=least))
        raise BadHand(line("The opponents can't have {points} points: without a trick they hold 0, or the Fool's 5 "
                           "kept back, and with a trick at least {least}.",
                           points=opponents, least=least))
    if no_tricks == "declarer":
        most = no_trick_most(n, contract, rules)
        if declarer > most:
            raise BadHand(line("Without a trick the declarer has only the Tapp's {size} cards and perhaps the Fool kept "
                               "back, at most {most} points, not {points}.", size=size, most=most, points=declarer))
    elif declarer < size + least:
        raise BadHand(line("With {points} points the declarer's side took no trick (the {size} cards of the Tapp and "
                           "a trick hold at least {more} points): mark that it took none.",
                           points=declarer, size=size, more=size + least))


def _discards(cards, size, contract):
    """Refuse a Tappist's pile that took no trick (the discards, perhaps with the Fool kept back) but holds
    a 5-point card the discard can't: troggu-visp-de.txt, "Es ist nicht erlaubt, 5-Punkte-Karten
    abzulegen; einzige Ausnahme: alle vier Könige können zusammen abgelegt werden"."""
    if contract != "normal" or not size <= len(cards) <= size + 1:
        return  # a smaller pile is warned about; a trick adds at least n − 1 > 1 cards
    barred = [c for c in cards if c in FIVES and c != C.FOOL]
    kings = [c for c in barred if C.rank_of(c) == "K"]
    if len(kings) == 4:
        barred = [c for c in barred if c not in kings]
    if barred:
        raise BadHand(line("A pile of {n} cards took no trick: it is the Tappist's discards, which may hold no 5-point "
                           "card but the four kings together, not {cards}.", n=len(cards), cards=", ".join(barred)),
                      cards=barred)


def _misere(players, hand, rules) -> Result:
    n = len(players)
    for f in ("declarer", "partner", "declarer_points", "declarer_cards", "no_tricks"):
        if hand.get(f) is not None:
            raise BadHand(line("A misère has no “{field}”: each plays for himself; give “misere_points” or “misere_cards”.", field=f))
    explanation, warnings = [], []
    size, most = tapp_range(n, rules)
    if one_of(hand, "misere_points", "misere_cards") == "misere_points":
        given = _per_player(hand["misere_points"], players, "misere_points")
        points = {p: whole_points(given[p], 0, TOTAL, line("{player}'s points", player=p)) for p in players}
    else:
        given = _per_player(hand["misere_cards"], players, "misere_cards")
        piles = {p: _parse(given[p], p) for p in players}
        _no_card_twice(piles, players)
        points = {p: count_pile(GAME, piles[p], rules).points for p in players}
        held = sum(len(pile) for pile in piles.values())
        if held != len(DECK) - size:
            warnings.append(line("The piles hold {held} cards; with {n} players {played} are played and {size} lie in the Tapp.",
                                 held=held, n=n, played=len(DECK) - size, size=size))
        if not any(C.FOOL in pile for pile in piles.values()):
            # docs/rules.md §0.3: with the Fool in the unused Tapp no exchange moves a card, so every trick is n cards
            # and every player's pile a multiple of n
            odd = [p for p in players if len(piles[p]) % n]
            if odd:
                warnings.append(line("With the Fool in the Tapp every trick holds {n} cards, so each pile is a "
                                     "multiple of {n}; {sizes} can't happen.", n=n,
                                     sizes=", ".join(f"{p} {len(piles[p])}" for p in odd)))
        if n in PARTNER_TABLE:
            # troggu-visp-de.txt: at 7 or 8 players a misère is played only when Fool and I are in the Tapp.
            for p in players:
                for card in (C.FOOL, "T1"):
                    if card in piles[p]:
                        raise BadHand(line("At {n} players a misère is played only when the Fool and I are both in the Tapp, but {player}'s pile holds {card}.", n=n, player=p, card=card_name(GAME, card)), cards=[card])
    total = sum(points.values())
    if total > TOTAL:
        raise BadHand(line("The players' points add up to {total}, more than the deck's 114.", total=total))
    for p in players:
        _misere_pile(p, points[p], n)
    # docs/rules.md §0.3, §5: the Tapp is unused, so the piles add up to 114 − the Tapp's points.
    fewest = size
    if n in PARTNER_TABLE:
        # the Fool and I (5 each) lie in the Tapp with size − 2 more cards: 10 + (size − 2) at least, and
        # at most 10 + the richest size − 2 of the others, which is `most` again (they are 5-point cards too)
        fewest = 2 * FOOL_ALONE + size - 2
    if not TOTAL - most <= total <= TOTAL - fewest:
        if "misere_points" in hand:
            # points are trusted but checked (API.md): typed points no deal gives are refused, as every pile game's
            # are; counted cards only warn, since the count may have missed a card the players can still find
            raise BadHand(line("The points add up to {total}; with the {size} Tapp cards left out they must make "
                               "between {low} and {high}: one of them is miscounted.",
                               total=total, size=size, low=TOTAL - most, high=TOTAL - fewest))
        warnings.append(line("The piles add up to {total}; with the {size} Tapp cards left out they should make "
                             "between {low} and {high}.", total=total, size=size, low=TOTAL - most, high=TOTAL - fewest))
    explanation.append(line("Misère: {listing}; the Tapp holds the other {tapp} of 114.",
                            listing=", ".join(f"{p} {points[p]}" for p in players), tapp=TOTAL - total))

    top = max(points.values())
    tied = [p for p in players if points[p] == top]
    rest = [p for p in players if p not in tied]
    scores = dict.fromkeys(players, 0)
    if not rest:
        explanation.append(line("Everyone has {top} points: nobody pays.", top=top))
    elif len(tied) == 1:
        loser = tied[0]
        # troggu-visp-de.txt: "Wer am meisten Punkte gemacht hat, muss jedem Spieler den Grundbetrag bezahlen."
        for p in rest:
            scores[p] = 1
        scores[loser] = -len(rest)
        explanation.append(line("{name} has the most points ({top}) and pays each of the {k} others 1 → {name} −{k}.",
                                name=loser, top=top, k=len(rest)))
    else:
        names = ", ".join(tied)
        tie = rules["misere_tie"]
        if tie == "none":
            explanation.append(line("{names} tie for the most points ({top}): at this table nobody pays.", names=names, top=top))
        elif tie == "each_top_pays":
            for p in rest:
                scores[p] = len(tied)
            for p in tied:
                scores[p] = -len(rest)
            explanation.append(line("{names} tie for the most points ({top}): each pays each of the {k} others 1, "
                                    "so each of them −{k} and the others +{t}.", names=names, top=top, k=len(rest), t=len(tied)))
        else:
            # Reading: the tied players pay together what one top scorer would (1 to each other player),
            # shared in whole units; the units that don't divide evenly fall to the tied players in seating order.
            share, extra = divmod(len(rest), len(tied))
            for p in rest:
                scores[p] = 1
            for i, p in enumerate(tied):
                scores[p] = -(share + (1 if i < extra else 0))
            explanation.append(line("{names} tie for the most points ({top}) and share one payment: 1 to each of the "
                                    "{k} others, {k} units split in whole units in seating order ({split}).",
                                    names=names, top=top, k=len(rest),
                                    split=", ".join(f"{p} {signed(scores[p])}" for p in tied)))
    return Result(points, scores, tuple(explanation), tuple(warnings))


def _misere_pile(player, points, n):
    """Refuse a misère player's points that no pile gives: each plays for himself, so a player holds his
    own tricks of n cards (n − 1 for the last one when the Fool was shown beside it, troggu-en.txt), or,
    with no trick, nothing or the Fool kept back (docs/rules.md §5 bounds)."""
    if n in PARTNER_TABLE:
        # troggu-visp-de.txt: "Nur wenn Bättler und Bagatt im Tapp sind, wird ein Misere gespielt": no Fool
        # in play, so every trick is n cards and a player holds 0 or at least n points
        if 0 < points < n:
            raise BadHand(line("{player} can't have {points} points: at {n} players a misère is played with the Fool "
                               "in the Tapp, so every trick holds {n} cards and a player has 0 or at least {n} points.",
                               player=player, points=points, n=n))
        return
    least = trick_least(n)
    if points < least and points not in NO_TRICK:
        raise BadHand(line("{player} can't have {points} points: without a trick a player holds 0, or the Fool's 5 "
                           "kept back, and with a trick at least {least}.",
                           player=player, points=points, least=least))


def _per_player(value, players, field):
    """Check a {player: ...} object names each player exactly once."""
    if not isinstance(value, dict):
        raise BadRequest(line("“{field}” must be an object with one entry per player.", field=field))
    for name in value:
        seat(name, players, line("player"))
    missing = [p for p in players if p not in value]
    if missing:
        raise BadRequest(line("“{field}” lacks {missing}: give every player's pile.", field=field, missing=', '.join(missing)))
    return value


def _parse(codes, player):
    if not isinstance(codes, list):
        raise BadRequest(line("{player}'s pile must be a list of card codes.", player=player))
    return C.parse_pile(codes, DECK, "Troggu")


def _no_card_twice(piles, players):
    seen, twice = set(), []
    for p in players:
        for card in piles[p]:
            if card in seen and card not in twice:
                twice.append(card)
            seen.add(card)
    if twice:
        raise DuplicateCard(line("{twice} is in two players' piles; each card exists only once.", twice=', '.join(card_name(GAME, c) for c in twice)), cards=twice)


# ---- the rules page: sample piles and a worked example ----

# A Tappist's discards and a few tricks: direct sum (troggu-visp-de.txt "Wert der Karten").
SAMPLES = [["T21", "SW-K", "CU-Q", "BA-C", "CO-J", "T7", "SW-5", "CU-1"]]


def example(game: Game) -> Example:
    """Return the hand the rules page settles, with the page's own arithmetic."""
    # troggu-visp-de.txt: 58 or more wins; the losers pay each winner the base (10 Rappen);
    # under 30 points double, a Match triple; the partner at 7 or 8 players gets 2 bases.
    rules = resolve_rules(game, None)
    players = list(PLAYERS[:5])
    tappist_points = 63
    opponents_points = game.total - tappist_points
    base = game.default_stake
    each = base  # the opponents have 30 or more: single
    payouts = {p: -each for p in players[1:]}
    payouts[players[0]] = each * (len(players) - 1)
    cards = len(game.deck)
    tapps = {**TAPP, 4: rules["tapp_4p"]}
    other_4p = [v for v in game.options["tapp_4p"].choices if v != rules["tapp_4p"]]
    numbers = {"tappist": players[0], "points": tappist_points, "opponents": opponents_points,
               "win": WIN, "half": DRAW, "low": LOW, "base": base,
               "n_opponents": len(players) - 1, "each": each, "gain": payouts[players[0]],
               "table": [(mult, base * mult, 2 * base * mult) for mult in (1, 2, 3)],
               "deal": [(n, (cards - tapp) // n, tapp) for n, tapp in sorted(tapps.items())],
               "deal_4p_other": [((cards - tapp) // 4, tapp) for tapp in other_4p],
               "partner_units": PARTNER_UNITS, "partner_tables": PARTNER_TABLE,
               # 7 players with a partner: 5 opponents pay 1 base each; partner 2, the Tappist the rest.
               "seven": {"opponents": 5, "partner": PARTNER_UNITS * base,
                         "tappist": (5 - PARTNER_UNITS) * base, "each": base},
               "eight_tappist": 6 - PARTNER_UNITS}
    hand = {"contract": "normal", "declarer": players[0], "declarer_points": tappist_points}
    return Example(players, hand, base, payouts, numbers)


# ---- how a hand is entered (engine/entry.py) ----

CONTRACT_WORDS = {"normal": line("Normal"), "solo": line("Solo"), "misere": line("Misère")}
SIDE_WORDS = (("declarer", line("Tappist's side")), ("opponents", line("Opponents")))


def entry(players: list[str], rules: dict, last: dict | None) -> Entry:
    """Declare the Troggu hand form: contract, Tappist, points of either side, Match; or misère piles."""
    declared = [Pick("declarer", line("Tappist or soloist"), seats(players), style="people"),
                Group((Pick("side", line("Points of"), SIDE_WORDS, default="declarer"),
                       Number("points", line("Points"), 0, TOTAL, what=line("points"), style="points")),
                      style="points-row", hint=line("Of 114. Type either side's points: the other side has the rest.")),
                Pick("no_tricks", line("Took no trick (Match)"), SIDE_WORDS, blank=line("Both took tricks"))]
    if len(players) in PARTNER_TABLE:
        # never a default: a forgotten tap would change who wins what
        declared.insert(1, Pick("partner", line("Partner (holder of the called card)"),
                                seats(players) + ((ALONE, line("Alone")),), style="people"))
    return Entry(
        # a misère is rare: the contract never defaults to it, nor to the last hand's
        (Pick("contract", line("Contract"), tuple(CONTRACT_WORDS.items()), default="normal", style="contract"),
         Group(tuple(declared), unless=("contract", "misere")),
         Group((PerSeat((Number("mp", None, 0, TOTAL, what=line("points")),)),),
               line("Each player's card points (the Tapp is not played)"), when=("contract", "misere"),
               style="per-player")),
        counts=(Count("declarer", line("Tappist's side"), "points", {"side": "declarer"}),
                Count("opponents", line("Opponents"), "points", {"side": "opponents"}),
                *(Count(f"mp{i}", p, f"mp{i}", {"contract": "misere"}) for i, p in enumerate(players))))


def to_facts(v: dict, players: list[str], rules: dict) -> dict:
    """Return the hand's facts from the form's values (either side's points give the declarer's)."""
    piles = v.get("piles") or {}
    if v["contract"] == "misere":
        if all(f"mp{i}" in piles for i in range(len(players))):
            # every player's cards tapped: the engine counts them and warns as the API does (a pile that isn't
            # whole tricks); a pile typed is a number, and then all are (the API takes points or cards)
            return {"contract": "misere", "misere_cards": {p: list(piles[f"mp{i}"]) for i, p in enumerate(players)}}
        return {"contract": "misere", "misere_points": v["mp"]}
    if v["declarer"] is None:
        raise EntryError({"declarer": line("Choose the Tappist.") if v["contract"] == "normal"
                          else line("Choose the soloist.")})
    facts = {"contract": v["contract"], "declarer": v["declarer"],
             "declarer_points": v["points"] if v["side"] != "opponents" else TOTAL - v["points"],
             "no_tricks": v["no_tricks"]}
    if "partner" in v:
        if v["contract"] == "normal" and v["partner"] is None:
            raise EntryError({"partner": line("Choose the called card's holder, or Alone.")})
        facts["partner"] = v["partner"] if v["contract"] == "normal" and v["partner"] != ALONE else None
    if "declarer" in piles and v["side"] == "declarer":  # the Tappist's side's cards tapped: the engine counts them
        del facts["declarer_points"]
        facts["declarer_cards"] = list(piles["declarer"])
    return facts


def from_facts(facts: dict, players: list[str], rules: dict) -> dict:
    """Return the form's values for a stored hand."""
    if facts["contract"] == "misere":
        cards = facts.get("misere_cards")
        if isinstance(cards, dict):  # entered with the cards: their counts, and the cards kept
            return {"contract": "misere", "mp": {p: pile_of(GAME, cards[p], rules).points for p in cards},
                    "piles": {f"mp{i}": cards[p] for i, p in enumerate(players) if p in cards}}
        return {"contract": "misere", "mp": facts.get("misere_points") or {}}
    if isinstance(facts.get("declarer_cards"), list):
        counted = {k: v for k, v in facts.items() if k != "declarer_cards"}
        counted["declarer_points"] = pile_of(GAME, facts["declarer_cards"], rules).points
        return {**from_facts(counted, players, rules), "piles": {"declarer": facts["declarer_cards"]}}
    return {"contract": facts["contract"], "declarer": facts.get("declarer"), "partner": facts.get("partner") or ALONE,
            "side": "declarer", "points": facts.get("declarer_points"), "no_tricks": facts.get("no_tricks")}


def summary(f: dict):
    """Say a hand in a few words: "Anna: Normal, 63 points with Beat · Match", or "Misère"."""
    if f.get("contract") == "misere":
        return line("Misère")
    points = f.get("declarer_points")
    if points is None and isinstance(f.get("declarer_cards"), list):
        try:
            points = pile_of(GAME, f["declarer_cards"], resolve_rules(GAME, {})).points
        except ScoreError:
            pass  # a stored pile gone wrong: the row says so (its error), the summary what it can
    text = line("{player}: {contract}, {points} points", player=f.get("declarer"),
                contract=CONTRACT_WORDS.get(f.get("contract"), f.get("contract")), points=points)
    if f.get("partner") and f.get("partner") != f.get("declarer"):
        text = line("{hand} with {partner}", hand=text, partner=f["partner"])
    if f.get("no_tricks"):
        text = line("{hand} · Match", hand=text)
    return text


GAME = Game(
    id="troggu", name=N_("Troggu"), min_players=3, max_players=8, deck=DECK, counting=Counting.SUM,
    values=values, total=TOTAL, options=OPTIONS, two_sided=True, default_stake=10, unit="Rappen",
    score=score, entry=entry, to_facts=to_facts, from_facts=from_facts, summary=summary, naming=NAMING,
    stake_label=N_("Base stake"), unit_label=N_("Stake units"),  # the scoreboard counts units of the base stake
    stake_hint=N_("Each loser pays each winner the base stake (10 Rappen on the Visp sheet); doubled under 30 "
                  "points, tripled for a Match, doubled again for a solo."),
    shown_players=5, samples=SAMPLES, example=example,
    rename=lambda f, old, new: renamed(f, old, new, names=("declarer", "partner"), keyed=("misere_points", "misere_cards")),
    declarer=lambda f: f.get("declarer") if f.get("contract") != "misere" else None,
    contract=lambda f: CONTRACT_WORDS.get(f.get("contract")),
    taken_on=line("a Tapp or a solo"),
    currency="CHF",
)
