"""Who may sit at a table, at what stake, under which house rules: the one check that opening a table
(table_form), changing it (table/setup) and importing it (exports) all apply, in the same words.

A table that got past one of them and not the others could be opened but never changed again (two players
"Anna" and "anna": every change of the table is refused), or break its pages; so there is one check.
"""
from __future__ import annotations

import re

from flask_babel import gettext as _

from ..engine.errors import ScoreError
from ..engine.games import check_count, resolve_rules
from .bounds import MAX_NAME, invisible
from .l10n import amount_field, say

MAX_STAKE = 1_000_000  # minor units: 10,000 francs or euros a unit (table_form.money_minor reads a typed amount)



def tidy(name: str) -> str:
    """Write a name as every form stores it: no spaces around it, one space between its words. Only the space
    itself is tidied: a tab, a line break or another invisible character is left for check_seating to refuse."""
    return re.sub(" {2,}", " ", name.strip(" "))

def name_problem(name: str) -> str | None:
    """Say what is wrong with one player's name (trimmed, not empty), or None."""
    if invisible(name):
        return _("A name can't hold invisible or control characters (such as a zero-width space, a line break or "
                 "a NUL).")
    if len(name) > MAX_NAME:
        return _("A name has at most %(n)s characters, and no invisible ones.", n=MAX_NAME)
    return None


def stake_problem(stake: int) -> str | None:
    """Say what is wrong with a stake in minor units (Rappen, cents), or None."""
    if stake <= 0:
        return _("Write an amount above zero with at most two decimals, such as %(example)s.", example=amount_field(10))
    if stake > MAX_STAKE:
        return _("That stake is too high for a card table (at most 10,000).")
    return None


def check_seating(names: list[str], game, rules: dict | None = None, stake: int | None = None) -> dict[str, str]:
    """Check the players (trimmed names, in their seats), the stake and the house rules of a table.

    Return {field: message}, empty if all is well: "name<i>" for the name in seat i (a name that repeats
    another, whatever its capitals and spaces, at the later seat), "players" for their number, "stake",
    "rules" for house rules the game doesn't have or values it doesn't take, "rule_<option>" for a value
    that can't be played.
    `rules` None: the house rules are checked by the caller (a form whose rule fields didn't all read);
    `stake` None: no stake to check.
    """
    errors: dict[str, str] = {}
    seen = set()
    for i, name in enumerate(names):
        same = " ".join(name.split()).casefold()  # "anna" and "Anna ", as the change form writes them, are Anna
        problem = name_problem(name)
        if problem is None and same in seen:
            problem = _("Two players can't have the same name.")
        if problem is not None:
            errors[f"name{i}"] = problem
        seen.add(same)
    if stake is not None:
        problem = stake_problem(stake)
        if problem is not None:
            errors["stake"] = problem
    if rules is not None:
        try:
            resolved = resolve_rules(game, rules)
        except ScoreError as e:
            errors["rules"] = say(e)
        else:
            for option, problem in game.rule_problems(resolved).items():
                errors["rule_" + option] = say(problem)
            try:
                check_count(game, len(names), low=game.players_allowed(resolved).start)
            except ScoreError as e:
                errors["players"] = say(e)
    return errors
