"""A figure beside its goal and its last value: what `make bench` measured the last time it ran in this working copy
(bench/last.json, written as each figure is measured; committed with the change it measures, so a later run says what
moved). Only issue 40's figures say theirs so far (a Save's bytes and CPU, a hand in all, the first table page, the
circle page)."""
from __future__ import annotations

import json
import os
from pathlib import Path

LAST = Path(__file__).with_name("last.json")


def _read() -> dict:
    try:
        return json.loads(LAST.read_text())
    except (OSError, ValueError):
        return {}


def last(name: str, value: float, digits: int = 0) -> str:
    """Return "last <the figure's value the last time>" ("last: none" the first time) and keep `value` as the last."""
    known = _read()
    before = known.get(name)
    known[name] = round(value, digits) if digits else round(value)
    part = LAST.with_suffix(".part")
    part.write_text(json.dumps(known, indent=1, sort_keys=True) + "\n")
    os.replace(part, LAST)
    return f"last {before:.{digits}f}" if before is not None else "last: none"
