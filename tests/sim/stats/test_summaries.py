"""Every figure read from the files' summaries equals the same figure counted game by game.

The reference is the per-game SQL the statistics ran before summaries existed (counts
over the ``games`` view), kept here; the data mixes simulated and crafted games: several
batches and rule sets (``yeshou``'s void games), bots of several kinds and a person,
games begun with Blue to move, adjudications, colour-swapped pairs split across files, and
a file written before summaries (no summary in its footer). Every sidebar filter is tried.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sim.batch import BatchSpec, run_batch
from sim.stats import (
    bot_table,
    capture_matrix,
    capture_squares,
    den_animals,
    end_reasons,
    general_stats,
    general_stats_by,
    length_counts,
    matchup_table,
    ratings,
    unstored_games,
)
from sim.stats.firstmove import first_move
from sim.stats.firstplayer import first_player_by_batch
from sim.stats.games import distinct_values
from sim.stats.matchups import pentanomial_counts
from sim.stats.query import FIRST_SIDE_SQL, VOID_SQL, Selection, query_rows, void_games
from sim.stats.synthetic import synthetic_table
from sim.storage.reading import open_dataset
from sim.storage.schema import GAME_SCHEMA
from sim.storage.summary import FOOTER_KEY
from sim.storage.writing import write_games_chunk

AB = "alphabeta:depth=2"


def _crafted(n: int, seed: int, batch: str, rules: str, bots: tuple[str, str]) -> pa.Table:
    t = synthetic_table(n, seed=seed, batch_id=batch, rules=rules, bots=bots)
    rng = np.random.default_rng(seed)
    reasons = t.column("reason").to_numpy(zero_copy_only=False).astype(object)
    adj = rng.random(n) < 0.1
    reasons[adj] = np.where(
        rng.random(int(adj.sum())) < 0.5, "adjudicated_resign", "adjudicated_draw"
    )
    fens = np.where(rng.random(n) < 0.2, "7/7/7/7/7/7/7/7/7 b", None)
    plies = t.column("plies").to_numpy().copy()
    short = rng.random(n) < 0.15  # void under yeshou (10 rounds)
    plies[short] = rng.integers(2, 20, int(short.sum()))
    t = t.set_column(t.schema.get_field_index("reason"), "reason", pa.array(reasons, pa.string()))
    t = t.set_column(
        t.schema.get_field_index("start_fen"), "start_fen", pa.array(fens, pa.string())
    )
    return t.set_column(t.schema.get_field_index("plies"), "plies", pa.array(plies, pa.int32()))


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("summaries")
    run_batch(
        BatchSpec(red="greedy", blue="random", games=60, seed=3, rules="yeshou", swap=True),
        d,
        batch_id="sim-yeshou",
    )
    run_batch(
        BatchSpec(red="random", blue="random", games=40, seed=4, rules="standard"),
        d,
        batch_id="sim-std",
    )
    crafted = _crafted(400, 7, "craft", "yeshou", (AB, "greedy"))
    # pairs split across files: odd-sized chunks
    for start in (0, 77, 150, 251):
        stop = {0: 77, 77: 150, 150: 251, 251: 400}[start]
        write_games_chunk(d, "craft", crafted.slice(start, stop - start))
    human = _crafted(30, 8, "people", "standard", ("human", AB))
    write_games_chunk(d, "people", human)
    # a file written before summaries: no summary in its footer
    old = _crafted(50, 9, "old", "standard", (AB, "random"))
    folder = d / "games" / "old"
    folder.mkdir(parents=True)
    pq.write_table(old.cast(GAME_SCHEMA), folder / "part-000000000-50-0badc0de.parquet")
    return d


SELECTIONS = [
    Selection(),
    Selection(rules=("yeshou",)),
    Selection(bots=("greedy",)),
    Selection(bots=(AB,)),
    Selection(bots=("alphabeta",), colour="red"),
    Selection(bots=("greedy", "alphabeta"), between=True),
    Selection(bots=(AB, "greedy"), colour="blue", between=True),
    Selection(batches=("craft", "old")),
    Selection(min_plies=30),
    Selection(min_plies=2),
    Selection(humans=True),
    Selection(bots=("human",)),
    Selection(adjudicated=False),
    Selection(voids=True),
    Selection(voids=True, adjudicated=False, min_plies=15, rules=("yeshou", "standard")),
    Selection(batches=("nothing",)),
]

_OLD_AGG = f"""
SELECT count(*) AS games,
       count(*) FILTER (WHERE winner = 'red') AS red,
       count(*) FILTER (WHERE winner = 'blue') AS blue,
       count(*) FILTER (WHERE winner = 'draw') AS draw,
       count(*) FILTER (WHERE winner = {FIRST_SIDE_SQL}) AS first_wins,
       avg(plies) AS mean, stddev_samp(plies) AS sd, median(plies) AS median,
       min(plies) AS min, max(plies) AS max, avg(branching) AS branching,
       avg(duration_ms) AS duration
