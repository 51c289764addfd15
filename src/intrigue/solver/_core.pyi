from collections.abc import Callable
from typing import Literal

from intrigue.solver.state import SearchState

def search(
    state: SearchState,
    max_nodes: int | None = None,
    deadline: float | None = None,
    on_progress: Callable[[int], None] | None = None,
    safe_moves: bool = True,
) -> tuple[Literal["won", "lost", "unknown"], int, int, list[int] | None]: ...
