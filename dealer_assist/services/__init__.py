"""Use cases. Each function takes a SQLModel ``Session`` and plain values, returns plain values
(frozen dataclasses), and raises a :class:`~dealer_assist.services.errors.ServiceError` subclass
for anything the user can get wrong. Services flush but never commit: the caller owns the
transaction (the edge's unit of work for a request, ``edge/unit.py``; a CLI command's
:func:`dealer_assist.db.session_scope`), except the record path's own short units
(``rounds/txn.run``), which commit each attempt themselves.

Packages by concept, each with a small public ``__init__``: ``rounds`` (the record path),
``reports`` (end-of-shift reports), ``shifts`` (shifts, inventory, chip sets), ``people``
(accounts, logins, duties), ``tables`` (live and poker tables, profiles), ``disputes``
(disputes, round review, voids); ``errors`` is the one hierarchy of service errors.
"""
