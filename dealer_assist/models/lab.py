"""The game-math lab's stored figures: one row per house-rules profile, in the
database every app process and machine reads (they were a JSON file in one machine's instance
folder). Written by ``flask lab house-edge PROFILE``; read by the profile page and the shift
report's theoretical win (``services/figures/house_edge.py``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String, Text
from sqlmodel import Field, SQLModel

from .base import UTCDateTime, utcnow


class LabFigures(SQLModel, table=True):
    """A profile's theoretical figures (JSON: house edge per strategy, hit frequencies...) and
    the fingerprint of the rules they were computed for (a changed profile's are stale)."""

    __tablename__ = "lab_figure"

    profile: str = Field(sa_type=String(64), primary_key=True)
    fingerprint: str = Field(sa_type=String(64), nullable=False)
    figures: str = Field(sa_type=Text, nullable=False)
    computed_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
