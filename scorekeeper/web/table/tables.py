"""A table's evening: enter, fix, delete and undo hands; the table page, its history, settle up.

Hand forms are not validate()d: CSRFProtect checks every POST app-wide, hand_form.read checks each
fact with a message at its field, and the engine has the last word on values (its sentence shown).
"""
from __future__ import annotations

from urllib.parse import quote

from flask import (Blueprint, current_app, flash, get_flashed_messages, make_response, redirect,
                   render_template, request, url_for)
from flask_babel import format_number
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict
from werkzeug.routing import IntegerConverter

from ... import store
from ...engine import evening
from ...engine.errors import ScoreError
from ...engine.evening import Setup
from ...engine.games import resolve_rules
from .. import count_aid, hand_form, scoreboard
from .. import said as words
from ..access import hand_gone, load, load_hand, viewer_ok, watched_at
from ..l10n import say
from ..links import external
from ..parse import digits
from ..round_clock import closed_hands, cup_round
from ..table_form import form_token, new_token

bp = Blueprint("tables", __name__)


class HandNumber(IntegerConverter):
    """A hand's number in a URL: 1 to 9 ASCII digits (Werkzeug's int reads any Unicode digit: /hands/１)."""

    regex = r"[0-9]{1,9}"


@bp.record_once
def _converter(state):
    state.app.url_map.converters["hand"] = HandNumber


HAND = "<hand:number>"  # nine digits: a hand number in a URL fits the database's INTEGER column


def page(table, game, form, status=200, message=None, preview=None, engine_error=None, aid=None, cup=...):
    """Render the table page: the new-hand form above the scoreboard (`cup`: store.tournament_of_table's answer if
    read already: at a cup's table, its round, closed or its clock, shows)."""
    found = store.tournament_of_table(table.id) if cup is ... else cup
    message = message or next(iter(get_flashed_messages(category_filter=["message"])), None)
    table, b = scoreboard.current(table)  # the table the evening shows (newer if saved since it was read)
    deleted = next(iter(get_flashed_messages(category_filter=["deleted"])), None)
    return render_template("table/page.html", table=table, game=game, form=form, b=b,
                           last=store.last_change(table.id), message=message, preview=preview,
                           engine_error=engine_error, said=said(b), deleted=deleted and int(deleted),
                           cup_round=cup_round(table, found),
                           watch=external("live.view", table_id=store.share_links(table.id)[store.VIEWER]),
                           aid=aid or count_aid.start(game, table, request.form)), status


def said(b) -> tuple | None:
    """Return (the row, "saved" or "changed") of the hand just saved or changed, said above the totals."""
    for kind in ("saved", "changed"):
        numbers = get_flashed_messages(category_filter=[kind])
        row = next((r for r in b.rows if numbers and str(r.hand.number) == numbers[-1]), None)
        if row is not None:
            return row, kind
    return None


@bp.get("/t/<table_id>")
@watched_at("live.view")
def show(table_id):
    """The scorer's page: the scoreboard and the next hand's form."""
    table, game = load(table_id)
    found = store.tournament_of_table(table.id)
    state = cup_round(table, found)
    if state is not None and (state.closed or state.clock):
        # closing a round, or setting its clock, moves no table's version on: this page is made anew, never a 304
        return page(table, game, next_form(table, game, scoreboard.current(table)[1]), cup=found)
    return scoreboard.answer_page(table, lambda: page(table, game, next_form(table, game, scoreboard.current(table)[1]),
                                                      cup=found))


def next_form(table, game, b):
    """Return the form for the next hand, with a fresh token and the table's setup it is made for."""
    form = hand_form.new_form(game, table, b.rows[-1].hand.facts if b.rows else None)
    form.token.data = form_token()
    form.setup.data = store.fingerprint(store.current_setup(table))  # the seats this form's fields are for
    return form


