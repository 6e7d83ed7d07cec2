"""dsq from Python: play batches, read their games and statistics, run studies, draw
positions. Every name here is also ``sim.NAME`` (``import sim; sim.simulate(...)``);
docs/api.md shows them at work.

These are the commands' own calls (``dsq simulate``, ``dsq stats``, ``dsq games export``,
``dsq study run`` and ``report``, ``dsq bots``), made from Python and answered with Python
values: typed records and pandas DataFrames. A data folder is named as ``--data`` names
it: ``data=None`` is ``$DSQ_DATA``, else the bundled sample, which the functions that
write refuse unless named. Selections of games are the keywords of
:class:`sim.stats.Selection` (``rules=``, ``bots=``, ``batches=``, ``colour=``,
``min_plies=``, ``between=``, ``humans=``, ``adjudicated=``, ``voids=``), as ``dsq
stats``'s flags select them. Each function imports what it needs when it is called, so
``import sim`` stays as quick as the CLI needs.
"""

from __future__ import annotations

import importlib
import os
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from engine.errors import DsqError

if TYPE_CHECKING:
    import pandas as pd

    from engine.position import Position
    from sim.bots.spec import BotInfo
    from sim.stats.general_row import GeneralRow
    from sim.stats.query import Selection
    from sim.storage.batchrecord import BatchRecord
    from sim.storage.reading import Dataset
    from sim.storage.schema import GameRecord
    from sim.study.report import StudyReport

# The types the functions return, named here and as ``sim.NAME`` too, loaded on first use.
TYPES = {
    "BatchRecord": "sim.storage.batchrecord",
    "BotInfo": "sim.bots.spec",
    "DsqError": "engine.errors",
    "GameRecord": "sim.storage.schema",
    "GeneralRow": "sim.stats.general_row",
    "Position": "engine.position",
    "Selection": "sim.stats.query",
    "StudyReport": "sim.study.report",
}

__all__ = [
    "BatchRecord",
    "BotInfo",
    "DsqError",
    "GameRecord",
    "GeneralRow",
    "Position",
    "Selection",
    "StudyReport",
    "batches",
    "end_reasons",
    "game",
    "games",
    "lengths",
    "list_bots",
    "matchups",
    "position",
    "ratings",
    "replay",
    "run_study",
    "simulate",
    "statistics",
    "study_report",
]

PathLike = str | os.PathLike[str]
T = TypeVar("T")


