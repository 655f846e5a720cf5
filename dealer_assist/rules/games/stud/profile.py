"""House rules shared by the one-ANTE stud games (Caribbean stud, Oasis, Big/Small).

Their profiles (``CaribbeanProfile`` in ``caribbean.py``, ``SplitProfile`` in ``split.py``)
extend :class:`StudProfile`; Russian poker's profile (``russian/profile.py``) says the same
things through its own fields. Both give the one round engine its :class:`RoundTerms`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...profiles import HouseProfile, RoundTerms, check_bool, check_int, check_optional_int


@dataclass(frozen=True, kw_only=True)
class StudProfile(HouseProfile):
    """The dealer's "no game" and his face-up card. Fees are in units of the box's ANTE."""

    #: the ANTE's multiplier when the dealer has no game and the box takes the ANTE ("1:1")
    no_game_ante_multiplier: int = 1
    #: buying a game for the dealer: allowed?, fee, free second replacement on the same rank
    buy_game_allowed: bool = False
    buy_game_fee: int = 1
    free_second_replacement: bool = False
    #: the dealer's cards dealt face up, entered at the deal (his last card: RULES.md)
    dealer_up_cards: int = 1
    #: boxes one player may hold (RULES.md "People at the table": other house games have no
    #: limit by default)
    max_boxes_per_seat: int | None = None

    CONDUCT = frozenset({"max_boxes_per_seat"})

    def validate(self) -> None:
        super().validate()
        check_optional_int(self.max_boxes_per_seat, "max_boxes_per_seat", minimum=1)
        check_int(self.dealer_up_cards, "dealer_up_cards", maximum=4)
        check_int(self.no_game_ante_multiplier, "no_game_ante_multiplier")
        check_bool(self.buy_game_allowed, "buy_game_allowed")
        check_int(self.buy_game_fee, "buy_game_fee")
        check_bool(self.free_second_replacement, "free_second_replacement")

    def terms(self) -> RoundTerms:
        """No bonus; a player's boxes limited only by ``max_boxes_per_seat`` (RULES.md: "Other
        house games: no limit by default"), each played open, at any ANTE; a box decides once
        its own cards and the dealer's are dealt."""
        return RoundTerms(
            dealer_up_cards=self.dealer_up_cards, bonus=False,
            boxes_per_seat=self.max_boxes_per_seat, equal_antes=False, open_boxes=None,
            whole_deal_first=False, redeal=False,
            buy_game=self.buy_game_allowed, buy_game_fee=self.buy_game_fee,
            free_second_replacement=self.free_second_replacement,
            no_game_ante_multiplier=self.no_game_ante_multiplier)
