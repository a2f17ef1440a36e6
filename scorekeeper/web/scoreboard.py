"""The live scoreboard: the one module that knows how a table's evening reaches every phone.

- The regions. Each is one partial whose root element has that id (table/_<region>.html); the lists are declared
  here once (REGIONS), the answers render them from it (table/_regions.html, for a poll and a Save; a circle's
  circle/_poll.html) and the asking elements write their hx-select-oob from it, so htmx swaps each by id. A region
  added is one partial and one name here (and its place on the page).
- The kept evenings: one engine.evening.Evening per table and version, built once and extended by the hands a Save
  adds (a kept evening holds no words: every language shows the same one).
- The protocol: a version's ETag, the poll (304 while nothing changed, the rows added alone when only hands were
  added, else every region; a circle's poll the same way), the page's tag (a phone's service worker asks with it), a
  Save's board half and its answer's headers (save_answer).
"""
from __future__ import annotations

import hashlib
import json
from flask import Response, g, make_response, request, session

from .. import store
from ..engine import evening
from ..engine.evening import Evening, Setup
from . import l10n
from .access import role
from .kept import ByVersion, of_app
from .parse import digits
from .assets import build, release
from .site import asked_tags

BOARD = ("totals", "chart", "numbers-body", "seated", "hands")  # what any change of the table may move
POLL = (*BOARD, "live", "hand-title")  # a poll: also its own element (the new tag) and the next hand's heading
SAVE = ("said", *BOARD, "undo-last")  # a Save's answer: also the line saying the hand, and the Undo button
CIRCLE = ("circle-board", "season-cup-board", "live")  # a circle's poll: its board (standings, chart, what is owed, the
# pot, the evenings), its season of cups (issue 38 item 9)
CUP = ("cup-board", "live")  # a cup's poll (issue 38): the round's tables, the standings
PROJECTOR = ("cup-projector", "live")  # a cup's projector view: the round's count and the standings, large
REGIONS = {"poll": POLL, "save": SAVE, "circle": CIRCLE, "cup": CUP, "projector": PROJECTOR}


def select_oob(kind: str) -> str:
    """Return htmx's hx-select-oob list for an answer of `kind` ("poll", "save", "circle"): "#totals,#chart,…"."""
    return ",".join("#" + region for region in REGIONS[kind])


# ---- the kept evenings ----

ROWS_KEPT = 20_000  # hands kept in evenings per app process, all tables together (a few MB per thousand hands)


def _kept() -> ByVersion:
    """This app's evenings: (table, evening) per table id and version, bounded by the hands they hold."""
    return of_app("boards", ROWS_KEPT, weight=lambda kept: len(kept[1].rows))


def added_since(table_id: str, since: int, now_at: int):
    """Return store.added_since(table_id, since), read once per request for a table at version `now_at`
    (building the evening and answering a Save ask the same; a read before this request's own write is
    another key, as it saw another version)."""
    memo = g.setdefault("_added_since", {})
    key = (table_id, since, now_at)
    if key not in memo:
        memo[key] = store.added_since(table_id, since)
    return memo[key]


def written(table_id: str, since: int, now_at: int, added: list) -> None:
    """Note that this request's own write moved the table from version `since` to `now_at` by adding `added`
    (and nothing else: it held the table's lock), so that added_since needn't read back what it just wrote."""
    g.setdefault("_added_since", {})[(table_id, since, now_at)] = (now_at, list(added))


def kept_version(table) -> int | None:
    """Return the version of the evening kept for this table, if one is kept: a Save asks its write for the hands
    added since (store.save_hand's `since`), so that the evening catches up on them without reading them apart."""
    found = _kept().get(table.id)
    return found[0] if found is not None else None


def current(table) -> tuple[object, Evening]:
    """Return (the table, its evening) as the table page and every watcher show them, built once per version.

    The table is `table`, or the table as it is now if something was saved since `table` was read and the evening
    had to be built from the hands (the caller shows this one, not its own). Kept per app (never across apps), one
    evening per table: any change moves the version on, so a kept evening is never stale and an older version's
    is dropped. Bounded by the hands the kept evenings hold; a lock keeps a worker's threads from tripping.
    """
    version = table.version
    kept = _kept()
    found = kept.get(table.id)
    if found is not None and found[0] == version:
        return found[1]
    e = None
    if found is not None and found[0] < version:
        # hands only added since the kept evening (the changes log says so): score just those onto it
        now_at, added = added_since(table.id, found[0], version)
        kept_e = found[1][1]
        if added and now_at == version and kept_e.rows and added[0].number > kept_e.rows[-1].hand.number:
            e = evening.extend(kept_e, Setup.of(table), added)
    if e is None:
        at, hands = store.hands_at(table.id)
        for _try in range(3):
            if at is None or at == table.version:  # (None: no such table now; nothing newer to show)
                break
            # saved meanwhile, since `table` was read: the evening is of the table as the hands were read (its
            # version with it), never newer hands under an older version, whose next poll would add them twice
            table = store.get_table(table.id)
            at, hands = store.hands_at(table.id)
        e = evening.build(Setup.of(table), hands, evening.latest(len(hands)))
    kept.keep(table.id, table.version, (table, e))  # (unless another thread kept a newer one meanwhile)
    return table, e


def totals(table) -> tuple[object, evening.Totals]:
    """Return (the table, its evening's totals) as a season counts them, from the evening kept for its version
    (current: one kept evening per table version, whichever page asks; the totals are worked out once on it)."""
    table, e = current(table)
    return table, evening.totals(e)


