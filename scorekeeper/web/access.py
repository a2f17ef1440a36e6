"""Who may see and change a table, a circle or a cup (`<tournament_id>`: its director's or watch link): its keys in URLs, their roles, the marks on the views, loading it.

Every URL that names a table (`<table_id>`) takes a key instead: the table's own id (its creator's link), its
scorer link or its viewer link; every URL that names a circle (`<circle_id>`) takes its scorer or watch link. The key is resolved before the view runs (`resolve_key`), the view gets the
table's (or circle's) real id, and url_for() writes the key back (`keep_key`), so a page never shows a stronger link than the
one it was opened with.

What a key's role may do is written on the view, as flaskr's @login_required is: a viewer link may only GET the
views marked @viewer_ok; a view marked @creator_only answers the table's creator alone; the scorer may do the
rest. A view marked @polled is asked by the page's poll: a refusal stops the polling and says why.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import Response, abort, current_app, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from .. import store
from ..engine.games import get_game
from .site import error_page


def viewer_ok(view):
    """Mark a view a viewer (watch) link may open: it shows the table and changes nothing."""
    view.viewer_ok = True
    return view


def creator_only(view):
    """Mark a view only the table's creator may use (the phone that opened the table)."""
    view.creator_only = True
    return view


def polled(view):
    """Mark a view the page's poll asks: a refusal stops the polling (htmx's 286) with the reason on the page."""
    view.polled = True
    return view


def watched_at(endpoint: str):
    """Mark a scorer's view whose watch-link counterpart is `endpoint`: a viewer link opening it goes there."""
    def mark(view):
        view.watched_at = endpoint
        return view
    return mark


def install(app) -> None:
    app.url_value_preprocessor(resolve_key)
    app.url_defaults(keep_key)


def can_change() -> bool:
    """Whether this request's key may change the table (a scorer's or its creator's: not a watch link)."""
    return role() != store.VIEWER


def _view():
    return current_app.view_functions.get(request.endpoint) if request.endpoint else None


def refuse(message: str, status: int = 403):
    """Stop the request with a friendly page (or, for the scoreboard poll, stop polling and say why)."""
    if getattr(_view(), "polled", False):
        # htmx stops polling on 286; the message replaces the live status line
        abort(Response(render_template("table/_live_off.html", message=message), 286))
    abort(error_page(message, status))


def hand_gone(number: int):
    """Stop with a 404 that says the hand isn't (or is no longer) on this table."""
    abort(error_page(_("Hand %(n)s isn't on this table: it may have been deleted on another phone. Nothing was "
                       "changed.", n=number), 404))


@dataclass(frozen=True)
class _Kind:
    """What a link's key opens: a table, a circle or a cup. `name`: the URL value is `<name>_id` and the request's
    g holds `<name>_key`, `<name>_id` and `<name>` (what the view loads); `find`: the store's lookup of a key (None
    if it opens none); `open`: (its real id, what g keeps) from what was found; `off`: the sentence for a link
    turned off; `own_404`: the view gives its own 404 for a key that opens nothing (the API's JSON, the table's
    friendly page)."""

    name: str
    find: Callable
    open: Callable
    off: object
    own_404: bool = False


KINDS = (
    _Kind("table", lambda key: store.find_link(key), lambda access: (access.table_id, access.table),
          _l("This scorer link was turned off by the table's creator. Ask them for the new link; nothing was "
             "changed."), own_404=True),
    _Kind("circle", lambda key: store.find_circle(key), lambda circle: (circle.id, circle),
          _l("This scorer link was replaced by a new one. Ask the circle's scorer for the new link, or for the link "
             "to watch.")),
    _Kind("tournament", lambda key: store.find_tournament(key), lambda cup: (cup.id, cup),
          _l("This director's link was replaced by a new one. Ask the director for the new link, or for the link "
             "to watch.")),
)


