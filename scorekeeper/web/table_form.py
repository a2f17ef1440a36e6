"""WTForms for opening a table."""
from __future__ import annotations

import secrets

from flask import request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, FieldList, Form, HiddenField, RadioField, StringField
from wtforms.validators import Length

from ..engine.games import resolve_rules
from .bounds import MAX_NAME
from .hand_form import fail
from .house_rules import in_words
from .parse import digits, evening_day, money_minor, today
from .seating_check import check_seating, tidy

CURRENCIES = (("CHF", "CHF"), ("EUR", "EUR"))
class Seats(FieldList):
    """The players' fields: a posted name such as players-² or players-999…9 is no seat, never a 500.

    WTForms reads the seat number with str.isdigit() and int(), which fail on '²' and on 5000 digits.
    """

    def _extract_indices(self, prefix, formdata):
        offset = len(prefix) + 1
        for k in formdata:
            if k.startswith(prefix):
                k = k[offset:].split(self._field_separator, 1)[0]
                if digits(k, most=3) is not None:
                    yield digits(k, most=3)


def new_token() -> str:
    """Return a fresh idempotency token for a form (a double tap posts it twice, one hand results)."""
    return secrets.token_urlsafe(16)


def form_token() -> str:
    """The idempotency token a form is given: a fresh one on a whole page (it posts without scripts too); in an answer
    htmx swaps into a page, none: static/page.js makes one when the form is first sent (kept in the form, so a
    second tap or a resend posts the same one), as it writes the page's CSRF token in (web/templating.py
    page_csrf). Any unused URL-safe string does (store.db.is_key); a Save's answer is ~60 B smaller."""
    return "" if request.headers.get("HX-Request") else new_token()


def table_form_class(game, shown: int):
    """Build the form that opens a table of `game`: players, first dealer, house rules, stake."""

    class TableForm(FlaskForm):
        players = Seats(StringField(validators=[Length(max=MAX_NAME)]), min_entries=game.max_players,
                        max_entries=game.max_players)
        first_dealer = RadioField(_l("Who deals first"), default="0",
                                  choices=[(str(i), _("Player %(n)s", n=i + 1)) for i in range(game.max_players)])
        stake = StringField(_l("Stake"))
        currency = RadioField(_l("Currency"), choices=CURRENCIES, default="CHF")
        played_on = StringField(_l("The evening's date"))

        def names(self) -> list[str]:
            # spaces tidied as the change form tidies them ("Anna  Maria " is "Anna Maria"): a later change of the
            # table must not find a name it would write differently, and rename the player silently
            return [tidy(f.data or "") for f in self.players if (f.data or "").strip()]

        def check(self) -> dict | None:
            """Return the table's settings, or None with messages at the fields."""
            ok = self.validate()
            names = self.names()
            seats = [f for f in self.players if (f.data or "").strip()]  # the fields of `names`, in order
            dealer = digits(str(self.first_dealer.data)) or 0
            if dealer >= max(len(names), 1):
                fail(self.first_dealer, _("Choose one of the players you named."))
                ok = False
            try:
                stake = money_minor(self.stake.data)
            except ValueError as e:
                fail(self.stake, str(e))
                ok = False
            try:
                played_on = evening_day(self.played_on.data or today().isoformat(), today())  # empty: tonight
            except ValueError as e:
                fail(self.played_on, str(e))
                ok = False
            rules = {}
            for name, opt in game.options.items():
                try:
                    rules[name] = rule_value(opt, getattr(self, "rule_" + name).data)
                except ValueError as e:
                    fail(getattr(self, "rule_" + name), str(e))
                    ok = False
            complete = len(rules) == len(game.options)
            # the names and house rules as a change of the table and an import check them (seating_check), with
            # each message at its field; a name a field's own validator refused (too long) keeps that message
            for key, message in check_seating(names, game, rules if complete else None).items():
                if key.startswith("name"):
                    field = seats[int(key[4:])]
                    if not field.errors:
                        fail(field, message)
                elif key.startswith("rule_"):
                    fail(getattr(self, key), message)
                elif key == "rules":
                    fail(self.players, message)
                ok = ok and key == "players"  # the number of players is said below, in this form's words
            allowed = game.players_allowed(rules) if complete else \
                range(game.min_players, game.max_players + 1)  # a house rule may ask for more players
            if len(names) not in allowed:
                low, high = allowed.start, allowed.stop - 1
                fail(self.players, _("%(game)s needs %(low)s to %(high)s players; you named %(n)s.",
                                     game=_(game.name), low=low, high=high, n=len(names))
                     if low != high else
                     _("%(game)s needs %(low)s players; you named %(n)s.", game=_(game.name), low=low, n=len(names)))
                ok = False
            if not ok:
                return None
            # the first dealer is counted among the named players, in the order they were typed
            return dict(players=names, first_dealer=dealer, stake=stake, currency=self.currency.data, rules=rules,
                        played_on=played_on)

    for name, opt in game.options.items():
        setattr(TableForm, "rule_" + name, rule_field(opt, game, name))
    TableForm.shown = shown
    return TableForm


def rule_field(opt, game, name: str):
    """Return the form field for one house rule, defaulting to the engine's default."""
    if isinstance(opt.default, bool):
        return BooleanField(default=opt.default)
    if opt.choices is not None:
        return RadioField(choices=[(str(c), in_words(c, game, name)) for c in opt.choices], default=str(opt.default))
    if isinstance(opt.default, list):
        return StringField(default=", ".join(str(v) for v in opt.default))
    return StringField(default=str(opt.default))


def rules_form(game, rules: dict, formdata=None):
    """Return a form of the game's house rules, at the table's current values."""
    fields = {"rule_" + name: rule_field(opt, game, name) for name, opt in game.options.items()}
    cls = type("RulesForm", (Form,), fields)
    form = cls(formdata=formdata) if formdata is not None else cls()
    if formdata is None:
        for name, value in resolve_rules(game, rules).items():
            field = form["rule_" + name]
            field.data = value if isinstance(value, bool) else ", ".join(map(str, value)) if isinstance(value, list) \
                else str(value)
    return form


def rule_value(opt, data):
    """Turn a house-rule field's data back into the engine's type."""
    if isinstance(opt.default, bool):
        return bool(data)
    if opt.choices is not None:
        for c in opt.choices:
            if str(c) == str(data):
                return c
        raise ValueError(_("Choose one of the offered values."))
    if isinstance(opt.default, list):
        parts = [p.strip() for p in str(data or "").replace(";", ",").split(",") if p.strip()]
        numbers = [digits(p) for p in parts]
        if len(parts) != len(opt.default) or None in numbers:
            raise ValueError(_("Write %(n)s whole numbers separated by commas.", n=len(opt.default)))
        return numbers
    if isinstance(opt.default, int):
        number = digits(str(data or ""))
        if number is None:
            raise ValueError(_("Write a whole number."))
        return number
    return str(data)


class ImportForm(FlaskForm):
    """Upload a table's JSON export."""

    token = HiddenField()
