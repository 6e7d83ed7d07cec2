"""Adjudication by search scores (``--resign``, ``--draw``): real batches of searching bots,
checked against the rule recomputed from each stored game's ``scores`` and ``captures``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.codes import RULE_ENDS
from engine.errors import DsqError
from sim.batch import RunOptions, make_spec, resume_batch, run_batch
from sim.batch.progress import BatchProgress
from sim.core.adjudication import canonical_draw, canonical_resign, parse_draw, parse_resign
from sim.core.batchspec import SPEC_INFO, check_value
from sim.play.referee import play_game
from sim.storage.reading import open_dataset
from sim.storage.records import read_batch_record, request_cancel

RESIGN = "movecount=3,score=0.9"
DRAW = "movenumber=10,movecount=3,score=0.99"
MATCH = {
    "rules": "standard",
    "red": "alphabeta:depth=2,eval=classic",
    "blue": "alphabeta:depth=1,eval=classic",
}
OPTIONS = {"swap": True, "opening_plies": 2, "ply_cap": 150, "resign": RESIGN}


def recorded(data: Path, batch_id: str) -> list[dict[str, Any]]:
    """A batch's games in index order, without the timing columns."""
    with open_dataset(data) as ds:
        sql = f"SELECT * FROM games WHERE batch_id = '{batch_id}' ORDER BY game_index"
        rows = ds.con.sql(sql).to_arrow_table().to_pylist()
    drop = ("duration_ms", "batch_id", "move_ms")
    return [{k: v for k, v in r.items() if k not in drop} for r in rows]


def own(scores: list[float | None], i: int) -> float | None:
    """The score of ply ``i`` from its mover's view (Red moves the even plies)."""
    s = scores[i]
    return None if s is None else (s if i % 2 == 0 else -s)


def ruling(
    scores: list[float | None],
    capture_plies: set[int],
    resign: tuple[int, float, bool] | None = None,
    draw: tuple[int, int, float] | None = None,
) -> tuple[int, str, str] | None:
    """``(plies, winner, reason)`` after the first ply where a rule holds, straight from
    its definition: the draw's last 2K plies all scored and within ±Y, none but the first
    a capture, after P moves each; a resign's mover's last K moves at <= -X (two-sided:
    the opponent's last K at >= X)."""
    for p in range(1, len(scores) + 1):
        if draw is not None:
            moves, k, y = draw
            window = range(p - 2 * k, p)
            if p // 2 >= moves and p >= 2 * k:
                level = all(scores[i] is not None and abs(scores[i]) <= y for i in window)
                if level and not any(i in capture_plies for i in window[1:]):
                    return p, "draw", "adjudicated_draw"
        if resign is not None:
            k, x, two = resign
            mine = [p - 1 - 2 * j for j in range(k)]
            theirs = [p - 2 - 2 * j for j in range(k)]
            lost = mine[-1] >= 0 and all((own(scores, i) or 0.0) <= -x for i in mine)
            lost = lost and all(own(scores, i) is not None for i in mine)
            if two:
                sure = theirs[-1] >= 0 and all(own(scores, i) is not None for i in theirs)
                lost = lost and sure and all((own(scores, i) or 0.0) >= x for i in theirs)
            if lost:
                return p, ("blue", "red")[(p - 1) % 2 == 1], "adjudicated_resign"
    return None


def check_game(game: dict[str, Any], **rules: Any) -> str:
    """Assert the game ended where its stored scores say; its reason."""
    scores = list(game["scores"]) if game["scores"] is not None else []
    captures = {int(c["ply"]) for c in game["captures"]}
    found = ruling(scores, captures, **rules)
    if found is None:
        assert game["reason"] not in ("adjudicated_resign", "adjudicated_draw"), game["reason"]
    elif game["reason"] in RULE_ENDS:  # the rules ended it at that same ply: they come first
        assert found[0] == game["plies"]
    else:
        assert (game["plies"], game["winner"], game["reason"]) == found
    return game["reason"]


class CancelAfterFirst(BatchProgress):
    """Asks the batch to stop once its first games are recorded (then it is resumed)."""

    def __init__(self, data: Path, batch_id: str) -> None:
        super().__init__(mode="quiet")
        self.data, self.batch_id = data, batch_id

    def update(self, done: int, counts: dict[str, int]) -> None:
        super().update(done, counts)
        request_cancel(self.data, self.batch_id)


