"""``flask --app dealer_assist lab advise`` and ``lab best-strategy``.

``lab advise PROFILE CARD... [--up C] [--stage deal|split|no_game] [--dealer "..."]
[--seen "..."] [--small "..."] [--ante A] [--bonus B] [--precise N]`` prints every option the
rules allow, best first: expected result per ANTE, standard error, how it was found.

``lab best-strategy [PROFILE...] [--rounds N] [--seed S] [--scheduler ADDRESS] [--workers W]
[--no-store]`` computes the best strategy of each profile (default: every shipped Russian poker,
Caribbean, Oasis and Big/Small profile) on a Dask cluster (a local one with a worker per core,
or the one at ``--scheduler``), measures its house edge and stores table and figures as the
package's data (``lab/strategy_store``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from flask_babel import gettext

from ..i18n.decisions import method_name, option_label
from ..i18n.wording import say
from ..lab import house_edge, strategy_store
from ..lab.advice import advise
from ..lab.games import lab_games
from ..rules.errors import HouseRulesError, RulesError
from ..rules.profiles import get_profile, profiles
from .lab import lab_group, pct


def _cards(text: str | None) -> list[str]:
    return text.replace(",", " ").split() if text else []


@lab_group.command("advise")
@click.argument("profile_name")
@click.argument("cards", nargs=-1, required=True)
@click.option("--stage", type=click.Choice(("deal", "split", "no_game")), default="deal",
              show_default=True)
@click.option("--up", default=None, help="The dealer's face-up card (Caribbean, Oasis, "
                                         "Big/Small).")
@click.option("--dealer", default=None, help="The dealer's five cards (stage no_game).")
@click.option("--small", default=None, help="The box's Small Hand (Big/Small, stage no_game).")
@click.option("--seen", default=None, help="Other cards the box knows are out of the deck.")
@click.option("--ante", type=click.IntRange(min=1), default=None,
              help="The box's ANTE (default: the table minimum).")
@click.option("--bonus", type=click.IntRange(min=0), default=0, help="Bonus stake (Russian).")
@click.option("--precise", type=click.IntRange(min=0), default=0,
              help="Sampled draws per modelled option to correct and state the model's error.")
def advise_command(profile_name: str, cards: tuple[str, ...], stage: str, up: str | None,
                   dealer: str | None, small: str | None, seen: str | None,
                   ante: int | None, bonus: int, precise: int) -> None:
    """Rank every option of a box's cards by its expected result."""
    try:
        profile = get_profile(profile_name)
        advice = advise(profile, stage, _cards(" ".join(cards)), up=up,
                        dealer=_cards(dealer) or None, seen=_cards(seen), ante=ante,
                        bonus=bonus, small=_cards(small) or None, precise=precise)
    except (RulesError, NotImplementedError, ValueError) as err:
        raise click.ClickException(say(getattr(err, "message", None) or str(err))) from None
    click.echo(gettext("profile %(profile)s, stage %(stage)s: expected result per ANTE, "
                       "best first", profile=advice.profile, stage=advice.stage))
    for i, o in enumerate(advice.options, start=1):
        se = gettext(" +- %(se)s", se=f"{o.se:.4f}") if o.se else ""
        click.echo(f"{i:2d}. {option_label(o.action, o.cards)}: {o.ev:+.4f}{se} "
                   f"({method_name(o.method)})")
    for note in advice.notes:
        click.echo(gettext("note: %(note)s", note=note))
    click.echo(gettext("time: %(cpu)s s CPU", cpu=f"{advice.seconds:.2f}"))


def _default_profiles() -> list[str]:
    """Every registered profile of a game the lab covers (``GameSpec.lab``)."""
    covered = lab_games()
    return [p.name for p in profiles() if p.game in covered]


@lab_group.command("best-strategy")
@click.argument("profile_names", nargs=-1)
@click.option("--rounds", type=click.IntRange(min=1000), default=None,
              help="Monte Carlo rounds (default: enough for a standard error of 0.05 %).")
@click.option("--seed", type=int, default=14, show_default=True)
@click.option("--scheduler", default=None,
              help="Address of a Dask scheduler (default: a local cluster, one worker per "
                   "core).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Workers of the local cluster (default: one per core).")
