"""The command-line contract: JSON shapes on stdout, exit 2 with one line on stderr."""

import json

import pytest

from intrigue.cli import main
from intrigue.variants import GAME_IDS


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_order_json(capsys):
    code, out, err = run(capsys, "order", "--game", "intrigue", "--deal", "1", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["game"] == "intrigue" and data["deal"] == 1
    assert data["order"][:4] == ["QD", "3D", "5H", "JC"] and len(data["order"]) == 104


@pytest.mark.parametrize("game", GAME_IDS)
@pytest.mark.parametrize("mode", ["auto", "manual"])
def test_show_json_for_every_game_and_mode(capsys, game, mode):
    code, out, _ = run(capsys, "show", "--game", game, "--deal", "31999", "--mode", mode, "--json")
    assert code == 0
    data = json.loads(out)
    assert {"game", "deal", "mode", "columns", "piles", "discard", "stock", "won"} <= data.keys()
    assert data["game"] == game and data["mode"] == mode and data["deal"] == 31999
    count = (
        sum(map(len, data["columns"]))
        + sum(map(len, data["piles"]))
        + len(data["discard"])
        + len(data["stock"])
    )
    assert count == 104


def test_show_after_moves(capsys):
    code, out, _ = run(capsys, "show", "--deal", "1", "--moves", "1-3 1f", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["columns"][0] == ["QD"] and data["columns"][2] == ["QS", "JC"]
    assert data["moves"] == ["1-3", "1f"]


def test_show_text_picture(capsys):
    code, out, _ = run(capsys, "show", "--deal", "1")
    assert code == 0
    assert "Intrigue deal 1 (auto): 74 of 96 cards on the piles" in out
    assert " 3: QS   (vacant)" in out
    assert "Five-piles" in out and "Six-piles" in out and "Legal moves: 1-3" in out
    code, out, _ = run(capsys, "show", "--game", "salic-law", "--deal", "1", "--mode", "manual")
    assert "Discarded   QC QS QC QH QH QS QD QD" in out and "Stock: 95 cards left (next 3D)" in out


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["show", "--deal", "0"], "bad deal number '0'"),
        (["show", "--deal", "-3"], "bad deal number '-3'"),
        (["show", "--deal", "1e3"], "bad deal number '1e3'"),
        (["show", "--deal", str(10**20)], "the largest deal number is"),
        (["show", "--game", "spider", "--deal", "1"], "unknown game 'spider'"),
        (["show", "--deal", "1", "--mode", "slow"], "unknown deal mode 'slow'"),
        (["show", "--deal", "1", "--moves", "1-3 7x"], "bad move '7x'"),
        (["show", "--deal", "1", "--moves", "1-2"], "illegal move '1-2' (column 2 is not vacant)"),
        (
            ["show", "--deal", "1", "--moves", "d"],
            "illegal move 'd' (dealing is for manual deal mode",
        ),
        (["order", "--game", "intrigue"], "--deal"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("intrigue")
    assert fragment in err
    assert "Traceback" not in err


def test_module_entry_point_runs():
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "intrigue", "order", "--deal", "2", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["order"][0] == "QC"


def test_solve_names_the_column_that_proves_a_loss(capsys):
    # Salic Law 7228 deals its first 40 cards onto column 1: the column test
    # proves it lost, and says so; "best" is then a lower bound, not exact.
    argv = ("solve", "--game", "salic-law", "--deal", "7228", "--mode", "manual")
    code, out, _ = run(capsys, *argv, "--max-nodes", "1000000", "--json")
    data = json.loads(out)
    assert code == 0 and data["verdict"] == "lost" and data["blocked"] == [1]
    code, out, _ = run(capsys, *argv, "--max-nodes", "1000000")
    assert "lost -- the cards of column 1 can never all reach the piles" in out
    code, out, _ = run(capsys, "solve", "--game", "intrigue", "--deal", "4", "--json")
    assert json.loads(out)["blocked"] is None  # an exhaustive loss
    # Glencoe 8697: columns 1 and 2, played with Glencoe's openers by suit.
    argv = ("solve", "--game", "glencoe", "--deal", "8697", "--mode", "manual")
    code, out, _ = run(capsys, *argv, "--max-nodes", "1000000")
    assert "lost -- the cards of columns 1 and 2 can never all reach the piles" in out


def test_solve_names_the_pile_kind_that_proves_a_loss(capsys):
    # Intrigue 6812: the rank projection, not the column test, proves it lost.
    argv = ("solve", "--game", "intrigue", "--deal", "6812", "--mode", "manual")
    code, out, _ = run(capsys, *argv, "--max-nodes", "2000000", "--json")
    data = json.loads(out)
    assert code == 0 and (data["blocked"], data["blocked_ranks"]) == (None, [5, 4, 3, 2, 1, 13])
    code, out, _ = run(capsys, *argv, "--max-nodes", "2000000")
    assert "lost -- the Five-piles can never all be completed" in out


def test_an_unknown_says_which_limit_stopped_it(capsys, monkeypatch):
    args = ("solve", "--game", "faerie-queen", "--deal", "6383", "--mode", "manual")
    code, out, _ = run(capsys, *args, "--max-nodes", "2000")
    assert code == 0 and "unknown -- the search stopped at its limit" in out
    assert "try a larger --max-nodes" in out
    code, out, _ = run(capsys, *args, "--max-nodes", "2000", "--json")
    assert json.loads(out)["memory_full"] is False

    import intrigue.cli
    from intrigue.solver.dfs import OutOfMemory

    def out_of_memory(*args, **kwargs):
        raise OutOfMemory(1234, 20)

    # The plain searches of solve run out of memory: still "unknown", and said so.
    monkeypatch.setattr("intrigue.solver.search._search", out_of_memory)
    code, out, err = run(capsys, *args, "--max-nodes", "2000")
    assert code == 0 and err == ""
    assert "unknown -- the search ran out of memory" in out
    assert "a larger --max-nodes will not help on this machine" in out
    code, out, _ = run(capsys, *args, "--max-nodes", "2000", "--json")
    assert json.loads(out)["memory_full"] is True

    def no_memory(*args, **kwargs):
        raise MemoryError

    # Anything else that runs out of memory: one line, no traceback.
    monkeypatch.setattr(intrigue.cli, "solve", no_memory)
    code, out, err = run(capsys, *args)
    assert (code, out, err) == (1, "", "intrigue: error: out of memory\n")
