"""The one hand form: built from a game's entry declaration (engine/entry.py), read back into facts.

Three ways to make it, so that the last hand's defaults never change what a post means:
`new_form` (defaults, some from the last hand), `posted_form` (exactly what was posted) and
`edit_form` (a stored hand's facts). `read` turns a posted form into the hand's facts, with a
message at each field that is wrong; `layout` gives the template what to draw, in page order.
"""
from __future__ import annotations

import json
import threading
from collections import OrderedDict
from fractions import Fraction
from functools import lru_cache

from flask_babel import gettext
from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField, SelectMultipleField, StringField, widgets

from .. import store
from ..engine.entry import EntryError, Group, Number, PerSeat, Pick, Ticks, active
from .l10n import locale_id, points, say
from .parse import HALF, WHOLE
from .said import as_played
from ..engine.evening import DAMAGED, Damaged
from ..engine.games import count_pile, get_game, resolve_rules
from ..engine.text import Line, line



class HandForm(FlaskForm):
    """What every hand form has: the idempotency token, the version being edited, the counting aid."""

    token = HiddenField()
    version = HiddenField()
    setup = HiddenField()  # the table's setup the seats were numbered for (store.fingerprint)
    count_of = RadioField(choices=[], validate_choice=False)

    class Meta:
        def get_translations(self, form):
            return None  # no WTForms validator runs on it: every message is ours (read, fail), in the player's words


class Checkboxes(SelectMultipleField):
    widget = widgets.ListWidget(prefix_label=False)
    option_widget = widgets.CheckboxInput()


def fail(field, message) -> None:
    """Attach a message (a Line or text) to a field; WTForms keeps errors as a tuple until validate()."""
    field.errors = [*field.errors, say(message)]


def _radio_value(value):
    """Keep a radio's value as text and nothing chosen as None (WTForms' default str() makes it "None")."""
    return value if value is None else str(value)


def _seat_label(label, player: str) -> str:
    """Say a per-player field's label: the player's name, or the label with {name} filled in."""
    if label is None:
        return player
    return say(Line(label.text, (*label.args, ("name", player))))


def expand(f, players) -> list[tuple[str, object, str | None]]:
    """Return the form fields one declared field makes: (form name, declaration, player or None)."""
    if isinstance(f, PerSeat):
        return [(f"{sub.name}{i}", sub, p) for i, p in enumerate(players) for sub in f.fields]
    return [(f.name, f, None)]


def _wtfield(f):
    if isinstance(f, Pick):
        blank = [("", say(f.blank))] if f.blank is not None else []
        return RadioField(choices=blank + [(v, say(label)) for v, label in f.choices],
                          default=f.default, validate_choice=False, coerce=_radio_value)
    if isinstance(f, Ticks):
        return Checkboxes(choices=[(v, say(label)) for v, label in f.choices], validate_choice=False)
    return StringField()


_CLASSES: OrderedDict = OrderedDict()  # the form classes made, newest last (a few hundred at most)
_MAKING = threading.Lock()


def _form_class(game_id: str, players: tuple, entry, key: str, language: str):
    """Return the WTForms class for one declaration, made once per players, declaration and language.

    `key` is the declaration's repr (its dataclasses say every field, label, choice and default; a Count's
    `sets` is a dict, so it can't be hashed itself), worked out once with the declaration (`declared`).
    """
    key = (game_id, players, key, language)
    with _MAKING:
        cls = _CLASSES.get(key)
        if cls is not None:
            _CLASSES.move_to_end(key)
            return cls
    attrs = {name: _wtfield(decl) for f, _groups in entry.walk() for name, decl, _p in expand(f, players)}
    cls = type(f"HandForm_{game_id}", (HandForm,), attrs)
    with _MAKING:
        _CLASSES[key] = cls
        while len(_CLASSES) > 256:
            _CLASSES.popitem(last=False)
    return cls


def declared(game, table, last: dict | None):
    """Return (the table's house rules resolved, the hand's entry declaration, the declaration's repr).

    They depend on nothing but the game, the players, the house rules and the last hand (for its defaults), so
    they are worked out once for those: a declaration is frozen dataclasses, and every request may share it.
    """
    return _declared(game.id, tuple(table.players), json.dumps(table.rules, sort_keys=True),
                     None if last is None else json.dumps(last, sort_keys=True))


@lru_cache(maxsize=1024)
def _declared(game_id: str, players: tuple, rules: str, last: str | None):
    game = get_game(game_id)
    resolved = resolve_rules(game, json.loads(rules))
    try:
        entry = game.entry(list(players), resolved, None if last is None else json.loads(last))
    except (LookupError, TypeError, ValueError, AttributeError, StopIteration):
        # the last hand's stored facts can't be read (engine/evening.py: DAMAGED): the next hand starts from no defaults
        entry = game.entry(list(players), resolved, None)
    return resolved, entry, repr(entry)


