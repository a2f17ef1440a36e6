"""Money: payouts, running totals, rounding to real coins and the fewest transfers to settle up. Pure.

Amounts are integers in the currency's minor unit (Rappen, cents), never floats.
"""
from __future__ import annotations

from dataclasses import dataclass

# The smallest coin in minor units: Swiss francs have no 1 or 2 Rappen coins since 2007 (SNB).
COINS = {"CHF": 5, "EUR": 1}
BANK = "\N{BANK}"  # stands in for the pot when a house rule makes scores not sum to zero


@dataclass(frozen=True)
class Rounded:
    """One player's balance, exact and rounded to the coin."""

    player: str
    exact: int
    rounded: int

    @property
    def rounding(self) -> int:
        return self.rounded - self.exact


@dataclass(frozen=True)
class Transfer:
    payer: str
    payee: str
    amount: int


@dataclass(frozen=True)
class Settlement:
    balances: tuple[Rounded, ...]
    transfers: tuple[Transfer, ...]


def payouts(scores: dict[str, int], stake: int) -> dict[str, int]:
    """Return each player's money for one hand: score × stake."""
    return {p: s * stake for p, s in scores.items()}


def totals(players, hands_payouts) -> dict[str, int]:
    """Sum the hands' payouts per player (players with no hand yet at 0)."""
    out = dict.fromkeys(players, 0)
    for hand in hands_payouts:
        for p, v in hand.items():
            out[p] = out.get(p, 0) + v
    return out


def round_to_coin(balances: dict[str, int], coin: int) -> tuple[Rounded, ...]:
    """Round zero-sum balances to multiples of `coin`, each by less than a coin, keeping the sum at zero.

    Largest remainder: round everyone down, then round up those closest to the next coin until the
    sum is zero again (ties: in seating order), so no money is invented or lost.
    """
    if sum(balances.values()) != 0:
        raise ValueError("balances must sum to zero")
    floors = {p: (b // coin) * coin for p, b in balances.items()}
    ups = sum(b - floors[p] for p, b in balances.items()) // coin
    order = sorted(balances, key=lambda p: -(balances[p] - floors[p]))  # stable: seating order on ties
    chosen = {p for p in order[:ups] if balances[p] != floors[p]}
    return tuple(Rounded(p, b, floors[p] + (coin if p in chosen else 0)) for p, b in balances.items())


def fewest_transfers(balances: dict[str, int]) -> tuple[Transfer, ...]:
    """Return transfers that settle zero-sum balances (positive = receives) in the fewest payments.

    The fewest is (people who owe or are owed) minus the most groups that settle among themselves,
    found exactly over subsets (tables have at most 10 players); each group needs its size - 1.
    """
    people = [p for p, b in balances.items() if b != 0]
    if sum(balances.values()) != 0:
        raise ValueError("balances must sum to zero")
    out: list[Transfer] = []
    for group in _zero_groups(people, balances):
        out.extend(_greedy({p: balances[p] for p in group}))
    return tuple(out)


def _zero_groups(people: list[str], balances: dict[str, int]) -> list[list[str]]:
    n = len(people)
    if n > 16:  # not at a card table; settle as one group
        return [people] if people else []
    full = (1 << n) - 1
    sums = [0] * (1 << n)
    best = [0] * (1 << n)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + balances[people[low]]
        best[mask] = max(best[mask ^ (1 << i)] for i in range(n) if mask >> i & 1) + (sums[mask] == 0)
    groups, mask, start = [], full, full
    while mask:
        i = next(i for i in range(n) if mask >> i & 1 and best[mask ^ (1 << i)] + (sums[mask] == 0) == best[mask])
        mask ^= 1 << i
        if sums[mask] == 0:
            groups.append([people[j] for j in range(n) if (start ^ mask) >> j & 1])
            start = mask
    return groups


def _greedy(group: dict[str, int]) -> list[Transfer]:
    """Settle one group: the biggest debtor pays the biggest creditor, until all are square."""
    left = dict(group)
    out = []
    while any(left.values()):
        payer = min(left, key=lambda p: left[p])
        payee = max(left, key=lambda p: left[p])
        amount = min(-left[payer], left[payee])
        out.append(Transfer(payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return out


def settle(balances: dict[str, int], currency: str) -> Settlement:
    """Round balances to the currency's coin and find the fewest transfers between the players.

    Balances that don't sum to zero (a house rule that isn't zero-sum) settle against the BANK.
    """
    balances = dict(balances)
    gap = sum(balances.values())
    if gap:
        balances[BANK] = -gap
    rounded = round_to_coin(balances, COINS.get(currency, 1))
    return Settlement(rounded, fewest_transfers({r.player: r.rounded for r in rounded}))


def after_payments(balances: dict[str, int], paid) -> dict[str, int]:
    """Return the balances still open once lines were paid: each (payer, payee, amount) paid moves the payer's
    balance up and the payee's down by the amount (every player kept, at 0 when all is paid)."""
    out = dict(balances)
    for payer, payee, amount in paid:
        out[payer] = out.get(payer, 0) + amount
        out[payee] = out.get(payee, 0) - amount
    return out