def __getattr__(name: str) -> Any:
    module = TYPES.get(name)
    if module is None:
        raise AttributeError(f"module 'sim.api' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


# ----------------------------------------------------------------------------- playing


def simulate(
    red: str,
    blue: str,
    games: int,
    *,
    rules: str | Sequence[str] = "standard",
    data: PathLike | None = None,
    seed: int | None = None,
    workers: int = 1,
    label: str | None = None,
    batch_id: str | None = None,
    progress: bool = False,
    **options: Any,
) -> list[BatchRecord]:
    """Play ``games`` games of ``red`` (moves first) against ``blue`` under each rules
    spec of ``rules`` (one batch each, the same seeds) and record them in ``data``, as
    ``dsq simulate`` does; return the final record of each batch.

    ``seed=None`` draws a batch seed (recorded); ``options`` are the other fields of a
    batch spec (``swap=True``, ``opening_plies=4``, ``ply_cap=300``, ``record="outcomes"``,
    ...). Without ``opening_plies``, deterministic bots get random opening plies where
    their games would repeat (``--opening-plies auto``). ``progress`` prints the batch's
    progress on stderr. With ``workers > 1``, a script calls this under
    ``if __name__ == "__main__":`` (the workers are spawned processes).
    """
    # lazy: start-up time (the batch runner loads numba, pyarrow and duckdb)
    from sim.batch.progress import BatchProgress
    from sim.batch.run import run_batches
    from sim.batch.spec import make_spec, with_variety
    from sim.core.seeds import new_batch_seed
    from sim.storage.batchrecord import BatchRecord
    from sim.storage.paths import writable_data_dir

    if any(str(bot).startswith("engine:") for bot in (red, blue)):
        raise DsqError("external engines play through dsq simulate --engines, not simulate()")
    folder = writable_data_dir(data)
    specs_rules = [rules] if isinstance(rules, str) else list(rules)
    seed = new_batch_seed() if seed is None else seed
    specs = [make_spec(r, red, blue, games, seed, data_dir=folder, **options) for r in specs_rules]
    if "opening_plies" not in options:
        specs = [with_variety(spec) for spec in specs]
    records = run_batches(
        specs,
        folder,
        label=label,
        batch_id=batch_id,
        workers=workers,
        progress=BatchProgress() if progress else None,
    )
    return [BatchRecord.from_dict(rec) for rec in records]


def batches(data: PathLike | None = None) -> list[BatchRecord]:
    """The batch records of ``data``, oldest first (``dsq batches``); unreadable ones are
    left out with a warning."""
    return _read(data, lambda ds: _records(ds.batches))


def _records(found: Iterable[Mapping[str, Any]]) -> list[BatchRecord]:
    # lazy: start-up time (as every function here)
    from sim.storage.batchrecord import BatchRecord

    return [BatchRecord.from_dict(rec) for rec in found]


# ----------------------------------------------------------------------------- reading


def _selection(select: Mapping[str, Any]) -> Selection:
    """The canonical selection of the keywords of :class:`sim.stats.Selection`."""
    # lazy: start-up time (duckdb, pandas)
    from sim.stats.query import Selection, canonical_selection

    return canonical_selection(Selection(**select))


def _read(data: PathLike | None, compute: Callable[[Dataset], T]) -> T:
    """``compute`` of the opened data folder ``data`` (which must exist), closed after;
    a warning for each file or record it had to skip (the lines ``dsq stats`` prints)."""
    # lazy: start-up time (duckdb, pyarrow)
    from sim.storage.paths import existing_data_dir
    from sim.storage.reading import open_dataset

    ds = open_dataset(existing_data_dir(None if data is None else str(data)))
    try:
        for path, reason in ds.skipped:
            warnings.warn(f"skipped {path}: {reason}", stacklevel=3)
        return ds.read(lambda: compute(ds))
    finally:
        ds.close()


def statistics(
    data: PathLike | None = None,
    *,
    by: str | None = None,
    confidence: float = 0.95,
    **select: Any,
) -> pd.DataFrame:
    """The general figures of the selected games with their intervals, as ``dsq stats``
    shows them: one row of all of them (``by=None``), or one per ``"rules"`` spec or
    ``"batch"`` (its first column). Each row is a
    :class:`~sim.stats.general_row.GeneralRow`: games, wins of each colour and draws
    with rates and Wilson intervals, the first player's score, the first-move advantage
    fitted with the bots' strengths (``first_move_elo`` and its bounds), lengths in plies
    (mean with its t interval, sd, median, min, max) and the games by end reason."""

    def compute(ds: Dataset) -> pd.DataFrame:
        # lazy: start-up time (pandas, scipy)
        import pandas as pd

        # lazy: start-up time (duckdb, scipy)
        from sim.stats.general import general_stats, general_stats_by
        from sim.stats.general_row import general_row

        sel = _selection(select)
        if by is not None:
            return general_stats_by(ds.con, sel, by, confidence)
        g = general_stats(ds.con, sel, confidence)
        assert g.first_move is not None  # general_stats fits it
        return pd.DataFrame([general_row(g, g.first_move)])

    return _read(data, compute)


def matchups(data: PathLike | None = None, *, confidence: float = 0.95, **select: Any) -> Any:
    """Every pairing of two bots in the selected games (``dsq stats --by matchup``): wins,
    draws and losses of ``bot`` against ``opponent``, its score and Elo with intervals."""
    # lazy: start-up time (pandas, scipy)
    from sim.stats.matchups import matchup_table

    return _read(data, lambda ds: matchup_table(ds.con, _selection(select), confidence))


def ratings(
    data: PathLike | None = None,
    *,
    anchor: str | None = None,
    confidence: float = 0.95,
    **select: Any,
) -> Any:
    """Bradley-Terry ratings (Elo scale) of every bot of the selected games, with their
    intervals (``dsq stats --ratings``); ``anchor`` names the bot rated 0."""
    # lazy: start-up time (scipy)
    from sim.stats.query import bot_filter
    from sim.stats.ratings import ratings as fit

    pin = None if anchor is None else bot_filter(anchor)
    return _read(
        data, lambda ds: fit(ds.con, _selection(select), anchor=pin, confidence=confidence).table
    )


def end_reasons(data: PathLike | None = None, *, confidence: float = 0.95, **select: Any) -> Any:
    """The selected games by end reason (every reason, zeros included): ``games``,
    ``share`` with its Wilson interval (``low``, ``high``), and who won them."""
    # lazy: start-up time (pandas)
    from sim.stats.distributions import end_reasons as reasons

    return _read(data, lambda ds: reasons(ds.con, _selection(select), confidence))


def lengths(
    data: PathLike | None = None, *, bins: int | Sequence[float] = 20, **select: Any
) -> Any:
    """A histogram of the selected games' lengths in plies: ``bins`` equal bins (or the
    edges given), with columns ``start``, ``end``, ``games`` and ``share``."""
    # lazy: start-up time (pandas)
    from sim.stats.distributions import length_histogram

    return _read(data, lambda ds: length_histogram(ds.con, _selection(select), bins))


def games(
    data: PathLike | None = None,
    *,
    limit: int | None = None,
    offset: int = 0,
    **select: Any,
) -> pd.DataFrame:
    """The selected games, every column of the schema (data/README.md), one row per game
    by batch and game index (at most ``limit``, after ``offset``): what ``dsq games export
    --format csv`` writes, as stored (moves as ``from * 64 + to`` codes)."""

    def compute(ds: Dataset) -> pd.DataFrame:
        # lazy: start-up time (pyarrow, pandas)
        import pyarrow as pa

        # lazy: start-up time (duckdb)
        from sim.records.gameexport import selected_pages
        from sim.storage.schema import GAME_SCHEMA

        pages = list(selected_pages(ds.con, _selection(select), limit=limit, offset=offset))
        table = pa.concat_tables(pages) if pages else GAME_SCHEMA.empty_table()
        return table.to_pandas()

    return _read(data, compute)


def game(batch_id: str, game_index: int, data: PathLike | None = None) -> GameRecord:
    """One recorded game, every column (``DsqError`` when there is no such game)."""
    # lazy: start-up time (duckdb)
    from sim.stats.games import game_record

    record = _read(data, lambda ds: game_record(ds.con, batch_id, game_index))
    if record is None:
        raise DsqError(f"no game {game_index} in batch {batch_id!r}")
    return record


# ----------------------------------------------------------------------------- positions


def position(
    fen: str | None = None, rules: str = "standard", moves: str | Sequence[str] = ()
) -> Position:
    """The position of ``fen`` (None: the initial one) under ``rules``, after ``moves``
    (``"a3a4 g7g6"`` or a list); it draws itself in Jupyter."""
    # lazy: start-up time (numba kernels)
    from engine.position import Position

    pos = Position(rules, fen)
    if moves:
        pos.play_moves(moves if isinstance(moves, str) else list(moves))
    return pos


def replay(record: Mapping[str, Any], ply: int | None = None) -> Position:
    """The position of a recorded game (:func:`game`, or a row of :func:`games`) after
    ``ply`` plies (None: at its end)."""
    # lazy: start-up time (numba kernels)
    from engine.position import decode_move

    moves = record.get("moves")
    if moves is None:
        raise DsqError("this game was recorded without its moves (record='outcomes')")
    fen = record.get("start_fen")
    codes = list(moves)[:ply] if ply is not None else list(moves)
    return position(
        fen if isinstance(fen, str) else None,
        str(record["rules"]),
        [decode_move(int(m)) for m in codes],
    )


# ----------------------------------------------------------------------------- bots, studies


def list_bots() -> list[BotInfo]:
    """Every kind of bot with its parameters, as ``dsq bots`` lists them."""
    # lazy: start-up time (the bot catalogue)
    from sim.bots.spec import describe_bots

    return describe_bots()


def run_study(
    file: PathLike,
    data: PathLike | None = None,
    *,
    quick: bool = False,
    workers: int | None = None,
    progress: bool = False,
) -> StudyReport:
    """Play (or resume) the study of a TOML file (docs/studies.md) in ``data``, as ``dsq
    study run`` does (``quick``: its ``[quick]`` first look), and return its report."""
    # lazy: start-up time (the batch machinery, duckdb, statsmodels)
    from sim.storage.paths import writable_data_dir
    from sim.study.report import StudyReport, build_report
    from sim.study.run import run_study as play
    from sim.study.spec import load_study

    folder = writable_data_dir(data)
    study = load_study(os.fspath(file), quick=quick)
    play(study, folder, workers=workers, quiet=not progress)
    return StudyReport(build_report(study, folder))


def study_report(
    study: PathLike, data: PathLike | None = None, *, quick: bool = False
) -> StudyReport:
    """The report of a study played in ``data`` (``dsq study report``): ``study`` is its
    file or its recorded name."""
    # lazy: start-up time (duckdb, statsmodels)
    from sim.storage.paths import existing_data_dir
    from sim.study.report import StudyReport, build_report, resolve_study
    from sim.study.spec import load_study

    folder = existing_data_dir(None if data is None else str(data))
    found = resolve_study(str(study), folder)
    if quick:
        found = load_study(found.path, quick=True)
    return StudyReport(build_report(found, folder))