@click.option("--no-store", is_flag=True, help="Do not store the tables and figures.")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to store them (default: the package's lab/data).")
@click.option("--reproduce", is_flag=True,
              help="Only measure the stored tables again by Monte Carlo (use another --seed); "
                   "the figure is kept beside the first.")
@click.option("--classes", type=click.IntRange(min=1), default=None,
              help="Only the first N hand classes (a quick check of the machinery; the "
                   "other hands fold). Never stored in the package.")
def best_strategy_command(profile_names: tuple[str, ...], rounds: int | None, seed: int,
                          scheduler: str | None, workers: int | None, no_store: bool,
                          data_dir: Path | None, reproduce: bool, classes: int | None) -> None:
    """Compute the best strategy of each profile and its house edge."""
    # late: the batch machinery (Dask) loads only for this command, not with every app
    from ..lab import best, cluster
    try:
        chosen = [get_profile(n) for n in (profile_names or _default_profiles())]
    except HouseRulesError as err:
        raise click.ClickException(say(err.message)) from None
    if classes and data_dir is None:
        no_store = True  # a partial table never replaces the package's data
    with cluster.connect(scheduler, workers) as client:
        click.echo(gettext("cluster: %(n)s workers", n=cluster.workers_of(client)))
        if reproduce:
            _reproduce(best.reproduce, client, chosen, rounds, seed, no_store, data_dir)
            return
        def keep(profile: Any, arrays: Any) -> None:
            if not no_store:
                strategy_store.save(profile, arrays, {}, data_dir)

        for profile, entry, arrays in best.compute_all(chosen, client, rounds=rounds,
                                                       seed=seed, classes=classes,
                                                       on_table=keep):
            for line in format_best(entry):
                click.echo(line)
            if not no_store:
                strategy_store.save(profile, arrays, entry, data_dir)


def _reproduce(reproduce: Callable[..., dict[str, Any]], client: Any, chosen: list[Any],
               rounds: int | None, seed: int, no_store: bool, data_dir: Path | None) -> None:
    shared: dict[str, Any] = {}  # the raise table of the Oasis profiles, computed once
    for profile in chosen:
        kept = strategy_store.figures(profile, data_dir)
        if kept is None or kept["strategies"]["best"].get("method") == "exact":
            continue  # nothing stored, or counted exactly: nothing to reproduce
        n = rounds or kept["strategies"]["best"].get("rounds") or \
            house_edge.default_rounds(profile)
        check = reproduce(client, profile, rounds=n, seed=seed, shared=shared)
        first = kept["strategies"]["best"]
        gap = (check["house_edge"] - first["house_edge"]) / (
            first["standard_error"] ** 2 + check["standard_error"] ** 2) ** 0.5
        click.echo(gettext("%(profile)s: again with seed %(seed)s: house edge %(edge)s, "
                           "standard error %(se)s (%(gap)s combined standard errors from the "
                           "first run)", profile=profile.name, seed=seed,
                           edge=pct(check["house_edge"]), se=pct(check["standard_error"]),
                           gap=f"{gap:+.2f}"))
        if not no_store:
            entry = {"strategies": {"best": {**first, "reproduced": check}}}
            strategy_store.save(profile, None, entry, data_dir)


def format_best(entry: dict[str, object]) -> list[str]:
    s = entry["strategies"]["best"]  # type: ignore[index]
    line = gettext("%(profile)s, best strategy: house edge %(edge)s", profile=entry["profile"],
                   edge=pct(s["house_edge"]))
    if s["standard_error"]:
        line += gettext(", standard error %(se)s (%(rounds)s rounds, seed %(seed)s)",
                        se=pct(s["standard_error"]), rounds=s["rounds"], seed=s["seed"])
    else:
        line += gettext(" (exact)")
    return [line, gettext("  time: %(wall)s s wall, %(cpu)s s CPU on %(workers)s workers",
                          wall=f"{s['seconds']:.1f}", cpu=f"{s['cpu_seconds']:.1f}",
                          workers=s["workers"])]
