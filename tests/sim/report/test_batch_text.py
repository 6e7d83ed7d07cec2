"""The batch summary of ``dsq simulate`` and the table of ``dsq batches``: short bot specs,
each bot's W/D/L and score, the logistic Elo with its interval (never inf), and the SPRT's
verdict."""

from __future__ import annotations

import math

from sim.bots.spec import parse_bot
from sim.report.batch_text import batch_row, batch_score, sprt_verdict, summary_text
from sim.report.fmt import elo_estimate, plus_minus
from sim.stats.elo import match_score, pentanomial
from sim.stats.sprt import parse_sprt, sprt_test
from tests.support.records import valid_record

AB = parse_bot("alphabeta:depth=2").canonical
GREEDY = parse_bot("greedy").canonical


def _record(counts: dict, swap: bool = False, **fields: object) -> dict:
    rec = valid_record("b1", games=200, **{"status": "done", "counts": counts, **fields})
    rec["spec"].update(red=AB, blue=GREEDY, swap=swap)
    rec["games_done"] = counts["red"] + counts["blue"] + counts["draw"]
    return rec


def test_the_summary_names_bots_by_short_spec_and_gives_their_score() -> None:
    rec = _record({"red": 150, "blue": 30, "draw": 20, "a_wins": 150, "b_wins": 30})
    text = summary_text(dict(rec, seconds=1.5))
    assert AB not in text and "alphabeta:depth=2 vs greedy" in text
    assert "alphabeta:depth=2 150-20-30 (score 0.800)" in text
    assert "greedy 30-20-150 (score 0.200)" in text
    m = match_score(150, 20, 30)
    assert f"logistic Elo alphabeta:depth=2 - greedy: {plus_minus(m.elo, m.elo_error)}" in text
    assert " ± " in text and "+-" not in text
    assert "red wins 150 (75.0%)" in text


def test_swapped_pairs_give_the_pentanomial_elo() -> None:
    counts = {"red": 90, "blue": 90, "draw": 20, "a_wins": 170, "b_wins": 10,
              "pentanomial": [1, 2, 10, 17, 70]}  # fmt: skip
    s = batch_score(_record(counts, swap=True))
    assert s is not None and (s.wins, s.draws, s.losses) == (170, 20, 10)
    p = pentanomial([1, 2, 10, 17, 70])
    assert (s.elo, s.elo_from, s.pairs) == (p.logistic(), "pairs", 100)
    assert s.elo is not None and s.elo.kind == "logistic"


def test_a_sweep_and_a_near_sweep_have_finite_bounds() -> None:
    # 117-1-2: the normal interval passes a score of 1 (cutechess: "+668.8 +/- inf");
    # Wilson's stays inside and gives two finite, asymmetric bounds.
    near = batch_score(_record({"red": 117, "blue": 2, "draw": 1, "a_wins": 117, "b_wins": 2}))
    assert near is not None and near.elo is not None
    e = near.elo
    assert 400 < e.low < e.point < e.high < 1000 and math.isnan(e.error)
    assert e.point - e.low != e.high - e.point
    cell = batch_row(dict(_record({"red": 117, "blue": 2, "draw": 1, "a_wins": 117,
                                   "b_wins": 2}), effective_status="done"))[10]  # fmt: skip
    assert cell == elo_estimate(e) == "+668.8 [+466.7, +846.2]"
    # 120-0-0: the Elo is infinite and only bounded below (Wilson: n / (n + z^2)).
    sweep = _record({"red": 120, "blue": 0, "draw": 0, "a_wins": 120, "b_wins": 0})
    s = batch_score(sweep)
    assert s is not None and s.elo is not None and s.elo.high_open and not s.elo.low_open
    text = summary_text(sweep)
    assert "logistic Elo alphabeta:depth=2 - greedy: > +597.9 (95%, from W/D/L)" in text
    assert "inf" not in text and "+-" not in text
    assert batch_row(dict(sweep, effective_status="done"))[8:11] == ["120-0-0", "1.000", "> +597.9"]
    d = s.to_dict()["elo"]
    assert d["point"] is None and d["high"] is None and d["high_open"] and d["low"] > 597
    # An even match keeps cutechess's symmetric error.
    even = batch_score(_record({"red": 50, "blue": 50, "draw": 20, "a_wins": 50, "b_wins": 50}))
    assert even is not None and elo_estimate(even.elo) == "+0.0 ± 57.3"


def test_an_old_swapped_record_reads_its_score_from_game_counts() -> None:
    rec = _record({"red": 90, "blue": 90, "draw": 20}, swap=True)
    assert batch_score(rec) is None  # its own counts cannot tell which bot won
    assert batch_row(dict(rec, effective_status="done"))[8:11] == ["-", "-", "-"]
    game_counts = {"red": 90, "blue": 90, "draw": 20, "a_wins": 170, "b_wins": 10,
                   "pentanomial": [1, 2, 10, 17, 70]}  # fmt: skip
    s = batch_score(dict(rec, game_counts=game_counts))
    assert s is not None and (s.wins, s.draws, s.losses, s.pairs) == (170, 20, 10, 100)
    row = batch_row(dict(rec, game_counts=game_counts, effective_status="done"))
    assert row[8:10] == ["170-20-10", "0.900"] and row[10] == elo_estimate(s.elo)
    # Without swapping the --red bot is always red: its wins are red's.
    s = batch_score(_record({"red": 90, "blue": 80, "draw": 30}))
    assert s is not None and (s.wins, s.draws, s.losses) == (90, 30, 80)


def test_self_play_has_no_bot_score() -> None:
    rec = _record({"red": 9, "blue": 8, "draw": 3, "a_wins": 9, "b_wins": 8})
    rec["spec"]["blue"] = AB
    s = batch_score(rec)
    assert s is not None and s.self_play and s.elo is None
    assert "self-play: alphabeta:depth=2 on both sides" in summary_text(rec)
    assert batch_row(dict(rec, effective_status="done"))[8:11] == ["self-play", "-", "-"]


def test_the_sprt_verdict_is_told_whether_stored_or_computed() -> None:
    counts = {"red": 60, "blue": 2, "draw": 8, "a_wins": 60, "b_wins": 2}
    stored = {"llr": 3.1, "lower": -2.94, "upper": 2.94, "decision": "H1"}
    rec = _record(counts, sprt="elo0=0,elo1=50,alpha=0.05,beta=0.05", stop_check=stored,
                  stopped_early=True)  # fmt: skip
    text = summary_text(rec)
    assert "SPRT elo0=0,elo1=50,alpha=0.05,beta=0.05: H1 accepted, LLR 3.10" in text
    assert "stopped early" in text
    assert batch_row(dict(rec, effective_status="done"))[11] == "H1 (LLR 3.10)"
    # An interrupted batch has no stored check: the verdict so far comes from its counts.
    rec = _record({"red": 3, "blue": 2, "draw": 1, "a_wins": 3, "b_wins": 2},
                  sprt="elo0=0,elo1=50,alpha=0.05,beta=0.05", status="interrupted")  # fmt: skip
    v = sprt_verdict(rec)
    expected = sprt_test((3, 1, 2), parse_sprt("elo0=0,elo1=50"))
    assert v is not None and v["decision"] is None and v["llr"] == expected.llr
    assert batch_row(dict(rec, effective_status="interrupted"))[11].startswith("undecided (LLR")
    assert "undecided" in summary_text(rec)
    assert sprt_verdict(_record(counts)) is None
