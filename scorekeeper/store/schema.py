"""The schema: the SQL tables and the dataclasses the store returns instead of rows.

Changing a table here needs an Alembic migration in migrations/versions.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timezone

from sqlalchemy import (JSON, Boolean, Column, Date, DateTime, ForeignKey, Integer, MetaData, String, Table, Text,
                        UniqueConstraint, false, true)

metadata = MetaData()

tables = Table(
    "tables", metadata,
    Column("id", String(64), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", JSON, nullable=False),
    Column("rules", JSON, nullable=False),
    Column("stake", Integer, nullable=False),  # money per unit, in the currency's minor unit (Rappen, cents)
    Column("currency", String(8), nullable=False),
    Column("first_dealer", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # the circle (the same players, evening after evening) this table's evening belongs to, if any
    Column("circle_id", String(64), ForeignKey("circles.id", ondelete="SET NULL"), nullable=True, index=True),
    # the day the evening was played, as its table says (None: the day it was opened, UTC; migration 0011)
    Column("played_on", Date, nullable=True),
)

# A phone's list of tables and circles on its way to another phone (a QR code): encrypted on the phone, with a key
# that never leaves the phones (the link's #fragment); kept a day. The server holds what it can't read.
lists = Table(
    "lists", metadata,
    Column("id", String(32), primary_key=True),
    Column("body", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False, index=True),
)

circles = Table(
    "circles", metadata,
    Column("id", String(64), primary_key=True),  # never shown: a circle is reached through its links
    Column("name", String(80), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # what its watch link shows besides the evenings and scores: the money, and the people ranked
    Column("watch_money", Boolean, nullable=False, server_default=true()),
    Column("watch_ranking", Boolean, nullable=False, server_default=true()),
    # the pot's rule: what each hand lost by whoever took it on pays into the pot, in minor units (0: none)
    Column("pot_per_lost_hand", Integer, nullable=False, server_default="0"),
)

circle_links = Table(
    "circle_links", metadata,
    Column("key", String(64), primary_key=True),
    Column("circle_id", String(64), ForeignKey("circles.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("role", String(8), nullable=False),  # scorer (opens evenings, adds tables) or viewer
    Column("active", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# a cup night (issue 38): one game and house rules for every table, its rounds and games per round, the draw's
# seed; closed_rounds counts the rounds the director closed; version moves on with every change of its own
tournaments = Table(
    "tournaments", metadata,
    Column("id", String(64), primary_key=True),  # never shown: reached through its links
    Column("name", String(80), nullable=False),
    Column("held_on", Date, nullable=False),
    Column("game", String(32), nullable=False),
    Column("rules", JSON, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("games_per_round", Integer, nullable=False),
    Column("seed", Integer, nullable=False),
    Column("closed_rounds", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # how it ranks (engine/cup.py Ranking): the rule, its N, the rate (minor units a point, its tables' stake), the
    # currency, what goes to the pot
    Column("ranking", String(8), nullable=False, server_default="points"),
    Column("ranking_n", Integer, nullable=False, server_default="0"),
    Column("rate", Integer, nullable=False, server_default="0"),
    Column("currency", String(8), nullable=False, server_default="EUR"),
    Column("pot", String(8), nullable=False, server_default="none"),
    Column("watch_money", Boolean, nullable=False, server_default=true()),  # what its watch link shows
    # the circle whose season it counts in (issue 38 item 9), as a table's evening: tables.circle_id
    Column("circle_id", String(64), ForeignKey("circles.id", ondelete="SET NULL"), nullable=True, index=True),
    # a round's clock (issue 38 item 1): the minutes a round is given when drawn (0: no clock), and when the round
    # being played ends (server time: set when it is drawn, or by the director; none once it is closed)
    Column("round_minutes", Integer, nullable=False, server_default="0"),
    Column("round_ends_at", DateTime(timezone=True), nullable=True),
    # the entry fee (Startgeld) each player who plays pays into the cup's pot, minor units (0: none)
    Column("entry_fee", Integer, nullable=False, server_default="0"),
)

tournament_links = Table(
    "tournament_links", metadata,
    Column("key", String(64), primary_key=True),
    Column("tournament_id", String(64), ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("role", String(8), nullable=False),  # scorer (the director) or viewer (the watch link)
    Column("active", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# start numbers are never reused: a player who drops stays, inactive, with the number
tournament_players = Table(
    "tournament_players", metadata,
    Column("tournament_id", String(64), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("name", String(64), nullable=False),
    Column("active", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("fixed_table", Integer, nullable=True),  # mobility: the table number the next draws seat them at
)

# each round's tables: a real table of the app, and the start numbers in its seats (its players' order)
tournament_tables = Table(
    "tournament_tables", metadata,
    Column("tournament_id", String(64), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("table_id", String(64), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("seats", JSON, nullable=False),
    # a closed round's table the director opened for a correction: it takes edits again until closed again
    Column("reopened", Boolean, nullable=False, server_default=false()),
    Column("games", Integer, nullable=True),  # its games this round (engine/cup.py games_at); None: the cup's
)

# the director's corrections after a round closed: a table opened for a correction ("reopen") and closed again
# ("close"), in order; the table's own changes log holds what was corrected (each hand's edit, undoable there)
tournament_log = Table(
    "tournament_log", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", String(64), ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("kind", String(16), nullable=False),
    Column("round", Integer, nullable=False),
    Column("number", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# a settle-up line marked paid: an evening's (table_id) or a circle's season's (circle_id, no table); Undo marks it
# undone, so the list says what was paid and taken back
payments = Table(
    "payments", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(64), ForeignKey("tables.id", ondelete="CASCADE"), nullable=True, index=True),
    Column("circle_id", String(64), ForeignKey("circles.id", ondelete="CASCADE"), nullable=True, index=True),
    Column("payer", String(64), nullable=False),
    Column("payee", String(64), nullable=False),
    Column("amount", Integer, nullable=False),  # minor units (Rappen, cents), above zero
    Column("currency", String(8), nullable=False),
    Column("token", String(64), nullable=True, unique=True),  # the form's idempotency token
    Column("undone", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# a circle's pot (Kasse): a ledger whose balance is the sum of its live entries, in each currency
pot_entries = Table(
    "pot_entries", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("circle_id", String(64), ForeignKey("circles.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("amount", Integer, nullable=False),  # minor units: above zero goes in, below zero comes out
    Column("currency", String(8), nullable=False),
    Column("who", String(64), nullable=True),  # who paid in or took out, if a person
    Column("note", String(80), nullable=False),
    Column("token", String(64), nullable=True, unique=True),
    Column("undone", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# the pot's rule as it changed (issue 36): from which day (NULL: from the start) each hand lost by whoever took it on
# pays how much in; an evening counts under the rule in force on its day. None kept: circles.pot_per_lost_hand counts
# every evening (as before there was this table)
# how a circle's cups add up over its season (issue 38 item 9; engine/season_cup.py): none: the sum
circle_cup_rules = Table(
    "circle_cup_rules", metadata,
    Column("circle_id", String(64), ForeignKey("circles.id", ondelete="CASCADE"), primary_key=True),
    Column("rule", String(8), nullable=False),  # sum, best, places
    Column("n", Integer, nullable=False),  # the best N cups
    Column("places", JSON, nullable=False),  # the cup points of place 1, 2, …
)

pot_rules = Table(
    "pot_rules", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("circle_id", String(64), ForeignKey("circles.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("first_day", Date, nullable=True),
    Column("per_lost_hand", Integer, nullable=False),  # minor units (0: no rule from that day)
)

# a rename or merge of a circle's person (issue 36), kept so that its Undo takes back exactly what it changed, in
# every evening, as one change: `rows` names them ({"tables": {table_id: {old: new}}, "paid": [[id, payer, payee]],
# "pot": [[id, who]], "evenings": [the circle's table ids then]}: the circle's lines and pot entries as they were)
circle_changes = Table(
    "circle_changes", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("circle_id", String(64), ForeignKey("circles.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("old", String(64), nullable=False),
    Column("new", String(64), nullable=False),
    Column("merged", Boolean, nullable=False),  # two people became one (the new name was already someone's)
    Column("rows", JSON, nullable=False),
    Column("token", String(64), nullable=True, unique=True),  # the rename form's token
    Column("undone", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

hands = Table(
    "hands", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(64), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("number", Integer, nullable=False),  # order of play; never reused, even after a delete
    Column("facts", JSON(none_as_null=True), nullable=True),  # the docs/api.md hand; NULL while deleted
    Column("dealer", String(64), nullable=True),  # who dealt it: a fact of the hand, set when it is added
    Column("setup", JSON(none_as_null=True), nullable=True),  # {players, stake, rules} in force for this hand
    Column("version", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("table_id", "number", name="uq_hands_table_number"),
)

changes = Table(
    "changes", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(64), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("hand_id", Integer, ForeignKey("hands.id", ondelete="CASCADE"), nullable=True),  # NULL: a change of the table itself
    Column("kind", String(8), nullable=False),  # add, edit, delete, undo
    Column("before", JSON(none_as_null=True), nullable=True),  # the hand's facts before the change (NULL: none/deleted)
    Column("after", JSON(none_as_null=True), nullable=True),
    Column("token", String(64), nullable=True, unique=True),  # the form's idempotency token
    Column("undone", Boolean, nullable=False, default=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


@dataclass(frozen=True)
class TableInfo:
    """A table: its game, players in order of play, house rules, stake and first dealer."""

    id: str
    game: str
    players: tuple[str, ...]
    rules: dict
    stake: int
    currency: str
    first_dealer: int
    version: int
    created_at: datetime
    circle_id: str | None = None  # the circle whose evening it is, if any
    played_on: date | None = None  # the day it was played, if set (else the day it was opened)

    @property
    def day(self) -> date:
        """The day the evening was played: the one set at the table, else the day it was opened (UTC)."""
        if self.played_on is not None:
            return self.played_on
        when = self.created_at if self.created_at.tzinfo else self.created_at.replace(tzinfo=timezone.utc)
        return when.astimezone(timezone.utc).date()


@dataclass(frozen=True)
class Hand:
    """One live hand: its number in the evening, its facts and its version."""

    id: int
    number: int
    facts: dict
    version: int
    created_at: datetime
    updated_at: datetime
    dealer: str | None = None  # who dealt this hand (None only for a hand imported without one)
    setup: dict | None = None  # {players, stake, rules} in force when it was played (None: the table's)


@dataclass(frozen=True)
class Change:
    """One entry of a table's change log (a change of the table itself has no hand number)."""

    id: int
    hand_number: int | None
    kind: str
    created_at: datetime


