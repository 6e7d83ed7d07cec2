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


@dataclass(frozen=True)
class Limits:
    """Bounds on what a launch from the browser may ask for."""

    max_games: int = DEFAULT_MAX_GAMES
    max_depth: int = DEFAULT_MAX_DEPTH
    max_playouts: int = DEFAULT_MAX_PLAYOUTS
    max_workers: int = 2
    max_running: int = DEFAULT_MAX_RUNNING


@dataclass(frozen=True)
class Problem:
    """A setting that could not be used: its variable, the value given, the default used
    instead, and why (``not_whole``: not a whole number; ``too_small``: below 1)."""

    variable: str
    value: str
    default: int
    why: str

    def __str__(self) -> str:
        if self.why == "not_whole":
            return f"{self.variable}={self.value!r} is not a whole number; using {self.default}"
        return f"{self.variable}={self.value} must be at least 1; using {self.default}"


@dataclass(frozen=True)
class Settings:
    """What the running app needs to know about its environment."""

    data_dir: Path
    limits: Limits
    problems: tuple[Problem, ...] = ()


def _env_int(name: str, default: int, problems: list[Problem]) -> int:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        problems.append(Problem(name, text, default, "not_whole"))
        return default
    if value < 1:
        problems.append(Problem(name, str(value), default, "too_small"))
        return default
    return value


def load_settings() -> Settings:
    """Read the settings from the environment (bad values fall back to defaults, noted)."""
    problems: list[Problem] = []
    limits = Limits(
        max_games=_env_int("DSQ_DASHBOARD_MAX_GAMES", DEFAULT_MAX_GAMES, problems),
        max_depth=_env_int("DSQ_DASHBOARD_MAX_DEPTH", DEFAULT_MAX_DEPTH, problems),
        max_playouts=_env_int("DSQ_DASHBOARD_MAX_PLAYOUTS", DEFAULT_MAX_PLAYOUTS, problems),
        max_workers=_env_int("DSQ_DASHBOARD_MAX_WORKERS", os.cpu_count() or 1, problems),
        max_running=_env_int("DSQ_DASHBOARD_MAX_RUNNING", DEFAULT_MAX_RUNNING, problems),
    )
    return Settings(
        data_dir=resolve_data_dir(None).resolve(), limits=limits, problems=tuple(problems)
    )
