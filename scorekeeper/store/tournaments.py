"""Cup nights (issue 38): a tournament is a third kind of group of tables, beside a circle. Its rounds' tables are
tables of the app (hands.new_table, with their share links), joined here with their seats; its links are
links.py's (Owner TOURNAMENT: the director's is the scorer's, the watch link the viewer's).

Every write two phones can do at once (a walk-in, a drop, closing a round, drawing the next) takes the
tournament's row lock (locks.lock_tournament) first and checks again under it: a round is closed once, drawn
once, and a start number is never given twice.
"""
from __future__ import annotations

import secrets
from datetime import date, datetime, timedelta

from sqlalchemy import func, insert, select, update

from ..engine.cup import games_at
from ..engine.draw import draw_round, usual_size
from ..engine.games import get_game, resolve_rules
from .db import engine, now, writing
from .hands import insert_table, new_table
from .links import TOURNAMENT, add_links, tournament_of
from .locks import lock_tournament
from .schema import (SCORER, VIEWER, CupTable, Entrant, NameTaken, NotFound, RoundOpen, Tournament, hands, table_info,
                     tables, tournament_log, tournament_players, tournament_tables, tournaments)

STAKE = 10  # a cup's tables' stake when it has no rate (the money is not ranked): 10 cents a point, the Tarockcups'


def create_tournament(name: str, held_on: date, game: str, rules: dict, rounds: int, games_per_round: int,
                      seed: int, players: list[str], ranking: str = "points", ranking_n: int = 0, rate: int = 0,
                      currency: str = "EUR", pot: str = "none", circle_id: str | None = None,
                      round_minutes: int = 0, entry_fee: int = 0) -> str:
    """Store a new cup with its players numbered 1..n in the order given and its ranking rule (engine/cup.py
    Ranking: the rule, its N, the rate in minor units a point, the currency, the pot); return its director's key.
    Its house rules, rate and currency are every round's tables' (the rate is their stake). `circle_id`: the circle
    whose season it counts in (made from the circle's page); `round_minutes`: each round's clock (0: none);
    `entry_fee`: what each player who plays pays into its pot (minor units)."""
    tournament_id = secrets.token_urlsafe(16)
    with writing() as conn:
        conn.execute(insert(tournaments).values(id=tournament_id, name=name, held_on=held_on, game=game, rules=rules,
                                                rounds=rounds, games_per_round=games_per_round, seed=seed,
                                                closed_rounds=0, version=0, created_at=now(), ranking=ranking,
                                                ranking_n=ranking_n, rate=rate, currency=currency, pot=pot,
                                                circle_id=circle_id, round_minutes=round_minutes,
                                                entry_fee=entry_fee))
        if players:
            conn.execute(insert(tournament_players), [dict(tournament_id=tournament_id, number=i, name=p, active=True,
                                                           created_at=now()) for i, p in enumerate(players, 1)])
        return add_links(conn, tournament_id, TOURNAMENT)[SCORER]


def import_tournament(**cup) -> str:
    """Store a whole cup (from its export, checked by web/cup/cup_file.py) under new addresses, all or nothing;
    return its director's key (insert_tournament says what it takes)."""
    with writing() as conn:
        return insert_tournament(conn, **cup)


def insert_tournament(conn, name: str, held_on: date, game: str, rules: dict, rounds: int, games_per_round: int,
                      seed: int, closed_rounds: int, created_at, ranking: str, ranking_n: int, rate: int,
                      currency: str, pot: str, players: list[tuple], tables: list[tuple], log: list[tuple],
                      watch_money: bool = True, circle_id: str | None = None, round_minutes: int = 0,
                      round_ends_at: datetime | None = None, entry_fee: int = 0) -> str:
    """Insert a whole cup in the caller's transaction (a cup's import, or a circle's with its cups); return its
    director's key. `players`: [(number, name, active, fixed table)]; `tables`: [(round, number, seats, reopened,
    games, TableInfo, [Hand])]; `log`: [(kind, round, number, when)]; `circle_id`: the circle whose season it
    counts in; `round_minutes`, `round_ends_at`: its round's clock; `entry_fee`: each player's to its pot."""
    tournament_id = secrets.token_urlsafe(16)
    conn.execute(insert(tournaments).values(id=tournament_id, name=name, held_on=held_on, game=game, rules=rules,
                                            rounds=rounds, games_per_round=games_per_round, seed=seed,
                                            closed_rounds=closed_rounds, version=0, created_at=created_at,
                                            ranking=ranking, ranking_n=ranking_n, rate=rate, currency=currency,
                                            pot=pot, watch_money=watch_money, circle_id=circle_id,
                                            round_minutes=round_minutes, round_ends_at=round_ends_at,
                                            entry_fee=entry_fee))
    if players:
        conn.execute(insert(tournament_players), [dict(tournament_id=tournament_id, number=n, name=who,
                                                       active=active, fixed_table=fixed, created_at=created_at)
                                                  for n, who, active, fixed in players])
    for round_no, number, seats, reopened, games, table, hand_list in tables:
        table_id = insert_table(conn, table, hand_list)
        conn.execute(insert(tournament_tables).values(tournament_id=tournament_id, round=round_no, number=number,
                                                      table_id=table_id, seats=list(seats), reopened=reopened,
                                                      games=games))
    if log:
        conn.execute(insert(tournament_log), [dict(tournament_id=tournament_id, kind=kind, round=r, number=n,
                                                   created_at=when) for kind, r, n, when in log])
    return add_links(conn, tournament_id, TOURNAMENT)[SCORER]


