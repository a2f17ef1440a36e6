"""The reader's language and region: which catalogue, and numbers and money as the locale writes them (Babel).

The language is chosen per request (`choose`): ?lang=, then the lang cookie, then the browser's
Accept-Language by primary subtag (fr-CH is French). Numbers follow the language and, where the browser
names one, its region (de-CH writes 1’234.5, de 1.234,5); money on a CHF table is written the Swiss way. The engine's sentences (Lines) are rendered here, translated, with
their numbers and plurals in the reader's language.
"""
from __future__ import annotations

import re
import unicodedata
from datetime import datetime, timezone
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from babel import Locale, UnknownLocaleError
from babel.numbers import format_currency, format_decimal, get_currency_symbol
from flask import g, has_request_context, request
from flask_babel import Domain, format_datetime, get_locale, get_translations, gettext, ngettext
from jinja2 import pass_context
from markupsafe import Markup, escape

from .. import LANGUAGES


def choose() -> str:
    """Return the language of this request: ?lang=, the lang cookie, else the browser's first we speak."""
    chosen = request.args.get("lang") or request.cookies.get("lang")
    if chosen in LANGUAGES:
        return chosen
    for tag, _quality in request.accept_languages:  # best first
        primary = tag.replace("_", "-").split("-")[0].lower()
        if primary in LANGUAGES:
            return primary
    return "en"


def _browser_region(lang: str) -> str | None:
    """Return the region the browser gives with `lang` (CH for fr-CH), if any."""
    for tag, _quality in request.accept_languages:
        parts = tag.replace("_", "-").split("-")
        if parts[0].lower() == lang and len(parts) > 1 and len(parts[-1]) == 2 and parts[-1].isalpha():
            return parts[-1].upper()
    return None


def locale(currency: str | None = None) -> Locale:
    """Return the Babel locale numbers are written in: the language, with the browser's or the currency's region."""
    return _locale(currency)[0]


def locale_id(currency: str | None = None) -> str:
    """Return locale(currency)'s identifier ("de_CH"), the key Babel's formatting is cached under."""
    return _locale(currency)[1]


def _locale(currency: str | None) -> tuple[Locale, str]:
    """Return (the locale, its identifier) for a currency, worked out once per request (its language is the
    request's: chosen once, by `choose`); a page writes dozens of numbers."""
    if not has_request_context():
        return _parsed("en", None)
    cache = g.get("_l10n_locales")
    if cache is None:
        cache = g._l10n_locales = {}
    found = cache.get(currency)
    if found is None:
        lang = str(get_locale() or "en")
        # francs are written the Swiss way whoever reads them (CHF 1.40, not the US "CHF1.40"); other
        # amounts and plain numbers as the browser's region writes them
        found = cache[currency] = _parsed(lang, "CH" if currency == "CHF" else _browser_region(lang))
    return found


# regions whose money is the franc or the euro; a reader elsewhere, or whose browser names no region, gets the game's own
FRANC = frozenset({"CH", "LI"})
EURO = frozenset({"AT", "BE", "CY", "DE", "EE", "ES", "FI", "FR", "GR", "HR", "IE", "IT", "LT", "LU", "LV", "MC", "MT",
                  "NL", "PT", "SI", "SK", "SM", "VA"})


def home_currency(game_currency: str) -> str:
    """Return a new table's currency: the reader's region's (fr-CH, de-CH and rm: CHF; fr-FR, it-IT, de-DE, de-AT:
    EUR), else the game's own (Troggu's CHF, French Tarot's EUR)."""
    lang = str(get_locale() or "en")
    region = _browser_region(lang)
    if region in FRANC or (region is None and lang == "rm"):  # Romansh is written in the Grisons only
        return "CHF"
    return "EUR" if region in EURO else game_currency


def amount_field(minor: int, currency: str | None = None) -> str:
    """Write an amount for a form's field as the reader types it: 0.10 (de-CH, en), 0,10 (fr, it, de); no symbol,
    no grouping (web/parse.py reads either mark)."""
    return format_decimal(Decimal(minor) / 100, format="0.00", locale=locale_id(currency))


@lru_cache(maxsize=64)
def _parsed(lang: str, region: str | None) -> tuple[Locale, str]:
    try:
        parsed = Locale.parse(f"{lang}_{region}") if region else Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        parsed = Locale.parse(lang)
    return parsed, str(parsed)


