"""Königrufen (Austrian Tarock): 54 cards counted to the Blatt (thirds), 70 points; the cup tariff's contracts, the
premiums, kontras that change the money and not the sheet (docs/rules.md §11)."""
from __future__ import annotations

from .. import cards as C
from ..errors import BadHand, BadRequest, DuplicateCard, ScoreError
from ..naming import ITALIAN_MARKS, Naming, card_name
from ..text import N_, line, nline, signed
from ..entry import ALONE, Count, Entry, EntryError, Group, Number, PerSeat, Pick, Ticks, pile_or_rest, seats
from ..game import (PLAYERS, Counting, Example, Game, Option, Result, check_players, count_pile, hand_fields, one_of,
                    renamed, seat)

# docs/rules.md §11 "Pack": 22 tarocks (Sküs = FOOL, XXI Mond … I Pagat); black suits K Q C J 10 9 8 7, red suits
# K Q C J 1 2 3 4 (the 78-card pack without the black 6–1 and the red 5–10).
TAROCKS = tuple(f"T{n}" for n in range(21, 0, -1)) + (C.FOOL,)
_RANKS = {"SW": ("10", "9", "8", "7"), "BA": ("10", "9", "8", "7"), "CU": ("1", "2", "3", "4"),
          "CO": ("1", "2", "3", "4")}
DECK = TAROCKS + tuple(f"{s}-{r}" for s in C.SUITS for r in C.COURTS + _RANKS[s])
TRULL = ("FOOL", "T21", "T1")  # Sküs, Mond, Pagat: 5 each (§11 "Values")
KINGS = tuple(f"{s}-K" for s in C.SUITS)
WHOLE = 210  # docs/rules.md §11: 3 · 106 − 2 · 54 = 210 thirds = 70 points
THRESHOLD = {"35/2": 107, "35/1": 106}  # §11 "Game points needed": 35 and 2 Blatt (cups), 35 and 1 (Tulln)
SIDES = ("declarer", "opponents")
LEVELS = (1, 2, 4, 8)  # §11.3: Kontra ×2, Rekontra ×4, Subkontra ×8

# §11.1: the sheet's value of each contract, per opponent, by tariff.
TARIFS = {
    "raiffeisen": {"trischaken": 1, "rufer": 1, "piccolo": 2, "bettel": 2, "solorufer": 2, "besserrufer": 1,
                   "farbendreier": 3, "sechserdreier": 4, "dreier": 4, "farbensolo": 6, "piccolo_ouvert": 6,
                   "bettel_ouvert": 7, "solodreier": 8},
    "tirol": {"rufer": 1, "trischaken": 2, "piccolo": 2, "solorufer": 2, "besserrufer": 3, "bettel": 4,
              "sechserdreier": 4, "farbendreier": 5, "dreier": 5, "zwiccolo_ouvert": 8, "piccolo_ouvert": 8,
              "bettel_ouvert": 8, "farbensolo": 10, "solodreier": 10},
}
CALLED = ("rufer", "solorufer", "besserrufer")  # a king is called: its holder is the partner (2 v 2)
SOLO = ("solorufer", "solodreier", "farbensolo")  # premiums count double, the valat not (§11.1)
COLOUR = ("farbendreier", "farbensolo")  # only the four kings and the valat (§11.1)
NEGATIVE = {"piccolo": 1, "bettel": 0, "piccolo_ouvert": 1, "bettel_ouvert": 0, "zwiccolo_ouvert": 2}  # tricks
TALON_HALF = ("rufer", "besserrufer", "dreier", "farbendreier")  # §11 "Which cards count for whom"
BIRDS = ("pagat", "uhu", "kakadu", "quapil")
# §11.2: announced / silent, per opponent; the valat is the game value × 8 / × 4 (raiffeisen) or 20 / 10 added
# to the game (tirol, §11.1).
PREMIUMS = {"trull": (2, 1), "koenige": (2, 1), "koenig_ultimo": (2, 1), "pagat": (2, 1), "uhu": (4, 2),
            "kakadu": (6, 3), "quapil": (8, 4), "valat": (8, 4)}
TIROL_VALAT = (20, 10)
TRICK_PREMIUMS = ("koenig_ultimo", "pagat", "uhu", "kakadu", "quapil")  # tirol: what counts beside a valat

# literal calls, so that Babel extracts each word (the Austrian German names: docs/rules.md §11.1, §11.2)
CONTRACT_WORDS = {
    "trischaken": line("Trischaken"), "rufer": line("Rufer"), "piccolo": line("Piccolo"), "bettel": line("Bettel"),
    "solorufer": line("Solorufer"), "besserrufer": line("Besserrufer"), "farbendreier": line("Farbendreier"),
    "sechserdreier": line("Sechserdreier"), "dreier": line("Dreier"), "farbensolo": line("Farbensolo"),
    "piccolo_ouvert": line("Piccolo ouvert"), "bettel_ouvert": line("Bettel ouvert"),
    "zwiccolo_ouvert": line("Zwiccolo ouvert"), "solodreier": line("Solodreier")}
PREMIUM_WORDS = {
    "trull": line("Trull"), "koenige": line("Four kings"), "koenig_ultimo": line("König ultimo"),
    "pagat": line("Pagat"), "uhu": line("Uhu"), "kakadu": line("Kakadu"), "quapil": line("Quapil"),
    "valat": line("Valat")}
SIDE_WORDS = {"declarer": line("the declarer's side"), "opponents": line("the opponents")}
KONTRA_WORDS = {2: line("Kontra"), 4: line("Rekontra"), 8: line("Subkontra")}

# §11 "Pack": Sküs, Mond, Pagat; the birds Uhu, Kakadu, Quapil; Pik, Treff, Herz, Karo; König, Dame, Reiter, Bube.
NAMING = Naming(
    fool="Sküs",
    trumps={21: "Mond", 1: "Pagat", 2: "Uhu", 3: "Kakadu", 4: "Quapil"},
    suits={"SW": "Pik", "BA": "Treff", "CU": "Herz", "CO": "Karo"},
    suit_marks={"SW": "♠", "BA": "♣", "CU": "♥", "CO": "♦"},
    courts={"K": "K", "Q": "D", "C": "R", "J": "B"},
    court_names={"K": "König", "Q": "Dame", "C": "Reiter", "J": "Bube"},
    legend=line("K the König, D the Dame (queen), R the Reiter (cavall), B the Bube (jack)."),
    honours=line("The Trull without the Sküs ({names})"),  # the Sküs is a class of its own
    class_words={"cavaliers": line("Reiter (the cavaliers)")},  # §11: Austrians say Reiter, not Ritter
)