def get_tournament(tournament_id: str, role: str = VIEWER) -> Tournament:
    with engine().connect() as conn:
        row = conn.execute(select(tournaments).where(tournaments.c.id == tournament_id)).first()
    if row is None:
        raise NotFound(tournament_id)
    return tournament_of(row, role)


def entrants(tournament_id: str) -> list[Entrant]:
    """The cup's players by start number, those who dropped too."""
    with engine().connect() as conn:
        rows = conn.execute(select(tournament_players).where(tournament_players.c.tournament_id == tournament_id)
                            .order_by(tournament_players.c.number)).all()
    return [Entrant(r.number, r.name, r.active, r.fixed_table) for r in rows]


def add_entrant(tournament_id: str, name: str) -> int:
    """A walk-in: the next start number (one more than any given, never one reused); NameTaken if a player of the
    cup has that name. Plays from the next round drawn."""
    with writing() as conn:
        lock_tournament(conn, tournament_id)
        rows = conn.execute(select(tournament_players.c.number, tournament_players.c.name)
                            .where(tournament_players.c.tournament_id == tournament_id)).all()
        if any(r.name.casefold() == name.casefold() for r in rows):
            raise NameTaken(name)
        number = max((r.number for r in rows), default=0) + 1
        conn.execute(insert(tournament_players).values(tournament_id=tournament_id, number=number, name=name,
                                                       active=True, created_at=now()))
        _bump(conn, tournament_id)
        return number


def set_playing(tournament_id: str, number: int, active: bool) -> None:
    """A player drops out (or comes back): from the next round drawn; the number stays theirs."""
    _set_player(tournament_id, number, active=active)


def cup_tables(tournament_id: str, conn=None) -> list[CupTable]:
    """Every round's tables, by round and table number."""
    query = (select(tournament_tables).where(tournament_tables.c.tournament_id == tournament_id)
             .order_by(tournament_tables.c.round, tournament_tables.c.number))
    if conn is None:
        with engine().connect() as conn:
            rows = conn.execute(query).all()
    else:
        rows = conn.execute(query).all()
    return [CupTable(r.round, r.number, r.table_id, tuple(r.seats), r.reopened, r.games) for r in rows]


def cup_table_infos(tournament_id: str) -> dict[str, object]:
    """Every round's tables of the cup as the app's tables (TableInfo), by id, in one read."""
    mine = select(tournament_tables.c.table_id).where(tournament_tables.c.tournament_id == tournament_id)
    with engine().connect() as conn:
        rows = conn.execute(select(tables).where(tables.c.id.in_(mine))).all()
    return {r.id: table_info(r) for r in rows}


def tournament_of_table(table_id: str) -> tuple[Tournament, CupTable] | None:
    """The cup a table is a round's table of, and its place there, or None."""
    with engine().connect() as conn:
        row = conn.execute(select(tournaments, tournament_tables.c.round.label("t_round"),
                                  tournament_tables.c.number.label("t_number"), tournament_tables.c.seats,
                                  tournament_tables.c.reopened.label("t_reopened"))
                           .join_from(tournament_tables, tournaments,
                                      tournament_tables.c.tournament_id == tournaments.c.id)
                           .where(tournament_tables.c.table_id == table_id)).first()
    if row is None:
        return None
    return tournament_of(row), CupTable(row.t_round, row.t_number, table_id, tuple(row.seats), row.t_reopened)


def hands_in(table_ids: list[str], conn=None) -> dict[str, int]:
    """Each table's live hands, in one read."""
    query = (select(hands.c.table_id, func.count()).where(hands.c.table_id.in_(table_ids), hands.c.facts.is_not(None))
             .group_by(hands.c.table_id))
    if conn is None:
        with engine().connect() as conn:
            found = dict(conn.execute(query).all())
    else:
        found = dict(conn.execute(query).all())
    return {t: found.get(t, 0) for t in table_ids}


