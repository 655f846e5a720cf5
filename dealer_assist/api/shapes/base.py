"""What every shape of the API shares: the base model, the common field types, the check.

A :class:`Shape` is a pydantic model in strict mode: JSON's own types, no coercion (``"100"`` is
not 100, ``true`` is not 1), as the engine reads them. Unknown keys are ignored, as the engine
ignores them. Optional request fields accept ``null`` (the engine reads ``null`` as "not
given"); an optional *answer* field that is left out rather than null is typed
``X | Absent`` (:data:`Absent` keeps ``null`` out of the document).

:func:`conform` checks a request body against its shape. The views call it after the engine (or
the view's own field reader) has read the body, so whatever the engine refuses keeps its 422
problem body with the engine's field path, exactly as before; a body the engine took but that
does not fit the documented shape is a 400 naming the field.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.json_schema import SkipJsonSchema
from werkzeug.exceptions import BadRequest

from ...edge import problem
from ...rules.phrase import Phrase

#: an answer field that is left out when it does not apply (never ``null``)
Absent = SkipJsonSchema[None]


class Shape(BaseModel):
    """Base of every request and answer shape."""

    model_config = ConfigDict(strict=True, populate_by_name=True)


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


def conform(model: type[Shape], data: Any) -> None:
    """Refuse (400, a problem body naming the field) a body that does not fit ``model``."""
    try:
        model.model_validate(data)
    except ValidationError as err:
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
