"""A profile's version: a digest of its data (no numpy here, so pages can check it cheaply)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

from ..rules.profiles import HouseProfile


def fingerprint(profile: HouseProfile) -> str:
    """SHA-256 of the profile's fields (names sorted, values as text): its version. The fields
    of a player's boxes (``CONDUCT``: how many, their antes, the dark course) change no box's
    mathematics and are left out, so a figure stays valid for every round of those rules."""
    data = {f.name: _plain(getattr(profile, f.name)) for f in dataclasses.fields(profile)
            if f.name not in profile.CONDUCT}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def _plain(value: Any) -> Any:
    if hasattr(value, "items"):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if hasattr(value, "name") and not isinstance(value, str):
        return str(value.name)
    return value if isinstance(value, (int, str, bool, type(None))) else str(value)