def close_round(tournament_id: str, round_no: int, end_unfinished: bool = False) -> bool:
    """Close round `round_no`: every table has its games in, or the director said to end those that haven't.
    Return False when it was closed already (two phones at once: closed once); RoundOpen when a table isn't in and
    `end_unfinished` wasn't given, or the round isn't the one being played."""
    with writing() as conn:
        lock_tournament(conn, tournament_id)
        row = conn.execute(select(tournaments).where(tournaments.c.id == tournament_id)).first()
        if row.closed_rounds >= round_no:
            return False
        mine = [t for t in cup_tables(tournament_id, conn) if t.round == round_no]
        if not mine or row.closed_rounds != round_no - 1:
            raise RoundOpen(round_no)
        # the round's tables' row locks, as a save takes its table's: a hand saved before counts, none comes after
        conn.execute(select(tables.c.id).where(tables.c.id.in_([t.table_id for t in mine])).order_by(tables.c.id)
                     .with_for_update()).all()  # the cup, then its tables by id: store/locks.py's order
        counts = hands_in([t.table_id for t in mine], conn)
        if not end_unfinished and any(counts[t.table_id] < (t.games or row.games_per_round) for t in mine):
            raise RoundOpen(round_no)
        conn.execute(update(tournaments).where(tournaments.c.id == tournament_id)
                     .values(closed_rounds=round_no, round_ends_at=None, version=tournaments.c.version + 1))
        return True


def draw_next_round(tournament_id: str) -> int:
    """Draw the next round and open its tables (one transaction: all or none); return its number. Its clock starts
    now, the cup's round_minutes long (0: no clock). RoundOpen while the round being played isn't closed or all
    rounds are drawn; the engine's CantSeat when the players playing now can't be seated at the game's tables."""
    with writing() as conn:
        lock_tournament(conn, tournament_id)
        row = conn.execute(select(tournaments).where(tournaments.c.id == tournament_id)).first()
        past = cup_tables(tournament_id, conn)
        drawn = max((t.round for t in past), default=0)
        if row.closed_rounds < drawn or drawn >= row.rounds:
            raise RoundOpen(drawn + 1)
        playing = conn.execute(select(tournament_players.c.number, tournament_players.c.name,
                                      tournament_players.c.fixed_table)
                               .where(tournament_players.c.tournament_id == tournament_id,
                                      tournament_players.c.active.is_(True))).all()
        names = {p.number: p.name for p in playing}
        fixed = {p.number: p.fixed_table for p in playing if p.fixed_table}
        game = get_game(row.game)
        by_round = [tuple(t.seats for t in past if t.round == r) for r in range(1, drawn + 1)]
        allowed = game.players_allowed(resolve_rules(game, row.rules))
        seated = draw_round(list(names), allowed, row.seed, by_round, fixed)
        for number, seats in enumerate(seated, 1):
            # the cup's house rules, and its rate as the stake (engine/cup.py reads the money at the rate from it)
            table_id = new_table(conn, row.game, [names[n] for n in seats], dict(row.rules), row.rate or STAKE,
                                 row.currency, 0, played_on=row.held_on)
            conn.execute(insert(tournament_tables).values(tournament_id=tournament_id, round=drawn + 1,
                                                          number=number, table_id=table_id, seats=list(seats),
                                                          games=games_at(row.games_per_round, len(seats),
                                                                         usual_size(allowed))))
        minutes = row.round_minutes
        conn.execute(update(tournaments).where(tournaments.c.id == tournament_id)  # the clock starts with the round
                     .values(round_ends_at=now() + timedelta(minutes=minutes) if minutes > 0 else None,
                             version=tournaments.c.version + 1))
        return drawn + 1


def set_round_clock(tournament_id: str, round_no: int, minutes: int) -> datetime | None:
    """Set the clock of round `round_no`, the one being played: it ends `minutes` from now (0: no clock); return
    when. Under the cup's row lock, its version moved on (every board shows the new end); two phones at once: the
    later one's. RoundOpen when the round isn't the one being played (not drawn, or closed)."""
    with writing() as conn:
        lock_tournament(conn, tournament_id)
        row = conn.execute(select(tournaments.c.closed_rounds).where(tournaments.c.id == tournament_id)).first()
        drawn = conn.execute(select(func.max(tournament_tables.c.round))
                             .where(tournament_tables.c.tournament_id == tournament_id)).scalar() or 0
        if round_no != drawn or row.closed_rounds >= round_no:
            raise RoundOpen(round_no)
        ends = now() + timedelta(minutes=minutes) if minutes > 0 else None
        conn.execute(update(tournaments).where(tournaments.c.id == tournament_id)
                     .values(round_ends_at=ends, version=tournaments.c.version + 1))
        return ends


