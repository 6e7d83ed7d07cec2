"""``dsq tune``: quiet positions from real recorded games, the linear model equal to the
compiled tuned evaluation, a fit that finds planted weights, the file loaded by bots, and
every bad input refused with one line."""

from __future__ import annotations

import dataclasses
import json
import signal
import time
from pathlib import Path

import numpy as np
import pytest

from engine import Position
from engine.position import decode_move
from engine.rules import parse_rules
from sim.batch import make_spec, run_batches
from sim.bots.evalfile import eval_block, read_eval, write_eval
from sim.bots.evalformat import EvalFile, from_vector
from sim.bots.evaluate import params_array
from sim.stats.query import Selection
from sim.storage.reading import open_dataset
from sim.tune.accept import Match, accept
from sim.tune.features import classic_start, danger_order, design, kernel_scores
from sim.tune.fit import K, fit, loss
from sim.tune.positions import collect
from tests.support.procs import WAIT, in_process, popen_dsq

RULES = parse_rules("standard")


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("tune-data")
    specs = [
        make_spec("standard", "greedy", "random", 120, seed=1, swap=True, ply_cap=300),
        make_spec("standard", "alphabeta:depth=1,noise=30", "greedy", 60, seed=2, swap=True,
                  opening_plies=2, ply_cap=300),
    ]  # fmt: skip
    run_batches(specs, d, ids=["gr", "ab"])
    return d


def positions(data: Path, limit: int = 10**7):  # type: ignore[no-untyped-def]
    ds = open_dataset(data)
    try:
        sel = Selection(rules=("standard",))
        return collect(ds.con, sel, RULES, danger_order(RULES), limit, 0)
    finally:
        ds.close()


def test_every_kept_position_is_quiet_and_labelled_by_its_game(data: Path) -> None:
    got = positions(data)
    assert got.games == 180 and got.refused == 0 and len(got.positions) == got.seen > 1000
    pos = got.positions
    ds = open_dataset(data)
    try:
        rows = ds.con.execute(
            "SELECT moves, winner FROM games ORDER BY batch_id, game_index"
        ).fetchall()
    finally:
        ds.close()
    for gi in (0, 7, 150):  # replayed by the engine's Position, one ply at a time
        moves, winner = rows[gi]
        mine = np.flatnonzero(pos.game == gi)
        p = Position("standard")
        quiet = []
        for ply in range(len(moves) + 1):
            legal = p.legal_moves()
            if p.result is not None or not legal:
                break
            den = "d1" if p.side == "blue" else "d9"
            if all(p.piece_at(m[2:]) is None and m[2:] != den for m in legal):
                quiet.append((ply, p.side))
            if ply < len(moves):
                p.play(decode_move(int(moves[ply])))
        assert len(mine) == len(quiet) > 0
        for i, (_, side) in zip(mine, quiet, strict=True):
            assert pos.side[i] == (0 if side == "red" else 1)
            won = 1.0 if winner == side else 0.5 if winner == "draw" else 0.0
            assert pos.label[i] == won


def test_a_sample_is_drawn_when_there_are_more() -> None:
    sample = Path(__file__).resolve().parents[3] / "data"
    got = positions(sample, limit=5000)
    assert len(got.positions) == 5000 < got.seen
    assert np.all(np.diff(got.positions.game) >= 0)


def test_the_linear_model_is_the_compiled_evaluation(data: Path) -> None:
    pos = positions(data).positions
    x = design(pos)
    gen = np.random.default_rng(5)
    for _ in range(3):
        start = classic_start(RULES).vector()
        w = from_vector(start + gen.integers(-300, 300, size=start.shape), danger_order(RULES))
        params = params_array(np.asarray(w.material), eval_block(w))
        assert np.array_equal(x @ w.vector(), kernel_scores(pos, RULES, params))


