"""The ``dsq`` sub-commands, one module each (``sim.cli`` lists them)."""

from __future__ import annotations

# Former names of commands, kept working for scripts: command -> its aliases. The command
# modules pass these to ``add_parser(aliases=...)``; ``sim.cli`` uses them to choose the
# module to import.
ALIASES: dict[str, list[str]] = {
    "legal": ["moves"],
    "bestmove": ["move"],
    "serve": ["engine"],
}
