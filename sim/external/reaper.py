"""Every process an engine starts ends with it, even one that daemonizes.

An engine runs in its own session, and :meth:`sim.external.process.EngineProcess.kill`
kills its process group; a child that calls ``setsid`` (or double-forks) leaves that
group and, once its parent is gone, would be adopted by init. So, on Linux, the process
that starts engines makes itself the *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``,
:func:`adopt_orphans`): the orphans of its engines become its own children. Each engine
also gets a token in its environment (:data:`TOKEN_VAR`, inherited by what it starts).

When an engine is stopped, :func:`freeze` first stops (SIGSTOP) it and every process
below it (found by parent links in ``/proc``), round after round until none is new, so
that none can start another or leave the tree while they die; then
:func:`end_descendants` kills (SIGKILL) and reaps:

- every process :func:`freeze` found below the engine;
- every process in the engine's session or carrying its token, wherever it went;
- with ``everything`` (no other engine of this process is running), every child this
  process inherited: one whose session is neither this process's nor its own (a process
  this process started is in one of these two; a double-forked daemon is in neither), or
  that carries a token of this process.

A process stopped by SIGTERM or SIGHUP (a service manager, a closed terminal) whose
handler is the default one would die without stopping its engines; so the first engine a
process starts in its main thread installs :func:`_stop_engines_and_die` for these
signals (until its last engine stops): it ends every engine of the process and what they
started as above, then the process dies of the signal as before.

An engine is started and noted inside :func:`starting`: a stop signal that arrives in
between (the engine runs, but is not noted yet) is acted on as soon as it is noted, and
:func:`stop_engines` called from another thread waits for it to be noted.

Elsewhere than Linux (no ``/proc``) only the process group is killed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import itertools
import os
import secrets
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

PR_SET_CHILD_SUBREAPER = 36
TOKEN_VAR = "DSQ_ENGINE_TOKEN"
REAP_SECONDS = 5.0  # how long a killed process may take to be gone
_PROCESS_TAG = f"{os.getpid()}-{secrets.token_hex(4)}"
_COUNTER = itertools.count(1)
_LIVE: dict[int, str | None] = {}  # the engines of this process that run, with their tokens
STOP_SIGNALS = ("SIGTERM", "SIGHUP")  # whose default action would leave the engines running
_adopting: int | None = None  # the pid that made itself the subreaper (a fork is not)
_owner: int | None = None  # the pid whose engines _LIVE holds (a fork inherits them, not owns)
FREEZE_ROUNDS = 100  # rounds of freeze (each stops what the last one found started)
START_SECONDS = 30.0  # how long stop_engines waits for an engine being started to be noted
_STARTING = threading.RLock()  # held while an engine is started and noted
_main_starting = 0  # how deep the main thread is in starting()
_deferred: int | None = None  # a stop signal that arrived while the main thread was starting
_stopping = False  # the stop handler runs (a second signal meanwhile changes nothing)


@dataclass(frozen=True)
class Proc:
    """One line of the process table: ``pid``, parent ``ppid``, session ``sid``, zombie."""

    pid: int
    ppid: int
    sid: int
    zombie: bool


def adopt_orphans() -> bool:
    """Make this process the child subreaper (Linux; once per process): orphans of the
    processes it starts become its children instead of init's. Whether it is one."""
    global _adopting
    _guard_stop_signals()
    if _adopting == os.getpid():
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    _adopting = os.getpid()
    return True


def new_token() -> str:
    """A token for one engine of this process (its environment carries it)."""
    return f"{_PROCESS_TAG}-{os.getpid()}-{next(_COUNTER)}"


def engine_env(token: str) -> dict[str, str]:
    """The environment an engine is started with: this process's, plus its token."""
    return dict(os.environ, **{TOKEN_VAR: token})


