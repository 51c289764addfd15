from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from intrigue.solver.state import SearchState

class CheckpointError(ValueError): ...

def search(
    state: SearchState,
    max_nodes: int | None = None,
    deadline: float | None = None,
    on_progress: Callable[[int], None] | None = None,
    safe_moves: bool = True,
) -> tuple[Literal["won", "lost", "unknown", "memory"], int, int, list[int] | None]: ...
def layered(
    state: SearchState,
    max_nodes: int | None = None,
    deadline: float | None = None,
    on_progress: Callable[[int], None] | None = None,
    safe_moves: bool = True,
    trace: bool = True,
    part_records: int = ...,
    max_entries: int = ...,
    save_dir: str | None = None,
    save_every: float = 600.0,
) -> tuple[
    Literal["won", "won_untraced", "lost", "unknown", "memory"], int, int, list[int] | None
]: ...
def code_records(raw: bytes, /) -> bytes: ...
def read_records(coded: bytes, /) -> bytes: ...
def hold_back(
    state: SearchState,
    origins: Sequence[Sequence[int]],
    held: Iterable[int],
    newest_first: bool = False,
    max_nodes: int | None = None,
    deadline: float | None = None,
    safe_moves: bool = True,
) -> tuple[Literal["won", "lost", "unknown"], int, int, list[int], int, list[int] | None]: ...
def rollouts(
    state: SearchState,
    origins: Sequence[Sequence[int]],
    rng_state: tuple[int, ...],
    used: int,
    budget: int,
    best: int,
    level: int,
    iterations: int,
    end_nodes: int,
    max_moves: int,
    longest: int,
    send_bias: float,
    alpha: float,
    deadline: float | None = None,
    on_progress: Callable[[int], None] | None = None,
    safe_moves: bool = True,
) -> tuple[list[int] | None, int, int, tuple[int, ...]]: ...
