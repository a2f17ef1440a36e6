"""A cup as a file (issue 38): its settings and ranking rule, its players with their start numbers, each round's
tables (each a table's export, with its seats), its corrections' log. Reading it back checks every part as the
forms do (a hostile file gets one sentence, nothing stored), and the store writes all of it or nothing, under new
links."""
from __future__ import annotations

from flask_babel import gettext as _

from ... import store
from ...engine import cup as cup_model
from ...engine.errors import ScoreError
from ...engine.games import all_games, resolve_rules
from ..bounds import invisible
from ..parse import evening_day, today
from ..round_clock import MOST_MINUTES
from ..seating_check import name_problem, tidy
from ..table_file import BadImport, parse, read_when, small_number, table_json

FORMAT = "scorekeeper.cup"
CURRENCIES = ("CHF", "EUR")
MAX_PLAYERS = 400  # a cup's bounds, its form's and its file's (a circle's file holds its cups' too)
MAX_ROUNDS = 12
MAX_GAMES = 60
MOST_FEE = 100_000  # an entry fee's most, minor units (1,000.00)


def cup_json(cup) -> dict:
    """Describe a cup and everything it holds (its tables' totals for reading; re-derived on import)."""
    tables = []
    for t in store.cup_tables(cup.id):
        table = store.get_table(t.table_id)
        tables.append({"round": t.round, "number": t.number, "seats": list(t.seats), "reopened": t.reopened,
                       "games": t.games,
                       "table": table_json(table, store.list_hands(t.table_id))})
    return {"format": FORMAT, "format_version": 1, "name": cup.name, "held_on": cup.held_on.isoformat(),
            "game": cup.game, "rules": cup.rules, "rounds": cup.rounds, "games_per_round": cup.games_per_round,
            "seed": cup.seed, "closed_rounds": cup.closed_rounds, "created_at": cup.created_at.isoformat(),
            "ranking": {"rule": cup.ranking, "n": cup.ranking_n, "rate": cup.rate, "currency": cup.currency,
                        "pot": cup.pot, "entry_fee": cup.entry_fee},
            "watch": {"money": cup.watch_money},
            "clock": {"minutes": cup.round_minutes,  # a round's clock: each round's minutes, the one running's end
                      "ends_at": cup.round_ends_at.isoformat() if cup.round_ends_at else None},
            "players": [{"number": e.number, "name": e.name, "active": e.active, "fixed_table": e.fixed_table}
                        for e in store.entrants(cup.id)],
            "tables": tables,
            "log": [{"kind": kind, "round": r, "number": n, "at": at.isoformat()}
                    for kind, r, n, at in reversed(store.cup_log(cup.id))]}


