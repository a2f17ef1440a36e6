"""Writing a CSV that each locale's spreadsheet opens right: its separator and decimal mark, text cells that are
never formulas, money in units with two decimals."""
from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass
from urllib.parse import quote

from babel.numbers import get_decimal_symbol
from flask import Response

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


class Sheet:
    """A CSV being written for the reader's spreadsheet (a table's, a circle's): its dialect, its rows, the file.

    Text cells go through as_text; numbers through `number` (and money through `money`), so a spreadsheet still
    reads them as numbers."""

    def __init__(self, locale: str):
        self.dialect = spreadsheet_dialect(locale)
        self._out = io.StringIO()
        self._out.write("\ufeff")  # a UTF-8 byte order mark: Excel reads accents and names as UTF-8 only with it
        self._writer = csv.writer(self._out, delimiter=self.dialect.delimiter)

    def number(self, value) -> str:
        return self.dialect.number(value)

    def money(self, minor: int) -> str:
        return self.dialect.number(decimal(minor))

    def row(self, cells) -> None:
        self._writer.writerow(cells)

    def answer(self, filename: str) -> Response:
        """The file, as a download called `filename` (in the reader's words: "Tarot-français-2026-11-27.csv")."""
        return Response(self._out.getvalue(), mimetype="text/csv",
                        headers={"Content-Disposition": attachment(filename)})


def file_name(*words: str, suffix: str) -> str:
    """Join words into a file name a phone can keep: "Tarot français", "2026-11-27" → "Tarot-français-2026-11-27.csv".
    Letters of every script stay; what a file system or a header refuses (/ \\ : * ? " < > | and controls) goes."""
    kept = [re.sub(r"[\\/:*?\"<>|\x00-\x1f\x7f]+", "", w).strip() for w in words]
    return "-".join(re.sub(r"\s+", "-", w) for w in kept if w) + suffix


def attachment(filename: str) -> str:
    """A Content-Disposition for a download: the UTF-8 name (RFC 6266's filename*), and an ASCII one for old clients."""
    ascii_name = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode() or "export"
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(filename, safe='')}"
