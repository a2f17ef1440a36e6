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
    plural: str | None = None  # the plural message id, chosen by the number in the field `count`
    count: str | None = None

    def render(self, translate=lambda s: s, number=fmt_points, plural=None, name=str) -> str:
        """Return the sentence in the reader's words.

        `translate` is gettext, `plural` ngettext (s, p, n) and `number` writes a number, the three of the
        reader's language (the web app's l10n module); `name` writes a text value such as a player's name
        (the web keeps a right-to-left one apart from the numbers beside it). By default English, numbers as
        fmt_points writes them, text as it is.
        """
        values = {k: v.render(translate, number, plural, name) if isinstance(v, Line) else
                  number(Fraction(v) if isinstance(v, float) else v)
                  if isinstance(v, (int, float, Fraction)) and not isinstance(v, bool) else name(str(v))
                  for k, v in self.args}
        if self.plural is None:
            text = translate(self.text)
        else:
            n = dict(self.args)[self.count]
            text = plural(self.text, self.plural, n) if plural else self.text if n == 1 else self.plural
        return text.format(**values)

    def __str__(self) -> str:
        return self.render()


def line(text: str, **args) -> Line:
    """Make a Line; `line` is also the keyword Babel extracts message ids by."""
    return Line(text, tuple(sorted(args.items())))


def nline(singular: str, plural: str, count: str, **args) -> Line:
    """Make a Line whose wording follows the number in field `count` ("1 card", "2 cards").

    Babel extracts it as `nline:1,2`; each language's catalogue gives its own plural forms.
    """
    return Line(singular, tuple(sorted(args.items())), plural, count)


def N_(text: str) -> str:
    """Mark a string for translation where it is defined (game names); the page translates it."""
    return text
