"""``flask --app dealer_assist audit ...``: verify the hash chain, show its head.

``audit verify`` recomputes every entry (``audit.verify``) and exits 1 naming the first bad one
(changed, deleted, inserted or reordered). ``--expect-head SEQ:HASH`` also checks the chain
still reaches a head published earlier (printed on a shift report), which exposes a truncated
tail. Commands run as the ``system`` actor.
"""

from __future__ import annotations

import click
from flask import Flask
from flask.cli import AppGroup, with_appcontext

from . import audit, db

group = AppGroup("audit", help="The tamper-evident audit log.")


def _anchor(value: str | None) -> audit.ChainHead | None:
    if not value:
        return None
    seq, _, digest = value.partition(":")
    if not seq.isdigit() or len(digest) != 64:
        raise click.BadParameter("expected SEQ:HASH, e.g. 1234:9f86d08...",
                                 param_hint="--expect-head")
    return audit.ChainHead(int(seq), digest.lower())


@group.command("verify")
@with_appcontext
@click.option("--expect-head", "expect_head", default=None, metavar="SEQ:HASH",
              help="A head published earlier that the chain must still reach.")
def verify_command(expect_head: str | None) -> None:
    """Recompute the chain; exit 1 and name the first bad entry if anything was tampered with."""
    anchor = _anchor(expect_head)
    with audit.acting_as(audit.Actor.system()), db.session_scope(write=False) as session:
        result = audit.verify(session, anchor=anchor)
    if result.problem is not None:
        click.echo(f"Audit chain BROKEN at entry {result.problem.seq}: {result.problem.reason}.",
                   err=True)
        click.echo(f"{result.checked} entries verified before it.", err=True)
        raise SystemExit(1)
    click.echo(f"Audit chain OK: {result.checked} entries, head {result.head}.")


@group.command("head")
@with_appcontext
def head_command() -> None:
    """Print the current head (``SEQ:HASH``) to publish it, e.g. on a shift report."""
    with db.session_scope(write=False) as session:
        click.echo(str(audit.chain_head(session)))


def init_app(app: Flask) -> None:
    app.cli.add_command(group)
