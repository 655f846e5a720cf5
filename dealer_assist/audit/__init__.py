"""The tamper-evident audit log: every state change, hash-chained, captured without the services
knowing about it.

``chain`` appends and verifies the hash-chained entries; ``capture`` turns every flushed row
(and ORM bulk statement) into entries; ``app`` wires it into Flask (who acted, refused logins);
``data`` checks the tables against what the log says (the chain covers the data). The names
below are the package's public surface: ``from dealer_assist import audit; audit.verify(...)``.
The Flask wiring is not among them (``from dealer_assist.audit import app``): importing the
package loads no Flask, so a service may use the capture (the ``no-flask-in-services``
contract forbids indirect imports too).
"""

from __future__ import annotations

from .capture import install
from .chain import (
    ADVISORY_LOCK_KEY,
    GENESIS,
    JSON_COLUMNS,
    KEYED,
    NOISE_COLUMNS,
    SECRET_COLUMNS,
    SHORT,
    UNKEYED,
    Actor,
    ChainHead,
    Change,
    Problem,
    Verification,
    acting_as,
    append,
    canonical,
    chain_head,
    content_of,
    current_actor,
    derive_key,
    entry_hash,
    format_time,
    key_of,
    sign_head,
    verify,
)

__all__ = [
    "ADVISORY_LOCK_KEY", "GENESIS", "JSON_COLUMNS", "KEYED", "NOISE_COLUMNS",
    "SECRET_COLUMNS", "SHORT", "UNKEYED", "Actor", "ChainHead", "Change", "Problem",
    "Verification", "acting_as", "append", "canonical", "chain_head", "content_of",
    "current_actor", "derive_key", "entry_hash", "format_time", "install", "key_of",
    "sign_head", "verify",
]
