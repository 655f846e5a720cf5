"""``flask lab advise`` and ``flask lab best-strategy``."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from dealer_assist.lab import strategy_store
from dealer_assist.lab.version import fingerprint
from dealer_assist.rules.profiles import get_profile


def test_advise_prints_every_option_best_first(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=[
        "lab", "advise", "oasis-one-card", "9s", "8s", "7s", "4s", "2h", "--up", "Kc"])
    assert result.exit_code == 0, result.output
    lines = [x for x in result.output.splitlines() if x[:3].strip().rstrip(".").isdigit()]
    assert len(lines) == 7 and lines[0].startswith(" 1. Replace 2h: -0.0501")
    values = [float(x.split(": ")[1].split()[0]) for x in lines]
    assert values == sorted(values, reverse=True)


def test_advise_refuses_a_card_named_twice(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=[
        "lab", "advise", "oasis-one-card", "9s", "8s", "7s", "4s", "2h", "--up", "9s"])
    assert result.exit_code != 0 and "9s" in result.output


def test_tables_and_figures_are_stored_and_read_by_fingerprint(tmp_path: Path) -> None:
    import dataclasses

    import numpy as np
    profile = get_profile("russian-classic")
    entry = {"profile": profile.name, "fingerprint": fingerprint(profile),
             "strategies": {"best": {"house_edge": 0.02, "standard_error": 0.0005}}}
    strategy_store.save(profile, {"best": np.arange(5, dtype=np.uint8)}, entry, tmp_path)
    stored = strategy_store.load(profile, tmp_path)
    assert stored is not None and stored["best"].tolist() == [0, 1, 2, 3, 4]
    assert strategy_store.figures(profile, tmp_path)["strategies"]["best"]["house_edge"] == 0.02
    changed = dataclasses.replace(profile, improvement_fee=2)  # other rules: nothing stored
    assert strategy_store.load(changed, tmp_path) is None
    assert strategy_store.figures(changed, tmp_path) is None
    strategy_store.save(profile, None, {"strategies": {"basic": {"house_edge": 0.18}}},
                        tmp_path)
    both = strategy_store.figures(profile, tmp_path)["strategies"]
    assert set(both) == {"basic", "best"}  # merged, not replaced