def _make(game, table, last, formdata=None):
    players = list(table.players)
    rules, entry, key = declared(game, table, last)
    cls = _form_class(game.id, tuple(players), entry, key, locale_id())
    form = cls(formdata=formdata)  # never the request's own: a new form after a Save starts from the defaults
    form.game, form.entry, form.players, form.rules = game, entry, players, dict(rules)
    form.count_of.choices = [(c.target, say(c.label)) for c in entry.counts]
    return form


def values(form) -> dict:
    """Return what each field of a form holds, as its inputs show it: the checked values of a choice (a list for
    ticks), the text of a box. A phone resets its own form to these after a Save (static/hand_form.js)."""
    out = {}
    for field in form:
        if field.name in ("csrf_token", "token", "version", "setup") or (isinstance(field, RadioField) and not field.choices):
            continue  # the hidden ones are sent apart; a choice without choices isn't on the page (no counting aid)
        if isinstance(field, (RadioField, SelectMultipleField)):
            chosen = [str(value) for value, _label, selected, *_ in field.iter_choices() if selected]
            out[field.name] = chosen if isinstance(field, SelectMultipleField) else (chosen[0] if chosen else "")
        else:
            out[field.name] = field._value()
    return out


def next_values(game, table, last: dict | None) -> dict:
    """Return values(new_form(game, table, last)) from the declaration alone, without building the form: each
    choice's default if it is one of its choices, no ticks, empty boxes (a Save's answer sends them)."""
    players = list(table.players)
    _rules, entry, _key = declared(game, table, last)
    out = {}
    for f, _groups in entry.walk():
        for name, decl, _player in expand(f, players):
            if isinstance(decl, Pick):
                chosen = _radio_value(decl.default)
                out[name] = chosen if chosen in {_radio_value(v) for v, _label in decl.choices} else ""
            else:
                out[name] = [] if isinstance(decl, Ticks) else ""
    if entry.counts:
        out["count_of"] = ""  # the counting aid's "whose pile": nobody's yet
    return out


def new_form(game, table, last: dict | None):
    """Return the form for the next hand: the declaration's defaults (some follow the last hand)."""
    return _make(game, table, last)


def posted_form(game, table, formdata):
    """Return the form as posted; nothing but the post decides what it means."""
    return _make(game, table, None, formdata)


def edit_form(game, table, facts: dict):
    """Return the form filled with a stored hand's facts."""
    form = _make(game, table, None)
    values = game.from_facts(facts, form.players, form.rules)
    form.piles = values.get("piles") or {}  # the cards a hand was entered with, by the aid's target
    for f, _groups in form.entry.walk():
        for name, decl, player in expand(f, form.players):
            value = values.get(decl.name)
            if player is not None:
                value = (value or {}).get(player)
            form[name].data = _text(decl, value)
    return form


def edit_values(game, table, facts: dict) -> dict:
    """Return values(edit_form(game, table, facts)) from the declaration alone, without building the form: what the
    table page's rows carry, so that a phone offline fills its own hand form with a hand it never opened
    (static/offline_edit.js). `table` is the table as the hand was played (board.played_under)."""
    players = list(table.players)
    rules, entry, _key = declared(game, table, None)
    given = game.from_facts(facts, players, dict(rules))
    out = {}
    for f, _groups in entry.walk():
        for name, decl, player in expand(f, players):
            value = given.get(decl.name)
            if player is not None:
                value = (value or {}).get(player)
            text = _text(decl, value)
            out[name] = text if isinstance(decl, Ticks) else ("" if text is None else str(text))
    if entry.counts:
        out["count_of"] = ""
    return out


def _text(decl, value):
    if isinstance(decl, Ticks):
        return list(value or [])
    if value is None:
        return ""
    return points(value) if isinstance(value, Fraction) else str(value)  # 40,5 in French: read back too


# ---- reading a posted form ----

def read(form, piles: dict | None = None) -> dict | None:
    """Return the hand's facts from a posted form, or None with a message at each wrong field.

    `piles` are the counting aid's piles counted from tapped cards (count_aid.Aid.piles): the game's `to_facts` gets
    those whose field still holds what their count put there (`values["piles"]`), and records their cards.
    """
    values, wrong = {"piles": counted_piles(form, piles or {})}, []
    for f, groups in form.entry.walk():
        if not active(groups, values):
            continue  # a group the switch turned off (e.g. the misère piles in a normal hand)
        if isinstance(f, PerSeat):
            for sub in f.fields:
                values[sub.name] = _read_seats(form, f, sub, wrong)
        else:
            values[f.name] = _read(form[f.name], f, wrong)
    if wrong:
        return None
    try:
        return form.game.to_facts(values, form.players, form.rules)
    except EntryError as e:
        for name, message in e.errors.items():
            fail(form[name], message)
        return None