@pytest.fixture(scope="module")
def resign_batch(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    data = tmp_path_factory.mktemp("resign")
    spec = make_spec(**MATCH, games=8, seed=5, **OPTIONS)
    assert spec.resign == RESIGN
    rec = run_batch(spec, data, workers=1, batch_id="one")
    assert rec["status"] == "done"
    return data, recorded(data, "one")


def test_resign_ends_games_at_the_ply_the_stored_scores_say(resign_batch) -> None:  # noqa: ANN001
    _, games = resign_batch
    reasons = [check_game(g, resign=(3, 0.9, False)) for g in games]
    assert "adjudicated_resign" in reasons
    for g in games:
        if g["reason"] == "adjudicated_resign":  # the loser is the side that moved last
            assert g["winner"] == ("blue" if g["plies"] % 2 == 1 else "red")


def test_the_same_games_on_two_workers_and_after_a_resume(resign_batch) -> None:  # noqa: ANN001
    data, games = resign_batch
    spec = make_spec(**MATCH, games=8, seed=5, **OPTIONS)
    run_batch(spec, data, workers=2, batch_id="two", options=RunOptions(chunk_games=1))
    small = RunOptions(chunk_games=1, flush_games=1)
    rec = run_batch(
        spec, data, batch_id="cut", options=small, progress=CancelAfterFirst(data, "cut")
    )
    assert rec["status"] == "cancelled" and rec["games_done"] < 8
    assert resume_batch("cut", data, workers=1)["status"] == "done"
    assert read_batch_record(data, "cut")["spec"]["resign"] == RESIGN
    assert recorded(data, "two") == games
    assert recorded(data, "cut") == games


def test_two_sided_needs_the_winner_to_agree() -> None:
    reasons = []
    for seed in range(6):
        game = play_game(
            "standard", MATCH["red"], MATCH["blue"], seed, opening_plies=2, ply_cap=150,
            resign=RESIGN + ",twosided=true",
        )  # fmt: skip
        reasons.append(check_game(game, resign=(3, 0.9, True)))
    assert "adjudicated_resign" in reasons


def test_a_side_without_scores_never_resigns() -> None:
    """Random reports no score: its moves break its runs, so it never resigns, however
    sure its opponent's scores are (one-sided or two-sided)."""
    sure = 0
    for seed in range(4):
        for rule in (RESIGN, RESIGN + ",twosided=true"):
            game = play_game(
                "standard", "alphabeta:depth=2,eval=classic", "random", seed, resign=rule
            )
            assert game["reason"] == check_game(game, resign=(3, 0.9, rule != RESIGN))
            assert game["reason"] not in ("adjudicated_resign", "adjudicated_draw")
        red = [s for s in game["scores"][::2] if s is not None]
        sure += len(red) >= 3 and min(red[-3:]) >= 0.9
    assert sure  # in some game the winner's own scores passed the threshold 3 moves running


def test_draw_on_self_play_with_a_wide_window(tmp_path: Path) -> None:
    spec = make_spec(
        "standard", "alphabeta:depth=1,eval=classic", "alphabeta:depth=1,eval=classic", 4,
        seed=2, opening_plies=2,
        draw=DRAW,
    )  # fmt: skip
    assert run_batch(spec, tmp_path, batch_id="d")["status"] == "done"
    games = recorded(tmp_path, "d")
    assert [check_game(g, draw=(10, 3, 0.99)) for g in games] == ["adjudicated_draw"] * 4
    assert all(g["winner"] == "draw" and g["plies"] >= 20 for g in games)


def test_a_capture_restarts_the_draw_run() -> None:
    """As cutechess restarts it at an irreversible move: a game whose scores are level
    from the start is drawn 2K plies after its last capture, not 2K plies in."""
    rule = "movenumber=5,movecount=10,score=0.99"
    late = 0
    for seed in range(3):
        game = play_game(
            "standard", MATCH["red"], MATCH["blue"], seed, opening_plies=2, ply_cap=150,
            draw=rule,
        )  # fmt: skip
        assert check_game(game, draw=(5, 10, 0.99)) == "adjudicated_draw"
        late += game["plies"] > 2 + 20 and bool(game["captures"])
    assert late  # some game had a capture inside its first level run


def test_fast_bots_are_never_adjudicated() -> None:
    """Random and greedy report no scores: the rules change nothing in their games."""
    for seed in range(3):
        plain = play_game("standard", "greedy", "random", seed)
        judged = play_game("standard", "greedy", "random", seed, resign=RESIGN, draw=DRAW)
        assert {**plain, "duration_ms": 0} == {**judged, "duration_ms": 0}


def test_rules_are_stored_canonical() -> None:
    assert canonical_resign("score=0.90 movecount=3") == RESIGN
    assert canonical_resign("movecount=3,score=1,twosided=false") == "movecount=3,score=1"
    assert canonical_resign("none") == "none" and parse_resign("none") is None
    assert parse_resign(RESIGN + ",twosided=true").twosided  # type: ignore[union-attr]
    assert canonical_draw("score=0.990,movecount=3,movenumber=10") == DRAW
    assert parse_draw(DRAW).movenumber == 10  # type: ignore[union-attr]
    spec = make_spec(
        "standard", "random", "random", 2, seed=1, draw="movenumber=0 movecount=1 score=0"
    )
    assert spec.draw == "movenumber=0,movecount=1,score=0" and spec.resign == "none"


BAD = [
    ("resign", "movecount=3", "needs score"),
    ("resign", "movecount=0,score=0.5", "movecount"),
    ("resign", "movecount=3,score=0", "score"),
    ("resign", "movecount=3,score=1.5", "score"),
    ("resign", "movecount=3,score=nan", "score"),
    ("resign", "movecount=3,score=0.5,twosided=yes", "twosided"),
    ("resign", "movecount=3,score=0.5,depth=2", "depth"),
    ("resign", "movecount=3,movecount=4,score=0.5", "twice"),
    ("draw", "movecount=3,score=0.1", "needs movenumber"),
    ("draw", "movenumber=-1,movecount=3,score=0.1", "movenumber"),
    ("draw", "movenumber=1,movecount=3,score=-0.1", "score"),
    ("draw", "", "needs"),
]


@pytest.mark.parametrize(("field", "value", "needle"), BAD)
def test_bad_rules_are_one_clear_error(field: str, value: str, needle: str) -> None:
    with pytest.raises(DsqError, match=needle) as err:
        make_spec("standard", "random", "random", 2, seed=1, **{field: value})
    assert str(err.value).startswith(f"--{field}") and "\n" not in str(err.value)
    assert getattr(err.value, "field", None) == field


def test_the_record_check_knows_the_rules() -> None:
    for field, good, bad in (("resign", RESIGN, "score=2"), ("draw", DRAW, "movecount=1")):
        assert check_value(SPEC_INFO[field], good) and check_value(SPEC_INFO[field], "none")
        assert not check_value(SPEC_INFO[field], bad)
        assert not check_value(SPEC_INFO[field], "")
