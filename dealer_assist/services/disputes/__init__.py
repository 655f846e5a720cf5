"""Disputes and changes to a paid round, each asked for by one person and decided by another.

``disputes`` (a player's claim on a settled box, the pit boss's decisions), ``review`` (a stored
round replayed for review against its recorded settlement) and ``voids`` (voids and
after-payment corrections).
"""

from __future__ import annotations

#: the public modules, imported where used (``from dealer_assist.services.<package> import
#: <module>``), not here: importing one module of a package does not import all the others
__all__ = ["disputes", "review", "voids"]