OPTIONS = {
    "tarif": Option("raiffeisen", "The contracts and their values: the Raiffeisen Tarockcup's (the cups of Upper "
                    "Austria) or the Tiroler Tarockcup's.", ("raiffeisen", "tirol"), title=N_("Tariff"),
                    words={"raiffeisen": N_("Raiffeisen Tarockcup"), "tirol": N_("Tiroler Tarockcup")}),
    "win_threshold": Option("35/2", "What a positive game needs: 35 points and 2 Blatt (the cups), or 35 and 1 "
                            "(Tulln, parts of Styria).", ("35/2", "35/1"), title=N_("Points to win"),
                            words={"35/2": N_("35 and 2 Blatt"), "35/1": N_("35 and 1 Blatt")}),
    "trischaken": Option("raiffeisen", "How Trischaken is paid: the Raiffeisen cup's scheme or the Tiroler cup's.",
                         ("raiffeisen", "tirol"), title=N_("Trischaken"),
                         words={"raiffeisen": N_("Raiffeisen Tarockcup"), "tirol": N_("Tiroler Tarockcup")}),
    "two_virgins": Option("share", "In Trischaken two players without a trick share the payment, or each gets it "
                          "in full.", ("share", "each_full"), title=N_("Two without a trick"),
                          words={"share": N_("share the payment"), "each_full": N_("each get it in full")}),
    "silent_failure_counts": Option(False, "A silent premium that fails costs its side the silent value (pagat), "
                                    "or nothing (the cups).", title=N_("Failed silent premiums count")),
    "kontra_in_scores": Option(False, "Kontras change the sheet too (rounds that play for money only), not only "
                               "the money.", title=N_("Kontras on the sheet")),
    "may_call_own_king": Option(False, "A player may call a king he holds and play alone (pagat); the cups forbid "
                                "it.", title=N_("Calling one's own king")),
    "valat_takes_talon": Option(False, "At a valat the unused talon half goes to the valat side (pagat), not to the "
                                "opponents.", title=N_("Talon to the valat side")),
}

FIELDS = ("contract", "declarer", "dealer", "partner", "called_king", "called_king_in_talon", "schleifen",
          "game_won", "declarer_points", "declarer_cards", "declarer_tricks", "points_each", "cards_each",
          "premiums", "game_kontra")
PREMIUM_FIELDS = ("premium", "side", "announced", "made", "kontra")


def values(rules):
    """Return each card's value: the Trull and the kings 5, queens 4, cavalls 3, jacks 2, the rest 1 (§11)."""
    return {c: 5 if c in TRULL else C.COURT_VALUES.get(C.rank_of(c) or "", 1) for c in DECK}


