"""What ``dsq simulate`` and ``dsq batches`` tell a person: short bot specs, each bot's
W/D/L, score and Elo, the SPRT's verdict; the record's counts agree with the games."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq

from sim.bots.pinning import pin_bot
from sim.bots.spec import short_spec
from tests.support.procs import dsq_here as dsq  # in this process: no start-up per call

AB = pin_bot("alphabeta:depth=1", "standard")  # as a batch records it: eval=standard@HEX
SHORT = short_spec(AB)  # alphabeta:depth=1,eval=standard@HEX


def _games(data: Path, batch_id: str) -> list[dict]:
    files = sorted((data / "games" / batch_id).glob("*.parquet"))
    rows = [r for f in files for r in pq.read_table(f).to_pylist()]
    return sorted(rows, key=lambda r: r["game_index"])


def test_a_swapped_match_tells_each_bots_score(tmp_path: Path) -> None:
    res = dsq(
        "simulate", "--red", "alphabeta:depth=1", "--blue", "random", "--games", "40",
        "--seed", "2", "--swap", "--data", str(tmp_path), "--batch-id", "m",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert SHORT.startswith("alphabeta:depth=1,eval=standard@")
    assert AB not in out and f"{SHORT} vs random (swap)" in out
    # The record's counts are those of the games on disk, from the bots' side too.
    games = _games(tmp_path, "m")
    rec = json.loads((tmp_path / "batches" / "m.json").read_text())
    a_wins = sum(g["winner"] != "draw" and g[g["winner"]] == AB for g in games)
    b_wins = sum(g["winner"] != "draw" and g[g["winner"]] != AB for g in games)
    draws = sum(g["winner"] == "draw" for g in games)
    points: Counter[int] = Counter()
    for g in games:
        points[g["pair_id"]] += (
            2
            if g["winner"] != "draw" and g[g["winner"]] == AB
            else (1 if g["winner"] == "draw" else 0)
        )
    penta = [sum(1 for p in points.values() if p == k) for k in range(5)]
    c = rec["counts"]
    assert (c["a_wins"], c["b_wins"], c["draw"], c["pentanomial"]) == (a_wins, b_wins, draws, penta)
    assert f"{SHORT} {a_wins}-{draws}-{b_wins}" in out
    assert f"random {b_wins}-{draws}-{a_wins}" in out
    assert f"Elo {SHORT} - random:" in out and "20 colour-swapped pairs" in out
    # dsq batches: the short form for a person, the canonical one in --json.
    table = dsq("batches", "--data", str(tmp_path)).stdout
    assert AB not in table and f"{SHORT} vs random (swap)" in table
    assert f"{a_wins}-{draws}-{b_wins}" in table
    listed = json.loads(dsq("batches", "--data", str(tmp_path), "--json").stdout)
    assert listed[0]["spec"]["red"] == AB


def test_the_sprt_verdict_is_in_the_plain_output(tmp_path: Path) -> None:
    res = dsq(
        "simulate", "--red", "greedy", "--blue", "random", "--games", "2000", "--seed", "5",
        "--sprt", "elo0=0,elo1=50", "--chunk-games", "50", "--data", str(tmp_path),
        "--batch-id", "s",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    rec = json.loads((tmp_path / "batches" / "s.json").read_text())
    llr = f"{rec['stop_check']['llr']:.2f}"
    assert f"SPRT elo0=0,elo1=50,alpha=0.05,beta=0.05: H1 accepted, LLR {llr}" in res.stdout
    at = rec["decided_at"]
    assert f"decided at game {at}, stopped early" in res.stdout
    assert f"H1 at {at} (LLR {llr})" in dsq("batches", "--data", str(tmp_path)).stdout


def test_default_bots_are_named(tmp_path: Path) -> None:
    res = dsq("simulate", "--red", "greedy", "--games", "4", "--data", str(tmp_path))
    assert res.returncode == 0
    assert "--blue not given: random plays blue" in res.stderr
    assert "greedy vs random" in res.stdout
    quiet = dsq("simulate", "--games", "4", "--data", str(tmp_path), "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == ""