def _decimal(value) -> Decimal:
    if isinstance(value, Fraction):
        return Decimal(value.numerator) / Decimal(value.denominator)  # halves and hundredths: exact
    return Decimal(value)


def points(value) -> str:
    """Write a point value: 53, 40.5 in English, 40,5 in French, 1’234 in Swiss German; never 40.50."""
    if value < 0:
        return "−" + points(-value)
    if type(value) is int and value < 1000:
        return str(value)  # every shipped locale writes these alike (Latin digits, no grouping): no Babel
    return _formatted(value, locale_id())


@lru_cache(maxsize=4096)
def _formatted(value, locale_id: str) -> str:
    return format_decimal(_decimal(value), format="#,##0.##", locale=locale_id)


def signed(value) -> str:
    """Write a score with its sign: +4, −9, 0 (a real minus sign), halves as +40,5 in French."""
    return f"+{points(value)}" if value > 0 else f"−{points(-value)}" if value < 0 else "0"


def money(minor: int, currency: str, signed: bool = False, bare: bool = False) -> str:
    """Write an amount: 10 Rappen, CHF 1.20 (de-CH), 1,20 € (fr), +CHF 0.40 (signed), +0.40 (bare); never floats."""
    if signed and minor == 0:
        return "0"
    sign = ("+" if minor > 0 else "−") if signed else ("−" if minor < 0 else "")
    value = abs(minor)
    if not signed and value < 100 and currency in ("CHF", "EUR"):
        if currency == "CHF":
            return sign + ngettext("%(num)d Rappen", "%(num)d Rappen", value)
        return sign + ngettext("%(num)d cent", "%(num)d cents", value)
    return sign + _amount(value, currency, bare, locale_id(currency))


@lru_cache(maxsize=4096)
def _amount(value: int, currency: str, bare: bool, locale_id: str) -> str:
    """Write a non-negative amount in minor units (Babel is slow; a table's amounts repeat)."""
    amount = Decimal(value) / 100
    if bare:
        return format_decimal(amount, format="#,##0.00", locale=locale_id)
    return _spaced(format_currency(amount, currency, locale=locale_id), get_currency_symbol(currency, locale_id))


def _spaced(text: str, symbol: str) -> str:
    """Apply CLDR's currency spacing, which Babel's format_currency leaves out: a no-break space between the
    number and a currency symbol that is a word at that end (CHF, Fr.), none by a sign such as €.

    CLDR's root rule (currencySpacing: currencyMatch [[:^S:]&[:^Z:]], surroundingMatch [:digit:], insertBetween
    U+00A0) is what keeps "CHF 0,04" apart where a locale's pattern has no space: Romansh's since CLDR 48 (Babel
    2.19) is root's ¤#,##0.00, which Babel writes "CHF0,04"; English's, "CHF0.04" for en_US.
    """
    at = text.find(symbol)
    if not symbol or at < 0:
        return text
    end = at + len(symbol)
    if end < len(text) and text[end].isdigit() and unicodedata.category(symbol[-1])[0] not in "SZ":
        text = f"{text[:end]}\xa0{text[end:]}"
    if at > 0 and text[at - 1].isdigit() and unicodedata.category(symbol[0])[0] not in "SZ":
        text = f"{text[:at]}\xa0{text[at:]}"
    return text


def say(text) -> str:
    """Return an engine sentence (a Line or a ScoreError) or a plain string in the reader's language."""
    if hasattr(text, "render"):
        catalogue = translations()
        return text.render(catalogue.ugettext, points, catalogue.ungettext, isolated)
    return str(text)


def translations():
    """Return this request's catalogue, looked up once: Flask-Babel looks it up again for every message (its
    context, locale and cache: a few µs each, and a page or a Save says dozens)."""
    if not has_request_context():
        return get_translations()
    catalogue = g.get("_catalogue")
    if catalogue is None:
        catalogue = g._catalogue = get_translations()
    return catalogue


# --- French typography and elision, applied to the French catalogue once, as it is loaded ---

