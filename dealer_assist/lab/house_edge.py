"""The lab's entry point: the theoretical figures of one house-rules profile, as plain data.

Caribbean stud profiles are counted exactly (:mod:`.caribbean_exact`); Oasis poker is simulated
(:mod:`.montecarlo`); Russian poker and Big/Small raise ``NotImplementedError``. The result is a
JSON-able mapping with a ``fingerprint`` of the profile's data, so a stored result is reused only
for the very same house rules (a changed pay table or fee is a new version, computed anew).
"""

from __future__ import annotations

from typing import Any

from ..rules.games.caribbean import CaribbeanProfile
from ..rules.profiles import HouseProfile
from . import caribbean_exact, montecarlo
from .version import fingerprint


def method(profile: HouseProfile) -> str:
    if isinstance(profile, CaribbeanProfile) and not profile.replace_fees:
        return "exact"
    if isinstance(profile, CaribbeanProfile):
        return "monte-carlo"
    raise NotImplementedError(f"no house-edge method for {profile.game} ({profile.name}) yet")


def compute(profile: HouseProfile, *, strategy: str | None = None, ante: int | None = None,
            rounds: int = 2_000_000, seed: int = 14) -> dict[str, Any]:
    """The figures of ``profile``: per strategy the house edge (per ANTE) and its error.

    ``ante`` applies the profile's maximum payout to a box of that ANTE; None means no cap (the
    published figures assume none).
    """
    how = method(profile)
    assert isinstance(profile, CaribbeanProfile)
    out: dict[str, Any] = {"profile": profile.name, "game": profile.game, "method": how,
                           "fingerprint": fingerprint(profile), "ante": ante}
    if how == "exact":
        cap = None if ante is None else profile.max_payout / ante
        if strategy is not None and strategy not in caribbean_exact.STRATEGIES:
            raise ValueError(f"exact Caribbean stud strategies: "
                             f"{', '.join(caribbean_exact.STRATEGIES)}")
        exact = caribbean_exact.analyse(profile, cap_antes=cap,
                                        optimal=strategy in (None, "optimal"))
        names = [strategy] if strategy else list(exact.strategies)
        out["strategies"] = {
            n: {"house_edge": exact.strategies[n].house_edge,
                "element_of_risk": exact.strategies[n].element_of_risk,
                "raise_rate": exact.strategies[n].raise_rate, "standard_error": 0.0}
            for n in names}
        out.update(hit_frequency=exact.hit_frequency, dealer_qualifies=exact.dealer_qualifies,
                   seconds=exact.seconds, cpu_seconds=exact.cpu_seconds, notes=exact.notes,
                   default_strategy="optimal")
        return out
    if ante is not None:
        raise NotImplementedError("the Monte Carlo does not apply the payout cap yet")
    sim = montecarlo.simulate(profile, strategy=strategy or "basic", rounds=rounds, seed=seed)
    out["strategies"] = {sim.strategy: {
        "house_edge": sim.house_edge, "standard_error": sim.standard_error,
        "element_of_risk": sim.house_edge / (1 + profile.bet_multiple * sim.raise_rate),
        "raise_rate": sim.raise_rate}}
    out.update(hit_frequency=sim.hit_frequency, dealer_qualifies=sim.dealer_qualifies,
               seconds=sim.seconds, cpu_seconds=sim.cpu_seconds, rounds=rounds, seed=seed,
               default_strategy=sim.strategy,
               notes=[f"{rounds} rounds, seed {seed}; 95 % interval = edge +- 1.96 x standard "
                      "error"])
    return out
