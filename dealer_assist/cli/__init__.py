"""``flask --app dealer_assist ...`` commands, one module per concept, registered here once.

``instance``: ``init-db``, ``create-admin``, ``db-revision``; ``audit``: ``audit verify``,
``audit head``; ``report``: ``report shift``; ``lab``: ``lab house-edge``; ``lab_best``:
``lab advise``, ``lab best-strategy``; ``roles``: ``roles`` (who may reach every route, and the
docs' role tables).
"""

from __future__ import annotations

from flask import Flask

from . import audit, instance, lab, lab_best, report, roles  # noqa: F401  (lab_best: commands)


def init_app(app: Flask) -> None:
    """Register every command group on the app's CLI."""
    instance.init_app(app)
    audit.init_app(app)
    report.init_app(app)
    lab.init_app(app)  # with lab_best's commands: they join the same group on import
    app.cli.add_command(roles.roles_command)
