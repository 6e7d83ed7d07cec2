"""What a batch plays and how it runs: :class:`BatchSpec`, :func:`make_spec`, :class:`RunOptions`.

A spec holds canonical rules and bot specs (so two spellings of the same match give the
same record), the number of games, the batch seed and the options that change the games.
:class:`RunOptions` holds what does not change them (chunk sizes, flushing, game function).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from engine.errors import DsqError
from engine.rules import canonical_rules
from sim.batch.chunks import DEFAULT_PLAY_FN
from sim.play.seeds import MAX_SEED, new_batch_seed
from sim.storage.recordcheck import MAX_GAMES, MAX_OPENING_PLIES, MAX_PLY_CAP

__all__ = ["ADJUDICATE", "MAX_GAMES", "BatchSpec", "RunOptions", "make_spec"]

ADJUDICATE = ("none", "tablebase")  # sim.tablebase.adjudicate.MODES, without loading it


@dataclass(frozen=True)
class BatchSpec:
    """What a batch plays: canonical rules and bot specs, games, seed and options.

    ``red`` is bot *a* (red in every game, or in even-indexed games with ``swap``);
    ``blue`` is bot *b*.
    """

    rules: str
    red: str
    blue: str
    games: int
    seed: int
    swap: bool = False
    opening_plies: int = 0
    ply_cap: int = 1000
    adjudicate: str = "none"  # or "tablebase": end games by the endgame tables

    def to_dict(self) -> dict[str, Any]:
        """The spec as stored in the batch record."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BatchSpec:
        """The spec of a batch record (unknown keys are ignored)."""
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


@dataclass
class RunOptions:
    """How a batch runs (nothing here changes the recorded games).

    ``chunk_games`` and ``chunk_seconds`` bound one task; a parquet file is written when
    ``flush_games`` games are buffered or ``flush_seconds`` have passed since the last one;
    ``play_fn`` names the game function as ``"module:function"``; after ``max_seconds``
    (wall time, None: no limit) the batch stops as if cancelled, resumable; ``engines``
    holds the registry entries of external engines the bots name (sent to the workers with
    each chunk).
    """

    chunk_games: int = 20_000
    chunk_seconds: float = 1.0
    flush_games: int = 20_000
    flush_seconds: float = 10.0
    play_fn: str = DEFAULT_PLAY_FN
    engines: tuple[str, ...] = ()
    max_seconds: float | None = None


def make_spec(
    rules: str,
    red: str,
    blue: str,
    games: int,
    seed: int | None = None,
    swap: bool = False,
    opening_plies: int = 0,
    ply_cap: int = 1000,
    adjudicate: str = "none",
) -> BatchSpec:
    """A validated :class:`BatchSpec` with canonical specs; ``DsqError`` on any bad value.

    ``seed=None`` draws a fresh batch seed (recorded with the batch). ``adjudicate`` is
    ``none`` or ``tablebase``.
    """
    if not isinstance(games, int) or isinstance(games, bool) or games <= 0:
        raise DsqError(f"--games must be a positive integer, got {games}")
    if games > MAX_GAMES:
        raise DsqError(f"--games must be at most {MAX_GAMES}, got {games}")
    if swap and games % 2:
        raise DsqError(f"--swap plays games in pairs: --games must be even, got {games}")
    if seed is None:
        seed = new_batch_seed()
    if not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise DsqError(f"--seed must be between 0 and {MAX_SEED}, got {seed}")
    if not 0 <= opening_plies <= MAX_OPENING_PLIES:
        raise DsqError(
            f"--opening-plies must be between 0 and {MAX_OPENING_PLIES}, got {opening_plies}"
        )
    if not 1 <= ply_cap <= MAX_PLY_CAP:
        raise DsqError(f"--ply-cap must be between 1 and {MAX_PLY_CAP}, got {ply_cap}")
    if opening_plies >= ply_cap:
        raise DsqError(f"--opening-plies ({opening_plies}) must be below --ply-cap ({ply_cap})")
    if adjudicate not in ADJUDICATE:
        raise DsqError(f"--adjudicate takes one of {', '.join(ADJUDICATE)}, not {adjudicate!r}")
    # lazy: start-up time (the bot catalogue: only when a bot is named)
    from sim.bots.spec import canonical_bot

    return BatchSpec(
        rules=canonical_rules(rules),
        red=canonical_bot(red),
        blue=canonical_bot(blue),
        games=games,
        seed=seed,
        swap=swap,
        opening_plies=opening_plies,
        ply_cap=ply_cap,
        adjudicate=adjudicate,
    )
