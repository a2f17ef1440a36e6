"""The home page: open a table, this phone's tables and circles, count a pile."""
from __future__ import annotations

from flask import Blueprint, render_template

from ..engine.games import all_games

bp = Blueprint("home", __name__)


@bp.get("/")
def home():
    return render_template("home.html", games=all_games().values())
