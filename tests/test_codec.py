"""The JSON shapes: show output and versioned saves that replay their moves."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from intrigue import DEAL_MODES, GAME_IDS, Game, SaveFormatError
from intrigue.codec import (
    SAVE_FORMAT,
    game_from_save,
    game_to_save,
    load_json,
    position_to_dict,
    save_json,
)
from play import random_walk


def test_show_shape_matches_the_interface():
    game = Game("salic-law", 100, "manual")
    data = position_to_dict(game.position)
    for key in ("game", "deal", "mode", "columns", "piles", "discard", "stock", "won"):
        assert key in data
    assert data["game"] == "salic-law" and data["deal"] == 100 and data["mode"] == "manual"
    assert len(data["discard"]) == 8 and len(data["stock"]) == 104 - 9
    assert data["columns"] == [[data["columns"][0][0]]] and data["columns"][0][0][0] == "K"
    assert len(data["piles"]) == 8 and data["won"] is False
    json.dumps(data)


def test_card_formatter_can_key_cards_by_id():
    data = position_to_dict(Game("intrigue", 1).position, card=lambda c: {"id": c})
    ids = [c["id"] for col in data["columns"] for c in col] + [
        c["id"] for p in data["piles"] for c in p
    ]
    assert sorted(ids) == list(range(104))


@given(
    st.sampled_from(GAME_IDS),
    st.integers(1, 10**6),
    st.sampled_from(DEAL_MODES),
    st.lists(st.integers(0, 999), max_size=40),
)
def test_save_then_load_gives_the_same_game(game_id, deal, mode, choices):
    game = Game(game_id, deal, mode)
    random_walk(game, choices)
    loaded = load_json(save_json(game))
    assert loaded.position == game.position
    assert loaded.moves == game.moves
    assert game_to_save(loaded) == game_to_save(game)


def good_save() -> dict:
    return {
        "format": SAVE_FORMAT,
        "game": "intrigue",
        "deal": 1,
        "mode": "auto",
        "moves": ["1-3", "1-4"],
    }


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda d: d.update(format=2), "format 2 is not supported"),
        (lambda d: d.update(format=True), "format True is not supported"),
        (lambda d: d.pop("moves"), "missing field(s) moves"),
        (lambda d: d.update(extra=1), "unknown field(s) extra"),
        (lambda d: d.update(game="patience"), "unknown game 'patience'"),
        (lambda d: d.update(deal=0), "bad deal number 0"),
        (lambda d: d.update(deal="1"), "deal '1' is not an integer"),
        (lambda d: d.update(mode="turbo"), "unknown deal mode 'turbo'"),
        (lambda d: d.update(moves="1-3"), "moves must be a list"),
        (lambda d: d.update(moves=["1-3", "1-2"]), "illegal move '1-2' (column 2 is not vacant)"),
        (lambda d: d.update(moves=["1-3", "zz"]), "bad move 'zz'"),
    ],
)
def test_tampered_saves_are_refused_precisely(change, fragment):
    data = good_save()
    change(data)
    with pytest.raises(SaveFormatError) as info:
        game_from_save(data)
    assert fragment in str(info.value)


def test_not_json_and_not_an_object():
    with pytest.raises(SaveFormatError, match="not JSON"):
        load_json("{oops")
    with pytest.raises(SaveFormatError, match="expected a JSON object, got list"):
        load_json("[1, 2]")
