"""Field getters: a value read from plain JSON-like data, with a precise, field-named error.

Every codec and calculator of the engine reads its payloads with these, so that a request or a
stored event with a wrong type or value fails with a ``RulesError`` naming the field path
(``boxes[0].ante``) and the value, never a ``KeyError`` or ``TypeError`` (which would be a 500).
Every message is a catalog message id with its values (``%(field)s is required``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import Card, parse_cards
from .errors import RulesError
from .phrase import Phrase


class RequestError(RulesError):
    """A field is missing or has the wrong type or value."""

    code = "invalid_field"


def need_mapping(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise RequestError("%(name)s must be a JSON object",
                           name=path or Phrase("the request body"), field=path or "body",
                           value=_show(value))
    return value


def get_field(data: Mapping[str, Any], name: str, path: str, default: Any = ...) -> Any:
    full = f"{path}.{name}" if path else name
    if name not in data or data[name] is None:
        if default is ...:
            raise RequestError("%(name)s is required", name=full, field=full)
        return default
    return data[name]


def get_int(data: Mapping[str, Any], name: str, path: str = "", default: Any = ...,
            minimum: int | None = 0) -> int:
    """An integer field (money, counts). Booleans and floats are refused: money is an int."""
    full = f"{path}.{name}" if path else name
    value = get_field(data, name, path, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError("%(name)s must be a whole number, got %(got)s", name=full,
                           got=_show(value), field=full, value=_show(value))
    if minimum is not None and value < minimum:
        raise RequestError("%(name)s must be at least %(minimum)s, got %(got)s", name=full,
                           minimum=minimum, got=value, field=full, value=value)
    return value


def get_str(data: Mapping[str, Any], name: str, path: str = "", default: Any = ...,
            choices: Sequence[str] | None = None) -> str:
    full = f"{path}.{name}" if path else name
    value = get_field(data, name, path, default)
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)  # box "1" or 1: both fine
    if not isinstance(value, str):
        raise RequestError("%(name)s must be a string, got %(got)s", name=full,
                           got=_show(value), field=full, value=_show(value))
    if choices is not None and value not in choices:
        allowed = ", ".join(f"'{c}'" for c in choices)
        raise RequestError("%(name)s must be one of %(allowed)s, got '%(got)s'", name=full,
                           allowed=allowed, got=value, field=full, value=value)
    return value


def get_list(data: Mapping[str, Any], name: str, path: str = "", default: Any = ...) -> list[Any]:
    full = f"{path}.{name}" if path else name
    value = get_field(data, name, path, default)
    if not isinstance(value, list):
        raise RequestError("%(name)s must be a list, got %(got)s", name=full,
                           got=_show(value), field=full, value=_show(value))
    return value


def get_cards(data: Mapping[str, Any], name: str, path: str = "", default: Any = ...,
              count: int | None = None) -> tuple[Card, ...]:
    """A list of card codes (or one space-separated string); errors carry the field path."""
    full = f"{path}.{name}" if path else name
    value = get_field(data, name, path, default)
    if isinstance(value, tuple):
        value = list(value)
    if not isinstance(value, list | str) or (
        isinstance(value, list) and not all(isinstance(v, str | Card) for v in value)
    ):
        raise RequestError("%(name)s must be a list of cards such as [\"As\", \"10h\"]",
                           name=full, field=full, value=_show(value))
    try:
        return parse_cards(value, count=count, what=full)
    except RulesError as err:
        raise err.at(full) from None


def _show(value: Any) -> Any:
    """A JSON-safe, short rendering of an offending value for the problem body."""
    if value is None or isinstance(value, bool | int | str):
        return value if not isinstance(value, str) or len(value) <= 80 else value[:77] + "..."
    if isinstance(value, float):
        return repr(value)
    return type(value).__name__
