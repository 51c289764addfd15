"""Game: checked play, exact undo/redo, and the engine's invariants as properties."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from intrigue import DEAL_MODES, GAME_IDS, Game, IllegalMoveError, Move, NotationError
from intrigue.cards import DECK_SIZE
from intrigue.deals import MAX_DEAL
from intrigue.notation import PILE
from intrigue.position import validate
from play import random_walk


def snapshot(game: Game) -> tuple:
    return (game.position, game.moves, game.redo_moves)


games = st.builds(
    Game,
    st.sampled_from(GAME_IDS),
    st.integers(1, MAX_DEAL - 1) | st.integers(1, 40000),
    st.sampled_from(DEAL_MODES),
)
walks = st.lists(st.integers(0, 10**6), max_size=80)


@given(games, walks)
def test_all_104_cards_are_accounted_for_in_every_reachable_position(game, choices):
    random_walk(game, choices)
    for ply in range(len(game.moves) + 1):
        cards = game.position_after(ply).all_card_ids()
        assert sorted(cards) == list(range(DECK_SIZE))


@given(games, walks)
def test_every_reachable_position_is_valid(game, choices):
    random_walk(game, choices)
    assert validate(game.position) == []


@given(games, walks)
def test_undo_restores_exactly_and_redo_replays_exactly(game, choices):
    random_walk(game, choices)
    history = [game.position_after(i) for i in range(len(game.moves) + 1)]
    moves = game.moves
    for ply in range(len(moves), 0, -1):
        assert game.undo() == moves[ply - 1]
        assert game.position == history[ply - 1]
    assert not game.can_undo
    for ply in range(1, len(moves) + 1):
        assert game.redo() == moves[ply - 1]
        assert game.position == history[ply]
    assert not game.can_redo


@given(games, walks, st.integers(0, 10**6))
def test_a_new_move_clears_redo(game, choices, pick):
    random_walk(game, choices)
    if not game.can_undo:
        return
    game.undo()
    legal = game.legal_moves()
    game.play(legal[pick % len(legal)])
    assert not game.can_redo


all_moves = st.sampled_from(
    ["d"]
    + [f"{i}f" for i in range(1, 9)]
    + [f"{i}-{j}" for i in range(1, 9) for j in range(1, 9) if i != j]
)


@given(games, walks, all_moves)
def test_a_failed_play_changes_nothing(game, choices, text):
    random_walk(game, choices)
    before = snapshot(game)
    if Move.parse(text) in game.legal_moves():
        game.play(text)
        assert game.moves[-1] == Move.parse(text)
    else:
        with pytest.raises(IllegalMoveError) as info:
            game.play(text)
        assert repr(text) in str(info.value)
        assert snapshot(game) == before


def test_illegal_move_message_names_the_move_reason_and_position(game_at):
    game = game_at(42, "")
    first = game.legal_moves()[0]
    game.play(first)
    occupied = next(i for i, c in enumerate(game.position.columns, 1) if len(c) > 1)
    target = next(j for j, c in enumerate(game.position.columns, 1) if len(c) > 1 and j != occupied)
    with pytest.raises(IllegalMoveError) as info:
        game.play(f"{occupied}-{target}")
    assert str(info.value) == (
        f"illegal move '{occupied}-{target}' (column {target} is not vacant) in intrigue deal 42 (auto) after 1 moves"
    )


def test_malformed_move_is_a_notation_error_and_changes_nothing():
    game = Game("intrigue", 5)
    before = snapshot(game)
    with pytest.raises(NotationError, match="bad move '9-9'"):
        game.play("9-9")
    assert snapshot(game) == before


def test_play_all_is_all_or_nothing():
    game = Game("intrigue", 1)
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match=r"illegal move '1-2'.*after 1 moves"):
        game.play_all("1-3 1-2")
    assert snapshot(game) == before
    assert game.play_all("1-3 1-4") == (Move(1, 3), Move(1, 4))


def test_undo_and_redo_with_nothing_to_do():
    game = Game("faerie-queen", 3)
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        game.undo()
    with pytest.raises(IllegalMoveError, match="nothing to redo"):
        game.redo()


def test_restart_and_undo_to():
    game = Game("intrigue", 1)
    game.play_all("1-3 1f 2-1")
    game.undo_to(1)
    assert game.moves == (Move(1, 3),) and game.redo_moves == (Move(1, PILE), Move(2, 1))
    game.restart()
    assert game.position == game.start and len(game.redo_moves) == 3
    with pytest.raises(IllegalMoveError, match="cannot go back to move 5"):
        game.undo_to(5)


def test_copy_without_stack_starts_at_the_current_position():
    game = Game("intrigue", 1)
    game.play("1-3")
    fresh = game.copy(stack=False)
    assert fresh.position == game.position and not fresh.can_undo
    full = game.copy()
    full.undo()
    assert game.moves == (Move(1, 3),)