def process_table() -> dict[int, Proc]:
    """Every process ``/proc`` shows (empty where there is no ``/proc``)."""
    table: dict[int, Proc] = {}
    try:
        entries = list(os.scandir("/proc"))
    except OSError:
        return table
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            pid = int(entry.name)
            table[pid] = Proc(pid, int(fields[1]), int(fields[3]), fields[0] in (b"Z", b"X"))
        except (OSError, IndexError, ValueError):
            continue
    return table


def _token_of(pid: int) -> str | None:
    """The engine token in a process's environment (None: none, or unreadable)."""
    try:
        data = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return None
    key = TOKEN_VAR.encode() + b"="
    for item in data.split(b"\0"):
        if item.startswith(key):
            return item[len(key) :].decode("ascii", "replace")
    return None


def descendants(pid: int, table: dict[int, Proc]) -> set[int]:
    """The pids below ``pid`` in ``table`` (children, their children, ...)."""
    below: dict[int, list[int]] = {}
    for p in table.values():
        below.setdefault(p.ppid, []).append(p.pid)
    found: set[int] = set()
    todo = list(below.get(pid, []))
    while todo:
        child = todo.pop()
        if child not in found:
            found.add(child)
            todo.extend(below.get(child, []))
    return found


def doomed(
    session_of: int | None = None,
    token: str | None = None,
    everything: bool = False,
) -> set[int]:
    """The pids to kill: the processes in the session of ``session_of`` (an engine's pid;
    skipped while another engine of this process has it again), those carrying ``token``,
    and with ``everything`` every child this process inherited (see the module's
    docstring)."""
    table = process_table()
    me = os.getpid()
    my_sid = table[me].sid if me in table else os.getsid(0)
    found: set[int] = set()
    if session_of is not None and session_of not in _LIVE:
        found |= {p.pid for p in table.values() if p.sid == session_of and p.pid != session_of}
    for p in table.values():
        if p.pid == me or p.zombie or p.pid in found or p.pid in _LIVE:
            continue
        theirs = _token_of(p.pid) if (token or everything) else None
        if token and theirs == token:
            found.add(p.pid)
        elif everything and p.ppid == me:
            if p.sid not in (my_sid, p.pid) or (theirs or "").startswith(_PROCESS_TAG):
                found.add(p.pid)
    found.discard(me)
    return found


def freeze(pid: int) -> set[int]:
    """Stop (SIGSTOP) running engine ``pid``'s process group and every process below it,
    again until no new one appears (a stopped process cannot start another, and none is
    re-parented while its parent stays), so that all of them can be killed; the pids below
    it. At most :data:`FREEZE_ROUNDS` rounds; never raises."""
    with suppress(OSError):
        os.killpg(pid, signal.SIGSTOP)
    frozen: set[int] = set()
    for _ in range(FREEZE_ROUNDS):
        try:
            new = descendants(pid, process_table()) - frozen
        except OSError:
            break
        if not new:
            break
        for child in new:
            with suppress(OSError):
                os.kill(child, signal.SIGSTOP)
        frozen |= new
    return frozen


def end_descendants(
    engine_pid: int | None = None,
    token: str | None = None,
    everything: bool = False,
    also: set[int] | None = None,
) -> int:
    """Kill what a stopped engine (``engine_pid``, its ``token``) left running: its
    session, its token, ``also`` these pids (its descendants seen before it was killed),
    and with ``everything`` every child this process inherited; reap those that are this
    process's children. Returns how many processes were killed; never raises."""
    try:
        pids = doomed(engine_pid, token, everything) | (also or set())
    except OSError:
        pids = set(also or ())
    pids.discard(os.getpid())
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    reap_adopted(pids)
    return len(pids)


@contextmanager
def starting() -> Iterator[None]:
    """Hold while an engine is started and noted with :func:`started`: a stop signal that
    arrives meanwhile in the main thread is acted on when the block ends (the engine noted,
    so it is ended too), and :func:`stop_engines` in another thread waits for the end."""
    global _main_starting, _deferred
    main = threading.current_thread() is threading.main_thread()
    try:
        with _STARTING:
            _main_starting += main
            try:
                yield
            finally:
                _main_starting -= main
    finally:
        if main and not _main_starting and _deferred is not None:
            signum, _deferred = _deferred, None
            _stop_engines_and_die(signum, None)


