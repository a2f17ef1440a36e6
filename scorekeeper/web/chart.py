"""The evening as a chart: each player's running total over the hands, drawn on the server as SVG.

No chart library and no script reach the browser (the CSP stays as it is): the page gets an inline
<svg> with one path per player, colours from app.css classes, and the same story in words for
screen readers.
"""
from __future__ import annotations

from flask_babel import gettext as _

from .l10n import isolated, money, signed

WIDTH, HEIGHT, PAD = 360, 160, 6  # a 390 px phone less its margins; the SVG scales up on a laptop
POINTS = 60


def path(xs: list[int], ys: list[int]) -> str:
    """Return an SVG path through the points, each step relative to the last ("M6,80l6,-3 6,2"): the same
    line as absolute points in about half the bytes, and the repeated steps compress well."""
    steps = " ".join(f"{x1 - x0},{y1 - y0}" for x0, x1, y0, y1 in zip(xs, xs[1:], ys, ys[1:]))
    return f"M{xs[0]},{ys[0]}l{steps}"


def in_order_of_arrival(board) -> list[str]:
    """Return the players in the order they came to the table: the first hand's, then each one who joined.

    A player's colour (and line width) is their place in this order, so it stays theirs when someone joins or
    leaves, whatever order the scoreboard lists them in. Seats change only where a hand says so (its changes): the
    evening keeps the order (engine/evening.py Evening.arrival), so a Save doesn't walk every hand for it."""
    return list(board.arrival)


def chart(board) -> dict | None:
    """Return what table/_chart.html draws: a line (an SVG path) per player, the zero line, and the story in words."""
    last = board.rows[-1] if board.rows else None
    if last is None or last.charted < 2:
        return None  # one hand is no story yet
    # a hand the engine can't score (the rules changed under it) is no point of the line; the extremes are
    # kept with the rows (engine/evening.py), so a long evening's chart costs its 60 points, not every hand
    rows = board.rows if last.charted == len(board.rows) else [r for r in board.rows if not r.error]
    players = in_order_of_arrival(board)
    low, high = last.low, last.high
    span = (high - low) or 1
    step = (WIDTH - 2 * PAD) / len(rows)
    inner = HEIGHT - 2 * PAD

    def y(v) -> int:
        return round(PAD + (high - v) * inner / span)

    # at most POINTS points a line (one per 6 pixels): a long evening's chart, sent again with every saved
    # hand and every watcher's poll, costs no more than a 60-hand one
    every = max(1, -(-len(rows) // POINTS))
    ks = list(range(0, len(rows) + 1, every))
    if ks[-1] != len(rows):
        ks.append(len(rows))
    xs = [round(PAD + k * step) for k in ks]
    # the running totals after the first k hands, for each k drawn but the start (0 for everyone); a Save
    # draws the whole chart again, so this is written for speed: y()'s arithmetic inline, no call per point
    drawn = [rows[k - 1].after_units for k in ks[1:]]
    start = y(0)
    lines = [{"player": p, "colour": i % 10,
              "path": path(xs, [start, *[round(PAD + (high - after[p]) * inner / span) for after in drawn]])}
             for i, p in enumerate(players)]
    words = _("After %(n)s hands: %(standings)s. Highest: %(high)s; lowest: %(low)s.", n=len(rows),
              standings=", ".join(f"{isolated(p)} {signed(last.after_units[p])}" for p in players),
              high=signed(high), low=signed(low))
    return {"width": WIDTH, "height": HEIGHT, "zero": y(0), "lines": lines, "words": words,
            "high": signed(high), "low": signed(low)}


def season_chart(people: list[str], steps: list[dict], currency: str) -> dict | None:
    """Return what circle/_season-chart.html draws: each person's money over the season, evening by evening (the same
    drawing as the evening's chart). `steps`: after each evening, {person: money so far} (minor units)."""
    if len(steps) < 2:
        return None  # one evening is no story yet
    low = min(0, *(v for s in steps for v in s.values()))
    high = max(0, *(v for s in steps for v in s.values()))
    span, inner = (high - low) or 1, HEIGHT - 2 * PAD

    def y(v) -> int:
        return round(PAD + (high - v) * inner / span)

    every = max(1, -(-len(steps) // POINTS))
    ks = list(range(0, len(steps) + 1, every))
    if ks[-1] != len(steps):
        ks.append(len(steps))
    xs = [round(PAD + k * (WIDTH - 2 * PAD) / len(steps)) for k in ks]
    lines = [{"player": p, "colour": i % 10, "path": path(xs, [y(0), *[y(steps[k - 1].get(p, 0)) for k in ks[1:]]])}
             for i, p in enumerate(people)]
    last = steps[-1]
    words = _("After %(n)s evenings: %(standings)s.", n=len(steps),
              standings=", ".join(f"{isolated(p)} {money(last.get(p, 0), currency, signed=True)}" for p in people))
    return {"width": WIDTH, "height": HEIGHT, "zero": y(0), "lines": lines, "words": words,
            "high": money(high, currency, signed=True), "low": money(low, currency, signed=True)}
