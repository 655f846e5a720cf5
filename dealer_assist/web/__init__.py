"""Server-rendered pages for the croupier, pit boss and managers.

One module per blueprint: ``auth`` (login, logout, password), ``admin`` (users, tables,
profiles), ``tables`` (a table's page, opening a shift); this module holds the dashboard.
``forms`` is shared. Roles, login sessions, CSRF, headers and error pages come from the edge
(``dealer_assist.edge``); each blueprint is a ``PageBlueprint`` and so answers its failures with
the error page. ``web`` never imports ``api`` (a contract in ``make test``).
"""

from flask import render_template

from .. import db
from ..edge import PageBlueprint, any_role
from ..i18n import formats
from ..i18n.wording import say
from ..rules.games import GAMES
from ..services.rounds import voids
from ..services.shifts import shifts
from ..services.tables import poker as poker_tables
from .tables import SHIFT_OPENERS

bp = PageBlueprint("web", __name__)


@bp.get("/")
@any_role
def home() -> str:
    """The dashboard: every table, its open shift, and a button to open one; a table whose
    round waits for a void decision is flagged frozen (nothing can be dealt on it until a pit
    boss decides), and the pit sees what waits for it first."""
    dbs = db.get_session()
    frozen = {c.table_id: c for c in voids.changes(dbs, kind="void", status=voids.PENDING)}
    return render_template("home.html", lines=shifts.dashboard(dbs), openers=SHIFT_OPENERS,
                           frozen=frozen, poker=poker_tables.stakes_by_table(dbs))


@bp.app_template_filter("game_title")
def game_title(code: str) -> str:
    """``russian`` -> ``Russian poker``: what the floor calls the game."""
    spec = GAMES.get(code)
    return say(spec.title) if spec is not None else code



@bp.app_template_filter("amount")
def amount(value: int | None) -> str:
    """Money as people read it (``1,600``): the one formatting filter (``formats.amount``)."""
    return formats.amount(value)


@bp.app_template_filter("cards")
def cards(count: int) -> str:
    """``1 card``, ``2 cards``."""
    return formats.cards(count)
