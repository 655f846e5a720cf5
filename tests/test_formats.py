"""The one money format (defect 13): every page and PDF goes through it."""

from dealer_assist import pdf
from dealer_assist.i18n import formats


def test_money_is_written_with_thousands_separators_and_a_true_minus() -> None:
    assert formats.amount(1600) == "1,600" and formats.amount(-100000) == "\u2212100,000"
    assert formats.amount(None) == "–" and pdf.money(2500) == "2,500"


def test_one_card_is_one_card_not_one_cards() -> None:
    assert formats.cards(1) == "1 card" and formats.cards(5) == "5 cards"


def test_the_tablets_money_format_is_babels_in_both_languages() -> None:
    """The tablet formats money offline without Babel (it runs in the browser): the same text
    as the pages' Babel format, for every magnitude and sign, in English and Russian."""
    from babel.numbers import format_decimal

    from dealer_assist.tablet.words import MINUS, plain_money

    values = [0, 1, 9, 10, 999, 1000, 1600, 12345, 100000, 999999, 1000000, 123456789,
              10**17, *(-v for v in (1, 1000, 1234567))]
    for lang in ("en", "ru"):
        for v in values:
            babel = format_decimal(abs(v), format="#,##0", locale=lang)
            assert plain_money(v, lang) == (MINUS if v < 0 else "") + babel, (lang, v)
    assert plain_money(None, "ru") == "–"
