"""The record path: rounds as append-only event streams, recorded in short write transactions.

``live`` (a live round: load, fold, the views the screens show), ``steps`` (start a round and
record a step: idempotency key, ``expected_seq``, compare-and-append), ``store`` (the storage
primitives: numbering, appending events, the round's own rules), ``memo`` (the replay memo, by
content), ``txn`` (short transactions with bounded retries, 503 on contention),
``poker_hands`` (a poker hand as a round) and ``parlour`` (the parlour board game's evening).
"""

from __future__ import annotations

#: the public modules, imported where used (``from dealer_assist.services.<package> import
#: <module>``), not here: importing one module of a package does not import all the others
__all__ = ["live", "memo", "parlour", "poker_hands", "steps", "store", "txn"]