def set_fixed_table(tournament_id: str, number: int, table: int | None) -> None:
    """Give a player a fixed table (mobility: the next draws seat them at that table's number), or None: anywhere.
    Changes the next round drawn only."""
    _set_player(tournament_id, number, fixed_table=table)


def _set_player(tournament_id: str, number: int, **values) -> None:
    """Change a player of the cup under its lock (NotFound if the number is none of its players)."""
    with writing() as conn:
        lock_tournament(conn, tournament_id)
        done = conn.execute(update(tournament_players).where(tournament_players.c.tournament_id == tournament_id,
                                                             tournament_players.c.number == number)
                            .values(**values))
        if done.rowcount == 0:
            raise NotFound(number)
        _bump(conn, tournament_id)


def reopen_table(tournament_id: str, round_no: int, number: int, reopen: bool = True) -> bool:
    """After its round closed, open table `number` of round `round_no` for the director's correction (its scorer
    link takes edits, deletions, Undo and the round's missing hands again), or close it again (`reopen` False).
    Logged in the cup's log. False when it already was so (two phones at once: done once); RoundOpen while the
    round isn't closed (its tables take corrections anyway); NotFound for no such table."""
    with writing() as conn:
        lock_tournament(conn, tournament_id)
        row = conn.execute(select(tournaments.c.closed_rounds).where(tournaments.c.id == tournament_id)).first()
        if row.closed_rounds < round_no:
            raise RoundOpen(round_no)
        placed = conn.execute(select(tournament_tables).where(tournament_tables.c.tournament_id == tournament_id,
                                                              tournament_tables.c.round == round_no,
                                                              tournament_tables.c.number == number)).first()
        if placed is None:
            raise NotFound(number)
        # the table's row lock, as a save and an edit take it: one made before counts as before, none in between
        conn.execute(update(tables).where(tables.c.id == placed.table_id).values(version=tables.c.version + 1))
        if placed.reopened == reopen:
            return False
        conn.execute(update(tournament_tables).where(tournament_tables.c.tournament_id == tournament_id,
                                                     tournament_tables.c.round == round_no,
                                                     tournament_tables.c.number == number)
                     .values(reopened=reopen))
        conn.execute(insert(tournament_log).values(tournament_id=tournament_id, kind="reopen" if reopen else "close",
                                                   round=round_no, number=number, created_at=now()))
        _bump(conn, tournament_id)
        return True


def cup_log(tournament_id: str) -> list[tuple[str, int, int, object]]:
    """The director's corrections after a round closed, newest first: (kind: reopen or close, round, table, when)."""
    with engine().connect() as conn:
        rows = conn.execute(select(tournament_log).where(tournament_log.c.tournament_id == tournament_id)
                            .order_by(tournament_log.c.id.desc())).all()
    return [(r.kind, r.round, r.number, r.created_at) for r in rows]


def set_cup_watch(tournament_id: str, money: bool) -> None:
    """Choose what the cup's watch link shows: the standings' money and the pot, or not. Under the cup's row lock,
    its version moved on (every watcher's board is made again)."""
    with writing() as conn:
        lock_tournament(conn, tournament_id)
        conn.execute(update(tournaments).where(tournaments.c.id == tournament_id)
                     .values(watch_money=money, version=tournaments.c.version + 1))


def _bump(conn, tournament_id: str) -> None:
    conn.execute(update(tournaments).where(tournaments.c.id == tournament_id)
                 .values(version=tournaments.c.version + 1))


def tournament_tag(tournament_id: str) -> str:
    """Name what a cup's pages show as it is now, in one read: its own version, and its tables' count and versions
    (every hand at any of them moves one on)."""
    mine = select(tournament_tables.c.table_id).where(tournament_tables.c.tournament_id == tournament_id)
    with engine().connect() as conn:
        row = conn.execute(select(
            select(tournaments.c.version).where(tournaments.c.id == tournament_id).scalar_subquery(),
            select(func.count()).select_from(tables).where(tables.c.id.in_(mine)).scalar_subquery(),
            select(func.coalesce(func.sum(tables.c.version), 0)).where(tables.c.id.in_(mine)).scalar_subquery(),
        )).first()
    return "k" + ".".join(str(int(v or 0)) for v in row)
