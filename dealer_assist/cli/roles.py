"""``flask --app dealer_assist roles``: who may reach every route, from the roles each view
declares. ``roles --write FILE...`` rewrites the role tables in those
Markdown files (``edge.role_tables``); ``roles --check FILE...`` exits 1 naming a file whose
tables say otherwise."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from flask import current_app

from ..edge.role_tables import refresh, render


@click.command("roles")
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--write", is_flag=True, help="Rewrite the role tables in FILES.")
@click.option("--check", is_flag=True, help="Exit 1 if a role table in FILES is out of date.")
def roles_command(files: tuple[Path, ...], write: bool, check: bool) -> None:
    """Print every route with its methods and roles, or check or rewrite the role tables of
    the Markdown FILES."""
    if not files:
        click.echo(render(current_app, ["*"]), nl=False)
        return
    stale = []
    for path in files:
        before = path.read_text(encoding="utf-8")
        after = refresh(current_app, before)
        if after == before:
            click.echo(f"{path}: up to date")
        elif write:
            path.write_text(after, encoding="utf-8")
            click.echo(f"{path}: role tables rewritten")
        else:
            stale.append(path)
            click.echo(f"{path}: role tables out of date")
    if stale and check:
        sys.exit(1)
