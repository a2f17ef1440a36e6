"""What the templates may call: every template global and filter, registered here in one place.

Globals, not a context processor: a context processor builds its dict again for every template rendered (a Save's
answer renders a dozen partials). The one exception is the language of this request, which is per request.
"""
from __future__ import annotations

import re

from flask import request
from flask_babel import format_date, format_datetime, get_locale
from flask_babel import gettext as _
from flask_wtf.csrf import generate_csrf
from jinja2 import BytecodeCache
from jinja2.ext import Extension
from jinja2.lexer import Token

from ..engine import evening
from . import count_aid, hand_form, l10n
from .access import can_change, circle_of
from .assets import QUEUED, THEME, static_url, words_url
from .chart import chart, chart_steps
from .deck import card_title, deck_for
from .house_rules import option_title
from .l10n import LANGUAGES, colon, isolated, money, points, say, semicolon, signed, when
from .links import lan_base, qr, table_ref
from .said import hand_said, hand_text, paid_text, table_changes
from .scoreboard import REGIONS, etag, live_etag, select_oob
from .site import lang_url
from .table_form import form_token


class Compiled(BytecodeCache):
    """Each template's compiled code, kept per process for every app it makes, under the template's source (a
    changed file is compiled again): an app's first use of a template then loads its code, not compile it again
    (~0.4 s for a table page's). gunicorn's workers inherit what the master compiled (web/startup.py); the tests'
    apps, one per test, share it. Every app create_app makes compiles a template alike (the same filters and
    options), so one app's code serves another's."""

    def __init__(self):
        self._code: dict = {}

    def load_bytecode(self, bucket) -> None:
        found = self._code.get(bucket.key)
        if found is not None and found[0] == bucket.checksum:
            bucket.code = found[1]

    def dump_bytecode(self, bucket) -> None:
        self._code[bucket.key] = (bucket.checksum, bucket.code)


COMPILED = Compiled()

LINE_BREAK = re.compile(r"[ \t]*\n\s*")  # a run of whitespace holding a line break: the templates' own indentation


class Lines(Extension):
    """The templates' own text with each run of whitespace that holds a line break written as that line break alone,
    once, when a template is compiled: the indentation that makes a template readable isn't sent (a Save's answer
    had ~80 B of it, compressed). A browser shows a run of whitespace as one space wherever it shows it at all
    (HTML's whitespace collapsing), so every page looks and reads the same; no template has text in a <pre> or a
    <textarea>, nor an attribute value over two lines (tests/test_templates.py). Only the templates' text is
    touched, never what they are given to write."""

    def filter_stream(self, stream):
        for token in stream:
            if token.type == "data":
                token = Token(token.lineno, "data", LINE_BREAK.sub("\n", token.value))
            yield token


def page_csrf() -> str:
    """The CSRF token a page's form posts: written into the form on a whole page (it posts without scripts too); in
    an answer htmx swaps into a page, none: the page holds it already (its <meta name="csrf-token">), and
    static/page.js writes it into a form that is sent without one (a Save's answer is ~90 B smaller, compressed)."""
    return "" if request.headers.get("HX-Request") else generate_csrf()


def confirm_delete() -> str:
    """Delete's question, once on a list of hands (static/hand_form.js puts each hand's number in for {n}): a hand's
    row, as a Save's answer brings it, needn't carry the sentence."""
    return _("Delete hand %(n)s? Undo brings it back.", n="{n}")


def install(app) -> None:
    app.jinja_env.bytecode_cache = COMPILED
    app.jinja_env.add_extension(Lines)
    l10n.install(app)  # _(), gettext() and ngettext() in this request's language
    app.jinja_env.filters.update(say=say, pts=points, colon=colon, semicolon=semicolon,
                                  isolated=isolated)  # an engine sentence, and points (53, 40.5), for people
    app.jinja_env.globals.update({
        # words, numbers and money in the reader's language
        "money": money, "amount_field": l10n.amount_field, "isolated": isolated, "signed": signed, "house_rule_title": option_title,
        "card_title": card_title, "format_datetime": format_datetime, "format_date": format_date, "when": when,
        # the scoreboard (web/scoreboard.py's regions and versions; the evening's chart and numbers, once each)
        "select_oob": select_oob, "regions": REGIONS, "live_etag": live_etag, "poll_etag": etag, "page_size": evening.PAGE, "changes_said": table_changes,
        "hand_said": hand_said, "hand_text": hand_text, "paid_text": paid_text,
        "evening_chart": lambda b: b.once(("chart", l10n.locale_id()), chart),
        "evening_chart_steps": chart_steps,
        "evening_numbers": lambda b: b.once("numbers", evening.numbers),
        # the hand form and its counting aid
        "form_token": form_token, "page_csrf": page_csrf, "confirm_delete": confirm_delete,
        "deck_for": deck_for, "hand_layout": hand_form.layout, "hand_errors": hand_form.errors,
        "hand_edit": hand_form.offline_edit,
        "count_tally": count_aid.tally, "aid_url": count_aid.url,
        # who may change the table; sharing it
        "can_change": can_change, "circle_of": circle_of, "lan_link": lan_base, "qr": qr, "table_ref": table_ref,
        # the app's files
        "static_url": static_url, "theme_colour": THEME, "words_url": words_url, "queued_posts": QUEUED,
    })

    @app.context_processor
    def this_request():
        return {"lang": str(get_locale() or "en"), "lang_url": lang_url, "languages": LANGUAGES}
