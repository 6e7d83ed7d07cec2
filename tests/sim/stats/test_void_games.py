"""Games void under their rule set's scoring rule (``void_rounds``: yeshou's games that end
within 10 rounds) on real games from ``dsq simulate``: every figure leaves them out and
``dsq stats`` says how many there were; ``--with-void`` counts them; lists keep them."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.dataset as pads
import pytest

from sim.cli import main
from sim.stats import (
    Selection,
    end_reasons,
    general_stats,
    general_stats_by,
    list_games,
    matchup_table,
)
from sim.storage.reading import open_dataset

BLUE_FIRST = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1"
# (batch id, rules, ply cap, games, from the Blue-to-move FEN)
BATCHES = (
    ("y20", "yeshou", 20, 12, False),
    ("y21", "yeshou", 21, 12, False),
    ("s20", "standard", 20, 12, False),
    ("b20", "yeshou", 20, 6, True),
    ("b21", "yeshou", 21, 6, True),
)


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("void")
    suite = root / "blue.txt"
    suite.write_text(BLUE_FIRST + "\n", encoding="utf-8")
    for seed, (bid, rules, cap, games, blue) in enumerate(BATCHES, start=1):
        args = ["simulate", "--rules", rules, "--red", "random", "--blue", "greedy"]
        args += ["--games", str(games), "--ply-cap", str(cap), "--seed", str(seed)]
        args += ["--batch-id", bid, "--data", str(root / "data"), "--quiet"]
        args += ["--openings", str(suite)] if blue else []
        assert main(args) == 0
    return root / "data"


def _rows(data: Path) -> list[dict]:
    """Every recorded game's batch, rules and plies, read from the parquet files alone."""
    table = pads.dataset(data / "games", format="parquet").to_table(
        columns=["batch_id", "rules", "plies", "start_fen"]
    )
    return table.to_pylist()


def test_the_void_games_are_yeshous_within_ten_rounds(data: Path) -> None:
    rows = _rows(data)
    assert len(rows) == sum(b[3] for b in BATCHES)
    assert {r["start_fen"] for r in rows if r["batch_id"].startswith("b")} == {BLUE_FIRST}
    void = [r for r in rows if r["rules"] == "yeshou" and r["plies"] <= 20]
    assert {r["batch_id"] for r in rows if r["plies"] == 21} >= {"y21", "b21"}
    assert all(r["plies"] == 21 for r in rows if r["batch_id"] in ("y21", "b21")) or void
    with open_dataset(data) as ds:
        g = general_stats(ds.con, Selection())
        counted = general_stats(ds.con, Selection(voids=True))
        assert g.void == len(void) >= 18  # every game of y20 and b20: at most 20 plies
        assert g.games == len(rows) - len(void)
        assert counted.games == len(rows) and counted.void == len(void)
        assert g.red.count + g.blue.count + g.draw.count == g.games
        assert int(end_reasons(ds.con, Selection())["games"].sum()) == g.games
        by_batch = general_stats_by(ds.con, Selection(), by="batch").set_index("batch")
        assert "y20" not in by_batch.index and "b20" not in by_batch.index
        assert int(by_batch.loc["s20", "games"]) == 12  # standard scores every game
        pairing = matchup_table(ds.con, Selection()).set_index("bot").loc["random"]
        assert int(pairing["games"]) == g.games
        # a list of games holds them: they are games, only not results
        assert list_games(ds.con, Selection(batches=("y20",)))[1] == 12
        # --min-plies is a length filter, applied after the scoring rule
        assert general_stats(ds.con, Selection(min_plies=21)).games == sum(
            1 for r in rows if r["plies"] >= 21
        )


def test_dsq_stats_reports_them(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    void = sum(1 for r in _rows(data) if r["rules"] == "yeshou" and r["plies"] <= 20)
    total = len(_rows(data))
    assert main(["stats", "--data", str(data)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{total - void} games in ")
    assert f"\n{void} more void, left out: ended within their rule set's void_rounds" in out
    assert main(["stats", "--data", str(data), "--json"]) == 0
    general = json.loads(capsys.readouterr().out)["general"]
    assert (general["games"], general["void"]) == (total - void, void)
    assert main(["stats", "--data", str(data), "--with-void", "--rules", "yeshou"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{total - 12} games in ") and "void games counted" in out
    assert f"{void} of them void" in out
    assert main(["stats", "--data", str(data), "--batch", "y20"]) == 2  # every game void
    err = capsys.readouterr().err
    assert err.startswith("dsq stats: error: no games in ") and "; 12 more void, left out" in err
