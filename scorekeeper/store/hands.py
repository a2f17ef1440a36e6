"""Tables, their hands (facts only) and the change log that undo walks back.

A hand stores what happened (the engine's `hand` dict), never points or totals (STYLE.md habit 4).
Every change bumps the table's `version` (an ETag for live sharing) and the hand's own `version`,
and is written with its idempotency token in the same transaction, so a repeated form posts once.
"""
from __future__ import annotations

import hashlib
import json
import secrets
from datetime import date, datetime

from sqlalchemy import bindparam, case, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..engine.seating import next_dealer
from .db import engine, is_key, now, reading, writing
from .links import add_links
from .locks import lock_circle_tables
from .schema import (Added, Change, Full, Hand, Moved, NotFound, RoundClosed, RoundFull, Stale, TableInfo, changes,
                     circle_changes, hands, payments, pot_entries, table_info, tables, tournament_tables, tournaments)

# the statements a save and a poll run, built once (building one costs more than running it on SQLite)
_TABLE_ID = bindparam("table_id")
_TABLE = select(tables).where(tables.c.id == _TABLE_ID)
_VERSION = select(tables.c.version).where(tables.c.id == _TABLE_ID)
# a writer's first statement: the table's row, locked from here, its version moved on
_BUMP = update(tables).where(tables.c.id == _TABLE_ID).values(version=tables.c.version + 1).returning(*tables.c)
# the last-numbered hand, live or deleted (by the (table, number) index)
_LAST_HAND = (select(hands.c.number, hands.c.dealer, hands.c.setup, hands.c.facts.is_not(None).label("live"))
              .where(hands.c.table_id == _TABLE_ID).order_by(hands.c.number.desc()).limit(1))
_LIVE = select(func.count(hands.c.facts)).where(hands.c.table_id == _TABLE_ID)  # reads every hand's row
# a cup's table (issue 38): its round, and the cup's rounds closed and games per round (by the table_id index)
_CUP_ROUND = (select(tournament_tables.c.round, tournament_tables.c.reopened, tournaments.c.closed_rounds,
                     func.coalesce(tournament_tables.c.games, tournaments.c.games_per_round).label("games_per_round"))
              .join_from(tournament_tables, tournaments, tournament_tables.c.tournament_id == tournaments.c.id)
              .where(tournament_tables.c.table_id == _TABLE_ID))
_LAST_DEALER = (select(hands.c.dealer, hands.c.setup).where(hands.c.table_id == _TABLE_ID, hands.c.facts.is_not(None))
                .order_by(hands.c.number.desc()).limit(1))
_LATEST_CHANGES = (select(changes.c.kind, changes.c.undone, *hands.c).outerjoin(hands, hands.c.id == changes.c.hand_id)
                   .where(changes.c.table_id == bindparam("table_id")).order_by(changes.c.id.desc())
                   .limit(bindparam("n")))
_INSERT_HAND, _INSERT_CHANGE = insert(hands), insert(changes)


def create_table(game: str, players: list[str], rules: dict, stake: int, currency: str,
                 first_dealer: int, table_id: str | None = None, created_at: datetime | None = None,
                 circle_id: str | None = None, played_on: date | None = None) -> TableInfo:
    """Store a new table under an unguessable id, with its share links (and in its circle, if one is given:
    an evening the circle starts), all in one transaction; return it."""
    with writing() as conn:
        new_id = new_table(conn, game, players, rules, stake, currency, first_dealer, table_id, created_at,
                           circle_id, played_on)
    return get_table(new_id)


def new_table(conn, game: str, players: list[str], rules: dict, stake: int, currency: str, first_dealer: int,
              table_id: str | None = None, created_at: datetime | None = None, circle_id: str | None = None,
              played_on: date | None = None) -> str:
    """Insert a new table and its share links in the caller's transaction (create_table's, or a cup's round drawn
    all at once); return its id."""
    values = dict(id=table_id or secrets.token_urlsafe(16), game=game, players=list(players), rules=rules,
                  stake=stake, currency=currency, first_dealer=first_dealer, version=0,
                  created_at=created_at or now(), circle_id=circle_id, played_on=played_on)
    conn.execute(insert(tables).values(**values))
    add_links(conn, values["id"])
    return values["id"]


