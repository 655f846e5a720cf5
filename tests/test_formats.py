"""The one money format (defect 13): every page and PDF goes through it."""

from dealer_assist import pdf
from dealer_assist.i18n import formats


def test_money_is_written_with_thousands_separators_and_a_true_minus() -> None:
    assert formats.amount(1600) == "1,600" and formats.amount(-100000) == "\u2212100,000"
    assert formats.amount(None) == "–" and pdf.money(2500) == "2,500"


def test_one_card_is_one_card_not_one_cards() -> None:
    assert formats.cards(1) == "1 card" and formats.cards(5) == "5 cards"
