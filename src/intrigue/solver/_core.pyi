from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from intrigue.solver.state import SearchState

def search(
    state: SearchState,
    max_nodes: int | None = None,
    deadline: float | None = None,
    on_progress: Callable[[int], None] | None = None,
    safe_moves: bool = True,
) -> tuple[Literal["won", "lost", "unknown"], int, int, list[int] | None]: ...
def hold_back(
    state: SearchState,
    origins: Sequence[Sequence[int]],
    held: Iterable[int],
    newest_first: bool = False,
    max_nodes: int | None = None,
    deadline: float | None = None,
    safe_moves: bool = True,
) -> tuple[Literal["won", "lost", "unknown"], int, int, list[int], int, list[int] | None]: ...
