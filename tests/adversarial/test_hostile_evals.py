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
from sim.bots.evalfile import write_eval
from sim.bots.evalformat import EvalError, EvalFile, Weights, format_eval
from sim.bots.search_layout import MATE_BOUND
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


GOOD = format_eval(EvalFile("h", "standard", weights(100), {"games": 3}, {"score": 0.5}))
ROW = "[" + ", ".join(["0"] * 63) + "]"
TEXT_ROW = ROW.replace("0", '"0"', 1)


def _edit(old: str, new: str) -> str:
    assert old in GOOD, old
    return GOOD.replace(old, new, 1)


MATERIAL = "material = [100, 100, 100, 100, 100, 100, 100, 100]"
# (case, the file's text, words the error must hold)
EVAL_FILES: list[tuple[str, str, str]] = [
    ("not TOML", "[eval\n", "not TOML"),
    ("empty", "", "an [eval] and a [weights] table"),
    ("weights a number", _edit("[weights]", "[x]").replace("[eval]", "weights = 3\n[eval]"),
     "an [eval] and a [weights] table"),
    ("format 2", _edit("format = 1", "format = 2"), "this version reads format 1"),
    ("format as text", _edit("format = 1", 'format = "1"'), "this version reads format 1"),
    ("another name", _edit('name = "h"', 'name = "other"'), "not 'h'"),
    ("rules unknown", _edit('rules = "standard"', 'rules = "nonsense"'), "rules:"),
    ("rules a number", _edit('rules = "standard"', "rules = 3"), "rules:"),
    ("material a number", _edit(MATERIAL, "material = 100"), "material must be a list"),
    ("material of seven", _edit(MATERIAL, MATERIAL.replace("100, ", "", 1)), "list of 8"),
    ("material as text", _edit(MATERIAL, MATERIAL.replace("100", '"100"', 1)), "holds '100'"),
    ("material true", _edit(MATERIAL, MATERIAL.replace("100", "true", 1)), "holds True"),
    ("material a fraction", _edit(MATERIAL, MATERIAL.replace("100", "1.5", 1)), "holds 1.5"),
    ("material infinite", _edit(MATERIAL, MATERIAL.replace("100", "inf", 1)), "holds inf"),
    ("material beyond the limit", _edit(MATERIAL, MATERIAL.replace("100", "100001", 1)),
     "within ±100000"),
    ("order repeated", _edit("order = [8, 7,", "order = [8, 8,"), "order must list"),
    ("order of text", _edit("order = [8,", 'order = ["8",'), "order holds '8'"),
    ("tempo as text", _edit("tempo = 0", 'tempo = "0"'), "tempo holds '0'"),
    ("tempo a list", _edit("tempo = 0", "tempo = [0]"), "tempo holds [0]"),
    ("first danger short", _edit("first_danger = [0, ", "first_danger = ["), "first_danger"),
    ("squares a number", _edit("squares = [", "squares = 3\nx = ["),
     "squares must be 8 lists"),
    ("squares of seven rows", _edit(f"  {ROW},\n", ""), "squares must be 8 lists"),
    ("a square row short", _edit(f"  {ROW},", f"  {ROW.replace('0, ', '', 1)},"),
     "a square table must be a list of 63"),
    ("a square as text", _edit(f"  {ROW},", f"  {TEXT_ROW},"),
     "a square table holds '0'"),
    ("fitted a number", "fitted = 3\n" + _edit("[fitted]\ngames = 3", ""), "are tables"),
    ("fitted holds a table", _edit("games = 3", "games = {a = 1}"), "fitted.games must be"),
    ("accepted holds tables", _edit("score = 0.5", "score = [{a = 1}]"), "accepted.score"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "words"), [pytest.param(t, w, id=c) for c, t, w in EVAL_FILES])
def test_a_hostile_evaluation_file_is_one_line(tmp_path: Path, text: str, words: str) -> None:
    """``dsq bestmove`` with ``eval=h``: the file is read by its checked reader (every weight's
    type and range, the tables' shapes, the notes' kinds) and refused in one line."""
    data = tmp_path / "d"
    (data / "evals").mkdir(parents=True)
    (data / "evals" / "h.toml").write_text(text, encoding="utf-8")
    code, out, err = in_process(["bestmove", "--bot", "alphabeta:depth=1,eval=h", "--data",
                                 str(data)])  # fmt: skip
    assert code == 2 and out == "", (code, err)
    (line,) = err.strip().splitlines()
    assert line.startswith(f"dsq bestmove: error: evaluation file {data / 'evals' / 'h.toml'}: ")
    assert words in line, line


def test_the_good_evaluation_file_is_read(tmp_path: Path) -> None:
    """The text the hostile cases edit is itself accepted."""
    data = tmp_path / "d"
    (data / "evals").mkdir(parents=True)
    (data / "evals" / "h.toml").write_text(GOOD, encoding="utf-8")
    sane(searched(data, "alphabeta:depth=1,eval=h"))