def saved(table_id, game, written: store.Added, aid_used: bool, since: int | None = None):
    """Answer a Save made through htmx: the regions a saved hand changes, not the whole page.

    The next hand's form, only if this hand used the counting aid (else the phone resets its own form to
    the values in X-Next-Hand, and the heading comes alone), the line saying the hand with Undo, the totals, chart and numbers, the rows
    added since the version the page showed (X-Board) on top of the list, or the whole list if anything
    else happened meanwhile on another phone, and the Undo button below. Its ETag is the version all
    this shows, which the page's poll asks from: the version this save made (a later change on another
    phone comes with the next poll), or for a form posted twice, the table's as it is now.
    """
    table, b, last, row, added = scoreboard.after_save(table_id, written, since)
    form = next_form(table, game, b) if aid_used else None
    response = make_response(render_template(
        "table/_saved.html", table=table, game=game, b=b, form=form, number=None, send_form=aid_used,
        aid=count_aid.start(game, table, MultiDict()) if aid_used else None, last=last,
        said=(row, "saved") if row is not None else None, added=added, preview=None, engine_error=None))
    next_hand = None
    if not aid_used:  # the phone resets its own form to the next hand's values (static/hand_form.js)
        last = b.rows[-1].hand.facts if b.rows else None
        next_hand = {"values": hand_form.next_values(game, table, last)}  # its token: the phone's (form_token)
        setup = store.fingerprint(store.current_setup(table))
        if setup != request.form.get("setup"):  # the table was changed meanwhile: the next hand is for its setup now
            next_hand["setup"] = setup
    return scoreboard.save_answer(response, table, next_hand)


def check_hand(form, table, aid):
    """Return (facts, None) from a posted form, or (None, the engine's sentence) with messages kept on the form."""
    facts = hand_form.read(form, aid.piles)
    if facts is None:
        return None, None
    try:
        words.score(table, facts)
    except ScoreError as e:
        return None, say(e)
    return facts, None


def form_only():
    """Say whether htmx asked for the form region alone (STYLE.md habit 7: decide on HX-Target)."""
    return request.headers.get("HX-Target") == "hand-form"


@bp.post("/t/<table_id>/hands")
def add(table_id):
    """Save a hand (or preview it): scored, stored once, answered with what changed."""
    table, game = load(table_id)
    form = hand_form.posted_form(game, table, request.form)
    aid = count_aid.start(game, table, request.form)
    engine_error = None
    done, preview = counting_step(form, game, table, aid)
    if not done and count_aid.before_save(form, game, table, request.form, aid):
        facts, engine_error = check_hand(form, table, aid)
        if facts is not None:
            limit = current_app.config["MAX_HANDS"]
            since = scoreboard.kept_version(table) if form_only() else None
            try:
                written = store.save_hand(table.id, facts, form.token.data or None, limit=limit,
                                          made_for=form.setup.data or None, since=since)
                if form_only():  # htmx: only what changed (the offline queue and no-JS posts get the page)
                    return saved(table.id, game, written, aid.used, since)
                flash(str(written.hand.number), "saved")  # said on the next page, with Undo beside it
                return redirect(url_for("tables.show", table_id=table.id), 303)
            except store.Moved:
                # the players, stake or house rules changed on another phone since this form was made
                form.setup.data = store.fingerprint(store.current_setup(table))
                engine_error = _("The table was changed on another phone meanwhile (players, stake or house "
                                 "rules). Check this hand against the table as it is now, then save again.")
            except store.RoundClosed as e:
                engine_error = closed_hands(e.round)
            except store.RoundFull as e:
                engine_error = ngettext("This round is played over %(num)s game per table, and this table has it: "
                                        "nothing more is saved here.",
                                        "This round is played over %(num)s games per table, and this table has "
                                        "them all: nothing more is saved here.", e.games)
            except store.Full:
                engine_error = _("This table already holds %(n)s hands, the most one table can keep. Export it "
                                 "and open a new table for the rest of the evening.", n=format_number(limit))
    if form_only():
        answer = render_template("table/_hand-form.html", table=table, game=game, form=form, number=None,
                                 preview=preview, engine_error=engine_error, aid=aid)
    else:
        answer = page(table, game, form, preview=preview, engine_error=engine_error, aid=aid)
    return answer if done else refused(answer, form, engine_error)


