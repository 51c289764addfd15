"""Dealing by the order test's timings (intrigue.solver.guided): a timing is
played exactly as a line with it would deal, and every win it finds, in the
suite and in the published records, replays through the engine."""

from __future__ import annotations

import json

import pytest

from intrigue.cli import main
from intrigue.errors import UnknownVariantError
from intrigue.notation import DEAL, Move
from intrigue.position import Position
from intrigue.solver import replay, solve
from intrigue.solver.guided import deal_by, guided_win
from intrigue.solver.order import Deal
from test_order import line_timings
from test_winrates import records

pytest.importorskip("ortools")


@pytest.mark.parametrize(("game", "number"), [("faerie-queen", 2), ("intrigue", 5), ("glencoe", 3)])
def test_dealing_by_a_real_lines_timing_reaches_its_position(game, number):
    """The timing of the deal read off a real winning line, dealt by, gives
    the very position that line has once the pack is dealt."""
    start = Position.start(game, number, "manual")
    result = solve(start, max_nodes=2_000_000)
    assert result.verdict == "won" and result.moves is not None
    left, _ = line_timings(start, result.moves)
    during = {i: count for i, count in left.items() if count < len(start.order)}
    assert during, "the line sends no card up while cards are dealt"
    position, played = start, 0
    while not position.pack_dealt:
        position = position.apply(result.moves[played])
        played += 1
    after, moves = deal_by(Deal.of(start), start, during)
    assert after == position
    assert moves.count(DEAL) == len(start.order) - start.dealt
    assert len(moves) - moves.count(DEAL) == len(during)


def test_dealing_by_no_timing_sends_nothing_up():
    start = Position.start("faerie-queen", 2, "manual")
    after, moves = deal_by(Deal.of(start), start, {})
    assert after.pack_dealt and after.cards_on_piles() == 0
    assert set(moves) == {DEAL}


def test_a_guided_win_replays_to_a_won_position():
    """Glencoe 3's longest column gives a timing from which the solver wins
    at once; the line from the start of the deal is a won line."""
    start = Position.start("glencoe", 3, "manual")
    found = guided_win(start, columns=1)
    assert found.moves is not None and found.timings == 1 and found.best == 96
    assert replay(start, found.moves).is_won()


def test_salic_law_is_not_covered(capsys):
    with pytest.raises(UnknownVariantError, match="vacant columns take cards during the deal"):
        guided_win(Position.start("salic-law", 1, "manual"))
    argv = ["stats", "--game", "salic-law", "--mode", "manual", "--deals", "1-1", "--guided"]
    assert main(argv) == 2
    assert "does not cover Salic Law" in capsys.readouterr().err
    assert main(["stats", "--game", "faerie-queen", "--deals", "1-1", "--guided"]) == 2
    assert "for manual mode" in capsys.readouterr().err


def test_stats_guided_records_the_won_line(tmp_path):
    out = tmp_path / "guided.jsonl"
    argv = ["stats", "--game", "faerie-queen", "--mode", "manual", "--deals", "4-4", "--guided"]
    assert main([*argv, "--max-nodes", "100000", "--out", str(out)]) == 0
    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["verdict"] == "won" and record["search"] == "guided"
    assert record["timings"] == 1 and record["max_nodes"] == 100_000
    moves = tuple(Move.parse(text) for text in record["moves"].split())
    assert len(moves) == record["length"]
    assert replay(Position.start("faerie-queen", 4, "manual"), moves).is_won()


def test_stored_guided_wins_replay(tmp_path):
    """Every published deal won by dealing by a timing carries its line, and
    the line wins it through the engine (Faerie Queen 2349 and Glencoe 7228
    among them)."""
    won = [
        (game, record)
        for game in ("intrigue", "laggard-lady", "glencoe", "faerie-queen")
        for record in records(tmp_path, game, "manual").values()
        if record.get("search") == "guided" and record["verdict"] == "won"
    ]
    assert {
        ("faerie-queen", 2349),
        ("faerie-queen", 8283),
        ("glencoe", 770),
        ("glencoe", 7228),
    } <= {(game, r["deal"]) for game, r in won}
    for game, record in won:
        moves = tuple(Move.parse(text) for text in record["moves"].split())
        assert len(moves) == record["length"], (game, record["deal"])
        assert replay(Position.start(game, record["deal"], "manual"), moves).is_won()
