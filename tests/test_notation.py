import pytest
from hypothesis import given
from hypothesis import strategies as st

from intrigue.errors import NotationError
from intrigue.notation import DEAL, PILE, Move, format_moves, parse_move, parse_moves


def test_the_three_move_forms():
    assert parse_move("3f") == Move(3, PILE)
    assert parse_move("3-5") == Move(3, 5)
    assert parse_move("d") == DEAL
    assert parse_move(" 3F ") == Move(3, PILE)
    assert parse_move("D") == DEAL


def test_moves_print_canonically_and_repr_rebuilds():
    assert [str(m) for m in parse_moves("2F 5f 1-4 d")] == ["2f", "5f", "1-4", "d"]
    move = Move(1, 4)
    assert eval(repr(move), {"Move": Move}) == move


@pytest.mark.parametrize(
    "text", ["3x", "9f", "0f", "3-9", "3-3", "f", "-", "", "33f", "1--2", "dd", "3 - "]
)
def test_bad_moves_are_rejected_naming_the_text(text):
    with pytest.raises(NotationError) as info:
        parse_move(text)
    assert repr(text) in str(info.value)


def test_a_bad_move_in_a_list_is_located():
    with pytest.raises(NotationError, match=r"move 3 of the list: bad move '1x'"):
        parse_moves("2f 5f 1x")


def test_a_list_may_be_given_as_strings():
    assert parse_moves(["1f", "2-3"]) == (Move(1, PILE), Move(2, 3))
    assert parse_moves("") == ()


moves = st.one_of(
    st.just(DEAL),
    st.builds(Move, st.integers(1, 8), st.just(PILE)),
    st.tuples(st.integers(1, 8), st.integers(1, 8))
    .filter(lambda t: t[0] != t[1])
    .map(lambda t: Move(*t)),
)


@given(st.lists(moves, max_size=20))
def test_move_lists_round_trip(ms):
    assert parse_moves(format_moves(ms)) == tuple(ms)


@given(moves, st.booleans())
def test_move_notation_round_trips_any_case(move, upper):
    text = str(move).upper() if upper else str(move)
    assert parse_move(text) == move
