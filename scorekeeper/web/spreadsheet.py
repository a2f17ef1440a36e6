"""Writing a CSV that each locale's spreadsheet opens right: its separator and decimal mark, text cells that are
never formulas, money in units with two decimals."""
from __future__ import annotations

from dataclasses import dataclass

from babel.numbers import get_decimal_symbol

from ..engine.text import fmt_points


@dataclass(frozen=True)
class Dialect:
    """How a spreadsheet in the reader's locale opens a CSV by itself: the decimal mark its numbers are read with,
    and the separator between cells (a comma where the decimal mark is a point and the language is English, as
    Excel's list separator is there; a semicolon elsewhere, as Excel's is in German, French and Italian)."""

    delimiter: str
    decimal: str

    def number(self, value) -> str:
        """Write a number (points, halves, money as "-0.90") with this locale's decimal mark, no grouping."""
        return fmt_points(value).replace(".", self.decimal) if not isinstance(value, str) else \
            value.replace(".", self.decimal)


def spreadsheet_dialect(locale: str) -> Dialect:
    decimal = get_decimal_symbol(locale)
    decimal = decimal if decimal in (".", ",") else "."
    return Dialect("," if locale.split("_")[0] == "en" and decimal == "." else ";", decimal)


# A cell starting with one of these is a formula to Excel, LibreOffice or Google Sheets: a player named
# =HYPERLINK(...) could run one on the phone or PC that opens the export (OWASP "CSV injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def as_text(value) -> str:
    """Return a text cell a spreadsheet shows as text: a leading ' when it would start a formula."""
    value = str(value)
    return "'" + value if value.startswith(FORMULA_START) else value


def decimal(minor: int) -> str:
    sign = "-" if minor < 0 else ""
    return f"{sign}{abs(minor) // 100}.{abs(minor) % 100:02d}"
