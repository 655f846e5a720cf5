"""The lab's figures as the services read them: ``house_edge`` (the house edge per ANTE stored
for each profile and strategy, and computed ones kept in the database) and ``theoretical`` (the
theoretical win of a shift's rounds from those figures). Read by the shift report, the floor and
the players' ratings; imports no other service.
"""

from __future__ import annotations
