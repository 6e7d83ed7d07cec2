"""``dsq openings build|check``: a suite built from real batches (alpha-beta self-play
with random opening plies, so the positions vary and carry search scores; random against
greedy from a two-line suite, so positions repeat and carry results), read back by the
one reader, every line meeting the documented criterion recomputed here from the games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine import Position
from engine.position import decode_move
from sim.batch import make_spec, run_batches
from sim.openings.suite import load_suite
from sim.storage.reading import open_dataset
from tests.support.procs import in_process

SUITE = "startpos\tstart\nstartpos a3a4 g7g6\ttwo moves\n"
PLIES = 2


def after_a3a4() -> str:
    pos = Position("standard")
    pos.play("a3a4")
    return pos.fen()  # Blue to move


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("openings-data")
    specs = [
        make_spec("standard", "alphabeta:depth=1", "alphabeta:depth=1", 40, seed=1,
                  opening_plies=3, ply_cap=200),
        make_spec("standard", "random", "greedy", 60, seed=2, swap=True, ply_cap=200,
                  openings=SUITE, opening_plies=0),
        make_spec("standard", "greedy", "alphabeta:depth=1", 30, seed=3, ply_cap=200,
                  openings=f"{after_a3a4()}\tafter a3a4\n", opening_plies=1),
    ]  # fmt: skip
    run_batches(specs, d, ids=["ab1", "suite", "fen"])
    return d


def build(data: Path, *flags: str) -> tuple[int, str, str]:
    return in_process(["openings", "build", "--data", str(data), *flags])


def games(data: Path) -> list[dict[str, Any]]:
    ds = open_dataset(data)
    try:
        sql = "SELECT start_fen, moves, winner, plies, scores FROM games"
        cur = ds.con.execute(sql)
        names = [c[0] for c in cur.description]
        found = [dict(zip(names, row, strict=True)) for row in cur.fetchall()]
    finally:
        ds.close()
    for g in found:  # the position after PLIES plies, by the engine
        moves = [decode_move(m) for m in g["moves"][:PLIES]]
        g["key"] = key_after(g["start_fen"], moves) if g["plies"] > PLIES else None
    return found


def key_after(start_fen: str | None, moves: list[str]) -> str:
    pos = Position("standard", start_fen)
    pos.play_moves(moves)
    return " ".join(pos.fen().split()[:3])


def meets_criterion(
    rows: list[dict[str, Any]], key: str, side: str, plies: int, min_games: int,
    band: tuple[float, float], window: int, max_score: float,
) -> bool:  # fmt: skip
    """The criterion of docs/openings.md, computed from the games one by one."""
    reached = [g for g in rows if g["key"] == key]
    assert reached
    points = [1.0 if g["winner"] == side else 0.5 if g["winner"] == "draw" else 0.0
              for g in reached]  # fmt: skip
    results = len(reached) >= min_games
    if results and not band[0] <= sum(points) / len(points) <= band[1]:
        return False
    evaluated = unquiet = 0
    for g in reached:
        recorded = [s for s in (g["scores"] or [])[plies : plies + window] if s is not None]
        short = g["plies"] <= plies + window
        if recorded or short:
            evaluated += 1
            unquiet += short or max(abs(s) for s in recorded) > max_score
    if evaluated and unquiet:
        return False
    return results or evaluated > 0


@pytest.mark.parametrize(
    "min_games, band", [(10, (0.35, 0.65)), (1000, (0.35, 0.65)), (1, (0.9, 1.0))]
)
def test_every_line_meets_the_criterion(
    data: Path, tmp_path: Path, min_games: int, band: tuple[float, float]
) -> None:
    out = tmp_path / "suite.txt"
    flags = ["--plies", str(PLIES), "--min-games", str(min_games), "--max-score", "0.1", "--band",
             f"{band[0]},{band[1]}", "--count", "10000", "--output", str(out)]  # fmt: skip
    code, stdout, err = build(data, *flags)
    assert code == 0, err
    assert stdout == ""
    text = out.read_text()
    assert text.startswith("# An opening suite built by 'dsq openings build'")
    assert "# criterion: the position after 2 plies" in text
    suite = load_suite(out, "standard")
    assert len(suite) > 0
    assert f"{len(suite)} positions of {len(suite)} qualifying" in err
    rows = games(data)
    keys = set()
    starts = {e.start_fen for e in suite.entries}
    assert starts <= {None, after_a3a4()}
    for entry in suite.entries:
        assert len(entry.moves) == PLIES
        pos = Position("standard", entry.start_fen)
        pos.play_moves(list(entry.moves))
        key = " ".join(pos.fen().split()[:3])
        keys.add(key)
        assert meets_criterion(rows, key, pos.side, PLIES, min_games, band, 4, 0.1)
    assert len(keys) == len(suite)  # one line per position
    sides = {g["key"]: "red" if g["key"].split()[1] == "r" else "blue" for g in rows if g["key"]}
    qualifying = {k for k, side in sides.items()
                  if meets_criterion(rows, k, side, PLIES, min_games, band, 4, 0.1)}  # fmt: skip
    assert qualifying == keys  # no qualifying position left out
    if min_games == 10:  # the suite's second line, 30 games: a position with results
        named = {e.moves: e.name for e in suite.entries}
        assert (named.get(("a3a4", "g7g6")) or "").startswith("30 games, score 0.533 [")
    if min_games == 1:  # the winners' positions, games from the FEN (Blue to move) too
        assert after_a3a4() in starts


def test_the_same_seed_gives_the_same_file(data: Path) -> None:
    flags = ("--plies", "3", "--count", "4", "--seed", "7")
    first, second = build(data, *flags), build(data, *flags)
    assert first[0] == 0 and first[1] == second[1]
    assert "(a sample drawn with seed 7)" in first[1]
    assert len([ln for ln in first[1].splitlines() if not ln.startswith("#")]) == 4


def test_no_qualifying_position_is_one_error(data: Path) -> None:
    code, stdout, err = build(data, "--plies", "200")  # no game is longer than the cap
    assert code == 2 and stdout == ""
    assert err.strip().splitlines() == [err.strip()]
    assert err.startswith("dsq openings build: error: no position qualifies: 0 positions")


@pytest.mark.parametrize(
    "flags, says",
    [
        (["--plies", "0"], "--plies"),
        (["--plies", "2", "--band", "0.7,0.3"], "--band must be LOW,HIGH"),
        (["--plies", "2", "--band", "x"], "--band must be LOW,HIGH"),
        (["--plies", "2", "--band", "0.1,nan"], "--band expected a number"),
        (["--plies", "2", "--max-score", "2"], "--max-score"),
        (["--plies", "2", "--rules", "bogus"], "bogus"),
        (["--plies", "2", "--bot", "nobot"], "nobot"),
    ],
)
def test_bad_flags_are_one_line(data: Path, flags: list[str], says: str) -> None:
    code, stdout, err = build(data, *flags)
    assert code == 2 and stdout == ""
    assert len(err.strip().splitlines()) == 1 and says in err, err
    assert err.startswith("dsq openings")


def test_check_counts_a_good_file_and_names_a_bad_line(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("# two\n" + SUITE)
    code, stdout, _ = in_process(["openings", "check", str(good)])
    assert code == 0 and stdout.strip() == f"{good}: 2 positions, every line valid under standard"
    bad = tmp_path / "bad.txt"
    bad.write_text("startpos\nstartpos e3e4\n")
    code, stdout, err = in_process(["openings", "check", str(bad), "--rules", "yeshou"])
    assert code == 2 and stdout == ""
    assert err.startswith(f"dsq openings check: error: {bad}:2: move 1 (e3e4): illegal move")
    code, _, err = in_process(["openings", "check", str(tmp_path / "none.txt")])
    assert code == 2 and "cannot read the openings file" in err


def test_games_under_several_rule_sets_need_rules(tmp_path: Path) -> None:
    specs = [
        make_spec(r, "random", "greedy", 10, seed=4, ply_cap=100) for r in ("standard", "yeshou")
    ]
    run_batches(specs, tmp_path, ids=["std", "ys"])
    code, _, err = build(tmp_path, "--plies", "2")
    assert code == 2 and "under 2 rule sets" in err and "choose one with --rules" in err
    code, stdout, err = build(tmp_path, "--plies", "2", "--rules", "yeshou", "--min-games", "1",
                              "--band", "0,1")  # fmt: skip
    assert code == 0, err
    assert "# data: " in stdout and "rules: yeshou" in stdout
