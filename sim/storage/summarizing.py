"""Computing summaries (:mod:`sim.storage.summary` says what one holds and how it is
stored): the summary of a table of games (:func:`summarize`), several summaries merged into
one (:func:`merge`), whether two are the same (:func:`same`), and a file's stored summary
checked against its games (:func:`check_summary`).

Summaries are computed from games and merged by Arrow's compute functions (hash
aggregations on one thread, so sums are added in one order and a summary computed
twice is equal). Who moved first and whether a game is void are the statistics' own
SQL (:mod:`sim.storage.gamesql`), applied to each distinct rule set and start position
rather than to each game.
"""

from __future__ import annotations

import threading

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sim.core.addrspace import duckdb_config
from sim.storage.gamesql import ADJUDICATED, FIRST_SIDE_SQL, VOID_ROUNDS_SQL
from sim.storage.summary import CAPTURES, CELLS, HALVES, PAIRS, SUMMARY_SCHEMA, stored_summary

_CELL_KEYS = [
    "batch_id", "rules", "red", "blue", "first_side", "stored", "winner", "reason",
    "den_animal", "plies", "void",
]  # fmt: skip
_CAPTURE_KEYS = [
    "batch_id", "rules", "red", "blue", "adjudicated", "void", "capturer", "captured", "square",
]  # fmt: skip
_HALF_KEYS = ["batch_id", "pair_id", "rules", "red", "blue", "winner", "reason", "plies"]
_PAIR_KEYS = ["batch_id", "rules", "red", "blue", "hp", "plies", "adjudicated"]
_SUMMED = ("games", "branching_sum", "branching_n", "duration_sum", "duration_n")


_memo: dict[str, dict[str | None, object]] = {}
_memo_lock = threading.Lock()
MAX_MEMO = 100_000  # distinct values kept per expression


def _per_value(column: pa.ChunkedArray, sql: str, name: str, kind: pa.DataType) -> pa.Array:
    """``sql`` (an expression of the column ``name``) for each row of ``column``: computed
    by DuckDB once per distinct value and kept for the process."""
    values = pc.unique(column)
    with _memo_lock:
        memo = _memo.setdefault(sql, {})
        if len(memo) > MAX_MEMO:
            memo.clear()
        todo = [v for v in values.to_pylist() if v not in memo]
    if todo:
        # Opened and closed here, in the calling thread (a verifier's pool thread too): a
        # connection left to a thread that has ended can abort the process when it exits
        # (duckdb/duckdb#13904). New distinct values are rare, so this seldom runs.
        with duckdb.connect(database=":memory:", config={**duckdb_config(), "threads": 1}) as con:
            con.register("v", pa.table({name: pa.array(todo, pa.string())}))
            got = con.sql(f"SELECT {sql} FROM v").to_arrow_table().column(0).to_pylist()
        with _memo_lock:
            memo.update(zip(todo, got, strict=True))
    known = pa.array([memo[v] for v in values.to_pylist()], kind)
    return pc.take(known, pc.index_in(column, value_set=values, skip_nulls=False))


def _group(table: pa.Table, keys: list[str], sums: list[tuple[str, str]]) -> pa.Table:
    out = table.group_by(keys, use_threads=False).aggregate([([], "count_all"), *sums])
    return out.rename_columns([*keys, "games", *(f"{c}_{f}" for c, f in sums)])


def _as_summary(kind: int, table: pa.Table) -> pa.Table:
    n = table.num_rows
    cols = [
        pa.array([kind] * n, pa.int8())
        if f.name == "kind"
        else table.column(f.name).cast(f.type)
        if f.name in table.column_names
        else pa.nulls(n, f.type)
        for f in SUMMARY_SCHEMA
    ]
    return pa.Table.from_arrays(cols, schema=SUMMARY_SCHEMA)


def _cells(g: pa.Table) -> pa.Table:
    keyed = (
        g.select(_CELL_KEYS)
        .append_column("b", pc.cast(g.column("branching"), pa.float64()))
        .append_column("d", pc.cast(g.column("duration_ms"), pa.float64()))
    )
    out = _group(keyed, _CELL_KEYS, [("b", "sum"), ("b", "count"), ("d", "sum"), ("d", "count")])
    out = out.rename_columns(
        [*_CELL_KEYS, "games", "branching_sum", "branching_n", "duration_sum", "duration_n"]
    )
    for name in ("branching_sum", "duration_sum"):
        i = out.schema.get_field_index(name)
        out = out.set_column(i, name, pc.fill_null(out.column(name), 0.0))
    return _as_summary(CELLS, out)


