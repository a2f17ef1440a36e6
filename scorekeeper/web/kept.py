"""What an app keeps worked out per table version: a table's evening (web/scoreboard.py), an evening's totals for
its circle's page (web/circle/circles.py). Any change moves a table's version on, so a value kept for a version is never
stale; a newer version replaces it. Bounded, least recently used first; per app (never across apps)."""
from __future__ import annotations

import threading
from collections import OrderedDict

from flask import current_app


class ByVersion:
    """{key: (version, value)}, least recently used first, holding at most `limit` by `weight` (at least one)."""

    def __init__(self, limit: int, weight=lambda value: 1):
        self._kept: OrderedDict = OrderedDict()
        self._limit = limit
        self._weight = weight
        self._held = 0
        self._lock = threading.Lock()  # a worker's threads share it

    @property
    def held(self) -> int:
        """The weight of what is kept now (counted as values come and go, not summed on every request)."""
        return self._held

    def items(self) -> list:
        """[(key, (version, value))], least recently used first."""
        with self._lock:
            return list(self._kept.items())

    def get(self, key):
        """Return (version, value) kept under key, now the most recently used, or None."""
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def at(self, key, version):
        """Return the value kept under key for exactly this version, or None."""
        found = self.get(key)
        return found[1] if found is not None and found[0] == version else None

    def keep(self, key, version: int, value) -> None:
        """Keep value for key's version, unless a newer version was kept meanwhile (by another thread); then drop
        the least recently used past the limit."""
        with self._lock:
            old = self._kept.get(key)
            if old is not None and old[0] > version:
                return
            self._held += self._weight(value) - (self._weight(old[1]) if old is not None else 0)
            self._kept[key] = (version, value)
            self._kept.move_to_end(key)
            while len(self._kept) > 1 and self._held > self._limit:
                _key, (_version, gone) = self._kept.popitem(last=False)
                self._held -= self._weight(gone)


def of_app(name: str, limit: int, weight=lambda value: 1) -> ByVersion:
    """Return this app's ByVersion called `name`, made on first use."""
    found = current_app.extensions.get(name)
    if found is None:
        found = current_app.extensions.setdefault(name, ByVersion(limit, weight))
    return found
