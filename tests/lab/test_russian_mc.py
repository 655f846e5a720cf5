"""The vectorised Russian poker of the lab settles every round exactly as the rules engine does.

Random seeded rounds are played by ``lab.russian_mc.play`` (strategy and settlement in numpy);
each chosen round is then replayed through the engine's calculator (``settle_request``: the
same cards, the same decisions, the same ANTE and maximum payout) and every wager must agree to
the chip. The rounds are chosen so that every path appears: each improvement, fold, stay, the
dealer's game or no game, a bought game (with the free second replacement) and a capped win.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from dealer_assist.lab import montecarlo, russian_mc
from dealer_assist.lab.batch import _BY_INDEX
from dealer_assist.rules.games import russian  # noqa: F401  (registers the profiles)
from dealer_assist.rules.games.russian import RUSSIAN_CLASSIC, RussianProfile, settle_request
from dealer_assist.rules.profiles import get_profile
from dealer_assist.rules.ranking import Category

FLUSH = RUSSIAN_CLASSIC.ranking.strength(Category.flush)
ANTE, CAP = 100, 1000  # a full house's BET win (200 x 7 = 1400) is capped at 1000


def codes(row: Any) -> list[str]:
    return [_BY_INDEX[int(i)].code for i in row]


def request(profile: RussianProfile, cards: Any, r: russian_mc.RussianBatch, i: int,
            ) -> dict[str, Any]:
    """The calculator body of round ``i``: its cards and the strategy's decisions."""
    hand, extra = cards[i, :5], cards[i, 10:15]
    box: dict[str, Any] = {"box": "1", "ante": ANTE, "cards": codes(hand),
                           "decision": "bet" if r.bet[i] else "fold",
                           "on_no_game": "buy_game" if r.buy[i] else "take_ante"}
    if r.improvement[i] == russian_mc.EXCHANGE:
        k = int(r.discard[i].sum())
        box["improvement"] = {"exchange": {"discard": codes(hand[r.discard[i]]),
                                           "draw": codes(extra[:k])}}
    elif r.improvement[i] == russian_mc.SIXTH:
        box["improvement"] = {"sixth_card": codes(extra[:1])}
    return {"profile": profile.name, "table": {"min_ante": 10, "max_ante": 1000,
                                               "max_payout": CAP},
            "dealer": {"cards": codes(cards[i, 5:10]), "draw": codes(cards[i, 15:17])},
            "boxes": [box]}


def paths(r: russian_mc.RussianBatch, cards: Any) -> dict[str, Any]:
    """Row masks of the paths a settlement can take (each must be exercised)."""
    second = r.buy & (cards[:, 15] % 13 == np.max(cards[:, 5:10] % 13, axis=1))
    return {"exchange": r.improvement == russian_mc.EXCHANGE,
            "sixth card": r.improvement == russian_mc.SIXTH,
            "sixth card, five of one suit": (r.improvement == russian_mc.SIXTH)
            & (r.final_key >> 24 == FLUSH),  # six cards with an odd one
            "no improvement": r.improvement == russian_mc.NONE,
            "fold": ~r.bet,
            "lost": r.bet_net < 0, "won": r.bet_net > 0, "capped": r.capped,
            "took the ANTE": r.bet & ~r.dealer_qualified & ~r.buy,
            "bought a game": r.buy, "bought, same rank drawn": second,
            "bought, still no game": r.buy & (r.bet_net == 0) & (r.ante_net == 0)}


def assert_engine_agrees(profile: RussianProfile, cards: Any, rows: Any) -> None:
    r = russian_mc.play(profile, cards, ANTE, CAP)
    for i in rows:
        s = settle_request(request(profile, cards, r, i)).boxes[0]
        got = {w: s.wagers[w].net for w in ("ante", "bet", "improvement_fee", "buy_game_fee",
                                            "insurance", "bonus")}
        want = {"ante": r.ante_net[i], "bet": r.bet_net[i],
                "improvement_fee": r.improvement_net[i], "buy_game_fee": r.buy_net[i],
                "insurance": 0, "bonus": 0}
        assert got == want, f"round {i}: {request(profile, cards, r, i)}"
        assert s.capped == bool(r.capped[i]), f"round {i}"
        assert s.hand is not None or not r.bet[i]
        if s.hand is not None:
            assert s.hand.key == r.final_key[i], f"round {i}"


