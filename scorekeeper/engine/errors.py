"""Domain errors: each carries an API error code and a sentence a player understands."""
from __future__ import annotations

from .text import Line, fmt_points


class ScoreError(ValueError):
    """A hand, pile or request that can't be counted or scored.

    `message` is a plain sentence or a `line(...)`; `.message` is always the English text (the JSON
    API's), `render(gettext)` the sentence in the reader's language.
    """

    code = "bad_request"

    def __init__(self, message: str | Line, cards: list[str] | None = None, field: str | None = None):
        self.line = message
        self.message = message.render() if isinstance(message, Line) else message
        super().__init__(self.message)
        self.cards = list(cards) if cards else []
        self.field = field

    def render(self, translate=lambda s: s, number=fmt_points, plural=None, name=str) -> str:
        """Return the sentence in the reader's words (Line.render says how)."""
        if isinstance(self.line, Line):
            return self.line.render(translate, number, plural, name)
        return translate(self.message)


class UnknownGame(ScoreError):
    code = "unknown_game"


class UnknownCard(ScoreError):
    code = "unknown_card"


class DuplicateCard(ScoreError):
    code = "duplicate_card"


class NotInDeck(ScoreError):
    code = "not_in_deck"


class TooManyCards(ScoreError):
    code = "too_many_cards"


class UnknownPlayer(ScoreError):
    code = "unknown_player"


class BadHand(ScoreError):
    code = "bad_hand"


class BadRequest(ScoreError):
    code = "bad_request"


class CantSeat(ScoreError):
    """A number of players no mix of the game's table sizes can seat (the cup's draw, engine/draw.py)."""

    code = "cant_seat"
