"""Stored theoretical figures per profile version (computed once, then read by the pages).

The figures take seconds to minutes to compute, so pages never compute them: the CLI
(``flask lab house-edge PROFILE``) computes and stores them in the database (``lab_figure``,
one row per profile: every app process and machine reads the same figures; they were
a JSON file in one machine's instance folder), keyed by profile name; an entry whose
fingerprint no longer matches the profile (its rules changed) is treated as missing. The best
strategies' figures are kept with the code (``lab.strategy_store``) and merged in.
:func:`stored` is the one way to read a profile's figures, :func:`save` the one way to write
them; :func:`import_file` brings in a file the old store left behind (``flask lab
import-figures``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlmodel import Session, col, select

from ...lab import strategy_store
from ...lab.version import fingerprint
from ...models import LabFigures, utcnow
from ...rules.errors import HouseRulesError
from ...rules.profiles import get_profile, profiles


def load_all(session: Session) -> dict[str, Any]:
    """profile name -> its stored figures, current or not."""
    rows = session.exec(select(LabFigures).order_by(col(LabFigures.profile))).all()
    return {row.profile: json.loads(row.figures) for row in rows}


def stored(session: Session, profile_name: str) -> dict[str, Any] | None:
    """The stored figures of ``profile_name`` if they were computed for its current rules:
    the database's (``lab house-edge``) and the package's (``lab best-strategy``, kept
    with the code: ``lab.strategy_store``), strategies merged (the database's win)."""
    row = session.get(LabFigures, profile_name)
    try:
        profile = get_profile(profile_name)
    except HouseRulesError:
        if row is None:  # a poker room's profile (rules.poker): the lab computes none
            return None
        raise
    entry: dict[str, Any] | None = json.loads(row.figures) if row is not None else None
    if entry is not None and entry.get("fingerprint") != fingerprint(profile):
        entry = None
    kept = strategy_store.figures(profile)
    if kept is None or not kept.get("strategies"):
        return entry
    first = next(iter(kept["strategies"].values()))
    base = dict(entry) if entry else {
        "profile": profile_name, "fingerprint": kept["fingerprint"], "ante": profile.min_ante,
        "method": first.get("method", ""), "dealer_qualifies": first.get("dealer_qualifies"),
        "default_strategy": next(iter(kept["strategies"])), "strategies": {}}
    base["strategies"] = {**kept["strategies"], **base["strategies"]}
    return base


def save(session: Session, figures: dict[str, Any]) -> None:
    """Store one profile's figures (replacing what was stored for it); the caller commits."""
    text = json.dumps(figures, sort_keys=True)
    row = session.get(LabFigures, figures["profile"])
    if row is None:
        row = LabFigures(profile=figures["profile"], fingerprint=str(figures["fingerprint"]),
                         figures=text, computed_at=utcnow())
    else:
        row.fingerprint, row.figures, row.computed_at = str(figures["fingerprint"]), text, \
            utcnow()
    session.add(row)
    session.flush()


def stored_edges(session: Session) -> dict[str, dict[str, Any]]:
    """profile name -> its current stored figures (stale entries left out)."""
    out = {}
    for name in sorted({*load_all(session), *(p.name for p in profiles())}):
        try:
            entry = stored(session, name)
        except HouseRulesError:  # a profile no longer registered: its entry is not shown
            continue
        if entry is not None:
            out[name] = entry
    return out


def import_file(session: Session, path: Path) -> list[str]:
    """The figures of a ``house_edge.json`` the file store left (profile name -> figures), each
    stored unless the database already holds figures for that profile; the names imported."""
    data = json.loads(path.read_text(encoding="utf-8"))
    done = []
    for name, figures in sorted(data.items() if isinstance(data, dict) else []):
        if isinstance(figures, dict) and session.get(LabFigures, name) is None \
                and figures.get("profile") == name and "fingerprint" in figures:
            save(session, figures)
            done.append(name)
    return done