@pytest.mark.parametrize("name", ["russian-classic", "russian-pair-game"])
def test_the_vectorised_settlement_equals_the_engine_round_by_round(name: str) -> None:
    profile = get_profile(name)
    assert isinstance(profile, RussianProfile)
    cards = montecarlo.deal(np.random.default_rng(1414), 60_000, russian_mc.CARDS)
    r = russian_mc.play(profile, cards, ANTE, CAP)
    chosen: set[int] = set(range(300))
    for label, mask in paths(r, cards).items():
        rows = np.flatnonzero(mask)
        assert len(rows) >= 3, f"no round took the path '{label}'"
        chosen.update(rows[:40].tolist())
    assert_engine_agrees(profile, cards, sorted(chosen))


def test_rare_paths_agree_with_the_engine_too() -> None:
    # player, dealer, replacement cards, dealer's draw (17 cards a round)
    rounds = [
        # stay: Ace-King against the same ranks
        "As Kc 9d 5h 2c  Ah Kd 9c 5s 2h  3c 4c 6c 7c 8c  Td Jd",
        # no game, full house buys; Ad drawn for Ah, still no game: replaced free by 8c
        "Js Jd Jc 4h 4s  Ah Qd 9c 5s 2h  3c 6c 7c 8d Tc  Ad 8c",
        # the same-rank card makes a flush and stays
        "Js Jd Jc 4h 4s  Ac Qh 9h 5h 2h  3c 6c 7c 8d Tc  Ah 8c",
        # a royal flush kept: BET 200 x 100 capped at 1000
        "As Ks Qs Js Ts  Ah Kd 9c 5s 2h  3c 6c 7c 8d Tc  2d 3d",
    ]
    from dealer_assist.rules.cards import parse_cards
    cards = np.array([[c.index for c in parse_cards(r)] for r in rounds])
    profile = get_profile("russian-classic")
    assert isinstance(profile, RussianProfile)
    r = russian_mc.play(profile, cards, ANTE, CAP)
    assert (r.ante_net[0], r.bet_net[0]) == (0, 0)
    assert r.buy[1] and r.bet_net[1] == 0 and r.ante_net[1] == 0  # 8c: still no game
    assert r.buy[2] and r.bet_net[2] == CAP
    assert r.capped[3] and r.bet_net[3] == CAP
    assert_engine_agrees(profile, cards, range(len(rounds)))


def test_the_strategy_follows_the_written_rules_on_examples() -> None:
    # docs/rules/strategy.md, Russian poker rule 1, one hand per line
    profile = get_profile("russian-classic")
    assert isinstance(profile, RussianProfile)
    examples = {  # hand -> (improvement, discarded cards)
        "7s 7d 7c Kh 3d": (russian_mc.NONE, ""),        # three of a kind: keep
        "7s 7d 3c 3h Kd": (russian_mc.NONE, ""),        # two pairs: keep
        "Js Jd 9s 5s 2s": (russian_mc.SIXTH, ""),       # jacks + four to a flush
        "Qs Qd Jc Th 8d": (russian_mc.SIXTH, ""),       # queens + Q-J-T-8 (inside) draw
        "Ts Td 9c 5h 2d": (russian_mc.NONE, ""),        # tens, no draw: keep
        "5s 5d Ac Kh 9d": (russian_mc.EXCHANGE, "Ac Kh 9d"),  # fives: exchange three
        "As 9s 5s 2s Kd": (russian_mc.EXCHANGE, "Kd"),  # four to a flush before Ace-King
        "5s 6d 7c 8h Kd": (russian_mc.EXCHANGE, "Kd"),  # open-ended 5-8
        "Js Qd Kc Ah 3d": (russian_mc.NONE, ""),        # Ace-King: keep (J-Q-K-A is not open)
        "Qs Jd 9c 5h 2d": (russian_mc.EXCHANGE, "Jd 9c 5h 2d"),  # below a queen
    }
    from dealer_assist.rules.cards import parse_cards
    hands = np.array([[c.index for c in parse_cards(h)] for h in examples])
    kind, discard = russian_mc.decide_improvement(profile, hands)
    for row, (hand, (want_kind, want_discard)) in enumerate(examples.items()):
        got = " ".join(codes(hands[row][discard[row]]))
        assert (int(kind[row]), got) == (want_kind, want_discard), hand
