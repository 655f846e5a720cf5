"""Recorded decisions judged against the best option, and the advantage-play alert.

"A seeded shift with a planted 'hole-carding' player (who buys the game exactly when the
dealer's next card helps) raises the advantage-play alert; a shift of honest best-strategy
players does not." The shifts are built so that the decision comes up every round: the dealer
is dealt a hand without a game and every box ends with two pairs or three of a kind (rejection
sampling from one seeded shuffle per round). Boxes are recorded in dealing order: each
exchanges one card face down (so its dealt hand is not on record and only the later decisions
are judged), bets, and shows its final hand; stored through ``services.rounds`` and judged
from the database.
"""

from __future__ import annotations

import random
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from sqlmodel import Session

from dealer_assist.lab.advise_russian import no_game_options
from dealer_assist.lab.batch import rank_keys
from dealer_assist.rules import ALL_CARDS
from dealer_assist.rules.games.registry import start
from dealer_assist.rules.profiles import get_profile
from dealer_assist.rules.ranking import Category
from dealer_assist.services import decisions
from dealer_assist.services.reports import sections
from tests.services.conftest_reports import T0, Played, make_floor, store_round, table_step

PROFILE = get_profile("russian-classic")
INDEX = {c.code: c.index for c in ALL_CARDS}
ANTE = 100


def _strength(codes: list[str]) -> int:
    return int(rank_keys(np.array([[INDEX[c] for c in codes]]), PROFILE.ranking)[0] >> 24)


def _deal(rng: random.Random, boxes: int) -> tuple[list[list[str]], list[str], list[str]]:
    """Box hands of two pairs or trips, a dealer without a game, and the dealer's draw."""
    lo = PROFILE.ranking.strength(Category.two_pairs)
    hi = PROFILE.ranking.strength(Category.three_of_a_kind)
    game = PROFILE.ranking.strength(PROFILE.qualifier)
    while True:
        deck = [c.code for c in ALL_CARDS]
        rng.shuffle(deck)
        dealer, rest = deck[:5], deck[5:]
        if _strength(dealer) >= game:
            continue
        hands: list[list[str]] = []
        while len(hands) < boxes and len(rest) >= 5 + 12:
            hand, rest = rest[:5], rest[5:]
            if lo <= _strength(hand) <= hi:
                hands.append(hand)
        if len(hands) == boxes:
            return hands, dealer, rest[:2]


def _helps(hand: list[str], dealer: list[str], draw: list[str]) -> bool:
    """Whether buying pays more than the ANTE with the very next cards (the hole-carder's
    knowledge): settle both ways and compare."""
    results = []
    for choice in ("buy_game", "take_ante"):
        engine, empty = start("russian", PROFILE.name, 10, 500, 50000)
        s = engine.step(empty, "place", {"boxes": [{"box": "1", "seat": "1", "ante": ANTE}]})
        for kind, payload in (("deal_dealer", {"up": []}),
                              ("exchange", {"box": "1", "count": 1}), ("bet", {"box": "1"}),
                              ("reveal", {"cards": dealer}),
                              ("show", {"box": "1", "cards": hand}), (choice, {"box": "1"})):
            s = engine.step(s, kind, payload)
        if choice == "buy_game":
            s = engine.step(s, "dealer_draw", {"cards": draw})
        results.append(engine.settle(s).to_dict()["boxes"][0]["net"])
    return results[0] > results[1]


def _best(hand: list[str], dealer: list[str]) -> str:
    final = np.array(sorted(INDEX[c] for c in hand))
    d = np.array([INDEX[c] for c in dealer])
    return no_game_options(PROFILE, final, d, final, ante=ANTE)[0].action


def _round(rng: random.Random, players: dict[str, str]) -> Played:
    """One round: each seat's box bets, the dealer has no game, each chooses by its kind."""
    hands, dealer, draw = _deal(rng, len(players))
    engine, empty = start("russian", PROFILE.name, 10, 500, 50000)
    place = {"boxes": [{"box": seat, "seat": seat, "ante": ANTE} for seat in players]}
    steps: list[tuple[str, dict[str, Any]]] = [("place", place), ("deal_dealer", {"up": []})]
    for seat in players:
        steps += [("exchange", {"box": seat, "count": 1}), ("bet", {"box": seat})]
    steps.append(("reveal", {"cards": dealer}))
    steps += [("show", {"box": seat, "cards": hand}) for seat, hand in
              zip(players, hands, strict=True)]
    buys = False
    for (seat, kind), hand in zip(players.items(), hands, strict=True):
        if kind == "hole-carder":
            choice = "buy_game" if _helps(hand, dealer, draw) else "take_ante"
        elif kind == "always buys":
            choice = "buy_game"
        else:
            choice = _best(hand, dealer)
        buys |= choice == "buy_game"
        steps.append((choice, {"box": seat}))
    if buys:
        steps.append(("dealer_draw", {"cards": draw}))
    state, events = empty, []
    for kind, payload in steps:
        state, stored = table_step(engine, state, kind, payload)
        events.append((kind, stored))
    events.append(("paid", {}))
    return Played(events, engine.settle(state).to_dict())