def parse_cup(data, most_rounds: int = MAX_ROUNDS, most_games: int = MAX_GAMES,
              most_players: int = MAX_PLAYERS) -> dict:
    """Check an exported cup; return what store.import_tournament takes, or raise BadImport with one sentence
    naming the part (the round and table, the player)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("format_version") != 1:
        raise BadImport(_("This is not a cup exported from Scorekeeper."))
    name = " ".join(data["name"].split()) if isinstance(data.get("name"), str) else ""
    if not name or len(name) > 80 or invisible(name):
        raise BadImport(_("The cup's name in the file is missing or not valid."))
    try:
        held_on = evening_day(data.get("held_on") if isinstance(data.get("held_on"), str) else "", today())
    except ValueError:
        raise BadImport(_("The cup's day in the file is not valid.")) from None
    game = all_games().get(data.get("game")) if isinstance(data.get("game"), str) else None
    if game is None:
        raise BadImport(_("The file names a game this app doesn't know."))
    try:
        rules = resolve_rules(game, data.get("rules") if isinstance(data.get("rules"), dict) else None)
    except ScoreError:
        rules = None
    if rules is None or rules != data.get("rules"):
        raise BadImport(_("The cup's house rules in the file are not valid."))
    rounds, games, seed = data.get("rounds"), data.get("games_per_round"), data.get("seed")
    closed = data.get("closed_rounds")
    if not (small_number(rounds) and 1 <= rounds <= most_rounds and small_number(games) and 1 <= games <= most_games
            and small_number(seed) and small_number(closed) and closed <= rounds):
        raise BadImport(_("The cup's rounds, games per round, seed or rounds closed in the file are not valid."))
    ranking = _ranking(data.get("ranking"), rounds)
    players = _players(data.get("players"), most_players)
    tables = _tables(data.get("tables"), rounds, closed, games, players, game, rules, ranking["rate"])
    log = _log(data.get("log"), {(r, n) for r, n, *_rest in tables})
    watch = data.get("watch", {"money": True})  # a file made before the director chose: the money shown
    if not isinstance(watch, dict) or not isinstance(watch.get("money"), bool):
        raise BadImport(_("The cup's watch settings in the file are not valid."))
    clock = data.get("clock", {"minutes": 0, "ends_at": None})  # a file made before the clock: none
    if not isinstance(clock, dict) or not (small_number(clock.get("minutes")) and clock["minutes"] <= MOST_MINUTES):
        raise BadImport(_("The cup's round clock in the file is not valid."))
    playing = closed < max((t[0] for t in tables), default=0)  # a round drawn and not closed: its clock runs on
    ends_at = read_when(clock["ends_at"]) if playing and clock.get("ends_at") is not None else None
    return dict(round_minutes=clock["minutes"], round_ends_at=ends_at, watch_money=watch["money"], name=name,
                held_on=held_on, game=game.id, rules=rules, rounds=rounds, games_per_round=games, seed=seed,
                closed_rounds=closed, created_at=read_when(data.get("created_at")), players=players, tables=tables,
                log=log, **ranking)


def _ranking(found, rounds: int) -> dict:
    if not isinstance(found, dict):
        raise BadImport(_("The cup's ranking in the file is not valid."))
    rule, n, rate = found.get("rule"), found.get("n"), found.get("rate")
    currency, pot = found.get("currency"), found.get("pot")
    good = (rule in cup_model.RULES and small_number(n) and small_number(rate) and currency in CURRENCIES
            and pot in cup_model.POTS
            and (rule != "best" or 1 <= n <= rounds) and (rule != "drop" or 1 <= n < rounds)
            and (rate > 0 or (rule != "money" and pot == "none")))
    if not good:
        raise BadImport(_("The cup's ranking in the file is not valid."))
    fee = found.get("entry_fee", 0)  # a file made before the entry fee: none
    if not (small_number(fee) and fee <= MOST_FEE):
        raise BadImport(_("The cup's ranking in the file is not valid."))
    return dict(ranking=rule, ranking_n=n if rule in ("best", "drop") else 0, rate=rate, currency=currency, pot=pot,
                entry_fee=fee)


def _players(found, most: int) -> list[tuple]:
    if not isinstance(found, list) or len(found) > most:
        raise BadImport(_("The cup's players in the file are not valid (at most %(n)s).", n=most))
    out, numbers, names = [], set(), set()
    for item in found:
        if not isinstance(item, dict) or not small_number(item.get("number")) or item["number"] < 1 \
                or item["number"] in numbers or not isinstance(item.get("active"), bool):
            raise BadImport(_("A player in the file is not valid."))
        name = tidy(item["name"]) if isinstance(item.get("name"), str) else ""
        problem = _("Give the player's name.") if not name else name_problem(name)
        if problem is None and name.casefold() in names:
            problem = _("“%(name)s” is on the list twice: give each player a different name.", name=name)
        if problem:
            raise BadImport(_("Player #%(n)s: %(message)s", n=item["number"], message=problem))
        fixed = item.get("fixed_table")
        if fixed is not None and not (small_number(fixed) and 1 <= fixed <= most):
            raise BadImport(_("Player #%(n)s: the fixed table is not valid.", n=item["number"]))
        numbers.add(item["number"])
        names.add(name.casefold())
        out.append((item["number"], name, item["active"], fixed))
    return out


def _tables(found, rounds: int, closed: int, games: int, players: list, game, rules: dict, rate: int) -> list:
    """Each round's tables: drawn rounds 1..d without a gap, each round's tables 1..k, every seat a player of the
    cup and nobody twice in a round; each table a table's export of the cup's game, house rules and stake, its
    players as many as its seats and its hands at most the round's games."""
    if not isinstance(found, list) or len(found) > rounds * len(players):
        raise BadImport(_("The cup's tables in the file are not valid."))
    numbers = {p[0] for p in players}
    out, seen, seated = [], set(), {}
    for item in found:
        if not isinstance(item, dict) or not small_number(item.get("round")) \
                or not 1 <= item["round"] <= rounds or not small_number(item.get("number")) \
                or (item["round"], item["number"]) in seen or not isinstance(item.get("reopened"), bool):
            raise BadImport(_("The cup's tables in the file are not valid."))
        where = (item["round"], item["number"])
        seen.add(where)
        try:
            seats = item.get("seats")
            if not isinstance(seats, list) or not seats or any(type(n) is not int or n not in numbers for n in seats):
                raise BadImport(_("its seats name a start number that is no player of the cup."))
            mine = seated.setdefault(item["round"], set())
            if len(set(seats)) != len(seats) or mine & set(seats):
                raise BadImport(_("a player sits at two seats of one round."))
            mine |= set(seats)
            table, hands = parse(item.get("table"))
            if table.game != game.id or resolve_rules(game, table.rules) != rules \
                    or table.stake != (rate or store.CUP_STAKE):
                raise BadImport(_("its game, house rules or stake are not the cup's."))
            if len(table.players) != len(seats):
                raise BadImport(_("its players are not as many as its seats."))
            mine_games = item.get("games")
            if mine_games is not None and not (small_number(mine_games) and 1 <= mine_games <= 2 * games):
                raise BadImport(_("its games in the round are not valid."))
            if sum(h.facts is not None for h in hands) > (mine_games or games):
                raise BadImport(_("it holds more hands than the round's games."))
            if item["reopened"] and item["round"] > closed:
                raise BadImport(_("it is open for a correction, but its round isn't closed."))
        except BadImport as e:
            raise BadImport(_("Round %(round)s, table %(n)s: %(message)s", round=where[0], n=where[1],
                              message=str(e))) from None
        out.append((item["round"], item["number"], tuple(seats), item["reopened"], mine_games, table, hands))
    drawn = max(seated, default=0)
    for r in range(1, drawn + 1):
        mine = sorted(n for rr, n, *_rest in out if rr == r)
        if mine != list(range(1, len(mine) + 1)) or not mine:
            raise BadImport(_("The cup's tables in the file are not valid."))
    if closed > drawn or closed < drawn - 1:
        raise BadImport(_("The cup's rounds, games per round, seed or rounds closed in the file are not valid."))
    return sorted(out, key=lambda t: (t[0], t[1]))


def _log(found, tables: set) -> list[tuple]:
    if found is None:
        return []
    if not isinstance(found, list) or len(found) > 10_000:
        raise BadImport(_("The cup's corrections' log in the file is not valid."))
    out = []
    for item in found:
        if not isinstance(item, dict) or item.get("kind") not in ("reopen", "close") \
                or not small_number(item.get("round")) or not small_number(item.get("number")) \
                or (item["round"], item["number"]) not in tables:
            raise BadImport(_("The cup's corrections' log in the file is not valid."))
        out.append((item["kind"], item["round"], item["number"], read_when(item.get("at"))))
    return out
