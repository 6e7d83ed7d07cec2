"""What a bot may read besides its spec, its rules and its generator: the folder of endgame
tables its probes read (and, beside it, the tuned evaluations) and the engine registry its
engine bots start from.

The caller that builds bots hands them a :class:`BotContext` (the referee from its game's
``tables`` and ``engines``, a batch's chunk from its job, the CLI from its ``--data`` and
``--engines``); nothing is read from process-wide state.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sim.external.registry import EngineRegistry


@dataclass(frozen=True)
class BotContext:
    """``tables``: the folder holding every rule set's tables (None: the default data
    folder's, see :func:`sim.tablebase.store.tables_root`); ``engines``: the engine registry
    (None: the default one, loaded when an engine bot is built, see ``sim.external.bot``)."""

    tables: Path | None = None
    engines: EngineRegistry | None = None

    @classmethod
    def of(cls, tables: str | None, engines: EngineRegistry | None = None) -> BotContext:
        """The context of a game or a batch's chunk, whose ``tables`` folder is given as
        text (``""`` or None: the default one)."""
        return cls(Path(tables) if tables else None, engines)

    def tables_root(self) -> Path:
        """The tables folder bots of this context read."""
        if self.tables is not None:
            return self.tables
        # lazy: start-up time (the endgame tables' store loads pyarrow: only when a bot probes)
        from sim.tablebase.store import tables_root

        return tables_root(None)

    def evals_root(self) -> Path:
        """The folder of tuned evaluations bots of this context read: ``evals/`` beside
        the tables, in the same data folder (see ``sim.bots.evalfile``)."""
        return self.tables_root().parent / "evals"


DEFAULT_CONTEXT = BotContext()
