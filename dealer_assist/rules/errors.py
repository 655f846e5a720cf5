"""One error hierarchy for the rules engine.

Every error carries the offending value so that the edge (web page, JSON API, CLI) can name the
problem precisely without parsing the message. The web layer maps ``RulesError`` to HTTP 422 and a
problem body built from :meth:`RulesError.problem`.
"""

from __future__ import annotations

from typing import Any

from .phrase import Phrase


class RulesError(Exception):
    """Base class: input that breaks a rule of the game or of the house."""

    code = "rules_error"

    def __init__(self, message: str, *, field: str | None = None, value: Any = None,
                 **params: Any) -> None:
        """``message`` is a ``%(name)s`` template (a message id) and ``params`` its values: the
        English text is the API's ``detail``; the edge translates the :class:`Phrase`."""
        if not isinstance(message, Phrase):
            message = Phrase(message, **params)
        super().__init__(message)
        self.message: Phrase = message
        self.field = field
        self.value = value

    def problem(self) -> dict[str, Any]:
        """A JSON-ready description: machine code, human message, field and offending value."""
        body: dict[str, Any] = {"code": self.code, "detail": self.message}
        if self.field is not None:
            body["field"] = self.field
        if self.value is not None:
            body["value"] = self.value
        return body

    def at(self, prefix: str) -> RulesError:
        """Prefix the field path (``boxes[0]`` + ``cards``) as the error travels outwards."""
        if not self.field:
            self.field = prefix
        elif self.field.startswith("["):
            self.field = f"{prefix}{self.field}"
        else:
            self.field = f"{prefix}.{self.field}"
        return self


class CardParseError(RulesError):
    """A token that is not a card: names the token and its 1-based position."""

    code = "card_parse_error"

    def __init__(self, token: str, position: int, reason: str = "") -> None:
        if reason:
            message = Phrase("'%(token)s' (card %(position)s) is not a card: %(reason)s",
                             token=token, position=position, reason=reason)
        else:
            message = Phrase("'%(token)s' (card %(position)s) is not a card", token=token,
                             position=position)
        super().__init__(message, value=token)
        self.token = token
        self.position = position


class DuplicateCardError(RulesError):
    """The same card named twice in one hand or one round."""

    code = "duplicate_card"

    def __init__(self, card: str, position: int | None = None, where: str = "") -> None:
        pos = Phrase(" (card %(position)s)", position=position) if position is not None else ""
        place = Phrase(" %(where)s", where=where) if where else ""
        super().__init__(Phrase("%(card)s%(position)s is already on the table%(where)s",
                                card=card, position=pos, where=place), value=card)
        self.card = card
        self.position = position


class CardNotInDeckError(RulesError):
    """A card that does not exist in the game's deck (a 5h in a 32-card game)."""

    code = "card_not_in_deck"

    def __init__(self, card: str, deck: str, position: int | None = None) -> None:
        pos = Phrase(" (card %(position)s)", position=position) if position is not None else ""
        super().__init__(Phrase("%(card)s%(position)s is not in the %(deck)s deck", card=card,
                                position=pos, deck=deck), value=card)
        self.card = card
        self.deck = deck
        self.position = position


class CardCountError(RulesError):
    """A hand with the wrong number of cards."""

    code = "card_count"

    def __init__(self, got: int, expected: str, what: str = "hand") -> None:
        super().__init__(Phrase.counted("the %(what)s has %(num)d card; expected %(expected)s",
                                      "the %(what)s has %(num)d cards; expected %(expected)s",
                                      got, what=Phrase(what), expected=expected), value=got)
        self.got = got
        self.expected = expected


class IllegalActionError(RulesError):
    """An action the rules do not allow at this point (a sixth card after an exchange...)."""

    code = "illegal_action"


class StakeError(RulesError):
    """A stake outside the table limits or not of the required size."""

    code = "invalid_stake"


class HouseRulesError(RulesError):
    """A house-rules profile with a missing or invalid value: names the field."""

    code = "house_rules_error"
