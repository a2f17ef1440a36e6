"""Command line: `python -m scorekeeper serve | init-db | backup | count | draw` (or `scorekeeper …` when installed)."""
from __future__ import annotations

import json
import secrets
import sys

from . import create_app
from .backup import main as backup
from .engine.cards import parse_pile
from .engine.draw import draw as seat_draw
from .engine.errors import ScoreError
from .engine.games import count_pile, get_game, resolve_rules
from .engine.text import fmt_points
from .serve import main as serve
from .store.db import Unusable

USAGE = """usage:
  python -m scorekeeper serve [--server gunicorn|waitress]
                                             serve the app (HOST, PORT, WORKERS from the environment)
  python -m scorekeeper init-db              create or upgrade the database
  python -m scorekeeper backup DEST_DIR [--keep N]
                                             copy the database into DEST_DIR, keeping the newest N (default 14)
  python -m scorekeeper count GAME CARD...   count a pile (e.g. count troccas SW-K CU-Q BA-J T5)
  python -m scorekeeper draw --game GAME --players N --rounds R [--seed S]
                                             a cup's seating draw as JSON (start numbers 1..N; a seed if none given)
"""


def main(argv: list[str]) -> int:
    """Run one command; return the exit code (2 for bad input)."""
    if not argv:
        print(USAGE, file=sys.stderr)
        return 2
    command, args = argv[0], argv[1:]
    if command == "count":
        return count(args)
    if command == "draw":
        return draw(args)
    if command == "init-db":
        return init_db()
    if command == "backup":
        return backup(args)
    if command == "serve":
        return serve(args)
    print(USAGE, file=sys.stderr)
    return 2


def count(args: list[str]) -> int:
    """Print a pile's points and working; exit 2 with the message for bad cards or games."""
    if not args:
        print("usage: python -m scorekeeper count GAME CARD...", file=sys.stderr)
        return 2
    try:
        game = get_game(args[0])
        rules = resolve_rules(game, None)
        result = count_pile(game, parse_pile(args[1:], game.deck, game.name), rules)
    except ScoreError as e:
        print(f"error: {e.message}", file=sys.stderr)
        return 2
    print(f"{fmt_points(result.points)} points ({result.cards} cards)")
    print(result.working)
    if result.oudlers is not None:
        print(f"oudlers: {result.oudlers}")
    if result.rest is not None:
        print(f"the other side: {fmt_points(result.rest.points)} points ({result.rest.cards} cards)")
    for warning in result.warnings:
        print(f"warning: {warning}")
    return 0


DRAW_USAGE = "usage: python -m scorekeeper draw --game GAME --players N --rounds R [--seed S]"


def draw(args: list[str]) -> int:
    """Print a cup's seating draw as JSON, {"seed": S, "rounds": [[[start numbers at table 1], …], …]}, and its
    repeat meetings on stderr; exit 2 with one sentence for bad input (engine/draw.py)."""
    given: dict[str, str] = {}
    rest = list(args)
    while rest:
        flag = rest.pop(0)
        if flag not in ("--game", "--players", "--rounds", "--seed") or not rest:
            print(DRAW_USAGE, file=sys.stderr)
            return 2
        given[flag[2:]] = rest.pop(0)
    if "game" not in given or "players" not in given or "rounds" not in given:
        print(DRAW_USAGE, file=sys.stderr)
        return 2
    numbers = {}
    for name in ("players", "rounds", "seed"):
        if name not in given:
            continue
        try:
            numbers[name] = int(given[name])
        except ValueError:
            print(f"error: --{name} must be a whole number, not “{given[name]}”.", file=sys.stderr)
            return 2
    if numbers["players"] < 1 or numbers["rounds"] < 1:
        print("error: --players and --rounds must be at least 1.", file=sys.stderr)
        return 2
    seed = numbers.get("seed", secrets.randbelow(10**6))
    try:
        game = get_game(given["game"])
        result = seat_draw(numbers["players"], numbers["rounds"], game.players_allowed(resolve_rules(game, None)),
                           seed)
    except ScoreError as e:
        print(f"error: {e.message}", file=sys.stderr)
        return 2
    print(json.dumps(result.as_json()))
    print(f"repeat meetings: {result.repeats}", file=sys.stderr)
    return 0


def init_db() -> int:
    """Create or upgrade the database (create_app runs the migrations; this only starts it once)."""
    try:
        create_app()
    except Unusable as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


def run() -> None:
    """The `scorekeeper` command an installed package puts on the PATH."""
    sys.exit(main(sys.argv[1:]))


if __name__ == "__main__":
    run()
