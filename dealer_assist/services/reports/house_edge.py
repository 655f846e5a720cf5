"""Stored theoretical figures per profile version (computed once, then read by the pages).

The figures take seconds to minutes to compute, so pages never compute them: the CLI
(``flask lab house-edge PROFILE``) computes and stores them in the database (``lab_figure``,
one row per profile: issue 25, every app process and machine reads the same figures; they were
a JSON file in one machine's instance folder), keyed by profile name; an entry whose
fingerprint no longer matches the profile (its rules changed) is treated as missing.
:func:`stored` is the one way to read a profile's figures, :func:`save` the one way to write
them; :func:`import_file` brings in a file the old store left behind (``flask lab
import-figures``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlmodel import Session, col, select

from ...lab.version import fingerprint
from ...models import LabFigures, utcnow
from ...rules.errors import HouseRulesError
from ...rules.profiles import get_profile


def load_all(session: Session) -> dict[str, Any]:
    """profile name -> its stored figures, current or not."""
    rows = session.exec(select(LabFigures).order_by(col(LabFigures.profile))).all()
    return {row.profile: json.loads(row.figures) for row in rows}


def stored(session: Session, profile_name: str) -> dict[str, Any] | None:
    """The stored figures of ``profile_name`` if they were computed for its current rules."""
    row = session.get(LabFigures, profile_name)
    if row is None:
        return None
    entry: dict[str, Any] = json.loads(row.figures)
    if entry.get("fingerprint") != fingerprint(get_profile(profile_name)):
        return None
    return entry


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
    for name in load_all(session):
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
