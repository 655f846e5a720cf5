"""The lab's entry point: the theoretical figures of one house-rules profile, as plain data.

Caribbean stud profiles are counted exactly (:mod:`.caribbean_exact`); Oasis poker, Russian
poker and the Big/Small game are simulated (:mod:`.montecarlo`). The result is a JSON-able
mapping with a ``fingerprint`` of the profile's data, so a stored result is reused only for the
very same house rules (a changed pay table or fee is a new version, computed anew).

The maximum payout is a sum of money, so it binds only relative to a stake: every figure is for
a box of a stated ANTE, by default the table minimum (``profile.min_ante``), the smallest stake
and so the one the cap binds least on; ``--ante`` asks for another.
"""

from __future__ import annotations

from typing import Any

from ..rules.games.stud import CaribbeanProfile
from ..rules.profiles import HouseProfile
from . import caribbean_exact, montecarlo
from .games import engine, pick
from .version import fingerprint

#: default Monte Carlo rounds per lab engine (``lab/games.py``): enough for a standard error
#: below 0.05 % of the ANTE (per-round standard deviations measured at 2.3 ANTEs for Oasis, 3.0
#: for Russian poker and 2.45 for Big/Small: rounds = (sd / 0.0005)^2, rounded up)
DEFAULT_ROUNDS = {"stud": 24_000_000, "russian": 38_000_000, "split": 25_000_000}
TARGET_SE = 0.0005


def exact(profile: HouseProfile) -> bool:
    """Whether the profile's figures are counted exactly: Caribbean stud's engine without a
    replacement (every other profile is simulated)."""
    return engine(profile.game) == "stud" and not getattr(profile, "replace_fees", None)


def method(profile: HouseProfile) -> str:
    return "exact" if exact(profile) else "monte-carlo"


def default_rounds(profile: HouseProfile) -> int:
    return pick(DEFAULT_ROUNDS, profile, "house-edge method")


def _cap_note(profile: HouseProfile, ante: int, capped_rate: float | None) -> str:
    share = "" if capped_rate is None else f"; capped in {capped_rate * 100:.4f} % of rounds"
    return (f"payout cap: maximum payout {profile.max_payout} on a box of ANTE {ante}"
            f"{' (the table minimum)' if ante == profile.min_ante else ''} = "
            f"{profile.max_payout / ante:g} ANTEs{share}")


def compute(profile: HouseProfile, *, strategy: str | None = None, ante: int | None = None,
            rounds: int | None = None, seed: int = 14, workers: int = 1) -> dict[str, Any]:
    """The figures of ``profile``: per strategy the house edge (per ANTE) and its error.

    ``ante`` is the box's ANTE the maximum payout is applied to (None: the table minimum).
    ``rounds`` None means :data:`DEFAULT_ROUNDS` for the game's lab engine.
    """
    how = method(profile)
    ante = profile.min_ante if ante is None else ante
    if ante < 1:
        raise ValueError(f"the ANTE must be at least 1, got {ante}")
    out: dict[str, Any] = {"profile": profile.name, "game": profile.game, "method": how,
                           "fingerprint": fingerprint(profile), "ante": ante,
                           "max_payout": profile.max_payout}
    if how == "exact":
        assert isinstance(profile, CaribbeanProfile)
        return _exact(profile, strategy, ante, out)
    rounds = default_rounds(profile) if rounds is None else rounds
    sim = montecarlo.simulate(profile, strategy=strategy or "basic", rounds=rounds, seed=seed,
                              ante=ante, workers=workers)
    out["strategies"] = {sim.strategy: {
        "house_edge": sim.house_edge, "standard_error": sim.standard_error,
        "element_of_risk": sim.element_of_risk, "raise_rate": sim.raise_rate}}
    out.update(hit_frequency=sim.hit_frequency, dealer_qualifies=sim.dealer_qualifies,
               seconds=sim.seconds, cpu_seconds=sim.cpu_seconds, rounds=rounds, seed=seed,
               default_strategy=sim.strategy, capped_rate=sim.capped_rate,
               wagered=sim.wagered,
               notes=[f"{rounds} rounds, seed {seed}; 95 % interval = edge +- 1.96 x standard "
                      "error", _cap_note(profile, ante, sim.capped_rate)])
    return out


def _exact(profile: CaribbeanProfile, strategy: str | None, ante: int,
           out: dict[str, Any]) -> dict[str, Any]:
    if strategy is not None and strategy not in caribbean_exact.STRATEGIES:
        raise ValueError(f"exact Caribbean stud strategies: "
                         f"{', '.join(caribbean_exact.STRATEGIES)}")
    exact = caribbean_exact.analyse(profile, cap_antes=profile.max_payout / ante,
                                    optimal=strategy in (None, "optimal"))
    names = [strategy] if strategy else list(exact.strategies)
    out["strategies"] = {
        n: {"house_edge": exact.strategies[n].house_edge,
            "element_of_risk": exact.strategies[n].element_of_risk,
            "raise_rate": exact.strategies[n].raise_rate, "standard_error": 0.0}
        for n in names}
    out.update(hit_frequency=exact.hit_frequency, dealer_qualifies=exact.dealer_qualifies,
               seconds=exact.seconds, cpu_seconds=exact.cpu_seconds,
               notes=[*exact.notes, _cap_note(profile, ante, None)],
               default_strategy="optimal" if "optimal" in out["strategies"] else names[0])
    return out
