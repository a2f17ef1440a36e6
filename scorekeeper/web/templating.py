"""What the templates may call: every template global and filter, registered here in one place.

Globals, not a context processor: a context processor builds its dict again for every template rendered (a Save's
answer renders a dozen partials). The one exception is the language of this request, which is per request.
"""
from __future__ import annotations

from flask_babel import format_date, format_datetime, get_locale
from jinja2 import BytecodeCache

from ..engine import evening
from . import count_aid, hand_form, l10n
from .access import can_change, circle_of
from .assets import QUEUED, THEME, static_url, words_url
from .chart import chart
from .deck import card_title, deck_for
from .house_rules import option_title
from .l10n import LANGUAGES, colon, isolated, money, points, say, semicolon, signed, when
from .links import lan_base, qr, table_ref
from .said import hand_said, hand_text, paid_text, table_changes
from .scoreboard import REGIONS, etag, live_etag, select_oob
from .site import lang_url
from .table_form import new_token


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


def install(app) -> None:
    app.jinja_env.bytecode_cache = COMPILED
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
        "evening_numbers": lambda b: b.once("numbers", evening.numbers),
        # the hand form and its counting aid
        "new_token": new_token, "deck_for": deck_for, "hand_layout": hand_form.layout, "hand_errors": hand_form.errors,
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
