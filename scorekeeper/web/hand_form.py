"""One hand-entry form per game: the facts API.md names, big buttons, defaults from the last hand.

Each game has `build_<game>(form_cls, players, last)` adding its fields and `facts_<game>(form)`
turning the posted form into the API.md `hand` dict (messages at the fields, None if any).
`load_<game>` fills the form from stored facts, for editing.
"""
from __future__ import annotations

from decimal import Decimal, InvalidOperation
from fractions import Fraction

from flask_babel import gettext as _
from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField, SelectMultipleField, StringField, widgets

from .table_form import fail, whole
from ..engine.games import CLASSES

FT_CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")
FT_POIGNEES = ("single", "double", "triple")
FT_CHELEMS = ("announced_made", "announced_failed", "unannounced_made", "defence_made")


class HandForm(FlaskForm):
    """What every hand form has: the idempotency token, the version being edited, the counting aid."""

    token = HiddenField()
    version = HiddenField()
    count_of = RadioField(choices=[], validate_choice=False)
    engine_error = None  # the engine's sentence when it rejects the hand
    preview = None  # board.preview() of the stored hand, when editing


class Checkboxes(SelectMultipleField):
    widget = widgets.ListWidget(prefix_label=False)
    option_widget = widgets.CheckboxInput()


def _players(players, blank=None):
    return ([("", blank)] if blank else []) + [(p, p) for p in players]


def _pick(field, what):
    if not field.data:
        fail(field, _("Choose the %(what)s.", what=what))
        return None
    return field.data


def _seat_fields(cls, players, prefix, field=StringField):
    for i, _p in enumerate(players):
        setattr(cls, f"{prefix}{i}", field())


def _seat(form, prefix, i):
    return getattr(form, f"{prefix}{i}")


def _piles(form, players, prefix, what, low, high, total=None):
    """Read one number per player; one left blank is worked out from `total` (RULES.md §0.3)."""
    fields = [_seat(form, prefix, i) for i in range(len(players))]
    blank = [f for f in fields if not (f.data or "").strip()]
    if len(blank) == 1 and total is not None:
        known = [whole(f, low, high, what) for f in fields if f is not blank[0]]
        if None in known:
            return None
        blank[0].data = str(total - sum(known))
    values = [whole(f, low, high, what) for f in fields]
    return None if None in values else dict(zip(players, values))


def _half_points(field, high):
    """Parse French Tarot points: whole or half (40.5 or 40,5); JSON keeps halves exact as x.5."""
    text = (field.data or "").strip().replace(",", ".")
    if not text:
        fail(field, _("Enter the points."))
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        fail(field, _("The points must be a number such as 41 or 40.5."))
        return None
    if not value.is_finite() or (value * 2) != (value * 2).to_integral_value() or not 0 <= value <= high:
        fail(field, _("The points must be between 0 and %(high)s, in whole or half points.", high=high))
        return None
    return Fraction(value)


def _json_points(value: Fraction):
    return value.numerator if value.denominator == 1 else float(value)


# ---- Troggu (API.md: contract, declarer, partner, declarer_points, no_tricks, misere_points) ----

def build_troggu(cls, players, last):
    cls.contract = RadioField(_("Contract"), default="normal",  # a misère is rare: never the default
                              choices=[("normal", _("Normal")), ("solo", _("Solo")), ("misere", _("Misère"))])
    cls.declarer = RadioField(_("Tappist or soloist"), choices=_players(players))
    if len(players) >= 7:
        cls.partner = RadioField(_("Partner (holder of the called card)"), default="",
                                 choices=_players(players, _("Alone")))
    cls.side = RadioField(_("Points of"), default="declarer",
                          choices=[("declarer", _("Tappist's side")), ("opponents", _("Opponents"))])
    cls.points = StringField(_("Points"))
    cls.no_tricks = RadioField(_("Took no trick (Match)"), default="",
                               choices=[("", _("Both took tricks")), ("declarer", _("Tappist's side")),
                                        ("opponents", _("Opponents"))])
    _seat_fields(cls, players, "mp")


def facts_troggu(form, game, players):
    contract = form.contract.data
    if contract == "misere":
        points = _piles(form, players, "mp", _("points"), 0, game.total)
        return None if points is None else {"contract": "misere", "misere_points": points}
    declarer = _pick(form.declarer, _("Tappist") if contract == "normal" else _("soloist"))
    points = whole(form.points, 0, game.total, _("points"))
    if declarer is None or points is None:
        return None
    facts = {"contract": contract, "declarer": declarer,
             "declarer_points": points if form.side.data != "opponents" else game.total - points,
             "no_tricks": form.no_tricks.data or None}
    if hasattr(form, "partner"):
        facts["partner"] = (form.partner.data or None) if contract == "normal" else None
    return facts


