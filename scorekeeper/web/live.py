"""The table on every phone: share links with QR codes, the live scoreboard, who may change what.

Every URL that names a table (`<table_id>`) takes a key instead: the table's own id (its creator's
link), its scorer link or its viewer link. The key is resolved before the view runs, the view gets
the table's real id, and url_for() writes the key back, so a page never shows a stronger link than
the one it was opened with.
"""
from __future__ import annotations

import hashlib
import os
import socket

import segno
from flask import (Blueprint, Response, abort, current_app, g, make_response, redirect, render_template, request,
                   session, url_for)
from flask_babel import gettext as _

from .. import store
from . import board, l10n
from ..engine.games import get_game

bp = Blueprint("live", __name__)

POLL = "every 2s"  # a change shows on every phone within one poll, well inside the 3 seconds
VIEWER_OK = {"live.view", "live.board", "live.numbers", "live.share", "tables.settle_up", "tables.history", "tables.how", "exports.csv",
             "exports.json"}
CREATOR_ONLY = {"live.rotate"}
LOOPBACK = ("127.", "localhost", "[::1]", "::1")


# ---- keys in URLs ----

def refuse(message: str, status: int = 403):
    """Stop the request with a friendly page (or, for the scoreboard poll, stop polling and say why)."""
    if request.endpoint == "live.board":
        # htmx stops polling on 286; the message replaces the live status line
        abort(Response(render_template("_live_off.html", message=message), 286))
    abort(Response(render_template("error.html", status=status, message=message), status))


def hand_gone(number: int):
    """Stop with a 404 that says the hand isn't (or is no longer) on this table."""
    abort(Response(render_template("error.html", status=404, message=_(
        "Hand %(n)s isn't on this table: it may have been deleted on another phone. Nothing was changed.",
        n=number)), 404))


@bp.app_url_value_preprocessor
def resolve_key(endpoint, values):
    """Turn the key in a table URL into the table's id, and refuse what the key's role may not do."""
    key = (values or {}).get("table_id")
    if key is None:
        return
    access = store.find_link(key)
    if access is None:
        return  # the view's own lookup gives the friendly 404
    if not access.active:
        refuse(_("This scorer link was turned off by the table's creator. Ask them for the new link; "
                 "nothing was changed."), 410)
    if access.role == store.VIEWER:
        if endpoint == "tables.show":
            abort(redirect(url_for("live.view", table_id=key), 303))
        if endpoint not in VIEWER_OK or request.method != "GET":
            refuse(_("This is a viewer link: it shows the scoreboard but can't change anything. "
                     "Nothing was changed."))
    if endpoint in CREATOR_ONLY and access.role != store.CREATOR:
        refuse(_("Only the phone that opened this table can do that. Nothing was changed."))
    g.table_key, g.table_id, g.table_role = key, access.table_id, access.role
    g.table = access.table  # read with the key: the view's load() needn't read it again
    values["table_id"] = access.table_id


@bp.app_url_defaults
def keep_key(endpoint, values):
    """Write links to this table with the key the page was opened with."""
    if g.get("table_id") is not None and values.get("table_id") == g.table_id:
        values["table_id"] = g.table_key


def role() -> str:
    return g.get("table_role", store.CREATOR)


# ---- the machine's address on the local network ----

def lan_address() -> str | None:
    """Return this machine's LAN address, found without sending anything, or None."""
    for probe in ("192.168.255.255", "10.255.255.255", "172.31.255.255"):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.connect((probe, 9))  # a UDP connect only picks the route: no packet leaves
            except OSError:
                continue
            address = s.getsockname()[0]
        if not address.startswith(("127.", "0.")):
            return address
    return None


def lan_base() -> str | None:
    """Return http://LAN-ADDRESS:PORT/ when the server listens on every interface, else None."""
    host = current_app.config.get("SERVE_HOST", os.environ.get("HOST"))
    if host != "0.0.0.0":
        return None
    address = lan_address()
    if address is None:
        return None
    port = current_app.config.get("SERVE_PORT", os.environ.get("PORT", "5000"))
    return f"http://{address}:{port}/"


def external(endpoint: str, **values) -> str:
    """Return a full URL phones can open: the LAN address when this page was opened on localhost."""
    path = url_for(endpoint, **values)
    if request.host.startswith(LOOPBACK):
        base = lan_base()
        if base:
            return base.rstrip("/") + path
    return request.host_url.rstrip("/") + path


def qr(url: str) -> str:
    """Return a QR code of the URL as an SVG data: URI (the page's CSP allows data: images)."""
    return segno.make(url, error="m").svg_data_uri(border=2, omitsize=True, dark="#000", light="#fff")


@bp.record_once
def helpers(state):
    state.app.jinja_env.globals.update({"lan_link": lan_base, "qr": qr, "can_change": lambda: role() != store.VIEWER,
                                        "live_etag": lambda table: etag(table.version)})


# ---- pages ----

def load(table_id):
    try:
        return table_of(table_id)
    except store.NotFound:
        abort(404)


def table_of(table_id: str):
    """Return the table, as read with this request's key if it is that table, else from the store."""
    table = g.get("table")
    return table if table is not None and table.id == table_id else store.get_table(table_id)


def scoreboard(table) -> dict:
    """Return what the scoreboard partials (_totals, _hands) need to render the table."""
    b = board.current(table)
    return dict(table=b.table, game=get_game(table.game), b=b)  # b.table: the table the board shows


