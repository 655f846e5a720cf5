"""Administration: accounts, tables and the house-rules profiles the engine knows.

One-time passwords are shown on the response page of the action that made them (never in a
URL, never stored in clear, ``Cache-Control: no-store``) and never again.
"""

from __future__ import annotations

from typing import Any

from flask import (
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext

from .. import db
from ..edge import PageBlueprint, Refused, form_error, on_refusal, role_required
from ..i18n.wording import N_, say
from ..models import POKER_GAMES, Role
from ..rules.errors import RulesError
from ..rules.games.registry import games
from ..services.errors import ValidationError
from ..services.figures import house_edge
from ..services.people import pins, users
from ..services.people.users import ROLE_TITLES, NewPassword
from ..services.tables import chips, profiles, tables
from ..services.tables import poker as poker_tables
from .forms import text, whole_number

bp = PageBlueprint("admin", __name__, url_prefix="/admin")
admin_only = role_required(Role.ADMIN.value)
#: the house games a table is opened for, by their one title (``rules.games.registry``)
GAME_TITLES = {spec.name: spec.title for spec in games() if spec.banked}
#: a poker table's stakes as its form names them
STAKE_LABELS = {"ante": N_("Ante"), "bring_in": N_("Bring-in"), "small_blind": N_("Small blind"),
                "big_blind": N_("Big blind"), "over_blind": N_("Over blind")}


@bp.get("/")
@admin_only
def index() -> Any:
    return redirect(url_for("admin.users_page"))


# --- users -----------------------------------------------------------------------------------

def _users_context() -> dict[str, Any]:
    return {"users": users.list_users(db.get_session()),
            "roles": {role: say(title) for role, title in ROLE_TITLES.items()}}


@bp.get("/users")
@admin_only
def users_page() -> str:
    return render_template("admin/users.html", form={}, **_users_context())


def _show_password(new: NewPassword, what: str) -> Any:
    resp = make_response(render_template("admin/one_time_password.html", new=new, what=what))
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _users_refused(err: Refused, **_: Any) -> Any:
    return form_error(err, "admin/users.html", form=request.form, **_users_context())


def _user_refused(err: Refused, **_: Any) -> Any:
    return form_error(err, "admin/users.html", form={}, **_users_context())


@bp.post("/users")
@on_refusal(_users_refused)
@admin_only
def create_user() -> Any:
    new = users.create_user(db.get_session(), username=text("username", max_length=64),
                            display_name=text("display_name", max_length=100),
                            role=request.form.get("role", ""))
    return _show_password(new, "created")


@bp.post("/users/<int:user_id>/reset-password")
@admin_only
def reset_password(user_id: int) -> Any:
    new = users.reset_password(db.get_session(), user_id)
    return _show_password(new, "reset")


@bp.post("/users/<int:user_id>/badge")
@on_refusal(_user_refused)
@admin_only
def set_badge(user_id: int) -> Any:
    """The number a badge reader types for this person (empty: no badge)."""
    pins.set_badge(db.get_session(), user_id, text("badge", max_length=40))
    flash(gettext("Badge saved."), "success")
    return redirect(url_for("admin.users_page"))


@bp.post("/users/<int:user_id>/disable")
@on_refusal(_user_refused)
@admin_only
def disable_user(user_id: int) -> Any:
    return _set_active(user_id, False)


@bp.post("/users/<int:user_id>/enable")
@on_refusal(_user_refused)
@admin_only
def enable_user(user_id: int) -> Any:
    return _set_active(user_id, True)


def _set_active(user_id: int, active: bool) -> Any:
    user = users.set_active(db.get_session(), user_id, active, actor_id=g.user.id)
    state = "enabled" if active else "disabled; their sessions have ended"
    flash(gettext("%(display_name)s (%(username)s) is %(state)s.",
                 display_name=user.display_name, username=user.username, state=state), "success")
    return redirect(url_for("admin.users_page"))


# --- tables ----------------------------------------------------------------------------------

def _tables_context() -> dict[str, Any]:
    dbs = db.get_session()
    return {"tables": tables.list_tables(dbs),
            "games": {name: say(title) for name, title in GAME_TITLES.items()},
            "poker": poker_tables.stakes_by_table(dbs),
            "profiles": profiles.engine_profiles(), "max_boxes": tables.MAX_BOXES,
            "chip_sets": [(name, f"{name}: {' · '.join(f'{d:,}' for d in denoms)}")
                          for name, denoms in chips.CHIP_SETS.items()]}


def _table_spec() -> tables.TableSpec:
    return tables.TableSpec(
        name=text("name", max_length=64), game=request.form.get("game", ""),
        profile=text("profile", max_length=64),
        min_ante=whole_number("min_ante", "The minimum ante"),
        max_ante=whole_number("max_ante", "The maximum ante"),
        max_payout=whole_number("max_payout", "The maximum payout"),
        boxes=whole_number("boxes", "The number of boxes"),
        chip_set=request.form.get("chip_set", "") or chips.DEFAULT_CHIP_SET,
        currency=request.form.get("currency", "")[:3] or None,
        pit=text("pit", max_length=40) or None,
        strategy=request.form.get("strategy", "") or "basic")


@bp.get("/tables")
@admin_only
def tables_page() -> str:
    return render_template("admin/tables.html", form={}, **_tables_context())


def _tables_refused(err: Refused, **_: Any) -> Any:
    return form_error(err, "admin/tables.html", form=request.form, **_tables_context())


@bp.post("/tables")
@on_refusal(_tables_refused)
@admin_only
def create_table() -> Any:
    table = tables.create_table(db.get_session(), _table_spec())
    flash(gettext("Table %(name)s created.", name=table.name), "success")
    return redirect(url_for("admin.tables_page"))


@bp.get("/tables/<int:table_id>")
@admin_only
def edit_table(table_id: int) -> str:
    table = tables.get_table(db.get_session(), table_id)
    if table.game in POKER_GAMES:  # its own form (name, pit, stakes)
        return _poker_form(table, {"name": table.name, "pit": table.pit or "",
                                   **_poker(table).stakes})
    return render_template("admin/table_form.html", table=table, form=_as_form(table),
                           **_tables_context())


def _poker(table: tables.TableView) -> poker_tables.PokerTableView:
    return poker_tables.get(db.get_session(), table.id)


def _poker_context(table: tables.TableView) -> dict[str, Any]:
    poker = _poker(table)
    return {"table": table, "poker": poker, "stakes": list(poker.stakes),
            "labels": STAKE_LABELS}


def _poker_form(table: tables.TableView, form: Any) -> str:
    return render_template("admin/poker_table_form.html", form=form, **_poker_context(table))


def _update_poker(table: tables.TableView) -> Any:
    """A poker table's name, pit and stakes; its game, profile and seats stay."""
    dbs = db.get_session()
    try:
        stakes = {name: whole_number(name, STAKE_LABELS[name])
                  for name in _poker(table).stakes}
        saved = poker_tables.update_table(dbs, table.id, name=text("name", max_length=64),
                                          stakes=stakes)
    except RulesError as err:  # a stake the engine refuses: the field is its own
        raise ValidationError(err.message, field=(err.field or "").removeprefix("stakes.")
                              or None) from None
    tables.set_pit(dbs, table.id, text("pit", max_length=40) or None)
    flash(gettext("Table %(name)s saved.", name=saved.name), "success")
    return redirect(url_for("admin.tables_page"))


def _as_form(table: tables.TableView) -> dict[str, Any]:
    return {f: getattr(table, f) for f in ("name", "game", "profile", "min_ante", "max_ante",
                                           "max_payout", "boxes", "chip_set", "currency",
                                           "pit", "strategy")}


def _table_refused(err: Refused, table_id: int) -> Any:
    table = tables.get_table(db.get_session(), table_id)
    if table.game in POKER_GAMES:
        return form_error(err, "admin/poker_table_form.html", form=request.form,
                          **_poker_context(table))
    return form_error(err, "admin/table_form.html", table=table, form=request.form,
                      **_tables_context())


@bp.post("/tables/<int:table_id>")
@on_refusal(_table_refused)
@admin_only
def update_table(table_id: int) -> Any:
    dbs = db.get_session()
    table = tables.get_table(dbs, table_id)
    if table.game in POKER_GAMES:
        return _update_poker(table)
    table = tables.update_table(dbs, table_id, _table_spec())
    flash(gettext("Table %(name)s saved.", name=table.name), "success")
    return redirect(url_for("admin.tables_page"))


# --- profiles --------------------------------------------------------------------------------

@bp.get("/profiles")
@admin_only
def profiles_page() -> str:
    return render_template("admin/profiles.html", games=profiles.engine_games(),
                           profiles=profiles.engine_profiles(), titles=GAME_TITLES,
                           edges=house_edge.stored_edges(db.get_session()))