def said(thirds: int) -> dict:
    """Return a card total as the API says it: points, Blatt and thirds (docs/api.md)."""
    return {"points": thirds // 3, "blatt": thirds % 3, "thirds": thirds}


def possible_sizes(contract: str, in_talon: bool = False) -> tuple[int, int]:
    """Return (k, r): the declarer side's pile is 4k + r cards (§11 "Pile sizes")."""
    if contract in TALON_HALF or (contract == "solorufer" and in_talon):
        return 4, 3
    if contract == "sechserdreier":
        return 4, 2  # 4k + 6
    return 4, 0


def pile_warnings(cards, rules):
    """Warn of a pile no deal gives: a side holds tricks of 4, plus 3 or 6 cards of the talon (§11)."""
    if len(cards) % 4 == 1:
        return [nline("No deal gives a pile of {n} card: a side holds tricks of 4 cards, plus 3 or 6 of the talon.",
                      "No deal gives a pile of {n} cards: a side holds tricks of 4 cards, plus 3 or 6 of the talon.",
                      "n", n=len(cards))]
    return []


def _thirds_of(total, what) -> int:
    """Read a card total {"points": p, "blatt": b} as thirds (bad_request for a wrong shape, bad_hand out of range)."""
    if not isinstance(total, dict) or "points" not in total or set(total) - {"points", "blatt"}:
        raise BadRequest(line("{what} must be an object with “points” and “blatt”.", what=what))
    p, b = total["points"], total.get("blatt", 0)
    if type(p) is not int or type(b) is not int:
        raise BadRequest(line("{what}: points and Blatt must be whole numbers.", what=what))
    if not 0 <= b <= 2 or not 0 <= 3 * p + b <= WHOLE or p < 0:
        raise BadHand(line("{what} must be between 0 and 70 points, with 0, 1 or 2 Blatt.", what=what))
    return 3 * p + b


def _level(value, what):
    if type(value) is not int or value not in LEVELS:
        raise BadRequest(line("{what}: a kontra is 1, 2 (Kontra), 4 (Rekontra) or 8 (Subkontra).", what=what))
    return value


def score(players: list[str], hand: dict, rules: dict) -> Result:
    """Score and settle one hand of Königrufen: the sheet (Schriftpunkte) and the money (§11.4)."""
    players = check_players(GAME, players)
    hand = hand_fields(hand, required=("contract", "declarer"), optional=FIELDS)
    contract, tarif = hand["contract"], TARIFS[rules["tarif"]]
    if not isinstance(contract, str):
        raise BadRequest(line("“contract” must be the id of a contract, such as “rufer”."))
    if contract not in tarif:
        raise BadHand(line("“{contract}” is not a contract of this table's tariff: {listing}.", contract=contract,
                           listing=", ".join(tarif)))
    declarer = seat(hand["declarer"], players, line("declarer"))
    dealer = None
    if len(players) == 5 and hand.get("dealer") is None:
        raise BadRequest(line("At five players give the “dealer”: he sits the hand out."))
    if hand.get("dealer") is not None:
        dealer = seat(hand["dealer"], players, line("dealer"))
    active = [p for p in players if not (len(players) == 5 and p == dealer)]
    if declarer not in active:
        raise BadHand(line("{name} deals and sits this hand out at five players: he can't play it.", name=declarer))
    explanation = []
    if len(players) == 5:
        explanation.append(line("{name} deals and sits out: 0.", name=dealer))
    if contract == "trischaken":
        return _trischaken(players, active, declarer, hand, rules, explanation)
    for f in ("points_each", "cards_each"):
        if hand.get(f) is not None:
            raise BadHand(line("“{field}” belongs to Trischaken only.", field=f))
    if contract in NEGATIVE:
        return _negative(players, active, declarer, hand, rules, contract, explanation)
    return _positive(players, active, declarer, hand, rules, contract, explanation)


def _sheet_and_money(players, winners, losers, postens, rules, void_kontra=False):
    """Settle postens (value for the declarer's side, kontra factor): 2 v 2 each ±v, alone ±3v / ∓v (§11.4)."""
    sheet, money = dict.fromkeys(players, 0), dict.fromkeys(players, 0)
    for v, k in postens:
        k = 1 if void_kontra else k
        for p in winners:
            sheet[p] += v * len(losers) // len(winners)
            money[p] += v * k * len(losers) // len(winners)
        for p in losers:
            sheet[p] -= v
            money[p] -= v * k
    if rules["kontra_in_scores"]:
        sheet = dict(money)
    return sheet, money


def _positive(players, active, declarer, hand, rules, contract, explanation) -> Result:
    """A positive game: the game posten and each premium's, settled 2 v 2 or alone (§11.1, §11.2, §11.4)."""
    tarif, warnings = TARIFS[rules["tarif"]], []
    for f in ("declarer_tricks",):
        if hand.get(f) is not None:
            raise BadHand(line("“{field}” belongs to Piccolo and Bettel only.", field=f))
    partner, in_talon = hand.get("partner"), bool(hand.get("called_king_in_talon"))
    if contract in CALLED:
        if partner is not None:
            partner = seat(partner, players, line("partner"))
            if partner == declarer and not rules["may_call_own_king"]:
                raise BadHand(line("{name} can't call his own king (the cups forbid it): choose the holder of the "
                                   "called king.", name=declarer))
            if partner not in active:
                raise BadHand(line("{name} deals and sits this hand out at five players: he can't be the partner.",
                                   name=partner))
            if in_talon:
                raise BadHand(line("The called king lay in the talon: nobody is the partner."))
            if partner == declarer:
                partner = None
        else:
            in_talon = True  # nobody holds the called king: it lay in the talon (§11.4)
    elif partner is not None:
        raise BadHand(line("{contract} is played alone: there is no partner.", contract=CONTRACT_WORDS[contract]))
    if (hand.get("schleifen") or hand.get("called_king_in_talon")) and contract not in CALLED:
        raise BadHand(line("Only a Rufer, Solorufer or Besserrufer calls a king."))
    if hand.get("schleifen") and not (in_talon and contract in ("rufer", "besserrufer")):
        raise BadHand(line("Only a Rufer or Besserrufer whose called king lay in the talon can be given up."))
    if hand.get("called_king") is not None and hand["called_king"] not in KINGS:
        raise BadHand(line("The called king must be one of {kings}.", kings=", ".join(KINGS)))
    premiums = _premiums(hand, contract, in_talon)
    game_value = tarif[contract]
    bird = sum(PREMIUMS[p["premium"]][0] for p in premiums if p["premium"] in BIRDS and p["side"] == "declarer"
               and p["announced"]) if contract == "besserrufer" else 0
    if contract == "besserrufer" and not bird:
        raise BadHand(line("A Besserrufer announces a bird (Pagat, Uhu, Kakadu or Quapil) for the declarer's side."))
    opponents = [p for p in active if p not in (declarer, partner)]
    winners = [declarer] + ([partner] if partner else [])
    kontra = hand.get("game_kontra", 1)
    if isinstance(kontra, dict):
        raise BadRequest(line("In a positive game a kontra on the game binds all four: give one level, 1, 2, 4 or 8."))
    kontra = _level(kontra, line("The kontra on the game"))
    if hand.get("schleifen"):  # §11.4: given up: game + announced bird to each of the three
        if hand.get("game_won") is not None or hand.get("declarer_points") is not None or hand.get("declarer_cards"):
            raise BadHand(line("A game given up has no result and no card total."))
        v = -(game_value + bird)
        explanation.append(line("{name} gives up the {contract} (the called king in the talon): {value} to each "
                                "opponent, no kontra.", name=declarer, contract=CONTRACT_WORDS[contract],
                                value=game_value + bird))
        sheet, money = _sheet_and_money(players, [declarer], opponents, [(v, 1)], rules, void_kontra=True)
        return Result({}, sheet, tuple(explanation), (), money)
    valat = next((p for p in premiums if p["premium"] == "valat" and (p["made"] or p["announced"])), None)
    points, thirds, won = {}, None, None
    given = [f for f in ("game_won", "declarer_points", "declarer_cards") if hand.get(f) is not None]
    if len(given) > 1 or (not given and valat is None):
        raise BadRequest(line("Give one of “game_won”, “declarer_points” or “declarer_cards”."))
    if given == ["game_won"]:
        if not isinstance(hand["game_won"], bool):
            raise BadRequest(line("“game_won” must be true or false."))
        won = hand["game_won"]
    elif given == ["declarer_points"]:
        thirds = _thirds_of(hand["declarer_points"], line("The declarer side's card total"))
    elif given == ["declarer_cards"]:
        codes = hand["declarer_cards"]
        if not isinstance(codes, list):
            raise BadRequest(line("“declarer_cards” must be a list of card codes."))
        cards = C.parse_pile(codes, DECK, GAME.name)
        count = count_pile(GAME, cards, rules)
        thirds = count.thirds
        explanation.append(line("The declarer side's pile, {working}.", working=count.working))
        k, r = possible_sizes(contract, in_talon)
        if len(cards) % k != r % k or len(cards) < r:
            warnings.append(line("In a {contract} the declarer's side holds tricks of 4 and {r} talon cards: {n} "
                                 "cards can't happen.", contract=CONTRACT_WORDS[contract], r=r, n=len(cards)))
    if thirds is not None:
        need = THRESHOLD[rules["win_threshold"]]
        won = thirds >= need
        points = {"declarer": said(thirds), "opponents": said(WHOLE - thirds)}
        explanation.append(line("The declarer's side: {points} and {blatt} Blatt, the opponents {o_points} and "
                                "{o_blatt} Blatt; {need_p} and {need_b} Blatt win.", points=thirds // 3,
                                blatt=thirds % 3, o_points=(WHOLE - thirds) // 3, o_blatt=(WHOLE - thirds) % 3,
                                need_p=need // 3, need_b=need % 3))
    solo = contract in SOLO
    postens = []
    tirol = rules["tarif"] == "tirol"
    if valat is not None and not tirol:
        # §11.2: the valat replaces the game posten (× 8 announced, × 4 silent); a failed announcement loses × 8;
        # against a Sechserdreier doubled again; only announced premiums count beside it
        times = 8 if valat["announced"] else 4
        v = game_value * times
        for_declarer = (valat["side"] == "declarer") == valat["made"]
        if contract == "sechserdreier" and not for_declarer:
            v *= 2
        k = max(kontra, valat["kontra"])  # [inferred] the game's kontra carries to the valat posten (§11.3)
        postens.append((v if for_declarer else -v, k))
        explanation.append(_premium_line(valat, v if for_declarer else -v, times=times))
        premiums = [p for p in premiums if p["announced"] and p is not valat]
    else:
        if valat is not None and valat["made"]:  # tirol: a valat decides the game and is a premium on top (§11.1)
            won = valat["side"] == "declarer"
        if won is None:
            raise BadRequest(line("Give one of “game_won”, “declarer_points” or “declarer_cards”."))
        v = game_value * (2 if contract == "sechserdreier" and not won else 1)
        postens.append((v if won else -v, kontra))
        if won:
            explanation.append(line("{contract} won: {value}.", contract=CONTRACT_WORDS[contract], value=signed(v)))
        elif contract == "sechserdreier":
            explanation.append(line("{contract} lost, the game counts double: {value}.",
                                    contract=CONTRACT_WORDS[contract], value=signed(-v)))
        else:
            explanation.append(line("{contract} lost: {value}.", contract=CONTRACT_WORDS[contract], value=signed(-v)))
        if kontra > 1:
            explanation.append(line("{kontra} on the game: the money × {factor}, the sheet unchanged.",
                                    kontra=KONTRA_WORDS[kontra], factor=kontra))
        if valat is not None and tirol:
            premiums = [p for p in premiums if p["premium"] in TRICK_PREMIUMS or p is valat]
    for p in premiums:
        if not p["made"] and not p["announced"] and not rules["silent_failure_counts"]:
            explanation.append(line("{premium} failed silently ({side}): it counts nothing.",
                                    premium=PREMIUM_WORDS[p["premium"]], side=SIDE_WORDS[p["side"]]))
            continue
        if p["premium"] == "valat" and tirol:  # 20 announced, 10 silent, added to the game (§11.1)
            v = TIROL_VALAT[0 if p["announced"] else 1]
        elif p["premium"] == "valat":  # a silent valat that failed, under silent_failure_counts: the game × 4
            v = game_value * 4
        else:
            v = PREMIUMS[p["premium"]][0 if p["announced"] else 1] * (2 if solo else 1)
        for_declarer = (p["side"] == "declarer") == p["made"]
        postens.append((v if for_declarer else -v, p["kontra"]))
        explanation.append(_premium_line(p, v if for_declarer else -v, doubled=solo and p["premium"] != "valat"))
    void = contract == "solorufer" and in_talon  # §11.3: every kontra void
    if void and any(k > 1 for _v, k in postens):
        explanation.append(line("The called king lay in the talon: every kontra is void."))
    sheet, money = _sheet_and_money(players, winners, opponents, postens, rules, void_kontra=void)
    if partner:
        explanation.append(line("Two against two: {declarer} and {partner} each get the postens, {others} each pay "
                                "them.", declarer=declarer, partner=partner, others=", ".join(opponents)))
    else:
        explanation.append(line("{declarer} alone against three: × 3 for the declarer, × 1 for each opponent.",
                                declarer=declarer))
    return Result(points, sheet, tuple(explanation), tuple(warnings), money)


def _premium_line(p, value, doubled=False, times=None):
    args = dict(premium=PREMIUM_WORDS[p["premium"]], side=SIDE_WORDS[p["side"]], value=signed(value))
    if times is not None:
        text = line("{premium} ({side}), the game × {times}: {value} for the declarer's side.", times=times, **args)
    elif p["made"] and p["announced"]:
        text = line("{premium} announced and made by {side}: {value} for the declarer's side.", **args)
    elif p["made"]:
        text = line("{premium} made silently by {side}: {value} for the declarer's side.", **args)
    elif p["announced"]:
        text = line("{premium} announced by {side} and failed: {value} for the declarer's side.", **args)
    else:
        text = line("{premium} failed silently ({side}): {value} for the declarer's side.", **args)
    if doubled:
        text = line("{said} (doubled in a solo game)", said=text)
    if p.get("kontra", 1) > 1:
        text = line("{said}; {kontra}: the money × {factor}", said=text, kontra=KONTRA_WORDS[p["kontra"]],
                    factor=p["kontra"])
    return text


def _premiums(hand, contract, in_talon) -> list[dict]:
    """Read the premiums, checking each is one the contract allows, once per side (§11.1, §11.2)."""
    given = hand.get("premiums") or []
    if not isinstance(given, list):
        raise BadRequest(line("“premiums” must be a list of premiums."))
    out, seen = [], set()
    for p in given:
        if not isinstance(p, dict) or not {"premium", "side"} <= set(p) or set(p) - set(PREMIUM_FIELDS):
            raise BadRequest(line("A premium is an object with “premium”, “side”, “announced”, “made” and "
                                  "“kontra”."))
        kind, side = p["premium"], p["side"]
        if kind not in PREMIUMS:
            raise BadHand(line("“{premium}” is not a premium of Königrufen: {listing}.", premium=kind,
                               listing=", ".join(PREMIUMS)))
        if side not in SIDES:
            raise BadRequest(line("A premium's side is “declarer” or “opponents”."))
        announced, made = p.get("announced", False), p.get("made", True)
        if not isinstance(announced, bool) or not isinstance(made, bool):
            raise BadRequest(line("A premium's “announced” and “made” are true or false."))
        kontra = _level(p.get("kontra", 1), PREMIUM_WORDS.get(kind, kind))
        if kontra > 1 and not announced:
            raise BadHand(line("Only an announced premium can be kontra'd: {premium} was silent.",
                               premium=PREMIUM_WORDS[kind]))
        if contract in COLOUR and kind not in ("koenige", "valat"):
            raise BadHand(line("A colour game admits only the four kings and the valat, not {premium}.",
                               premium=PREMIUM_WORDS[kind]))
        if kind == "koenig_ultimo" and (contract not in CALLED or in_talon):
            raise BadHand(line("König ultimo needs a called king held by a player: a Rufer, Solorufer or "
                               "Besserrufer with a partner."))
        if (kind, side) in seen:
            raise BadHand(line("{premium} is given twice for {side}.", premium=PREMIUM_WORDS[kind],
                               side=SIDE_WORDS[side]))
        seen.add((kind, side))
        out.append({"premium": kind, "side": side, "announced": announced, "made": made, "kontra": kontra})
    if sum(1 for p in out if p["premium"] == "valat" and p["made"]) > 1:
        raise BadHand(line("Only one side can take every trick."))
    return out


def _negative(players, active, declarer, hand, rules, contract, explanation) -> Result:
    """Piccolo, Bettel and the ouverts: alone; each opponent's kontra is his own (§11.1, §11.3, §11.4)."""
    for f in ("partner", "declarer_points", "declarer_cards", "called_king", "schleifen"):
        if hand.get(f) not in (None, False):
            raise BadHand(line("“{field}” doesn't belong to a {contract}.", field=f, contract=CONTRACT_WORDS[contract]))
    if hand.get("called_king_in_talon"):
        raise BadHand(line("Only a Rufer, Solorufer or Besserrufer calls a king."))
    if hand.get("premiums"):
        raise BadHand(line("{contract} has no premiums.", contract=CONTRACT_WORDS[contract]))
    target = NEGATIVE[contract]
    tricks, won = hand.get("declarer_tricks"), hand.get("game_won")
    if (tricks is None) == (won is None):
        raise BadRequest(line("Give either “declarer_tricks” or “game_won”, not both and not neither."))
    points = {}
    if tricks is not None:
        if type(tricks) is not int:
            raise BadRequest(line("“declarer_tricks” must be a whole number."))
        if not 0 <= tricks <= 12:
            raise BadHand(line("The declarer takes 0 to 12 tricks, not {n}.", n=tricks))
        won, points = tricks == target, {"declarer_tricks": tricks}
    elif not isinstance(won, bool):
        raise BadRequest(line("“game_won” must be true or false."))
    opponents = [p for p in active if p != declarer]
    kontra = hand.get("game_kontra") or {}
    if isinstance(kontra, int) and not isinstance(kontra, bool):
        kontra = {p: kontra for p in opponents} if _level(kontra, line("The kontra on the game")) > 1 else {}
    if not isinstance(kontra, dict):
        raise BadRequest(line("In a negative game each opponent gives his own kontra: {{player: 2, 4 or 8}}."))
    for p, k in kontra.items():
        seat(p, players, line("player who gave the kontra"))
        if p not in opponents:
            raise BadHand(line("{name} is not an opponent of the declarer: only an opponent gives a kontra.", name=p))
        _level(k, line("{name}'s kontra", name=p))
    v = TARIFS[rules["tarif"]][contract] * (1 if won else -1)
    explanation.append(line("{contract} won: {value}.", contract=CONTRACT_WORDS[contract], value=signed(v)) if won else
                       line("{contract} lost: {value}.", contract=CONTRACT_WORDS[contract], value=signed(v)))
    sheet, money = dict.fromkeys(players, 0), dict.fromkeys(players, 0)
    for p in opponents:
        k = kontra.get(p, 1)
        sheet[p], sheet[declarer] = -v, sheet[declarer] + v
        money[p], money[declarer] = -v * k, money[declarer] + v * k
        if k > 1:
            explanation.append(line("{name} gave {kontra}: the money between {name} and {declarer} × {factor}.",
                                    name=p, kontra=KONTRA_WORDS[k], declarer=declarer, factor=k))
    explanation.append(line("{declarer} alone against three: × 3 for the declarer, × 1 for each opponent.",
                            declarer=declarer))
    if rules["kontra_in_scores"]:
        sheet = dict(money)
    return Result(points, sheet, tuple(explanation), (), money)


def _trischaken(players, active, vorhand, hand, rules, explanation) -> Result:
    """Trischaken: each for himself, the most points pays, a player without a trick collects (§11.5)."""
    for f in ("partner", "declarer_points", "declarer_cards", "declarer_tricks", "game_won", "called_king",
              "schleifen", "called_king_in_talon"):
        if hand.get(f) not in (None, False):
            raise BadHand(line("“{field}” doesn't belong to Trischaken.", field=f))
    if hand.get("premiums"):
        raise BadHand(line("Trischaken has no premiums."))
    if hand.get("game_kontra") not in (None, 1, {}):
        raise BadHand(line("There is no kontra in Trischaken."))
    warnings = []
    if one_of(hand, "points_each", "cards_each") == "points_each":
        given = _each(hand["points_each"], players, active, "points_each")
        thirds = {p: _thirds_of(given[p], line("{name}'s card total", name=p)) for p in active}
        if sum(thirds.values()) != WHOLE:
            t = sum(thirds.values())
            raise BadHand(line("The four card totals make {points} and {blatt} Blatt, not 70: one of them is wrong.",
                               points=t // 3, blatt=t % 3))
    else:
        given = _each(hand["cards_each"], players, active, "cards_each")
        piles, owner, twice = {}, {}, []
        for p in active:
            if not isinstance(given[p], list):
                raise BadRequest(line("{who}'s pile must be a list of card codes.", who=p))
            piles[p] = C.parse_pile(given[p], DECK, GAME.name)
            for c in piles[p]:
                if c in owner:
                    twice.append(c)
                owner[c] = p
        if twice:
            raise DuplicateCard(line("{twice} is in two players' piles; each card exists only once.",
                                     twice=", ".join(card_name(GAME, c) for c in twice)), cards=twice)
        missing = [c for c in DECK if c not in owner]
        if missing:
            raise BadHand(line("The piles hold {n_owner} of the 54 cards; every card ends in someone's pile.",
                               n_owner=len(owner)), cards=missing)
        thirds = {p: count_pile(GAME, piles[p], rules).thirds for p in active}
        sizes = sorted(len(piles[p]) % 4 for p in active)
        if sizes != [0, 0, 0, 2]:
            warnings.append(line("In Trischaken one pile holds tricks of 4 and the talon's 6, the others tricks of 4: "
                                 "these piles can't happen."))
    for p in active:
        explanation.append(line("{name}: {points} and {blatt} Blatt.", name=p, points=thirds[p] // 3,
                                blatt=thirds[p] % 3))
    scores = dict.fromkeys(players, 0)
    pay = _trischaken_pay(active, vorhand, thirds, rules, explanation)
    for p, v in pay.items():
        scores[p] += v
    return Result({p: said(thirds[p]) for p in active}, scores, tuple(explanation), tuple(warnings))


def _trischaken_pay(active, vorhand, thirds, rules, explanation) -> dict:
    """Return each player's Trischaken result (§11.5: raiffeisen's scheme; tirol's with base 2, [inferred])."""
    base = 2 if rules["trischaken"] == "tirol" else 1
    mayor = THRESHOLD["35/2"]
    most = max(thirds.values())
    top = [p for p in active if thirds[p] == most]
    virgins = [p for p in active if thirds[p] == 0]
    out = dict.fromkeys(active, 0)
    if vorhand in top or len(top) == 1:
        loser = vorhand if vorhand in top else top[0]
        b = base * (2 if most >= mayor else 1) * (2 if loser == vorhand else 1)
        if loser == vorhand:
            explanation.append(line("{name}, the Vorhand, has the most points: he loses alone and pays double, {b} "
                                    "to each.", name=loser, b=b))
        else:
            explanation.append(line("{name} has the most points and pays {b} to each.", name=loser, b=b))
        if most >= mayor:
            explanation.append(line("35 and 2 Blatt or more: Bürgermeister, the payment doubled."))
        others = [p for p in active if p != loser]
        if len(virgins) == 1:
            out[virgins[0]], out[loser] = 3 * b, -3 * b
            explanation.append(line("{name} took no trick (Jungfrau) and collects the whole payment, {amount}.",
                                    name=virgins[0], amount=3 * b))
        elif len(virgins) >= 2:
            # §11.5: two share the payment (3 won't split in two: the loser pays 4, 2 each), or each gets it in full
            each = (3 * b if rules["two_virgins"] == "each_full" else b if len(virgins) == 3
                    else 3 * b // 2 if b % 2 == 0 else 2 * b)
            for v in virgins:
                out[v] = each
            out[loser] = -each * len(virgins)
            explanation.append(line("{names} took no trick and get {amount} each.", names=", ".join(virgins),
                                    amount=each))
        elif rules["trischaken"] == "tirol" and loser != vorhand and most < mayor:
            # [inferred] Tirol's "2 x 2": the two with most points pay the two others 2 each
            ranked = sorted(active, key=lambda p: -thirds[p])
            for p in ranked[:2]:
                out[p] = -2
            for p in ranked[2:]:
                out[p] = 2
            explanation.append(line("The two with the most points pay the other two 2 each."))
        else:
            for p in others:
                out[p] = b
            out[loser] = -b * len(others)
        return out
    # several tied for the most, the Vorhand not among them (§11.5)
    rest = [p for p in active if p not in top]
    if len(top) == 2:
        explanation.append(line("{names} are tied for the most points and pay 2 each.", names=", ".join(top)))
        for p in top:
            out[p] = -2 * base
        if len(virgins) == 1:
            out[virgins[0]] = 4 * base
        else:
            for p in rest:
                out[p] = 2 * base
    else:
        explanation.append(line("{names} are tied for the most points and pay 1 each to {name}.",
                                names=", ".join(top), name=rest[0]))
        for p in top:
            out[p] = -base
        out[rest[0]] = 3 * base
    return out


def _each(value, players, active, field):
    if not isinstance(value, dict):
        raise BadRequest(line("“{field}” must be an object: each player's card total.", field=field))
    for p in value:
        seat(p, players, line("player"))
    if set(value) != set(active):
        raise BadHand(line("“{field}” needs the card totals of the four who play: {names}.", field=field,
                           names=", ".join(active)))
    return value


# ---- the rules page: sample piles and a worked example ----

# §11 "Counting": the Trull and a king in one three (5 + 5 + 5 + 5 − 2 × ... ), see docs/rules.md §11.
SAMPLES = [["FOOL", "T21", "SW-K"], ["T1", "CU-Q", "T7"], ["BA-J", "CO-C"], ["SW-7"]]


def example(game: Game) -> Example:
    """Return the hand the rules page settles: a Dreier won with a silent Trull, the opponents' silent Pagat
    (docs/rules.md §11; docs/api.md's example): 4 + 1 − 1 = 4 per opponent, the declarer 3 × 4 = +12."""
    players = list(PLAYERS[:4])
    per = TARIFS["raiffeisen"]["dreier"] + PREMIUMS["trull"][1] - PREMIUMS["pagat"][1]  # 4 + 1 − 1
    stake = 10
    payouts = {players[0]: 3 * per * stake, **{p: -per * stake for p in players[1:]}}
    hand = {"contract": "dreier", "declarer": players[0], "game_won": True,
            "premiums": [{"premium": "trull", "side": "declarer", "announced": False, "made": True},
                         {"premium": "pagat", "side": "opponents", "announced": False, "made": True}]}
    numbers = {"declarer": players[0], "game": 4, "trull": 1, "pagat": 1, "per": per, "gain": 3 * per,
               "stake": stake, "tariff": [(CONTRACT_WORDS[c], v) for c, v in TARIFS["raiffeisen"].items()]}
    return Example(players, hand, stake, payouts, numbers)


# ---- how a hand is entered (engine/entry.py) ----

OUTCOMES = (("won", line("Won")), ("lost", line("Lost")), ("schleifen", line("Given up (the king in the talon)")))
PREMIUM_CHOICES = (("d", line("declarer's side, silent")), ("da", line("declarer's side, announced")),
                   ("dx", line("declarer's side announced it and failed")),
                   ("o", line("opponents, silent")), ("oa", line("opponents, announced")),
                   ("ox", line("opponents announced it and failed")))
_CODES = {"d": ("declarer", False, True), "da": ("declarer", True, True), "dx": ("declarer", True, False),
          "o": ("opponents", False, True), "oa": ("opponents", True, True), "ox": ("opponents", True, False)}
BLATT = (("1", "1"), ("2", "2"))
KONTRA_CHOICES = tuple((str(k), w) for k, w in KONTRA_WORDS.items())


def entry(players: list[str], rules: dict, last: dict | None) -> Entry:
    """Declare the hand form: contract, who plays (and his partner), won or lost or the card total, premiums and
    kontras folded away; Trischaken each player's points and Blatt."""
    contracts = tuple((c, CONTRACT_WORDS[c]) for c in TARIFS[rules["tarif"]])
    fields = [Pick("contract", line("Contract"), contracts, default="rufer", style="contract"),
              Pick("declarer", line("Who plays (Trischaken: the Vorhand)"), seats(players), style="people")]
    if len(players) == 5:
        fields.append(Pick("dealer", line("Dealer: sits this hand out"), seats(players), style="people"))
    # each premium, and its own kontra where it was announced (§11.3: "every premium is its own posten with its own
    # kontra"); the kontra's choices show once the premium is said announced (app.css .premium)
    premiums = tuple(Group((
        Pick(f"pr_{p}", PREMIUM_WORDS[p], PREMIUM_CHOICES, blank=line("none")),
        Pick(f"pk_{p}", line("Kontra on the {premium}", premium=PREMIUM_WORDS[p]), KONTRA_CHOICES,
             blank=line("none"), style="kontra")), style="premium") for p in PREMIUMS)
    fields.append(Group((
        Pick("partner", line("Partner: the called king's holder (Rufer, Solorufer, Besserrufer)"),
             seats(players) + ((ALONE, line("The king in the talon: alone")),), style="people"),
        Pick("outcome", line("The game"), OUTCOMES),
        Group((Number("points", line("Points"), 0, 70, what=line("points"), optional=True, style="points"),
               Pick("blatt", line("Blatt"), BLATT, blank=line("0"))),
              style="points-row",
              hint=line("Or the declarer side's card total, of 70: 35 and 2 Blatt win.")),
        Group(premiums + (
            Pick("game_kontra", line("Kontra on the game"), KONTRA_CHOICES, blank=line("none")),
            Ticks("kontra_by", line("In Piccolo and Bettel: who gave it"), seats(players))),
            line("Premiums and kontra"), folded=True)),
        unless=("contract", "trischaken")))
    fields.append(Group((PerSeat((Number("tp", None, 0, 70, what=line("points"), optional=True),
                                  Pick("tb", line("Blatt"), BLATT, blank=line("0")))),),
                        line("Each player's points and Blatt (the talon with the last trick)"),
                        when=("contract", "trischaken"), style="per-player"))
    return Entry(tuple(fields), counts=(
        Count("declarer", line("Declarer's side"), "points", blatt="blatt"),
        *(Count(f"tp{i}", p, f"tp{i}", {"contract": "trischaken"}, blatt=f"tb{i}") for i, p in enumerate(players))))


def to_facts(v: dict, players: list[str], rules: dict) -> dict:
    """Return the hand's facts from the form's values."""
    contract = v.get("contract") or "rufer"
    errors = {}
    if v.get("declarer") is None:
        errors["declarer"] = line("Choose who plays.")
    if len(players) == 5 and v.get("dealer") is None:
        errors["dealer"] = line("Choose the dealer: he sits this hand out.")
    facts = {"contract": contract, "declarer": v.get("declarer")}
    if v.get("dealer") is not None:
        facts["dealer"] = v["dealer"]
    if contract == "trischaken":
        active = [p for p in players if p != facts.get("dealer") or len(players) < 5]
        pts, blatt = v.get("tp") or {}, v.get("tb") or {}
        for i, p in enumerate(players):
            if p in active and pts.get(p) is None:
                errors[f"tp{i}"] = line("Enter the points.")
        if errors:
            raise EntryError(errors)
        piles = v.get("piles") or {}
        if all(f"tp{players.index(p)}" in piles for p in active):
            # every pile's cards tapped: the engine counts them to the Blatt and warns as the API does (§11.5)
            facts["cards_each"] = {p: list(piles[f"tp{players.index(p)}"]) for p in active}
        else:
            facts["points_each"] = {p: {"points": pts[p], "blatt": int(blatt.get(p) or 0)} for p in active}
        return facts
    outcome = v.get("outcome")
    if contract in NEGATIVE:
        if outcome not in ("won", "lost"):
            errors["outcome"] = line("Choose won or lost.")
        level, by = v.get("game_kontra"), v.get("kontra_by") or []
        if level and not by:
            errors["kontra_by"] = line("Tick who gave the kontra.")
        if errors:
            raise EntryError(errors)
        facts["game_won"] = outcome == "won"
        if level:
            facts["game_kontra"] = {p: int(level) for p in by}
        return facts
    premiums = []
    for i, p in enumerate(PREMIUMS):
        code, kontra = v.get(f"pr_{p}"), v.get(f"pk_{p}")
        if code:
            side, announced, made = _CODES[code]
            premiums.append({"premium": p, "side": side, "announced": announced, "made": made})
            if kontra:
                if announced:
                    premiums[-1]["kontra"] = int(kontra)
                else:  # §11.3: the game and each announced premium are kontra'd
                    errors[f"pk_{p}"] = line("Only an announced premium can be given a kontra.")
        elif kontra:
            errors[f"pk_{p}"] = line("Choose who made or announced the {premium} first.", premium=PREMIUM_WORDS[p])
    cards = pile_or_rest(v.get("piles") or {}, "declarer", "opponents", DECK)
    if contract in CALLED:
        if v.get("partner") is None:
            errors["partner"] = line("Choose the called king's holder, or the king in the talon.")
        elif v["partner"] == ALONE:
            facts.update(partner=None, called_king_in_talon=True)
        else:
            facts["partner"] = v["partner"]
    if outcome == "schleifen":
        if v.get("partner") != ALONE or contract not in ("rufer", "besserrufer"):
            errors["outcome"] = line("Only a Rufer or Besserrufer whose called king lay in the talon is given up.")
        facts["schleifen"] = True
    elif cards is not None:
        facts["declarer_cards"] = cards
    elif v.get("points") is not None:
        facts["declarer_points"] = {"points": v["points"], "blatt": int(v.get("blatt") or 0)}
    elif outcome in ("won", "lost"):
        facts["game_won"] = outcome == "won"
    elif not any(p["premium"] == "valat" and p["made"] for p in premiums):
        errors["outcome"] = line("Choose won or lost, or enter the card total.")
    if errors:
        raise EntryError(errors)
    if premiums:
        facts["premiums"] = premiums
    if v.get("game_kontra"):
        facts["game_kontra"] = int(v["game_kontra"])
    return facts


def from_facts(facts: dict, players: list[str], rules: dict) -> dict:
    """Return the form's values for a stored hand."""
    contract = facts.get("contract")
    out = {"contract": contract, "declarer": facts.get("declarer"), "dealer": facts.get("dealer")}
    if contract == "trischaken":
        each = facts.get("points_each") or {}
        if isinstance(facts.get("cards_each"), dict):
            each = {p: said(_thirds(c)) for p, c in facts["cards_each"].items()}
            out["piles"] = {f"tp{players.index(p)}": c for p, c in facts["cards_each"].items() if p in players}
        out["tp"] = {p: t.get("points") for p, t in each.items()}
        out["tb"] = {p: str(t["blatt"]) if t.get("blatt") else None for p, t in each.items()}
        return out
    if facts.get("schleifen"):
        out["outcome"] = "schleifen"
    elif facts.get("game_won") is not None:
        out["outcome"] = "won" if facts["game_won"] else "lost"
    if contract in CALLED:
        out["partner"] = facts.get("partner") or ALONE
    total = facts.get("declarer_points")
    if isinstance(facts.get("declarer_cards"), list):
        total = said(_thirds(facts["declarer_cards"]))
        out["piles"] = {"declarer": facts["declarer_cards"]}
    if isinstance(total, dict):
        out["points"], out["blatt"] = total.get("points"), str(total["blatt"]) if total.get("blatt") else None
    for p in facts.get("premiums") or []:
        code = ("d" if p["side"] == "declarer" else "o") + ("" if not p.get("announced") else
                                                             "a" if p.get("made", True) else "x")
        out[f"pr_{p['premium']}"] = code
        if p.get("kontra", 1) > 1:
            out[f"pk_{p['premium']}"] = str(p["kontra"])
    kontra = facts.get("game_kontra")
    if isinstance(kontra, dict) and kontra:
        out["game_kontra"], out["kontra_by"] = str(max(kontra.values())), list(kontra)
    elif isinstance(kontra, int) and kontra > 1:
        out["game_kontra"] = str(kontra)
    return out


def _thirds(cards) -> int:
    return count_pile(GAME, C.parse_pile(cards, DECK, GAME.name), {}).thirds


def summary(f: dict):
    """Say a hand in a few words: "Anna: Rufer with Carla, won", "Trischaken: Anna 30/1 · …"."""
    contract = f.get("contract")
    words = CONTRACT_WORDS.get(contract, contract)
    if contract == "trischaken":
        each = f.get("points_each")
        if isinstance(f.get("cards_each"), dict):
            try:
                each = {p: said(_thirds(c)) for p, c in f["cards_each"].items()}
            except ScoreError:
                return line("Trischaken, counted from the cards")  # a stored pile gone wrong: its row says so
        if not isinstance(each, dict):
            return line("Trischaken, counted from the cards")
        return line("Trischaken: {listing}", listing=" · ".join(
            f"{p} {t.get('points')}/{t.get('blatt', 0)}" for p, t in each.items() if isinstance(t, dict)))
    text = line("{player}: {contract}", player=f.get("declarer"), contract=words)
    if f.get("partner"):
        text = line("{hand} with {partner}", hand=text, partner=f["partner"])
    if f.get("schleifen"):
        return line("{hand}, given up", hand=text)
    total = f.get("declarer_points")
    if isinstance(total, dict):
        text = line("{hand}, {points} and {blatt} Blatt", hand=text, points=total.get("points"),
                    blatt=total.get("blatt", 0))
    elif f.get("declarer_cards") is not None:
        text = line("{hand}, counted from the cards", hand=text)
    elif f.get("game_won") is True:
        text = line("{hand}, won", hand=text)
    elif f.get("game_won") is False:
        text = line("{hand}, lost", hand=text)
    elif f.get("declarer_tricks") is not None:
        text = line("{hand}, {n} tricks", hand=text, n=f["declarer_tricks"])
    n = len(f.get("premiums") or [])
    if n:
        names = [PREMIUM_WORDS.get(p.get("premium"), p.get("premium", "")) for p in f["premiums"] if isinstance(p, dict)]
        listing = names[0] if names else ""
        for name in names[1:]:
            listing = line("{first}, {then}", first=listing, then=name)
        text = line("{hand} · {premiums}", hand=text, premiums=listing)
    if f.get("game_kontra") not in (None, 1, {}):
        text = line("{hand} · kontra", hand=text)
    return text


def rename(facts: dict, old: str, new: str) -> dict:
    """Return the facts with a player renamed (the per-player totals and kontras too)."""
    return renamed(facts, old, new, names=("declarer", "partner", "dealer"),
                   keyed=("points_each", "cards_each", "game_kontra"))


GAME = Game(
    id="koenigrufen", name=N_("Königrufen"), min_players=4, max_players=5, deck=DECK,
    counting=Counting.THIRDS, group_size=3, values=values, total=70, options=OPTIONS, two_sided=True,
    pile_warnings=pile_warnings,
    score=score, entry=entry, to_facts=to_facts, from_facts=from_facts, summary=summary, naming=NAMING,
    samples=SAMPLES, example=example, rename=rename, default_stake=10,
    # docs/rules.md §11 "Players": three play with a dummy that has its own column on the sheet
    players_hint=N_("Three players? Name the dummy (Strohmann) as the fourth: it keeps its own column, as on the "
                    "paper sheet."),
    unit_label=N_("Schriftpunkte"),
    declarer=lambda f: f.get("declarer") if f.get("contract") != "trischaken" else None,
    contract=lambda f: CONTRACT_WORDS.get(f.get("contract")),
    taken_on=line("a game called or played alone"),
)