def resolve_key(endpoint, values):
    """Turn the key in a table's, a circle's or a cup's URL (<table_id>, <circle_id>, <tournament_id>) into its id,
    and refuse what the key's role may not do: the same marks, sentences and statuses for each."""
    values = values if values is not None else {}
    for kind in KINDS:
        key = values.get(kind.name + "_id")
        if key is None:
            continue
        found = kind.find(key)
        if found is None:
            if kind.own_404:
                return
            abort(404)
        if not found.active:
            refuse(str(kind.off), 410)
        _allowed(endpoint, found.role, kind.name + "_id", key)
        real_id, thing = kind.open(found)
        setattr(g, kind.name + "_key", key)
        setattr(g, kind.name + "_id", real_id)
        setattr(g, kind.name, thing)  # read with the key: the view's load needn't read it again
        g.role = found.role
        values[kind.name + "_id"] = real_id
        return


def _allowed(endpoint, role_: str, name: str, key: str) -> None:
    """Refuse what a key of this role may not do on the view `endpoint`, by the view's marks."""
    view = current_app.view_functions.get(endpoint)
    if role_ == store.VIEWER:
        if getattr(view, "watched_at", None):
            abort(redirect(url_for(view.watched_at, **{name: key}), 303))
        if not getattr(view, "viewer_ok", False) or request.method != "GET":
            refuse(_("This is a viewer link: it shows the scoreboard but can't change anything. "
                     "Nothing was changed."))
    if getattr(view, "creator_only", False) and role_ != store.CREATOR:
        refuse(_("Only the phone that opened this table can do that. Nothing was changed."))


def keep_key(endpoint, values):
    """Write links to this table, circle or cup with the key the page was opened with."""
    for kind in KINDS:
        name = kind.name + "_id"
        if g.get(name) is not None and values.get(name) == g.get(name):
            values[name] = g.get(kind.name + "_key")


def role() -> str:
    """The role of the key this request's table or circle was opened with (its creator's, if opened by its id)."""
    return g.get("role", store.CREATOR)


def pasted_key(text: str | None) -> str:
    """Return the key of a link pasted or passed in: a whole address (its last part, without query or fragment) or
    the key alone."""
    return (text or "").strip().rstrip("/").rsplit("/", 1)[-1].split("?", 1)[0].split("#", 1)[0]


def table_may_change(key: str):
    """Return the store's Access for a table's link pasted or passed in (a whole address or the key alone), if
    that link may change the table (a scorer's or its creator's, still working), else None."""
    key = pasted_key(key)
    access = store.find_link(key) if key else None
    return access if access is not None and access.active and access.role != store.VIEWER else None


def load_circle(circle_id: str):
    """Return the circle its key opened (resolve_key read it, and refused a key that opens none)."""
    circle = g.get("circle")
    if circle is None or circle.id != circle_id:
        abort(404)
    return circle


def load_tournament(tournament_id: str):
    """Return the cup its key opened (resolve_key read it, and refused a key that opens none)."""
    cup = g.get("tournament")
    if cup is None or cup.id != tournament_id:
        abort(404)
    return cup


def table_of(table_id: str):
    """Return the table, as read with this request's key if it is that table, else from the store."""
    table = g.get("table")
    return table if table is not None and table.id == table_id else store.get_table(table_id)


def circle_of(table):
    """The circle a table is an evening of, as this request's key may open it: (the circle, its address), or None.
    A table's scorer (or creator) reaches the circle's scorer page, a watcher the circle's watch page."""
    if table.circle_id is None:
        return None
    found = g.setdefault("_circle_of", {})
    if table.circle_id not in found:
        circle = store.get_circle(table.circle_id)
        keys = store.share_links(circle.id, store.CIRCLE)
        key = keys[store.VIEWER] if role() == store.VIEWER else keys[store.SCORER]
        found[table.circle_id] = (circle, url_for("circles.show", circle_id=key))
    return found[table.circle_id]


def load(table_id: str):
    """Return the table and its game, or a friendly 404."""
    try:
        table = table_of(table_id)
    except store.NotFound:
        abort(404)
    return table, get_game(table.game)


def load_hand(table_id: str, number: int):
    """Return the table, its game and one of its live hands, or the friendly 404 that says the hand is gone."""
    table, game = load(table_id)
    try:
        return table, game, store.get_hand(table.id, number)
    except store.NotFound:
        hand_gone(number)
