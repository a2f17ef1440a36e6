"""Command line: `python -m scorekeeper count GAME CARD...` and `python -m scorekeeper init-db`."""
from __future__ import annotations

import sys

USAGE = """usage:
  python -m scorekeeper count GAME CARD...   count a pile (e.g. count troccas SW-K CU-Q BA-J T5)
  python -m scorekeeper init-db              create or upgrade the database
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
    print(USAGE, file=sys.stderr)
    return 2


def count(args: list[str]) -> int:
    """Print a pile's points and working; exit 2 with the message for bad cards or games."""
    from .engine.cards import parse_pile
    from .engine.errors import ScoreError
    from .engine.games import count_pile, get_game, resolve_rules
    from .engine.text import fmt_points

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
    from . import create_app
    create_app()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
