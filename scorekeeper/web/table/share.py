"""Sharing a table: its links for other phones, as QR codes, on the local network; a new scorer link."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for

from ... import store
from ..access import creator_only, load, role, viewer_ok
from ..links import external

bp = Blueprint("share", __name__)

@bp.get("/t/<table_id>/share")
@viewer_ok
def share(table_id):
    """The table's links with their QR codes: to watch, and (for the scorer) to score."""
    table, game = load(table_id)
    keys = store.share_links(table.id)
    shown = [(store.VIEWER, external("live.view", table_id=keys[store.VIEWER]))]
    if role() != store.VIEWER:
        shown.append((store.SCORER, external("tables.show", table_id=keys[store.SCORER])))
    rotate = url_for("share.rotate", table_id=table.id) if role() == store.CREATOR else None
    return render_template("table/share.html", table=table, game=game, links=shown, rotate=rotate,
                           rotated=request.args.get("rotated") == "1")


@bp.post("/t/<table_id>/share/scorer")
@creator_only
def rotate(table_id):
    """Turn the table's scorer link off and make a new one (its creator alone)."""
    table, _game = load(table_id)
    store.new_scorer_link(table.id)
    return redirect(url_for("share.share", table_id=table.id, rotated=1), 303)
