"""Use cases. Each function takes a SQLModel ``Session`` and plain values, returns plain values
(frozen dataclasses), and raises a :class:`~dealer_assist.services.errors.ServiceError` subclass
for anything the user can get wrong. Services flush but never commit: the caller (a web view, a
CLI command, :func:`dealer_assist.db.session_scope`) owns the transaction.

Modules: ``errors`` (the hierarchy), ``passwords`` (Argon2id), ``users`` (accounts), ``auth``
(login, throttling, server-side sessions), ``tables``, ``profiles`` (what the engine knows),
``shifts``, ``rounds`` (append-only events with idempotency keys).
"""
