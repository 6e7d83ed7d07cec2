"""``dsq bench`` shows every speed figure: alpha-beta nodes/s and recorded simulations too
(measured small here: the figures' shape, never their values)."""

from __future__ import annotations

from sim.bench.kernels import run_bench
from sim.bench.simulate import usable_cores


def test_every_figure_in_one_report() -> None:
    said: list[str] = []
    report = run_bench(
        (2,),
        games=10,
        measure_warmup=False,
        say=said.append,
        sim_games=20,
        strong_games=2,
        strong_spec="alphabeta:nodes=300",
    )
    assert [p["nodes"] for p in report["perft"]] == [576]
    start, mid = report["alphabeta"]["start"], report["alphabeta"]["midgame"]
    assert (start["depth"], start["positions"], mid["depth"], mid["positions"]) == (9, 1, 7, 12)
    assert start["nodes"] > 0 and mid["nodes_per_s"] > 0
    tuned = report["alphabeta"]["tuned"]
    assert (tuned["depth"], tuned["positions"]) == (7, 12) and tuned["nodes"] > 0
    assert report["alphabeta"]["tuned_share"] > 0
    ttd = report["alphabeta"]["to_depth"]
    assert ttd["plain"]["depth"] == ttd["lmr"]["depth"] == 9
    assert 0 < ttd["lmr"]["nodes"] < ttd["plain"]["nodes"]  # the reductions search less
    assert ttd["share"] == ttd["lmr"]["seconds"] / ttd["plain"]["seconds"]
    assert report["mcts"]["positions"] == 12 and report["mcts"]["playouts_per_s"] > 0
    strong = report["strong_game"]
    assert [g["rules"] for g in strong] == ["standard", "yeshou", "datou"]
    for g in strong:
        assert g["bot"] == "alphabeta:nodes=300" and len(g["seconds"]) == g["games"] == 2
        assert g["min_s"] <= g["median_s"] <= g["max_s"] and all(p > 8 for p in g["plies"])
    runs = [(r["workers"], r["record"]) for r in report["simulate"]]
    one = [(1, "outcomes"), (1, "moves")]
    assert runs == (one + [(2, "moves")] if usable_cores() >= 2 else one)
    assert report["simulate_bare"]["games_per_s"] > 0
    for r in report["simulate"]:
        assert r["games"] == 20 * r["workers"] and r["games_per_s"] > 0
        assert r["start_seconds"] > 0 and r["vs_bare"] > 0
    assert any("alpha-beta" in s for s in said)
    assert any("alphabeta:nodes=300 under each preset" in s for s in said)
    assert any("recorded (outcomes) on 1 worker" in s for s in said)
