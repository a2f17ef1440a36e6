"""Who deals: the deal passes down the players in their order of play, past anyone who has left. Pure."""
from __future__ import annotations


def next_dealer(players, first_dealer: int, last_dealer: str | None, seated_then=None) -> str:
    """Return who deals next: the player after the last hand's dealer, or the first dealer.

    If the last dealer has left, the deal goes to the next player after him, in the seating of his
    hand (`seated_then`), who is still at the table.
    """
    players = list(players)
    if last_dealer in players:
        return players[(players.index(last_dealer) + 1) % len(players)]
    then = list(seated_then or [])
    if last_dealer in then:
        ring = then[then.index(last_dealer) + 1:] + then[:then.index(last_dealer)]
        for p in ring:
            if p in players:
                return p
    return players[first_dealer % len(players)]