def etag(version: int) -> str:
    """Name one rendering of the scoreboard: the table's version (in the database), the role, the language."""
    return f"v{version}.{role()}.{l10n.locale_id()}"


def page_tag(table) -> str:
    """Name what a table's page shows this phone, so that opening it again, unchanged, costs a 304.

    The table's version, the role and the language with the region numbers and money are written in,
    the address asked, this session's CSRF token and the app's files (both are in the page). Tokens for
    the page's forms are in it too: a page is only ever reused while the table is at the same version,
    so none of them was used (any change they make moves the version on), and the page renews them
    anyway (static/offline.js). The release that renders it too: new markup is a new page.
    """
    from .pwa import build, release
    parts = (etag(table.version), l10n.locale_id(table.currency), request.full_path,
             session.get("csrf_token", ""), build()["version"], release())
    return "p" + hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:24]


def answer_page(table, render):
    """Answer a table's page (the scorer's or a viewer's): 304 if the phone holds this very page (its service
    worker asks with the tag it kept, static/sw.js), else the page with its tag. A page carrying a message
    said once (a flash: "Hand 7 saved") has none: it is never shown again."""
    said_once = "_flashes" in session
    tag = None if said_once else page_tag(table)
    if tag is not None and tag in asked_tags():
        response = Response(status=304)
        response.set_etag(tag)
        return response
    response = make_response(render())
    if not said_once and response.status_code == 200:
        response.set_etag(page_tag(table))  # after rendering: a first page made this session's CSRF token
    return response


def asked_tags() -> set[str]:
    """Return the tags the phone's If-None-Match names, each without the encoding Flask-Compress adds to a
    compressed 200's ETag ("<tag>:br", ":gzip"): the same page or version either way."""
    return {t.split(":")[0] for t in request.if_none_match.as_set(include_weak=True)}


def _shown_version(tags=None) -> int | None:
    """Return the version the phone shows, from its If-None-Match (or `tags`), if it is this role and language's."""
    _v, role_now, locale_now = etag(0).split(".", 2)
    for tag in (asked_tags() if tags is None else tags):
        version, _, rest = tag.split(":")[0].partition(".")  # X-Board may carry the encoding too
        if rest == f"{role_now}.{locale_now}" and version[1:].isascii() and version[1:].isdigit() \
                and version.startswith("v") and len(version) < 12:
            return int(version[1:])
    return None


def shown_by_form() -> int | None:
    """Return the version the saving phone's page shows (X-Board, the poll's ETag, sent by static/offline.js)."""
    tag = request.headers.get("X-Board", "")
    return _shown_version([tag.strip().strip('"')]) if 0 < len(tag) < 80 else None


def only_added(table, b, shown: int | None) -> int | None:
    """Return how many hands, the last rows of board `b`, were added since version `shown` and nothing else.

    None if anything else happened (an edit, a delete, an undo, a change of the table, whose "From hand …"
    lines only the whole list says right), or it can't be told: then the whole board is sent.
    """
    if shown is None or b.pending:
        return None
    now_at, added = board.added_since(table.id, shown, table.version)
    rows = b.rows
    if (not added or now_at != table.version or len(rows) <= len(added)
            or [r.hand.number for r in rows[-len(added):]] != [h.number for h in added]
            or any(r.changes for r in rows[-len(added):])):
        return None
    return len(added)


@bp.get("/v/<table_id>")
def view(table_id):
    table = load(table_id)
    return answer_page(table, lambda: render_template("table_view.html", read_only=True, **scoreboard(table)))


@bp.get("/t/<table_id>/board", endpoint="board")
def board_region(table_id):
    """Answer the scoreboard poll: 304 while the table's version is unchanged, else the new regions."""
    shown = _shown_version()
    if shown is not None:
        version, added = store.added_since(table_id, shown)
        if version is None:
            abort(404)
    else:
        try:
            version, added = store.table_version(table_id), None
        except store.NotFound:
            abort(404)
    if shown == version:
        response = Response(status=304)
    else:
        parts = scoreboard(load(table_id))
        table = parts["table"]
        # only hands added since the phone's version: their rows alone, on top of its list (_board.html's switch)
        count = only_added(table, parts["b"], shown) if added else None
        response = Response(render_template("_board.html", added=count, **parts))
        version = table.version
    response.set_etag(etag(version))
    response.headers["Cache-Control"] = "no-store"  # the poll sends If-None-Match itself; no browser cache
    return response


@bp.get("/t/<table_id>/numbers")
def numbers(table_id):
    """Answer the evening in numbers being opened: its region, from the board of the table as it is now."""
    return render_template("_numbers_body.html", **scoreboard(load(table_id)))


@bp.get("/t/<table_id>/share")
def share(table_id):
    table = load(table_id)
    keys = store.share_links(table.id)
    shown = [(store.VIEWER, external("live.view", table_id=keys[store.VIEWER]))]
    if role() != store.VIEWER:
        shown.append((store.SCORER, external("tables.show", table_id=keys[store.SCORER])))
    return render_template("share.html", table=table, game=get_game(table.game), links=shown,
                           creator=role() == store.CREATOR, rotated=request.args.get("rotated") == "1")


@bp.post("/t/<table_id>/share/scorer")
def rotate(table_id):
    table = load(table_id)
    store.new_scorer_link(table.id)
    return redirect(url_for("live.share", table_id=table.id, rotated=1), 303)
