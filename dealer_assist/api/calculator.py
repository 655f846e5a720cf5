"""Stateless calculators: ``POST /api/v1/<game>/settle`` settles one complete round.

They store nothing and need no login (declared ``@public``); the engine does all the checking.
"""

from __future__ import annotations

from typing import Any

from flask import request

from ..rules.fields import need_mapping
from ..rules.games import GAMES
from ..web.security import public
from . import bp
from .errors import problem

#: deeper than any request the API documents (a round body is about 4 levels)
MAX_DEPTH = 32


def json_body() -> tuple[Any, Any]:
    """``(data, None)`` for a JSON body, ``(None, problem response)`` for one that is not JSON,
    nests deeper than :data:`MAX_DEPTH` (the parser would recurse out of stack: a 500), or holds
    text no column can store (a lone surrogate such as ``"\\ud800"``, a NUL character)."""
    raw = request.get_data(cache=True)
    if _too_deep(raw):
        return None, problem(400, "Malformed JSON", f"the JSON nests deeper than {MAX_DEPTH}")
    try:
        data = request.get_json(silent=True, force=True)
    except RecursionError:  # pragma: no cover - _too_deep catches it first
        data = None
    if data is None and raw.strip() != b"null":
        return None, problem(400, "Malformed JSON", "the request body is not valid JSON")
    bad = _bad_text(data)
    if bad is not None:
        return None, problem(400, "Malformed JSON", f"{bad} is not storable text "
                             "(a NUL character or a lone UTF-16 surrogate)")
    return data, None


def _too_deep(raw: bytes) -> bool:
    """Bracket depth outside strings, without parsing (so without recursion)."""
    depth, in_string, escaped = 0, False, False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


def _bad_text(data: Any, where: str = "body") -> str | None:
    """The path of the first key or string that is not valid UTF-8 text or holds a NUL."""
    stack: list[tuple[Any, str]] = [(data, where)]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if not _storable(key):
                    return f"a key in {path}"
                stack.append((item, f"{path}.{key}"))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(value))
        elif isinstance(value, str) and not _storable(value):
            return path
    return None


def _storable(text: str) -> bool:
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@bp.post("/<game>/settle")
@public
def settle(game: str) -> Any:
    spec = GAMES.get(game)
    if spec is None or not spec.banked or spec.settle_request is None:
        known = ", ".join(sorted(s.name for s in GAMES.values() if s.banked)) or "none yet"
        return problem(404, "Unknown game", f"no calculator for '{game}' (known: {known})")
    data, error = json_body()
    if error is not None:
        return error
    return spec.settle_request(need_mapping(data, "")).to_dict()