def _read(field, f, wrong: list):
    """Read one field by its kind; on a wrong value record the message at the field."""
    message = None
    if isinstance(f, Pick):
        value = field.data or None  # nothing chosen: None (a player may be called "None")
        if value is None and f.required is not None:
            message = f.required
        elif value is not None and value not in {v for v, _label in f.choices}:
            message = line("Choose one of the offered answers.")
    elif isinstance(f, Ticks):
        ticked = set(field.data or [])
        value = [v for v, _label in f.choices if v in ticked]
    else:
        value, message = number(field.data, f)
    if message is not None:
        fail(field, message)
        wrong.append(field.name)
        return None
    return value


def _read_seats(form, f: PerSeat, sub, wrong: list) -> dict | None:
    """Read a per-player field; with `fill_from`, one number left blank is the rest of that total."""
    fields = [form[f"{sub.name}{i}"] for i in range(len(form.players))]
    if isinstance(sub, Number) and f.fill_from is not None:
        blank = [fd for fd in fields if not (fd.data or "").strip()]
        if len(blank) == 1:
            typed = [fd for fd in fields if fd is not blank[0]]
            known = [number(fd.data, sub) for fd in typed]
            if all(m is None for _v, m in known):
                total = sum(v for v, _m in known)
                rest = f.fill_from - total
                if sub.low <= rest <= sub.high:
                    blank[0].data = str(rest)
                else:
                    # no rest fits the empty field: what was typed is wrong, not the field left empty (which stays
                    # empty); the message goes to the numbers typed, saying what they add up to
                    message = (line("The numbers filled in add up to {total}, more than {most}: one of them is wrong.",
                                    total=total, most=f.fill_from - sub.low) if rest < sub.low else
                               line("The numbers filled in add up to {total}, less than {least}: one of them is wrong.",
                                    total=total, least=f.fill_from - sub.high))
                    for fd in typed:
                        fail(fd, message)
                        wrong.append(fd.name)
                    return None
    before = len(wrong)
    out = {p: _read(fd, sub, wrong) for p, fd in zip(form.players, fields)}
    return None if len(wrong) > before else out


def number(text, f: Number):
    """Parse typed points with bounds before any arithmetic; return (value, None) or (None, message)."""
    text = (text or "").strip().replace("−", "-")
    what = f.what or f.label
    if not text:
        return None, (None if f.optional else line("Enter the {what}.", what=what))
    if f.halves:
        m = HALF.fullmatch(text)
        if m is None:
            return None, line("The points must be a number such as 41 or 40.5.")
        fraction = (m[2] or "").rstrip("0")
        value = Fraction(int(m[1])) + (Fraction(1, 2) if fraction == "5" else 0)
        if fraction not in ("", "5") or not f.low <= value <= f.high:
            return None, line("The points must be between {low} and {high}, in whole or half points.",
                              low=f.low, high=f.high)
        return value, None
    if WHOLE.fullmatch(text) is None:
        return None, line("The {what} must be a whole number.", what=what)
    value = int(text)
    if not f.low <= value <= f.high:
        return None, line("The {what} must be between {low} and {high}.", what=what, low=f.low, high=f.high)
    return value, None


# ---- the counting aid ----

def fill_count(form, target: str, count) -> tuple | None:
    """Put a counted pile's points where the declaration says, with the points no pile holds where the form says
    they are this side's (Sicily's last trick); return (their words, their points) if added, else None."""
    found = next((c for c in form.entry.counts if c.target == target), None)
    if found is None:
        return None
    for name, value in found.sets.items():
        form[name].data = value
    extra = _bonus(form, found)
    total = count.points + (extra[1] if extra else 0)
    form[found.points].data = points(total) if total >= 0 else str(total)
    if found.oudlers is not None and count.oudlers is not None:
        form[found.oudlers].data = str(count.oudlers)
    if found.blatt is not None and count.blatt is not None:
        form[found.blatt].data = str(count.blatt) if count.blatt else None  # 0 Blatt: the pick's blank, "0"
    return extra


def _bonus(form, found) -> tuple | None:
    """Return (words, points) of the points no pile holds that the form gives this count's side, or None."""
    if not found.bonus:
        return None
    name, value, extra = found.bonus
    if form[name].data != value or not extra:
        return None
    return _label(form, name), extra


