"""Stored theoretical figures per profile version (computed once, then read by the pages).

The figures take seconds to minutes to compute, so pages never compute them: the CLI
(``flask lab house-edge PROFILE``) computes and stores them in ``house_edge.json`` in the
instance folder (or the file ``HOUSE_EDGE_STORE`` names), keyed by profile name; an entry whose
fingerprint no longer matches the profile (its rules changed) is treated as missing.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ...lab.version import fingerprint
from ...rules.errors import HouseRulesError
from ...rules.profiles import get_profile


def store_path(config: Mapping[str, Any], instance_path: str) -> Path:
    """``HOUSE_EDGE_STORE`` from the config, else ``house_edge.json`` in the instance folder."""
    configured = config.get("HOUSE_EDGE_STORE")
    return Path(configured) if configured else Path(instance_path) / "house_edge.json"


def load_all(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def stored(path: Path, profile_name: str) -> dict[str, Any] | None:
    """The stored figures of ``profile_name`` if they were computed for its current rules:
    the instance store's (``lab house-edge``) and the package's (``lab best-strategy``, kept
    with the code: ``lab.strategy_store``), strategies merged."""
    profile = get_profile(profile_name)
    entry = load_all(path).get(profile_name)
    if not isinstance(entry, dict) or entry.get("fingerprint") != fingerprint(profile):
        entry = None
    kept = _kept(profile)
    if kept is None or not kept.get("strategies"):
        return entry
    base = dict(entry) if entry else {
        "profile": profile_name, "fingerprint": kept["fingerprint"], "ante": profile.min_ante,
        "method": next(iter(kept["strategies"].values())).get("method", ""),
        "dealer_qualifies": next(iter(kept["strategies"].values())).get("dealer_qualifies"),
        "default_strategy": next(iter(kept["strategies"])), "strategies": {}}
    base["strategies"] = {**kept["strategies"], **base["strategies"]}
    return base


def _kept(profile: Any) -> dict[str, Any] | None:
    from ...lab.strategy_store import figures
    return figures(profile)


def strategy_edge(path: Path, profile_name: str, strategy: str) -> tuple[float, str] | None:
    """(house edge per ANTE, strategy) of ``strategy`` for the profile's current rules; the
    Caribbean exact count names its best strategy ``optimal``."""
    entry = stored(path, profile_name)
    if entry is None:
        return None
    names = entry["strategies"]
    for name in ((strategy, "optimal") if strategy == "best" else
                 (strategy, "ak-or-better") if strategy == "basic" else (strategy,)):
        if name in names:
            return float(names[name]["house_edge"]), strategy
    return None


def save(path: Path, figures: dict[str, Any]) -> None:
    """Merge one profile's figures into the store (written atomically: rename over)."""
    data = load_all(path)
    data[figures["profile"]] = figures
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".house_edge.")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, sort_keys=True)
    os.replace(tmp, path)


def stored_edges(path: Path) -> dict[str, dict[str, Any]]:
    """profile name -> its current stored figures (stale entries left out)."""
    from ...rules.profiles import profiles
    out = {}
    for name in sorted({*load_all(path), *(p.name for p in profiles())}):
        try:
            entry = stored(path, name)
        except HouseRulesError:  # a profile no longer registered: its entry is not shown
            continue
        if entry is not None:
            out[name] = entry
    return out
