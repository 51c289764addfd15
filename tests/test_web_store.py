"""The SQLite store and the settings, without HTTP."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from intrigue.web.settings import DEFAULT_PORT, Settings, SettingsError, default_db_path
from intrigue.web.store import MIGRATIONS, GameRecord, Store


def record(gid: str, player: str = "p" * 20, started: float = 1.0, **kw: object) -> GameRecord:
    return GameRecord(id=gid, player=player, game="intrigue", deal=42, mode="auto",
                      started=started, updated=started, **kw)  # type: ignore[arg-type]  # fmt: skip


def test_migrations_set_user_version_once(tmp_path: Path) -> None:
    path = tmp_path / "db" / "games.sqlite3"
    store = Store(path)
    assert store.schema_version == len(MIGRATIONS)
    store.add(record("a"))
    store.close()
    store = Store(path)  # reopening runs no migration again and keeps the data
    assert store.schema_version == len(MIGRATIONS)
    assert store.get("a", "p" * 20) is not None
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


def test_round_trip_and_ownership(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.sqlite3")
    r = record("a")
    r.deal = 10**20 - 1  # beyond SQLite's 64-bit integers: stored as text
    store.add(r)
    r.moves, r.redo, r.played = ["7-1", "2f"], ["3f"], True
    store.save(r)
    assert store.get("a", "p" * 20) == r
    assert store.get("a", "q" * 20) is None
    store.close()


def test_a_failed_transaction_changes_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.sqlite3")
    store.add(record("a"))
    with pytest.raises(sqlite3.IntegrityError):
        store.add(record("a"))  # same id
    assert store.current("p" * 20) == record("a")
    store.close()


def test_streaks(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.sqlite3")
    results = [True, True, False, True, True, True, False, True]
    for i, won in enumerate(results):
        store.add(record(f"g{i}", started=float(i), played=True, won=won,
                         win_moves=50 + i if won else None, win_seconds=100.0 - i if won else None))  # fmt: skip
    # The newest game is in progress (not won): it does not count yet.
    store.add(record("now", started=99.0, played=True))
    (row,) = store.stats("p" * 20)
    assert (row.played, row.won) == (8, 6)
    assert (row.current_streak, row.best_streak) == (1, 3)
    assert row.fewest_moves == 50 and row.best_seconds == 93.0
    assert row.win_percent == 75.0
    store.close()


def test_settings_from_env(tmp_path: Path) -> None:
    s = Settings.from_env({"INTRIGUE_DB": str(tmp_path / "x.db"), "INTRIGUE_PORT": "9000",
                           "INTRIGUE_HINT_NODES": "1000"})  # fmt: skip
    assert s.db_path == tmp_path / "x.db" and s.port == 9000 and s.hint_nodes == 1000
    assert Settings.from_env({}).port is None and DEFAULT_PORT == 8642
    assert default_db_path({"XDG_DATA_HOME": "/data"}) == Path("/data/intrigue/intrigue.sqlite3")
    with pytest.raises(SettingsError, match="INTRIGUE_PORT 'http'"):
        Settings.from_env({"INTRIGUE_PORT": "http"})
    with pytest.raises(SettingsError, match="INTRIGUE_PORT '70000'"):
        Settings.from_env({"INTRIGUE_PORT": "70000"})
