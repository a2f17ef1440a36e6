"""Sentences the core produces, kept translatable: a message id with named fields. Pure."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


def fmt_points(value) -> str:
    """Write a point value for people: 53, 40.5, never 40.50 or 81/2."""
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        return f"{float(value):g}"  # halves only: exact in binary
    return str(value)


def signed(n) -> str:
    """Write a score with its sign: +4, −9, 0 (a real minus sign), halves as +40.5."""
    return f"+{fmt_points(n)}" if n > 0 else f"−{fmt_points(-n)}" if n < 0 else "0"


@dataclass(frozen=True)
class Line:
    """One sentence: `text` is the message id (English, with {named} fields), `args` its values.

    A value may itself be a Line (a phrase such as "Anna's points"): it is rendered, translated, first.
    """

    text: str
    args: tuple = ()

    def render(self, translate=lambda s: s) -> str:
        """Return the sentence, translated by `translate` (gettext in the web app)."""
        values = {k: v.render(translate) if isinstance(v, Line) else fmt_points(v) for k, v in self.args}
        return translate(self.text).format(**values)

    def __str__(self) -> str:
        return self.render()


def line(text: str, **args) -> Line:
    """Make a Line; `line` is also the keyword Babel extracts message ids by."""
    return Line(text, tuple(sorted(args.items())))


def N_(text: str) -> str:
    """Mark a string for translation where it is defined (game names); the page translates it."""
    return text
