"""Settings of the card table, read once from the environment.

``Settings.from_env()`` is called by the server entry point, never at import
time, so tests build their own ``Settings(db_path=tmp_path / "t.sqlite3")``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from intrigue.errors import IntrigueError

DEFAULT_PORT = 8642


class SettingsError(IntrigueError, ValueError):
    """An environment variable holds a value the card table cannot use."""


def default_db_path(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME/intrigue/intrigue.sqlite3`` (``~/.local/share`` when unset)."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "intrigue" / "intrigue.sqlite3"


@dataclass(frozen=True)
class Settings:
    """Everything the web app can be configured with.

    The solver limits keep every request short on a small machine: a hint
    that cannot be proven within them answers "unknown" rather than making
    the player wait.
    """

    db_path: Path = field(default_factory=default_db_path)
    host: str = "127.0.0.1"
    port: int | None = None
    """None: :data:`DEFAULT_PORT`, or a free port if that one is taken."""
    hint_nodes: int = 1_500_000
    """Most hints take milliseconds, but the slowest manual ones take seconds
    (docs/solver.md, "Benchmarks"): ``hint_seconds`` decides when to answer "unknown"."""
    hint_seconds: float = 4.0
    rollout_end_nodes: int = 5_000
    """Positions each end search of the rollouts over the deal may use in this
    app's solver calls, where the library's default (500) is what the
    published win-rate runs used.  At ``hint_nodes``, from the start of 422
    hard manual deals, 5 000 wins 360 and 500 wins 343, in 4% more time
    (docs/solver.md, "Larger end searches"; ``benchmarks/bench_end_nodes.py``)."""
    autofinish_nodes: int = 50_000
    autofinish_seconds: float = 1.5
    rewind_seconds: float = 12.0
    """Budget for the whole "undo to the last winnable position" search."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read ``INTRIGUE_DB``, ``INTRIGUE_HOST``, ``INTRIGUE_PORT``, ``INTRIGUE_HINT_NODES``.

        Raises:
            SettingsError: naming the variable and its bad value.
        """
        env = os.environ if environ is None else environ
        db = env.get("INTRIGUE_DB")
        return cls(
            db_path=Path(db).expanduser() if db else default_db_path(env),
            host=env.get("INTRIGUE_HOST", "127.0.0.1"),
            port=_int_var(env, "INTRIGUE_PORT", None, 0, 65535),
            hint_nodes=_int_var(env, "INTRIGUE_HINT_NODES", cls.hint_nodes, 1, 10**9)
            or cls.hint_nodes,
        )


def _int_var(
    env: Mapping[str, str], name: str, default: int | None, lo: int, hi: int
) -> int | None:
    text = env.get(name)
    if text is None or text == "":
        return default
    try:
        value = int(text)
    except ValueError:
        raise SettingsError(f"bad {name} {text!r}: expected an integer") from None
    if not lo <= value <= hi:
        raise SettingsError(f"bad {name} {text!r}: expected an integer from {lo} to {hi}")
    return value
