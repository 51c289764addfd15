"""Regenerate golden.txt: the fast solver's verdicts, each cross-checked by brute force.

    python tests/data/solver/make_golden.py > tests/data/solver/golden.txt

For every game, mode and deal below, the verdict of ``intrigue.solver.solve`` is
compared with an independent brute-force search that uses only the engine
(``Position.legal_moves`` / ``Position.apply``, the ``Position`` itself -- card
ids, real column order, real pile slots -- as the visited-set key, no safe moves,
no symmetry).  A deal is written only if the brute force decides it within its
node budget and agrees; a disagreement stops the script.
"""

from __future__ import annotations

import sys

from intrigue.position import Position
from intrigue.solver import solve
from intrigue.variants import GAME_IDS

BUDGET = 60_000
DEALS = range(1, 41)


def brute_force(position: Position, budget: int = BUDGET) -> str:
    """'won', 'lost', or 'unknown' when more than ``budget`` positions were seen."""
    if position.is_won():
        return "won"
    seen = {position}
    path = [position]
    stack = [iter(list(position.legal_moves()))]
    while stack:
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            path.pop()
            continue
        child = path[-1].apply(move)
        if child.is_won():
            return "won"
        if child in seen:
            continue
        seen.add(child)
        if len(seen) > budget:
            return "unknown"
        path.append(child)
        stack.append(iter(list(child.legal_moves())))
    return "lost"


def main() -> None:
    print("# game deal mode verdict -- written by tests/data/solver/make_golden.py:")
    print("# the fast solver's verdict, kept only where an engine-only brute-force search")
    print(f"# (no pruning, no canonical keys, <= {BUDGET} positions) decided the deal and agreed.")
    for game in GAME_IDS:
        for mode in ("auto", "manual"):
            for deal in DEALS:
                position = Position.start(game, deal, mode)
                fast = solve(position).verdict
                slow = brute_force(position)
                if slow == "unknown":
                    continue
                if slow != fast:
                    sys.exit(f"MISMATCH {game} {deal} {mode}: solver {fast}, brute force {slow}")
                print(f"{game} {deal} {mode} {fast}", flush=True)


if __name__ == "__main__":
    main()