@dataclass(frozen=True)
class Added:
    """A hand just added, with the table as that write left it and the change that logged it: all that a
    Save's answer says, without reading them back. Both are None when the form had been posted before
    (a repeat writes nothing, and the table may have moved on since)."""

    hand: Hand
    table: TableInfo | None = None
    change: Change | None = None
    # asked with `since` (store.save_hand): the hands other phones added from that version to just before this
    # one, oldest first, read in the same write; None if not asked, or if anything but adding happened
    before: list | None = None


class NotFound(LookupError):
    """No such table or hand."""


class Full(Exception):
    """The table already has as many hands as one table may hold (`limit`)."""

    def __init__(self, limit: int):
        super().__init__(f"full at {limit} hands")
        self.limit = limit


class Moved(Exception):
    """The table changed since the form was made (its setup, its version, its last change)."""


class Stale(Exception):
    """The hand changed since the form was loaded (its version moved on)."""

    def __init__(self, hand: Hand):
        super().__init__("stale")
        self.hand = hand


links = Table(
    "links", metadata,
    Column("key", String(64), primary_key=True),
    Column("table_id", String(64), ForeignKey("tables.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("role", String(8), nullable=False),  # viewer or scorer
    Column("active", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

CREATOR, SCORER, VIEWER = "creator", "scorer", "viewer"


@dataclass(frozen=True)
class Access:
    """What a link opens: the table, the link's role, and whether the link still works."""

    table_id: str
    role: str
    active: bool
    table: "TableInfo | None" = field(default=None, compare=False)  # the table as the key was looked up


@dataclass(frozen=True)
class Circle:
    """A circle: its name, and what the link it was reached by may do (scorer or viewer)."""

    id: str
    name: str
    created_at: datetime
    role: str = VIEWER
    active: bool = True
    watch_money: bool = True  # what its watch link shows: the money, the people ranked
    watch_ranking: bool = True
    pot_per_lost_hand: int = 0  # minor units each hand lost by whoever took it on pays into the pot

    def shows_money(self) -> bool:
        """Whether the link it was reached by shows the money (a scorer's always does)."""
        return self.role == SCORER or self.watch_money

    def shows_ranking(self) -> bool:
        return self.role == SCORER or self.watch_ranking


@dataclass(frozen=True)
class CircleChange:
    """A rename or a merge of one of a circle's people: the names, the evenings it changed, whether it was undone."""

    id: int
    old: str
    new: str
    merged: bool
    evenings: int
    undone: bool
    created_at: datetime
    since: tuple[str, ...] = ()  # (once undone) the circle's evenings joined after it that have the new name


class CantUndo(Exception):
    """A circle's rename or merge that can't be undone (nothing was): `why` is "undone" (it already was), "later"
    (a later rename comes first: `later` is it), "gone" (no such change), or "seated" (`table_id` has the old name
    at its table again)."""

    def __init__(self, why: str, later: CircleChange | None = None, table_id: str | None = None):
        super().__init__(why)
        self.why, self.later, self.table_id = why, later, table_id


@dataclass(frozen=True)
class Tournament:
    """A cup night as a link of `role` sees it (scorer: its director; viewer: its watch link)."""

    id: str
    name: str
    held_on: date
    game: str
    rules: dict
    rounds: int
    games_per_round: int
    seed: int
    closed_rounds: int
    version: int
    created_at: datetime
    role: str = VIEWER
    active: bool = True
    ranking: str = "points"
    ranking_n: int = 0
    rate: int = 0
    currency: str = "EUR"
    pot: str = "none"
    watch_money: bool = True  # the watch link shows the standings' money and the pot (the director decides)
    circle_id: str | None = None  # the circle whose season it counts in (issue 38 item 9)
    round_minutes: int = 0  # a round's clock (issue 38 item 1): the minutes a round is given when drawn (0: none)
    round_ends_at: datetime | None = None  # when the round being played ends (UTC), or None: no clock running
    entry_fee: int = 0  # what each player who plays pays into the cup's pot (minor units; 0: none)

    def shows_money(self) -> bool:
        """Whether this link sees the money: the director always, a watch link as the director decided."""
        return self.role == SCORER or self.watch_money


@dataclass(frozen=True)
class Entrant:
    """A player of a cup: the start number (never reused), the name, whether still playing, a fixed table
    (mobility: the next draws seat them at that table's number; None: anywhere)."""

    number: int
    name: str
    active: bool
    fixed_table: int | None = None


@dataclass(frozen=True)
class CupTable:
    """A round's table: its number in the round, the app's table, the start numbers by seat, whether the director
    opened it for a correction after its round closed."""

    round: int
    number: int
    table_id: str
    seats: tuple
    reopened: bool = False
    games: int | None = None  # its games this round, by its size (None: the cup's games per round)


class RoundOpen(Exception):
    """The round isn't closed yet (or, closing: a table isn't in, and the director didn't say to end it)."""


class RoundClosed(Exception):
    """A hand for a cup's table whose round the director closed: the table takes no more (`round`)."""

    def __init__(self, round_no: int):
        super().__init__(round_no)
        self.round = round_no


class RoundFull(Exception):
    """A hand beyond the round's count at a cup's table (`games`: the games per table and round)."""

    def __init__(self, games: int):
        super().__init__(games)
        self.games = games


class NameTaken(Exception):
    """Another player of the cup already has that name."""


def table_info(row) -> TableInfo:
    """Return a table's row (or a row holding the tables columns) as the TableInfo the rest of the app uses."""
    return TableInfo(row.id, row.game, tuple(row.players), dict(row.rules), row.stake, row.currency,
                     row.first_dealer, row.version, row.created_at, getattr(row, "circle_id", None),
                     getattr(row, "played_on", None))


@dataclass(frozen=True)
class Payment:
    """A settle-up line marked paid: who paid whom how much, when; of an evening (table_id) or a season."""

    id: int
    table_id: str | None
    payer: str
    payee: str
    amount: int
    currency: str
    created_at: datetime


@dataclass(frozen=True)
class PotEntry:
    """Money into (amount above zero) or out of a circle's pot, with who and why."""

    id: int
    amount: int
    currency: str
    who: str | None
    note: str
    created_at: datetime


class InAnotherCircle(Exception):
    """The table is already an evening of another circle: a table belongs to one circle."""


class AlreadyPaid(Exception):
    """The line was marked paid meanwhile (on another phone): marked once, never twice."""


class PotShort(Exception):
    """A withdrawal larger than what the pot holds: `holds` is its balance in that currency."""

    def __init__(self, holds: int):
        super().__init__(holds)
        self.holds = holds
