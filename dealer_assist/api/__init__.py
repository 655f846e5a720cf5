"""The JSON API (``/api/v1``), documented in ``docs/api.md``.

The blueprint is an ``ApiBlueprint`` (``dealer_assist.edge``): every failure of its views is an
RFC 9457 problem body. Roles, CSRF and the JSON body reader come from the edge too; ``api``
never imports ``web`` (a contract in ``make test``).
"""

from ..edge import ApiBlueprint

bp = ApiBlueprint("api", __name__, url_prefix="/api/v1")

from . import calculator  # noqa: E402,F401  (registers routes on bp)

# isort: split
from . import split  # noqa: E402,F401  (POST /split/suggest, issue 4)

# isort: split
from . import rounds  # noqa: E402,F401  (stateful rounds API, issue 5)

# isort: split
from . import audit  # noqa: E402,F401  (read-only disputes, voids, corrections: issue 6)

# isort: split
from . import parlour  # noqa: E402,F401  (POST /parlour/hand, /parlour/end: issue 16)

# isort: split
from . import poker  # noqa: E402,F401  (POST /poker/hand, issue 18)

# isort: split
from . import openapi  # noqa: E402,F401  (GET /openapi.json, issue 10)

# isort: split
from . import poker_rounds  # noqa: E402,F401  (poker tables and hands, issue 15)

# isort: split
from . import cage  # noqa: E402,F401  (buy-ins, slips, the hold report: issue 27)

# isort: split
from . import lab  # noqa: E402,F401  (POST /lab/advise, issue 24)

# isort: split
from . import players  # noqa: E402,F401  (GET /players/<card>/ratings, issue 23)
