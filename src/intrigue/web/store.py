"""SQLite persistence of games and the statistics derived from them.

One table of games: the moves (and the redo stack) are stored, never a
position, and the game is rebuilt by replaying them, so a stored game can
never hold an impossible position.  Every change is written at once, so a game
survives a page reload and a server restart.

The schema version lives in ``PRAGMA user_version``; :data:`MIGRATIONS` lists
the SQL that takes the database from version *i* to *i + 1*.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MIGRATIONS: tuple[str, ...] = (
    # 0 -> 1: the games table.  ``deal`` is TEXT because deal numbers go up to
    # 10**20 - 1, beyond SQLite's 64-bit INTEGER.
    """
    CREATE TABLE games (
        id          TEXT PRIMARY KEY,
        player      TEXT NOT NULL,
        game        TEXT NOT NULL,
        deal        TEXT NOT NULL,
        mode        TEXT NOT NULL,
        moves       TEXT NOT NULL DEFAULT '[]',
        redo        TEXT NOT NULL DEFAULT '[]',
        started     REAL NOT NULL,
        updated     REAL NOT NULL,
        played      INTEGER NOT NULL DEFAULT 0,
        won         INTEGER NOT NULL DEFAULT 0,
        finished    REAL,
        win_moves   INTEGER,
        win_seconds REAL
    );
    CREATE INDEX games_by_player ON games (player, started);
    """,
)


@dataclass
class GameRecord:
    """One stored game.  ``played`` turns on with the first move and stays on;
    ``won``/``finished``/``win_*`` record the first time the deal was won."""

    id: str
    player: str
    game: str
    deal: int
    mode: str
    started: float
    updated: float
    moves: list[str] = field(default_factory=list)
    redo: list[str] = field(default_factory=list)
    """The moves ``redo`` would replay, next first."""
    played: bool = False
    won: bool = False
    finished: float | None = None
    win_moves: int | None = None
    win_seconds: float | None = None


@dataclass(frozen=True)
class StatsRow:
    """Statistics of one player for one game and deal mode."""

    game: str
    mode: str
    played: int
    won: int
    current_streak: int
    best_streak: int
    fewest_moves: int | None
    best_seconds: float | None

    @property
    def win_percent(self) -> float:
        return round(100.0 * self.won / self.played, 1) if self.played else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "mode": self.mode,
            "played": self.played,
            "won": self.won,
            "win_percent": self.win_percent,
            "current_streak": self.current_streak,
            "best_streak": self.best_streak,
            "fewest_moves": self.fewest_moves,
            "best_seconds": self.best_seconds,
        }


_COLUMNS = (
    "id, player, game, deal, mode, moves, redo, started, updated, played, won, "
    "finished, win_moves, win_seconds"
)


class Store:
    """The games database.  Safe to share between threads: one connection,
    guarded by a lock, each call its own explicit transaction."""

    def __init__(self, path: Path | str) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: no implicit transactions; every write below
        # says BEGIN IMMEDIATE ... COMMIT itself.
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._migrate()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _migrate(self) -> None:
        with self._transaction() as db:
            (version,) = db.execute("PRAGMA user_version").fetchone()
            for number in range(version, len(MIGRATIONS)):
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {number + 1}")

    @property
    def schema_version(self) -> int:
        with self._lock:
            return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    # ---------------------------------------------------------------- games

    def add(self, record: GameRecord) -> None:
        with self._transaction() as db:
            db.execute(
                f"INSERT INTO games ({_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                _to_row(record),
            )

    def save(self, record: GameRecord) -> None:
        """Write every field of ``record`` back (the id and player never change)."""
        with self._transaction() as db:
            row = _to_row(record)
            db.execute(
                "UPDATE games SET game=?, deal=?, mode=?, moves=?, redo=?, started=?, updated=?, "
                "played=?, won=?, finished=?, win_moves=?, win_seconds=? WHERE id=? AND player=?",
                (*row[2:], record.id, record.player),
            )

    def get(self, game_id: str, player: str) -> GameRecord | None:
        """The game ``game_id`` if it belongs to ``player`` (another player's game is None too)."""
        with self._lock:
            row = self._db.execute(
                f"SELECT {_COLUMNS} FROM games WHERE id=? AND player=?", (game_id, player)
            ).fetchone()
        return _from_row(row) if row else None

    def current(self, player: str) -> GameRecord | None:
        """The player's newest game: the one a reload restores."""
        with self._lock:
            row = self._db.execute(
                f"SELECT {_COLUMNS} FROM games WHERE player=? ORDER BY started DESC, rowid DESC "
                "LIMIT 1",
                (player,),
            ).fetchone()
        return _from_row(row) if row else None

    # ---------------------------------------------------------------- stats

    def stats(self, player: str) -> list[StatsRow]:
        """Statistics per game and mode.

        A game counts once it is won, or once it was played (a move made) and
        the player has since started another game: the game in progress is
        neither a win nor a loss yet.
        """
        current = self.current(player)
        with self._lock:
            rows = self._db.execute(
                "SELECT id, game, mode, won, win_moves, win_seconds FROM games "
                "WHERE player=? AND (played=1 OR won=1) ORDER BY started, rowid",
                (player,),
            ).fetchall()
        groups: dict[tuple[str, str], list[tuple[bool, int | None, float | None]]] = {}
        for game_id, game, mode, won, moves, seconds in rows:
            if not won and current is not None and game_id == current.id:
                continue
            groups.setdefault((game, mode), []).append((bool(won), moves, seconds))
        out = []
        for (game, mode), results in sorted(groups.items()):
            best = run = 0
            for won, _, _ in results:
                run = run + 1 if won else 0
                best = max(best, run)
            wins = [(m, s) for w, m, s in results if w]
            out.append(
                StatsRow(
                    game=game,
                    mode=mode,
                    played=len(results),
                    won=len(wins),
                    current_streak=run,
                    best_streak=best,
                    fewest_moves=min((m for m, _ in wins if m is not None), default=None),
                    best_seconds=min((s for _, s in wins if s is not None), default=None),
                )
            )
        return out


def _to_row(r: GameRecord) -> tuple[Any, ...]:
    return (
        r.id, r.player, r.game, str(r.deal), r.mode, json.dumps(r.moves), json.dumps(r.redo),
        r.started, r.updated, int(r.played), int(r.won), r.finished, r.win_moves, r.win_seconds,
    )  # fmt: skip


def _from_row(row: tuple[Any, ...]) -> GameRecord:
    (gid, player, game, deal, mode, moves, redo, started, updated, played, won, finished,
     win_moves, win_seconds) = row  # fmt: skip
    return GameRecord(
        id=gid,
        player=player,
        game=game,
        deal=int(deal),
        mode=mode,
        started=started,
        updated=updated,
        moves=json.loads(moves),
        redo=json.loads(redo),
        played=bool(played),
        won=bool(won),
        finished=finished,
        win_moves=win_moves,
        win_seconds=win_seconds,
    )
