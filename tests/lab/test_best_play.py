"""The best-strategy players choose; the rules engine settles ("agrees with the engine
wager by wager on seeded rounds").

Any strategy table exercises the settlement, so the tables here are random (seeded): every
option comes up, the insurance and the buy-game rule with them. Seeded rounds are played by
the lab's vectorised players (``russian_play``, ``stud_play``, ``split_play``) and a sample of
them, covering every path, is replayed one by one through the engine's calculator with the
same cards and decisions: every wager (Russian poker, Big/Small) or the box's net (Oasis) must
be equal to the chip.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dealer_assist.lab import montecarlo, russian_mc, russian_play, split_mc, split_play, stud_play
from dealer_assist.lab.batch import _BY_INDEX
from dealer_assist.lab.russian_best import OPTIONS, RussianStrategy, six_card_classes
from dealer_assist.lab.split_best import SplitStrategy
from dealer_assist.lab.split_value import GRID
from dealer_assist.lab.stud_best import StudStrategy
from dealer_assist.lab.suits import hand_index
from dealer_assist.rules.games.russian import calculator as russian_request
from dealer_assist.rules.games.stud import oasis, split
from dealer_assist.rules.profiles import get_profile
from tests.lab import test_russian_mc, test_split_mc

ANTE, CAP = 100, 1000
N = len(hand_index())


def codes(row: Any) -> list[str]:
    return [_BY_INDEX[int(i)].code for i in row]


def test_russian_best_play_with_insurance_settles_as_the_engine() -> None:
    profile = get_profile("russian-pair-game")  # insurance pays there: it comes up
    rng = np.random.default_rng(24)
    six = len(six_card_classes()[0])
    table = RussianStrategy(rng.integers(0, OPTIONS, N).astype(np.uint8), np.zeros(N),
                            rng.normal(0, 1, N), rng.random(N) < 0.5, rng.normal(0, 1, six),
                            rng.random(six) < 0.5)
    cards = montecarlo.deal(np.random.default_rng(2424), 10_000, russian_mc.CARDS)
    r = russian_play.play(profile, table, cards, ANTE, CAP)
    assert r.insurance_stake is not None and r.insurance_net is not None
    paths = {"insured": r.insurance_stake > 0, "bought": r.buy, "sixth": r.improvement == 2,
             "exchange": r.improvement == 1, "fold": ~r.bet, "won": r.bet_net > 0,
             "capped": r.capped}
    chosen = set(range(100))
    for label, mask in paths.items():
        rows = np.flatnonzero(mask)
        assert len(rows) >= 3, f"no round took the path '{label}'"
        chosen.update(rows[:40].tolist())
    for i in sorted(chosen):
        body = test_russian_mc.request(profile, cards, r, i)
        body["table"]["max_payout"] = CAP
        if r.insurance_stake[i]:
            body["boxes"][0]["insurance"] = int(r.insurance_stake[i])
        s = russian_request.settle_request(body).boxes[0]
        got = {w: s.wagers[w].net for w in ("ante", "bet", "improvement_fee", "buy_game_fee",
                                            "insurance")}
        want = {"ante": r.ante_net[i], "bet": r.bet_net[i],
                "improvement_fee": r.improvement_net[i], "buy_game_fee": r.buy_net[i],
                "insurance": r.insurance_net[i]}
        assert got == want, f"round {i}: {body}"


def test_oasis_best_play_with_replacements_settles_as_the_engine() -> None:
    profile = get_profile("oasis-classic")
    rng = np.random.default_rng(25)
    table = StudStrategy(rng.integers(0, 33, (N, 52)).astype(np.uint8),
                         rng.normal(-0.5, 1, (N, 52)))
    cards = montecarlo.deal(np.random.default_rng(2525), 5_000, stud_play.CARDS)
    discard, five, raised, fee = stud_play.decide(profile, table, cards)
    played = stud_play.play(profile, table, cards, ANTE, CAP)
    counts = discard.sum(axis=1)
    chosen = set(range(60))
    for n in range(6):
        chosen.update(np.flatnonzero((counts == n) & raised)[:15].tolist())
        chosen.update(np.flatnonzero((counts == n) & ~raised)[:5].tolist())
    for i in sorted(chosen):
        box: dict[str, Any] = {"box": "1", "ante": ANTE, "cards": codes(cards[i, :5]),
                               "decision": "bet" if raised[i] else "fold"}
        if counts[i]:
            box["improvement"] = {"replace": {"discard": codes(cards[i, :5][discard[i]]),
                                              "draw": codes(cards[i, 10:10 + counts[i]])}}
        body = {"profile": profile.name, "table": {"min_ante": 10, "max_ante": 1000,
                                                  "max_payout": CAP},
                "dealer": {"cards": codes(cards[i, 5:10])}, "boxes": [box]}
        s = oasis.settle_request(body).boxes[0]
        assert sum(w.net for w in s.wagers.values()) == round(played.net[i] * ANTE), body
        assert sorted(codes(five[i])) == sorted(c.code for c in s.hand.cards) or \
            s.hand is None or len(s.hand.cards) != 5, body


def test_big_small_best_play_settles_as_the_engine() -> None:
    profile = split.SPLIT_CLASSIC
    rng = np.random.default_rng(26)
    table = SplitStrategy(rng.integers(0, 4, N).astype(np.uint8), np.zeros(N),
                          rng.normal(-0.3, 1, (N, len(GRID))))
    cards = montecarlo.deal(np.random.default_rng(2626), 10_000, split_mc.CARDS)
    r = split_play.play_batch(profile, table, cards, test_split_mc.ANTE, test_split_mc.CAP)
    paths = {"free": r.extra == split_mc.FREE, "bought": r.extra == split_mc.BOUGHT,
             "none": r.extra == split_mc.NONE, "fold": ~r.bet, "buy": r.buy,
             "bet won": r.bet_net > 0}
    chosen = set(range(100))
    for label, mask in paths.items():
        rows = np.flatnonzero(mask)
        assert len(rows) >= 3, f"no round took the path '{label}'"
        chosen.update(rows[:40].tolist())
    test_split_mc.assert_engine_agrees(profile, cards, sorted(chosen), batch=r)


def test_every_games_player_runs_as_a_dask_task_would() -> None:
    # best_mc.batch deals each game's cards itself: its width must fit the player's columns
    from dealer_assist.lab import best_mc
    from dealer_assist.rules.profiles import profile_data
    rng = np.random.default_rng(27)
    six = len(six_card_classes()[0])
    tables = {
        "russian-classic": RussianStrategy(rng.integers(0, OPTIONS, N).astype(np.uint8),
                                           np.zeros(N), rng.normal(0, 1, N),
                                           np.zeros(N, dtype=bool), rng.normal(0, 1, six),
                                           np.zeros(six, dtype=bool)),
        "oasis-classic": StudStrategy(rng.integers(0, 33, (N, 52)).astype(np.uint8),
                                      rng.normal(-0.5, 1, (N, 52))),
        "split-classic": SplitStrategy(rng.integers(0, 4, N).astype(np.uint8), np.zeros(N),
                                       rng.normal(-0.3, 1, (N, len(GRID))))}
    for name, table in tables.items():
        profile = get_profile(name)
        tally, cpu = best_mc.batch(profile_data(profile), table, 500,
                                   np.random.SeedSequence(1), profile.min_ante,
                                   profile.max_payout)
        assert sum(tally[2]) == 500 and cpu >= 0, name
