"""Bounds on what a request may send, checked before any arithmetic: JSON numbers, names, text.

Python's json module builds any number it is sent: an int of thousands of digits, a float such as
1e308 or 1e-999999999 (which the engine's Fraction would turn into a gigantic denominator), and even
NaN and Infinity, which JSON doesn't allow. `loads` reads a request body (the API, an import) with
every number checked from its text first, and every string composed (`nfc`); `invisible` finds the characters a
player's name can't hold.
"""
from __future__ import annotations

import json
import unicodedata
from decimal import Decimal, InvalidOperation

from ..engine.text import Line, line

MAX_NAME = 40  # characters of a player's name, on the table form and in an import
MAX_NUMBER = 10**9  # past anything a card table counts (points, stakes, versions), inside an SQL INTEGER
SMALLEST = Decimal("1e-9")  # closer to 0 than this is no score, only a way to make huge fractions
NUMBER_TEXT = 32  # characters of one JSON number: "-1000000000.000000001" is 21
# Characters a name can't hold: control characters (NUL, tab, newline), format characters (zero-width
# space and joiners, the byte-order mark, right-to-left overrides, soft hyphen), lone surrogates (JSON's
# "\ud800": no database stores them), and the line and paragraph separators.
REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Zl", "Zp"}


class BadNumber(ValueError):
    """A JSON number out of bounds, or NaN/Infinity; `line` says so in words, naming the field."""

    def __init__(self, message: Line):
        super().__init__(message.render())
        self.line = message


class _Refused:
    """What the parser puts where a number out of bounds stood, so the field can be named afterwards."""

    def __init__(self, text: str, constant: bool = False):
        self.text, self.constant = shown(text), constant


def shown(text: str) -> str:
    """Return a number's text short enough to quote in a message."""
    return text if len(text) <= 24 else f"{text[:12]}…({len(text)} characters)"


def _int(text: str):
    if len(text.lstrip("-")) > 10:  # counted before int(): 10**5000 is refused without being built
        return _Refused(text)
    value = int(text)
    return value if abs(value) <= MAX_NUMBER else _Refused(text)


def _float(text: str):
    if len(text) > NUMBER_TEXT:
        return _Refused(text)
    try:
        exact = Decimal(text)  # exact and cheap whatever the exponent: 1e-999999999 is two small numbers
    except InvalidOperation:
        return _Refused(text)
    if exact != 0 and not SMALLEST <= abs(exact) <= MAX_NUMBER:
        return _Refused(text)
    return float(text)


def _find(data):
    """Return (path, _Refused) for the first refused number in parsed JSON, or None (no recursion)."""
    stack = [("", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, _Refused):
            return path, value
        if isinstance(value, dict):
            items = [(f"{path}.{k}" if path else str(k), v) for k, v in value.items()]
        elif isinstance(value, list):
            items = [(f"{path}[{i}]", v) for i, v in enumerate(value)]
        else:
            continue
        stack.extend(reversed(items))  # depth first, in the order the body has them
    return None


def nfc(value):
    """Return `value` (a string, or JSON's lists and objects of them) with every string in Unicode's composed form
    (NFC): "Zoé" typed as one character or as e and a combining accent (NFD: some keyboards, macOS file names) is
    one name. Everything a request brings in passes here (web/site.py Request: forms, addresses; loads: the API
    and imports)."""
    if isinstance(value, str):
        return value if value.isascii() else unicodedata.normalize("NFC", value)
    if isinstance(value, list):
        return [nfc(v) for v in value]
    if isinstance(value, dict):
        return {nfc(k): nfc(v) for k, v in value.items()}
    return value


def loads(raw: bytes | str):
    """Parse JSON with every number bounded; raise BadNumber naming the field, or ValueError/RecursionError."""
    data = json.loads(raw, parse_int=_int, parse_float=_float, parse_constant=lambda name: _Refused(name, True))
    found = _find(data)
    if found is None:
        return nfc(data)
    field, refused = found
    if refused.constant:
        if field:
            raise BadNumber(line("“{field}” is {value}, which is no number in JSON: send a number such as 48 or 40.5.",
                                 field=field, value=refused.text))
        raise BadNumber(line("The request is {value}, which is no number in JSON.", value=refused.text))
    if field:
        raise BadNumber(line("“{field}” is {number}, out of range: send numbers from −{max} to {max}, such as 48 or "
                             "40.5.", field=field, number=refused.text, max=MAX_NUMBER))
    raise BadNumber(line("The number {number} is out of range: send numbers from −{max} to {max}.",
                         number=refused.text, max=MAX_NUMBER))


def invisible(name: str) -> bool:
    """Say whether a name holds a character it can't (control, zero-width, NUL, a lone surrogate)."""
    return any(unicodedata.category(ch) in REFUSED_CATEGORIES for ch in name)
