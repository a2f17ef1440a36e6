"""The counting aid inside a hand form: tap the cards, or say how many of each class; the count fills the points.

One rule for what is counted: tapped cards or class counts, never both (a mix is refused with a
message, not half-counted). Save counts too: when the counted side's points are left empty, the
count fills them, so the preview (which does the same) says what Save records.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from types import SimpleNamespace

from flask import render_template, url_for
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ..engine.cards import parse_pile
from ..engine.errors import ScoreError
from ..engine.games import CLASSES, cards_for_classes, class_sizes, count_pile, get_game, resolve_rules
from ..engine.naming import class_label
from .l10n import locale_id, points, say
from .parse import digits
from . import hand_form
from .deck import group_size

SEGMENTED = 6  # a class of at most this many cards gets one button per count (one tap), the rest a number


@dataclass
class Aid:
    """What the counting aid shows: its classes, the messages at them, the groups so far, the last count."""

    rows: list
    errors: dict = field(default_factory=dict)
    count: object = None
    groups: list = field(default_factory=list)  # [(cards, points)] added one group at a time
    ticked: list = field(default_factory=list)  # the cards tapped and not yet in a group
    group_size: int | None = None  # cards in one group, where the game counts in groups (pairs: 2)
    # "field:points:basis" when the points field holds what a count of tapped cards or of classes (the basis) put
    # there, not what the player typed: posted back with the form, so a count made again from more (or fewer) of
    # the same replaces it (the cards and the points never disagree); static/hand_form.js empties such a field as
    # soon as what it was counted from changes
    counted: str = ""
    bonus: tuple | None = None  # (its words, its points) added to the last count: Sicily's last trick (Count.bonus)
    # the piles counted from tapped cards, by target, posted back with the form (`pile`: "target card card …"): Save
    # records those cards as the hand's facts, as the API takes them, so the engine counts them, warns and refuses
    # as it does there (hand_form.read checks each still holds the points its count put in its field)
    piles: dict = field(default_factory=dict)

    @property
    def used(self) -> bool:
        """Say whether anything was tapped, grouped, counted or given by class."""
        return bool(self.groups or self.ticked or self.count is not None or any(r["value"] for r in self.rows))


def start(game, table, formdata) -> Aid:
    """Return the counting aid for a form: its classes, and the groups and taps posted with it."""
    if not game.counts_cards:
        return Aid([])  # no card points: nothing to count, whatever was posted
    rules = resolve_rules(game, table.rules)
    aid = Aid(rows(game, table, formdata), group_size=group_size(game), counted=formdata.get("counted", "")[:60])
    groups = [g.split() for g in formdata.getlist("group") if g.split()]
    try:
        for g in groups:
            parse_pile(g, game.deck, game.name)
        parse_pile([c for g in groups for c in g], game.deck, game.name)  # no card in two groups
    except ScoreError:
        groups = []  # tampered groups are dropped, never half-counted
    aid.groups = [(g, count_pile(game, g, rules).points) for g in groups]
    grouped = {c for g in groups for c in g}
    aid.ticked = [c for c in dict.fromkeys(formdata.getlist("card")) if c not in grouped]
    posted = formdata.getlist("pile")
    targets = {c.target for c in hand_form.declared(game, table, None)[1].counts} if posted else set()
    for text in posted[:len(targets)]:
        target, _sp, cards = text.partition(" ")
        try:
            if target in targets:
                aid.piles[target] = parse_pile(cards.split(), game.deck_of(rules), game.name)
        except ScoreError:
            pass  # a tampered pile is dropped: its points are read as typed
    return aid


def add_group(form, game, table, aid: Aid, remove: str = "") -> None:
    """Add the tapped cards as one group (or take group `remove` out); a message at the count if not."""
    if not form.entry.counts:
        return  # a game without card points has no counting aid
    rules = resolve_rules(game, table.rules)
    if remove:
        i = digits(remove, most=3)
        if i is not None and i < len(aid.groups):
            del aid.groups[i]
        return
    if not aid.ticked:
        hand_form.fail(form.count_of, _("Tick the cards of the group first."))
        return
    if aid.group_size and len(aid.ticked) > aid.group_size:
        hand_form.fail(form.count_of, _("A group has at most %(n)d cards; you ticked %(m)d.", n=aid.group_size,
                                        m=len(aid.ticked)))
        return
    try:
        cards = parse_pile(aid.ticked, game.deck, game.name)
    except ScoreError as e:
        hand_form.fail(form.count_of, say(e))
        return
    aid.groups.append((cards, count_pile(game, cards, rules).points))
    aid.ticked = []


def rows(game, table, formdata) -> list[dict]:
    """Return the classes a pile is counted by, in this game's words, with what was given."""
    return [dict(row, value=(formdata.get("c_" + row["name"]) or "").strip())
            for row in _classes(game.id, json.dumps(table.rules, sort_keys=True), locale_id())]


@lru_cache(maxsize=256)
def _classes(game_id: str, rules: str, language: str) -> tuple:
    """Return a game's classes under some house rules, in one language: worked out once (every form shows them)."""
    game = get_game(game_id)
    resolved = resolve_rules(game, json.loads(rules))
    sizes = class_sizes(game, resolved)
    return tuple(dict(name=c, label=say(class_label(game, c, resolved)), size=sizes[c], segmented=sizes[c] <= SEGMENTED)
                 for c in CLASSES if sizes[c])


def url(table) -> str:
    """Return the address a table page's new-hand form fetches the aid's classes and cards from (count/_count-aid.html).

    No table's key is in it: they are the same for every table of the game and house rules. Its `v` is a
    digest of what it holds, in this language, so the browser and the worker keep it for a year, and a new
    version of the app, of its words or of the rules is a new address.
    """
    rules = _json(table.rules)
    return url_for("counting.aid", game_id=table.game, rules=rules, v=_fragment(table.game, rules, locale_id())[1])


