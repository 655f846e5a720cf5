"""Player cards and visits (both databases), and the rating's definitions on hand-made
rounds (no database): sessions cut by visits and shifts, the sit-down and the leave, the average
bet rounded half up, the theoretical win with and without the lab's figure, buy-ins."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from fractions import Fraction
from typing import Any

import pytest
from sqlmodel import Session, col, select

from dealer_assist.models import PlayerVisit
from dealer_assist.rules.games.stud.actions import PlaceBox
from dealer_assist.rules.games.stud.players import Player
from dealer_assist.services.errors import NotFound, PermissionDenied, ValidationError
from dealer_assist.services.players import cards
from dealer_assist.services.players.ratings import (
    BuyIn,
    Edge,
    PlayedRound,
    Visit,
    day_ratings,
    half_up,
    session_ratings,
)
from dealer_assist.services.rounds import player_cards
from dealer_assist.services.shifts import shifts
from tests.factories import make_table, make_user

T0 = datetime(2026, 3, 14, 20, 0, tzinfo=UTC)


# --- cards and visits ---------------------------------------------------------------------------

def test_a_rated_player_sits_down_leaves_and_sits_at_one_table_at_a_time(
        session: Session) -> None:
    pit = make_user(session, "pavel", "pit_boss")
    carla = make_user(session, "carla", "croupier")
    one, two = make_table(session, name="RP 1"), make_table(session, name="RP 2")
    for table in (one, two):  # a croupier seats players where he deals
        shifts.open_shift(session, table_id=table.id, user_id=carla.id)
    seen = cards.sit_down(session, table_id=one.id, card=" ab-12 ", name="Anna K",
                          actor_id=pit.id, at=T0)
    assert (seen.card, seen.name) == ("AB-12", "Anna K")
    assert cards.get(session, "ab-12", "croupier").name is None  # the croupier: no name
    assert cards.sit_down(session, table_id=one.id, card="AB-12", actor_id=carla.id,
                          at=T0 + timedelta(minutes=1)).card == "AB-12"  # a double tap
    assert [(s.card, s.name) for s in cards.seated(session, one.id)] == [("AB-12", None)]
    assert [(s.card, s.name) for s in cards.seated(session, one.id, "croupier")] == [
        ("AB-12", None)]  # the croupier's table screen: the card, never the name
    assert [s.name for s in cards.seated(session, one.id, "pit_boss")] == ["Anna K"]
    cards.sit_down(session, table_id=two.id, card="AB-12", actor_id=carla.id,
                   at=T0 + timedelta(hours=1))  # he moved: his visit at RP 1 ended then
    assert cards.seated(session, one.id) == [] and len(cards.seated(session, two.id)) == 1
    visits = session.exec(select(PlayerVisit).order_by(col(PlayerVisit.id))).all()
    assert len(visits) == 2 and visits[0].left_at == T0 + timedelta(hours=1)
    cards.leave(session, table_id=two.id, card="ab-12", actor_id=carla.id,
                at=T0 + timedelta(hours=2))
    assert cards.seated(session, two.id) == []
    with pytest.raises(NotFound):
        cards.leave(session, table_id=two.id, card="AB-12", actor_id=carla.id)


def test_only_the_pit_enters_a_name_and_a_card_number_is_checked(session: Session) -> None:
    carla = make_user(session, "carla", "croupier")
    table = make_table(session)
    shifts.open_shift(session, table_id=table.id, user_id=carla.id)
    with pytest.raises(PermissionDenied) as refused:
        cards.sit_down(session, table_id=table.id, card="7", name="Ivan", actor_id=carla.id)
    assert refused.value.field == "name"
    for bad in ("", "a b", "-12", "x" * 21, "№5"):
        with pytest.raises(ValidationError):
            cards.sit_down(session, table_id=table.id, card=bad, actor_id=carla.id)
    assert cards.find(session, "7") is None  # nothing half-made


def test_a_croupier_seats_and_unseats_players_only_where_he_deals(session: Session) -> None:
    """RULES.md "a croupier acts only at the table he is dealing"; the pit
    seats anywhere."""
    carla, dimitri = make_user(session, "carla", "croupier"), make_user(session, "dimitri",
                                                                         "croupier")
    pit = make_user(session, "pavel", "pit_boss")
    table = make_table(session)
    with pytest.raises(PermissionDenied, match="You do not deal at this table"):
        cards.sit_down(session, table_id=table.id, card="100", actor_id=carla.id)
    shifts.open_shift(session, table_id=table.id, user_id=carla.id)
    cards.sit_down(session, table_id=table.id, card="100", actor_id=carla.id)
    for act in (cards.sit_down, cards.leave):
        with pytest.raises(PermissionDenied, match="Carla deals at this table now"):
            act(session, table_id=table.id, card="100", actor_id=dimitri.id)
    cards.sit_down(session, table_id=table.id, card="200", actor_id=pit.id)
    assert [s.card for s in cards.seated(session, table.id)] == ["100", "200"]


def test_a_place_may_name_only_registered_cards(session: Session) -> None:
    carla = make_user(session, "carla", "croupier")
    table = make_table(session)
    shifts.open_shift(session, table_id=table.id, user_id=carla.id)
    cards.sit_down(session, table_id=table.id, card="100", actor_id=carla.id)
    known = PlaceBox("1", "1", 100, player=Player(card="100"))
    anonymous = PlaceBox("2", "2", 100, player=Player(seat="A"))
    player_cards.check_cards(session, [known, anonymous])
    with pytest.raises(ValidationError) as refused:
        player_cards.check_cards(session, [known, anonymous, PlaceBox("3", "3", 100,
                                                                player=Player(card="200"))])
    assert refused.value.field == "boxes[2].player.card"


# --- the figures ----------------------------------------------------------------------------------

def _box(ante: int, net: int, bonus: int = 0, bet: int = 0, fee: int = 0) -> dict[str, Any]:
    wagers = {"ante": {"stake": ante}, "bet": {"stake": bet}, "improvement_fee": {"stake": fee},
              "bonus": {"stake": bonus}}
    return {"wagers": {k: {**v, "net": 0} for k, v in wagers.items()}, "net": net}


def _round(rid: int, minutes: int, boxes: list[dict[str, Any]], *, table: int = 1,
           shift: int = 1, day: date = date(2026, 3, 14), profile: str = "russian-classic",
           edge: str | None = "0.05") -> PlayedRound:
    start = T0 + timedelta(minutes=minutes)
    return PlayedRound(rid, rid, table, f"T{table}", "russian", profile, shift, day, start,
                       start + timedelta(minutes=2), tuple(boxes),
                       Edge(Fraction(edge), "test") if edge else None)


def test_sessions_are_cut_by_table_shift_and_visit_and_timed_by_the_taps() -> None:
    rounds = [_round(1, 0, [_box(100, -100)]), _round(2, 10, [_box(100, 200)]),
              _round(3, 60, [_box(50, 0)], table=2, shift=2),
              _round(4, 120, [_box(50, 0)], table=2, shift=3, day=date(2026, 3, 15))]
    # a visit at table 2 from minute 55 (before round 3) to minute 130 (after round 4): its
    # sit-down opens its first session (shift 2), its leave closes its last (shift 3)
    visit = Visit(7, 2, T0 + timedelta(minutes=55), T0 + timedelta(minutes=130))
    slips = session_ratings(rounds, [visit])
    assert [(s.table, s.shift_id) for s in slips] == [("T1", 1), ("T2", 2), ("T2", 3)]
    assert slips[0].rating.seconds == 12 * 60  # first round's start to the last one's end
    assert slips[1].rating.start == visit.sat_at and slips[1].rating.seconds == 7 * 60
    assert slips[2].rating.end == visit.left_at and slips[2].rating.seconds == 10 * 60
    days = day_ratings(rounds, [visit])
    assert [d.gaming_date for d in days] == [date(2026, 3, 14), date(2026, 3, 15)]
    assert days[0].rating.seconds == 19 * 60 and days[0].rating.rounds == 3


def test_average_bet_is_initial_wagers_per_round_rounded_half_up() -> None:
    # RULES.md: "average bet is the initial wagers (ANTE and side bets) per round"
    rounds = [_round(1, 0, [_box(100, 0, bonus=50, bet=200, fee=100), _box(100, 0)]),
              _round(2, 5, [_box(100, 0)]), _round(3, 9, [_box(17, 0)])]
    rating = session_ratings(rounds)[0].rating
    assert (rating.average_bet.num, rating.average_bet.den) == (367, 3)
    assert rating.average_bet.rounded == 122  # 122.33...
    assert rating.wagered == 450 + 100 + 100 + 17 and rating.boxes == 4
    assert [half_up(Fraction(n, 2)) for n in (467, 5, -5, 1)] == [234, 3, -3, 1]


def test_the_theoretical_win_needs_every_rounds_figure() -> None:
    # RULES.md: "theoretical win is the sum of each wager times the house edge per unit of that
    # wager of the round's profile (the lab's figure; none where no figure exists)"
    known = [_round(1, 0, [_box(100, 0, bonus=50)], edge="0.0731"),
             _round(2, 5, [_box(300, 0)], edge="0.0491", profile="oasis-classic")]
    rating = session_ratings(known)[0].rating
    assert rating.theoretical == 22  # 7.31 + 14.73 = 22.04: the bonus has no figure
    mixed = [*known, _round(3, 9, [_box(100, 0)], edge=None, profile="caribbean-classic")]
    rating = session_ratings(mixed)[0].rating
    assert rating.theoretical is None and rating.no_figure == ("caribbean-classic",)


def test_buy_ins_count_within_their_session_and_decisions_come_from_the_judge() -> None:
    rounds = [_round(1, 0, [_box(100, 0)]), _round(2, 10, [_box(100, 0)], table=2, shift=2)]
    buy_ins = [BuyIn(1, T0 + timedelta(minutes=1), 500), BuyIn(2, T0 + timedelta(minutes=11),
                                                               300),
               BuyIn(1, T0 + timedelta(hours=5), 999)]  # after his session: not his
    slips = session_ratings(rounds, buy_ins=buy_ins, judge=lambda r: r.round_id)
    assert [s.rating.buy_ins for s in slips] == [500, 300]
    assert [s.rating.decisions_differing for s in slips] == [1, 2]
    (day,) = day_ratings(rounds, buy_ins=buy_ins)
    assert day.rating.buy_ins == 800 and day.rating.decisions_differing is None
    assert session_ratings(rounds)[0].rating.buy_ins is None
