"""Command line: `python -m scorekeeper serve | init-db | backup | count` (or `scorekeeper …` when installed)."""
from __future__ import annotations

import sys

from . import create_app
from .backup import main as backup
from .engine.cards import parse_pile
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
"""


def main(argv: list[str]) -> int:
    """Run one command; return the exit code (2 for bad input)."""
    if not argv:
        print(USAGE, file=sys.stderr)
        return 2
    command, args = argv[0], argv[1:]
    if command == "count":
        return count(args)
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
