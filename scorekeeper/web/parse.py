"""Reading what people type: whole numbers, points (whole or half), money into minor units. One place for the
bounds that come before any arithmetic: ASCII digits only (int() also reads '٣' and '１２'), at most nine of them
(int() of 5000 digits is slow, and a number must fit an SQL INTEGER), never an exponent (Decimal reads 9e999999).
"""
from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

from flask_babel import gettext as _
from flask_babel import to_user_timezone

from .l10n import amount_field
from .seating_check import stake_problem

WHOLE = re.compile(r"[+-]?[0-9]{1,9}")  # typed points: nine digits, a sign
HALF = re.compile(r"([0-9]{1,9})(?:[.,]([0-9]{1,9}))?")  # 40.5 or 40,5
# An amount as people write it: 0.10, 0,05, .5, 1'000; never NaN, Infinity or 1_000 (all of which Decimal reads).
MONEY = re.compile(r"[0-9]{1,9}(?:\.[0-9]{0,9})?|\.[0-9]{1,9}")


def digits(text, most: int = 9) -> int | None:
    """Return `text` as a whole number if it is written in at most `most` ASCII digits (no sign), else None."""
    text = (text or "").strip()
    return int(text) if text.isascii() and text.isdecimal() and len(text) <= most else None


def amount_minor(text: str) -> int:
    """Parse an amount such as 0.10, 0,05 or 1 into minor units (Rappen, cents), above zero. Raise ValueError with
    the player's words."""
    text = (text or "").strip().replace(",", ".").replace("'", "")
    if MONEY.fullmatch(text) is None:  # checked before Decimal sees it: at most 19 characters
        raise ValueError(_("Write an amount such as %(example)s.", example=amount_field(10)))
    minor = Decimal(text) * 100
    if minor != minor.to_integral_value() or minor <= 0:
        raise ValueError(_("Write an amount above zero with at most two decimals, such as %(example)s.",
                           example=amount_field(10)))
    return int(minor)


def money_minor(text: str) -> int:
    """Parse a stake such as 0.10 into minor units: above zero, at most 10,000 (as a change of the table and an
    import say). Raise ValueError with the player's words."""
    minor = amount_minor(text)
    problem = stake_problem(minor)
    if problem is not None:
        raise ValueError(problem)
    return minor


FIRST_DAY = date(1900, 1, 1)
AHEAD = timedelta(days=366)  # an evening may be set up to a year ahead (a cup night planned), no further


def evening_day(text: str, today: date) -> date:
    """Read the day an evening was played, as a date field sends it (2026-11-27): from 1900 to a year after
    `today`. Raise ValueError with the player's words."""
    text = (text or "").strip()
    try:
        day = date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise ValueError(_("Write a date such as 2026-11-27."))
    if day < FIRST_DAY:
        raise ValueError(_("Write a date from 1900 on."))
    if day > today + AHEAD:
        raise ValueError(_("That day is more than a year away: write the day the evening is played."))
    return day


def today() -> date:
    """Today in the app's time zone (BABEL_DEFAULT_TIMEZONE: where the tables are)."""
    return to_user_timezone(datetime.now(timezone.utc)).date()
