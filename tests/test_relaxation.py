"""The column test (intrigue.solver.relaxation): a loss proof, so it must never
call a winnable position lost, and it must actually prove the deals it is for."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from cardlists import ids
from intrigue.cards import RANK_OF, SUIT_OF
from intrigue.cli import main
from intrigue.position import Position
from intrigue.solver import solve
from intrigue.solver.relaxation import (
    RELAXED_VERSION,
    TOGETHER,
    Play,
    as_types,
    blocked_column,
    blocked_column_each,
    column_test,
    relaxed_games,
)
from intrigue.solver.rules import N_TYPES, tables_for
from intrigue.solver.state import SearchState
from intrigue.stats import COLUMN_GAMES, kept_column_games, run_stats
from play import UNBUILT, random_position, small_deals
from test_solver import brute_force

DATA = Path(__file__).parents[1] / "docs" / "data"


@settings(max_examples=300)
@given(small_deals())
def test_a_blocked_column_means_lost(position: Position) -> None:
    blocked = blocked_column(position)
    truth = brute_force(position, 20_000)
    event(f"blocked: {blocked is not None}, truth: {truth}")
    if blocked is not None:
        assert truth in ("lost", "unknown"), f"column {blocked} blocked, but the position is won"
        assert solve(position).verdict == "lost"


def test_small_deals_are_sometimes_blocked() -> None:
    # The property above must see the test fire, or it checks nothing.  7C is
    # dealt before its Six and buried under 8C; once 6C goes up, 8C must wait on
    # a vacant column for 7C to follow, and with one Queen there is none.
    assert _blocked_and_truth("intrigue", "QS 7C 8C 6C") == ((1,), "lost")
    # A second Queen gives the vacant column once the pack is dealt.
    assert _blocked_and_truth("intrigue", "QS 7C 8C 6C QH") == (None, "won")
    # Dealt the other way round, each card goes up as it comes.
    assert _blocked_and_truth("intrigue", "QS 8C 7C 6C") == (None, "won")


def test_salic_law_parks_only_on_the_other_columns() -> None:
    # 3C lies on 2C, which must follow the Ace: 3C must wait somewhere.  In Salic
    # Law it may wait on a vacant column at any time, but with one King there is
    # no other column.
    assert _blocked_and_truth("salic-law", "KS 2C 3C AC") == ((1,), "lost")
    assert _blocked_and_truth("salic-law", "KS 2C 3C AC KH") == (None, "won")
    # ... and only while the column still waits for its cards can it matter:
    # 3C must be parked before 5C and 4C bury it, so the other King must come first.
    assert _blocked_and_truth("salic-law", "KS KH 2C 3C AC 5C 4C") == (None, "won")
    assert _blocked_and_truth("salic-law", "KS 2C 3C AC 5C 4C KH") == ((1,), "lost")
    # One King, one pile: AD cannot open a second pile before KH is dealt.
    assert _blocked_and_truth("salic-law", "KS 2C AC AD 2D") == ((1,), "lost")
    assert _blocked_and_truth("salic-law", "KS 2C AC AD 2D KH") == (None, "won")


def test_a_column_parks_only_where_another_can_be_emptied() -> None:
    # Once the pack is dealt, 8C must wait on a vacant column for 7C under it to
    # follow 6C.  The only other column holds 9C, which needs an Eight up first,
    # so it can never be vacant in time: the relaxed game may not park 8C there.
    assert _blocked_and_truth("intrigue", "QS 7C 8C 6C QH 9C") == ((1,), "lost")
    assert _blocked_and_truth("glencoe", "QS 7C 8C 6C QH 9C") == ((1,), "lost")
    # 8D on 9C in column 2 needs 7C too: neither column can wait for the other.
    assert _blocked_and_truth("laggard-lady", "QS 7C 8C 6C QH 9C 8D") == ((1,), "lost")
    # A Five can always open a pile in Intrigue, which empties column 2 for 8C ...
    assert _blocked_and_truth("intrigue", "QS 7C 8C 6C QH 5C") == (None, "won")
    # ... and a third column, vacant, gives the place whatever column 2 holds.
    assert _blocked_and_truth("intrigue", "QS 7C 8C 6C QH 9C QD") == (None, "won")


def test_salic_law_parks_without_the_room_bound() -> None:
    # Salic Law parks 3C on the second column while it is still empty, before
    # 4C is dealt onto it: that column then holds a card of column 1 under its
    # own, so "vacant only once its own cards are up" does not hold there.
    assert _blocked_and_truth("salic-law", "KC 2C AC 3C KS 4C") == (None, "won")


def test_two_columns_can_be_blocked_where_neither_is_alone() -> None:
    # Each column clears with every other card free, but not the two together:
    # what each needs lies under what the other needs.
    position = Position.from_order("intrigue", ids("QD 5H 3H 5S 2S QH 7C 4H 8S 6S 6H"), "manual")
    games = list(relaxed_games(*as_types(position), together=2))
    assert [numbers for numbers, _ in games] == [(2,), (1,), (1, 2)]
    assert [game.clears(10**6, native=False)[0] for _, game in games] == [True, True, False]
    assert blocked_column(position) == (1, 2)
    assert brute_force(position) == "lost"
    assert solve(position).verdict == "lost"


def test_glencoe_opens_piles_by_suit() -> None:
    # No Queen of spades is ever dealt, so 6S can never open a pile, nor 7H
    # follow: the count rule (two Queens, two piles) does not see it, which is
    # why Glencoe's relaxed games are played by suit as well; in Laggard Lady,
    # whose count rule it is, the deal is won.
    position = Position.from_order("glencoe", ids("QH QH 6S 7H"), "manual")
    games = list(relaxed_games(*as_types(position)))
    assert [(numbers, bool(game.after_bases_by_suit)) for numbers, game in games] == [
        ((2,), False),
        ((2,), True),
    ]
    assert [game.clears(10**5, native=False)[0] for _, game in games] == [True, False]
    assert blocked_column(position) == (2,)
    assert brute_force(position) == "lost"
    twin = Position.from_order("laggard-lady", ids("QH QH 6S 7H"), "manual")
    assert blocked_column(twin) is None and brute_force(twin) == "won"
    # Once a Queen of spades comes, 6S may open a pile above it.
    position = Position.from_order("glencoe", ids("QH 6S 7H QS"), "manual")
    assert blocked_column(position) is None and brute_force(position) == "won"


def test_salic_law_keeps_columns_together() -> None:
    # Each column clears alone (its relaxed game sends up only its own Aces),
    # but the two columns' three Aces need three piles, and two Kings open two.
    position = Position.from_order("salic-law", ids("KD AC KC AD AC"), "manual")
    games = dict(relaxed_games(*as_types(position), together=2))
    assert [game.clears(10**6, native=False)[0] for game in games.values()] == [True, True, False]
    assert blocked_column(position) == (1, 2)
    assert brute_force(position) == "lost"
    assert solve(position).verdict == "lost"


def test_salic_law_moves_a_card_onto_an_emptied_chosen_column() -> None:
    # 3H covers 2H in column 1; the only other column is column 2, one of the
    # pair: the pair's game must let 3H wait there (once AC is up, or before,
    # under AC), where it has no other place at all.
    position = Position.from_order("salic-law", ids("KD 2H 3H KC AC"), "manual")
    pair = dict(relaxed_games(*as_types(position), together=2))[(1, 2)]
    assert pair.after_limits[1] == 0 and all(places == 0 for _, places in pair.deal_limits)
    assert pair.clears(10**6, native=False)[0] is True
    assert blocked_column(position) is None
    assert brute_force(position) == "won"


def test_salic_law_columns_kept_together_on_a_real_deal() -> None:
    # Salic Law 2268 (19 cards up at most in 100 million positions): every
    # column and pair clears, columns 1, 2 and 3 (6, 29 and 37 cards) do not.
    position = Position.start("salic-law", 2268, "manual")
    games = dict(relaxed_games(*as_types(position), together=3))
    assert all(
        games[numbers].clears(10**5, native=False)[0] for numbers in games if len(numbers) < 3
    )
    assert blocked_column(position) == (1, 2, 3)


def test_a_budget_for_each_game_reaches_a_proof_that_a_shared_one_does_not() -> None:
    # Salic Law 2268's columns 1, 2 and 3 need about 320 000 states: a shared
    # budget of 400 000 gives no game more than half of it, a budget for each does.
    position = Position.start("salic-law", 2268, "manual")
    assert blocked_column(position, max_states=400_000) is None
    heard: list[int] = []
    blocked, states = blocked_column_each(position, 400_000, on_game=heard.append)
    assert blocked == (1, 2, 3)
    assert heard == sorted(heard) and heard[-1] == states
    games = dict(relaxed_games(*as_types(position), together=3))
    assert games[1, 2, 3].clears(400_000)[0] is False
    # and a budget too small for that game proves nothing
    assert blocked_column_each(position, 100_000)[0] is None


def test_stats_column_only(tmp_path, capsys) -> None:
    out = tmp_path / "column.jsonl"
    argv = ["stats", "--game", "salic-law", "--mode", "manual", "--deals", "7228-7228"]
    assert main([*argv, "--column-only", "--max-nodes", "10000", "--out", str(out)]) == 0
    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["verdict"] == "lost" and record["search"] == "column"
    assert record["blocked"] == [1] and record["max_nodes"] == 10_000 and record["best"] is None
    assert "proved without an exhaustive search" in capsys.readouterr().out
    # its games kept in a checkpoint directory (the proof leaves none there)
    kept = tmp_path / "kept"
    again = [*argv, "--column-only", "--max-nodes", "10000", "--checkpoint", str(kept)]
    assert main(again) == 0 and not (kept / "salic-law-manual-7228").exists()
    assert main([*argv, "--order-only", "--checkpoint", str(kept)]) == 2
    assert "it goes with --layered or --column-only" in capsys.readouterr().err
    fq = ["stats", "--game", "faerie-queen", "--mode", "manual", "--deals", "1-1"]
    assert main([*fq, "--column-only"]) != 0
    assert "column test does not cover Faerie Queen" in capsys.readouterr().err
    assert main(["stats", "--game", "salic-law", "--deals", "1-1", "--column-only"]) != 0
    assert "for manual mode" in capsys.readouterr().err


def test_a_column_test_taken_up_again_plays_only_the_games_not_known() -> None:
    position = Position.start("salic-law", 2268, "manual")
    played: dict[Play, tuple[bool | None, int]] = {}
    first = blocked_column_each(
        position, 100_000, on_played=lambda p, c, n: played.update({p: (c, n)})
    )
    assert first[0] is None and len(played) > 100  # every game cleared or undecided
    assert {cleared for cleared, _ in played.values()} == {True, None}
    # all known: nothing played again, and the same states told
    again: list[Play] = []
    assert (
        blocked_column_each(
            position, 100_000, known=played, on_played=lambda p, *_: again.append(p)
        )
        == first
    )
    assert again == []
    # half known: the other half played, the same answer and states
    half = dict(list(played.items())[: len(played) // 2])
    assert (
        blocked_column_each(position, 100_000, known=half, on_played=lambda p, *_: again.append(p))
        == first
    )
    assert sorted(again) == sorted(set(played) - set(half))
    # a larger budget plays again only what did not clear, and finds the proof
    again.clear()
    blocked, _ = blocked_column_each(
        position, 400_000, known=played, on_played=lambda p, *_: again.append(p)
    )
    assert blocked == (1, 2, 3)
    cleared = {(columns, by_suit) for (columns, by_suit, _), (c, _) in played.items() if c}
    assert not {(columns, by_suit) for columns, by_suit, _ in again} & cleared
    # a blocked play is the proof: never taken as known, it is played again
    proof = {p: (False, n) for p, n in [(again[-1], 1)]}
    assert blocked_column_each(position, 400_000, known=proof)[0] == (1, 2, 3)


def test_stats_column_only_keeps_its_games_and_goes_on_from_them(tmp_path: Path) -> None:
    out, kept = tmp_path / "column.jsonl", tmp_path / "kept"
    games = kept / "salic-law-manual-2268" / COLUMN_GAMES
    run = partial(run_stats, "salic-law", 2268, 2268, mode="manual", jobs=1, search="column")
    straight = run(max_nodes=100_000, out=tmp_path / "straight.jsonl")

    def stop_after(games_played: int) -> Callable[[int, int], None]:
        heard = 0

        def on_search(_deal: int, _states: int) -> None:
            nonlocal heard
            heard += 1
            if heard == games_played:
                raise KeyboardInterrupt

        return on_search

    with pytest.raises(KeyboardInterrupt):
        run(max_nodes=100_000, out=out, checkpoint=kept, on_search=stop_after(60))
    assert not out.exists() or out.read_text() == ""
    assert len(kept_column_games(games)) == 60  # every game played before it stopped
    # a line cut short by a kill, and one of another version, are played again
    lines = games.read_text().splitlines()
    old = json.loads(lines[0]) | {"version": RELAXED_VERSION - 1}
    games.write_text("\n".join([json.dumps(old), *lines[1:], lines[1][:20]]))
    assert len(kept_column_games(games)) == 59
    summary = run(max_nodes=100_000, out=out, checkpoint=kept)
    assert summary["unknown"] == 1 and summary["nodes"] == straight["nodes"]
    (record,) = map(json.loads, out.read_text().splitlines())
    assert record["nodes"] == json.loads((tmp_path / "straight.jsonl").read_text())["nodes"]
    assert len(kept_column_games(games)) == len(games.read_text().splitlines()) - 1 > 150
    # a larger budget goes on from the games kept, and a proof empties the directory
    assert run(max_nodes=400_000, out=out, checkpoint=kept)["lost"] == 1
    assert list(kept.iterdir()) == []
    with pytest.raises(ValueError, match="checkpoint keeps the search by layers or the column"):
        run(max_nodes=10, search="order", checkpoint=kept)


def test_four_columns_kept_together_on_a_real_deal() -> None:
    # Salic Law 3820 (19 cards up at most): every set of up to three columns
    # clears, and columns 1, 2, 4 and 5 together do not.
    position = Position.start("salic-law", 3820, "manual")
    games = dict(relaxed_games(*as_types(position), together=4))
    assert all(game.clears(10**6)[0] for numbers, game in games.items() if len(numbers) < 4)
    assert blocked_column(position, max_states=3_000_000) == (1, 2, 4, 5)


def _blocked_and_truth(game: str, cards: str) -> tuple[tuple[int, ...] | None, str]:
    position = Position.from_order(game, ids(cards), "manual")
    return blocked_column(position), brute_force(position)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(UNBUILT), st.integers(1, 400), st.lists(st.integers(0, 1000), max_size=80))
def test_never_blocks_a_won_manual_deal(game: str, deal: int, picks: list[int]) -> None:
    # Every position on a winning line is winnable: the test must pass all of them.
    position = random_position(game, deal, "manual", picks)
    result = solve(position, max_nodes=200_000, column_test=False)
    event(result.verdict)
    if result.verdict != "won":
        return
    assert result.moves is not None
    for move in result.moves:
        assert blocked_column(position, max_states=20_000) is None, f"{game} {deal} at {move}"
        position = position.apply(move)


@example(game="salic-law", deal=7228)
@given(st.sampled_from(UNBUILT), st.integers(1, 10_000))
def test_search_state_and_position_give_the_same_test(game: str, deal: int) -> None:
    # column_test reads the solver's compact state as well as a Position.
    position = Position.start(game, deal, "manual")
    tables = tables_for(position.variant)
    state = SearchState(position, tables)
    stock = [tables.type_of[c] for c in position.stock]
    bases = [col[0] for col in position.columns]
    bases += [c for c in position.stock if RANK_OF[c] == tables.base_rank]
    suits = [SUIT_OF[c] for c in bases]
    expected = blocked_column(position, max_states=50_000)
    on = state.cnt[:N_TYPES]
    assert column_test(tables, state.cols, on, stock, suits, max_states=50_000)[0] == expected


def test_salic_law_deals_stuck_in_their_first_column() -> None:
    # The published unknowns that the column test proves lost: the exhaustive
    # search alone does not decide them within millions of positions.
    for deal in (7228, 3679, 6543):
        position = Position.start("salic-law", deal, "manual")
        assert blocked_column(position) == (1,)
        result = solve(position, max_nodes=2_000_000)
        assert (result.verdict, result.blocked, result.moves) == ("lost", (1,), None)
        plain = solve(position, max_nodes=200_000, column_test=False, probe=False)
        assert plain.verdict == "unknown"


def test_won_deals_in_the_published_data_are_never_blocked() -> None:
    # Every deal the data says is won (by a replayed line) must pass the test.
    with gzip.open(DATA / "stats-salic-law-manual.jsonl.gz", "rt") as f:
        won = [r["deal"] for r in map(json.loads, f) if r["verdict"] == "won"][:300]
    for deal in won:
        assert (
            blocked_column(Position.start("salic-law", deal, "manual"), max_states=20_000) is None
        )


def test_faerie_queen_is_not_covered() -> None:
    # Building down lets a column's card leave onto any card one rank higher.
    position = Position.from_order("faerie-queen", ids("KS 2C AC 3C"), "manual")
    assert blocked_column(position) is None


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(UNBUILT),
    st.integers(1, 10_000),
    st.lists(st.integers(0, 50), max_size=30),
    st.sampled_from((500, 5_000, 50_000)),
)
def test_a_test_spending_under_half_its_states_cleared_every_game(
    game: str, deal: int, picks: list[int], max_states: int
) -> None:
    """column_test's promise, which the frontier proof's second tries rest on:
    a test that spends less than half its states leaves no relaxed game
    undecided, so more states cannot change its answer."""
    position = random_position(game, deal, "manual", picks)
    args = as_types(position)
    proof, spent = column_test(*args, max_states=max_states)
    event(f"blocked: {proof is not None}, under half: {spent < max_states // 2}")
    if proof is None and spent < max_states // 2:
        for numbers, relaxed in relaxed_games(*args, together=TOGETHER):
            cleared, _ = relaxed.clears(max_states)
            assert cleared is True, f"columns {numbers} undecided in a test that spent {spent}"
