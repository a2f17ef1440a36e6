"""A cup's results as its pages and a circle's season read them (issue 38): each round's tables read by seat from
the evenings kept for them, and the standings by the cup's rule (engine/cup.py). Shared by web/cup/cups.py and
web/circle/circles.py (a cup over a season: engine/season_cup.py)."""
from __future__ import annotations

from .. import store
from ..engine import cup as cup_model
from . import scoreboard
from .kept import of_app


def ranking_of(cup) -> cup_model.Ranking:
    """The cup's ranking rule as the engine takes it."""
    return cup_model.Ranking(cup.ranking, cup.ranking_n, cup.rate, cup.pot)


def results(cup, placed) -> list:
    """Each table's result by start number: [(round, table, {start number: Seat})], the tables read at once."""
    out = []
    infos = store.cup_table_infos(cup.id)
    kept = of_app("cup-seats", 20_000)  # a table's result by seat, per table version (a played round's never moves)
    for t in placed:
        info = infos[t.table_id]
        seats = kept.at(t.table_id, info.version)
        if seats is None:
            table, evening = scoreboard.current(info)
            seats = cup_model.by_seat(evening.rows, t.seats, cup.rate, cup.pot)
            kept.keep(t.table_id, table.version, seats)
        out.append((t.round, t.number, seats))
    return out


def standings_of(cup) -> list:
    """The cup's standings now (engine/cup.py Standing), over every table played, by its rule."""
    placed = store.cup_tables(cup.id)
    drawn = max((t.round for t in placed), default=0)
    return cup_model.standings([(p.number, p.name, p.active) for p in store.entrants(cup.id)], results(cup, placed),
                               ranking_of(cup), drawn, cup.rounds)