FROM sel"""


def _close(a: object, b: object) -> bool:
    if a is None or b is None or (isinstance(a, float) and math.isnan(a)):
        return (a is None or math.isnan(float(a))) and (b is None or math.isnan(float(b)))  # type: ignore[arg-type]
    return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-9)  # type: ignore[arg-type]


@pytest.mark.parametrize("sel", SELECTIONS, ids=lambda s: s.describe()[:60])
def test_every_figure_equals_the_per_game_count(data: Path, sel: Selection) -> None:
    with open_dataset(data) as ds:
        con = ds.con
        assert not ds.skipped
        g = general_stats(con, sel)
        old = dict(zip(["games", "red", "blue", "draw", "first_wins", "mean", "sd", "median",
                        "min", "max", "branching", "duration"],
                       query_rows(con, sel, _OLD_AGG)[0], strict=True))  # fmt: skip
        assert (g.games, g.red.count, g.blue.count, g.draw.count) == (
            old["games"], old["red"], old["blue"], old["draw"],
        )  # fmt: skip
        if g.games:
            assert g.first_player.wins == old["first_wins"]
            assert (g.length.min, g.length.max) == (old["min"], old["max"])
            for ours, theirs in [(g.length.mean, old["mean"]), (g.length.sd, old["sd"]),
                                 (g.length.median, old["median"]),
                                 (g.branching, old["branching"]),
                                 (g.mean_duration_ms, old["duration"])]:  # fmt: skip
                assert _close(ours, theirs), (ours, theirs)
        reasons = dict(
            (r, n) for r, n in query_rows(con, sel, "SELECT reason, count(*) FROM sel GROUP BY 1")
        )
        assert {r: n for r, n in g.reasons.items() if n} == {r: n for r, n in reasons.items() if n}
        # void games, counted whether or not the selection counts them
        cond, params = sel.where(scored=False)
        n_void = con.execute(
            f"SELECT count(*) FROM games WHERE {cond} AND {VOID_SQL}", params
        ).fetchall()[0][0]
        assert void_games(con, sel) == n_void
        # games recorded without their moves
        (no_moves,) = query_rows(con, sel, "SELECT count(*) FROM sel WHERE moves IS NULL")[0]
        assert unstored_games(con, sel) == no_moves
        # lengths
        lengths = dict(query_rows(con, sel, "SELECT plies, count(*) FROM sel GROUP BY 1"))
        assert (
            dict(zip(*[length_counts(con, sel)[c] for c in ("plies", "games")], strict=True))
            == lengths
        )
        # end reasons by winner
        ends = "SELECT coalesce(reason, 'other'), winner, count(*) FROM sel GROUP BY 1, 2"
        by = {(r, w): n for r, w, n in query_rows(con, sel, ends)}
        er = end_reasons(con, sel)
        for row in er.to_dict("records"):
            for w in ("red", "blue", "draw"):
                assert row[w] == by.get((row["reason"], w), 0)
        # den animals
        den = {(a, w): n for a, w, n in query_rows(
            con, sel, "SELECT den_animal, winner, count(*) FROM sel WHERE reason = 'den' "
            "AND den_animal IS NOT NULL GROUP BY 1, 2")}  # fmt: skip
        for row in den_animals(con, sel).to_dict("records"):
            assert (row["red"], row["blue"]) == (
                den.get((row["animal"], "red"), 0),
                den.get((row["animal"], "blue"), 0),
            )
        # captures: who takes whom, and where
        caps = ", caps AS (SELECT unnest(captures) AS c FROM sel WHERE len(captures) > 0) "
        m = np.zeros((8, 8), dtype=np.int64)
        who = "SELECT (c.capturer - 1) % 8, (c.captured - 1) % 8, count(*) FROM caps GROUP BY 1, 2"
        for i, j, n in query_rows(con, sel, caps + who):
            m[int(i), int(j)] += n
        assert (capture_matrix(con, sel).to_numpy() == m).all()
        sq = np.zeros(63, dtype=np.int64)
        where = (
            "SELECT c.square, count(*) FROM caps "
            "WHERE (c.capturer - 1) % 8 = 6 AND c.capturer <= 8 GROUP BY 1"
        )
        for s, n in query_rows(con, sel, caps + where):
            sq[int(s)] += n
        got = capture_squares(con, sel, side="red", animal="lion")["captures"].to_numpy()
        assert (got == sq).all()
        # first mover by batch
        fp = first_player_by_batch(con, sel)
        ref = {b: (n, w) for b, n, w in query_rows(
            con, sel, f"SELECT batch_id, count(*), count(*) FILTER (WHERE winner = "
            f"{FIRST_SIDE_SQL}) FROM sel GROUP BY 1")}  # fmt: skip
        assert {r["batch"]: (r["games"], r["wins"]) for r in fp.to_dict("records")} == ref


_OLD_PAIRS = """
, pairs AS (
    SELECT min(red) AS a, max(red) AS b,
           sum(CASE WHEN winner = 'draw' THEN 1
                    WHEN winner = 'red' AND red < blue THEN 2
                    WHEN winner = 'blue' AND blue < red THEN 2
                    ELSE 0 END) AS hp_a
    FROM sel
    WHERE pair_id IS NOT NULL AND red <> blue
    GROUP BY batch_id, pair_id
    HAVING count(*) = 2 AND min(red) = min(blue) AND max(red) = max(blue)
       AND min(red) <> max(red)
)
SELECT a, b, hp_a::INTEGER, count(*)::BIGINT FROM pairs GROUP BY 1, 2, 3
"""


@pytest.mark.parametrize("sel", SELECTIONS, ids=lambda s: s.describe()[:60])
def test_bots_pairs_and_ratings_equal_the_per_game_count(data: Path, sel: Selection) -> None:
    with open_dataset(data) as ds:
        con = ds.con
        ref: dict[tuple[str, str], list[int]] = {}
        for a, b, hp, n in query_rows(con, sel, _OLD_PAIRS):
            ref.setdefault((a, b), [0] * 5)[hp] += n
            ref.setdefault((b, a), [0] * 5)[4 - hp] += n
        assert pentanomial_counts(con, sel) == ref
        wdl = {(r, b): (n, w, d) for r, b, n, w, d in query_rows(
            con, sel, "SELECT red, blue, count(*), count(*) FILTER (WHERE winner = 'red'), "
            "count(*) FILTER (WHERE winner = 'draw') FROM sel WHERE red <> blue "
            "GROUP BY 1, 2")}  # fmt: skip
        table = matchup_table(con, sel)
        for row in table.to_dict("records"):
            as_red = wdl.get((row["bot"], row["opponent"]), (0, 0, 0))
            as_blue = wdl.get((row["opponent"], row["bot"]), (0, 0, 0))
            assert row["games"] == as_red[0] + as_blue[0]
            assert row["wins"] == as_red[1] + (as_blue[0] - as_blue[1] - as_blue[2])
            assert row["draws"] == as_red[2] + as_blue[2]
        assert sum(bot_table(con, sel)["games"]) == sum(
            n for (r, b), (n, _, _) in wdl.items() for p in (r, b) if sel.names(p)
        )
        if wdl:
            r = ratings(con, sel)
            assert int(r.table["games"].sum()) == 2 * sum(n for n, _, _ in wdl.values()) or sel.bots
        fm = first_move(con, sel)
        assert fm.games == general_stats(con, sel).games


def test_pairs_split_across_files_are_paired(data: Path) -> None:
    with open_dataset(data) as ds:
        halves = ds.con.execute("SELECT count(*) FROM summary WHERE kind = 3").fetchall()[0][0]
        assert halves >= 2  # the chunks of 77, 73, 101 and 149 games cut pairs in two
        sel = Selection(batches=("craft",), voids=True)  # 200 pairs, seen from either bot
        assert sum(sum(v) for v in pentanomial_counts(ds.con, sel).values()) == 2 * 200


def test_grouped_figures_and_distinct_values_equal_the_games(data: Path) -> None:
    with open_dataset(data) as ds:
        con = ds.con
        by = general_stats_by(con, Selection(voids=True, humans=True), by="batch")
        ref = dict(con.execute("SELECT batch_id, count(*) FROM games GROUP BY 1").fetchall())
        assert dict(zip(by["batch"], by["games"], strict=True)) == ref
        med = dict(con.execute("SELECT batch_id, median(plies) FROM games GROUP BY 1").fetchall())
        assert dict(zip(by["batch"], by["median_plies"], strict=True)) == pytest.approx(med)
        dv = distinct_values(con)
        assert dv["batches"] == sorted(ref)
        bots = {
            b
            for (b,) in con.execute("SELECT red FROM games UNION SELECT blue FROM games").fetchall()
        }
        assert dv["bots"] == sorted(bots)


def test_a_file_without_summary_is_summarised_once_and_cached(data: Path) -> None:
    old = next((data / "games" / "old").glob("*.parquet"))
    assert FOOTER_KEY not in (pq.read_metadata(old).metadata or {})
    with open_dataset(data) as ds:
        assert ds.con.execute("SELECT sum(games) FROM cells WHERE batch_id = 'old'").fetchall() == [
            (50,)
        ]
    assert (old.parent / ".summaries").is_file()
    new = next((data / "games" / "craft").glob("*.parquet"))
    assert FOOTER_KEY in pq.read_metadata(new).metadata
