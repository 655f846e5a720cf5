"""``flask --app dealer_assist report shift ID -o FILE.pdf``: a shift report from the command line.

Prints the report data's SHA-256 (the same value the PDF shows); ``--json FILE`` also writes the
canonical JSON it was taken of, so the digest can be checked with ``sha256sum``.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import AppGroup
from flask_babel import gettext

from .. import db, i18n, pdf
from ..config import floor_zone
from ..i18n.wording import say
from ..services import reports
from ..services.errors import ServiceError

report_group = AppGroup("report", help="Shift reports (PDF and canonical JSON).")


@report_group.command("shift")
@click.argument("shift_id", type=int)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Where to write the PDF.")
@click.option("--size", type=click.Choice(sorted(pdf.PAGE_SIZES)), default="a4",
              show_default=True)
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the report data as canonical JSON.")
def shift_command(shift_id: int, output: Path, size: str, json_path: Path | None) -> None:
    """Write the end-of-shift report of shift SHIFT_ID as a PDF."""
    zone = floor_zone()
    name = current_app.config.get("TIMEZONE") or (datetime.now().astimezone().tzname() or "")
    try:
        with db.session_scope(write=False) as session:
            data, sha = reports.report_with_digest(session, shift_id, zone=zone,
                                                   zone_name=name)
    except ServiceError as err:
        raise click.ClickException(say(getattr(err, "message", None) or str(err))) from None
    printed = datetime.now(zone).strftime("%Y-%m-%d %H:%M")
    with current_app.test_request_context():  # url_for in the template needs a request
        html = pdf.report_html(data, sha, page_size=size, printed_at=f"{printed} (command line)")
    timeout = float(current_app.config.get("REPORT_PDF_TIMEOUT_SECONDS", pdf.DEFAULT_TIMEOUT))
    try:
        body = pdf.html_to_pdf(html, static_dir=current_app.static_folder or "", timeout=timeout)
    except (pdf.RenderTimeout, pdf.RenderFailed) as err:
        raise click.ClickException(say(getattr(err, "message", None) or str(err))) from None
    output.write_bytes(body)
    if json_path is not None:
        json_path.write_bytes(reports.canonical_json(data))
    click.echo(gettext("Wrote %(output)s (%(count)s bytes, %(size)s).", output=output,
                      count=i18n.money(len(body)), size=size))
    click.echo(gettext("Report data SHA-256: %(sha)s", sha=sha))


def init_app(app: Flask) -> None:
    app.cli.add_command(report_group)
