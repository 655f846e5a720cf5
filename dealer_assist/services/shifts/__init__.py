"""A table's shift and its money as the cage counts it.

``shifts`` (open a shift for a gaming date, the floor's dashboard), ``inventory`` (opening and
closing chip counts, fills and credits, closing a shift) and ``chips`` (chip sets as data).
"""

from __future__ import annotations

#: the public modules, imported where used (``from dealer_assist.services.<package> import
#: <module>``), not here: importing one module of a package does not import all the others
__all__ = ["chips", "inventory", "shifts"]