def get_table(table_id: str) -> TableInfo:
    """Return a table, or raise NotFound."""
    return table_info(_table_row(_TABLE, table_id))


def table_version(table_id: str) -> int:
    """Return the table's version (moved on by every change), or raise NotFound."""
    return _table_row(_VERSION, table_id).version


def _table_row(statement, table_id: str):
    if not is_key(table_id):
        raise NotFound(table_id)
    with engine().connect() as conn:
        row = conn.execute(statement, {"table_id": table_id}).first()
    if row is None:
        raise NotFound(table_id)
    return row


def _bump(conn, table_id: str) -> int:
    """Lock the table row and move its version on; return the new version."""
    row = conn.execute(_BUMP, {"table_id": table_id}).first()
    if row is None:
        raise NotFound(table_id)
    return row.version


# ---- hands ----

def _hand(row) -> Hand:
    return Hand(row.id, row.number, row.facts, row.version, row.created_at, row.updated_at, row.dealer, row.setup)


def list_hands(table_id: str) -> list[Hand]:
    """Return the table's live hands in order of play."""
    return hands_at(table_id)[1]


_HANDS_AT = (select(tables.c.version.label("at"), *hands.c)
             .select_from(tables.outerjoin(hands, (hands.c.table_id == tables.c.id) & hands.c.facts.is_not(None)))
             .where(tables.c.id == _TABLE_ID).order_by(hands.c.number))


def hands_at(table_id: str) -> tuple[int | None, list[Hand]]:
    """Return (the table's version, its live hands in order of play), read by one statement: the hands are
    that version's, whatever is saved meanwhile. The version is None if there is no such table."""
    with reading() as conn:  # one statement: the version and the hands at one moment
        rows = conn.execute(_HANDS_AT, {"table_id": table_id}).all()
    if not rows:
        return None, []
    return rows[0].at, [_hand(r) for r in rows if r.facts is not None]


def count_hands(table_id: str, conn=None) -> int:
    """Return how many live hands the table has."""
    query = select(func.count()).select_from(hands).where(hands.c.table_id == table_id, hands.c.facts.is_not(None))
    if conn is not None:
        return conn.execute(query).scalar()
    with engine().connect() as conn:
        return conn.execute(query).scalar()


def last_hand(table_id: str) -> Hand | None:
    """Return the table's latest live hand (for the next hand's defaults), if any."""
    with engine().connect() as conn:
        row = conn.execute(select(hands).where(hands.c.table_id == table_id, hands.c.facts.is_not(None))
                           .order_by(hands.c.number.desc()).limit(1)).first()
    return _hand(row) if row is not None else None


def get_hand(table_id: str, number: int) -> Hand:
    """Return one live hand of the table, or raise NotFound."""
    with engine().connect() as conn:
        row = conn.execute(select(hands).where(hands.c.table_id == table_id, hands.c.number == number)).first()
    if row is None or row.facts is None:
        raise NotFound(number)
    return _hand(row)


def by_token(token: str | None) -> Hand | None:
    """Return the hand a form's token already changed, if it was posted before."""
    if not is_key(token):
        return None
    with engine().connect() as conn:
        row = conn.execute(select(hands).join(changes, changes.c.hand_id == hands.c.id)
                           .where(changes.c.token == token)).first()
    return _hand(row) if row is not None else None


def _once(token: str | None, write):
    """Run `write(conn)` in one transaction unless this token was already used; return the hand.

    The token's unique index decides: a repeated post fails to insert its change and rolls back whole.
    """
    try:
        with writing() as conn:
            return write(conn)
    except (IntegrityError, Stale, NotFound, Full, Moved):
        done = by_token(token)  # the same form posted again (double tap, retry; a delete twice): the first won
        if done is None:
            raise
        return done


def add_hand(table_id: str, facts: dict, token: str | None = None, limit: int | None = None,
             made_for: str | None = None) -> Hand:
    """Append a hand to the table (once per token) and return it; raise Full if it has `limit` live hands.

    `made_for` is the fingerprint of the table's players, stake and house rules the form was made for:
    if the table changed since, Moved is raised and nothing is saved (per-player fields are by seat).
    """
    return save_hand(table_id, facts, token, limit, made_for).hand


