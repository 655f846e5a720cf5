"""The decision advisor against exhaustive enumeration and the rules engine.

* A final Russian hand's bet value equals settling it against every one of the 1,533,939
  dealer hands its cards leave (where buying a game adds nothing, the only approximation);
* with the dealer's five cards fixed ("buy a game or take the ANTE"), the advisor's value of
  buying equals the engine's settlement averaged over every next card (and free second card);
* Caribbean stud: the raise value equals settling against every hidden dealer hand; Oasis: a
  one-card replacement equals enumerating the 46 draws and every dealer hand behind each;
* the Russian model for 2-5-card exchanges agrees with exact values of sampled draws within
  its stated error.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from dealer_assist.lab import advice
from dealer_assist.lab.advise_russian import no_game_options
from dealer_assist.lab.batch import combination_array, rank_keys
from dealer_assist.lab.russian_best import valuer
from dealer_assist.rules.cards import parse_cards
from dealer_assist.rules.games.russian import calculator as russian_request  # noqa: F401
from dealer_assist.rules.games.stud import oasis  # noqa: F401  (profiles)
from dealer_assist.rules.profiles import get_profile

RUSSIAN = get_profile("russian-classic")


def idx(text: str) -> Any:
    return np.array(sorted(c.index for c in parse_cards(text)))


def _enumerate_bet(hand: Any) -> float:
    """Mean result of betting ``hand`` against every dealer hand, taking the ANTE whenever
    the dealer has no game (Russian poker: ANTE returned on a win, BET paid by the total)."""
    rest = np.setdiff1d(np.arange(52), hand)
    dealer = rest[combination_array(len(rest), 5).astype(np.int64)]
    dk, pk = rank_keys(dealer, RUSSIAN.ranking), rank_keys(hand[None, :], RUSSIAN.ranking)[0]
    total = int(valuer(RUSSIAN).pay.totals(hand[None, :])[0])
    game = (dk >> 24) >= RUSSIAN.ranking.strength(RUSSIAN.qualifier)
    result = np.where(game, np.where(pk > dk, 2.0 * total, np.where(pk < dk, -3.0, 0.0)), 1.0)
    return float(result.mean())


@pytest.mark.parametrize("hand", ["2s 7d 9h Jc Kd", "As Kd 7h 4c 2s", "Qs Qd 7h 4c 2s"])
def test_a_final_hands_value_is_the_mean_over_every_dealer_hand(hand: str) -> None:
    # pairs and below: buying a game never beats taking the ANTE, so the value is exact
    cards = idx(hand)
    assert valuer(RUSSIAN).values(cards[None, :])[0] == pytest.approx(_enumerate_bet(cards),
                                                                      abs=1e-12)


def _engine_net(final: str, dealer: str, draw: list[str], choice: str) -> int:
    body = {"profile": RUSSIAN.name, "dealer": {"cards": dealer.split(), "draw": draw},
            "table": {"min_ante": 10, "max_ante": 1000, "max_payout": 50000},
            "boxes": [{"box": "1", "ante": 100, "cards": final.split(), "decision": "bet",
                       "on_no_game": choice}]}
    box = russian_request.settle_request(body).boxes[0]
    return sum(box.wagers[w].net for w in ("ante", "bet", "buy_game_fee"))


@pytest.mark.parametrize(("final", "dealer"), [
    ("9s 9d 9c 4h 4s", "Ah Qd 8c 5s 2h"),   # a full house: buying pays
    ("7s 7d 3c 3h Kd", "Kh Jd 8c 5s 2h"),   # two pairs
    ("Js Jd Jc 4h 2s", "Ac Qh 9h 5h 2h"),   # the dealer draws to a flush
])
def test_buying_a_game_with_the_dealers_five_cards_fixed_equals_the_engine_card_by_card(
        final: str, dealer: str) -> None:
    options = {o.action: o for o in no_game_options(RUSSIAN, idx(final), idx(dealer),
                                                     idx(final), ante=100)}
    deck = [c.code for c in parse_cards(" ".join(
        f"{r}{s}" for s in "shdc" for r in "23456789TJQKA")) if c.code not in
        final.split() + dealer.split()]
    top = max(parse_cards(dealer), key=lambda c: c.rank)
    results = []
    for first in deck:  # the next card; a same-rank one without a game draws once more
        others = [c for c in deck if c != first]
        seconds = others if first[0] == top.code[0] else others[:1]
        nets = [_engine_net(final, dealer, [first, s], "buy_game") for s in seconds]
        results.append(sum(nets) / len(nets))
    assert options["buy_game"].ev * 100 == pytest.approx(float(np.mean(results)), abs=1e-9)
    assert options["take_ante"].ev * 100 == _engine_net(final, dealer, [], "take_ante")


def test_caribbean_raise_values_equal_settling_against_every_hidden_dealer_hand() -> None:
    profile = get_profile("caribbean-classic")
    hand, up = idx("As Kd 7h 4c 2s"), int(idx("Qh")[0])
    a = advice.advise(profile, "deal", "As Kd 7h 4c 2s".split(), up="Qh")
    rest = np.setdiff1d(np.arange(52), np.append(hand, up))
    hidden = rest[combination_array(len(rest), 4).astype(np.int64)]
    dealer = np.hstack([hidden, np.full((len(hidden), 1), up)])
    dk, pk = rank_keys(dealer, profile.ranking), rank_keys(hand[None, :], profile.ranking)[0]
    game = (dk >> 24) >= profile.ranking.strength(profile.qualifier)
    win = 1 + 2 * profile.multiplier(profile.ranking.order[int(pk >> 24)])
    raised = np.where(game, np.where(pk > dk, win, np.where(pk < dk, -3.0, 0.0)), 1.0)
    assert a.find("raise").ev == pytest.approx(float(raised.mean()), abs=1e-12)
    assert a.best.action == "fold" and a.find("fold").ev == -1.0


def test_an_oasis_one_card_replacement_equals_enumerating_its_draws() -> None:
    profile = get_profile("oasis-one-card")
    text = "9s 8s 7s 4s 2h"
    hand, up = idx(text), int(idx("Kc")[0])
    a = advice.advise(profile, "deal", text.split(), up="Kc")
    got = a.find("replace", (int(idx("2h")[0]),))
    assert got is not None and got.method == "exact"
    kept = np.delete(hand, np.flatnonzero(hand == idx("2h")[0]))
    rest = np.setdiff1d(np.arange(52), np.append(hand, up))
    values = []
    for card in rest:
        final = np.sort(np.append(kept, card))
        pool = np.setdiff1d(rest, [card])
        hidden = pool[combination_array(len(pool), 4).astype(np.int64)]
        dealer = np.hstack([hidden, np.full((len(hidden), 1), up)])
        dk = rank_keys(dealer, profile.ranking)
        pk = rank_keys(final[None, :], profile.ranking)[0]
        game = (dk >> 24) >= profile.ranking.strength(profile.qualifier)
        win = 1 + 2 * profile.multiplier(profile.ranking.order[int(pk >> 24)])
        r = np.where(game, np.where(pk > dk, win, np.where(pk < dk, -3.0, 0.0)), 1.0)
        values.append(max(-1.0, float(r.mean())))
    assert got.ev == pytest.approx(float(np.mean(values)) - 1, abs=1e-12)
    assert a.best.action == "replace"


def test_the_russian_exchange_model_agrees_with_exact_draws_within_its_error() -> None:
    hand = "Qs Jd 9c 5h 2d"
    fast = advice.advise(RUSSIAN, "deal", hand.split())
    precise = advice.advise(RUSSIAN, "deal", hand.split(), precise=60)
    assert fast.options[0].ev >= max(o.ev for o in fast.options)
    for o in precise.options:
        model = fast.find(o.action, o.cards)
        assert model is not None
        if o.method == "model+monte-carlo":
            assert abs(o.ev - model.ev) < 0.005 + 3 * o.se, (o, model)
        else:
            assert o.ev == model.ev and o.se == 0.0
    assert {o.action for o in fast.options} == {"fold", "bet", "sixth_card", "exchange"}
    assert len(fast.options) == 2 + 1 + 31


def test_cards_named_twice_or_a_wrong_stage_are_refused() -> None:
    from dealer_assist.rules.errors import DuplicateCardError, RulesError
    with pytest.raises(DuplicateCardError):
        advice.advise(get_profile("oasis-classic"), "deal", "As Kd 7h 4c 2s".split(), up="As")
    with pytest.raises(RulesError):
        advice.advise(RUSSIAN, "split", "As Kd 7h 4c 2s".split())
