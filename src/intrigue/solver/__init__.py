"""The exact solver: can this position still be won, and how?

>>> from intrigue.position import Position
>>> from intrigue.solver import solve
>>> result = solve(Position.start("intrigue", 1))
>>> result.verdict, len(result.moves) > 0
('won', True)

See ``docs/solver.md`` for the algorithm and the proof of every shortcut.
"""

from intrigue.solver.dfs import Verdict
from intrigue.solver.search import (
    DEFAULT_MAX_NODES,
    SolverBugError,
    SolveResult,
    replay,
    solve,
)

__all__ = ["DEFAULT_MAX_NODES", "SolveResult", "SolverBugError", "Verdict", "replay", "solve"]
