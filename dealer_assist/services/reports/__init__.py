"""End-of-shift reports as plain data: deterministic, canonical JSON with a stated SHA-256.

``shift`` builds a shift's report (the house games' sections in ``house``, a poker table's
report in ``poker``); ``sections`` holds what both share; ``changes`` the corrections, voids and
dispute counts. The theoretical win from the lab's stored house edge is ``services.figures``
(the ratings read it too). The report API is re-exported here: ``reports.build_shift_report(...)``.
"""

from __future__ import annotations

from . import changes, house, poker, sections, shift
from .sections import canonical_json, digest, percent, ratio
from .shift import SCHEMA, ShiftLine, build_shift_report, recent_shifts, report_with_digest

__all__ = ["SCHEMA", "ShiftLine", "build_shift_report", "canonical_json", "changes", "digest",
           "house", "percent", "poker", "ratio", "recent_shifts", "report_with_digest",
           "sections", "shift"]