def refused(answer, form, *sentences):
    """Mark the answer to a Save that recorded nothing: X-Refused says why in one sentence (percent-encoded UTF-8),
    which the phone's queue shows in its list (static/outbox.js), rather than working it out from the page."""
    wrong = hand_form.errors(form)
    said = [_("Not saved yet: look at %(fields)s.", fields=", ".join(wrong))] if wrong else []
    said += [str(s) for s in sentences if s]
    response = make_response(answer)
    response.headers["X-Refused"] = quote(" ".join(said) or _("Not saved yet: look at the form."))
    return response


@bp.post("/t/<table_id>/preview")
def preview(table_id):
    """Preview the hand as Save would record it (a count given with empty points is counted first)."""
    table, game = load(table_id)
    form = hand_form.posted_form(game, table, request.form)
    aid = count_aid.start(game, table, request.form)
    facts = hand_form.read(form, aid.piles) if count_aid.before_save(form, game, table, request.form, aid) else None
    return render_template("table/_preview.html", preview=words.preview(table, facts) if facts is not None else None,
                           tally=count_aid.tally(aid), why=hand_form.why_not(form) if facts is None else None)


def counting_step(form, game, table, aid) -> tuple[bool, dict | None]:
    """Do what a counting button asked (Count, Add as a group, remove a group, show the cards to a phone without
    scripts): (True, preview) if it was one.

    (False, None) means the post is a Save, for add and edit alike.
    """
    action = request.form.get("action", "")
    if action == "aid":  # a phone without scripts asks for the cards to tap: the form comes back with them
        return True, None
    if action == "count":
        return True, counted(form, game, table, aid)
    if action == "group" or action.startswith("ungroup:"):
        count_aid.add_group(form, game, table, aid, remove=action.partition(":")[2])
        return True, None
    return False, None


def counted(form, game, table, aid) -> dict | None:
    """Count the cards into the form (the Count button); return the preview if the hand is now complete."""
    if not count_aid.count(form, game, table, request.form, aid):
        return None
    facts = hand_form.read(form, aid.piles)  # preview the hand if it's now complete; no nagging if not
    for field in form:
        field.errors = []
    return words.preview(table, facts) if facts is not None else None


@bp.route(f"/t/<table_id>/hands/{HAND}", methods=["GET", "POST"])
def edit(table_id, number):
    """Correct a past hand: its form filled in, saved in place; later hands are scored again."""
    table, game, hand = load_hand(table_id, number)
    message = preview = engine_error = None
    try:
        under = words.as_played(table, hand)  # an old hand is fixed with the players, stake and rules it had
        resolve_rules(game, under.rules)
        table = under
    except (evening.Damaged, ScoreError):  # its setup can't be read: the form is the table's as it is now, saying so
        message = say(evening.DAMAGED_SETUP)
    aid = count_aid.start(game, table, request.form)
    if request.method == "GET":
        try:
            form = hand_form.edit_form(game, table, hand.facts)
            aid.piles = dict(form.piles)  # a hand entered with its cards keeps them, unless its points are changed
        except evening.DAMAGED:  # stored facts the form can't show: an empty form, to enter the hand again
            form = hand_form.new_form(game, table, None)
            message = message or say(evening.DAMAGED_FACTS)
        form.token.data, form.version.data = new_token(), str(hand.version)
        preview = words.preview(table, hand.facts)
    else:
        form = hand_form.posted_form(game, table, request.form)
        done, preview = counting_step(form, game, table, aid)
        if not done and count_aid.before_save(form, game, table, request.form, aid):
            facts, engine_error = check_hand(form, table, aid)
            version = digits(form.version.data)
            if version is None and (form.version.data or "").strip():
                version = -1  # a version that is no version (10**30, text): never current, so "changed meanwhile"
            if facts is not None:
                try:
                    store.edit_hand(table.id, number, facts, form.token.data or None, version)
                    flash(str(number), "changed")
                    return redirect(url_for("tables.show", table_id=table.id, _anchor=f"hand-{number}"), 303)
                except store.NotFound:
                    hand_gone(number)  # deleted on another phone since this form was loaded
                except store.RoundClosed as e:
                    engine_error = closed_round(e)
                except store.Stale as e:
                    form.version.data = str(e.hand.version)
                    message = _("This hand was changed meanwhile (now: %(summary)s). Save again to replace it "
                                "with what you see here.", summary=words.summary(table, e.hand.facts))
    context = dict(table=table, game=game, form=form, number=number, preview=preview, engine_error=engine_error,
                   aid=aid)
    if form_only():
        answer = render_template("table/_hand-form.html", **context)
    else:
        answer = render_template("table/edit.html", message=message, **context)
    return refused(answer, form, engine_error, message) if request.method == "POST" and not done else answer


