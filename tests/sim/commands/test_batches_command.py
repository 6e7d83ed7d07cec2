"""``dsq batches`` gives every batch its bots' W-D-L, score and logistic Elo, a record too
old to hold the bots' counts included (they are counted from its games), and never ``inf``."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from sim.report.batch_text import SELF_PLAY
from sim.report.fmt import elo, num, wdl
from sim.stats import Selection, matchup_table
from sim.stats.batch_counts import batch_counts, needs_game_counts
from sim.storage.reading import open_dataset
from sim.storage.records import list_batches
from tests.support.procs import dsq_here

SAMPLE = Path(__file__).resolve().parents[3] / "data"


def _dsq(*args: str) -> subprocess.CompletedProcess[str]:
    """``dsq ARGS`` in this process (no interpreter start-up per call): what is checked here
    is the command's behaviour, not the process boundary."""
    return dsq_here(*args)


def test_the_sample_batches_show_each_bots_score(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(SAMPLE, data)
    records = {r["batch_id"]: r for r in list_batches(data)}
    assert any(needs_game_counts(r) for r in records.values())  # the sample's records are old
    out = _dsq("batches", "--data", str(data))
    assert out.returncode == 0, out.stderr
    assert "inf" not in out.stdout and "+-" not in out.stdout
    lines = {ln.split()[0]: ln for ln in out.stdout.splitlines()[1:]}
    with open_dataset(data) as ds:
        for bid, rec in records.items():
            spec = rec["spec"]
            if spec["red"] == spec["blue"]:
                assert f" {SELF_PLAY} " in lines[bid]
                continue
            # the W-D-L of the --red bot, as dsq stats --by matchup --batch counts it
            m = matchup_table(ds.con, Selection(batches=(bid,)))
            row = m[m["bot"] == spec["red"]].iloc[0]
            assert f" {wdl(row['wins'], row['draws'], row['losses'])} " in lines[bid]
            assert f" {num(row['score'], 3)} " in lines[bid]
            keys = ("ptnml_elo", "ptnml_elo_error", "ptnml_elo_low", "ptnml_elo_high")
            assert f" {elo(*(row[k] for k in keys))} " in lines[bid]
    js = _dsq("batches", "--data", str(data), "--json")
    assert js.returncode == 0, js.stderr
    assert "Infinity" not in js.stdout and "NaN" not in js.stdout
    rows = {r["batch_id"]: r for r in json.loads(js.stdout)}
    sweep = rows["sample-mcts-1"]["result"]  # alphabeta:depth=2 won all 40 games
    assert (sweep["wins"], sweep["losses"]) == (40, 0)
    assert sweep["elo"]["point"] is None and sweep["elo"]["high_open"]
    assert sweep["elo"]["low"] > 0 and sweep["elo"]["kind"] == "logistic"
    assert rows["sample-random-1"]["result"]["elo"] is None  # self-play
    # the sample itself is untouched: its records still lack the bots' counts
    assert all(needs_game_counts(r) for r in list_batches(SAMPLE) if r["spec"]["swap"])


def test_game_counts_follow_the_running_tally(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(SAMPLE, data)
    with open_dataset(data) as ds:
        got = batch_counts(ds.con, [("sample-greedy-1", True), ("sample-random-1", False)])
        games = ds.con.execute(
            "SELECT game_index, red, winner FROM games WHERE batch_id = 'sample-greedy-1'"
        ).fetchall()
        assert batch_counts(ds.con, []) == {}
    g = got["sample-greedy-1"]
    a = "random"  # the spec's --red bot
    a_wins = sum(w != "draw" and (red == a) == (w == "red") for _, red, w in games)
    assert (g["a_wins"], g["draw"]) == (a_wins, sum(w == "draw" for *_, w in games))
    assert g["a_wins"] + g["b_wins"] + g["draw"] == len(games) == 400
    assert sum(g["pentanomial"]) == 200
    assert "pentanomial" not in got["sample-random-1"]
