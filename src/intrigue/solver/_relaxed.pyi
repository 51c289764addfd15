from typing import Protocol

class _Game(Protocol):
    prev: tuple[int, ...]
    rank_of: tuple[int, ...]
    suit_of: tuple[int, ...]
    slots: tuple[int, ...]
    stacks: tuple[tuple[int, ...], ...]
    deal: tuple[int, ...]
    deal_columns: tuple[int, ...]
    deal_limits: tuple[tuple[int, int], ...]
    on: tuple[int, ...]
    free: tuple[int, ...]
    later: list[int]
    after_limits: tuple[int, int]
    parking_back: bool
    room_counts: list[list[int]] | None
    deal_bases_by_suit: tuple[tuple[int, ...], ...]
    after_bases_by_suit: tuple[int, ...]

def clears(
    relaxed: _Game, max_states: int, deadline: float | None, /
) -> tuple[bool | None, int]: ...
