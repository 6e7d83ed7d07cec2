"""``dsq replay --game BATCH:INDEX``: a recorded game replayed by the engine and compared
with its record, on games the real simulator wrote."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from sim.storage.writing import write_games_table
from tests.support.procs import in_process

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Short random games (some end by the rules, some at a 60-ply cap) and greedy games
    from an opening, recorded by ``dsq simulate``."""
    data = tmp_path_factory.mktemp("replay-data")
    for argv in (
        ["--rules", "yeshou", "--red", "random", "--blue", "random", "--games", "30",
         "--ply-cap", "60", "--batch-id", "capped"],
        ["--rules", "datou", "--red", "greedy", "--blue", "random", "--games", "10",
         "--opening-plies", "4", "--swap", "--batch-id", "greedy"],
    ):  # fmt: skip
        code, _, err = in_process(["simulate", *argv, "--data", str(data), "--quiet"])
        assert code == 0, err
    return data


def replay_game(data: Path, ref: str) -> tuple[int, dict]:
    code, out, err = in_process(["replay", "--game", ref, "--data", str(data)])
    assert code in (0, 1), err
    return code, json.loads(out)


def test_every_recorded_game_replays_to_its_record(recorded: Path) -> None:
    reasons = set()
    for ref in [f"capped:{i}" for i in range(30)] + [f"greedy:{i}" for i in range(10)]:
        code, report = replay_game(recorded, ref)
        assert code == 0 and report["agrees"] is True, report
        assert report["game"] == ref and report["plies"] == report["recorded"]["plies"]
        assert len(report["legal_counts"]) == report["plies"]
        reasons.add(report["recorded"]["reason"])
        if report["recorded"]["reason"] == "ply_cap":
            assert report["result"] is None  # the rules had not ended it
        else:
            assert report["result"] == {k: report["recorded"][k] for k in ("winner", "reason")}
    assert "ply_cap" in reasons and reasons - {"ply_cap"}


def test_a_record_that_disagrees_with_its_moves_is_reported(recorded: Path, tmp_path: Path):
    games = tmp_path / "games" / "greedy"
    games.mkdir(parents=True)
    (tmp_path / "batches").mkdir()
    for f in (recorded / "games" / "greedy").glob("*.parquet"):
        table = pq.read_table(f)
        flipped = pc.if_else(pc.equal(table["winner"], "red"), "blue", "red")
        table = table.set_column(table.schema.get_field_index("winner"), "winner", flipped)
        write_games_table(games / f.name, table)
    for f in (recorded / "batches").glob("greedy*.json"):
        (tmp_path / "batches" / f.name).write_bytes(f.read_bytes())
    code, report = replay_game(tmp_path, "greedy:0")
    assert code == 1 and report["agrees"] is False
    assert report["result"]["winner"] != report["recorded"]["winner"]


def test_a_bundled_sample_game_from_its_folder() -> None:
    code, report = replay_game(ROOT / "data", "sample-mcts-2:3")
    assert code == 0 and report["rules"].startswith("yeshou") and report["start_fen"] is None


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "capped"], "expected BATCH:INDEX"),
        (["--game", "capped:-1"], "expected BATCH:INDEX"),
        (["--game", "capped:99999999999999999999"], "expected BATCH:INDEX"),
        (["--game", "../x:1"], "--game '../x:1'"),
        (["--game", "capped:30"], "no recorded game capped:30"),
        (["--game", "capped:1", "--moves", "a3a4"], "without --rules"),
    ],
)
def test_bad_game_references_get_one_line(recorded: Path, argv: list[str], message: str):
    code, out, err = in_process(["replay", *argv, "--data", str(recorded)])
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dsq replay: error:") and message in lines[0]
