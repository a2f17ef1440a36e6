"""The rules pages' worked numbers: each game's sample piles counted, its example hand scored. Pure.

Every number a rules page states comes from the game's file (its SAMPLES and example()) or from the
Game object, so the page can't contradict the engine: the piles are counted with count_pile, and the
tests score each example hand with the game's score() and compare it with the example's payouts.
"""
from __future__ import annotations

from .errors import ScoreError
from .game import Example, Game, count_pile, resolve_rules


def sample_counts(game: Game) -> list[tuple[list[str], object, bool]]:
    """Count each sample pile of the game, then, where they form a real pile, all of them as one."""
    rules = resolve_rules(game, None)
    out = [(list(pile), count_pile(game, list(pile), rules), False) for pile in game.samples]
    if game.samples_combine:
        whole = [c for pile in game.samples for c in pile]
        out.append((whole, count_pile(game, whole, rules), True))
    return out


def example(game: Game) -> Example | None:
    """Return the worked settlement example for a game, None if it has none."""
    return game.example(game) if game.example else None


def engine_result(game: Game, ex: Example | None):
    """Score the example with the game's engine; None if it refuses the hand (a test fails then)."""
    if ex is None:
        return None
    try:
        result = game.score(list(ex.players), ex.hand, resolve_rules(game, None))
    except ScoreError:
        return None
    payouts = {p: s * ex.stake for p, s in result.money_units.items()}
    return result, payouts
