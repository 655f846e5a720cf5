"""The people of the floor: accounts, logins and the separation of duties.

``users`` (accounts, one-time passwords), ``auth`` (login with throttling, server-side
sessions), ``passwords`` (Argon2id, the password policy) and ``duties`` (who may decide, approve
or record what: the one declared policy).
"""

from __future__ import annotations

#: the public modules, imported where used (``from dealer_assist.services.<package> import
#: <module>``), not here: importing one module of a package does not import all the others
__all__ = ["auth", "duties", "passwords", "users"]
