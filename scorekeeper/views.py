"""The pages a player sees: home (and, as they land, counting, rules and tables)."""
from __future__ import annotations

from flask import Blueprint, render_template

from .games import all_games

bp = Blueprint("views", __name__)


@bp.get("/")
def home():
    return render_template("home.html", games=all_games().values())