def save_hand(table_id: str, facts: dict, token: str | None = None, limit: int | None = None,
              made_for: str | None = None, since: int | None = None) -> Added:
    """add_hand, returning also the table as this write left it and the change that logged the hand.

    With `since` (the version of a scoreboard the caller keeps), also the hands added after it and before this
    one (Added.before), read in this write: a worker whose board is behind (another worker saved the last
    hands) needn't read them in a transaction of their own.
    """
    def write(conn):
        # one writer at a time from here on this table (two saves can't both pass the limit)
        table = conn.execute(_BUMP, {"table_id": table_id}).first()
        if table is None:
            raise NotFound(table_id)
        setup = {"players": list(table.players), "stake": table.stake, "rules": dict(table.rules)}
        if made_for is not None and fingerprint(setup) != made_for:
            raise Moved(None)
        last = conn.execute(_LAST_HAND, {"table_id": table_id}).first()
        last_number = last.number if last is not None else None
        _cup_round_open(conn, table_id, last_number)
        # hands are numbered 0, 1, 2 … and never renumbered, so a table holds at most last + 1 of them: the
        # live ones are only counted (a read of every row) when that could reach the limit
        if (limit is not None and last_number is not None and last_number + 1 >= limit
                and conn.execute(_LIVE, {"table_id": table_id}).scalar() >= limit):
            raise Full(limit)
        number = (last_number or 0) + 1
        if last is not None and not last.live:  # the last one was deleted: the deal follows the last live hand
            last = conn.execute(_LAST_DEALER, {"table_id": table_id}).first()
        dealer = _next_dealer(table, last)
        t = now()  # the setup in force now stays this hand's, whatever the table does later
        hand_id = conn.execute(_INSERT_HAND, dict(table_id=table_id, number=number, facts=facts, version=1,
                                                  created_at=t, updated_at=t, dealer=dealer, setup=setup)
                               ).inserted_primary_key[0]
        before = _adds(conn, table_id, table.version - 1 - since) if since is not None else None
        change_id = _log(conn, table_id, hand_id, "add", None, facts, token, t)
        return Added(Hand(hand_id, number, facts, 1, t, t, dealer, setup),
                     table_info(table), Change(change_id, number, "add", t), before)
    done = _once(token, write)
    return done if isinstance(done, Added) else Added(done)


def _cup_round_open(conn, table_id: str, last_number: int | None) -> None:
    """At a cup's table, refuse a hand once its round is closed (RoundClosed) or past the round's games
    (RoundFull). Read under the table's row lock, which close_round takes too: a round closes with every hand
    saved before it counted, and none after it."""
    cup = _cup_closed(conn, table_id)
    if cup is None:
        return
    if last_number is not None and last_number + 1 > cup.games_per_round and \
            conn.execute(_LIVE, {"table_id": table_id}).scalar() >= cup.games_per_round:
        raise RoundFull(cup.games_per_round)


def _cup_closed(conn, table_id: str):
    """At a cup's table whose round is closed, RoundClosed, unless the director opened it for a correction
    (tournaments.reopen_table); else the cup's round row (None: not a cup's table). Read under the table's row
    lock, which closing the round and opening or closing a table for a correction take too."""
    cup = conn.execute(_CUP_ROUND, {"table_id": table_id}).first()
    if cup is not None and cup.closed_rounds >= cup.round and not cup.reopened:
        raise RoundClosed(cup.round)
    return cup


def _next_dealer(table, last) -> str:
    """Return who deals the next hand at the table (`table`: its players and first dealer) after `last`, the
    last live hand's row (its dealer and setup; None: there is none)."""
    if last is None:
        return next_dealer(table.players, table.first_dealer, None)
    seated = last.setup.get("players") if isinstance(last.setup, dict) else None  # a setup stored wrong: none
    return next_dealer(table.players, table.first_dealer, last.dealer, seated if isinstance(seated, list) else None)


