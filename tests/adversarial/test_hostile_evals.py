"""Evaluations whose numbers could reach the search's mate scores: an evaluation file's
weights and a spec's animal values are bounded by the largest sum they can make, so every
evaluation the checkers accept stays within ``MAX_EVAL`` (below ``MATE_BOUND``).

At the largest values allowed the search plays legal moves with sane scores and a batch
finishes; one unit more is refused in one line, exit 2 (all values at 100,000 once made
alpha-beta return ``a1a1`` or a score of 32,000, "mate in -2000", and a batch fail)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.bots.evalbound import CLASSIC_POSITIONAL, MAX_EVAL
from sim.bots.evalfile import EvalError, EvalFile, Weights, format_eval, write_eval
from sim.bots.search import MATE_BOUND
from tests.support.procs import dsq, in_process, one_line_error

TOP = MAX_EVAL // 8  # 8 animals of one side at this value, none of the other: the most allowed
TOP_VALUES = (MAX_EVAL - 8 * CLASSIC_POSITIONAL) * 4 // 35  # 8 equal values, plus 3/4 of one
LOPSIDED = "7/7/7/7/3r3/7/E6/RCDWPTL/7 r 0 1"  # Red's eight animals against a rat, far apart


def weights(material: int = TOP, **change: object) -> Weights:
    """All animals at ``material``, every other weight 0, except those ``change`` gives."""
    base = {
        "material": (material,) * 8,
        "squares": ((0,) * 63,) * 8,
        "first_danger": (0,) * 8,
        "second_danger": (0,) * 8,
        "tempo": 0,
        "order": (8, 7, 6, 5, 4, 3, 2, 1),
    }
    return Weights(**{**base, **change})  # type: ignore[arg-type]


def write(data: Path, name: str, w: Weights) -> None:
    """The file ``data/evals/NAME.toml`` with weights ``w``, written as text (unchecked)."""
    (data / "evals").mkdir(parents=True, exist_ok=True)
    text = format_eval(EvalFile(name, "standard", w))
    (data / "evals" / f"{name}.toml").write_text(text, encoding="utf-8")


def searched(data: Path, bot: str, fen: str | None = None) -> dict:
    """``dsq bestmove --json`` of ``bot`` (start position, or ``fen``): its move checked
    against ``dsq legal``; the search's report."""
    where = ["--fen", fen] if fen else []
    code, out, err = in_process(["bestmove", "--bot", bot, "--data", str(data), "--json", *where])
    assert code == 0, err
    found = json.loads(out.splitlines()[0])
    code, legal, err = in_process(["legal", *where])
    assert code == 0, err
    assert found["move"] in json.loads(legal)["legal"], (found["move"], legal)
    return found


def sane(found: dict) -> None:
    assert found["mate_in"] is None and abs(found["score"]) <= MAX_EVAL, found


def test_the_bound_lies_below_the_mate_scores_and_matches_the_tables() -> None:
    """``MAX_EVAL`` plus the largest noise a spec may add stays below the mate range, and the
    classic evaluation's largest square bonus is that of its tables."""
    from sim.bots.evaluate import ADVANCE, DEFENCE
    from sim.bots.registry import KINDS

    noise = next(p for p in KINDS["alphabeta"].params if p.name == "noise").high
    assert MAX_EVAL + noise < MATE_BOUND
    assert int(ADVANCE.max() + DEFENCE.max()) == CLASSIC_POSITIONAL


def test_an_evaluation_at_the_largest_weights_plays_legal_moves_and_a_batch(
    tmp_path: Path,
) -> None:
    data = tmp_path / "d"
    write(data, "maxed", weights())
    for depth in (1, 3):
        sane(searched(data, f"alphabeta:depth={depth},eval=maxed"))
        sane(searched(data, f"alphabeta:depth={depth},eval=maxed", LOPSIDED))
    bot = "alphabeta:depth=2,eval=maxed"
    argv = ["simulate", "--data", str(data), "--red", bot, "--blue", bot, "--games", "4"]
    code, _, err = in_process([*argv, "--batch-id", "maxed", "--ply-cap", "120"])
    assert code == 0, err
    record = json.loads((data / "batches" / "maxed.json").read_text())
    assert record["status"] == "done" and record["games_done"] == 4, record


def test_classic_values_at_the_largest_allowed_play_legal_moves(tmp_path: Path) -> None:
    data = tmp_path / "d"
    data.mkdir()
    top = "/".join([str(TOP_VALUES)] * 8)
    for fen in (None, LOPSIDED):
        sane(searched(data, f"alphabeta:depth=3,values={top}", fen))
    code, _, err = in_process(["simulate", "--data", str(data), "--red", f"alphabeta:depth=2,"
                               f"values={top}", "--blue", "greedy", "--games", "4",
                               "--batch-id", "top", "--ply-cap", "120"])  # fmt: skip
    assert code == 0, err
    assert json.loads((data / "batches" / "top.json").read_text())["status"] == "done"


HOSTILE_WEIGHTS = {
    "material one unit more": weights(TOP + 1),
    "material at the old limit": weights(100_000),
    "material at minus the old limit": weights(-100_000),
    "one square huge": weights(0, squares=((100_000,) + (0,) * 62,) + ((0,) * 63,) * 7),
    "a square table's spread": weights(0, squares=((2501,) + (-2500,) * 62,) * 4
                                       + ((0,) * 63,) * 4),  # fmt: skip
    "tempo huge": weights(0, tempo=100_000),
    "first danger huge": weights(0, first_danger=(-100_000,) + (0,) * 7),
    "second danger huge": weights(0, second_danger=(0,) * 7 + (100_000,)),
    "every weight at the old limit": weights(100_000, squares=((100_000,) * 63,) * 8,
                                             first_danger=(100_000,) * 8,
                                             second_danger=(100_000,) * 8, tempo=100_000),
}  # fmt: skip


@pytest.mark.parametrize("w", list(HOSTILE_WEIGHTS.values()), ids=list(HOSTILE_WEIGHTS))
def test_weights_that_could_reach_the_mate_scores_are_refused(tmp_path: Path, w: Weights) -> None:
    data = tmp_path / "d"
    write(data, "hostile", w)
    res = dsq("bestmove", "--bot", "alphabeta:depth=2,eval=hostile", "--data", str(data))
    line = one_line_error(res, "bestmove")
    assert "hostile.toml" in line and f"beyond the {MAX_EVAL:,} an evaluation may reach" in line
    with pytest.raises(EvalError, match="could score"):
        write_eval(tmp_path / "out", EvalFile("hostile", "standard", w))  # dsq tune's writer
    assert not (tmp_path / "out" / "hostile.toml").exists()


@pytest.mark.parametrize(
    "values",
    [
        "/".join([str(TOP_VALUES + 1)] * 8),
        "/".join(["100000"] * 8),
        "0/0/0/0/0/0/0/18704",
        "1/1/1/1/1/1/1/100000",
    ],
)
def test_classic_values_that_could_reach_the_mate_scores_are_refused(values: str) -> None:
    res = dsq("bestmove", "--bot", f"alphabeta:depth=2,values={values}")
    line = one_line_error(res, "bestmove")
    assert "could score" in line and "at most 18,704" in line, line