def load_troggu(form, facts, players):
    form.contract.data = facts["contract"]
    if facts["contract"] == "misere":
        for i, p in enumerate(players):
            _seat(form, "mp", i).data = str(facts.get("misere_points", {}).get(p, ""))
        return
    form.declarer.data = facts.get("declarer")
    form.side.data = "declarer"
    form.points.data = str(facts.get("declarer_points", ""))
    form.no_tricks.data = facts.get("no_tricks") or ""
    if hasattr(form, "partner"):
        form.partner.data = facts.get("partner") or ""


# ---- French Tarot (API.md: taker, contract, partner, points + oudlers, petit_au_bout, poignees, chelem) ----

def build_french_tarot(cls, players, last):
    cls.taker = RadioField(_("Taker"), choices=_players(players))
    cls.contract = RadioField(_("Contract"), default=(last or {}).get("contract", "prise"),
                              choices=[("prise", _("Prise")), ("garde", _("Garde")),
                                       ("garde_sans", _("Garde sans")), ("garde_contre", _("Garde contre"))])
    if len(players) == 5:
        cls.partner = RadioField(_("Partner (called king)"), default="", choices=_players(players, _("Alone")))
    cls.side = RadioField(_("Points of"), default="attack",
                          choices=[("attack", _("Attack")), ("defence", _("Defence"))])
    cls.points = StringField(_("Points"))
    cls.oudlers = RadioField(_("Oudlers"), choices=[(str(n), str(n)) for n in range(4)])
    cls.petit_au_bout = RadioField(_("Petit au bout"), default="",
                                   choices=[("", _("No")), ("attack", _("Attack")), ("defence", _("Defence"))])
    cls.chelem = RadioField(_("Chelem"), default="", choices=[
        ("", _("No")), ("announced_made", _("Announced, made")), ("announced_failed", _("Announced, failed")),
        ("unannounced_made", _("Not announced, made")), ("defence_made", _("Defence took every trick"))])
    for i, _p in enumerate(players):
        setattr(cls, f"pg{i}", RadioField(default="", choices=[("", _("No poignée")), ("single", _("Single")),
                                                               ("double", _("Double")), ("triple", _("Triple"))]))


def facts_french_tarot(form, game, players):
    taker = _pick(form.taker, _("taker"))
    points = _half_points(form.points, game.total)
    oudlers = form.oudlers.data
    if oudlers in (None, "", "None"):
        fail(form.oudlers, _("Choose how many oudlers that side has."))
        oudlers = None
    if taker is None or points is None or oudlers is None:
        return None
    oudlers = int(oudlers)
    if form.side.data == "defence":
        points, oudlers = game.total - points, 3 - oudlers
    facts = {"taker": taker, "contract": form.contract.data, "points": _json_points(points), "oudlers": oudlers,
             "petit_au_bout": form.petit_au_bout.data or None,
             "poignees": [{"player": p, "size": _seat(form, "pg", i).data}
                          for i, p in enumerate(players) if _seat(form, "pg", i).data],
             "chelem": form.chelem.data or None}
    if hasattr(form, "partner"):
        facts["partner"] = form.partner.data or None
    if hasattr(form, "misere") and form.misere.data:
        facts["misere"] = [p for p in players if p in form.misere.data]
    return facts


def load_french_tarot(form, facts, players):
    form.taker.data = facts["taker"]
    form.contract.data = facts["contract"]
    form.side.data = "attack"
    form.points.data = str(facts["points"])
    form.oudlers.data = str(facts["oudlers"])
    form.petit_au_bout.data = facts.get("petit_au_bout") or ""
    form.chelem.data = facts.get("chelem") or ""
    sizes = {pg["player"]: pg["size"] for pg in facts.get("poignees") or []}
    for i, p in enumerate(players):
        _seat(form, "pg", i).data = sizes.get(p, "")
    if hasattr(form, "partner"):
        form.partner.data = facts.get("partner") or ""
    if hasattr(form, "misere"):
        form.misere.data = list(facts.get("misere") or [])


# ---- Troccas (API.md: teams, side, points) ----

def build_troccas(cls, players, last):
    partner = players[2]
    if last and last.get("teams"):
        partner = next((t for team in last["teams"] if players[0] in team for t in team if t != players[0]), partner)
    cls.partner = RadioField(_("%(name)s plays with", name=players[0]), default=partner,
                             choices=_players(players[1:]))
    cls.side = RadioField(_("Points of"), default="first",
                          choices=[("first", _("%(name)s's team", name=players[0])), ("other", _("The other team"))])
    cls.points = StringField(_("Points"))