def started(pid: int, token: str | None = None) -> None:
    """Note that engine ``pid`` of this process runs (its environment carries ``token``)."""
    global _owner
    if _owner != os.getpid():  # a fork: the engines noted are its parent's
        _LIVE.clear()
        _owner = os.getpid()
    _LIVE[pid] = token


def stopped(pid: int) -> bool:
    """Note that engine ``pid`` stopped; whether no other engine of this process runs (then
    the stop signals get their default action back)."""
    _LIVE.pop(pid, None)
    if not _LIVE:
        _release_stop_signals()
    return not _LIVE


def _guard_stop_signals() -> None:
    """In the main thread, handle each of :data:`STOP_SIGNALS` whose action is the default
    one with :func:`_stop_engines_and_die` (a handler set by the program is kept)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for name in STOP_SIGNALS:
        signum = getattr(signal, name, None)
        if signum is not None and signal.getsignal(signum) == signal.SIG_DFL:
            signal.signal(signum, _stop_engines_and_die)


def _release_stop_signals() -> None:
    """In the main thread, give each of :data:`STOP_SIGNALS` that :func:`_guard_stop_signals`
    handled its default action back (no engine runs: nothing to end first)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for name in STOP_SIGNALS:
        signum = getattr(signal, name, None)
        if signum is not None and signal.getsignal(signum) == _stop_engines_and_die:
            signal.signal(signum, signal.SIG_DFL)


def stop_engines() -> int:
    """Kill every engine this process runs and every process they started (their trees,
    sessions and tokens, and every child this process inherited); how many were killed.
    An engine another thread is starting is waited for (at most :data:`START_SECONDS`)."""
    waited = _STARTING.acquire(timeout=START_SECONDS)
    try:
        return _stop_noted_engines()
    finally:
        if waited:
            _STARTING.release()


def _stop_noted_engines() -> int:
    engines = dict(_LIVE) if _owner == os.getpid() else {}
    below: set[int] = set()
    for pid in engines:
        below |= freeze(pid)
    for pid in engines:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    _LIVE.clear()
    killed = len(engines)
    for pid, token in engines.items():
        killed += end_descendants(pid, token, also=below)
    return killed + end_descendants(everything=True)


def _stop_engines_and_die(signum: int, frame: object) -> None:
    """The handler of :data:`STOP_SIGNALS`: :func:`stop_engines` (in the process that
    started them: a forked child inherits the handler, not the engines), then die of
    ``signum`` as without this handler. Deferred while the main thread is starting an
    engine (see :func:`starting`); a signal arriving while it runs changes nothing."""
    global _deferred, _stopping
    if _main_starting:
        _deferred = signum
        return
    if _stopping:
        return
    _stopping = True
    if _owner == os.getpid():
        stop_engines()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def reap_adopted(pids: set[int], deadline: float = REAP_SECONDS) -> None:
    """Wait (at most ``deadline`` seconds) until each of ``pids`` (killed just now) is
    gone: reap it when it is this process's child (as soon as it is, for one whose parent
    was killed too), leave it to its parent otherwise; then reap every zombie child this
    process inherited. Children it started itself are never touched: their owners
    (``subprocess``, ``multiprocessing``) wait for them."""
    me = os.getpid()
    end = time.monotonic() + deadline
    left = set(pids)
    while True:
        table = process_table()
        my_sid = table[me].sid if me in table else os.getsid(0)
        for p in table.values():
            if p.ppid == me and (p.pid in left or (p.zombie and p.sid not in (my_sid, p.pid))):
                try:
                    os.waitpid(p.pid, os.WNOHANG)
                except OSError:
                    pass
        # gone, or a zombie its own (living) parent will reap
        left = {p for p in left if p in table and (table[p].ppid == me or not table[p].zombie)}
        if not left or time.monotonic() > end:
            return
        time.sleep(0.01)
