"""What every shape of the API shares: the base model, the common field types, the reader.

A :class:`Shape` is a pydantic model in strict mode: JSON's own types, no coercion (``"100"`` is
not 100, ``true`` is not 1), as the engine reads them. Unknown keys are ignored, as the engine
ignores them. Optional request fields accept ``null`` (the engine reads ``null`` as "not
given"); an optional *answer* field that is left out rather than null is typed
``X | Absent`` (:data:`Absent` keeps ``null`` out of the document).

A :class:`Request` is the shape of a request body and its one reader (:func:`parse`, through
the views' ``operations.parsed``). Parsing runs, in this order: the shape's :meth:`Request.read`
(the engine's field readers over the raw body: whatever they refuse is the engine's 422 with
its field path, code and value, in the order they read); then the shape's own check (a body
the engine took but that does not fit the documented shape is a 400 naming the field); then
:meth:`Request.then` (the readers whose refusals come after the shape's). What they read is the
model's :attr:`Request.got`: the one thing the view passes on. A ``RulesError`` or
``ServiceError`` raised by a reader is no ``ValueError``, so pydantic lets it through unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Generic, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    ValidationInfo,
    model_validator,
)
from pydantic import ValidationError as DoesNotFit
from pydantic.json_schema import SkipJsonSchema
from werkzeug.exceptions import BadRequest

from ...edge import json_body, problem
from ...rules.phrase import Phrase
from ...services.errors import ValidationError

#: an answer field that is left out when it does not apply (never ``null``)
Absent = SkipJsonSchema[None]


class Shape(BaseModel):
    """Base of every request and answer shape."""

    model_config = ConfigDict(strict=True, populate_by_name=True)


R = TypeVar("R")
Context = Mapping[str, Any]


class Request(Shape, Generic[R]):
    """The shape of a request body, and its one reader (see the module's docstring)."""

    _got: Any = PrivateAttr(default=None)

    @classmethod
    def read(cls, body: Any, context: Context) -> R:
        """The engine's readers over the raw body, before the shape's check."""
        raise NotImplementedError(cls.__name__)

    @classmethod
    def then(cls, body: Any, context: Context, got: R) -> R:
        """The readers whose refusals come after the shape's check (none by default)."""
        return got

    @model_validator(mode="wrap")
    @classmethod
    def _engine_first(cls, data: Any, handler: ModelWrapValidatorHandler[Any],
                      info: ValidationInfo) -> Any:
        context: Context = info.context or {}
        got = cls.read(data, context)
        model = handler(data)
        model._got = cls.then(data, context, got)
        return model

    @property
    def got(self) -> R:
        """What the readers read: the values the view passes on."""
        value: R = self._got
        return value


def idempotency_key(body: Mapping[str, Any], header: str | None) -> str:
    """The ``Idempotency-Key`` header, else the body's ``idempotency_key`` (422 if neither)."""
    key = header or body.get("idempotency_key")
    if not isinstance(key, str) or not key.strip():
        raise ValidationError("an Idempotency-Key header (or idempotency_key field) is required",
                              field="idempotency_key")
    return key


Card = Annotated[str, Field(description="a card: As, Kd, 10h, T♣ (either case)",
                            examples=["As", "10h"])]
_CARDS = "cards: a list of card codes or one space-separated string"
Cards = Annotated[list[Card] | str, Field(description=_CARDS)]
OptionalCards = Annotated[list[Card] | str | None, Field(description=_CARDS)]
Money = Annotated[int, Field(description="chips in the table's currency unit")]
Label = Annotated[str | int, Field(description="a name or number (a number is read as its "
                                               "digits: box 1 is box \"1\")")]
_SEAT = "a seat name, as the request gives it"
Seat = Annotated[str | int, Field(description=_SEAT)]
SeatName = Annotated[str, Field(description=_SEAT)]
Player = Annotated[str, Field(description="a player's name")]
PlayerLabel = Annotated[str | int, Field(description="a player's name")]
When = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
ChipsBySeat = dict[str, Money]
Obj = dict[str, Any]


def field_path(loc: tuple[int | str, ...]) -> str:
    """pydantic's location as the engine writes a field path: ``boxes[0].ante``."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return path or "body"


Q = TypeVar("Q", bound=Request[Any])


def read_body(model: type[Q], context: Context) -> Q:
    """The request's JSON body (a 400 if it is not JSON) read by ``model`` (:func:`parse`)."""
    data, error = json_body()
    if error is not None:
        raise BadRequest(response=error)
    return parse(model, data, context)


def parse(model: type[Q], data: Any, context: Context) -> Q:
    """``data`` read by ``model`` (its readers' 422 first, then a 400 naming the field that
    does not fit the shape; see the module's docstring)."""
    try:
        return model.model_validate(data, context=context)
    except DoesNotFit as err:
        first = err.errors(include_url=False)[0]
        loc = tuple(p for p in first["loc"] if not _is_union_branch(p))
        field = field_path(loc)
        raise BadRequest(response=problem(
            400, "Malformed request",
            Phrase("%(field)s does not fit the documented request shape: %(reason)s",
                   field=field, reason=first["msg"]),
            field=field)) from None


def _is_union_branch(part: int | str) -> bool:
    """pydantic names the branch of a union it tried (``str``, ``list[str]``): not a field."""
    return isinstance(part, str) and (part in {"str", "int", "bool", "float", "none"}
                                      or "[" in part or part.startswith("function-"))