def _captures(g: pa.Table) -> pa.Table:
    """Capture events counted by their game's keys and by piece, piece and square: each
    game's keys numbered once, each event packed in one integer (int8 fields offset by
    128), so the events are grouped by two integers."""
    caps = g.column("captures")
    flat = pc.list_flatten(caps)
    packed = None
    for name, scale in (("capturer", 1 << 16), ("captured", 1 << 8), ("square", 1)):
        field = pc.add(pc.cast(pc.struct_field(flat, name), pa.int32()), 128)
        term = pc.multiply(field, scale)
        packed = term if packed is None else pc.add(packed, term)
    keys = g.select(_CAPTURE_KEYS[:6])
    numbered = keys.group_by(keys.column_names, use_threads=False).aggregate([])
    numbered = numbered.append_column("gid", pa.array(range(numbered.num_rows), pa.int32()))
    rows = keys.append_column("row", pa.array(range(keys.num_rows), pa.int64()))
    gid = rows.join(numbered, keys.column_names, use_threads=False).sort_by("row")["gid"]
    events = pa.table({"gid": pc.take(gid, pc.list_parent_indices(caps)), "code": packed})
    counted = events.group_by(["gid", "code"], use_threads=False).aggregate([([], "count_all")])
    out = numbered.take(counted["gid"]).select(_CAPTURE_KEYS[:6])
    code = counted["code"]
    for name, scale in (("capturer", 1 << 16), ("captured", 1 << 8), ("square", 1)):
        value = pc.subtract(pc.bit_wise_and(pc.divide(code, scale), 255), 128)
        out = out.append_column(name, pc.cast(value, pa.int8()))
    return _as_summary(CAPTURES, out.append_column("games", counted["count_all"]))


def _pairs(g: pa.Table) -> list[pa.Table]:
    paired = pc.and_(pc.is_valid(g.column("pair_id")), pc.not_equal(g["red"], g["blue"]))
    pg = g.filter(pc.fill_null(paired, False)).select([*_HALF_KEYS, "adjudicated"])
    if pg.num_rows == 0:
        return []
    stats = pg.group_by(["batch_id", "pair_id"], use_threads=False).aggregate(
        [
            ([], "count_all"),
            ("red", "min"),
            ("red", "max"),
            ("blue", "min"),
            ("blue", "max"),
            ("rules", "min"),
            ("rules", "max"),
        ]  # fmt: skip
    )
    whole = pc.and_(
        pc.and_(pc.equal(stats["count_all"], 2), pc.equal(stats["red_min"], stats["blue_min"])),
        pc.and_(
            pc.and_(
                pc.equal(stats["red_max"], stats["blue_max"]),
                pc.not_equal(stats["red_min"], stats["red_max"]),
            ),  # fmt: skip
            pc.equal(stats["rules_min"], stats["rules_max"]),
        ),
    )
    keys = stats.filter(whole).select(["batch_id", "pair_id"])
    complete = pg.join(keys, ["batch_id", "pair_id"], join_type="left semi", use_threads=False)
    halves = pg.join(keys, ["batch_id", "pair_id"], join_type="left anti", use_threads=False)
    out = []
    if complete.num_rows:
        won = pc.or_(
            pc.and_(
                pc.equal(complete["winner"], "red"), pc.less(complete["red"], complete["blue"])
            ),
            pc.and_(
                pc.equal(complete["winner"], "blue"), pc.less(complete["blue"], complete["red"])
            ),
        )
        hp = pc.if_else(pc.equal(complete["winner"], "draw"), 1, pc.if_else(won, 2, 0))
        per = complete.append_column("hp", pc.cast(hp, pa.int64())).group_by(
            ["batch_id", "pair_id"], use_threads=False
        ).aggregate([("rules", "min"), ("red", "min"), ("red", "max"), ("hp", "sum"),
                     ("plies", "min"), ("adjudicated", "any")])  # fmt: skip
        per = per.rename_columns(["batch_id", "pair_id", *_PAIR_KEYS[1:]])
        out.append(_as_summary(PAIRS, _group(per.select(_PAIR_KEYS), _PAIR_KEYS, [])))
    if halves.num_rows:
        out.append(_as_summary(HALVES, _group(halves.select(_HALF_KEYS), _HALF_KEYS, [])))
    return out