def test_the_fit_finds_planted_weights(data: Path) -> None:
    pos = positions(data).positions
    x = design(pos)
    gen = np.random.default_rng(9)
    start = classic_start(RULES)
    planted = start.vector() * 0.5 + gen.normal(0, 60, size=start.vector().shape)
    labels = (gen.random(len(pos)) < 1 / (1 + np.exp(-K * (x @ planted)))).astype(np.float64)
    held = pos.game % 5 == 0
    got = fit(x[~held], labels[~held], x[held], labels[held], start, ridge=1e-8)
    assert got.held_loss <= loss(x[held] @ planted, labels[held]) + 0.005
    assert got.held_loss < loss(x[held] @ start.vector(), labels[held]) - 0.01
    material = np.asarray(got.weights.material, dtype=float)
    assert np.corrcoef(material, planted[:8])[0, 1] > 0.8


def test_dsq_tune_writes_an_evaluation_that_bots_load(data: Path, tmp_path: Path) -> None:
    code, out, err = in_process(["tune", "--name", "mine", "--data", str(data), "--json",
                                 "--rules", "standard", "--positions", "20000"])  # fmt: skip
    assert code == 0, err
    summary = json.loads(out)
    assert summary["positions"] == 20000 and summary["games"] == 180
    assert summary["held_out_loss"] > 0 and "fit: iteration" in err
    ef = read_eval(Path(summary["file"]))
    assert ef.name == "mine" and ef.rules == "standard" and ef.meta["positions"] == 20000
    code, out, err = in_process(["move", "--bot", "alphabeta:depth=2,eval=mine", "--json",
                                 "--data", str(data)])  # fmt: skip
    assert code == 0, err
    assert json.loads(out.splitlines()[0])["bot"].endswith("eval=mine")
    # under rules whose moves differ, and a second fit of the same name: one line each
    code, _, err = in_process(["move", "--bot", "alphabeta:eval=mine", "--rules", "datou",
                               "--data", str(data)])  # fmt: skip
    assert code == 2 and "fitted for rules standard, not datou" in err
    assert len(err.splitlines()) == 1
    code, _, err = in_process(["tune", "--name", "mine", "--data", str(data)])
    assert code == 2 and "already exists" in err


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("not toml [", "not TOML"),
        ("[eval]\nformat = 1\nname = 'bad'\nrules = 'standard'\n", "[weights]"),
        ("[eval]\nformat = 9\nname = 'bad'\nrules = 'standard'\n[weights]\n", "format 9"),
        ("[eval]\nformat = 1\nname = 'other'\nrules = 'standard'\n[weights]\n", "names evaluation"),
    ],
)
def test_a_bad_file_is_refused_with_one_line(tmp_path: Path, text: str, fragment: str) -> None:
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "bad.toml").write_text(text)
    code, _, err = in_process(["move", "--bot", "alphabeta:eval=bad", "--data", str(tmp_path)])
    assert code == 2 and fragment in err and len(err.splitlines()) == 1


def test_weights_out_of_range_or_missing_are_refused(tmp_path: Path) -> None:
    ef = EvalFile("ok", "standard", classic_start(RULES))
    path = write_eval(tmp_path, ef)
    assert read_eval(path) == dataclasses.replace(ef, meta={}, accepted={})
    text = path.read_text().replace("tempo = 0", "tempo = 10000000")
    path.write_text(text)
    code, _, err = in_process(["move", "--bot", "alphabeta:eval=ok",
                               "--data", str(tmp_path.parent)])  # fmt: skip
    assert code == 2 and "no evaluation 'ok'" in err
    (tmp_path.parent / "evals").mkdir(exist_ok=True)
    (tmp_path.parent / "evals" / "ok.toml").write_text(text)
    code, _, err = in_process(["move", "--bot", "alphabeta:eval=ok",
                               "--data", str(tmp_path.parent)])  # fmt: skip
    assert code == 2 and "tempo holds 10000000" in err


def test_too_few_positions_and_bad_names_are_refused(tmp_path: Path) -> None:
    code, _, err = in_process(["tune", "--name", "x", "--data", str(tmp_path)])
    assert code == 2 and "no games in" in err  # the one line of an empty selection
    for bad in ("auto", "classic", "Has Space", "x" * 41):
        code, _, err = in_process(["tune", "--name", bad, "--data", str(tmp_path)])
        assert code == 2 and "an evaluation name is" in err


