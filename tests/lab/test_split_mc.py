"""The vectorised Big/Small game of the lab settles every round exactly as the rules engine does.

Random seeded rounds are played by ``lab.split_mc.play``; each chosen round is replayed through
the engine's calculator (``split.settle_request``: the same cards, extra cards, split, decisions,
ANTE and maximum payout) and every wager must agree to the chip, on every path (free or bought
extra cards, fold, Big Hand lower/equal/higher, Small Hand decides, no game, bought game, cap).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dealer_assist.lab import montecarlo, split_mc
from dealer_assist.lab.batch import _BY_INDEX
from dealer_assist.rules.cards import parse_cards
from dealer_assist.rules.games.stud.split import SPLIT_CLASSIC, SplitProfile, settle_request

ANTE, CAP = 100, 1000  # a flush's BET win (200 x 5) is exactly the cap; a full house's is cut


def codes(row: Any) -> list[str]:
    return [_BY_INDEX[int(i)].code for i in row]


def request(profile: SplitProfile, cards: Any, r: split_mc.SplitBatch, i: int,
            ) -> dict[str, Any]:
    box: dict[str, Any] = {"box": "1", "ante": ANTE, "cards": codes(cards[i, :5]),
                           "decision": "bet" if r.bet[i] else "fold",
                           "on_no_game": "buy_game" if r.buy[i] else "take_ante"}
    if r.extra[i] == split_mc.FREE:
        box["extra"] = {"mode": "free", "cards": codes(cards[i, 10:12])}
    elif r.extra[i] == split_mc.BOUGHT:
        box["extra"] = {"mode": "bought", "cards": codes(cards[i, 10:12])}
        box["split"] = {"big": codes(r.big[i]), "small": codes(r.small[i])}
    dealer: dict[str, Any] = {"cards": codes(cards[i, 5:10]), "draw": codes(cards[i, 12:13])}
    if r.dealer_qualified[i] or (r.buy[i] and _bought_qualifies(profile, cards[i])):
        dealer["small"] = codes(cards[i, 13:15])
    return {"profile": profile.name, "table": {"min_ante": 10, "max_ante": 1000,
                                               "max_payout": CAP},
            "dealer": dealer, "boxes": [box]}


def _bought_qualifies(profile: SplitProfile, row: Any) -> bool:
    from dealer_assist.lab.buygame import buy_game
    _, _, ok = buy_game(row[None, 5:10], np.array([[row[12], row[12]]]), profile.ranking,
                        profile.qualifier, free_second_replacement=False)
    return bool(ok[0])


def assert_engine_agrees(profile: SplitProfile, cards: Any, rows: Any,
                         batch: split_mc.SplitBatch | None = None) -> None:
    """Rounds ``rows`` of ``batch`` (default: the basic strategy's) settle as the engine."""
    r = split_mc.play(profile, cards, ANTE, CAP) if batch is None else batch
    for i in rows:
        body = request(profile, cards, r, i)
        s = settle_request(body).boxes[0]
        got = {w: s.wagers[w].net for w in ("ante", "bet", "improvement_fee", "buy_game_fee",
                                            "insurance", "bonus")}
        want = {"ante": r.ante_net[i], "bet": r.bet_net[i], "improvement_fee": r.extra_net[i],
                "buy_game_fee": r.buy_net[i], "insurance": 0, "bonus": 0}
        assert got == want, f"round {i}: {body}"
        assert s.capped == bool(r.capped[i]), f"round {i}: {body}"
        if s.hand is not None and r.bet[i]:
            assert s.hand.key == r.big_key[i], f"round {i}"


def test_the_vectorised_settlement_equals_the_engine_round_by_round() -> None:
    cards = montecarlo.deal(np.random.default_rng(1515), 40_000, split_mc.CARDS)
    r = split_mc.play(SPLIT_CLASSIC, cards, ANTE, CAP)
    small_decides = (r.extra != split_mc.NONE) & r.dealer_qualified & (r.ante_net > 0)
    paths = {"free": r.extra == split_mc.FREE, "bought": r.extra == split_mc.BOUGHT,
             "fold": ~r.bet, "lost": r.bet_net < 0,
             "ANTE paid": (r.ante_net > 0) & r.dealer_qualified,
             "BET paid": r.bet_net > 0, "Small Hand decides": small_decides,
             "took the ANTE": r.bet & ~r.dealer_qualified & ~r.buy, "bought a game": r.buy,
             "capped": r.capped}
    chosen: set[int] = set(range(300))
    for label, mask in paths.items():
        rows = np.flatnonzero(mask)
        assert len(rows) >= 3, f"no round took the path '{label}'"
        chosen.update(rows[:40].tolist())
    assert_engine_agrees(SPLIT_CLASSIC, cards, sorted(chosen))


def test_the_split_and_rare_paths_agree_with_the_engine() -> None:
    # player, dealer, two extra cards, dealer's draw, dealer's Small Hand (15 cards a round)
    rounds = [
        # no pair: buy the extras; the best five are two pairs (A A 7 7 K), 9-2 is the Small
        "As Kd 9c 7s 2h  Qh Qd 8c 5s 3h  7d Ac  4d  2c 3c",
        # Big Hands equal (the same ranks): everything returned
        "Qs Qc 8d 5c 3d  Qh Qd 8c 5s 3h  2s 4s  4d  Ac Kc",
        # full house on a dealer without a game: buy; his pair of nines qualifies, his Small
        # Hand Q-J beats 4-2, so the ANTE is paid at the full house's 7
        "As Ad Ac 5s 5d  9h Kd 7c 4s 3h  2c 4c  9d  Qc Jc",
    ]
    cards = np.array([[c.index for c in parse_cards(x)] for x in rounds])
    r = split_mc.play(SPLIT_CLASSIC, cards, ANTE, CAP)
    assert r.extra[0] == split_mc.BOUGHT and r.bet[0]
    assert sorted(codes(r.small[0])) == ["2h", "9c"]
    assert (r.ante_net[1], r.bet_net[1]) == (0, 0)
    assert r.buy[2] and (r.ante_net[2], r.bet_net[2], r.buy_net[2]) == (700, 0, -100)
    assert_engine_agrees(SPLIT_CLASSIC, cards, range(len(rounds)))
