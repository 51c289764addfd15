"""The coding of the records the search by layers keeps on disk (``_records.h``).

Each record is coded against the one before it in its file, its new columns
through a small table of the columns met; whatever the records, they must read
back exactly as written, and a damaged stream must be refused, not misread.
"""

from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from intrigue.solver.dfs import NATIVE

needs_core = pytest.mark.skipif(not NATIVE, reason="the compiled search is not built")

RECORD = struct.Struct("<8IBBHI")  # columns' trie ids, dealt, on, class, parent entry
NO_COLUMN = 0xFFFFFFFF

# Few ids, so that columns repeat (kept, met in the table, or colliding in
# it), and the extremes a search can hold: the empty column, NO_COLUMN, the
# largest trie id and a parent of NO_ENTRY.
ids = st.one_of(st.integers(0, 40), st.sampled_from([NO_COLUMN, 0x7FFFFFFF, 200, 16_383]))
records = st.tuples(
    st.lists(ids, min_size=8, max_size=8),
    st.integers(0, 104),
    st.integers(0, 104),
    st.integers(0, 0xFFFF),
    st.one_of(st.integers(0, 5), st.integers(0, 0xFFFFFFFF)),
)


def pack(recs: list[tuple[list[int], int, int, int, int]]) -> bytes:
    return b"".join(
        RECORD.pack(*cols, dealt, on, cls, parent) for cols, dealt, on, cls, parent in recs
    )


def core():  # type: ignore[no-untyped-def]
    from intrigue.solver import _core

    return _core


@needs_core
@given(st.lists(records, max_size=60), st.data())
def test_records_read_back_as_written(recs: list, data: st.DataObject) -> None:
    # and records like the search's: the one before with a column or two
    # changed, or its columns in another order
    for k in range(1, len(recs)):
        if data.draw(st.booleans()):
            cols = list(recs[k - 1][0])
            for i in data.draw(st.lists(st.integers(0, 7), max_size=3)):
                cols[i] = data.draw(ids)
            if data.draw(st.booleans()):
                cols = data.draw(st.permutations(cols))
            recs[k] = (
                cols,
                *recs[k - 1][1:4],
                recs[k - 1][4] + data.draw(st.integers(0, 3)) & 0xFFFFFFFF,
            )
    raw = pack(recs)
    coded = core().code_records(raw)
    assert core().read_records(coded) == raw


@needs_core
def test_like_records_take_a_fraction_of_their_size() -> None:
    # a position's moves: the same parent, two columns new, one often met before
    base = [1, 5, 9, 300, 4000, 9000, 12000, NO_COLUMN]
    recs = []
    for k in range(1000):
        cols = list(base)
        cols[k % 7] = 20_000 + k % 13
        cols[(k * 3) % 7 + 1] = 30_000 + k
        recs.append((sorted(cols), 90, 20, 777, 5000 + k // 4))
    raw = pack(recs)
    coded = core().code_records(raw)
    assert core().read_records(coded) == raw
    assert len(coded) < len(raw) / 4


@needs_core
def test_damaged_records_are_refused() -> None:
    raw = pack([([1, 2, 3, 4, 5, 6, 7, 8], 90, 20, 3, 4), ([1, 2, 3, 4, 5, 6, 7, 9], 90, 20, 3, 5)])
    coded = core().code_records(raw)
    with pytest.raises(ValueError, match="record 0 .* damaged or cut short"):
        core().read_records(coded[1:])  # no whole record to begin from
    with pytest.raises(ValueError, match="record 1 .* damaged or cut short"):
        core().read_records(coded[:-1])  # the last cut short
    with pytest.raises(ValueError, match="record 2 .* damaged or cut short"):
        core().read_records(coded + b"\xff")  # flags that mean nothing
    with pytest.raises(ValueError, match="not whole records of 40"):
        core().code_records(raw[:-1])