# What a sentence may hold that is not prose: a tag (its attributes), an entity, a JSON example ({{"player": …}}),
# an address, an HTTP header's name (Content-Type:). These keep their own punctuation.
_NOT_PROSE = re.compile(r"<[^>]*>|&#?\w+;|\{\{.*?\}\}|\b\w+://\S+|\b[A-Z][a-z]*(?:-[A-Z][a-z]*)+:")
_SPACES = "[ \u00a0\u202f]*"
# ; : ! ? after a word, a number, a closing mark, a tag or a field, ending a clause (a space, the end, a closing
# mark, a tag, a field or another of them follows): not a time (20:30), an address (http:) or a query (?lang=)
_BEFORE = re.compile(rf"(?<=[^\s(\[«;:!?]){_SPACES}([;:!?])(?=$|[\s)\]»\"”’.,…;:!?]|[\ue000-\uf8ff]|%\(|\{{)")
_OPENING = re.compile(rf"«{_SPACES}")
_CLOSING = re.compile(rf"{_SPACES}»")
NARROW = "\u202f"  # the narrow no-break space French sets before ; : ! ? and inside « »


def french(text: str) -> str:
    """Set a French sentence as French typography does: a narrow no-break space before ; : ! ? and inside « »,
    whatever space (or none) the translator typed; tags, entities, JSON, addresses and header names untouched.

    "Pas une carte : {listing}" and "Pas une carte: {listing}" both give "Pas une carte\u202f: {listing}"."""
    kept: list[str] = []

    def keep(found) -> str:
        kept.append(found.group(0))
        return chr(0xE000 + len(kept) - 1)  # a private-use character holds its place

    text = _NOT_PROSE.sub(keep, text)
    text = _BEFORE.sub(lambda m: NARROW + m.group(1), text)
    text = _CLOSING.sub(NARROW + "»", _OPENING.sub("«" + NARROW, text))
    return re.sub("[\ue000-\uf8ff]", lambda m: kept[ord(m.group(0)) - 0xE000], text)


# "de {player}", "que %(name)s": the word before a name, elided when the name begins with a vowel (d'Anne, qu'Élodie)
_ELIDED = r"\b([Dd]e|[Qq]ue|[Jj]usque|[Ll]orsque|[Pp]uisque) "
_ELIDED_FIELD = re.compile(_ELIDED + r"\{(\w+)\}")
_ELIDED_NAMED = re.compile(_ELIDED + r"%\((\w+)\)s")
VOWELS = frozenset("AEIOUYÀÂÄÆÉÈÊËÎÏÔÖŒÙÛÜŸaeiouyàâäæéèêëîïôöœùûüÿ")


def _elided(found, values) -> str:
    value = str(values.get(found.group(2), "")) if hasattr(values, "get") else ""
    if value[:1] in VOWELS:
        return f"{found.group(1)[:-1]}'{found.group(0)[len(found.group(1)) + 1:]}"
    return found.group(0)


class Phrase(str):
    """A French sentence with a name after "de" or "que": filled by str.format or %, it elides them before a
    vowel ("Points de {player}" with Anne: "Points d'Anne"; with Ben: "Points de Ben")."""

    __slots__ = ()

    def format(self, *args, **values) -> str:
        return str.format(_ELIDED_FIELD.sub(lambda m: _elided(m, values), self), *args, **values)

    def __mod__(self, values):
        return str.__mod__(_ELIDED_NAMED.sub(lambda m: _elided(m, values), self), values)


def french_entry(text: str) -> str:
    """A French catalogue entry as it is shown: typeset, and a Phrase where a name may follow "de" or "que"."""
    text = french(text)
    return Phrase(text) if _ELIDED_FIELD.search(text) or _ELIDED_NAMED.search(text) else text


# "a {player}", "e {player}": Italian writes "ad Anna", "ed Elena" (the euphonic d before the same vowel)
_EUPHONIC_FIELD = re.compile(r"\b([Aa]|[Ee]) \{(\w+)\}")
_EUPHONIC_NAMED = re.compile(r"\b([Aa]|[Ee]) %\((\w+)\)s")


def _euphonic(found, values) -> str:
    value = str(values.get(found.group(2), "")) if hasattr(values, "get") else ""
    same = {"a": "aAàÀ", "e": "eEéÉèÈ"}[found.group(1).lower()]
    return found.group(1) + "d" + found.group(0)[1:] if value[:1] and value[0] in same else found.group(0)


class ItalianPhrase(str):
    """An Italian sentence with a name after "a" or "e": filled by str.format or %, it says "ad" and "ed" before
    the same vowel ("paga a {player}" with Anna: "paga ad Anna"; with Ben: "paga a Ben")."""

    __slots__ = ()

    def format(self, *args, **values) -> str:
        return str.format(_EUPHONIC_FIELD.sub(lambda m: _euphonic(m, values), self), *args, **values)

    def __mod__(self, values):
        return str.__mod__(_EUPHONIC_NAMED.sub(lambda m: _euphonic(m, values), self), values)