def facts_troccas(form, game, players):
    partner = _pick(form.partner, _("partner"))
    points = whole(form.points, 0, game.total, _("points"))
    if partner is None or points is None:
        return None
    ours = [players[0], partner]
    theirs = [p for p in players if p not in ours]
    side = ours[0] if form.side.data != "other" else theirs[0]
    return {"teams": [ours, theirs], "side": side, "points": points}


def load_troccas(form, facts, players):
    team = next(t for t in facts["teams"] if players[0] in t)
    form.partner.data = next(p for p in team if p != players[0])
    form.side.data = "first" if facts["side"] in team else "other"
    form.points.data = str(facts["points"])


# ---- Scarto, Swiss Tarot 1659 (API.md: points per player) and Mitigati (+ declarations, bids) ----

def build_piles(cls, players, last):
    _seat_fields(cls, players, "pp")


def facts_piles(form, game, players):
    points = _piles(form, players, "pp", _("points"), 0, game.total, game.total)
    return None if points is None else {"points": points}


def load_piles(form, facts, players):
    for i, p in enumerate(players):
        _seat(form, "pp", i).data = str(facts["points"][p])


def honours(game, rules):
    """Return the honours a Mitigati player can show: the kings, the Bagatto, the honour trump, the Fool."""
    return ["SW-K", "BA-K", "CU-K", "CO-K", "T1", rules.get("honour_trump", "T20"), "FOOL"]


def build_mitigati(cls, players, last):
    cls.mode = RadioField(_("This hand was"), default="played",
                          choices=[("played", _("Played")), ("bids", _("Settled by bids"))])
    _seat_fields(cls, players, "pp")
    _seat_fields(cls, players, "bid")
    _seat_fields(cls, players, "tr")
    for i, _p in enumerate(players):
        setattr(cls, f"hon{i}", Checkboxes(choices=[], validate_choice=False))


def facts_mitigati(form, game, players, rules):
    if form.mode.data == "bids":
        bids = _piles(form, players, "bid", _("bid"), -game.total, game.total, 0)
        return None if bids is None else {"bids": bids}
    points = _piles(form, players, "pp", _("points"), 0, game.total, game.total)
    if points is None:
        return None
    declarations = {}
    for i, p in enumerate(players):
        shown = [c for c in honours(game, rules) if c in (_seat(form, "hon", i).data or [])]
        field = _seat(form, "tr", i)
        trumps = whole(field, 0, 21, _("trumps")) if (field.data or "").strip() else 0
        if trumps is None:
            return None
        low = [f"T{n}" for n in range(2, 22) if f"T{n}" not in shown]
        extra = max(0, trumps - sum(1 for c in shown if c.startswith("T")))
        if trumps >= 10 or shown:
            declarations[p] = shown + low[:extra] if trumps >= 10 else shown
    facts = {"points": points}
    if any(declarations.values()):
        facts["declarations"] = {p: cards for p, cards in declarations.items() if cards}
    return facts


def load_mitigati(form, facts, players):
    if "bids" in facts:
        form.mode.data = "bids"
        for i, p in enumerate(players):
            _seat(form, "bid", i).data = str(facts["bids"][p])
        return
    form.mode.data = "played"
    load_piles(form, facts, players)
    for i, p in enumerate(players):
        cards = (facts.get("declarations") or {}).get(p, [])
        trumps = [c for c in cards if c.startswith("T") and c[1:].isdecimal()]
        _seat(form, "hon", i).data = [c for c in cards if c in ("SW-K", "BA-K", "CU-K", "CO-K", "T1", "T20", "T21", "FOOL")]
        _seat(form, "tr", i).data = str(len(trumps)) if len(trumps) >= 10 else ""


# ---- Triomphe Forcée (API.md: la_mort, declarations, tricks) ----

def build_triomphe_forcee(cls, players, last):
    cls.la_mort = RadioField(_("La Mort (XIII) was dealt to"), default="", choices=_players(players, _("Nobody")))
    for i, _p in enumerate(players):
        setattr(cls, f"dc{i}", Checkboxes(choices=[], validate_choice=False))
    for t in range(5):
        setattr(cls, f"trick{t}", RadioField(_("Trick %(n)s", n=t + 1), default="", choices=_players(players)))


def facts_triomphe_forcee(form, game, players, rules):
    shown = {"FOOL", "T1", rules.get("force_trump", "T11")}
    declarations = {p: [c for c in (_seat(form, "dc", i).data or []) if c in shown] for i, p in enumerate(players)}
    facts = {"la_mort": form.la_mort.data or None,
             "declarations": {p: cards for p, cards in declarations.items() if cards}}
    tricks = [getattr(form, f"trick{t}").data or "" for t in range(5)]
    if facts["la_mort"] is None and any(tricks):
        missing = [getattr(form, f"trick{t}") for t in range(5) if not tricks[t]]
        for f in missing:
            fail(f, _("Choose who won this trick."))
        if missing:
            return None
        facts["tricks"] = tricks
    return facts


