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


def frame(n: int) -> dict:
    """Return the drawing's x-axis for `n` steps (hands, evenings): x is the step's number, so a line sampled every k
    steps moves k to the right each time ("l2,-3 2,1 2,0"), which compresses to almost nothing where pixels made it
    6 and 7 by turns; the SVG is stretched to the phone's width (preserveAspectRatio none; app.css keeps the strokes'
    widths in pixels), with PAD pixels of margin either side."""
    pad = n * PAD / (WIDTH - 2 * PAD)
    return {"left": f"{-pad:.4g}", "right": f"{n + pad:.4g}", "width": f"{n + 2 * pad:.4g}", "height": HEIGHT}


def in_order_of_arrival(board) -> list[str]:
    """Return the players in the order they came to the table: the first hand's, then each one who joined.

    A player's colour (and line width) is their place in this order, so it stays theirs when someone joins or
    leaves, whatever order the scoreboard lists them in. Seats change only where a hand says so (its changes): the
    evening keeps the order (engine/evening.py Evening.arrival), so a Save doesn't walk every hand for it."""
    return list(board.arrival)


def grid(n: int) -> list[int]:
    """Return the steps a line of `n` steps is drawn through: at most POINTS of them (one per 6 pixels), every k-th from
    0, and the last. A long evening's chart, sent with every saved hand and every watcher's poll, costs no more than a
    60-hand one; a step on the grid stays on it until the grid widens (at n = 60 k), so a hand added leaves the line
    drawn so far as it was, but for its last point (chart_steps)."""
    every = max(1, -(-n // POINTS))
    ks = list(range(0, n + 1, every))
    if ks[-1] != n:
        ks.append(n)
    return ks


def axis(low, high) -> tuple:
    """Return the drawing's bottom and top: the lowest and highest totals so far (0 among them) rounded out to a round
    step, 1, 2 or 5 × 10^k, the least that is at least a quarter of their span. A new highest or lowest total then
    rescales the drawing only when it passes a step (a player who keeps winning sets one most hands), so a hand
    added brings only its steps (chart_steps); and the caption's top and bottom are round numbers."""
    span, step = high - low, 1
    while 4 * step < span:
        step = step * 5 // 2 if str(step)[0] == "2" else step * 2  # 1, 2, 5, 10, 20, 50 …
    return low // step * step, -(-high // step) * step


def _drawing(board):
    """Return (the rows drawn, the players in the order of their lines, y: a running total's height in the drawing),
    or None when there is no chart to draw yet (one hand is no story)."""
    last = board.rows[-1] if board.rows else None
    if last is None or last.charted < 2:
        return None
    # a hand the engine can't score (the rules changed under it) is no point of the line; the extremes are
    # kept with the rows (engine/evening.py), so a long evening's chart costs its 60 points, not every hand
    rows = board.rows if last.charted == len(board.rows) else [r for r in board.rows if not r.error]
    low, high = axis(last.low, last.high)
    span, inner = (high - low) or 1, HEIGHT - 2 * PAD

    def y(after: dict | None, p: str) -> int:  # after: the running totals after a hand (None: before the first)
        return round(PAD + (high - (after[p] if after is not None else 0)) * inner / span)
    return rows, in_order_of_arrival(board), y


def _words(rows, players) -> str:
    last = rows[-1]
    return _("After %(n)s hands: %(standings)s. Highest: %(high)s; lowest: %(low)s.", n=len(rows),
             standings=", ".join(f"{isolated(p)} {signed(last.after_units[p])}" for p in players),
             high=signed(last.high), low=signed(last.low))


def chart(board) -> dict | None:
    """Return what table/_chart.html draws: a line (an SVG path) per player, the zero line, and the story in words."""
    drawing = _drawing(board)
    if drawing is None:
        return None
    rows, players, y = drawing
    ks = grid(len(rows))
    drawn = [None, *[rows[k - 1].after_units for k in ks[1:]]]  # the running totals after the first k hands
    lines = [{"player": p, "colour": i % 10, "path": path(ks, [y(after, p) for after in drawn])}
             for i, p in enumerate(players)]
    bottom, top = axis(rows[-1].low, rows[-1].high)
    return {**frame(len(rows)), "hands": len(rows), "zero": y(None, players[0]), "lines": lines,
            "words": _words(rows, players), "high": signed(top), "low": signed(bottom)}


def chart_steps(board, added: int) -> dict | None:
    """Return how the chart a phone shows goes on when `added` hands were added to it and nothing else changed
    (table/_chart-steps.html; static/board.js draws them on): each line's last point taken off (`drop`: 1, when it was
    off the grid) and its steps from there, the drawing's new width and the story in words. None when the whole chart
    must come again: the grid widened, a new highest or lowest total passed the axis's step, or a hand can't be scored. About 40 B
    where the whole chart is ~570 B (compressed, a 1,000-hand evening of varied hands: bench/save.py)."""
    drawing = _drawing(board)
    if drawing is None:
        return None
    rows, players, y = drawing
    n = len(rows)
    m = n - added  # the hands of the chart the phone shows
    if n != len(board.rows) or m < 2:  # a hand the engine can't score: the whole chart (_drawing leaves it out)
        return None
    last, shown = rows[-1], rows[m - 1]
    every = grid(n)[1]
    if grid(m)[1] != every or axis(shown.low, shown.high) != axis(last.low, last.high):
        return None
    ks = [k for k in grid(n) if k >= m - m % every]  # from the phone's last point on the grid
    drawn = [rows[k - 1].after_units if k else None for k in ks]
    steps = [path(ks, [y(after, p) for after in drawn]).partition("l")[2] for p in players]
    return {**frame(n), "from": m, "to": n, "drop": 1 if m % every else 0, "lines": steps,
            "words": _words(rows, players)}


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
    lines = [{"player": p, "colour": i % 10, "path": path(ks, [y(0), *[y(steps[k - 1].get(p, 0)) for k in ks[1:]]])}
             for i, p in enumerate(people)]
    last = steps[-1]
    words = _("After %(n)s evenings: %(standings)s.", n=len(steps),
              standings=", ".join(f"{isolated(p)} {money(last.get(p, 0), currency, signed=True)}" for p in people))
    return {**frame(len(steps)), "zero": y(0), "lines": lines, "words": words,
            "high": money(high, currency, signed=True), "low": money(low, currency, signed=True)}
