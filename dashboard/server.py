"""The dashboard's server: the Streamlit app (``app.py``) and one route of its own that
streams the whole selection of games in one file (``dsq dashboard`` runs this script).

``GET /dsq/games.<txt|csv|jsonl|parquet>?<selection>`` (:mod:`dashboard.downloadlink`)
answers with the selected games of the app's own data folder (``DSQ_DATA``, never another),
by batch and game index. Text, CSV and JSON lines are read from DuckDB a page of rows at
a time and sent as they are written (:func:`sim.records.gameexport.export_chunks`);
parquet is written by DuckDB and pyarrow a page at a time into a temporary file, which is
unlinked before it is sent from its open handle. A request holds one page of rows
(``PAGE_ROWS`` games), never the selection, on a DuckDB connection of one thread. A bad
query is a 400 with one line. At most ``DSQ_DASHBOARD_MAX_DOWNLOADS`` downloads (default
:data:`MAX_DOWNLOADS`) stream at once: one more is answered 503 with ``Retry-After``.

When the server has a token (:data:`dashboard.access.TOKEN_VAR`), every request but the
health check must carry it (:class:`dashboard.access.TokenGate`).

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
from typing import Any, BinaryIO

import streamlit as st
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from dashboard.access import TOKEN_VAR, TokenGate
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
MAX_DOWNLOADS = 4  # streamed downloads at once (DSQ_DASHBOARD_MAX_DOWNLOADS)
RETRY_SECONDS = 10  # the Retry-After of a download refused for want of a slot


def max_downloads() -> int:
    """How many downloads may stream at once (``DSQ_DASHBOARD_MAX_DOWNLOADS``, 1 to 64)."""
    text = os.environ.get("DSQ_DASHBOARD_MAX_DOWNLOADS", "").strip()
    if text.isascii() and text.isdigit() and 1 <= int(text) <= 64:
        return int(text)
    return MAX_DOWNLOADS


class Slots:
    """A bound on the downloads streaming at once (never waits: full is full)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.used = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        """Take a slot; False when every slot is taken."""
        with self._lock:
            if self.used >= self.size:
                return False
            self.used += 1
            return True

    def give(self) -> None:
        """Give a slot back."""
        with self._lock:
            self.used = max(0, self.used - 1)


SLOTS = Slots(max_downloads())


class HeldStream(StreamingResponse):
    """A streamed download holding one of :data:`SLOTS`: given back, and ``chunks``
    closed, once the response ends, fails or its client goes away."""

    def __init__(self, chunks: Iterator[bytes], **kwargs: Any) -> None:
        super().__init__(chunks, **kwargs)
        self.chunks = chunks

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            try:
                close = getattr(self.chunks, "close", None)
                if close is not None:
                    await run_in_threadpool(close)
            finally:
                SLOTS.give()


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
    if not SLOTS.take():
        return PlainTextResponse(
            f"dsq: {SLOTS.size} downloads are under way; try again in a moment\n",
            status_code=503,
            headers={"Retry-After": str(RETRY_SECONDS)},
        )
    try:
        ds = await run_in_threadpool(open_dataset, load_settings().data_dir, 1)
        if fmt == "parquet":
            handle = await run_in_threadpool(_parquet_file, ds, selection, winners, reasons)
            headers["Content-Length"] = str(os.fstat(handle.fileno()).st_size)
            chunks: Iterator[bytes] = _file_stream(handle)
        else:
            chunks = _text_stream(ds, selection, fmt, winners, reasons)
    except DsqError as exc:
        SLOTS.give()
        return PlainTextResponse(f"dsq: {exc}\n", status_code=500)
    except BaseException:
        SLOTS.give()
        raise
    return HeldStream(chunks, media_type=MEDIA[ext], headers=headers)


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
    middleware=[Middleware(TokenGate, token=os.environ.get(TOKEN_VAR) or None)],
)
