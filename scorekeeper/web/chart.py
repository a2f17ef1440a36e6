"""The evening as a chart: each player's running total over the hands, drawn on the server as SVG.

No chart library and no script reach the browser (the CSP stays as it is): the page gets an inline
<svg> with one polyline per player, colours from app.css classes, and the same story in words for
screen readers.
"""
from __future__ import annotations

from flask_babel import gettext as _

from .l10n import signed

WIDTH, HEIGHT, PAD = 360, 160, 6  # a 390 px phone less its margins; the SVG scales up on a laptop


def chart(board) -> dict | None:
    """Return what _chart.html draws: a polyline per player, the zero line, and the story in words."""
    rows = [r for r in board.rows if not r.error]
    if len(rows) < 2:
        return None  # one hand is no story yet
    players = list(board.players)
    series = {p: [0] + [r.after_units[p] for r in rows] for p in players}
    values = [v for line in series.values() for v in line]
    low, high = min(values), max(values)
    span = (high - low) or 1
    step = (WIDTH - 2 * PAD) / len(rows)

    def y(v) -> int:
        return round(PAD + (high - v) * (HEIGHT - 2 * PAD) / span)

    # at most one point per pixel: a long evening's chart costs no more than a 180-hand one
    every = max(1, len(rows) // 180)
    ks = list(range(0, len(rows) + 1, every))
    if ks[-1] != len(rows):
        ks.append(len(rows))
    lines = [{"player": p, "colour": i % 10,
              "points": " ".join(f"{round(PAD + k * step)},{y(series[p][k])}" for k in ks)}
             for i, p in enumerate(players)]
    words = _("After %(n)s hands: %(standings)s. Highest: %(high)s; lowest: %(low)s.", n=len(rows),
              standings=", ".join(f"{p} {signed(series[p][-1])}" for p in players),
              high=signed(high), low=signed(low))
    return {"width": WIDTH, "height": HEIGHT, "zero": y(0), "lines": lines, "words": words,
            "high": signed(high), "low": signed(low)}