def italian_entry(text: str) -> str:
    """An Italian catalogue entry as it is shown: an ItalianPhrase where a name may follow "a" or "e"."""
    return ItalianPhrase(text) if _EUPHONIC_FIELD.search(text) or _EUPHONIC_NAMED.search(text) else text


class Typeset(Domain):
    """Flask-Babel's catalogues, the French one typeset once as it is loaded (every gettext, the templates', the
    engine's sentences and the offline words, reads it)."""

    def get_translations(self):
        found = super().get_translations()
        if getattr(found, "typeset", None) is None:
            entry = {"fr": french_entry, "it": italian_entry}.get(str(get_locale()))
            if entry is not None:
                found._catalog = {k: entry(v) if k and isinstance(v, str) else v
                                  for k, v in found._catalog.items()}
            found.typeset = True
        return found


def colon(label) -> Markup:
    """A label with its colon, as the reader's language sets it ("Total:", in French "Total\u202f:"): pages join a
    label to its value through this, never with a colon of their own. The label is escaped unless it is Markup."""
    return Markup(gettext("%(label)s:")) % {"label": label}


def semicolon(clause) -> Markup:
    """A clause with the semicolon that ends it, as the reader's language sets it ("a;", in French "a\u202f;");
    escaped unless it is Markup."""
    return Markup(gettext("%(clause)s;")) % {"clause": clause}


def install(app) -> None:
    """Give the templates _(), gettext() and ngettext() in this request's language (in place of Flask-Babel's).

    They are called straight: Jinja's own newstyle _() goes through three calls, and its Markup % wraps every
    value in a helper object (a Save's answer says a few dozen sentences). {% trans %} blocks call the same
    gettext and ngettext, newstyle: with their values as keywords.
    """
    app.extensions["babel"].instance.domain_instance = Typeset()
    app.jinja_env.newstyle_gettext = True
    app.jinja_env.globals.update(_=_template_gettext, gettext=_template_gettext, ngettext=_template_ngettext)


def _escaped(value):
    """A value to fill into a sentence on an HTML page: escaped, unless a plain int or float (whose text needs
    none; a subclass might write anything). A value given for %d as text, or for %r, goes the slower way."""
    return value if type(value) in (int, float) else escape(value)


def _filled(context, text: str, variables: dict) -> str:
    """Fill a translated sentence as Jinja's newstyle gettext does: always as a format string, its values
    HTML-escaped where the template autoescapes."""
    if not context.eval_ctx.autoescape:
        return text % variables
    if "%r" in text or ")r" in text:
        return Markup(text) % variables  # Markup's own %r writes the escaped repr, not a Markup's
    try:
        return Markup(text % {k: _escaped(v) for k, v in variables.items()})
    except (TypeError, ValueError):  # e.g. %(n)d given a number as text: Markup's own % converts it
        return Markup(text) % variables


# the parameters are positional-only, as Jinja's own: a sentence's values may be named anything (message=…)
@pass_context
def _template_gettext(context, message: str, /, **variables) -> str:
    return _filled(context, translations().ugettext(message), variables)


@pass_context
def _template_ngettext(context, singular: str, plural: str, num, /, **variables) -> str:
    variables.setdefault("num", num)
    return _filled(context, translations().ungettext(singular, plural, num), variables)


RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")  # Hebrew, Arabic, Syriac, Thaana …


def when(moment: datetime) -> Markup:
    """A moment (stored in UTC) as a <time> element: written in the app's time zone (BABEL_DEFAULT_TIMEZONE) for a
    page without scripts, and in the phone's own by static/page.js, so every time a phone shows is in its zone."""
    moment = moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
    return Markup('<time datetime="{}" data-local>{}</time>').format(
        moment.astimezone(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z"),
        format_datetime(moment, "short"))


def isolated(text: str) -> str:
    """Keep a right-to-left name apart from the numbers and words beside it (FSI … PDI), so "מרים −11" isn't
    shown as "11− מרים"; any other text is returned as it is."""
    return f"\u2068{text}\u2069" if RIGHT_TO_LEFT.search(text) else text
