"""Downloading the selected games: text records, CSV, JSON lines or parquet, in parts.

What holds memory: Streamlit (1.67) sends a download from its media storage, which holds
the file's bytes whole while the session lasts; a callable given to
``st.download_button`` runs when the button is clicked, but what it returns is read whole
into that storage (no streaming). So one download is one *part* of the selection, at most
:data:`PART_GAMES` games: the streamed exporters of :mod:`sim.records.gameexport` write
it into a temporary file (DuckDB sorts the selection's keys, then reads a page of rows
at a time), which is read once and removed. The server holds one part's bytes per
click, never the selection. The whole selection, of any size, streams from the
dashboard's own route (a link: :mod:`dashboard.server`, :mod:`dashboard.downloadlink`)
and from ``dsq games export`` (:func:`export_command`).
"""

from __future__ import annotations

import shlex
import tempfile
from pathlib import Path

import duckdb
import streamlit as st

from dashboard.downloadlink import download_path
from dashboard.i18n import counted
from dashboard.lang import labels, nf, t
from dashboard.loaders import Loaded, dataset
from sim.records.gameexport import batch_dates, export_games, export_parquet
from sim.stats.query import Selection

FORMATS = {
    "text": ("txt", "text/plain"),
    "csv": ("csv", "text/csv"),
    "jsonl": ("jsonl", "application/jsonl"),
    "parquet": ("parquet", "application/vnd.apache.parquet"),
}
# Games in one download: about 45 MB of CSV or text, 50 MB of parquet (with search scores)
# at 300 plies a game; a game of 1,000 plies takes three times as much.
PART_GAMES = {"text": 20_000, "csv": 20_000, "jsonl": 20_000, "parquet": 40_000}


def part_count(total: int, fmt: str) -> int:
    """How many downloads of at most ``PART_GAMES[fmt]`` games ``total`` games make."""
    size = PART_GAMES[fmt]
    return max(1, (int(total) + size - 1) // size)


def part_range(part: int, total: int, fmt: str) -> tuple[int, int]:
    """The first and last game (counted from 1) of download ``part`` (from 1)."""
    size = PART_GAMES[fmt]
    first = (int(part) - 1) * size + 1
    return first, min(int(total), first + size - 1)


def write_part(
    con: duckdb.DuckDBPyConnection,
    selection: Selection,
    winners: tuple[str, ...],
    reasons: tuple[str, ...],
    fmt: str,
    part: int,
    path: Path,
    dates: dict[str, str] | None = None,
) -> int:
    """Write download ``part`` (from 1) of the selected games (by batch and game index;
    only ``winners`` and end ``reasons`` when given) to ``path`` in format ``fmt``,
    streamed; the number of games."""
    limit = PART_GAMES[fmt]
    offset = (int(part) - 1) * limit
    if fmt == "parquet":
        return export_parquet(
            con, selection, path, winners=winners, reasons=reasons, limit=limit, offset=offset
        )
    with open(path, "w", encoding="utf-8", newline="") as out:
        return export_games(
            con, selection, fmt, out, dates,
            winners=winners, reasons=reasons, limit=limit, offset=offset,
        )  # fmt: skip


def part_bytes(
    loaded: Loaded,
    selection: Selection,
    winners: tuple[str, ...],
    reasons: tuple[str, ...],
    fmt: str,
    part: int,
) -> bytes:
    """The file of download ``part``: written to a temporary file, read once, removed."""
    dates = batch_dates(loaded.ds.batches)
    with tempfile.TemporaryDirectory(prefix="dsq-download-") as folder:
        path = Path(folder) / f"games.{FORMATS[fmt][0]}"
        with loaded.lock:
            loaded.ds.read(
                lambda: write_part(
                    loaded.ds.con, selection, winners, reasons, fmt, part, path, dates
                )
            )
        return path.read_bytes()


def selection_flags(selection: Selection) -> list[str]:
    """The ``dsq stats`` / ``dsq games export`` flags that select the same games."""
    flags: list[str] = []
    for flag, values in (
        ("--rules", selection.rules),
        ("--bot", selection.bots),
        ("--batch", selection.batches),
    ):
        for value in values:
            flags += [flag, value]
    if selection.colour:
        flags += ["--colour", selection.colour]
    if selection.between:
        flags.append("--between")
    if selection.humans:
        flags.append("--humans")
    if not selection.adjudicated:
        flags.append("--no-adjudicated")
    if selection.min_plies:
        flags += ["--min-plies", str(selection.min_plies)]
    return flags


def export_command(selection: Selection, fmt: str, data_dir: str | Path) -> str:
    """The ``dsq games export`` command that writes the selection in one file (text, CSV
    or JSON lines; CSV for parquet, which the data folder's files already are)."""
    cli_fmt = fmt if fmt != "parquet" else "csv"
    words = ["dsq", "games", "export", "--format", cli_fmt, *selection_flags(selection)]
    words += ["--data", str(data_dir)]
    ext = FORMATS[cli_fmt][0]
    return f"{shlex.join(words)} > games.{ext}"


def download_selection(
    selection: Selection, winners: tuple[str, ...], reasons: tuple[str, ...], total: int
) -> None:
    """The format, the part (when the selection makes several) and the button that
    downloads it; a caption saying what one download holds and how to get everything."""
    left, mid, right = st.columns([2, 1, 3], vertical_alignment="bottom")
    fmt = left.selectbox(
        t("games.download_format"),
        list(FORMATS),
        format_func=labels("games.format_"),
        key="games_download_fmt",
    )
    parts = part_count(total, fmt)
    part = 1
    if parts > 1:
        part = int(mid.number_input(t("games.download_part"), 1, parts, 1,
                                    key="games_download_part"))  # fmt: skip
        part = min(max(part, 1), parts)
    first, last = part_range(part, total, fmt)
    n = nf()
    ext, mime = FORMATS[fmt]
    loaded = dataset()
    label = (
        t(counted("games.download_selection", total), games=n.count(total))
        if parts == 1
        else t(
            "games.download_range", first=n.count(first), last=n.count(last), total=n.count(total)
        )  # fmt: skip
    )
    right.download_button(
        label,
        data=lambda: part_bytes(loaded, selection, winners, reasons, fmt, part),
        file_name=f"games-{part}.{ext}" if parts > 1 else f"games.{ext}",
        mime=mime,
        icon=":material/download:",
        key="games_download",
        on_click="ignore",
    )
    st.link_button(
        t(counted("games.download_all", total), games=n.count(total)),
        download_path(selection, winners, reasons, ext),
        icon=":material/download:",
    )
    note = t("games.download_bound", limit=n.count(PART_GAMES[fmt]))
    note += " " + t("games.download_all_note")
    if parts > 1:
        note += " " + t("games.download_parts", parts=n.count(parts))
    st.caption(note)
    if parts > 1 or fmt == "parquet":
        key = "games.download_whole_parquet" if fmt == "parquet" else "games.download_whole"
        st.caption(t(key, folder=str(loaded.ds.data_dir)))
        st.code(export_command(selection, fmt, loaded.ds.data_dir), language="sh")
        if winners or reasons:
            st.caption(t("games.download_whole_filters"))
