"""The evening in numbers: per player, hands taken on and won, best and worst hand, biggest payout;
per contract (where the game has them), how often it was taken and made. Worked out from the board.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .l10n import say



@dataclass
class PlayerNumbers:
    """One player's evening."""

    name: str
    hands: int = 0  # hands played
    declared: int = 0  # hands this player took on (Tappist, soloist, taker)
    won: int = 0  # of those, the ones this player won
    best: int | None = None  # the best single hand, in the game's unit
    worst: int | None = None
    biggest: int = 0  # the biggest single payout received, in minor units


@dataclass
class Numbers:
    players: list = field(default_factory=list)
    contracts: list = field(default_factory=list)  # [(contract in words, taken, made)]
    has_declarer: bool = False


def numbers(b) -> Numbers:
    """Count the evening from the board's rows (hands the engine refused are left out)."""
    game = b.game
    players = {p: PlayerNumbers(p) for p in b.players}
    contracts: dict = {}
    out = Numbers(has_declarer=False)
    for r in b.rows:
        if r.error:
            continue
        for p, units in r.scores.items():
            n = players[p]
            n.hands += 1
            n.best = units if n.best is None else max(n.best, units)
            n.worst = units if n.worst is None else min(n.worst, units)
            n.biggest = max(n.biggest, r.payouts.get(p, 0))
        who = game.declarer(r.hand.facts)
        if who in players:
            out.has_declarer = True
            players[who].declared += 1
            made = r.scores.get(who, 0) > 0
            players[who].won += made
            word = game.contract(r.hand.facts)
            if word is not None:
                key = say(word)
                taken, done = contracts.get(key, (0, 0))
                contracts[key] = (taken + 1, done + made)
    out.players = list(players.values())
    out.contracts = [(k, t, m) for k, (t, m) in contracts.items()]
    return out


def as_json(n: Numbers) -> dict:
    """The evening in numbers for the JSON export."""
    return {"players": [{"name": p.name, "hands": p.hands, "declared": p.declared, "won": p.won, "best": p.best,
                         "worst": p.worst, "biggest_payout": p.biggest} for p in n.players],
            "contracts": [{"contract": c, "taken": t, "made": m} for c, t, m in n.contracts]}
