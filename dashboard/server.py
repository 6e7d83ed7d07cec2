"""The dashboard's server: the Streamlit app (``app.py``) and one route of its own that
streams the whole selection of games in one file (``dsq dashboard`` runs this script).

``GET /dsq/games.<txt|csv|jsonl|parquet>?<selection>`` (:mod:`dashboard.downloadlink`)
answers with the selected games of the app's own data folder (``DSQ_DATA``, never another),
by batch and game index. Text, CSV and JSON lines are read from DuckDB a page of rows at
a time and sent as they are written (:func:`sim.records.gameexport.export_chunks`);
parquet is written by DuckDB and pyarrow a page at a time into a temporary file, which is
unlinked before it is sent from its open handle. A request holds one page of rows
(``PAGE_ROWS`` games), never the selection. A bad query is a 400 with one line.

As the server starts, :func:`warm_up` imports, in the background, what the pages draw
with (pandas, plotly, scipy's special functions, the statistics): the first visitor's
page, the Overview as a rule, no longer waits for all of them.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import streamlit as st
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from dashboard.downloadlink import EXTENSIONS, ROUTE, parse_query
from dashboard.settings import load_settings
from engine.errors import DsqError
from sim.records.gameexport import batch_dates, export_chunks, export_parquet
from sim.stats.query import Selection
from sim.storage.reading import Dataset, open_dataset

MEDIA = {
    "txt": "text/plain; charset=utf-8",
    "csv": "text/csv; charset=utf-8",
    "jsonl": "application/jsonl; charset=utf-8",
    "parquet": "application/vnd.apache.parquet",
}
FILE_CHUNK = 1 << 20  # bytes of the parquet file read at a time


def _text_stream(
    ds: Dataset, selection: Selection, fmt: str, winners: tuple[str, ...], reasons: tuple[str, ...]
) -> Iterator[bytes]:
    try:
        dates = batch_dates(ds.batches)
        chunks = export_chunks(ds.con, selection, fmt, dates, winners=winners, reasons=reasons)
        for _, text in chunks:
            yield text.encode("utf-8")
    finally:
        ds.close()


def _parquet_file(
    ds: Dataset, selection: Selection, winners: tuple[str, ...], reasons: tuple[str, ...]
) -> BinaryIO:
    """The selection written to a temporary parquet file, opened and already unlinked."""
    folder = tempfile.mkdtemp(prefix="dsq-download-")
    try:
        path = Path(folder) / "games.parquet"
        export_parquet(ds.con, selection, path, winners=winners, reasons=reasons)
        return open(path, "rb")  # noqa: SIM115 (closed by _file_stream)
    finally:
        ds.close()
        shutil.rmtree(folder, ignore_errors=True)


def _file_stream(handle: BinaryIO) -> Iterator[bytes]:
    with handle:
        while chunk := handle.read(FILE_CHUNK):
            yield chunk


async def games_download(request: Request) -> Response:
    """The selected games in one file, streamed (400 with one line for a bad query)."""
    ext = request.path_params["ext"]
    try:
        if ext not in EXTENSIONS:
            raise DsqError(f"unknown format {ext[:20]!r}: one of {', '.join(EXTENSIONS)}")
        query = request.url.query
        selection, winners, reasons = parse_query(query, request.query_params.multi_items())
    except DsqError as exc:
        return PlainTextResponse(f"dsq: {exc}\n", status_code=400)
    fmt = EXTENSIONS[ext]
    headers = {"Content-Disposition": f'attachment; filename="games.{ext}"'}
    try:
        ds = await run_in_threadpool(open_dataset, load_settings().data_dir)
        if fmt == "parquet":
            handle = await run_in_threadpool(_parquet_file, ds, selection, winners, reasons)
            size = os.fstat(handle.fileno()).st_size
            headers["Content-Length"] = str(size)
            return StreamingResponse(_file_stream(handle), media_type=MEDIA[ext], headers=headers)
    except DsqError as exc:
        return PlainTextResponse(f"dsq: {exc}\n", status_code=500)
    stream = _text_stream(ds, selection, fmt, winners, reasons)
    return StreamingResponse(stream, media_type=MEDIA[ext], headers=headers)


def warm_up() -> None:
    """Import the modules the pages draw with (a problem is left for the pages to report).
    Only imports: a visitor's page waits for one under way instead of repeating it, where
    reading the data folder here would be done twice."""
    try:
        # lazy: the warm-up's point is to import these in the background, after start-up
        import dashboard.charts  # noqa: F401 - plotly
        import dashboard.common  # noqa: F401 - the pages' start
        import dashboard.tables  # noqa: F401 - pandas' Styler
        from sim.stats.intervals import binom_test_half

        binom_test_half(1, 2)  # scipy's special functions
    except Exception:  # noqa: BLE001, S110 - only a warm-up: the pages report problems
        pass


threading.Thread(target=warm_up, name="dsq-warm-up", daemon=True).start()

app = st.App(
    Path(__file__).with_name("app.py"),
    routes=[Route(ROUTE.replace("{ext}", "{ext:str}"), games_download, methods=["GET"])],
)
