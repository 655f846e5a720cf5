"""A JSON request body, read so that no bytes can make it a 500.

:func:`json_body` answers 400 (a problem body) for a body that is not JSON, nests deeper than
:data:`MAX_DEPTH` (the parser would recurse out of stack), or holds text no column can store (a
lone surrogate such as ``"\\ud800"``, a NUL character). What the JSON means is checked after:
its shape by the API's models, its rules by the engine (422 with the field path).
"""

from __future__ import annotations

from typing import Any

from flask import Response, request

from .problems import problem

#: deeper than any request the API documents (a round body is about 4 levels)
MAX_DEPTH = 32


def json_body() -> tuple[Any, Response | None]:
    """``(data, None)`` for a JSON body, ``(None, problem response)`` for one that is not."""
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
