"""The one record path: every game's rounds as append-only event streams, recorded in short
write transactions.

``record`` (the record path of every stream, its start included: idempotency key,
``expected_seq``, undo, the engine, compare-and-append), ``streams`` (what a stream and its
start are to it), ``house`` (a house round as a stream; what every stream kept in a
``game_round`` row shares), ``live`` (a house round as the screens show it), ``steps`` (a house
round's start with its bets, its steps, the redeal), ``starting`` (the statements of a start
at a table), ``poker_hands`` (a poker hand as a
stream), ``parlour`` (the parlour board game's evening as a stream), ``store`` (the storage
primitives: numbering, reading and appending events, the round's own rules), ``memo`` (the
replay memo, by content), ``txn`` (short transactions with bounded retries, 503 on contention).
"""

from __future__ import annotations

#: the public modules, imported where used (``from dealer_assist.services.<package> import
#: <module>``), not here: importing one module of a package does not import all the others
__all__ = ["house", "live", "memo", "parlour", "poker_hands", "record", "starting", "steps",
           "store", "streams", "txn"]
