"""Russian poker house rules as data: the profile type and the registered profiles.

``russian-classic`` is the default of ``shared/RULES.md`` (seed 001); ``russian-pair-game`` is its
variant where the dealer qualifies with a pair or better. Every number of the game lives here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import HouseRulesError
from ...profiles import (
    HouseProfile,
    PayTable,
    RoundTerms,
    check_bool,
    check_category,
    check_int,
    check_optional_int,
    check_pay_table,
    register_profile,
)
from ...ranking import Category

C = Category

#: RULES.md "BET pay table" (pair, straight and flush from the common casino table)
CLASSIC_PAY_TABLE: dict[Category, int] = {
    C.royal_flush: 100, C.straight_flush: 50, C.four_of_a_kind: 20, C.full_house: 7,
    C.flush: 5, C.straight: 4, C.three_of_a_kind: 3, C.two_pairs: 2, C.one_pair: 1,
    C.ace_king: 1,
}
#: seed 001 "Game on bonus"; two pairs pay only with the higher pair sevens or better
CLASSIC_BONUS_TABLE: dict[Category, int] = {
    C.royal_flush: 1000, C.straight_flush: 500, C.four_of_a_kind: 300, C.full_house: 100,
    C.two_pairs: 5,
}


@dataclass(frozen=True, kw_only=True)
class RussianProfile(HouseProfile):
    """Russian poker house rules. Fees are in units of the box's ANTE."""

    game: str = "russian"
    pay_table: PayTable = field(default_factory=lambda: dict(CLASSIC_PAY_TABLE))
    #: a box is paid for at most this many combinations (the seed: two)
    max_combinations: int = 2
    #: whether a winning box's ANTE is also paid 1:1 (the seed: "ANTE bet is not paid")
    ante_paid_on_win: bool = False
    #: the ANTE's multiplier when the dealer has no game and the box takes the ANTE
    no_game_ante_multiplier: int = 1
    #: a player's boxes (seed: "The maximum number the boxes in the game - 4", "All bets of one
    #: player should be equal", "in all four boxes, two of them play in a 'dark'"): at most
    #: this many, with equal antes; with more than ``open_boxes`` he plays his lowest-numbered
    #: ``open_boxes`` open (the first course) and the rest in the dark (None: all open)
    max_boxes_per_seat: int = 4
    equal_antes: bool = True
    open_boxes: int | None = 2
    #: one improvement per box: exchange 1..max_exchange cards, or a sixth card
    improvement_fee: int = 1
    max_exchange: int = 5
    sixth_card_allowed: bool = True
    #: buying a game for the dealer: fee, and the free second replacement on the same rank
    buy_game_fee: int = 1
    free_second_replacement: bool = True
    #: insurance: the box needs this category or better; wins this many times the stake
    insurance_min_category: Category = C.three_of_a_kind
    insurance_multiplier: int = 1
    #: bonus side bet: table, stake unit, stake at most this percentage of the ANTE
    bonus_table: PayTable = field(default_factory=lambda: dict(CLASSIC_BONUS_TABLE))
    bonus_two_pairs_min_rank: int = 7
    bonus_unit: int = 50
    bonus_max_ante_percent: int = 50
    #: the dealer's cards dealt face up (entered at the deal); seed 001 deals all five down
    dealer_up_cards: int = 0

    #: rounds stored before were played with every box open
    STORED_WITHOUT = {"open_boxes": None}
    CONDUCT = frozenset({"max_boxes_per_seat", "equal_antes", "open_boxes"})

    def pay_categories(self) -> tuple[Category, ...]:
        """Every category but high card: Ace-King is paid as a second combination in any case."""
        return tuple(c for c in self.ranking.order if c != C.high_card)

    def terms(self) -> RoundTerms:
        """A bonus bet; at most ``max_boxes_per_seat`` boxes per player, with equal antes, the
        dark course after ``open_boxes``; a box decides once the whole table is dealt (a wrong
        number of cards is a redeal, and a redeal happens only at the deal); a game may always
        be bought."""
        return RoundTerms(
            dealer_up_cards=self.dealer_up_cards, bonus=True,
            boxes_per_seat=self.max_boxes_per_seat, equal_antes=self.equal_antes,
            open_boxes=self.open_boxes, whole_deal_first=True,
            redeal=True, buy_game=True, buy_game_fee=self.buy_game_fee,
            free_second_replacement=self.free_second_replacement,
            no_game_ante_multiplier=self.no_game_ante_multiplier)

    def validate(self) -> None:
        super().validate()
        if self.game != "russian":
            raise HouseRulesError("a Russian poker profile must have game 'russian', got "
                                  "'%(game)s'",
                                  game=self.game, field="game", value=self.game)
        check_int(self.max_combinations, "max_combinations", minimum=1, maximum=2)
        check_bool(self.ante_paid_on_win, "ante_paid_on_win")
        check_int(self.no_game_ante_multiplier, "no_game_ante_multiplier")
        check_int(self.max_boxes_per_seat, "max_boxes_per_seat", minimum=1)
        check_bool(self.equal_antes, "equal_antes")
        check_optional_int(self.open_boxes, "open_boxes", minimum=1)
        check_int(self.improvement_fee, "improvement_fee")
        check_int(self.max_exchange, "max_exchange", minimum=0, maximum=5)
        check_bool(self.sixth_card_allowed, "sixth_card_allowed")
        check_int(self.buy_game_fee, "buy_game_fee")
        check_bool(self.free_second_replacement, "free_second_replacement")
        self._set("insurance_min_category",
                  check_category(self.insurance_min_category, "insurance_min_category",
                                 self.ranking))
        check_int(self.insurance_multiplier, "insurance_multiplier")
        self._set("bonus_table", check_pay_table(self.bonus_table, "bonus_table",
                                                 ranking=self.ranking))
        check_int(self.bonus_two_pairs_min_rank, "bonus_two_pairs_min_rank", minimum=2,
                  maximum=14)
        check_int(self.bonus_unit, "bonus_unit", minimum=1)
        check_int(self.bonus_max_ante_percent, "bonus_max_ante_percent")
        check_int(self.dealer_up_cards, "dealer_up_cards", maximum=4)


RUSSIAN_CLASSIC = register_profile(RussianProfile(name="russian-classic"))
RUSSIAN_PAIR_GAME = register_profile(
    RussianProfile(name="russian-pair-game", qualifier=C.one_pair)
)
