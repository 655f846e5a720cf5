"""End-of-shift reports as plain data: deterministic, canonical JSON with a stated SHA-256.

``shift`` builds a shift's report (the house games' sections in ``house``, a poker table's
report in ``poker``); ``sections`` holds what both share; ``changes`` the corrections, voids and
dispute counts; ``theoretical`` the theoretical win from the lab's stored house edge
(``house_edge``). The report API is re-exported here: ``reports.build_shift_report(...)``.
"""

from __future__ import annotations

from . import changes, house, house_edge, poker, sections, shift, theoretical
from .sections import canonical_json, digest, percent, ratio
from .shift import SCHEMA, ShiftLine, build_shift_report, recent_shifts, report_with_digest

__all__ = ["SCHEMA", "ShiftLine", "build_shift_report", "canonical_json", "changes", "digest",
           "house", "house_edge", "percent", "poker", "ratio", "recent_shifts",
           "report_with_digest", "sections", "shift", "theoretical"]
