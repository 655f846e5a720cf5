"""The tables of the floor: a live table's game, profile and limits, and the poker tables.

``tables`` (create and edit a live table), ``profiles`` (what the rules engine knows) and
``poker`` (a poker table's seats, buy-ins, stacks and button).
"""

from __future__ import annotations

#: the public modules, imported where used (``from dealer_assist.services.<package> import
#: <module>``), not here: importing one module of a package does not import all the others
__all__ = ["poker", "profiles", "tables"]