def _label(form, name: str) -> str:
    decl = next(f for f, _groups in form.entry.walk() if getattr(f, "name", None) == name)
    return say(decl.label)


def bonus_first(form, found) -> str:
    """Say that the points no pile holds must be given before the count (Sicily's last trick): never guessed."""
    return gettext("Choose “%(what)s” first: its %(points)s points are in no pile.", what=_label(form, found.bonus[0]),
                   points=found.bonus[2])


def counted_piles(form, piles: dict) -> dict:
    """Return the piles counted from tapped cards whose field still holds what their count put there (and the
    choices the count set, such as the side): the cards are the hand's. Points typed over a count are the player's."""
    out = {}
    for c in form.entry.counts:
        cards = piles.get(c.target)
        if cards is None or any(form[name].data != value for name, value in c.sets.items()):
            continue
        try:
            n = count_pile(form.game, cards, form.rules).points
        except ValueError:  # the engine's ScoreError: a pile this table's deck can't hold
            continue
        extra = _bonus(form, c)
        n += extra[1] if extra else 0
        if (form[c.points].data or "").strip() in (points(n), str(n)):
            out[c.target] = list(cards)
    return out


# ---- what the template draws ----

def layout(form) -> list[dict]:
    """Return the form's fields and groups in page order, labels said in the reader's language."""
    switch = form.entry.switch()
    return _nodes(form, form.entry.fields, switch)


def _nodes(form, fields, switch) -> list[dict]:
    out = []
    for f in fields:
        if isinstance(f, Group):
            children = _nodes(form, f.fields, switch)
            shown = "when" if f.when else "unless" if f.unless else None
            out.append(dict(kind="group", children=children, label=say(f.label) if f.label else None,
                            folded=f.folded, open=f.folded and _any_set(children), style=f.style,
                            hint=say(f.hint) if f.hint else None, shown=shown))
            continue
        for name, decl, player in expand(f, form.players):
            label = _seat_label(decl.label, player) if player is not None else say(decl.label)
            node = dict(kind=type(decl).__name__.lower(), field=form[name], label=label,
                        style=getattr(decl, "style", ""), needed=_needed(f, decl))
            if isinstance(decl, Pick):
                node["switch"] = switch[1] if switch and switch[0] == decl.name else None
            if isinstance(decl, Number):
                node["mode"] = "decimal" if decl.halves else "text" if decl.low < 0 else "numeric"
            out.append(node)
    return out


def _needed(f, decl) -> bool | str:
    """Whether the hand can't be read without this field: a choice that must be made, a number that must be typed,
    or "but-one", a number per player with a total (one of them may stay blank). The page asks for the preview once
    every needed field it shows is filled (static/hand_form.js)."""
    if isinstance(decl, Pick):
        return decl.required is not None
    if isinstance(decl, Number) and not decl.optional:
        return "but-one" if isinstance(f, PerSeat) and f.fill_from is not None else True
    return False


def _any_set(nodes) -> bool:
    return any(_any_set(n["children"]) if n["kind"] == "group" else bool(n["field"].data) for n in nodes)


def errors(form) -> list[str]:
    """Return the labels of the fields that hold a message, in page order (the summary above the form)."""
    out = [n["label"] for n in _flat(layout(form)) if n["field"].errors]
    if form.count_of.errors:
        out.append(gettext("Count the cards instead"))
    return out


def why_not(form) -> tuple[str, str] | None:
    """Say why a hand can't be scored by what was typed or chosen in it ("at most 91 points"), for the live preview:
    the first message at a field that holds something. A field still empty is a hand not yet entered, not a wrong
    one: the preview says nothing of it (the Save does)."""
    for n in _flat(layout(form)):
        field = n["field"]
        if field.errors and any(str(v).strip() for v in (field.raw_data or ())):
            return n["label"], field.errors[0]  # (the field's label, its message)
    return None


def _flat(nodes):
    for n in nodes:
        if n["kind"] == "group":
            yield from _flat(n["children"])
        else:
            yield n


def offline_edit(table, hand) -> str:
    """Return what a phone needs to edit this hand offline, as JSON for its row (static/offline_edit.js): what each field
    of its edit form holds, the version being edited, and the setup it was played with (the phone's own form is
    for the table's setup now; another setup's hand waits for the network). "" if the hand can't be read."""
    game = get_game(table.game)
    try:
        under = as_played(table, hand)
        values = edit_values(game, under, hand.facts)
    except (Damaged, *DAMAGED):
        return ""
    return json.dumps({"values": values, "version": hand.version,
                       "setup": store.fingerprint(store.current_setup(under))},
                      ensure_ascii=False, separators=(",", ":"))
