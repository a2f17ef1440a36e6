"""A round's clock (issue 38 item 1: "or a time limit the director closes"), as every page of the round shows it:
the director's and the watch page, the projector, the player's page and the round's tables' own pages. The server
writes the end as a clock time and the minutes left when the page was made (enough without scripts);
static/round_clock.js counts down each second from the server's end and now, with no poll of its own. At zero it says
the time is up; the director still closes the round (ending the unfinished tables), as without a clock."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from flask_babel import format_time
from flask_babel import gettext as _

from .. import store

MOST_MINUTES = 600  # ten hours: a round's clock, the new cup's form's and the director's


@dataclass(frozen=True)
class Clock:
    """The round being played's clock, as a page shows it: its round, its end (UTC, and as the app's clock time),
    the server's now, the whole minutes left then (rounded up), and whether the time is up."""

    round: int
    ends: str  # ISO 8601 in UTC, read by static/round_clock.js
    now: str
    at: str  # the end as a clock time in the app's time zone (BABEL_DEFAULT_TIMEZONE), for a page without scripts
    minutes_left: int
    up: bool


@dataclass(frozen=True)
class CupRound:
    """What a cup table's page says of its round (table/_cup-round.html): the sentence a Save would be refused with
    once the director closed it, and its clock if one runs. `tag` names it: the page's poll sends it back
    (X-Cup-Round, static/board.js) and is brought the round again when the director closed it or set its clock,
    which moves no table's version on (web/table/live.py)."""

    closed: str | None
    clock: Clock | None

    @property
    def tag(self) -> str:
        return f"{'closed' if self.closed else 'open'}.{self.clock.ends if self.clock else 'none'}"


def clock_of(cup, round_no: int) -> Clock | None:
    """The clock of round `round_no` if it is the one being played and has one, else None."""
    if cup.round_ends_at is None or round_no < 1 or cup.closed_rounds >= round_no:
        return None
    now = datetime.now(timezone.utc)
    left = (cup.round_ends_at - now).total_seconds()
    return Clock(round_no, _iso(cup.round_ends_at), _iso(now), format_time(cup.round_ends_at, "short"),
                 max(0, -int(-left // 60)), left <= 0)


def _iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def cup_round(table, found=...) -> CupRound | None:
    """At a cup's table, its round as the page says it (closed, its clock); None at any other table. `found`:
    store.tournament_of_table's answer if read already."""
    found = store.tournament_of_table(table.id) if found is ... else found
    if found is None:
        return None
    return CupRound(round_closed(table, found), clock_of(found[0], found[1].round))


def round_closed(table, found=...) -> str | None:
    """At a cup's table whose round the director closed (and didn't open it for a correction), the sentence a Save
    would be refused with; else None. `found`: store.tournament_of_table's answer if read already."""
    found = store.tournament_of_table(table.id) if found is ... else found
    if found is None:
        return None
    cup, placed = found
    if cup.closed_rounds < placed.round or placed.reopened:
        return None
    return closed_hands(placed.round)


def closed_hands(round_no: int) -> str:
    """Say that a closed round's table takes no more hands."""
    return _("Round %(n)s of the cup is closed: this table takes no more hands. Ask the director if a hand is "
             "missing.", n=round_no)