def _prepared(table: pa.Table) -> pa.Table:
    """The games with the columns the summary is counted by."""
    n = table.num_rows
    for name, kind in (("start_fen", pa.string()), ("pair_id", pa.int32())):
        if name not in table.column_names:  # a file written before the column existed
            table = table.append_column(name, pa.nulls(n, kind))
    first = _per_value(table.column("start_fen"), FIRST_SIDE_SQL, "start_fen", pa.string())
    rounds = _per_value(table.column("rules"), VOID_ROUNDS_SQL, "rules", pa.int64())
    plies = pc.cast(table.column("plies"), pa.int64())
    void = pc.and_(pc.greater(rounds, 0), pc.less_equal(plies, pc.multiply(rounds, 2)))
    adjudicated = pc.fill_null(pc.is_in(table.column("reason"), pa.array(ADJUDICATED)), False)
    return (
        table.append_column("first_side", first)
        .append_column("stored", pc.is_valid(table.column("moves")))
        .append_column("void", pc.fill_null(void, False))
        .append_column("adjudicated", adjudicated)
    )


def _canonical(parts: list[pa.Table]) -> pa.Table:
    whole = pa.concat_tables(parts) if parts else SUMMARY_SCHEMA.empty_table()
    order = [(f.name, "ascending") for f in SUMMARY_SCHEMA if f.name not in _SUMMED]
    return whole.sort_by(order).combine_chunks()  # nulls last


def summarize(table: pa.Table) -> pa.Table:
    """The summary (:data:`~sim.storage.summary.SUMMARY_SCHEMA`) of a table of games (a
    games file's columns; optional columns an older file lacks read as NULL). Its rows
    come in the order the aggregations give (compare summaries with :func:`same`)."""
    g = _prepared(table)
    parts = [_cells(g)] if g.num_rows else []
    if g.num_rows and (pc.sum(pc.list_value_length(g.column("captures"))).as_py() or 0):
        parts.append(_captures(g))
    if g.num_rows:
        parts += _pairs(g)
    return pa.concat_tables(parts).combine_chunks() if parts else SUMMARY_SCHEMA.empty_table()


def merge(tables: list[pa.Table]) -> pa.Table:
    """The summaries ``tables`` as one: the rows of equal keys added up (a folder's files
    as one summary; every statistic of the merged summary is that of the parts)."""
    whole = pa.concat_tables(tables) if tables else SUMMARY_SCHEMA.empty_table()
    keys = [f.name for f in SUMMARY_SCHEMA if f.name not in _SUMMED]
    out = whole.group_by(keys, use_threads=False).aggregate([(c, "sum") for c in _SUMMED])
    out = out.rename_columns([*keys, *_SUMMED])
    return out.select(SUMMARY_SCHEMA.names).cast(SUMMARY_SCHEMA).combine_chunks()


def same(a: pa.Table, b: pa.Table) -> bool:
    """Whether two summaries hold the same rows in any order (sums of floating-point
    columns equal to a relative 1e-9: the order of additions may differ)."""
    if a.num_rows != b.num_rows or not a.schema.equals(b.schema):
        return False
    a, b = _canonical([a]), _canonical([b])
    floats = {"branching_sum", "duration_sum"}
    for name in a.column_names:
        x, y = a.column(name), b.column(name)
        if name not in floats:
            if not x.equals(y):
                return False
        elif not np.allclose(x.to_numpy(), y.to_numpy(), rtol=1e-9, atol=1e-9, equal_nan=True):
            return False
    return True


def check_summary(
    table: pa.Table, metadata: dict[bytes, bytes] | None
) -> tuple[str | None, pa.Table]:
    """Verify the summary a file's footer ``metadata`` holds against its games ``table``:
    why it is wrong (None when it is right or absent), and the summary of the games."""
    computed = summarize(table)
    try:
        stored = stored_summary(metadata)
    except ValueError as exc:
        return str(exc), computed
    if stored is not None and not same(stored, computed):
        return "its summary does not match its games", computed
    return None, computed
