"""The JSON API (``/api/v1``), documented in ``docs/api.md``.

The blueprint is an ``ApiBlueprint`` (``dealer_assist.edge``): every failure of its views is an
RFC 9457 problem body. Roles, CSRF and the JSON body reader come from the edge too; ``api``
never imports ``web`` (a contract in ``make test``).
"""

from ..edge import ApiBlueprint

bp = ApiBlueprint("api", __name__, url_prefix="/api/v1")

from . import calculator  # noqa: E402,F401  (registers routes on bp)

# isort: split
from . import split  # noqa: E402,F401  (POST /split/suggest)

# isort: split
from . import rounds  # noqa: E402,F401  (stateful rounds API)

# isort: split
from . import audit  # noqa: E402,F401  (read-only disputes, voids, corrections)

# isort: split
from . import parlour  # noqa: E402,F401  (POST /parlour/hand, /parlour/end)

# isort: split
from . import poker  # noqa: E402,F401  (POST /poker/hand)

# isort: split
from . import openapi  # noqa: E402,F401  (GET /openapi.json)

# isort: split
from . import poker_rounds  # noqa: E402,F401  (poker tables and hands)

# isort: split
from . import cage  # noqa: E402,F401  (buy-ins, slips, the hold report)

# isort: split
from . import lab  # noqa: E402,F401  (POST /lab/advise)

# isort: split
from . import players  # noqa: E402,F401  (GET /players/<card>/ratings)
