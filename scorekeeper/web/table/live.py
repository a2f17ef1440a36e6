"""The scoreboard on a watching phone: the watch page, the poll that keeps every phone's board current, and the
evening in numbers opened (the views; the protocol they speak is web/scoreboard.py's)."""
from __future__ import annotations

from flask import Blueprint, make_response, render_template, request

from ..access import load, polled, viewer_ok
from ..round_clock import cup_round
from ..scoreboard import answer_page, answer_poll, etag, only_added, parts, shown_version
from ..site import asked_tags

bp = Blueprint("live", __name__)


@bp.get("/v/<table_id>")
@viewer_ok
def view(table_id):
    """The watch page: the scoreboard without the hand form."""
    table, _game = load(table_id)
    return answer_page(table, lambda: render_template("table/view.html", read_only=True, **parts(table)))


@bp.get("/t/<table_id>/board", endpoint="board")
@viewer_ok
@polled
def board_region(table_id):
    """Answer the scoreboard poll: 304 while the table's version is unchanged, else the new regions.

    An idle poll reads the database once: the table, read with the key (web/access.py), has the version to compare.
    A cup's table's page also says the round it shows (X-Cup-Round): closing the round or setting its clock moves
    no table's version on, so its poll reads the round too, and brings it when it changed (alone, if nothing else did).
    """
    table, _game = load(table_id)
    shown_parts = {}
    asked = request.headers.get("X-Cup-Round")
    now = cup_round(table) if asked is not None else None
    moved = now if now is not None and now.tag != asked else None
    if moved is not None and etag(table.version) in asked_tags():
        response = make_response(render_template("table/_cup-round.html", cup_round=moved, oob=True))
        response.set_etag(etag(table.version))
        response.headers["Cache-Control"] = "no-store"
        return response

    def board():
        shown_parts.update(parts(table))
        # only hands added since the phone's version: their rows alone, on top of its list (table/_board.html's switch)
        count = only_added(shown_parts["table"], shown_parts["b"], shown_version())
        return render_template("table/_board.html", added=count, cup_round=moved, **shown_parts)

    response = answer_poll(table.version, board)
    if shown_parts and shown_parts["table"].version != table.version:  # saved meanwhile: the board shows the newer
        response.set_etag(etag(shown_parts["table"].version))
    return response


@bp.get("/t/<table_id>/numbers")
@viewer_ok
def numbers(table_id):
    """Answer the evening in numbers being opened: its region, from the evening of the table as it is now."""
    return render_template("table/_numbers-body.html", **parts(load(table_id)[0]))