def edit_hand(table_id: str, number: int, facts: dict | None, token: str | None = None,
              version: int | None = None) -> Hand:
    """Replace a live hand's facts (None deletes it), checking `version` if given; return the hand."""
    def write(conn):
        _bump(conn, table_id)
        _cup_closed(conn, table_id)  # a closed round's hands: corrected only when the director opened the table
        row = conn.execute(select(hands).where(hands.c.table_id == table_id, hands.c.number == number)).first()
        if row is None or row.facts is None:
            raise NotFound(number)
        expected = row.version if version is None else version
        t = now()
        # compare-and-set: the UPDATE itself checks the version the form was loaded with
        moved = conn.execute(update(hands).where(hands.c.id == row.id, hands.c.version == expected)
                             .values(facts=facts, version=expected + 1, updated_at=t)).rowcount
        if moved != 1:
            raise Stale(_hand(row))
        _log(conn, table_id, row.id, "edit" if facts is not None else "delete", row.facts, facts, token)
        return Hand(row.id, number, facts, row.version + 1, row.created_at, t, row.dealer, row.setup)
    return _once(token, write)


def delete_hand(table_id: str, number: int, token: str | None = None, version: int | None = None) -> Hand:
    """Delete a live hand (undo brings it back)."""
    return edit_hand(table_id, number, None, token, version)


def added_since(table_id: str, version: int, most: int = 10) -> tuple[int | None, list[Hand] | None]:
    """Return (the table's version, the hands added since `version`, oldest first).

    The hands are None unless adding at most `most` hands is all that happened since: every change
    moves the version on by one and logs one change, in one transaction, so the last (version now −
    `version`) changes are those since. An edit, a delete, an undo or a change of the table among them,
    or fewer logged changes than that (an imported table), gives None: the caller sends everything.
    Both are read in one transaction, so the version and the changes agree. The version is None if the
    table is gone.
    """
    with engine().connect() as conn:
        now_at = conn.execute(_VERSION, {"table_id": table_id}).scalar()
        return now_at, (_adds(conn, table_id, now_at - version, most) if now_at is not None else None)


def _adds(conn, table_id: str, n: int, most: int = 10) -> list[Hand] | None:
    """Return the hands the table's last `n` changes added, oldest first, if adding at most `most` hands is
    all those changes did; else None (see added_since)."""
    if n <= 0 or n > most:
        return None
    rows = conn.execute(_LATEST_CHANGES, {"table_id": table_id, "n": n}).all()
    if len(rows) < n or any(r.kind != "add" or r.undone or r.number is None or r.facts is None for r in rows):
        return None
    return [_hand(r) for r in reversed(rows)]


def _log(conn, table_id, hand_id, kind, before, after, token, at: datetime | None = None) -> int:
    """Log a change in the transaction that makes it; return its id."""
    return conn.execute(_INSERT_CHANGE, dict(table_id=table_id, hand_id=hand_id, kind=kind, before=before,
                                             after=after, token=token if is_key(token) else None, undone=False,
                                             created_at=at or now())).inserted_primary_key[0]


def last_change(table_id: str) -> Change | None:
    """Return the most recent change that undo would revert, if any."""
    with engine().connect() as conn:
        row = conn.execute(_UNDOABLE, {"table_id": table_id}).first()
    return Change(row.id, row.number, row.kind, row.created_at) if row is not None else None


def _undoable(table_id):
    return (select(changes.c.id, changes.c.kind, changes.c.before, changes.c.after, changes.c.hand_id,
                   changes.c.created_at, hands.c.number)
            .outerjoin(hands, hands.c.id == changes.c.hand_id)
            .where(changes.c.table_id == table_id, changes.c.undone.is_(False), changes.c.kind != "undo")
            .order_by(changes.c.id.desc()).limit(1))


_UNDOABLE = _undoable(_TABLE_ID)