def parts(table) -> dict:
    """Return what the scoreboard partials (_totals, _hands…) need: the table they show, its game, its evening."""
    table, e = current(table)
    return dict(table=table, game=e.game, b=e)


# ---- versions, tags and the poll ----

def etag(version: int | str) -> str:
    """Name one rendering of a scoreboard: the table's version (in the database; a circle's tag), the role, the
    language."""
    return f"v{version}.{role()}.{l10n.locale_id()}"


def page_tag(table, path: str | None = None) -> str:
    """Name what a table's page shows this phone, so that opening it again, unchanged, costs a 304.

    The table's version, the role and the language with the region numbers and money are written in,
    the address asked, this session's CSRF token and the app's files (both are in the page). Tokens for
    the page's forms are in it too: a page is only ever reused while the table is at the same version,
    so none of them was used (any change they make moves the version on), and the page renews them
    anyway (static/outbox.js). The release that renders it too: new markup is a new page. `path`: the page's address
    as asked ("/t/<key>?"), when the request is another's (a Save names the page it leaves the phone showing).
    """
    tag = (etag(table.version), l10n.locale_id(table.currency), path or request.full_path,
           session.get("csrf_token", ""), build()["version"], release())
    return "p" + hashlib.sha256("\x00".join(tag).encode()).hexdigest()[:24]


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


def shown_version(tags=None) -> int | None:
    """Return the version the phone shows, from its If-None-Match (or `tags`), if it is this role and language's."""
    _v, role_now, locale_now = etag(0).split(".", 2)
    for tag in (asked_tags() if tags is None else tags):
        version, _, rest = tag.split(":")[0].partition(".")  # X-Board may carry the encoding too
        if rest == f"{role_now}.{locale_now}" and version.startswith("v") and digits(version[1:]) is not None:
            return digits(version[1:])
    return None


def shown_by_form() -> int | None:
    """Return the version the saving phone's page shows (X-Board, the poll's ETag, sent by static/board.js)."""
    tag = request.headers.get("X-Board", "")
    return shown_version([tag.strip().strip('"')]) if 0 < len(tag) < 80 else None


def only_added(table, e: Evening, shown: int | None) -> int | None:
    """Return how many hands, the last rows of evening `e`, were added since version `shown` and nothing else.

    None if anything else happened (an edit, a delete, an undo, a change of the table, whose "From hand …"
    lines only the whole list says right), or it can't be told: then the whole board is sent.
    """
    if shown is None or e.pending:
        return None
    now_at, added = added_since(table.id, shown, table.version)
    rows = e.rows
    if (not added or now_at != table.version or len(rows) <= len(added)
            or [r.hand.number for r in rows[-len(added):]] != [h.number for h in added]
            or any(r.changes for r in rows[-len(added):])):
        return None
    return len(added)


def after_save(table_id: str, written_: store.Added, since: int | None):
    """Return (table, evening, the last change, the saved hand's row or None, rows added) for a Save's answer.

    Nothing to read back: the table, the hand and the last change as this write left them (the evening kept at
    the version before it is extended by this hand alone, or one kept at `since` by the hands the write also
    brought: another worker's saves), unless the table has moved on since. For a form posted twice (nothing
    written), the table as it is now.
    """
    if written_.table is not None:
        written(table_id, written_.table.version - 1, written_.table.version, [written_.hand])
        if written_.before is not None:
            written(table_id, since, written_.table.version, [*written_.before, written_.hand])
        table, e = current(written_.table)
        last = written_.change if table.version == written_.table.version else store.last_change(table_id)
    else:
        table, e = current(store.get_table(table_id))
        last = store.last_change(table_id)  # read after the evening: Undo names its last change or a later one
    number = written_.hand.number
    row = next((r for r in reversed(e.rows) if r.hand.number == number), None)  # gone if undone meanwhile
    added = only_added(table, e, shown_by_form()) if row is not None else None
    return table, e, last, row, added


def save_answer(response, table, next_hand: dict | None = None):
    """Say a Save's answer in the protocol: its ETag is the version it shows (the page's poll goes on from there),
    X-Page-Tag the page's tag (page_tag); with `next_hand` (the next hand's token and values, and the table's setup
    if it isn't the one the form was made for: the phone already has the form), X-Next-Hand carries them and
    nothing is swapped in place of the form (HX-Reswap: none; static/hand_form.js resets the form)."""
    if next_hand is not None:
        response.headers["HX-Reswap"] = "none"
        response.headers["X-Next-Hand"] = json.dumps(next_hand, ensure_ascii=True, separators=(",", ":"))
    # the tag of the table page this answer leaves the phone showing: the phone keeps its own copy of the page under
    # it (static/kept_pages.js), and asked with it later the server answers 304
    response.headers["X-Page-Tag"] = page_tag(table, request.path.rsplit("/hands", 1)[0] + "?")
    response.set_etag(etag(table.version))
    return response


def live_etag(table) -> str:
    return etag(table.version)


def answer_poll(version: int | str, render) -> Response:
    """Answer a board's poll (a table's, a circle's): 304 while the phone shows this version (the If-None-Match
    static/board.js sends from the poll element's data-etag), else render()'s regions; the ETag names the version,
    and no browser cache keeps it (the poll asks itself)."""
    tag = etag(version)
    response = Response(status=304) if tag in asked_tags() else Response(render())
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-store"
    return response
