"""The rules page of each game (/rules/<game>)."""
from __future__ import annotations

from flask import Blueprint

bp = Blueprint("rulebook", __name__)
