"""``flask --app dealer_assist audit ...``: verify the hash chain and the data, show its head.

``audit verify`` recomputes every entry (``audit.verify``, HMAC-keyed with the instance secret
from chain version 2 on) and exits 1 naming the first bad one (changed, deleted, inserted or
reordered); then it compares every audited row with what its newest entries say
(``audit_data.verify_data``) and exits 1 naming each table, row and column that differs.
``--expect-head SEQ:HASH[:SIGNATURE]`` also checks the chain still reaches a head published
earlier (printed on a shift report), which exposes a truncated tail; with the signature, that
the head was signed with this installation's key. ``audit head`` prints the signed head.
Commands run as the ``system`` actor.
"""

from __future__ import annotations

import hmac

import click
from flask import Flask, current_app
from flask.cli import AppGroup, with_appcontext
from flask_babel import gettext

from .. import audit, db
from ..audit import app as audit_app
from ..audit import data as audit_data

group = AppGroup("audit", help="The tamper-evident audit log.")


def _anchor(value: str | None, key: bytes) -> audit.ChainHead | None:
    if not value:
        return None
    seq, _, rest = value.strip().partition(":")
    digest, _, signature = rest.partition(":")
    if not seq.isdigit() or len(digest) != 64 or signature and len(signature) != 64:
        raise click.BadParameter("expected SEQ:HASH or SEQ:HASH:SIGNATURE, e.g. 1234:9f86d08...",
                                 param_hint="--expect-head")
    head = audit.ChainHead(int(seq), digest.lower())
    if signature and not hmac.compare_digest(audit.sign_head(key, head.seq, head.hash),
                                             signature.lower()):
        click.echo(gettext("Audit head %(head)s is NOT signed by this installation's key "
                          "(forged, or published by another installation).",
                          head=head), err=True)
        raise SystemExit(1)
    return head


@group.command("verify")
@with_appcontext
@click.option("--expect-head", "expect_head", default=None, metavar="SEQ:HASH[:SIG]",
              help="A head published earlier that the chain must still reach.")
def verify_command(expect_head: str | None) -> None:
    """Recompute the chain; exit 1 and name the first bad entry if anything was tampered with."""
    anchor = _anchor(expect_head, audit_app.app_key(current_app))
    with audit.acting_as(audit.Actor.system()), db.session_scope(write=False) as session:
        result = audit.verify(session, anchor=anchor)
        rows = audit_data.verify_data(session.connection()) if result.ok else []
    if result.problem is not None:
        click.echo(gettext("Audit chain BROKEN at entry %(seq)s: %(reason)s.",
                          seq=result.problem.seq, reason=result.problem.reason),
                   err=True)
        click.echo(gettext("%(checked)s entries verified before it.", checked=result.checked),
                   err=True)
        raise SystemExit(1)
    if rows:
        click.echo(gettext("Audit chain OK (%(checked)s entries) but the DATA DIFFERS from "
                          "it in %(count)s place(s):",
                          checked=result.checked, count=len(rows)), err=True)
        for problem in rows:
            click.echo(gettext("  %(problem)s", problem=problem), err=True)
        raise SystemExit(1)
    click.echo(gettext("Audit chain OK: %(checked)s entries, head %(head)s; every audited "
                      "row matches its newest entry.",
                      checked=result.checked, head=result.head))


@group.command("head")
@with_appcontext
def head_command() -> None:
    """Print the current head, signed (``SEQ:HASH:SIGNATURE``), to publish it."""
    with db.session_scope(write=False) as session:
        head = audit.chain_head(session)
    # machine-readable (published and passed back to --expect-head): never translated
    click.echo(f"{head}:{audit.sign_head(audit_app.app_key(current_app), head.seq, head.hash)}")


def init_app(app: Flask) -> None:
    app.cli.add_command(group)
