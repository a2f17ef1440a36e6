"""A table's evening: players, hands, scoreboard, settle-up (the pages)."""
from __future__ import annotations

from flask import Blueprint

bp = Blueprint("tables", __name__)
