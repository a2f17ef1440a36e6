"""The worked examples on the rules pages: sample piles and hands, with their arithmetic. Pure.

Every number a rules page states comes from here or from the Game object, so the page can't
contradict the engine: the piles are counted with count_pile, and tests score each example hand with
the game's score() (when it exists) and compare it with the payouts below.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from .errors import ScoreError
from .games import Game, count_pile, resolve_rules

PLAYERS = ("Anna", "Beat", "Carla", "Dario", "Elsa", "Fritz", "Gret", "Hans")


@dataclass(frozen=True)
class Example:
    """A hand to settle on the page: the facts as API.md names them, and what each player gets."""

    players: list[str]
    hand: dict
    stake: int
    payouts: dict[str, int]  # the page's own arithmetic, checked against score() by the tests
    numbers: dict = field(default_factory=dict)  # the figures the page's sentences quote


# Piles counted on each page. The groups come from the sources' own examples where they give one.
SAMPLE_PILES = {
    # A Tappist's discards and a few tricks: direct sum (troggu-visp-de.txt "Wert der Karten").
    "troggu": [["T21", "SW-K", "CU-Q", "BA-C", "CO-J", "T7", "SW-5", "CU-1"]],
    # The SCA Troccas text's groups of four, then the dealer's two odd cards (italian-swiss-archive.txt).
    "troccas": [["SW-K", "CU-Q", "BA-J", "CO-5"], ["T7", "CU-Q", "SW-C", "BA-6"], ["T2", "T3", "T4", "FOOL"],
                ["T21", "T1", "SW-Q", "CO-6"], ["SW-C", "CU-6"]],
    # Four oudler/king pairs and two more pairs: FFT pair counting (french-tarot-wikipedia.txt).
    "french_tarot": [["T21", "T7", "SW-K", "CU-3", "FOOL", "BA-10", "CO-Q", "CO-9", "CO-J", "CO-8"]],
    # The letter's groups of three (a king, 10 and 5; the Mage, a queen and another card), then low cards.
    "scarto": [["SW-K", "SW-10", "SW-5"], ["T1", "CU-Q", "BA-4"], ["T21", "T5", "CO-3"], ["SW-C", "CU-J"],
               ["FOOL"]],
    "mitigati": [["T20", "T1", "FOOL", "SW-K", "T21", "CU-3"]],
    # Dummett's two tricks (italian-swiss-archive.txt, Swiss Tarot): 3 + 4 + 5 − 2 and 5 + 5 − 1.
    "swiss_tarot_1659": [["SW-C", "SW-Q", "FOOL"], ["T21", "T1", "T13"], ["T8", "CU-4", "BA-9"]],
    "triomphe_forcee": [],
}


# Games whose sample groups also make a real pile together (in Scarto the Matto's owner and the
# winner of its trick are different players, so its samples stay apart).
COMBINED = {"troccas", "swiss_tarot_1659"}


def sample_counts(game: Game) -> list[tuple[list[str], object, bool]]:
    """Count each sample pile of the game, then, where they form a real pile, all of them as one."""
    rules = resolve_rules(game, None)
    piles = SAMPLE_PILES.get(game.id, [])
    out = [(pile, count_pile(game, pile, rules), False) for pile in piles]
    if game.id in COMBINED:
        whole = [c for pile in piles for c in pile]
        out.append((whole, count_pile(game, whole, rules), True))
    return out


def _troggu(game: Game) -> Example:
    # troggu-visp-de.txt: 58 or more wins; the losers pay each winner the base (10 Rappen);
    # under 30 points double, a Match triple; the partner at 7 or 8 players gets 2 bases.
    from .games import troggu as tg
    rules = resolve_rules(game, None)
    players = list(PLAYERS[:5])
    tappist_points = 63
    opponents_points = game.total - tappist_points
    base = game.default_stake
    each = base  # the opponents have 30 or more: single
    payouts = {p: -each for p in players[1:]}
    payouts[players[0]] = each * (len(players) - 1)
    cards = len(game.deck)
    tapps = {**tg.TAPP, 4: rules["tapp_4p"]}
    other_4p = [v for v in game.options["tapp_4p"].choices if v != rules["tapp_4p"]]
    numbers = {"tappist": players[0], "points": tappist_points, "opponents": opponents_points,
               "win": tg.WIN, "half": tg.DRAW, "low": tg.LOW, "base": base,
               "n_opponents": len(players) - 1, "each": each, "gain": payouts[players[0]],
               "table": [(mult, base * mult, 2 * base * mult) for mult in (1, 2, 3)],
               "deal": [(n, (cards - tapp) // n, tapp) for n, tapp in sorted(tapps.items())],
               "deal_4p_other": [((cards - tapp) // 4, tapp) for tapp in other_4p],
               "partner_units": tg.PARTNER_UNITS, "partner_tables": tg.PARTNER_TABLE,
               # 7 players with a partner: 5 opponents pay 1 base each; partner 2, the Tappist the rest.
               "seven": {"opponents": 5, "partner": tg.PARTNER_UNITS * base,
                         "tappist": (5 - tg.PARTNER_UNITS) * base, "each": base},
               "eight_tappist": 6 - tg.PARTNER_UNITS}
    hand = {"contract": "normal", "declarer": players[0], "declarer_points": tappist_points}
    return Example(players, hand, base, payouts, numbers)


def _troccas(game: Game) -> Example:
    # troccas-wikipedia.txt: points over or below 36; RULES.md §1: each member is credited his team's score.
    from .games import troccas as tc
    players = list(PLAYERS[:4])
    baseline = tc.BASELINE
    team_points = 40
    diff = team_points - baseline
    payouts = {players[0]: diff, players[2]: diff, players[1]: -diff, players[3]: -diff}
    numbers = {"points": team_points, "other": game.total - team_points, "baseline": baseline, "diff": diff,
               "scart": tc.SCART}
    hand = {"teams": [[players[0], players[2]], [players[1], players[3]]], "side": players[0],
            "points": team_points}
    return Example(players, hand, 1, payouts, numbers)


def _french_tarot(game: Game) -> Example:
    # french-tarot-wikipedia.txt: garde sans won by 12 with a single poignée, ((25 + 12) × 4) + 20 = 168.
    from .games import french_tarot as ft
    rules = resolve_rules(game, None)
    players = list(PLAYERS[:4])
    oudlers, points = 2, 53
    threshold = ft.THRESHOLDS[oudlers]
    margin = points - threshold
    multiplier = ft.MULTIPLIERS["garde_sans"]
    bonus = rules["poignee_bonus"][0]
    unit = (ft.BASE + margin) * multiplier + bonus
    payouts = {p: -unit for p in players[1:]}
    payouts[players[0]] = unit * (len(players) - 1)
    multipliers = {**ft.MULTIPLIERS, "garde_contre": rules["garde_contre_multiplier"]}
    numbers = {"taker": players[0], "points": points, "oudlers": oudlers, "threshold": threshold,
               "margin": margin, "multiplier": multiplier, "bonus": bonus, "unit": unit, "base": ft.BASE,
               "gain": payouts[players[0]], "thresholds": sorted(ft.THRESHOLDS.items()),
               "contracts": [(ft.CONTRACTS[c], multipliers[c]) for c in ft.CONTRACTS],
               "poignee": rules["poignee_bonus"], "poignee_trumps": ft.POIGNEE_TRUMPS,
               "poignee_5p": rules["poignee_thresholds_5p"], "petit": ft.PETIT_AU_BOUT,
               "chelem": ft.CHELEM, "defence_chelem": rules["defence_chelem_bonus"],
               "deal": [(n, (len(game.deck) - chien) // n, chien) for n, chien in sorted(ft.CHIEN.items())],
               # 3 players, prise, 2 oudlers: 40.5 against 41 loses by 1 (FFT, via normandie-tarot.org).
               "half_threshold": ft.THRESHOLDS[2], "half_points": ft.THRESHOLDS[2] - Fraction(1, 2),
               "half_unit": ft.BASE + 1}
    hand = {"taker": players[0], "contract": "garde_sans", "points": points, "oudlers": oudlers,
            "poignees": [{"player": players[0], "size": "single"}]}
    return Example(players, hand, 1, payouts, numbers)


def _baseline_game(game: Game, piles: list[int], baseline: int) -> Example:
    # italian-swiss-archive.txt: each player scores relative to the average (26 of 78, 43 of 129).
    players = list(PLAYERS[:3])
    points = dict(zip(players, piles))
    payouts = {p: points[p] - baseline for p in players}
    numbers = {"points": points, "baseline": baseline, "rows": [(p, points[p], payouts[p]) for p in players]}
    return Example(players, {"points": points}, 1, payouts, numbers)


def _mitigati(game: Game) -> Example:
    from .games import mitigati
    example = _baseline_game(game, [38, 50, 41], mitigati.BASELINE)  # Phil: "a score of 38 should be converted to -5"
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


def _scarto(game: Game) -> Example:
    from .games import scarto
    return _baseline_game(game, [30, 20, 28], scarto.BASELINE)  # Phil: "a score of 30 should be converted to +4"


def _swiss(game: Game) -> Example:
    from .games import swiss_tarot_1659 as swiss
    return _baseline_game(game, [30, 24, 24], swiss.BASELINE)


def _triomphe(game: Game) -> Example:
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
    from .games import triomphe_forcee as tf
    numbers = {"ante": ante, "pot": pot, "rest": rest, "force": rules["force_trump"], "tricks": tricks,
               "la_mort": tf.LA_MORT, "n_tricks": tf.TRICKS,
               "rows": [(p, wins.get(p, 0), payouts[p]) for p in players]}
    hand = {"la_mort": None, "declarations": {players[0]: ["FOOL"], players[1]: [rules["force_trump"]]},
            "tricks": tricks}
    return Example(players, hand, ante, payouts, numbers)


EXAMPLES = {
    "troggu": _troggu,
    "troccas": _troccas,
    "french_tarot": _french_tarot,
    "scarto": _scarto,
    "mitigati": _mitigati,
    "swiss_tarot_1659": _swiss,
    "triomphe_forcee": _triomphe,
}


def example(game: Game) -> Example | None:
    """Return the worked settlement example for a game, None if it has none."""
    make = EXAMPLES.get(game.id)
    return make(game) if make else None


def engine_result(game: Game, ex: Example | None):
    """Score the example with the game's engine; None while score() isn't written or refuses the hand."""
    if ex is None or game.score is None:
        return None
    try:
        result = game.score(list(ex.players), ex.hand, resolve_rules(game, None))
    except ScoreError:
        return None
    payouts = {p: s * ex.stake for p, s in result.scores.items()}
    return result, payouts

