"""The application factory: one function that reads as a list of registrations."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from . import cli, db, edge, i18n
from .api import bp as api_bp
from .audit import app as audit_app
from .config import PROJECT_ROOT, load_config
from .edge import limits
from .services.people import passwords
from .web import (
    admin,
    auth,
    cage,
    devices,
    disputes,
    floor,
    live,
    players,
    poker,
    relief,
    reports,
    table_players,
    tables,
    tablet,
)
from .web import bp as web_bp
from .web import parlour as parlour_web


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app; ``templates/``, ``static/`` and ``instance/`` sit at the top level."""
    app = Flask(
        "dealer_assist",
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
        instance_path=str(PROJECT_ROOT / "instance"),
        instance_relative_config=True,
    )
    load_config(app, test_config)
    register_extensions(app)
    register_blueprints(app)
    register_errorhandlers(app)
    register_commands(app)
    return app


def register_extensions(app: Flask) -> None:
    db.init_app(app)
    i18n.init_app(app)
    edge.init_app(app)  # before the blueprints (bounded ids): headers, input, the request hook
    passwords.configure(time_cost=int(app.config["ARGON2_TIME_COST"]),
                        memory_kib=int(app.config["ARGON2_MEMORY_KIB"]))
    audit_app.init_app(app)  # after the edge: g.user is known when its hook runs


def register_blueprints(app: Flask) -> None:
    app.register_blueprint(web_bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(admin.bp)
    app.register_blueprint(tables.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(table_players.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(poker.bp)
    app.register_blueprint(reports.bp)
    app.register_blueprint(disputes.bp)
    app.register_blueprint(parlour_web.bp)
    app.register_blueprint(relief.bp)  # reliefs, PINs, table devices, the floor
    app.register_blueprint(devices.bp)
    app.register_blueprint(floor.bp)
    app.register_blueprint(cage.bp)  # buy-ins, the soft count, slips, hold
    app.register_blueprint(tablet.bp)  # the tablet's offline runtime, /sw.js
    app.register_blueprint(api_bp)
    limits.init_app(app)  # wraps the public API views, so after every blueprint


def register_errorhandlers(app: Flask) -> None:
    """Each blueprint brings its own handlers (a page or a problem body, ``edge.blueprints``);
    these answer the requests no blueprint owns (an unknown route), by path."""
    edge.init_errorhandlers(app)


def register_commands(app: Flask) -> None:
    cli.init_app(app)
