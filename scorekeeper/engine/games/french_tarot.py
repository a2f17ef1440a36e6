"""French Tarot (FFT): 78 cards in halves, 91 points, contracts and bonuses (docs/rules.md §6)."""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product

import math

from .. import cards as C
from ..errors import BadHand, BadRequest, ScoreError
from ..naming import Naming
from ..text import N_, fmt_points, line, nline, signed
from ..game import Counting, PLAYERS, Example, Game, Option, Result, check_players, hand_fields, one_of, pile_of, renamed, resolve_rules, seat
from ..entry import ALONE, Count, Entry, Group, Number, PerSeat, Pick, Ticks, seats

DECK = C.DECK_78
OUDLERS = frozenset({"T1", "T21", C.FOOL})
TOTAL = 91
THRESHOLDS = {0: 56, 1: 51, 2: 41, 3: 36}  # points the taker needs, by oudlers held
CHIEN = {3: 6, 4: 6, 5: 3}  # docs/rules.md §6 deal table
TRICKS = {n: (len(C.DECK_78) - chien) // n for n, chien in CHIEN.items()}  # 24, 18, 15: one per card in a hand
BASE = 25  # french-tarot-wikipedia.txt: "starts with a basic score of 25 points"
PETIT_AU_BOUT = 10  # "10 points is added to or deducted from the hand score before multiplying"
CONTRACTS = {"prise": "Prise", "garde": "Garde", "garde_sans": "Garde sans", "garde_contre": "Garde contre"}
MULTIPLIERS = {"prise": 1, "garde": 2, "garde_sans": 4}  # garde_contre: the house rule (6 or 8)
POIGNEES = ("single", "double", "triple")
POIGNEE_TRUMPS = {3: (13, 15, 18), 4: (10, 13, 15)}  # 5 players: the house rule poignee_thresholds_5p
TRUMPS_IN_DECK = 22  # 21 trumps and the Excuse, which may stand in for one
# Chelem, not multiplied (french-tarot-wikipedia.txt; docs/rules.md §6), from the taker's side.
CHELEM = {"announced_made": 400, "unannounced_made": 200, "announced_failed": -200}
CHELEM_WORDS = ("announced_made", "unannounced_made", "announced_failed", "defence_made")
MISERE_GAIN, MISERE_LOSS = 30, 10  # french-tarot-wikipedia.txt: "gives the declarer 30 points and subtracts 10"
FIELDS = ("taker", "contract", "partner", "points", "oudlers", "cards", "petit_au_bout", "poignees", "chelem", "misere")

# french-tarot-wikipedia.txt: "Excuse R D C V 10–1", le Petit, the 21; the French suits.
NAMING = Naming(
    fool="Excuse",
    trumps={1: "Petit", 21: "21"},
    suits={"SW": "Pique", "BA": "Trèfle", "CU": "Cœur", "CO": "Carreau"},
    suit_marks={"SW": "♠", "BA": "♣", "CU": "♥", "CO": "♦"},
    courts={"K": "R", "Q": "D", "C": "C", "J": "V"},
    roman=False,
    round_ace_high=False,
    legend=line("R king (roi), D queen (dame), C knight (cavalier), V jack (valet)."),
    honours=line("Bouts ({names})"),  # french-tarot-wikipedia.txt: the oudlers, bouts in French
)

OPTIONS = {
    "poignee_bonus": Option([20, 30, 40], N_("Poignée bonus for single, double, triple: FFT 20/30/40; the Wikipedia text 20/40/60."),
                            title=N_("Poignée bonus")),
    "poignee_thresholds_5p": Option([8, 10, 13], N_("Trumps needed for a single, double, triple poignée at 5 players."),
                                    title=N_("Poignée at 5 players")),
    "garde_contre_multiplier": Option(6, "Garde contre multiplies by 6 (FFT) or 8.", (6, 8), title=N_("Garde contre")),
    # docs/rules.md §6: outside a slam the Excuse led to the last trick changes side (FFT rulebook, le-tarot.fr,
    # regles2jeux, club pages); "goes to the trick's winner" is a house rule. Tables opened before this default
    # changed were opened with "trick_winner" and keep it (`was`; migration 0010), so their totals never move.
    "excuse_last_trick": Option("changes_side", "The Excuse led to the last trick changes side (FFT), or goes to the "
                                "trick's winner.", ("changes_side", "trick_winner"), title=N_("Excuse in the last trick"),
                                words={"trick_winner": N_("it goes to the trick's winner"),
                                       "changes_side": N_("it changes side")}, was="trick_winner"),
    "defence_chelem_bonus": Option(200, "Bonus to the defence when it takes every trick (0 to turn it off).", (200, 0),
                                   title=N_("Defence chelem")),
    "misere": Option(False, "Misère declaration (a hand with no trumps and no court cards): +30 to the declarer, −10 to each other player.",
                     title=N_("Misère")),
    "round_to_10": Option(False, "Round each hand's scores to the nearest 10, keeping the total at zero.",
                          title=N_("Round to 10")),
    "prise_allowed": Option(True, "Prise (×1) may be bid; some tables start at Garde.", title=N_("Prise allowed")),
    "half_points": Option("fft", "Half points: FFT counts the margin up, in favour of the side that scores; "
                                 "or round the taker's points down or up before comparing.", ("fft", "down", "up"),
                          title=N_("Half points"),
                          words={"fft": N_("FFT: the margin rounded up for the side that scores"),
                                 "down": N_("the taker's points rounded down"),
                                 "up": N_("the taker's points rounded up")}),
}


def values(rules):
    """Return French Tarot's values: oudlers and kings 4.5, queens 3.5, knights 2.5, jacks 1.5, else 0.5."""
    out = {}
    for card in DECK:
        rank = C.rank_of(card)
        whole = 5 if card in OUDLERS else C.COURT_VALUES.get(rank or "", 1)
        out[card] = Fraction(2 * whole - 1, 2)
    return out


def pile_adjust(cards, rules):
    """Count the Excuse 4 for a side that kept it without taking a trick, the half point to the other side.

    docs/rules.md §6 (FFT rulebook R-RO201206, p. 9, example 5): in a slam against the Excuse's side "the attack
    counts 87 with 2 oudlers, not 86½", "however the hand is entered": the 77 other cards count 87, the Excuse
    alone 4.
    """
    if len(cards) == len(DECK) - 1 and C.FOOL not in cards:
        return Fraction(1, 2), line("the other side kept its Excuse without a trick, so its half point is this side's")
    if list(cards) == [C.FOOL]:
        return Fraction(-1, 2), line("the Excuse kept without a trick counts 4, its half point going to the other side")
    return None


def pile_warnings(cards, rules):
    """No pile size is impossible at every table size; half points are normal at 3 and 5 players."""
    return []


def num(n) -> str:
    """Write a number with a true minus sign when negative: 26, −26."""
    return f"−{fmt_points(-n)}" if n < 0 else fmt_points(n)


def score(players: list[str], hand: dict, rules: dict) -> Result:
    """Score and settle one French Tarot hand in points (FFT formula, docs/rules.md §6)."""
    players = check_players(GAME, players)
    n = len(players)
    hand = hand_fields(hand, required=("taker", "contract"), optional=FIELDS)
    taker = seat(hand["taker"], players, line("taker"))
    contract = _contract(hand["contract"], rules)
    partner = _partner(hand.get("partner"), players, taker)
    points, oudlers, explanation, pile = _attack(hand, rules)
    pab = _side(hand.get("petit_au_bout"), "petit_au_bout")
    chelem = _chelem(hand.get("chelem"))
    poignees = _poignees(hand.get("poignees"), players, rules)
    miseres = _miseres(hand.get("misere"), players, rules)
    defence = TOTAL - points

    # Facts that can't be true together.
    if pab == "attack" and oudlers == 0:
        raise BadHand(line("The attack took the Petit au bout, so its pile holds the Petit: it can't have 0 oudlers."))
    if pab == "defence" and oudlers == 3:
        raise BadHand(line("The defence took the Petit au bout, so the attack can't hold all 3 oudlers."))

    threshold = THRESHOLDS[oudlers]
    compared = points
    if rules["half_points"] == "down":
        compared = Fraction(math.floor(points))
    elif rules["half_points"] == "up":
        compared = Fraction(math.ceil(points))
    made = compared >= threshold  # exactly on the threshold is made
    diff = abs(compared - threshold)
    margin = math.ceil(diff)  # FFT: 40.5 against 41 loses by 1, 41.5 wins by 1
    if chelem in ("announced_made", "unannounced_made") and not made:
        raise BadHand(line("The attack took every trick, so it can't have lost the contract."))
    if chelem == "defence_made" and made:
        raise BadHand(line("The defence took every trick, so the taker can't have made the contract."))
    if chelem in ("announced_made", "unannounced_made") and pab == "defence":
        raise BadHand(line("The attack took every trick, so the defence can't have taken the Petit au bout."))
    if chelem == "defence_made" and pab == "attack":
        raise BadHand(line("The defence took every trick, so the attack can't have taken the Petit au bout."))
    warnings = []
    if pile is not None:
        _ecart_alone(hand["cards"], pile, n, contract)
    _real_cards(points, oudlers, n, contract, chelem, pab, partner, rules, warnings)

    explanation.append(nline("Attack {points} points with {oudlers} oudler, defence {defence}: the taker needs {threshold}.",
                             "Attack {points} points with {oudlers} oudlers, defence {defence}: the taker needs {threshold}.",
                             "oudlers", points=points, oudlers=oudlers, defence=defence, threshold=threshold))
    if compared != points:
        explanation.append(line("At this table the taker's {points} count as {compared}.", points=points, compared=compared))
    if made:
        explanation.append(line("{points} ≥ {threshold}: made by {diff}.", points=compared, threshold=threshold, diff=diff))
    else:
        explanation.append(line("{points} < {threshold}: lost by {diff}.", points=compared, threshold=threshold, diff=diff))
    if margin != diff:
        explanation.append(line("Half points count for the side that scores: {diff} counts as {margin}.", diff=diff, margin=margin))
    sign = 1 if made else -1
    value = sign * (BASE + margin)
    if made:
        explanation.append(line("Contract: 25 + {margin} = {value}.", margin=margin, value=value))
    else:
        explanation.append(line("Contract lost: −(25 + {margin}) = {value}.", margin=margin, value=num(value)))
    # Petit au bout goes to the side that took it, whatever the contract (docs/rules.md §6).
    if pab == "attack":
        explanation.append(line("Petit au bout to the attack: {before} + 10 = {after}.", before=num(value), after=num(value + PETIT_AU_BOUT)))
        value += PETIT_AU_BOUT
    elif pab == "defence":
        explanation.append(line("Petit au bout to the defence: {before} − 10 = {after}.", before=num(value), after=num(value - PETIT_AU_BOUT)))
        value -= PETIT_AU_BOUT
    times = rules["garde_contre_multiplier"] if contract == "garde_contre" else MULTIPLIERS[contract]
    explanation.append(line("{contract} × {times}: {before} × {times} = {after}.",
                            contract=CONTRACTS[contract], times=times, before=num(value), after=num(value * times)))
    value *= times

    # Poignées: not multiplied, to the side that wins the deal, whoever showed them (docs/rules.md §6).
    for who, size, bonus in poignees:
        explanation.append(_poignee_line(size, made, name=who, bonus=bonus, before=num(value),
                                         after=num(value + sign * bonus)))
        value += sign * bonus
    if chelem is not None:
        bonus = -rules["defence_chelem_bonus"] if chelem == "defence_made" else CHELEM[chelem]
        value = _chelem_line(explanation, chelem, value, bonus)

    scores = _settle(players, taker, partner, value, explanation)
    if pile is not None:
        _pile_size(pile, points, n, contract, warnings)
    if miseres:
        _misere_bonuses(players, miseres, scores, explanation, warnings)
    if rules["round_to_10"]:
        _round(players, taker, scores, explanation)
    return Result({"attack": points, "defence": defence}, scores, tuple(explanation), tuple(warnings))


def _contract(value, rules) -> str:
    if not isinstance(value, str):
        raise BadRequest(line("“contract” must be prise, garde, garde_sans or garde_contre."))
    if value not in CONTRACTS:
        raise BadHand(line("“{value}” is not a French Tarot contract: prise, garde, garde_sans or garde_contre.", value=value))
    if value == "prise" and not rules["prise_allowed"]:
        raise BadHand(line("This table plays without Prise: the lowest contract is Garde."))
    return value


def _partner(value, players, taker):
    """Return the called king's holder, or None when the taker plays alone (5 players only)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadRequest(line("“partner” must be a player's name or null."))
    if len(players) != 5:
        raise BadHand(line("A partner is called only at 5 players, not at {n_players}.", n_players=len(players)))
    partner = seat(value, players, line("partner"))
    # french-tarot-wikipedia.txt: calling his own king, "he has technically called himself".
    return None if partner == taker else partner


def _attack(hand, rules):
    """Return the attack's points (a Fraction), its oudlers, and the counting lines."""
    if one_of(hand, "points", "cards") == "cards":
        if hand.get("oudlers") is not None:
            raise BadRequest(line("Give “oudlers” only with “points”: with “cards” they are counted from the cards."))
        count = pile_of(GAME, hand["cards"], rules)
        return count.points, count.oudlers, [line("The attack's cards: {working}.", working=count.working)], count.cards
    raw = hand["points"]
    if isinstance(raw, bool) or not isinstance(raw, (int, float, Fraction)) or (
            isinstance(raw, float) and not math.isfinite(raw)):
        raise BadRequest(line("“points” must be a number such as 48 or 40.5."))
    points = Fraction(raw)
    if points.denominator not in (1, 2):
        raise BadHand(line("French Tarot counts in half points: {raw} is not a whole or half number.", raw=raw))
    if not 0 <= points <= TOTAL:
        raise BadHand(line("The attack's points must be between 0 and 91, not {points}.", points=points))
    if "oudlers" not in hand or hand["oudlers"] is None:
        raise BadRequest(line("With “points”, give “oudlers” too: how many oudlers the attack holds (0 to 3)."))
    oudlers = hand["oudlers"]
    if type(oudlers) is not int:
        raise BadRequest(line("“oudlers” must be a whole number, 0 to 3."))
    if not 0 <= oudlers <= 3:
        raise BadHand(line("There are only 3 oudlers (the Petit, the 21 and the Excuse), not {oudlers}.", oudlers=oudlers))
    return points, oudlers, [], None


def _side(value, field):
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadRequest(line("“{field}” must be null, “attack” or “defence”.", field=field))
    if value not in ("attack", "defence"):
        raise BadHand(line("“{value}” is not a side: “{field}” is null, “attack” or “defence”.", value=value, field=field))
    return value


def _chelem(value):
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadRequest(line("“chelem” must be null or one of {chelems}.", chelems=", ".join(CHELEM_WORDS)))
    if value not in CHELEM_WORDS:
        raise BadHand(line("“{value}” is not a chelem: {chelems}.", value=value, chelems=", ".join(CHELEM_WORDS)))
    return value


def poignee_trumps(n_players: int, rules: dict) -> tuple[int, int, int]:
    """Return the trumps a single, double and triple poignée need at this table size."""
    return tuple(rules["poignee_thresholds_5p"]) if n_players == 5 else POIGNEE_TRUMPS[n_players]


def rule_problems(rules: dict) -> dict:
    """Refuse 5-player poignée thresholds no hand can show: each player holds 15 cards there (docs/rules.md §6's
    deal table: (78 − 3) / 5), so a poignée needs 1 to 15 trumps (the Excuse may stand in for one), and a double
    needs more than a single, a triple more than a double (the FFT's 8, 10, 13)."""
    single, double, triple = rules["poignee_thresholds_5p"]
    held = TRICKS[5]
    if not 1 <= single < double < triple <= held:
        return {"poignee_thresholds_5p": line(
            "At 5 players each player holds {held} cards, so a poignée needs 1 to {held} trumps, the double more than "
            "the single and the triple more than the double (such as 8, 10, 13).", held=held)}
    return {}


def _poignees(value, players, rules):
    """Return [(player, size, bonus)] for the poignées shown, checking they could all be shown."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise BadRequest(line("“poignees” must be a list like [{{\"player\": \"Anna\", \"size\": \"single\"}}]."))
    out, shown = [], []
    need = poignee_trumps(len(players), rules)
    for item in value:
        if not isinstance(item, dict) or set(item) != {"player", "size"}:
            raise BadRequest(line("Each poignée is an object with exactly “player” and “size”."))
        who = seat(item["player"], players, line("player who showed a poignée"))
        size = item["size"]
        if not isinstance(size, str):
            raise BadRequest(line("A poignée's “size” must be single, double or triple."))
        if size not in POIGNEES:
            raise BadHand(line("“{size}” is not a poignée: single, double or triple.", size=size))
        if who in shown:
            raise BadHand(line("{player} shows a poignée only once per deal.", player=who))
        shown.append(who)
        i = POIGNEES.index(size)
        out.append((who, size, rules["poignee_bonus"][i]))
    # Each poignée shows its trumps (the Excuse may stand in for one): together no more than the deck's 22.
    trumps = sum(need[POIGNEES.index(size)] for _, size, _ in out)
    if trumps > TRUMPS_IN_DECK:
        raise BadHand(line("These poignées show {trumps} trumps between them; the deck has 21 and the Excuse.", trumps=trumps))
    return out


def _miseres(value, players, rules):
    """Return the players who declared misère (a house rule)."""
    if value is None or value == []:
        return []
    if not isinstance(value, list):
        raise BadRequest(line("“misere” must be a list of the players who declared misère."))
    if not rules["misere"]:
        raise BadHand(line("This table doesn't play misère: turn on the house rule “Misère” first."))
    names = [seat(p, players, line("player who declared misère")) for p in value]
    if len(set(names)) != len(names):
        raise BadHand(line("A player declares misère only once per deal."))
    return names


def _pile_size(cards, points, n, contract, warnings):
    """Warn when the attack's pile can't be tricks of n plus the chien (the Excuse exchange keeps sizes)."""
    chien = 0 if contract == "garde_contre" else CHIEN[n]  # garde contre: the chien goes to the defence
    if (cards, points) in ((1, 4), (len(DECK) - 1, TOTAL - 4)):
        # docs/rules.md §6: a side that took no trick keeps its Excuse, unexchanged: the Excuse alone (4), or every
        # other card (87), is a possible pile and gets no warning
        return
    if cards < chien or (cards - chien) % n:
        warnings.append(line("The attack's pile should be tricks of {n} cards plus the {chien} of the chien; "
                             "{cards} cards can't happen (unless the Excuse went unpaid).", n=n, chien=chien, cards=cards))


# ---- what real cards allow (docs/rules.md §6, "Bounds from real cards") ----
#
# Every card is worth ½ and more: an oudler 4 more, a king 4, a queen 3, a knight 2, a jack 1
# (docs/rules.md §0.2: 4½, 3½, 2½, 1½). The attack's pile is the chien (or écart) of CHIEN[n] cards,
# except in a garde contre, plus n cards for each trick it took; the Excuse exchange keeps those sizes
# (its owner gives a ½-point card for it), so with N cards, o oudlers and its court cards a side holds
#     N × ½ + 4 × o + (4 a king, 3 a queen, 2 a knight, 1 a jack in its pile)
# and the Excuse is worth 4 to a side that keeps it without a trick to pay from, the other side taking
# the half point (FFT rulebook R-RO201206, p. 9, example 5: a slam against a lone Excuse counts 87).
# french-tarot-wikipedia.txt: the écart holds no king and no oudler; in a garde sans the unseen chien
# holds anything, and in a garde contre it is the defence's. The Petit au bout lies in a trick of the
# side that took it. Where the oudlers lie: "at"/"dt" in the attack's or defence's tricks, "ac"/"dc"
# in the chien of a garde sans or garde contre; the Excuse also "ao"/"do", kept by the attack or the
# defence outside its tricks (exchanged, or unpaid), or "a+"/"d+": played to the last trick and
# changed sides without exchange (house rule excuse_last_trick "changes_side").
PETIT_PLACES = ("at", "ac", "dt", "dc")
EXCUSE_PLACES = PETIT_PLACES + ("ao", "do", "a+", "d+")
COURTS = (4, 3, 2, 1)  # what a king, queen, knight, jack is worth over a ½-point card; 4 of each


def _court_sets() -> tuple:
    """For each number of kings (0-4) and of courts in all (0-16) the attack holds, the court points it can hold
    then, as a bit set: the 625 ways to hold 0-4 of each court, worked out once."""
    sets = [[0] * 17 for _kings in range(5)]
    for counts in product(range(5), repeat=4):
        sets[counts[0]][sum(counts)] |= 1 << sum(c * v for c, v in zip(counts, COURTS))
    return tuple(tuple(row) for row in sets)


COURT_SETS = _court_sets()


@lru_cache(maxsize=None)
def _courts(king_room: int, attack_room: int, defence_room: int) -> int:
    """Return the court points the attack can hold, as a bit set (bit u: u points over its cards' ½ each).

    Kings only in the first `king_room` places (not the écart); at most `attack_room` courts in the
    attack's pile, and the others must fit the defence's `defence_room` free places.
    """
    found = 0
    if min(king_room, attack_room, defence_room) < 0:
        return found
    for kings in range(min(king_room, 4) + 1):
        for taken in range(max(0, 16 - defence_room), min(attack_room, 16) + 1):
            found |= COURT_SETS[kings][taken]
    return found


@lru_cache(maxsize=None)
def _possible(n: int, contract: str, oudlers: int, pab, partner: bool, readings: frozenset) -> tuple[int, ...]:
    """Return, for each number of tricks the attack took (0 to all), the points it can hold, as bit sets of
    half points. `readings` adds "changes_side" (the Excuse on the last trick changes sides) and "unpaid"
    (an Excuse its side could not pay for counts 4½, not the FFT's 4)."""
    chien, tricks = CHIEN[n], TRICKS[n]
    a_chien = 0 if contract == "garde_contre" else chien
    d_chien = chien - a_chien
    out = []
    for k in range(tricks + 1):
        found = 0
        for places in product(PETIT_PLACES, PETIT_PLACES, EXCUSE_PLACES):
            petit, world, excuse = places
            if pab == "attack" and petit != "at" or pab == "defence" and petit != "dt":
                continue  # the Petit au bout is in the last trick, its taker's
            if "ac" in places and contract != "garde_sans" or "dc" in places and contract != "garde_contre":
                continue  # only an unseen chien may hold an oudler: never the écart
            if excuse in ("a+", "d+") and "changes_side" not in readings:
                continue
            attack_needs = "at" in places or excuse == "do" or excuse == "d+"  # took a trick for it
            defence_needs = "dt" in places or excuse in ("ao", "a+")
            if attack_needs and k == 0 or defence_needs and k == tricks or excuse == "d+" and not partner:
                continue  # "d+": the Excuse's owner's partner took the last trick, so the attack has two players
            if sum(1 for p in places if p in ("at", "ac", "ao", "a+")) != oudlers:
                continue
            shift = {"a+": 1, "d+": -1}.get(excuse, 0)
            a_tricks, d_tricks = k * n + shift, (tricks - k) * n - shift
            in_at = sum(1 for p in places if p in ("at", "a+"))
            in_dt = sum(1 for p in places if p in ("dt", "d+"))
            in_ac, in_dc = places.count("ac"), places.count("dc")
            if in_at > a_tricks or in_dt > d_tricks or in_ac > a_chien or in_dc > d_chien:
                continue
            sums = _courts(a_tricks - in_at + (a_chien - in_ac if contract == "garde_sans" else 0),
                           a_tricks + a_chien - in_at - in_ac, d_tricks + d_chien - in_dt - in_dc)
            half = a_tricks + a_chien + 8 * oudlers  # the attack's cards at ½ each, its oudlers at 4 more
            courts = 0
            for u in range(41):
                if sums >> u & 1:
                    courts |= 1 << 2 * u
            found |= courts << half
            if "unpaid" in readings and excuse == "ao" and k == 0:
                found |= courts << half + 1  # the attack's unpaid Excuse counted 4½
            if "unpaid" in readings and excuse == "do" and k == tricks:
                found |= courts << half - 1  # the defence's unpaid Excuse counted 4½
        out.append(found)
    return tuple(out)


def _span(sets) -> tuple | None:
    """Return the lowest and highest points in bit sets of half points, or None if there are none."""
    found = 0
    for s in sets:
        found |= s
    if not found:
        return None
    return Fraction((found & -found).bit_length() - 1, 2), Fraction(found.bit_length() - 1, 2)


def _real_cards(points, oudlers, n, contract, chelem, pab, partner, rules, warnings):
    """Refuse points and oudlers that no deal gives this contract, or warn where a house rule would."""
    tricks = TRICKS[n]
    if chelem in ("announced_made", "unannounced_made"):
        ks = range(tricks, tricks + 1)  # the attack took every trick
    elif chelem == "defence_made":
        ks = range(0, 1)
    elif chelem == "announced_failed" or rules["defence_chelem_bonus"] == 0:
        ks = range(0, tricks)  # a defence slam is possible too, and is no bonus at this table
    else:
        ks = range(1, tricks)  # each side took a trick: a slam would be recorded
    half = int(points * 2)
    table = frozenset({"changes_side"} if rules["excuse_last_trick"] == "changes_side" else ())
    partner = partner is not None

    def fits(readings, where=ks):
        sets = _possible(n, contract, oudlers, pab, partner, readings)
        return any(sets[k] >> half & 1 for k in where)

    if fits(table):
        return
    for more in ({"changes_side"}, {"unpaid"}, {"changes_side", "unpaid"}):
        if not more - table or not fits(table | more):
            continue
        if "changes_side" in more - table:
            # the rule in its Option's words, as the rules page and the table form say it, not its keys
            warnings.append(nline("{points} points with {oudlers} oudler happen only if the Excuse played to the last "
                                  "trick changed sides (house rule “Excuse in the last trick”: “it changes side”); "
                                  "at this table it goes to the trick's winner.",
                                  "{points} points with {oudlers} oudlers happen only if the Excuse played to the last "
                                  "trick changed sides (house rule “Excuse in the last trick”: “it changes side”); "
                                  "at this table it goes to the trick's winner.", "oudlers", points=points, oudlers=oudlers))
        if "unpaid" in more:
            warnings.append(nline("{points} points with {oudlers} oudler happen only if an Excuse whose side took no "
                                  "trick counts 4.5; the FFT counts it 4 and gives the half point to the other side.",
                                  "{points} points with {oudlers} oudlers happen only if an Excuse whose side took no "
                                  "trick counts 4.5; the FFT counts it 4 and gives the half point to the other side.",
                                  "oudlers", points=points, oudlers=oudlers))
        return
    every = frozenset({"changes_side", "unpaid"})
    args = dict(points=points, oudlers=oudlers)
    if tricks not in ks and fits(every, (tricks,)):
        if chelem == "announced_failed":
            raise BadHand(nline("{points} points with {oudlers} oudler leave the defence no trick: the attack took "
                                "every trick, so the announced chelem was made.",
                                "{points} points with {oudlers} oudlers leave the defence no trick: the attack took "
                                "every trick, so the announced chelem was made.", "oudlers", **args))
        raise BadHand(nline("{points} points with {oudlers} oudler leave the defence no trick: the attack took every "
                            "trick, so record its chelem.",
                            "{points} points with {oudlers} oudlers leave the defence no trick: the attack took every "
                            "trick, so record its chelem.", "oudlers", **args))
    if 0 not in ks and fits(every, (0,)):
        raise BadHand(nline("With {points} points and {oudlers} oudler the attack took no trick: the defence took "
                            "every trick, so record its chelem.",
                            "With {points} points and {oudlers} oudlers the attack took no trick: the defence took "
                            "every trick, so record its chelem.", "oudlers", **args))
    span = _span(_possible(n, contract, oudlers, pab, partner, table)[k] for k in ks)
    if chelem in ("announced_made", "unannounced_made"):
        if span is None:
            # every oudler is in its tricks but an Excuse the defence kept (in a garde contre the chien
            # can hold any, so there is always a count that fits)
            raise BadHand(line("The attack took every trick, so it holds every oudler but perhaps the defence's "
                               "Excuse: at least 2, not {oudlers}.", **args))
        if span[0] == span[1]:
            raise BadHand(nline("The attack took every trick, so with {oudlers} oudler it has {low} points, not "
                                "{points}.",
                                "The attack took every trick, so with {oudlers} oudlers it has {low} points, not "
                                "{points}.", "oudlers", low=span[0], **args))
        raise BadHand(nline("The attack took every trick, so with {oudlers} oudler it has between {low} and {high} "
                            "points, not {points}.",
                            "The attack took every trick, so with {oudlers} oudlers it has between {low} and {high} "
                            "points, not {points}.", "oudlers", low=span[0], high=span[1], **args))
    if chelem == "defence_made":
        if span is None:
            # only its own Excuse, outside a garde sans, whose unseen chien can hold all three
            raise BadHand(line("The defence took every trick, so the attack's only oudler can be its own Excuse: "
                               "not {oudlers}.", **args))
        if span[0] == span[1]:
            raise BadHand(nline("The defence took every trick, so with {oudlers} oudler the attack has {low} points, "
                                "not {points}.",
                                "The defence took every trick, so with {oudlers} oudlers the attack has {low} points, "
                                "not {points}.", "oudlers", low=span[0], **args))
        raise BadHand(nline("The defence took every trick, so with {oudlers} oudler the attack has between {low} and "
                            "{high} points, not {points}.",
                            "The defence took every trick, so with {oudlers} oudlers the attack has between {low} and "
                            "{high} points, not {points}.", "oudlers", low=span[0], high=span[1], **args))
    words = dict(contract=CONTRACT_WORDS[contract], n=n, low=span[0], high=span[1], **args)
    if contract == "garde_contre":
        raise BadHand(nline("{points} points can't go with {oudlers} oudler: in a {contract} at {n} players the chien "
                            "is the defence's, and with the tricks it took the attack has between {low} and {high} "
                            "points with {oudlers} oudler.",
                            "{points} points can't go with {oudlers} oudlers: in a {contract} at {n} players the chien "
                            "is the defence's, and with the tricks it took the attack has between {low} and {high} "
                            "points with {oudlers} oudlers.", "oudlers", **words))
    raise BadHand(nline("{points} points can't go with {oudlers} oudler: in a {contract} at {n} players the {chien} "
                        "cards of the chien count for the taker, and with the tricks it took the attack has between "
                        "{low} and {high} points with {oudlers} oudler.",
                        "{points} points can't go with {oudlers} oudlers: in a {contract} at {n} players the {chien} "
                        "cards of the chien count for the taker, and with the tricks it took the attack has between "
                        "{low} and {high} points with {oudlers} oudlers.", "oudlers", chien=CHIEN[n], **words))


def _ecart_alone(codes, size, n, contract):
    """Refuse a prise or garde pile that can only be the écart (no trick) but holds a king or an oudler."""
    if contract not in ("prise", "garde") or size > CHIEN[n] + 1:
        return  # a trick adds n cards: fewer than the écart and one more is no trick at all
    barred = [c for c in C.parse_pile(codes, DECK, GAME.name)
              if c in ("T1", "T21") or C.rank_of(c) == "K"]  # the taker's own Excuse may lie beside it
    if barred:
        raise BadHand(line("A pile of {size} cards took no trick: it is the taker's écart, which may hold no king and "
                           "no oudler, not {cards}.", size=size, cards=", ".join(barred)), cards=barred)


def _poignee_line(size, made, **args):
    """Say where a poignée's bonus goes (literal sentences, so that each is translatable)."""
    if size == "single" and made:
        return line("Single poignée shown by {name}: {bonus} to the attack, which won: {before} + {bonus} = {after}.", **args)
    if size == "single":
        return line("Single poignée shown by {name}: {bonus} to the defence, which won: {before} − {bonus} = {after}.", **args)
    if size == "double" and made:
        return line("Double poignée shown by {name}: {bonus} to the attack, which won: {before} + {bonus} = {after}.", **args)
    if size == "double":
        return line("Double poignée shown by {name}: {bonus} to the defence, which won: {before} − {bonus} = {after}.", **args)
    if made:
        return line("Triple poignée shown by {name}: {bonus} to the attack, which won: {before} + {bonus} = {after}.", **args)
    return line("Triple poignée shown by {name}: {bonus} to the defence, which won: {before} − {bonus} = {after}.", **args)


def _chelem_line(explanation, chelem, value, bonus):
    after = value + bonus
    if chelem == "announced_made":
        explanation.append(line("Chelem announced and made: {before} + 400 = {after}.", before=num(value), after=num(after)))
    elif chelem == "unannounced_made":
        explanation.append(line("Chelem made without announcing it: {before} + 200 = {after}.", before=num(value), after=num(after)))
    elif chelem == "announced_failed":
        explanation.append(line("Chelem announced and failed: {before} − 200 = {after}.", before=num(value), after=num(after)))
    elif bonus:
        explanation.append(line("Chelem by the defence: {before} − {bonus} = {after}.", before=num(value), bonus=-bonus, after=num(after)))
    else:
        explanation.append(line("Chelem by the defence: no bonus at this table."))
    return after


def _settle(players, taker, partner, value, explanation) -> dict[str, int]:
    """Share the hand score: each defender pays it, the taker (and partner) take the rest."""
    n = len(players)
    scores = {p: -value for p in players}
    defenders = n - 1 - (1 if partner else 0)
    if partner:
        # docs/rules.md §6, bric-a-brac: "2/3 pour le preneur et 1/3 pour l'appelé".
        scores[partner] = value
        scores[taker] = 2 * value
        explanation.append(line("Each of {k} defenders {each}; partner {partner} {p_score}; taker {name} {t_score} (2 × {value}).",
                                k=defenders, each=signed(-value), partner=partner, p_score=signed(value),
                                name=taker, t_score=signed(2 * value), value=abs(value)))
    else:
        scores[taker] = defenders * value
        explanation.append(line("Each of {k} defenders {each}; taker {name} {t_score} ({k} × {value}).",
                                k=defenders, each=signed(-value), name=taker, t_score=signed(defenders * value), value=abs(value)))
    return scores


def _misere_bonuses(players, miseres, scores, explanation, warnings):
    """Add the misère house rule: +30 to the declarer, −10 to each other player."""
    for who in miseres:
        for p in players:
            scores[p] += MISERE_GAIN if p == who else -MISERE_LOSS
        explanation.append(line("Misère declared by {name}: {name} +30, each other player −10.", name=who))
    if len(players) != 4:
        # french-tarot-wikipedia.txt's misère is zero-sum only at 4 players (docs/rules.md §0.3, §6).
        net = len(miseres) * (MISERE_GAIN - MISERE_LOSS * (len(players) - 1))
        warnings.append(line("At {n} players the misère bonus doesn't balance: the scores add up to {net}, not 0.",
                             n=len(players), net=signed(net)))


def _round(players, taker, scores, explanation):
    """Round every score but the taker's to 10 (halves away from zero); the taker keeps the total."""
    total = sum(scores.values())
    for p in players:
        if p != taker:
            scores[p] = _round10(scores[p])
    scores[taker] = total - sum(v for p, v in scores.items() if p != taker)
    explanation.append(line("Rounded to 10: {listing}; the taker's score keeps the total.",
                            listing=", ".join(f"{p} {signed(scores[p])}" for p in players)))


def _round10(x: int) -> int:
    """Round to the nearest 10, a 5 away from zero (french-tarot-wikipedia.txt: 168 → 170)."""
    q = (abs(x) + 5) // 10 * 10
    return q if x >= 0 else -q


# ---- the rules page: sample piles and a worked example ----

# Four oudler/king pairs and two more pairs: FFT pair counting (french-tarot-wikipedia.txt).
SAMPLES = [["T21", "T7", "SW-K", "CU-3", "FOOL", "BA-10", "CO-Q", "CO-9", "CO-J", "CO-8"]]


def example(game: Game) -> Example:
    """Return the hand the rules page settles, with the page's own arithmetic."""
    # french-tarot-wikipedia.txt: garde sans won by 12 with a single poignée, ((25 + 12) × 4) + 20 = 168.
    rules = resolve_rules(game, None)
    players = list(PLAYERS[:4])
    oudlers, points = 2, 53
    threshold = THRESHOLDS[oudlers]
    margin = points - threshold
    multiplier = MULTIPLIERS["garde_sans"]
    bonus = rules["poignee_bonus"][0]
    unit = (BASE + margin) * multiplier + bonus
    payouts = {p: -unit for p in players[1:]}
    payouts[players[0]] = unit * (len(players) - 1)
    multipliers = {**MULTIPLIERS, "garde_contre": rules["garde_contre_multiplier"]}
    numbers = {"taker": players[0], "points": points, "oudlers": oudlers, "threshold": threshold,
               "margin": margin, "multiplier": multiplier, "bonus": bonus, "unit": unit, "base": BASE,
               "gain": payouts[players[0]], "thresholds": sorted(THRESHOLDS.items()),
               "contracts": [(CONTRACTS[c], multipliers[c]) for c in CONTRACTS],
               "poignee": rules["poignee_bonus"], "poignee_trumps": POIGNEE_TRUMPS,
               "poignee_5p": rules["poignee_thresholds_5p"], "petit": PETIT_AU_BOUT,
               "chelem": CHELEM, "defence_chelem": rules["defence_chelem_bonus"],
               "deal": [(n, (len(game.deck) - chien) // n, chien) for n, chien in sorted(CHIEN.items())],
               # 3 players, prise, 2 oudlers: 40.5 against 41 loses by 1 (FFT, via normandie-tarot.org).
               "half_threshold": THRESHOLDS[2], "half_points": THRESHOLDS[2] - Fraction(1, 2),
               "half_unit": BASE + 1}
    hand = {"taker": players[0], "contract": "garde_sans", "points": points, "oudlers": oudlers,
            "poignees": [{"player": players[0], "size": "single"}]}
    return Example(players, hand, 1, payouts, numbers)


# ---- how a hand is entered (engine/entry.py) ----

CONTRACT_WORDS = {"prise": line("Prise"), "garde": line("Garde"), "garde_sans": line("Garde sans"),
                  "garde_contre": line("Garde contre")}
SIDE_WORDS = (("attack", line("Attack")), ("defence", line("Defence")))
CHELEM_CHOICES = (("announced_made", line("Announced, made")), ("announced_failed", line("Announced, failed")),
                  ("unannounced_made", line("Not announced, made")), ("defence_made", line("Defence took every trick")))
POIGNEE_CHOICES = (("single", line("Single")), ("double", line("Double")), ("triple", line("Triple")))


def entry(players: list[str], rules: dict, last: dict | None) -> Entry:
    """Declare the French Tarot hand form; the contract follows the last hand's (the table's habit)."""
    contracts = {c: w for c, w in CONTRACT_WORDS.items() if c != "prise" or rules["prise_allowed"]}
    contract = (last or {}).get("contract", "prise")
    if contract not in contracts:
        contract = next(iter(contracts))  # a table without Prise starts at Garde
    fields = [Pick("taker", line("Taker"), seats(players), style="people", required=line("Choose the taker.")),
              Pick("contract", line("Contract"), tuple(contracts.items()), default=contract, style="contract")]
    if len(players) == 5:
        # never a default: a forgotten tap would score a 1-against-4 hand
        fields.append(Pick("partner", line("Partner (called king)"), seats(players) + ((ALONE, line("Alone")),),
                           style="people", required=line("Choose the called king's holder, or Alone.")))
    bonuses = [PerSeat((Pick("pg", line("Poignée shown by {name}"), POIGNEE_CHOICES, blank=line("No poignée")),)),
               Pick("chelem", line("Chelem"), CHELEM_CHOICES, blank=line("No"))]
    if rules["misere"]:  # a house rule (docs/rules.md §6), off by default
        bonuses.append(Ticks("misere", line("Misère declared by"), seats(players)))
    fields += [
        Group((Group((Pick("side", line("Points of"), SIDE_WORDS, default="attack"),
                      Number("points", line("Points"), 0, TOTAL, what=line("points"), halves=True, style="points")),
                     style="points-row"),
               Pick("oudlers", line("Oudlers of that side"), tuple((str(n), str(n)) for n in range(4)),
                    required=line("Choose how many oudlers that side has."), style="oudlers")),
              hint=line("Of 91. Type either side's points and oudlers: the other side has the rest.")),
        Pick("petit_au_bout", line("Petit au bout"), SIDE_WORDS, blank=line("No")),
        Group(tuple(bonuses), line("Poignée, chelem"), folded=True, style="bonuses")]
    return Entry(tuple(fields), counts=(
        Count("attack", line("Attack"), "points", {"side": "attack"}, oudlers="oudlers"),
        Count("defence", line("Defence"), "points", {"side": "defence"}, oudlers="oudlers")))


def to_facts(v: dict, players: list[str], rules: dict) -> dict:
    """Return the hand's facts from the form's values; the defence's points and oudlers give the attack's."""
    points, oudlers = v["points"], int(v["oudlers"])
    if v["side"] == "defence":
        points, oudlers = TOTAL - points, 3 - oudlers
    facts = {"taker": v["taker"], "contract": v["contract"],
             "points": points.numerator if points.denominator == 1 else float(points),  # JSON: 40.5 is exact
             "oudlers": oudlers, "petit_au_bout": v["petit_au_bout"],
             "poignees": [{"player": p, "size": size} for p, size in v["pg"].items() if size],
             "chelem": v["chelem"]}
    if "partner" in v:
        facts["partner"] = None if v["partner"] == ALONE else v["partner"]
    if v.get("misere"):
        facts["misere"] = v["misere"]
    attack = (v.get("piles") or {}).get("attack")
    if attack is not None:
        # the attack's cards tapped: the engine counts them and warns of what the API warns of (a pile no deal
        # gives), rather than the form saving the points and oudlers the cards happen to count
        del facts["points"], facts["oudlers"]
        facts["cards"] = list(attack)
    return facts


def from_facts(facts: dict, players: list[str], rules: dict) -> dict:
    """Return the form's values for a stored hand (the attack's side)."""
    if isinstance(facts.get("cards"), list):  # entered with the cards: their count, and the cards kept
        pile = pile_of(GAME, facts["cards"], rules)
        counted = {**facts, "points": pile.points, "oudlers": pile.oudlers}
        return {**from_facts({k: v for k, v in counted.items() if k != "cards"}, players, rules),
                "piles": {"attack": facts["cards"]}}
    return {"taker": facts.get("taker"), "contract": facts.get("contract"), "partner": facts.get("partner") or ALONE,
            "side": "attack", "points": None if facts.get("points") is None else Fraction(facts["points"]),
            "oudlers": None if facts.get("oudlers") is None else str(facts["oudlers"]),
            "petit_au_bout": facts.get("petit_au_bout"), "chelem": facts.get("chelem"),
            "pg": {pg["player"]: pg["size"] for pg in facts.get("poignees") or []},
            "misere": list(facts.get("misere") or [])}


def summary(f: dict):
    """Say a hand in a few words: "Anna: Garde, 53 points, 2 oudlers · petit au bout"."""
    if f.get("points") is None and isinstance(f.get("cards"), list):  # a pile's count needs no house rule
        try:
            pile = pile_of(GAME, f["cards"], resolve_rules(GAME, {}))
            f = {**f, "points": pile.points, "oudlers": pile.oudlers}
        except ScoreError:
            pass  # a stored pile gone wrong: the row says so (its error), the summary what it can
    words = dict(player=f.get("taker"), contract=CONTRACT_WORDS.get(f.get("contract"), f.get("contract")),
                 points=f.get("points"), oudlers=f.get("oudlers"))
    text = (nline("{player}: {contract}, {points} points, {oudlers} oudler",
                  "{player}: {contract}, {points} points, {oudlers} oudlers", "oudlers", **words)
            if isinstance(f.get("oudlers"), int) else  # no number to choose the words by (a hand given as cards)
            line("{player}: {contract}, {points} points, {oudlers} oudlers", **words))
    if f.get("partner") and f.get("partner") != f.get("taker"):
        text = line("{hand} with {partner}", hand=text, partner=f["partner"])
    for key, word in (("petit_au_bout", line("petit au bout")), ("poignees", line("poignée")),
                      ("chelem", line("chelem"))):
        if f.get(key):
            text = line("{hand} · {more}", hand=text, more=word)
    return text


def zero_sum(rules: dict, n_players: int) -> bool:
    """Say whether the scores sum to zero: a misère's +30/−10 does not at 3 or 5 players."""
    return not (rules["misere"] and n_players in (3, 5))


def rename(facts: dict, old: str, new: str) -> dict:
    """Return the facts with a player renamed: taker, partner, misère declarers, poignées' players."""
    out = renamed(facts, old, new, names=("taker", "partner"), lists=("misere",))
    if isinstance(out.get("poignees"), list):
        out["poignees"] = [{**pg, "player": new} if isinstance(pg, dict) and pg.get("player") == old else pg
                           for pg in out["poignees"]]
    return out


GAME = Game(
    id="french_tarot", name=N_("French Tarot"), min_players=3, max_players=5, deck=DECK, counting=Counting.HALVES,
    values=values, total=TOTAL, options=OPTIONS, two_sided=True, oudlers=OUDLERS, pile_warnings=pile_warnings,
    pile_adjust=pile_adjust,
    score=score, entry=entry, to_facts=to_facts, from_facts=from_facts, summary=summary, naming=NAMING,
    zero_sum=zero_sum, shown_players=4, samples=SAMPLES, example=example,
    rename=rename,
    declarer=lambda f: f.get("taker"), contract=lambda f: CONTRACT_WORDS.get(f.get("contract")),
    taken_on=line("a Prise, a Garde, a Garde sans or a Garde contre"),
    rule_problems=rule_problems,
)
