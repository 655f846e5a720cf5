"""Stored theoretical figures per profile version (computed once, then read by the pages).

The figures take seconds to minutes to compute, so pages never compute them: the CLI
(``flask lab house-edge PROFILE``) computes and stores them in ``house_edge.json`` in the
instance folder, keyed by profile name; an entry whose fingerprint no longer matches the profile
(its rules changed) is treated as missing.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ..rules.profiles import get_profile


def store_path(instance_path: str) -> Path:
    return Path(instance_path) / "house_edge.json"


def load_all(instance_path: str) -> dict[str, Any]:
    path = store_path(instance_path)
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def stored(instance_path: str, profile_name: str) -> dict[str, Any] | None:
    """The stored figures of ``profile_name`` if they were computed for its current rules."""
    from ..lab.house_edge import fingerprint  # numpy only when figures are asked for

    entry = load_all(instance_path).get(profile_name)
    if not isinstance(entry, dict):
        return None
    if entry.get("fingerprint") != fingerprint(get_profile(profile_name)):
        return None
    return entry


def save(instance_path: str, figures: dict[str, Any]) -> None:
    """Merge one profile's figures into the store (written atomically: rename over)."""
    data = load_all(instance_path)
    data[figures["profile"]] = figures
    path = store_path(instance_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".house_edge.")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, sort_keys=True)
    os.replace(tmp, path)


def stored_edges(instance_path: str) -> dict[str, dict[str, Any]]:
    """profile name -> its current stored figures (stale entries left out)."""
    out = {}
    for name in load_all(instance_path):
        try:
            entry = stored(instance_path, name)
        except Exception:  # a profile no longer registered: its entry is simply not shown
            continue
        if entry is not None:
            out[name] = entry
    return out
