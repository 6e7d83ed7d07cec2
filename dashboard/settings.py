"""Dashboard settings: the data folder and the bounds on batches launched from the browser.

Everything comes from environment variables so that ``dsq dashboard`` (which sets them for
the ``streamlit run`` child process), tests and the benchmark configure the app the same
way:

- ``DSQ_DATA``: the data folder (default: ``data/`` in the project, the bundled sample).
- ``DSQ_DASHBOARD_MAX_GAMES``: most games per launched batch (default 20,000).
- ``DSQ_DASHBOARD_MAX_DEPTH``: deepest alpha-beta search a launch may ask for (default 6).
- ``DSQ_DASHBOARD_MAX_PLAYOUTS``: most MCTS playouts per move (default 20,000).
- ``DSQ_DASHBOARD_MAX_WORKERS``: most worker processes per launch (default: CPU count).
- ``DSQ_DASHBOARD_MAX_RUNNING``: most launched batches running at once (default 4).
- ``DSQ_DASHBOARD_MAX_HOURS``: the work budget of one launched batch, in hours of wall time
  (default 24): a request estimated to need more is refused, and a batch still running
  after that long is stopped as if cancelled (resumable with ``dsq simulate --resume``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from sim.storage.paths import resolve_data_dir

DEFAULT_MAX_GAMES = 20_000
DEFAULT_MAX_DEPTH = 6
DEFAULT_MAX_PLAYOUTS = 20_000
DEFAULT_MAX_RUNNING = 4
DEFAULT_MAX_HOURS = 24
MAX_HOURS = 24 * 365


@dataclass(frozen=True)
class Problem:
    """A setting that could not be used: its variable, the value given, the default used
    instead, and why (``not_whole``: not a whole number; ``out_of_range``: below 1 or above
    ``high``)."""

    variable: str
    value: str
    default: int
    why: str
    high: int = 10**9

    def __str__(self) -> str:
        if self.why == "not_whole":
            return f"{self.variable}={self.value!r} is not a whole number; using {self.default}"
        return (
            f"{self.variable}={self.value} must be between 1 and {self.high}; using {self.default}"
        )


@dataclass(frozen=True)
class Limits:
    """Bounds on what a launch from the browser may ask for."""

    max_games: int = DEFAULT_MAX_GAMES
    max_depth: int = DEFAULT_MAX_DEPTH
    max_playouts: int = DEFAULT_MAX_PLAYOUTS
    max_workers: int = 2
    max_running: int = DEFAULT_MAX_RUNNING
    max_hours: int = DEFAULT_MAX_HOURS

    @property
    def max_seconds(self) -> int:
        """The wall-time budget of one launched batch, in seconds."""
        return self.max_hours * 3600


@dataclass(frozen=True)
class Settings:
    """What the running app needs to know about its environment."""

    data_dir: Path
    limits: Limits
    problems: tuple[Problem, ...] = ()


def _env_int(name: str, default: int, problems: list[Problem], high: int = 10**9) -> int:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    if not text.isascii() or not text.isdigit() or len(text) > 12:
        problems.append(Problem(name, text[:20], default, "not_whole"))
        return default
    value = int(text)
    if not 1 <= value <= high:
        problems.append(Problem(name, str(value), default, "out_of_range", high))
        return default
    return value


def load_settings() -> Settings:
    """Read the settings from the environment (bad values fall back to defaults, noted)."""
    problems: list[Problem] = []
    limits = Limits(
        max_games=_env_int("DSQ_DASHBOARD_MAX_GAMES", DEFAULT_MAX_GAMES, problems, 2**31 - 1),
        max_depth=_env_int("DSQ_DASHBOARD_MAX_DEPTH", DEFAULT_MAX_DEPTH, problems, 60),
        max_playouts=_env_int("DSQ_DASHBOARD_MAX_PLAYOUTS", DEFAULT_MAX_PLAYOUTS, problems, 10**8),
        max_workers=_env_int("DSQ_DASHBOARD_MAX_WORKERS", os.cpu_count() or 1, problems, 1024),
        max_running=_env_int("DSQ_DASHBOARD_MAX_RUNNING", DEFAULT_MAX_RUNNING, problems),
        max_hours=_env_int("DSQ_DASHBOARD_MAX_HOURS", DEFAULT_MAX_HOURS, problems, MAX_HOURS),
    )
    return Settings(
        data_dir=resolve_data_dir(None).resolve(), limits=limits, problems=tuple(problems)
    )
