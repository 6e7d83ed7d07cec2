"""How often the anti-chasing rules forbade a move, by replaying a cell's games in one
compiled call: at each position, the moves the 7-3 rule removes, then those the 17-5 rule
removes from what is left (the engine's order, docs/rules.md 'Anti-chasing rules')."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import core, parse_rules
from engine.fen import parse_fen
from engine.jit import njit
from engine.rules import R_RULE_7_3, R_RULE_17_5


@njit(cache=True)
def _replay_forbidden(start, rules, moves, offsets, out):  # pragma: no cover - compiled
    """Replay each game ``moves[offsets[g]:offsets[g + 1]]`` from ``start``; ``out`` gets
    positions, positions where 7-3 forbade a move, where 17-5 did, and the moves each
    forbade."""
    buf = np.empty(core.MAX_MOVES, dtype=np.int32)
    st = start.copy()
    for g in range(offsets.shape[0] - 1):
        st[:] = start
        for ply in range(offsets[g], offsets[g + 1]):
            n = core.pseudo_moves(st, rules, buf)
            out[0] += 1
            if rules[R_RULE_7_3] != 0:
                m = core.filter_7_3(st, rules, buf, n)
                if m < n:
                    out[1] += 1
                    out[3] += n - m
                n = m
            if rules[R_RULE_17_5] != 0:
                m = core.filter_17_5(st, rules, buf, n)
                if m < n:
                    out[2] += 1
                    out[4] += n - m
            core.make_move(st, rules, moves[ply])
    return out


MOVES_SQL = """
SELECT moves FROM games
WHERE batch_id IN (SELECT unnest(?)) AND start_fen IS NULL AND moves IS NOT NULL
"""


def forbidden_counts(con: Any, batches: list[str], rules: str) -> dict[str, Any]:
    """``forbidden_7_3`` / ``forbidden_17_5``: the share of positions in which the rule
    forbade at least one move (``value``), with ``positions`` and ``moves`` forbidden;
    None under rules without that rule."""
    r = parse_rules(rules)
    out: dict[str, Any] = {"forbidden_7_3": None, "forbidden_17_5": None}
    if not batches or not (r.rule_7_3 or r.rule_17_5):
        return out
    table = con.sql(MOVES_SQL, params=[list(batches)]).to_arrow_table()
    col = table.column("moves").combine_chunks()
    offsets = np.asarray(col.offsets, dtype=np.int64)
    values = np.asarray(col.values, dtype=np.int32)
    longest = int(np.diff(offsets).max()) if offsets.size > 1 else 0
    arr = r.as_array()
    small = parse_fen("start", arr)
    start = core.new_state(max(longest + 2, core.history_capacity(small)))
    start[: small.shape[0]] = small
    counts = _replay_forbidden(start, arr, values, offsets, np.zeros(5, dtype=np.int64))
    positions = int(counts[0])
    for i, (name, on) in enumerate(
        (("forbidden_7_3", r.rule_7_3), ("forbidden_17_5", r.rule_17_5))
    ):
        if on:
            k = int(counts[1 + i])
            out[name] = {
                "value": k / positions if positions else None,
                "positions": k,
                "moves": int(counts[3 + i]),
                "of": positions,
            }
    return out
