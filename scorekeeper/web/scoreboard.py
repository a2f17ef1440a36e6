"""The live scoreboard's regions: the ids of the table page that a watcher's poll and a Save's answer bring anew.

Each region is one partial whose root element has that id; the answers (_board.html, with its rows-only switch,
and _saved.html) render them, and htmx swaps each by id (hx-select-oob). The lists are declared here once, and the
templates write their hx-select-oob from them (a region added is one partial and one name here).
"""
from __future__ import annotations

BOARD = ("totals", "chart", "numbers-body", "seated", "hands")  # what any change of the table may move
POLL = (*BOARD, "live", "hand-title")  # a poll: also its own element (the new tag) and the next hand's heading
SAVE = ("said", *BOARD, "undo-last")  # a Save's answer: also the line saying the hand, and the Undo button
REGIONS = {"poll": POLL, "save": SAVE}


def select_oob(kind: str) -> str:
    """Return htmx's hx-select-oob list for an answer of `kind` ("poll", "save"): "#totals,#chart,…"."""
    return ",".join("#" + region for region in REGIONS[kind])
