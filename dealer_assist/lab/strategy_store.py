"""The computed best strategies and their figures, kept as data in the package.

A strategy table is derived data, reproducible from (profile fingerprint, method, seed), so it
is kept beside the code (``lab/data/``: one compressed ``.npz`` per profile version, named by
the profile and its fingerprint, and ``figures.json`` with the house edges) and a clean
checkout has it. Every reader goes through :func:`load` and :func:`figures` (moves the
figures into the database for serving from several processes: only these two functions and
:func:`save` change).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from ..rules.profiles import HouseProfile
from .version import fingerprint

DATA = Path(__file__).resolve().parent / "data"
FIGURES = "figures.json"


def _file(profile: HouseProfile, directory: Path) -> Path:
    return directory / f"{profile.name}-{fingerprint(profile)[:16]}.npz"


def load(profile: HouseProfile, directory: Path | None = None) -> dict[str, np.ndarray] | None:
    """The stored strategy arrays of this exact profile version, or None."""
    path = _file(profile, directory or DATA)
    if not path.exists():
        return None
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


def figures(profile: HouseProfile, directory: Path | None = None) -> dict[str, Any] | None:
    """The stored figures (house edge per strategy, method, rounds, timing) of this profile
    version, or None."""
    entry = _all(directory or DATA).get(fingerprint(profile))
    return entry if isinstance(entry, dict) else None


def _all(directory: Path) -> dict[str, Any]:
    path = directory / FIGURES
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def save(profile: HouseProfile, arrays: dict[str, np.ndarray] | None,
         entry: dict[str, Any], directory: Path | None = None) -> None:
    """Store a profile version's arrays (if any) and merge its figures (atomic renames)."""
    d = directory or DATA
    d.mkdir(parents=True, exist_ok=True)
    if arrays is not None:
        target = _file(profile, d)
        fd, tmp = tempfile.mkstemp(dir=d, suffix=".npz")
        os.close(fd)
        np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
        os.chmod(tmp, 0o644)  # data of the package, readable by all (mkstemp makes it 0600)
        os.replace(tmp, target)
    if not entry:
        return  # a table kept before its figures are measured
    data = _all(d)
    key = fingerprint(profile)
    merged = {**data.get(key, {}), **entry}
    merged["strategies"] = {**data.get(key, {}).get("strategies", {}),
                            **entry.get("strategies", {})}
    data[key] = merged
    fd, tmp = tempfile.mkstemp(dir=d, suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, sort_keys=True)
        fh.write("\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, d / FIGURES)


#: per strategy, what ``lab house-edge --keep`` keeps of its figures
_KEPT = ("house_edge", "standard_error", "element_of_risk", "raise_rate")


def kept_entry(figures: dict[str, Any], workers: int) -> dict[str, Any]:
    """The entry ``lab house-edge --keep`` merges into ``figures.json``: each strategy's
    figures with how they were made (method, rounds, seed, times), as the best strategy's."""
    how = {"method": figures["method"], "seconds": figures["seconds"],
           "cpu_seconds": figures.get("cpu_seconds", 0.0), "workers": workers,
           "dealer_qualifies": figures["dealer_qualifies"],
           "hit_frequency": figures["hit_frequency"]}
    if figures["method"] != "exact":
        how.update(rounds=figures["rounds"], seed=figures["seed"])
    return {"fingerprint": figures["fingerprint"], "game": figures["game"],
            "profile": figures["profile"],
            "strategies": {name: {**{k: s[k] for k in _KEPT}, **how}
                           for name, s in figures["strategies"].items()}}
