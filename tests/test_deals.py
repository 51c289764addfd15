import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pysol_cards.random import RandomBase
from pysol_cards.random import shuffle as pysol_cards_shuffle

from intrigue.cards import DECK_SIZE, RANK_OF, Rank, card_name
from intrigue.deals import MAX_DEAL, deal_order, parse_deal_number, shuffled_pack
from intrigue.errors import DealNumberError, UnknownVariantError
from intrigue.variants import GAME_IDS, find_variant

DATA = Path(__file__).parent / "data" / "deals" / "pysolfc.txt"
SHARED = Path(__file__).parents[2] / "shared" / "vectors" / "deal-orders.json"


def golden() -> list[tuple[str, int, str]]:
    rows = []
    for line in DATA.read_text().splitlines():
        if line and not line.startswith("#"):
            game, deal, *cards = line.split()
            rows.append((game, int(deal), " ".join(cards)))
    return rows


@pytest.mark.parametrize(("game", "deal", "expected"), golden())
def test_deal_orders_match_pysolfc(game, deal, expected):
    assert " ".join(card_name(c) for c in deal_order(game, deal)) == expected


def test_golden_file_covers_every_game_and_the_generator_edges():
    rows = golden()
    assert {g for g, _, _ in rows} == set(GAME_IDS)
    assert {31999, 32000, 32001} <= {d for _, d, _ in rows}


@pytest.mark.skipif(not SHARED.exists(), reason="shared vectors not beside this checkout")
def test_golden_file_is_the_shared_reference():
    shared = json.loads(SHARED.read_text())
    assert {(g, d, o) for g, d, o in golden()} == {
        (g, int(n), o) for g in shared for n, o in shared[g].items()
    }


@given(st.integers(1, MAX_DEAL - 1).filter(lambda n: n != 32000))
def test_generator_agrees_with_pysol_cards_away_from_32000(n):
    # pysol-cards' shuffle() helper is PySolFC's generator except at N = 32000.
    assert shuffled_pack(n) == pysol_cards_shuffle(
        list(range(DECK_SIZE)), n, RandomBase.DEALS_PYSOLFC
    )


def test_32000_uses_the_mersenne_twister_as_pysolfc_does():
    helper = pysol_cards_shuffle(list(range(DECK_SIZE)), 32000, RandomBase.DEALS_PYSOLFC)
    assert shuffled_pack(32000) != helper  # the helper's LCG choice is the known difference


@given(st.sampled_from(GAME_IDS), st.integers(1, MAX_DEAL - 1))
def test_every_deal_is_a_permutation_that_starts_with_a_base(game, n):
    order = deal_order(game, n)
    assert sorted(order) == list(range(DECK_SIZE))
    variant = find_variant(game)
    if variant.discard_rank is not None:
        assert [RANK_OF[c] for c in order[:9]] == [Rank.QUEEN] * 8 + [Rank.KING]
    else:
        assert RANK_OF[order[0]] == variant.base_rank


@given(st.integers(1, MAX_DEAL - 1))
def test_family_games_share_the_shuffle_of_their_hook(n):
    assert deal_order("intrigue", n) == deal_order("glencoe", n) == deal_order("laggard-lady", n)


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        (0, "start at 1"),
        (-5, "start at 1"),
        ("0", "start at 1"),
        (MAX_DEAL, "largest"),
        (str(MAX_DEAL), "largest"),
        ("abc", "expected an integer"),
        ("1.5", "expected an integer"),
        (1.0, "expected an integer"),
        (True, "expected an integer"),
        ("", "expected an integer"),
        ("٣", "expected an integer"),
        ("--5", "expected an integer"),
        ("5 5", "expected an integer"),  # a non-ASCII digit is not a deal number
    ],
)
def test_bad_deal_numbers_are_named(value, fragment):
    with pytest.raises(DealNumberError) as info:
        parse_deal_number(value)
    assert repr(value) in str(info.value)
    assert fragment in str(info.value)


def test_deal_numbers_accept_ints_and_decimal_strings():
    assert parse_deal_number(" 42 ") == 42
    assert parse_deal_number(MAX_DEAL - 1) == MAX_DEAL - 1


def test_unknown_game():
    with pytest.raises(
        UnknownVariantError, match=r"unknown game 'klondike'; expected one of: intrigue"
    ):
        deal_order("klondike", 1)
