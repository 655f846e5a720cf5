"""A player's boxes, rule by rule: seed 001 and RULES.md "People at the table".

Each rule is checked twice where it can be: through the calculator (``POST /russian/settle``'s
parser, the boxes decide in the order listed) and through the live round's engine (the events a
table records), with the same field named. Every case quotes its rule.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from dealer_assist.lab.version import fingerprint
from dealer_assist.rules import IllegalActionError, StakeError
from dealer_assist.rules.engine import Game
from dealer_assist.rules.fields import RequestError
from dealer_assist.rules.games import russian as R
from dealer_assist.rules.games.registry import get_engine, start, start_rules
from dealer_assist.rules.games.stud.calculator import round_from_request
from dealer_assist.rules.profiles import get_profile, load_profile, profile_data, profile_hash

DEALER = "Ah Kd Qc Js 9h"  # Ace-King: a game
HANDS = ["2c 3c 4c 5c 7d", "2d 3d 4d 5d 7h", "2h 3h 4h 5h 7s", "2s 3s 4s 5s 7c",
         "8c 8d 8h 9s Tc"]
A = {"seat": "A"}
B = {"seat": "B"}


def calc_box(box: str, hand: str, player: dict[str, str] | None = None,
             **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"box": box, "ante": 100, "cards": hand.split(), "decision": "bet"}
    if player is not None:
        out["player"] = player
    out.update(kw)
    return out


def settle(boxes: list[dict[str, Any]]) -> dict[str, Any]:
    return R.settle_request({"dealer": {"cards": DEALER.split()}, "boxes": boxes}).to_dict()


def calc_refused(error: type[Exception], field: str, boxes: list[dict[str, Any]]) -> Any:
    with pytest.raises(error) as info:
        settle(boxes)
    assert info.value.field == field  # type: ignore[attr-defined]
    return info.value


def table(profile: str = "russian-classic") -> tuple[Game[Any], Any]:
    game = get_profile(profile).game
    return start(game, profile, 10, 1000, 50000)


def placed(boxes: list[dict[str, Any]], profile: str = "russian-classic") -> tuple[Game[Any], Any]:
    """A live round with ``boxes`` placed and dealt (dealing order: nothing to enter)."""
    engine, state = table(profile)
    state = engine.step(state, "place", {"boxes": boxes}, new=True)
    up = get_profile(profile).terms().dealer_up_cards  # type: ignore[attr-defined]
    return engine, engine.step(state, "deal_dealer", {"up": ["Ac", "Qd", "Jh", "Ts"][:up]},
                           new=True)


def live_refused(error: type[Exception], field: str, engine: Game[Any], state: Any, type: str,
                 payload: dict[str, Any]) -> Any:
    with pytest.raises(error) as info:
        engine.step(state, type, payload, new=True)
    assert info.value.field == field  # type: ignore[attr-defined]
    return info.value


def four(player: dict[str, str] = A) -> list[dict[str, Any]]:
    return [{"box": str(n), "ante": 100, "player": player} for n in range(1, 5)]


# --- at most four boxes, equal antes ----------------------------------------------------------

def test_a_fifth_box_of_one_player_is_refused_naming_its_player_field() -> None:
    # seed 001: "The maximum number the boxes in the game - 4."
    # RULES.md: "at most 4 boxes per player"
    boxes = [calc_box(str(n + 1), h, A) for n, h in enumerate(HANDS)]
    err = calc_refused(IllegalActionError, "boxes[4].player", boxes)
    assert "player A may play at most 4 boxes" in err.message
    assert len(settle(boxes[:4])["boxes"]) == 4
    engine, state = table()
    live_refused(IllegalActionError, "boxes[4].player", engine, state, "place",
                 {"boxes": [*four(), {"box": "5", "ante": 100, "player": A}]})
    # another player's box is his own count
    engine.step(state, "place", {"boxes": [*four(), {"box": "5", "ante": 100, "player": B}]},
              new=True)


def test_a_box_placed_later_counts_with_the_boxes_already_placed() -> None:
    # RULES.md: "at most 4 boxes per player" -- a fifth box placed in a second ``place``
    engine, state = table()
    state = engine.step(state, "place", {"boxes": four({"card": "100234"})}, new=True)
    err = live_refused(IllegalActionError, "boxes[0].player", engine, state, "place",
                       {"boxes": [{"box": "5", "ante": 100, "player": {"card": "100234"}}]})
    assert "the player with card 100234 may play at most 4 boxes" in err.message


def test_unequal_antes_of_one_player_are_refused_naming_the_ante() -> None:
    # seed 001: "All bets of one player should be equal."
    # RULES.md: "the same ANTE on all of them (the bonus is per box, under its own rules)"
    boxes = [calc_box("1", HANDS[0], A), calc_box("2", HANDS[1], A, ante=200)]
    err = calc_refused(StakeError, "boxes[1].ante", boxes)
    assert err.value == 200 and "all his boxes must carry the same ANTE (100)" in err.message
    engine, state = table()
    live_refused(StakeError, "boxes[1].ante", engine, state, "place",
                 {"boxes": [{"box": "1", "ante": 100, "player": A},
                            {"box": "2", "ante": 200, "player": A}]})
    # two players, two antes; and a bonus on one box only
    settle([calc_box("1", HANDS[0], A), calc_box("2", HANDS[1], B, ante=200),
            calc_box("3", HANDS[2], A, bonus=50)])


# --- the first course and the dark ------------------------------------------------------------

@pytest.mark.parametrize("step,payload,field", [
    ("bet", {}, "decision"), ("fold", {}, "decision"),
    ("exchange", {"count": 2}, "improvement"), ("sixth_card", {}, "improvement.sixth_card"),
])
def test_a_dark_box_decided_before_the_first_course_is_refused(
        step: str, payload: dict[str, Any], field: str) -> None:
    # seed 001: "in all four boxes, two of them play in a 'dark'"; "At first you should make a
    # decision on the first course of boxing distribution, then on the second."
    # RULES.md: "with 3 or 4 boxes he plays two open (his first course: his two lowest-numbered
    # boxes) and the rest 'in the dark' (the second course): he may not look at a dark box until
    # every box of his first course has made its decision (improvement, bet or fold), so a
    # second-course decision recorded before that is refused."
    engine, state = placed(four())
    for dark in ("3", "4"):
        err = live_refused(IllegalActionError, field, engine, state, step, {"box": dark, **payload})
        assert f"box {dark} plays in the dark" in err.message and err.value == dark
        assert "boxes 1, 2 have not decided yet" in err.message
    state = engine.step(state, "bet", {"box": "1"}, new=True)
    err = live_refused(IllegalActionError, field, engine, state, step, {"box": "3", **payload})
    assert "box 2 has not decided yet" in err.message
    state = engine.step(state, "exchange", {"box": "2", "count": 1}, new=True)  # an improvement
    engine.step(state, step, {"box": "3", **payload}, new=True)  # is a decision: now allowed


def test_the_screen_offers_the_dark_boxes_nothing_until_the_first_course_has_decided() -> None:
    # RULES.md: "the screen offers the second course's decisions only after every first-course
    # box has decided"; the offered steps are the engine's own checks
    engine, state = placed(four())

    def offered(s: Any) -> set[str | None]:
        return {x.box for x in engine.next_steps(s) if x.type in ("bet", "fold", "exchange")}

    assert offered(state) == {"1", "2"}
    summary = {b["box"]: b for b in engine.summary(state)["boxes"]}
    assert summary["3"]["course"] == 2 and summary["3"]["waits_for"] == ["1", "2"]
    assert "course" not in summary["1"] and summary["1"]["player"] == A
    state = engine.step(state, "fold", {"box": "2"}, new=True)
    assert offered(state) == {"1"}
    state = engine.step(state, "bet", {"box": "1"}, new=True)
    assert offered(state) == {"3", "4"}
    assert {b["box"]: b for b in engine.summary(state)["boxes"]}["4"]["waits_for"] == []


def test_the_first_course_is_the_players_two_lowest_numbered_boxes() -> None:
    # RULES.md: "his first course: his two lowest-numbered boxes" (by number: 7 before 10)
    boxes = [{"box": b, "ante": 100, "player": A} for b in ("10", "7", "3")]
    engine, state = placed(boxes)
    live_refused(IllegalActionError, "decision", engine, state, "bet", {"box": "10"})
    state = engine.step(state, "bet", {"box": "7"}, new=True)
    state = engine.step(state, "bet", {"box": "3"}, new=True)
    engine.step(state, "bet", {"box": "10"}, new=True)


def test_one_or_two_boxes_are_played_open() -> None:
    # RULES.md: "a player with 1 or 2 boxes plays them open"
    engine, state = placed([{"box": "1", "ante": 100, "player": A},
                          {"box": "2", "ante": 100, "player": A}])
    engine.step(state, "bet", {"box": "2"}, new=True)
    assert all("course" not in b for b in engine.summary(state)["boxes"])


def test_each_player_waits_only_for_his_own_first_course() -> None:
    # the dark course is one player's: B's open box decides whatever A has done
    boxes = [*four(), {"box": "5", "ante": 50, "player": B}]
    engine, state = placed(boxes)
    state = engine.step(state, "bet", {"box": "5"}, new=True)
    live_refused(IllegalActionError, "decision", engine, state, "bet", {"box": "3"})


def test_the_calculator_decides_in_the_order_listed_and_refuses_a_dark_box_listed_first() -> None:
    # the calculator applies the same checks: a dark box listed before its first course
    boxes = [calc_box(str(n + 1), h, A) for n, h in enumerate(HANDS[:4])]
    err = calc_refused(IllegalActionError, "boxes[0].decision", [boxes[2], *boxes[:2],
                                                                  boxes[3]])
    assert "box 3 plays in the dark" in err.message
    result = settle(boxes)
    assert [b["player"] for b in result["boxes"]] == [A] * 4
    # the stud games' calculator: the same field, no limit, any antes (next section)
    body = {"profile": "caribbean-classic", "dealer": {"cards": DEALER.split()},
            "boxes": [calc_box(str(n + 1), h, A, ante=10 * (n + 1))
                      for n, h in enumerate(HANDS)]}
    state = round_from_request(body, get_engine("caribbean"), "caribbean-classic")
    assert len(state.boxes) == 5


def test_insurance_and_the_bonus_follow_the_box() -> None:
    # "Insurance and the bonus follow the box as today." A dark box's bonus is placed
    # with it; it insures once it has bet, after the first course.
    boxes = [*four()]
    boxes[3] = {**boxes[3], "bonus": 50}
    engine, state = placed(boxes)
    assert {b["box"]: b["bonus"] for b in engine.summary(state)["boxes"]}["4"] == 50
    for box in ("1", "2", "4"):
        state = engine.step(state, "bet", {"box": box}, new=True)
    state = engine.step(state, "insure", {"box": "4", "amount": 100,
                                        "cards": "Qs Qd Qc 2d 3h"}, new=True)
    assert {b["box"]: b["insurance"] for b in engine.summary(state)["boxes"]}["4"] == 100


# --- other house games, stored rounds, the field itself ----------------------------------------

def test_other_house_games_have_no_limit_by_default_and_a_profile_field_for_one() -> None:
    # RULES.md: "Other house games: no limit by default (profile field)."
    boxes = [{"box": str(n), "ante": 10 * n, "player": A} for n in range(1, 7)]
    engine, state = placed(boxes, "oasis-classic")
    engine.step(state, "bet", {"box": "6"}, new=True)  # every box open, any order, any antes
    strict = dataclasses.replace(get_profile("caribbean-classic"), name="caribbean-two",
                                 max_boxes_per_seat=2)
    data = profile_data(strict)
    rules = {"game": "caribbean", "profile": data, "profile_hash": profile_hash(data),
             "limits": {"min_ante": 10, "max_ante": 1000, "max_payout": 50000}}
    engine, state = start_rules(rules)
    live_refused(IllegalActionError, "boxes[2].player", engine, state, "place",
                 {"boxes": boxes[:3]})


def test_a_round_stored_before_the_dark_course_replays_with_every_box_open() -> None:
    # "Every round carries its own rules": a Russian profile stored without ``open_boxes``
    # (before ) was played with every box open, and replays so
    data = profile_data(get_profile("russian-classic"))
    assert data["open_boxes"] == 2 and data["equal_antes"] is True
    old = {k: v for k, v in data.items() if k not in ("open_boxes", "equal_antes")}
    assert load_profile(old).open_boxes is None  # type: ignore[attr-defined]
    rules = {"game": "russian", "profile": old, "profile_hash": profile_hash(old),
             "limits": {"min_ante": 10, "max_ante": 1000, "max_payout": 50000}}
    engine, state = start_rules(rules)
    state = engine.step(state, "place", {"boxes": four()})
    state = engine.step(state, "deal_dealer", {"up": []})
    engine.step(state, "bet", {"box": "4"})


def test_seat_and_player_name_the_same_anonymous_player() -> None:
    # a box without ``player`` is played by its ``seat`` (older clients): seat "A" and player
    # {"seat": "A"} are one player, whose boxes carry one ANTE
    engine, state = table()
    live_refused(StakeError, "boxes[1].ante", engine, state, "place",
                 {"boxes": [{"box": "1", "seat": "A", "ante": 100},
                            {"box": "2", "ante": 200, "player": {"seat": "a"}}]})


@pytest.mark.parametrize("player,field", [
    ({"seat": "AB"}, "boxes[0].player.seat"), ({"seat": "1"}, "boxes[0].player.seat"),
    ({"card": "12 34"}, "boxes[0].player.card"), ({"card": "x" * 21}, "boxes[0].player.card"),
    ({"seat": "A", "card": "1"}, "boxes[0].player"), ({}, "boxes[0].player"),
    ("A", "boxes[0].player"),
])
def test_a_malformed_player_is_refused_naming_its_field(player: Any, field: str) -> None:
    engine, state = table()
    live_refused(RequestError, field, engine, state, "place",
                 {"boxes": [{"box": "1", "ante": 100, "player": player}]})
    calc_refused(RequestError, field, [calc_box("1", HANDS[0], player)])


def test_the_player_is_stored_upper_case_and_carried_to_the_settlement() -> None:
    engine, state = table()
    actions = engine.decode(state, "place", {"boxes": [{"box": "1", "ante": 100,
                                                      "player": {"card": " ab-12 "}}]})
    assert engine.encode_event("place", actions)["boxes"][0]["player"] == {"card": "AB-12"}
    result = settle([calc_box("1", HANDS[0], {"card": "ab-12"})])
    assert result["boxes"][0]["player"] == {"card": "AB-12"}
    assert "player" not in settle([calc_box("1", HANDS[0])])["boxes"][0]


def test_the_lab_figures_do_not_depend_on_a_players_boxes() -> None:
    # the house edge per box is the same whatever a player's boxes: their fields are conduct
    base = get_profile("russian-classic")
    other = dataclasses.replace(base, name=base.name, open_boxes=None, max_boxes_per_seat=3)
    assert fingerprint(other) == fingerprint(base)
    assert fingerprint(dataclasses.replace(base, buy_game_fee=2)) != fingerprint(base)
