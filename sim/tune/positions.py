"""Quiet positions of recorded games, labelled for fitting an evaluation.

Each selected game is replayed from its start; a position is *quiet* when the game goes
on, the side to move has a legal move, and none of its moves captures or enters the
enemy den (the positions where a static evaluation is meant to be right: the search's
quiescence settles the others). A quiet position is kept with its 16 animals' squares,
the side to move, the first and second of the mover's animals an enemy could capture now
(in the evaluation's danger order, 0: none), and its label for the side to move: the
game's result (1 won, 0.5 drawn, 0 lost) or, where an endgame table on disk covers the
position, the table's exact value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine import core
from engine.board import DENS, NSQ
from engine.fen import START_FEN, parse_fen
from engine.jit import kernel
from engine.moves import chased_bits
from engine.rules import Ruleset

BATCH_ROWS = 2000
WON, DRAWN, LOST = 1.0, 0.5, 0.0


@kernel
def walk_game(st, rules, moves, order, squares, meta, buf):
    """Play ``moves`` from ``st``, writing each quiet position before a move (and the last
    one) into ``squares[k, code - 1]`` (square or -1) and ``meta[k]`` (side to move, ply,
    first and second animal in danger); returns the positions written, or ``-1 - i`` when
    move ``i`` is not legal (``buf``: room for the legal moves)."""
    k = 0
    for i in range(len(moves) + 1):
        if st[core.S_STATUS] != core.ONGOING:
            break
        n = core.legal_moves(st, rules, buf)
        if n == 0:
            break
        side = st[core.S_SIDE]
        den = DENS[1 - side]
        quiet = True
        for j in range(n):
            to = buf[j] & 63
            if st[to] != 0 or to == den:
                quiet = False
                break
        if quiet:
            for code in range(1, 17):
                squares[k, code - 1] = st[core.P_SQ + code]
            meta[k, 0] = side
            meta[k, 1] = i
            chased = chased_bits(st, rules, side)
            found = 0
            meta[k, 2] = 0
            meta[k, 3] = 0
            if chased != 0:
                for a in range(8):
                    animal = order[a]
                    sq = st[core.P_SQ + side * 8 + animal]
                    if sq >= 0 and ((chased >> sq) & 1) != 0:
                        meta[k, 2 + found] = animal
                        found += 1
                        if found == 2:
                            break
            k += 1
        if i == len(moves):
            break
        mv = moves[i]
        legal = False
        for j in range(n):
            if buf[j] == mv:
                legal = True
                break
        if not legal:
            return -1 - i
        core.make_move(st, rules, mv)
    return k


@dataclass
class Positions:
    """Labelled quiet positions: ``squares[n, 16]`` (codes 1..16: Red's rat..elephant,
    then Blue's; -1 captured), ``side``, ``first``/``second`` (animals in danger, 0 none),
    ``label`` (for the side to move), ``game`` (index of its game), ``tabled`` (label
    from the endgame tables) and ``search`` (the recorded search score of the move played
    there, as an expected result ``(1 + score) / 2`` for the side to move; NaN: none)."""

    squares: np.ndarray
    side: np.ndarray
    first: np.ndarray
    second: np.ndarray
    label: np.ndarray
    game: np.ndarray
    tabled: np.ndarray
    search: np.ndarray

    def blended(self, result_weight: float) -> np.ndarray:
        """Labels ``w * result + (1 - w) * search`` where a search score was recorded and
        the tables did not settle the position, else the label."""
        mix = np.isfinite(self.search) & ~self.tabled
        out = self.label.astype(np.float64).copy()
        out[mix] = result_weight * out[mix] + (1 - result_weight) * self.search[mix]
        return out

    def __len__(self) -> int:
        return int(self.label.shape[0])

    def take(self, index: np.ndarray) -> Positions:
        """The positions at ``index``."""
        return Positions(*(getattr(self, f)[index] for f in self.__dataclass_fields__))


@dataclass(frozen=True)
class Collected:
    """What :func:`collect` read: the positions, the games replayed, those refused (a move
    not legal under the rules), and the quiet positions seen before sampling."""

    positions: Positions
    games: int
    refused: int
    seen: int


def _rows(con: Any, sql: str, params: list[Any]) -> Iterator[tuple[Any, ...]]:
    cur = con.execute(sql, params)
    while rows := cur.fetchmany(BATCH_ROWS):
        yield from rows


def collect(
    con: Any,
    selection: Any,
    rules: Ruleset,
    order: tuple[int, ...],
    limit: int,
    seed: int,
    tables: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Collected:
    """The quiet positions of the selected games (at most ``limit``, a uniform sample drawn
    with ``seed`` when there are more), labelled (see the module docstring)."""
    cte, params = selection.cte()
    sql = (  # games recorded without their moves (--record outcomes) have no positions
        f"{cte} SELECT start_fen, moves, winner, scores FROM sel WHERE moves IS NOT NULL "
        "ORDER BY batch_id, game_index"
    )
    ra = rules.as_array()
    gen = np.random.default_rng(seed)
    order_arr = np.asarray(order, dtype=np.int64)
    starts: dict[str | None, np.ndarray] = {}
    buf = np.empty(core.MAX_MOVES, dtype=np.int32)
    kept: list[tuple[np.ndarray, np.ndarray, int, float, np.ndarray]] = []
    seen = games = refused = 0
    for start_fen, moves, winner, scores in _rows(con, sql, params):
        games += 1
        base = starts.get(start_fen)
        if base is None:
            base = starts[start_fen] = parse_fen(start_fen or START_FEN, ra, 1024)
        mv = np.asarray(moves, dtype=np.int32)
        st = _fresh(base, len(mv))
        squares = np.empty((len(mv) + 1, 16), dtype=np.int8)
        meta = np.empty((len(mv) + 1, 4), dtype=np.int16)
        n = int(walk_game(st, ra, mv, order_arr, squares, meta, buf))
        if n < 0:
            refused += 1
            continue
        seen += n
        red = WON if winner == "red" else DRAWN if winner == "draw" else LOST
        kept.append((squares[:n], meta[:n], games - 1, red, _search(scores, meta[:n], len(mv))))
        if progress is not None and games % 1000 == 0:
            progress(games, seen)
    pos = _assemble(kept)
    if len(pos) > limit:
        pos = pos.take(np.sort(gen.choice(len(pos), size=limit, replace=False)))
    if tables is not None:
        _label_from_tables(pos, rules, tables)
    return Collected(pos, games, refused, seen)


def _fresh(base: np.ndarray, plies: int) -> np.ndarray:
    """A copy of the start state ``base`` with room for ``plies`` more moves."""
    used = core.HEADER + core.HIST_SIZE * int(base[core.S_NPLY])
    st = core.new_state(int(base[core.S_NPLY]) + plies + 4)
    st[:used] = base[:used]
    return st


def _search(scores: list[float | None] | None, meta: np.ndarray, plies: int) -> np.ndarray:
    """The recorded search score of the move played at each position, for its mover, as
    an expected result (NaN: none, or the last position, where no move was played)."""
    red = np.full(plies + 1, np.nan, dtype=np.float32)
    if scores is not None:
        got = np.asarray([np.nan if v is None else v for v in scores[:plies]], np.float32)
        red[: len(got)] = got
    mover = red[meta[:, 1]]
    mover = np.where(meta[:, 0] == 0, mover, -mover)
    return ((1.0 + mover) / 2.0).astype(np.float32)


def _assemble(kept: list[tuple[np.ndarray, np.ndarray, int, float, np.ndarray]]) -> Positions:
    if not kept:
        z = np.zeros(0, dtype=np.int8)
        f = np.zeros(0, np.float32)
        return Positions(np.zeros((0, 16), np.int8), z, z, z, f, np.zeros(0, np.int32),
                         np.zeros(0, bool), f)  # fmt: skip
    squares = np.concatenate([k[0] for k in kept])
    meta = np.concatenate([k[1] for k in kept])
    game = np.concatenate([np.full(len(k[0]), k[2], np.int32) for k in kept])
    red = np.concatenate([np.full(len(k[0]), k[3], np.float32) for k in kept])
    side = meta[:, 0].astype(np.int8)
    label = np.where(side == 0, red, 1.0 - red).astype(np.float32)
    search = np.concatenate([k[4] for k in kept])
    return Positions(squares, side, meta[:, 2].astype(np.int8), meta[:, 3].astype(np.int8),
                     label, game, np.zeros(len(label), bool), search)  # fmt: skip


def _label_from_tables(pos: Positions, rules: Ruleset, tables: Path) -> None:
    """Relabel the positions an endgame table on disk covers with its exact value."""
    # lazy: start-up time (the tables' store loads pyarrow)
    from sim.tablebase import outcomes as V
    from sim.tablebase.material import MAX_PIECES
    from sim.tablebase.probe import table_code
    from sim.tablebase.store import cache_for, rules_key

    alive = (pos.squares >= 0).sum(axis=1)
    few = np.flatnonzero((alive <= MAX_PIECES) & (pos.squares[:, :8] >= 0).any(axis=1)
                         & (pos.squares[:, 8:] >= 0).any(axis=1))  # fmt: skip
    if len(few) == 0:
        return
    cache = cache_for(tables)
    key = rules_key(rules)
    for i in few:
        board = np.zeros(NSQ, dtype=np.int64)
        for code in range(1, 17):
            sq = int(pos.squares[i, code - 1])
            if sq >= 0:
                board[sq] = code
        found = table_code(cache, key, board, int(pos.side[i]))
        if found is None:
            continue
        value, _ = V.decode(found)
        pos.label[i] = WON if value == "win" else LOST if value == "loss" else DRAWN
        pos.tabled[i] = True