def _shift(session: Session, players: dict[str, str], rounds: int, seed: int) -> Any:
    floor = make_floor(session)
    rng = random.Random(seed)
    for i in range(rounds):
        store_round(session, floor, _round(rng, players), actor_id=floor.croupier,
                    at=T0 + timedelta(minutes=2 * i + 1))
    session.commit()
    rows = sections.settlements(session, floor.shift_id)
    return decisions.shift_section(session, rows, None)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_planted_hole_carder_raises_the_alert_and_honest_players_do_not(
        session: Session) -> None:
    players = {"1": "best", "2": "hole-carder", "3": "always buys"}
    section = _shift(session, players, 60, seed=24)
    by_seat = {p["seat"]: p for p in section["players"]}
    assert [a["seat"] for a in section["alerts"]] == ["2"], section["players"]
    carder = by_seat["2"]
    assert carder["tested"] >= 5 and carder["z"] > 3 and carder["beat_best"] > 0
    assert by_seat["1"]["tested"] == 0 and not by_seat["1"]["alert"]
    # deviating is not cheating: the player who always buys gives EV up, no luck beyond chance
    assert by_seat["3"]["tested"] > 10 and by_seat["3"]["ev_given_up"] > 0
    assert abs(by_seat["3"]["z"]) < 3


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_shift_of_honest_best_strategy_players_raises_no_alert(session: Session) -> None:
    section = _shift(session, {"1": "best", "2": "best"}, 30, seed=7)
    assert section["alerts"] == []
    assert section["judged"] >= 60
    assert all(p["tested"] == 0 and not p["alert"] for p in section["players"])


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_each_judged_decision_names_the_chosen_and_the_best_option(session: Session) -> None:
    floor = make_floor(session)
    played = _round(random.Random(3), {"1": "always buys", "2": "best"})
    rid = store_round(session, floor, played, actor_id=floor.croupier, at=T0)
    session.commit()
    judged = decisions.round_decisions(session, rid)
    no_game = {j.box: j for j in judged if j.stage == "no_game"}
    assert set(no_game) == {"1", "2"}
    assert no_game["1"].chosen == ("buy_game", ())
    assert no_game["2"].chosen == no_game["2"].best and not no_game["2"].differs
    assert no_game["1"].ev_lost_chips == pytest.approx(
        (no_game["1"].ev_best - no_game["1"].ev_chosen) * ANTE)
    assert {j.stage for j in judged} <= {"bet", "no_game", "insurance"}


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_the_ratings_judge_counts_one_players_differing_decisions(session: Session) -> None:
    # the hook (services.players.rated.decision_judge): Judge = Callable[[PlayedRound],
    # int], a played round being its round id and the player's boxes of the settlement
    floor = make_floor(session)
    rng = random.Random(5)
    ids = [store_round(session, floor, _round(rng, {"1": "always buys", "2": "best"}),
                       actor_id=floor.croupier, at=T0 + timedelta(minutes=2 * i))
           for i in range(6)]
    session.commit()
    judge = decisions.player_judge(session)
    always = [judge(SimpleNamespace(round_id=r, boxes=({"box": "1"},))) for r in ids]
    best = [judge(SimpleNamespace(round_id=r, boxes=({"box": "2"},))) for r in ids]
    both = [judge(SimpleNamespace(round_id=r, boxes=({"box": "1"}, {"box": "2"}))) for r in ids]
    assert sum(always) > 0 and best == [0] * len(ids) and both == always
    assert always == [decisions.differing_decisions(session, r, ["1"]) for r in ids]
    assert always == [sum(j.differs for j in decisions.round_decisions(session, r)
                          if j.box == "1") for r in ids]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_stored_round_is_judged_once_per_process_and_a_changed_record_again(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """The memo of judgements: the same stored round twice runs the lab once; the same round
    with another settlement (a correction) is judged afresh."""
    floor = make_floor(session)
    rid = store_round(session, floor, _round(random.Random(8), {"1": "always buys", "2": "best"}),
                      actor_id=floor.croupier, at=T0)
    session.commit()
    monkeypatch.setattr(decisions, "_MEMO", type(decisions._MEMO)())
    calls: list[int] = []
    real = decisions.judge_stored

    def counted(*args: Any) -> Any:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(decisions, "judge_stored", counted)
    first = decisions.round_decisions(session, rid)
    assert first and decisions.round_decisions(session, rid) == first and len(calls) == 1
    rules = decisions.store.rules_of(session, session.get(decisions.Round, rid))
    events = decisions.store.events(session, rid)
    settled = decisions._settlement(session, rid)
    assert settled is not None
    decisions.judge_round(rules, events, {**settled, "boxes": settled["boxes"][:1]})
    assert len(calls) == 2