def load_triomphe_forcee(form, facts, players):
    form.la_mort.data = facts.get("la_mort") or ""
    for i, p in enumerate(players):
        _seat(form, "dc", i).data = list((facts.get("declarations") or {}).get(p, []))
    for t, winner in enumerate(facts.get("tricks") or []):
        getattr(form, f"trick{t}").data = winner


BUILD = {"troggu": build_troggu, "french_tarot": build_french_tarot, "troccas": build_troccas,
         "scarto": build_piles, "swiss_tarot_1659": build_piles, "mitigati": build_mitigati,
         "triomphe_forcee": build_triomphe_forcee}
LOAD = {"troggu": load_troggu, "french_tarot": load_french_tarot, "troccas": load_troccas,
        "scarto": load_piles, "swiss_tarot_1659": load_piles, "mitigati": load_mitigati,
        "triomphe_forcee": load_triomphe_forcee}


def hand_form(game, table, last: dict | None, formdata=None, facts: dict | None = None):
    """Build and return the hand form for a table: posted data, stored facts (edit) or defaults."""
    players = list(table.players)
    cls = type("HandForm_" + game.id, (HandForm,), {})
    BUILD[game.id](cls, players, last)
    if game.id == "french_tarot" and not table.rules.get("prise_allowed", True):  # the table starts at Garde
        last_contract = (last or {}).get("contract", "garde")
        cls.contract = RadioField(_("Contract"), default="garde" if last_contract == "prise" else last_contract,
                                  choices=[("garde", _("Garde")), ("garde_sans", _("Garde sans")),
                                           ("garde_contre", _("Garde contre"))])
    if game.id == "french_tarot" and table.rules.get("misere"):  # a house rule (RULES.md §6), off by default
        cls.misere = Checkboxes(_("Misère declared by"), choices=_players(players), validate_choice=False)
    form = cls(formdata=formdata) if formdata is not None else cls()
    form.count_of.choices = count_targets(game, players)
    if game.id == "mitigati":
        for i in range(len(players)):
            _seat(form, "hon", i).choices = [(c, c) for c in honours(game, table.rules)]
    if game.id == "triomphe_forcee":
        force = table.rules.get("force_trump", "T11")
        for i in range(len(players)):
            _seat(form, "dc", i).choices = [("FOOL", _("Le Fou")), ("T1", _("Le Bateleur (I)")),
                                            (force, _("La Force (%(n)s)", n=force[1:]))]
    if formdata is None and facts is not None:
        LOAD[game.id](form, facts, players)
    return form


def facts(form, game, table) -> dict | None:
    """Return the API.md hand from a posted form, or None with messages at the fields."""
    players = list(table.players)
    if game.id == "troggu":
        return facts_troggu(form, game, players)
    if game.id == "french_tarot":
        return facts_french_tarot(form, game, players)
    if game.id == "troccas":
        return facts_troccas(form, game, players)
    if game.id == "mitigati":
        return facts_mitigati(form, game, players, table.rules)
    if game.id == "triomphe_forcee":
        return facts_triomphe_forcee(form, game, players, table.rules)
    return facts_piles(form, game, players)


# ---- counting the cards instead of typing points ----

def count_targets(game, players) -> list[tuple[str, str]]:
    """Return whose pile the counting aid can count: a side (the other is derived) or a player."""
    if game.id == "troggu":
        return [("declarer", _("Tappist's side")), ("opponents", _("Opponents"))] + \
            [(f"mp{i}", p) for i, p in enumerate(players)]
    if game.id == "french_tarot":
        return [("attack", _("Attack")), ("defence", _("Defence"))]
    if game.id == "troccas":
        return [("first", _("%(name)s's team", name=players[0])), ("other", _("The other team"))]
    if game.counting == "tricks":
        return []
    return [(f"pp{i}", p) for i, p in enumerate(players)]


def fill_count(form, game, target: str, count) -> None:
    """Put a counted pile's points where they belong: the side's points field or a player's field."""
    if target in ("declarer", "opponents", "attack", "defence", "first", "other"):
        form.side.data = target
        form.points.data = str(_json_points(Fraction(count.points)))
        if game.id == "french_tarot" and count.oudlers is not None:
            form.oudlers.data = str(count.oudlers)
        return
    field = getattr(form, target, None)
    if field is not None:
        if target.startswith("mp"):
            form.contract.data = "misere"
        field.data = str(count.points)