def test_acceptance_keeps_a_winner_only(data: Path, tmp_path: Path) -> None:
    d = tmp_path / "d"
    d.mkdir()
    zero = from_vector(np.zeros_like(classic_start(RULES).vector()), danger_order(RULES))
    write_eval(d / "evals", EvalFile("zero", "standard", zero))
    # the classic-like start against an evaluation that sees nothing: H1, kept
    code, out, err = in_process(["tune", "--name", "good", "--data", str(data), "--json",
                                 "--positions", "5000", "--max-iter", "1", "--accept",
                                 "--against", "zero", "--time-ms", "1",
                                 "--accept-games", "200"])  # fmt: skip
    # (the fitted file lives in the games' folder; its opponent must be there too)
    assert code == 2 and "no evaluation 'zero'" in err
    write_eval(data / "evals", EvalFile("zero", "standard", zero))
    code, out, err = in_process(["tune", "--name", "good", "--data", str(data), "--json",
                                 "--positions", "5000", "--max-iter", "1", "--accept",
                                 "--against", "zero", "--time-ms", "1",
                                 "--accept-games", "200"])  # fmt: skip
    assert code == 0, err
    acc = json.loads(out)["accepted"]
    assert acc["decision"] == "H1" and acc["wins"] > acc["losses"]
    kept = read_eval(data / "evals" / "good.toml")
    assert kept.accepted["decision"] == "H1" and kept.accepted["batch"] == acc["batch"]
    # an evaluation that sees nothing against the default (classic here), in a match too
    # short for the test to decide: undecided, removed
    lines: list[str] = []
    bad = EvalFile("blind", "standard", zero)
    result = accept(bad, RULES, data, data / "evals", Match(time_ms=1, games=12), lines.append)
    assert result["decision"] == "undecided" and result["losses"] > result["wins"]
    assert not (data / "evals" / "blind.toml").exists()
    assert any("not kept" in line for line in lines)


def test_labels_blend_the_recorded_search_scores(data: Path) -> None:
    pos = positions(data).positions
    ds = open_dataset(data)
    try:
        rows = ds.con.execute(
            "SELECT moves, scores FROM games ORDER BY batch_id, game_index"
        ).fetchall()
    finally:
        ds.close()
    gi = 0  # the first game of batch ab: alphabeta (scores) against greedy (none)
    moves, scores = rows[gi]
    mine = np.flatnonzero(pos.game == gi)
    seen = 0
    p = Position("standard")
    plies = []
    for ply in range(len(moves)):
        if all(p.piece_at(m[2:]) is None and m[2:] != ("d1" if p.side == "blue" else "d9")
               for m in p.legal_moves()):  # fmt: skip
            plies.append((ply, p.side))
        p.play(decode_move(int(moves[ply])))
    for i, (ply, side) in zip(mine, plies, strict=False):
        red = scores[ply]
        if red is None:
            assert np.isnan(pos.search[i])
            continue
        mover = red if side == "red" else -red
        assert pos.search[i] == pytest.approx((1 + mover) / 2, abs=1e-6)
        mixed = pos.blended(0.25)[i]
        assert mixed == pytest.approx(0.25 * pos.label[i] + 0.75 * (1 + mover) / 2, abs=1e-6)
        seen += 1
    assert seen > 5
    assert np.array_equal(pos.blended(1.0), pos.label.astype(np.float64))


def test_sigterm_stops_dsq_tune_like_ctrl_c(tmp_path: Path) -> None:
    d = tmp_path / "d"
    proc = popen_dsq(
        "tune", "--name", "t", "--data", str(d), "--play", "1000000", "--play-bot", "random",
    )  # fmt: skip
    records = d / "batches"

    def played() -> bool:
        return any(json.loads(p.read_text())["games_done"] > 0 for p in records.glob("*.json"))

    deadline = time.monotonic() + WAIT
    while not played():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the self-play never recorded a game"
        time.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 130, err
    assert "interrupted" in err
    assert not (d / "evals" / "t.toml").exists()
    [record] = [json.loads(p.read_text()) for p in records.glob("*.json")]
    assert record["status"] == "interrupted"