def undo(table_id: str, token: str | None = None, rename=None, expected: int | None = None) -> Change | None:
    """Revert the table's last change (an add, edit, delete or a change of the table); None if nothing to undo.

    `rename(facts, old, new)` is the game's, for taking back a change that renamed players. With
    `expected` (the change the Undo button named), a different last change raises Moved: undo never
    takes back a change the player didn't see.

    Once per token, like a save: the token is looked up after the table's row is locked, in the same
    transaction, so a double-tapped Undo (two posts at once) waits for the first and then answers with
    what it undid; the token's unique index is the last word if two transactions still meet.
    """
    def write(conn):
        if conn.execute(select(tables.c.id).where(tables.c.id == table_id).with_for_update()).first() is None:
            return None  # no such table: nothing to undo
        done = _change_by_token(conn, token)
        if done is not None:
            return done  # this token was posted before: nothing more to undo
        row = conn.execute(_undoable(table_id)).first()
        if row is None:
            return None
        _cup_closed(conn, table_id)  # a closed round's table: undone only when the director opened it
        if expected is not None and row.id != expected:
            raise Moved(row.id)  # the button named another change: another phone changed the table since
        _bump(conn, table_id)
        conn.execute(update(changes).where(changes.c.id == row.id).values(undone=True))
        if row.hand_id is None:  # a change of the table: its settings back, its renames reversed
            _set_table(conn, table_id, row.before, {new: old for old, new in (row.after.get("renames") or {}).items()},
                       rename)
            _log(conn, table_id, None, "undo", row.after, row.before, token)
            return Change(row.id, None, row.kind, row.created_at)
        hand = conn.execute(select(hands).where(hands.c.id == row.hand_id)).first()
        conn.execute(update(hands).where(hands.c.id == hand.id).values(
            facts=row.before, version=hand.version + 1, updated_at=now()))
        _log(conn, table_id, hand.id, "undo", hand.facts, row.before, token)
        return Change(row.id, row.number, row.kind, row.created_at)

    try:
        with writing() as conn:
            return write(conn)
    except IntegrityError:
        with engine().connect() as conn:
            done = _change_by_token(conn, token)
        if done is None:
            raise
        return done


def _change_by_token(conn, token: str | None) -> Change | None:
    """Return the change a token already made (for an Undo posted twice: its "undo" entry), if any."""
    if not is_key(token):
        return None
    row = conn.execute(select(changes.c.id, changes.c.kind, changes.c.created_at, hands.c.number)
                       .outerjoin(hands, hands.c.id == changes.c.hand_id).where(changes.c.token == token)).first()
    return Change(row.id, row.number, row.kind, row.created_at) if row is not None else None


def import_table(table: TableInfo, hand_list: list[Hand]) -> TableInfo:
    """Store a whole table (from an export) under a new id, keeping hand numbers and versions."""
    with writing() as conn:
        new_id = insert_table(conn, table, hand_list)
    return get_table(new_id)


def insert_table(conn, table: TableInfo, hand_list: list[Hand], circle_id: str | None = None) -> str:
    """Write a whole table, its share links and its hands in the caller's transaction under a new id; return
    the id."""
    new_id = secrets.token_urlsafe(16)
    conn.execute(insert(tables).values(id=new_id, game=table.game, players=list(table.players), rules=table.rules,
                                       stake=table.stake, currency=table.currency, first_dealer=table.first_dealer,
                                       version=table.version, created_at=table.created_at, circle_id=circle_id,
                                       played_on=table.played_on))
    add_links(conn, new_id)
    if hand_list:
        conn.execute(insert(hands), [dict(table_id=new_id, number=h.number, facts=h.facts, version=h.version,
                                          created_at=h.created_at, updated_at=h.updated_at, dealer=h.dealer,
                                          setup=h.setup) for h in hand_list])
    return new_id


# ---- the table changes during the evening: who plays, the stake, the house rules; its day ----

def set_played_on(table_id: str, day: date) -> None:
    """Set the day the evening was played (its circle's standings and periods follow it): a change of the table,
    so its version moves on and every page showing it is worked out again."""
    with writing() as conn:
        if conn.execute(select(tables.c.id).where(tables.c.id == table_id).with_for_update()).first() is None:
            raise NotFound(table_id)
        _bump(conn, table_id)
        conn.execute(update(tables).where(tables.c.id == table_id).values(played_on=day))


def change_table(table_id: str, players: list[str], stake: int, rules: dict, renames: dict[str, str],
                 rename, token: str | None = None, expected_version: int | None = None) -> bool:
    """Change the table from the next hand on (earlier hands keep their own setup); rename players everywhere.

    `renames` maps old names to new ones: every hand, its setup and its dealer follow, through the
    game's `rename(facts, old, new)`. Logged like a hand's change, so Undo takes it back. The token is
    looked up and `expected_version` checked under the table's lock, in the same transaction: a double
    tap does it once (True both times), a change made on a form older than the table raises Moved.
    """
    try:
        with writing() as conn:
            if conn.execute(select(tables.c.id).where(tables.c.id == table_id).with_for_update()).first() is None:
                raise NotFound(table_id)
            if is_key(token) and conn.execute(select(changes.c.id).where(changes.c.token == token)).first():
                return True  # this form was posted before: the first post did it
            _cup_closed(conn, table_id)
            version = _bump(conn, table_id) - 1
            if expected_version is not None and version != expected_version:
                raise Moved(version)
            row = conn.execute(select(tables.c.players, tables.c.stake, tables.c.rules)
                               .where(tables.c.id == table_id)).first()
            before = {"players": list(row.players), "stake": row.stake, "rules": dict(row.rules)}
            after = {"players": list(players), "stake": stake, "rules": dict(rules), "renames": dict(renames)}
            _set_table(conn, table_id, after, renames, rename)
            _log(conn, table_id, None, "table", before, after, token)
        return True
    except IntegrityError:
        if not is_key(token):
            raise
        return True  # two posts of one form met: the other one did it


