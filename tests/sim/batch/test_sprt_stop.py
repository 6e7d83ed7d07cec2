"""``dsq simulate --sprt`` stops a match once the sequential test decides, and records it."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from sim.batch import make_spec, resume_batch, run_batches
from sim.batch.driver import CHECK_CHUNK
from sim.batch.spec import RunOptions
from sim.core.seeds import game_seed
from sim.core.tally import SequentialCheck
from sim.play.referee import play_game
from sim.stats.sprt import (
    SprtConfig,
    make_stop_check,
    parse_sprt,
    sprt_llr,
    sprt_llr_many,
    sprt_test,
)
from sim.storage.reading import open_dataset
from sim.storage.records import read_batch_record, request_cancel, write_batch_record
from tests.support.procs import dsq_here


def dsq(*args: str) -> subprocess.CompletedProcess[str]:
    """``dsq ARGS`` in this process (no interpreter start-up per call): what is checked here
    is the command's behaviour, not the process boundary."""
    return dsq_here(*args)


def test_sprt_stops_a_lopsided_match_early(tmp_path: Path) -> None:
    done = dsq(
        "simulate",
        "--rules",
        "standard",
        "--red",
        "greedy",
        "--blue",
        "random",
        "--games",
        "4000",
        "--seed",
        "5",
        "--sprt",
        "elo0=0,elo1=50",
        "--chunk-games",
        "50",
        "--data",
        str(tmp_path),
        "--quiet",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    batch = json.loads(done.stdout)["batches"][0]
    assert batch["stopped_early"] is True
    assert batch["status"] == "done"
    assert batch["sprt"] == "elo0=0,elo1=50,alpha=0.05,beta=0.05"
    check = batch["stop_check"]
    assert check["decision"] == "H1"
    assert check["llr"] >= check["upper"]
    assert batch["games_done"] < 4000
    # Every game played is recorded (from the --red bot's side), past the decision too.
    with open_dataset(tmp_path) as ds:
        w, d, n = ds.con.execute(
            "select count(*) filter (where winner = 'red'), count(*) filter (where winner = "
            "'draw'), count(*) from games"
        ).fetchone()
    assert n == batch["games_done"]
    # The verdict is the one of the games up to the decision, found offline game by game.
    at = batch["decided_at"]
    assert offline_decision(winners(tmp_path), False, parse_sprt(batch["sprt"])) == (at, "H1")
    assert 0 <= n - at < CHECK_CHUNK  # one worker: only the rest of the deciding chunk
    w, d, lo = wdl(winners(tmp_path)[:at], False)
    assert check["results"] == [w, d, lo]
    assert abs(sprt_llr((w, d, lo), 0, 50) - check["llr"]) < 1e-9
    assert parse_sprt(batch["sprt"]).elo1 == 50


def winners(data: Path, batch_id: str | None = None) -> list[str]:
    """The winners of a data folder's games (of one batch), in game-index order, which
    must be 0, 1, 2, ... up to the last one."""
    where = f"where batch_id = '{batch_id}'" if batch_id else ""
    with open_dataset(data) as ds:
        rows = ds.con.execute(
            f"select game_index, winner from games {where} order by game_index"
        ).fetchall()
    return [w for _, w in rows]


def wdl(ws: list[str], swap: bool) -> tuple[int, int, int]:
    """The --red bot's wins, draws and losses over games 0.. with these winners."""
    wins = sum(w == ("blue" if swap and i % 2 else "red") for i, w in enumerate(ws))
    draws = ws.count("draw")
    return wins, draws, len(ws) - wins - draws


def offline_decision(ws: list[str], swap: bool, config: SprtConfig) -> tuple[int, str] | None:
    """Where the SPRT first decides on games 0, 1, 2, ... (after each pair with swap), and
    its decision, computed from the recorded games alone; None if it never does."""
    penta = [0] * 5
    for n in range(1, len(ws) + 1):
        if swap and n % 2:
            continue
        if swap:
            a_points = [1 if w == "draw" else 2 * (w == ("red", "blue")[i % 2])
                        for i, w in enumerate(ws[n - 2 : n], start=n - 2)]  # fmt: skip
            penta[sum(a_points)] += 1
            results: tuple[int, ...] = tuple(penta)
        else:
            results = wdl(ws[:n], False)
        t = sprt_test(results, config)
        if t.decision:
            return n, t.decision
    return None


CLOSE = "elo0=500,elo1=550"  # greedy against random, seed 3: decided after many chunks


DECIDED_AT = {CLOSE: 1632}  # offline, from 4000 games of the same batch without an SPRT
STRAGGLER = game_seed(3, DECIDED_AT[CLOSE] - 2)  # the seed of a game of the deciding pair


def slow_straggler(rules: str, red: str, blue: str, seed: int, **kw: Any) -> dict[str, Any]:
    """The referee's game, except that one game of the deciding pair takes two seconds more:
    the other slots must not play on while the check waits for it."""
    if seed == STRAGGLER:
        time.sleep(2.0)  # not a wait for anything: the straggler the window must absorb
    return play_game(rules, red, blue, seed, **kw)


@pytest.mark.parametrize("workers", [1, 2])
def test_the_decision_is_at_the_exact_pair_on_any_number_of_workers(
    tmp_path: Path, workers: int
) -> None:
    spec = make_spec("standard", "greedy", "random", 20000, seed=3, swap=True)
    # Two workers: one game of the deciding pair straggles; the others must not play on.
    options = RunOptions(play_fn=f"{__name__}:slow_straggler") if workers > 1 else None
    [rec] = run_batches(
        [spec], tmp_path, batch_id="s", sprt=CLOSE, workers=workers, options=options
    )
    assert rec["status"] == "done" and rec["stopped_early"] is True
    ws = winners(tmp_path)
    assert len(ws) == rec["games_done"]  # every recorded game, indices 0.. without a gap
    found = offline_decision(ws, True, parse_sprt(CLOSE))
    assert found is not None and rec["decided_at"] == found[0]
    assert rec["decided_at"] > 10 * CHECK_CHUNK and rec["decided_at"] % 2 == 0
    assert rec["stop_check"]["decision"] == found[1]
    assert sum(rec["stop_check"]["results"]) == rec["decided_at"] // 2
    # Past the decision: at most the chunks in flight (one worker: the deciding one's rest).
    in_flight = 1 if workers == 1 else 2 * workers
    assert 0 <= rec["games_done"] - rec["decided_at"] < in_flight * CHECK_CHUNK
    # The games are the same per index: one worker and two decide at the same game.
    assert rec["decided_at"] == DECIDED_AT[CLOSE]
    # A decided batch resumed is done at once: nothing more is played.
    again = resume_batch("s", tmp_path)
    assert again["status"] == "done" and again["stopped_early"] is True
    assert (again["games_done"], again["decided_at"]) == (rec["games_done"], rec["decided_at"])
    assert again["stop_check"] == rec["stop_check"]
    assert len(winners(tmp_path)) == rec["games_done"]


def test_an_interrupted_sprt_batch_resumed_decides_where_it_would_have(tmp_path: Path) -> None:
    spec = make_spec("standard", "greedy", "random", 20000, seed=3, swap=True)

    def cancel_soon(counts: dict) -> bool:  # a cancel request after 300 games
        if counts["games"] >= 300:
            request_cancel(tmp_path, "s")
        return False

    [first] = run_batches([spec], tmp_path, batch_id="s", stop_check=cancel_soon)
    assert first["status"] == "cancelled" and 300 <= first["games_done"] < 20000
    rec = read_batch_record(tmp_path, "s")
    rec["sprt"] = CLOSE  # the same batch, had it been started with the SPRT
    write_batch_record(tmp_path, rec)
    again = resume_batch("s", tmp_path, workers=2)
    assert again["status"] == "done" and again["decided_at"] == DECIDED_AT[CLOSE]


def test_results_in_any_order_are_tested_in_index_order() -> None:
    config = parse_sprt("elo0=0,elo1=50")
    ws = ["red", "draw", "red", "red", "blue", "red"] * 20
    expected = offline_decision(ws, True, config)
    assert expected is not None
    odd_first = [*range(1, 120, 2), *range(0, 120, 2)]
    for order in (range(120), range(119, -1, -1), odd_first, [range(120)]):
        for plain in (False, True):  # the SPRT's screen of many states, and one by one
            sprt = make_stop_check(config)
            check = SequentialCheck(sprt.__call__ if plain else sprt, swap=True)
            for part in order:
                check.add([(i, ws[i]) for i in (part if isinstance(part, range) else [part])])
            assert check.decided_at == expected[0]
            assert check.counts is not None and check.counts["games"] == expected[0]
            assert sprt.last is not None and sprt.last.decision == expected[1]
            assert sum(sprt.last.results) == expected[0] // 2


def test_the_screen_finds_what_the_test_finds_one_state_at_a_time() -> None:
    ws = ["red", "draw", "blue", "red", "draw", "draw", "blue", "red"] * 300
    states = [wdl(ws[:n], False) for n in range(1, len(ws) + 1)]
    steps = [{"wins": w, "draws": d, "losses": lo} for w, d, lo in states]
    for spec in ("elo0=0,elo1=10", "elo0=-30,elo1=-10", "elo0=-5,elo1=5,model=normalized"):
        config = parse_sprt(spec)
        found = offline_decision(ws, False, config)
        check = make_stop_check(config)
        i = check.first_decision(steps)
        assert (None if i is None else (i + 1, check.last.decision)) == found
        many = sprt_llr_many(states, config.elo0, config.elo1, config.model)
        one = [sprt_llr(s, config.elo0, config.elo1, config.model) for s in states[::97]]
        assert max(abs(a - b) for a, b in zip(many[::97], one, strict=True)) < 1e-9


def test_bad_sprt_spec_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for spec in ("elo0=5,elo1=1", "elo0=0,elo1=x", "speed=3", "alpha=2"):
        done = dsq(
            "simulate", "--rules", "standard", "--games", "10", "--sprt", spec, "--data", str(data)
        )
        assert done.returncode == 2
        assert len(done.stderr.strip().splitlines()) == 1
        assert "sprt" in done.stderr
        assert not data.exists()
