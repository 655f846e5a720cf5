"""The table's money as the cage counts it.

``slips`` (numbered fill, credit, opener and closer slips, issued under one lock so a number
never repeats; a void keeps the slip), ``buyins`` (cash for chips at the table, at any moment of
a round), ``issues`` (the cage issues fills and credits, the table signs for them),
``drop`` (the drop box's soft count by two authenticated counters) and ``win`` (win =
closing - opening + credits - fills + drop per shift and gaming day, hold = win / drop, and the
difference from the settlements named by its cause).
"""

from __future__ import annotations

__all__ = ["buyins", "drop", "issues", "slips", "win"]
