"""Nested rollout policy adaptation over the deal: a manual-mode probe.

A *rollout* plays the rest of the deal from a manual position by legal moves
chosen at random -- at each step: send one of the cards that can go up, deal
the next card, or (Salic Law) park a card on a vacant column -- under a
*policy*, one weight per choice (a card sent up or parked, by its place in the
stock; a deal, by the number of cards dealt).  When the pack is dealt a small
exact search finishes it.  Its *score* is the most cards that search brought
up.  Nested rollout policy adaptation (Rosin, "Nested Rollout Policy
Adaptation for Monte Carlo Tree Search", IJCAI 2011) learns the policy: level
0 is one rollout; level *n* runs level *n - 1* again and again, each time
moving the policy towards the best sequence of choices found so far at this
level.  Restarts from an empty policy go on until the budget is spent.

It finds the wins that the depth-first search misses for the same reason as
the beams of ``search.py``: they need early decisions (a card held back while
its twin takes the pile).  Unlike a beam it keeps no frontier, and it learns
*which* cards to hold from the best lines, so the decisions it combines may
lie far apart in the deal.  Measured in ``docs/solver.md`` ("Rollouts over
the deal").

A rollout is made of legal moves only, and a win is replayed through the
engine by :func:`~intrigue.solver.search.solve` like any other; a rollout
proves nothing about a loss.  The generator is seeded, so a solve is
repeatable.  Where the compiled search is built, a whole run is played by
``_core.rollouts``, draw for draw the same as the Python here, which stays the
specification (3 to 30 times slower: it plays each rollout's moves in Python).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from intrigue.position import Position
from intrigue.solver.rules import Tables
from intrigue.solver.state import (
    COLUMN_MOVE,
    DEAL_CODE,
    Search,
    SearchState,
    play_tracked,
    stock_indices,
)

try:
    from intrigue.solver import _core
except ImportError:  # installed without a C compiler: the runs are played here
    NATIVE = False
else:
    NATIVE = True

LEVEL = 3
"""Nesting level of each run: level 3 is ``ITERATIONS ** 3`` rollouts."""
ITERATIONS = 12
"""Runs of level ``n - 1`` within one of level ``n``."""
END_NODES = 500
"""Positions the exact search may use to finish one rollout once the pack is
dealt (the default of ``end_nodes``, which the published records use; the card
table's hints use 5 000, ``Settings.rollout_end_nodes``).  An end position that
needs a long dig can need more before its score means anything: with 5 000 the
rollouts won deals of four games that every seed had left at 500
(docs/solver.md, "Larger end searches")."""
SEND_BIAS = 2.0
"""Starting weight of sending a card up, against 0 for a deal or a parking
move: an empty policy sends a card up seven times in eight, near the auto deal."""
ALPHA = 1.0
"""How far one adaptation moves the policy towards the best sequence."""
SEED = 20111
"""Seed of the generator (any fixed value: a solve must be repeatable)."""

_SEND, _DEAL, _PARK = 0, 1, 2


class Rollouts:
    """Runs of nested rollout policy adaptation from one manual ``position``
    (``level``, ``iterations``, ``seed`` and ``end_nodes`` as the module's
    constants, which ``solve`` uses by default; the benchmark varies them).
    ``compiled``: play the runs in ``_core.rollouts`` where it is built (its end
    searches are then the compiled search, whatever ``search`` is); the same
    draws, positions and lines.

    ``used`` counts every move a rollout played and every position its end
    search expanded; ``best`` is the most cards up any rollout saw.
    """

    def __init__(
        self,
        position: Position,
        tables: Tables,
        search: Search,
        options: dict[str, bool],
        safe_moves: bool,
        deadline: float | None,
        on_progress: Callable[[int], None] | None,
        *,
        level: int = LEVEL,
        iterations: int = ITERATIONS,
        seed: int = SEED,
        end_nodes: int = END_NODES,
        compiled: bool = True,
    ) -> None:
        if end_nodes < 1:
            raise ValueError(f"end_nodes must be positive, not {end_nodes}")
        self.compiled = compiled and NATIVE
        self.end_nodes = end_nodes
        self.level = level
        self.iterations = iterations
        self.state = SearchState(position, tables, **options)
        self.start = self.state.snapshot()
        self.origins = stock_indices(position)
        self.search = search
        self.safe_moves = safe_moves
        self.deadline = deadline
        self.on_progress = on_progress
        self.rng = random.Random(seed)
        self.used = 0
        self.best = 0
        self.cap = 0
        # Enough for any deal: each card is dealt once, sent up once and, in
        # Salic Law, parked a few times; a rollout longer than this stops.
        self.max_moves = 4 * self.state.n_order
        # What a rollout may play at most (past the cap, the safe cards going up).
        self.longest = self.max_moves + self.state.n_order

    def run(self, budget: int) -> tuple[int, ...] | None:
        """Restart runs until one wins (its undo-log operations from the
        position) or ``budget`` positions are spent."""
        self.cap = self.used + budget
        if self.compiled:
            return self._run_compiled(budget)
        try:
            while True:
                self._nested(self.level, {})
        except _Won as won:
            return won.ops
        except _Spent:
            return None

    def _run_compiled(self, budget: int) -> tuple[int, ...] | None:
        self.state.restore(self.start)
        version, words, gauss = self.rng.getstate()
        ops, self.used, self.best, words = _core.rollouts(
            self.state,
            self.origins,
            words,
            self.used,
            budget,
            self.best,
            self.level,
            self.iterations,
            self.end_nodes,
            self.max_moves,
            self.longest,
            SEND_BIAS,
            ALPHA,
            self.deadline,
            self.on_progress,
            self.safe_moves,
        )
        self.rng.setstate((version, words, gauss))
        return None if ops is None else tuple(ops)

    def _nested(self, level: int, policy: dict[int, float]) -> tuple[int, list[_Choice]]:
        if level == 0:
            return self._rollout(policy)
        best_score, best_choices = -1, []
        for _ in range(self.iterations):
            score, choices = self._nested(level - 1, policy)
            if score >= best_score:
                best_score, best_choices = score, choices
            policy = _adapt(policy, best_choices)
        return best_score, best_choices

    def _rollout(self, policy: dict[int, float]) -> tuple[int, list[_Choice]]:
        deadline = self.deadline
        if self.used + self.end_nodes + self.longest > self.cap or (
            deadline is not None and time.monotonic() >= deadline
        ):
            raise _Spent
        state = self.state
        state.restore(self.start)
        cols = state.cols
        origins = [o[:] for o in self.origins]
        choices: list[_Choice] = []
        played = 0
        # Stock places of the cards moved between columns since the last deal
        # or pile move (Salic Law): not moved again before one (_unmoved).
        moved: set[int] = set()

        n_order = state.n_order
        safe_moves = self.safe_moves
        while state.dealt < n_order and played < self.max_moves:
            for i in range(len(cols) if safe_moves else 0):
                while cols[i] and state.safe_top(cols[i]):
                    play_tracked(state, origins, i)
                    played += 1
                    moved.clear()
            moves = _unmoved(state.moves(), origins, moved)
            if len(moves) > 1:
                names = tuple(_name(code, origins, state.dealt) for code in moves)
                pick = self.rng.choices(range(len(moves)), _odds(policy, names))[0]
                choices.append(_Choice(names[pick], names))
                code = moves[pick]
            elif moves:
                code = moves[0]
            else:
                break
            if code >= COLUMN_MOVE:
                moved.add(origins[(code - COLUMN_MOVE) // 8][-1])
            else:
                moved.clear()
            play_tracked(state, origins, code)
            played += 1
        verdict, nodes, best = self.search(state, self.end_nodes, deadline, None, safe_moves)
        self.used += played + nodes
        self.best = max(self.best, best)
        if self.on_progress is not None:
            self.on_progress(self.used)
        if verdict == "won":
            raise _Won(tuple(state.log))
        return best, choices


class _Choice:
    """One decision of a rollout: the name chosen, among the names of every move there."""

    __slots__ = ("chosen", "names")

    def __init__(self, chosen: int, names: tuple[int, ...]) -> None:
        self.chosen = chosen
        self.names = names


class _Won(Exception):
    def __init__(self, ops: tuple[int, ...]) -> None:
        self.ops = ops


class _Spent(Exception):
    pass


def _unmoved(moves: list[int], origins: list[list[int]], moved: set[int]) -> list[int]:
    """``moves`` without the column moves of a card in ``moved``.

    A rollout need not try every line, and moving a card twice between columns
    with no deal or pile move in between seldom gets it anywhere one move could
    not.  Without this, since a card's parking moves share one name in the
    policy, a policy that had learned to park a card shuttled it between vacant
    columns until the rollout ran out of moves: 85% of the Salic Law rollouts
    measured ended so, mid-deal, scored by a 500-position search from there
    (docs/solver.md, "Rollouts over the deal").
    """
    if not moved:
        return moves
    return [m for m in moves if m < COLUMN_MOVE or origins[(m - COLUMN_MOVE) // 8][-1] not in moved]


def _name(code: int, origins: list[list[int]], dealt: int) -> int:
    """A move's name in the policy: what it does to which card of the stock,
    whatever column the card lies in now."""
    if code < DEAL_CODE:
        return 3 * origins[code][-1] + _SEND
    if code == DEAL_CODE:
        return 3 * dealt + _DEAL
    return 3 * origins[(code - COLUMN_MOVE) // 8][-1] + _PARK


def _prior(name: int) -> float:
    return SEND_BIAS if name % 3 == _SEND else 0.0


def _odds(policy: dict[int, float], names: tuple[int, ...]) -> list[float]:
    """Each name's weight under ``policy``, exponentiated (scaled so the largest is 1)."""
    weights = [policy.get(name, _prior(name)) for name in names]
    top = max(weights)
    return [math.exp(w - top) for w in weights]


def _adapt(policy: dict[int, float], choices: list[_Choice]) -> dict[int, float]:
    """The policy moved towards ``choices``: each chosen name gains ``ALPHA``,
    and every name offered with it loses ``ALPHA`` times its probability under
    ``policy`` (so that the chosen sequence grows likelier as a whole)."""
    adapted = dict(policy)
    for choice in choices:
        odds = _odds(policy, choice.names)
        total = 0.0
        for odd in odds:  # in order, as _core.rollouts adds them (sum() may not)
            total += odd
        for name, odd in zip(choice.names, odds, strict=True):
            adapted[name] = adapted.get(name, _prior(name)) - ALPHA * odd / total
        adapted[choice.chosen] = adapted.get(choice.chosen, _prior(choice.chosen)) + ALPHA
    return adapted
