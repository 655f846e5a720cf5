"""``flask --app dealer_assist lab house-edge PROFILE [--strategy ...]``: theoretical figures.

Prints the house edge of each strategy (percent of the ANTE, three decimals), with the element
of risk, raise rate, dealer qualification rate and hit frequencies; Monte Carlo figures come with
their standard error and 95 % interval. The payout cap is applied to a box of the table
minimum ANTE unless ``--ante`` says otherwise. The figures are stored for the profile page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import AppGroup
from flask_babel import gettext
from sqlalchemy import inspect
from sqlalchemy.exc import SQLAlchemyError

from .. import db
from ..i18n.wording import category_name, say
from ..lab.house_edge import compute
from ..lab.strategy_store import kept_entry, save
from ..rules.errors import HouseRulesError
from ..rules.profiles import get_profile
from ..services.figures import house_edge as store

lab_group = AppGroup("lab", help="The game-math lab: theoretical figures of a profile.")
STRATEGIES = ("optimal", "pair-or-better", "ak-or-better", "always-raise", "basic")


def pct(x: float) -> str:
    return f"{x * 100:.3f} %"


@lab_group.command("house-edge")
@click.argument("profile_name")
@click.option("--strategy", type=click.Choice(STRATEGIES), default=None,
              help="One strategy only (default: every strategy the method covers).")
@click.option("--ante", type=click.IntRange(min=1), default=None,
              help="The box's ANTE the maximum payout is applied to (default: the table "
                   "minimum).")
@click.option("--rounds", type=click.IntRange(min=2), default=None,
              help="Monte Carlo rounds (default: enough for a standard error below 0.05 % "
                   "of the ANTE).")
@click.option("--seed", type=int, default=14, show_default=True, help="Monte Carlo seed.")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True,
              help="Processes sharing the Monte Carlo batches (same figures for any number).")
@click.option("--no-store", is_flag=True, help="Do not store the figures for the profile page.")
@click.option("--keep", is_flag=True,
              help="Keep the figures with the code (dealer_assist/lab/data/figures.json, "
                   "beside the best strategy's) instead of the database: how the shipped "
                   "profiles' figures are made (issue 35).")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="With --keep: the directory of figures.json (default: the package's).")
def house_edge_command(profile_name: str, strategy: str | None, ante: int | None,
                       rounds: int | None, seed: int, workers: int, no_store: bool,
                       keep: bool, data_dir: Path | None) -> None:
    """Compute and print the theoretical figures of PROFILE_NAME."""
    if not (no_store or keep) and strategy is None and ante is None:
        require_lab_figures()  # before minutes of computing, not after
    try:
        profile = get_profile(profile_name)
        figures = compute(profile, strategy=strategy, ante=ante, rounds=rounds, seed=seed,
                          workers=workers)
    except (HouseRulesError, NotImplementedError, ValueError) as err:
        raise click.ClickException(say(getattr(err, "message", None) or str(err))) from None
    for line in format_figures(figures):
        click.echo(line)
    if keep:
        if ante is not None:
            raise click.ClickException(gettext("--keep stores figures for the table minimum "
                                               "ANTE only"))
        save(profile, None, kept_entry(figures, workers), data_dir)
        click.echo(gettext("kept with the code (%(path)s)",
                           path=data_dir / "figures.json" if data_dir else
                           "lab/data/figures.json"))
        return
    if not no_store and strategy is None and ante is None:
        with db.session_scope() as session:  # the database every app process reads
            store.save(session, figures)
        click.echo(gettext("stored for the profile page (%(path)s)", path="lab_figure"))


@lab_group.command("import-figures")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path), required=False)
def import_figures_command(path: Path | None) -> None:
    """Store the figures of a house_edge.json (the old file store; default: the instance
    folder's) in the database, for the profiles that have none there yet."""
    path = path or Path(current_app.instance_path) / "house_edge.json"
    require_lab_figures()
    if not path.exists():
        raise click.ClickException(gettext("no such file: %(path)s", path=path))
    with db.session_scope() as session:
        done = store.import_file(session, path)
    click.echo(gettext("imported the figures of %(profiles)s from %(path)s",
                       profiles=", ".join(done) or "-", path=path))


def require_lab_figures() -> None:
    """Refuse, naming the command that creates it, a database without the ``lab_figure``
    table (one never migrated: ended in a traceback)."""
    try:
        present = inspect(db.get_engine()).has_table("lab_figure")
    except SQLAlchemyError as err:
        raise click.ClickException(gettext("the database cannot be read (%(error)s)",
                                           error=type(err).__name__)) from None
    if not present:
        raise click.ClickException(gettext(
            "the database has no table for the lab's figures (lab_figure): create the "
            "schema first with \"flask --app dealer_assist init-db\", or add --no-store"))


def format_figures(f: dict[str, Any]) -> list[str]:
    """The figures in the configured language (the numbers as computed; a note from the lab,
    e.g. the rounds and seed, stays as the lab wrote it)."""
    lines = [gettext("profile %(profile)s (%(game)s), method: %(method)s, ANTE %(ante)s",
                     profile=f["profile"], game=f["game"], method=f["method"], ante=f["ante"])]
    for name, s in f["strategies"].items():
        line = gettext("%(name)s: house edge %(edge)s, element of risk %(risk)s, raise rate "
                       "%(rate)s", name=name, edge=pct(s["house_edge"]),
                       risk=pct(s["element_of_risk"]), rate=pct(s["raise_rate"]))
        if s["standard_error"]:
            lo, hi = s["house_edge"] - 1.96 * s["standard_error"], \
                s["house_edge"] + 1.96 * s["standard_error"]
            line += gettext(", standard error %(se)s (95 %%: %(lo)s to %(hi)s)",
                            se=pct(s["standard_error"]), lo=pct(lo), hi=pct(hi))
        lines.append(line)
    lines.append(gettext("dealer qualifies: %(rate)s", rate=pct(f["dealer_qualifies"])))
    hits = ", ".join(f"{_category(k)} {pct(v)}" for k, v in f["hit_frequency"].items())
    lines.append(gettext("hit frequency (player's final hand): %(hits)s", hits=hits))
    lines.extend(gettext("note: %(note)s", note=n) for n in f.get("notes", []))
    lines.append(gettext("time: %(wall)s s wall, %(cpu)s s CPU", wall=f"{f['seconds']:.1f}",
                         cpu=f"{f.get('cpu_seconds', 0.0):.1f}"))
    return lines


def _category(key: str) -> str:
    """A hit-frequency key in the reader's language (a category code, else as written)."""
    try:
        return category_name(key)
    except ValueError:
        return key


def init_app(app: Flask) -> None:
    app.cli.add_command(lab_group)
