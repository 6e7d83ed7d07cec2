"""Progress of a running batch: a redrawn bar on a terminal, plain periodic lines otherwise.

The rate and the time to go are computed here, once: :class:`BatchProgress` (the CLI), the
batch driver (which writes its run's rate into the batch record) and the dashboard's batch
list (:mod:`dashboard.job_list`) call :func:`games_rate`, :func:`eta_seconds` and
:func:`fmt_eta`. How small a run's first chunk and how soon its first files are
(:func:`first_small`, :func:`flush_wait`) is here too: they decide how soon progress shows.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

from sim.report.fmt import count

FIRST_CHUNK = 16
"""Games in a run's first chunk: its first results, the first progress and rate a page
shows, come within a second or two even between the fastest bots (whose later chunks
hold 1,000 games and more, a file each: only the first is small)."""


def first_small(size: int, submitted: int, first: int = FIRST_CHUNK) -> int:
    """The games of a run's chunk number ``submitted`` (0: its first): ``first`` for the
    first when chunks of ``size`` are several times larger (a chunk size asked to be small
    already is: it is kept), ``size`` after it (and at least 1)."""
    return max(1, first if submitted == 0 and size >= 4 * first else size)


def chunk_rate(games: int, seconds: float, parallel: int) -> float | None:
    """Games per second of a batch from one chunk: ``games`` played in ``seconds`` by one
    worker of ``parallel`` (None without a measure)."""
    return games * max(1, parallel) / seconds if games > 0 and seconds > 0 else None


def flush_wait(flushes: int, cap: float) -> float:
    """Seconds between a run's files of buffered games after ``flushes`` of them: none
    before the first (a run's first games are on disk, and counted, as soon as they are
    played), then 1, 2, 4, ... up to ``cap``."""
    return 0.0 if flushes <= 0 else min(cap, 2.0 ** (flushes - 1))


def games_rate(done: int, start_done: int, elapsed: float) -> float:
    """Games per second over ``elapsed`` seconds in which ``done - start_done`` games were
    played (0 before any time has passed)."""
    return (done - start_done) / elapsed if elapsed > 0 else 0.0


def eta_seconds(total: int, done: int, rate: float) -> float | None:
    """Seconds until ``total`` games at ``rate`` games/s; None while the rate is unknown."""
    return max(0, total - done) / rate if rate > 0 else None


def fmt_eta(seconds: float | None) -> str:
    """``mm:ss`` or ``h:mm:ss``; ``--:--`` when unknown (or absurdly far)."""
    if seconds is None or seconds != seconds or seconds < 0 or seconds > 1e7:
        return "--:--"
    s = int(round(seconds))
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


class BatchProgress:
    """Reports games done, games/s, ETA and the running red/blue/draw counts.

    ``mode``: ``"auto"`` (bar if ``stream`` is a terminal, else plain lines), ``"bar"``,
    ``"plain"`` or ``"quiet"``. Plain lines are printed every ``interval`` seconds.
    """

    def __init__(
        self, stream: TextIO | None = None, mode: str = "auto", interval: float = 10.0
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        if mode == "auto":
            isatty = getattr(self.stream, "isatty", lambda: False)
            mode = "bar" if isatty() else "plain"
        self.mode = mode
        self.interval = interval
        self.name = ""
        self.total = 0
        self.start_done = 0
        self.t0 = time.monotonic()
        self.last = 0.0
        self.done = 0
        self.counts: dict[str, int] = {}

    def start(self, name: str, total: int, done: int, counts: dict[str, int]) -> None:
        """A batch starts (or resumes) with ``done`` of ``total`` games already recorded."""
        self.name, self.total, self.start_done, self.done = name, total, done, done
        self.counts = dict(counts)
        self.t0 = time.monotonic()
        self.last = 0.0
        if self.mode == "plain":
            self._line()
            self.last = time.monotonic()
        elif self.mode == "bar":
            self._bar()

    def update(self, done: int, counts: dict[str, int]) -> None:
        """``done`` games played so far (recorded or about to be), with their counts."""
        self.done, self.counts = done, dict(counts)
        now = time.monotonic()
        if self.mode == "bar" and now - self.last >= 0.1:
            self.last = now
            self._bar()
        elif self.mode == "plain" and now - self.last >= self.interval:
            self.last = now
            self._line()

    def finish(self, record: dict[str, Any]) -> None:
        """The batch ended (any status); draw the final state."""
        if self.mode == "bar":
            self._bar()
            self.stream.write("\n")
            self.stream.flush()
        elif self.mode == "plain":
            self._line(status=str(record.get("status", "")))

    def _rate(self) -> float:
        return games_rate(self.done, self.start_done, time.monotonic() - self.t0)

    def _stats(self) -> str:
        rate = self._rate()
        eta = eta_seconds(self.total, self.done, rate)
        c = self.counts
        return (
            f"{rate:9,.1f} games/s  ETA {fmt_eta(eta)}  red {count(c.get('red', 0))} "
            f"blue {count(c.get('blue', 0))} draw {count(c.get('draw', 0))}"
        )

    def _bar(self) -> None:
        frac = self.done / self.total if self.total else 1.0
        width = 24
        fill = int(frac * width)
        bar = "#" * fill + "." * (width - fill)
        self.stream.write(
            f"\r{self.name} [{bar}] {count(self.done)}/{count(self.total)} {frac * 100:5.1f}%  "
            f"{self._stats()}\x1b[K"
        )
        self.stream.flush()

    def _line(self, status: str = "") -> None:
        frac = self.done / self.total if self.total else 1.0
        tail = f"  [{status}]" if status else ""
        done = f"{count(self.done)}/{count(self.total)}"
        self.stream.write(f"{self.name}: {done} ({frac * 100:.1f}%)  {self._stats()}{tail}\n")
        self.stream.flush()