def changed_by(table_id: str, token: str | None) -> bool:
    """Say whether this form's token already changed this table's setup ("Change the table" posted twice: a double
    tap, a resend): the change was made once, and the repeat answers as the first did."""
    if not is_key(token):
        return False
    with engine().connect() as conn:
        return conn.execute(select(changes.c.id).where(changes.c.token == token, changes.c.table_id == table_id,
                                                       changes.c.hand_id.is_(None), changes.c.kind == "table")
                            ).first() is not None


def fingerprint(setup: dict) -> str:
    """Name the table's setup (players, stake, house rules) in a few characters, for a form to carry."""
    text = json.dumps({k: setup[k] for k in ("players", "stake", "rules")}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def current_setup(table: TableInfo) -> dict:
    """Return the setup in force at a table now."""
    return {"players": list(table.players), "stake": table.stake, "rules": dict(table.rules)}


_HELD = "\ue000"  # a private-use character no keyboard types, around a rename's placeholders


def _set_table(conn, table_id: str, settings: dict, renames: dict, rename) -> None:
    """Write the table's settings and carry renames through every hand (facts, setup, dealer)."""
    conn.execute(update(tables).where(tables.c.id == table_id).values(
        players=list(settings["players"]), stake=settings["stake"], rules=dict(settings["rules"])))
    if not renames:
        return
    # two steps through placeholders, so that swapping two names (A→B, B→A) works; in memory only (a hand whose
    # rename fails half-way keeps its facts as they were: see below), and no NUL, which PostgreSQL's text refuses
    steps = [{old: f"{_HELD}{i}{_HELD}" for i, old in enumerate(renames)},
             {f"{_HELD}{i}{_HELD}": new for i, new in enumerate(renames.values())}]
    for h in conn.execute(select(hands.c.id, hands.c.facts, hands.c.setup, hands.c.dealer, hands.c.version)
                          .where(hands.c.table_id == table_id)).all():
        # a hand stored wrong (facts or a setup the game can't read, written by hand) keeps what can't be renamed
        kept = dict(h.setup) if isinstance(h.setup, dict) else (h.setup or {})
        facts, setup, dealer = h.facts, (dict(kept) if isinstance(kept, dict) else kept), h.dealer
        for step in steps:
            for old, new in step.items():
                try:
                    facts = rename(facts, old, new) if facts is not None else None
                except (LookupError, TypeError, ValueError, AttributeError):
                    pass
                if isinstance(setup, dict) and isinstance(setup.get("players"), list):
                    setup["players"] = [new if p == old else p for p in setup["players"]]
                dealer = new if dealer == old else dealer
        if _HELD in json.dumps(facts, ensure_ascii=False):  # the game's rename failed half-way: facts as they were
            facts = h.facts
        if (facts, setup, dealer) != (h.facts, kept, h.dealer):
            conn.execute(update(hands).where(hands.c.id == h.id).values(
                facts=facts, setup=setup or None, dealer=dealer, version=h.version + 1, updated_at=now()))


def rename_everywhere(plan: list, rename_of, token: str | None = None, circle_id: str | None = None,
                      seen: dict[str, int] | None = None, kept: tuple[str, str, bool] | None = None) -> bool:
    """Rename a person at several tables at once (a circle's evenings): all or none, in one transaction.

    `plan`: [(table_id, players after, {old name: new name})]; `rename_of(table_id)` is that table's game's
    rename(facts, old, new). Each table's change is logged as a change of that table (its Undo takes it back
    there), under `token` and the table's place in the plan: the same form posted twice renames once (True).
    The lines marked paid follow (each table's, and the circle's own), and who paid into the circle's pot: money
    is owed by a person, whatever they are called.

    With `circle_id`, the circle's row and then its tables' are locked first (store/locks.py), and `seen` (each of
    the circle's tables and its version, as the plan was made from them) is checked under the lock: if another
    phone changed the circle's evenings since (a rename, a hand, a table joined), Moved is raised and nothing is
    written; the caller plans again from what is there now. With `kept` (the person's old name, the new one, and
    whether they became one with another: a merge), the change is kept in circle_changes, with exactly the rows it
    changed, for its Undo (store/circles.py undo_circle_change).
    """
    if not plan:
        return True
    first = _first_of(token)
    try:
        with writing() as conn:
            if circle_id is not None:
                now_at = lock_circle_tables(conn, circle_id)
            if first and conn.execute(select(changes.c.id).where(changes.c.token == first)).first():
                return True
            if circle_id is not None and seen is not None and now_at != seen:
                raise Moved(None)
            for i, (table_id, players, renames) in enumerate(plan):
                _bump(conn, table_id)
                row = conn.execute(select(tables.c.players, tables.c.stake, tables.c.rules)
                                   .where(tables.c.id == table_id)).first()
                before = {"players": list(row.players), "stake": row.stake, "rules": dict(row.rules)}
                after = {**before, "players": list(players), "renames": dict(renames)}
                _set_table(conn, table_id, after, renames, rename_of(table_id))
                _log(conn, table_id, None, "table", before, after, f"{token}-{i}" if first else None)
                _rename_money(conn, payments.c.table_id == table_id, renames)
            if circle_id is not None:
                every = {old: new for _t, _p, renames in plan for old, new in renames.items()}
                olds = list(every)
                paid = [[r.id, r.payer, r.payee] for r in conn.execute(
                    select(payments.c.id, payments.c.payer, payments.c.payee).where(
                        payments.c.circle_id == circle_id, payments.c.payer.in_(olds) | payments.c.payee.in_(olds)))]
                pot = [[r.id, r.who] for r in conn.execute(select(pot_entries.c.id, pot_entries.c.who).where(
                    pot_entries.c.circle_id == circle_id, pot_entries.c.who.in_(olds)))]
                _rename_money(conn, payments.c.circle_id == circle_id, every)
                conn.execute(update(pot_entries).where(pot_entries.c.circle_id == circle_id,
                                                       pot_entries.c.who.in_(olds))
                             .values(who=_renamed(pot_entries.c.who, every)))
                if kept is not None:
                    rows = {"tables": {t: dict(renames) for t, _p, renames in plan}, "paid": paid, "pot": pot,
                            "evenings": sorted(now_at)}
                    conn.execute(insert(circle_changes).values(
                        circle_id=circle_id, old=kept[0], new=kept[1], merged=bool(kept[2]), rows=rows,
                        token=token if is_key(token) else None, undone=False, created_at=now()))
        return True
    except IntegrityError:
        if first is None:
            raise
        return True  # two posts of one form met: the other one did it


def renamed_by(token: str | None) -> bool:
    """Say whether this form's token already renamed someone (rename_everywhere posted twice: a double tap)."""
    first = _first_of(token)
    if first is None:
        return False
    with engine().connect() as conn:
        return conn.execute(select(changes.c.id).where(changes.c.token == first)).first() is not None


def _first_of(token: str | None) -> str | None:
    """The token a rename logs its first table's change under; None without a token (not "None-0": two renames
    without one are two renames)."""
    return f"{token}-0" if isinstance(token, str) and is_key(f"{token}-0") else None


def _rename_money(conn, where, renames: dict) -> None:
    """Carry renames into the lines marked paid that `where` picks: every name at once, in one statement, so a swap
    (A→B and B→A) works with nothing in between (on either database)."""
    olds = list(renames)
    conn.execute(update(payments).where(where, payments.c.payer.in_(olds) | payments.c.payee.in_(olds))
                 .values(payer=_renamed(payments.c.payer, renames), payee=_renamed(payments.c.payee, renames)))


def _renamed(column, renames: dict):
    """The column's value renamed: CASE column WHEN old THEN new … ELSE column END."""
    return case(renames, value=column, else_=column)
