"""Engine processes kept per (worker) process: started once, reused across games.

:func:`acquire` hands out an idle running engine of the same registry entry and options,
or starts one; :func:`release` takes it back for the next game, or closes it when it
misbehaved (so the next game starts a fresh one). A game between two bots of the same
engine holds two processes. Every engine left is closed when the process exits
(``atexit``), and an engine whose parent dies reads end of file on its stdin.
"""

from __future__ import annotations

import atexit
import threading

from sim.external.client import EngineClient
from sim.external.registry import EngineEntry

_IDLE: dict[tuple[str, tuple[tuple[str, str], ...]], list[EngineClient]] = {}
_BUSY: set[int] = set()
_ALL: list[EngineClient] = []
_LOCK = threading.Lock()


def acquire(entry: EngineEntry, options: tuple[tuple[str, str], ...] = ()) -> EngineClient:
    """A running engine for ``entry`` with ``options`` set (EngineFault if it cannot start)."""
    key = (entry.to_json(), tuple(options))
    with _LOCK:
        idle = _IDLE.setdefault(key, [])
        while idle:
            client = idle.pop()
            if client.alive():
                _BUSY.add(id(client))
                return client
            _forget(client)
    client = EngineClient(entry, tuple(options))
    with _LOCK:
        _ALL.append(client)
    try:
        client.start()
    except BaseException:
        with _LOCK:
            _forget(client)
        raise
    with _LOCK:
        _BUSY.add(id(client))
    return client


def release(client: EngineClient) -> None:
    """Give an engine back: kept for the next game if it is healthy, else closed."""
    key = (client.entry.to_json(), client.options)
    with _LOCK:
        _BUSY.discard(id(client))
        if client.alive():
            _IDLE.setdefault(key, []).append(client)
            return
        _forget(client)


def _forget(client: EngineClient) -> None:
    """Close an engine and drop it from the pool (the lock is held)."""
    client.close()
    if client in _ALL:
        _ALL.remove(client)


def running() -> int:
    """How many engine processes this process holds (idle or in a game)."""
    with _LOCK:
        return sum(1 for c in _ALL if c.alive())


def close_all() -> None:
    """Close every engine of this process (at exit, and when a worker shuts down)."""
    with _LOCK:
        clients = list(_ALL)
        _ALL.clear()
        _IDLE.clear()
        _BUSY.clear()
    for client in clients:
        client.close()


atexit.register(close_all)