@bp.post(f"/t/<table_id>/hands/{HAND}/delete")
def delete(table_id, number):
    """Delete a hand (the table's last change may be undone)."""
    table, game = load(table_id)
    token = request.form.get("token") or None
    try:
        # the version the Delete button was shown with: a hand changed since on another phone is not deleted
        store.delete_hand(table.id, number, token, digits(request.form.get("version")))
        # said where the hand was, with Undo, and the page opens there (table/_hands.html's #deleted)
        flash(str(number), "deleted")
        back = digits(request.form.get("back"))  # deleted on a page of older hands: said there, where it was
        if back is not None:
            return redirect(url_for("tables.history", table_id=table.id, before=back, _anchor="deleted"), 303)
        return redirect(url_for("tables.show", table_id=table.id, _anchor="deleted"), 303)
    except store.NotFound:
        if store.by_token(token) is None:  # not a second tap on the same Delete
            hand_gone(number)
    except store.Stale:
        flash(_("Hand %(n)s was changed on another phone meanwhile, so nothing was deleted. Look at it, and "
                "delete it again if you still want to.", n=number), "message")
    except store.RoundClosed as e:
        flash(closed_round(e), "message")
    return redirect(url_for("tables.show", table_id=table.id), 303)


def closed_round(e) -> str:
    """Say that a closed round's table takes no correction until the director opens it for one."""
    return _("Round %(n)s of the cup is closed: its hands are corrected only when the director opens this table "
             "for a correction.", n=e.round)


@bp.post("/t/<table_id>/undo")
def undo(table_id):
    """Undo the table's last change (a hand saved, edited or deleted), once."""
    table, game = load(table_id)
    try:
        store.undo(table.id, request.form.get("token") or None, rename=game.rename,
                   expected=digits(request.form.get("change")))
    except store.Moved:
        flash(_("Nothing was undone: another phone changed the table since. The Undo button now names the last "
                "change."), "message")
    except store.RoundClosed as e:
        flash(closed_round(e), "message")
    return redirect(url_for("tables.show", table_id=table.id), 303)


HISTORY_PAGE = 50


@bp.get(f"/t/<table_id>/hands/{HAND}/how")
@viewer_ok
def how(table_id, number):
    """Say how one hand was scored, step by step (a hand row's "How", opened): the engine's working."""
    table, _game, hand = load_hand(table_id, number)
    try:
        lines = words.lines(words.score(words.as_played(table, hand), hand.facts).explanation)
    except evening.Damaged:
        lines = [say(evening.DAMAGED_SETUP)]
    except ScoreError as e:
        lines = [say(e)]
    except evening.DAMAGED:
        lines = [say(evening.DAMAGED_FACTS)]
    return render_template("table/_how.html", lines=lines)


@bp.get("/t/<table_id>/history")
@viewer_ok
def history(table_id):
    """Show older hands, a page at a time, newest first, ending before position `before`."""
    table, game = load(table_id)
    hands = store.list_hands(table.id)
    before = digits(request.args.get("before"))
    end = len(hands) if before is None else min(before, len(hands))
    b = evening.build(Setup.of(table), hands, range(max(0, end - HISTORY_PAGE), end))
    deleted = next(iter(get_flashed_messages(category_filter=["deleted"])), None)
    return render_template("table/history.html", table=table, game=game, b=b, rows=b.page(HISTORY_PAGE, end),
                           back=end, deleted=deleted and int(deleted), last=store.last_change(table.id))