def fragment(game_id: str, rules: dict) -> tuple[str, str]:
    """Return the aid's classes and cards, empty, for a game and house rules in this request's language, and a
    digest of them."""
    return _fragment(game_id, _json(rules), locale_id())


def _json(rules: dict) -> str:
    """The house rules as one string, the same for the same rules (the address's, and the key they're kept by)."""
    return json.dumps(rules, sort_keys=True, separators=(",", ":"))


@lru_cache(maxsize=256)
def _fragment(game_id: str, rules: str, language: str) -> tuple[str, str]:
    game = get_game(game_id)
    table = SimpleNamespace(game=game_id, rules=json.loads(rules))  # all the fragment reads of a table
    html = render_template("count/_count-aid.html", game=game, table=table, aid=start(game, table, MultiDict()))
    return html, hashlib.sha256(html.encode()).hexdigest()[:12]


def wanted(formdata) -> bool:
    """Say whether anything was given to count: a tapped card, a group or a class count."""
    return bool(formdata.getlist("card") or formdata.getlist("group")) or \
        any((formdata.get("c_" + c) or "").strip() for c in CLASSES)


def default_target(form) -> str | None:
    """Return whose pile a count fills when nobody said: a two-sided game's first side, unless switched."""
    switch = form.entry.switch()
    if not form.game.two_sided or not form.entry.counts:
        return None  # every player's own pile: never guess whose
    if switch and form[switch[0]].data == switch[1]:
        return None  # e.g. a Troggu misère: the sides don't apply
    return form.entry.counts[0].target


def count(form, game, table, formdata, aid: Aid) -> bool:
    """Count what was given and fill the target's points; messages at the fields if it can't."""
    rules = resolve_rules(game, table.rules)
    sizes = class_sizes(game, rules)
    counts = {}
    for c in CLASSES:
        text = (formdata.get("c_" + c) or "").strip()
        if not text:
            continue
        n = digits(text, most=3)
        if n is None or n > sizes[c]:
            aid.errors[c] = _("Write a whole number from 0 to %(max)s.", max=sizes[c])
        else:
            counts[c] = n
    ticked = [c for g, _points in aid.groups for c in g] + aid.ticked  # groups and taps are one pile
    if ticked and counts:
        hand_form.fail(form.count_of, _("Count either by tapping the cards or by class, not both: clear one."))
        return False
    if not ticked and not counts and not aid.errors:
        hand_form.fail(form.count_of, _("Tap the cards, or say how many of each class, then count."))
        return False
    if aid.errors:
        return False
    target = form.count_of.data or default_target(form)
    if not target or target not in dict(form.count_of.choices):
        hand_form.fail(form.count_of, _("Choose whose cards you counted."))
        return False
    found = next(c for c in form.entry.counts if c.target == target)
    if found.bonus and not form[found.bonus[0]].data:
        # points in no pile (Sicily's last trick): whose they are is asked, never guessed
        hand_form.fail(form[found.bonus[0]], hand_form.bonus_first(form, found))
        return False
    try:
        pile = parse_pile(ticked, game.deck_of(rules), game.name) if ticked else cards_for_classes(game, counts, rules)
        aid.count = count_pile(game, pile, rules)
    except ScoreError as e:
        hand_form.fail(form.count_of, say(e))
        return False
    form.count_of.data = target
    aid.bonus = hand_form.fill_count(form, target, aid.count)
    if ticked:
        aid.piles[target] = list(pile)
    else:
        aid.piles.pop(target, None)  # counted by class: no cards to record, the points are the hand's
    aid.counted = f"{found.points}:{form[found.points].data}:{'cards' if ticked else 'classes'}:{target}"
    return True


def before_save(form, game, table, formdata, aid: Aid) -> bool:
    """On Save or preview: count first when a count was given and its side's points are empty.

    Return False (messages at the fields) when the count can't be made; True otherwise.
    """
    if not wanted(formdata) or not form.entry.counts:
        return True  # nothing to count, or a game without card points: what was posted for it is ignored
    target = form.count_of.data or default_target(form)
    found = next((c for c in form.entry.counts if c.target == target), None)
    typed = (form[found.points].data or "").strip() if found is not None else ""
    if typed and aid.counted != f"{found.points}:{typed}:{basis(formdata, aid)}:{target}":
        aid.counted = ""
        return True  # the points were typed: they win, the count is only an aid
    return count(form, game, table, formdata, aid)  # none typed, or only what the last count put there


def basis(formdata, aid: Aid) -> str:
    """Say what a count would be made from now: "cards" (tapped or grouped), "classes", or "both"/"" (no count)."""
    cards = bool(aid.ticked or aid.groups)
    classes = any((formdata.get("c_" + c) or "").strip() for c in CLASSES)
    return "both" if cards and classes else "cards" if cards else "classes" if classes else ""


def tally(aid: Aid) -> dict | None:
    """Say the count so far: the working, the points no pile holds (the last trick), the other side's cards, and
    what the count warns of (a pile no deal gives), as the API's count says it."""
    c = aid.count
    if c is None:
        return None
    text = _("Counted so far: %(working)s.", working=say(c.working))
    if aid.bonus:
        text += " " + _("With the last trick: %(points)s.", points=points(c.points + aid.bonus[1]))
    if c.rest is not None:
        text += " " + _("The other side's cards: %(points)s.", points=points(c.rest.points))
    return {"text": text, "warnings": [say(w) for w in c.warnings]}
