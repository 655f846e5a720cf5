"""A memo of folded rounds: the engine's replay of an event stream, kept by the stream's digest.

Why: every request on a round used to replay its events from the first, sometimes
three times. Replay stays the truth -- this is only a memo of a pure function: the key is a
digest of everything the fold depends on (game, profile, limits, and every event's sequence
number, type and canonical payload), so a changed, tampered or different stream can never hit
an entry made for another. Entries are immutable (the engine's states are frozen dataclasses),
shared by the threads of one process, and the least recently used are dropped past
:data:`SIZE`. An entry depends only on the stream's content, so it stays right whatever became
of the transaction that made it (a rolled-back write leaves at worst an entry never asked for).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ...rules.engine import Event, Folded, Game
from .store import EventView
from .store import encode_payload as canonical  # what is stored: a text and its value agree

#: rounds kept (a few kB each); a casino floor has far fewer open rounds than this
SIZE = 1024

_lock = threading.Lock()
_memo: OrderedDict[str, Folded[Any]] = OrderedDict()


def digest(start: Sequence[Any], events: Iterable[tuple[int, str, Any]]) -> str:
    """The key of a stream: the engine's start arguments and each (seq, type, payload); a
    payload given as ``str`` is its canonical text already (as stored)."""
    h = hashlib.sha256(repr(tuple(start)).encode())
    for seq, type, payload in events:
        h.update(f"\x1e{seq}\x1f{type}\x1f".encode())
        h.update((payload if isinstance(payload, str) else canonical(payload)).encode())
    return h.hexdigest()


def get(key: str) -> Folded[Any] | None:
    with _lock:
        found = _memo.get(key)
        if found is not None:
            _memo.move_to_end(key)
        return found


def put(key: str, folded: Folded[Any]) -> None:
    with _lock:
        _memo[key] = folded
        _memo.move_to_end(key)
        while len(_memo) > SIZE:
            _memo.popitem(last=False)


def fold(key: str, replay: Callable[[], Folded[Any]]) -> Folded[Any]:
    """The memoised fold, or ``replay()`` (entered only if it succeeds)."""
    found = get(key)
    if found is None:
        found = replay()
        put(key, found)
    return found


def stream_key(rules: Mapping[str, Any], events: Sequence[EventView],
               rules_text: str | None = None) -> str:
    """What a fold depends on: the stream's own rules (canonically; ``rules_text``: as stored)
    and its events (their stored payload texts, no re-encoding per request). The
    game is part of the rules (a house round names it; a poker hand's profile does)."""
    start = rules_text if rules_text is not None else canonical(rules)
    return digest((start,), ((e.seq, e.type, e.payload if e.payload_text is None
                              else e.payload_text) for e in events))


def replay(engine: Game[Any], rules: Mapping[str, Any], events: Sequence[EventView],
           rules_text: str | None = None) -> Folded[Any]:
    """The engine's replay of a stream from the empty round of its own ``rules``, memoised by
    content: replay stays the truth, a request replays at most once."""
    return fold(stream_key(rules, events, rules_text), lambda: engine.replay(
        engine.start(rules), [Event(e.seq, e.type, e.payload) for e in events]))


def remember(rules: Mapping[str, Any], events: Sequence[EventView], folded: Folded[Any],
             rules_text: str | None = None) -> None:
    """Enter a fold the record path computed step by step (after an append) in the memo."""
    put(stream_key(rules, events, rules_text), folded)


def clear() -> None:
    with _lock:
        _memo.clear()
