"""Domain errors: each carries an API error code and a sentence a player understands."""


class ScoreError(ValueError):
    """A hand, pile or request that can't be counted or scored."""

    code = "bad_request"

    def __init__(self, message: str, cards: list[str] | None = None, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.cards = list(cards) if cards else []
        self.field = field


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
