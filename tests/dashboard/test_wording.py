"""The dashboard's wording and numbers, as a person reads them (AppTest, real parquet files
and records): a saved game against a person, counts in the singular, page numbers and
medians, the preset labels, the Games page's line about games against people, the Play
page's FEN help, the Simulate page's list and a running batch's rate and time to go."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.i18n import catalogue, counted, result_text, text
from dashboard.i18n.numbers import Numbers
from dashboard.job_list import JobView, job_speed
from engine import Position
from sim.batch.progress import fmt_eta
from sim.records.human import Stop, human_game_row, save_human_game
from sim.report import fmt
from sim.stats.synthetic import rows_table, synthetic_table
from sim.storage.atomic import atomic_write_json
from sim.storage.locks import BatchLock
from sim.storage.paths import batches_dir
from sim.storage.writing import write_games_chunk
from tests.support import APP
from tests.support.procs import WAIT
from tests.support.records import valid_record

EN, PT = Numbers("en"), Numbers("pt")


def app(monkeypatch: pytest.MonkeyPatch, data: Path, page: str, lang: str = "en") -> AppTest:
    """The dashboard on ``data`` in ``lang`` (as a link with ``?lang=`` opens it), on ``page``."""
    monkeypatch.setenv("DSQ_DATA", str(data))
    at = AppTest.from_file(str(APP), default_timeout=WAIT)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page(f"views/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def quiet_moves(plies: int) -> list[str]:
    """``plies`` legal moves from the start that capture nothing."""
    pos, moves = Position("standard"), []
    for _ in range(plies):
        move = next(m for m in pos.legal_moves() if pos.piece_at(m[2:]) is None)
        pos.play(move)
        moves.append(move)
    return moves


def resigned_game(data: Path, plies: int = 12) -> str:
    """A game a person (Red) resigned after ``plies`` plies, saved as the Play page saves it."""
    row = human_game_row("standard", "human", "random", quiet_moves(plies), seed=7,
                         stop=Stop("red", "resign"))  # fmt: skip
    assert row["red_captures"] == row["blue_captures"] == 0
    return save_human_game(data, row)


def texts(at: AppTest) -> list[str]:
    """Every markdown, caption, info, success and warning text of the page."""
    return [e.value for kind in ("markdown", "caption", "info", "success", "warning")
            for e in getattr(at, kind)]  # fmt: skip


def test_a_saved_resigned_game_reads_as_played(monkeypatch, tmp_path):
    batch = resigned_game(tmp_path)
    at = app(monkeypatch, tmp_path, "games")
    shown = texts(at)
    assert not [s for s in shown if "ply cap 12" in s]
    assert any("no ply cap" in s and "no random opening" in s for s in shown)
    recorded = result_text("en", "blue", "resign")
    assert recorded == "Blue wins (resignation)"
    info = [i.value for i in at.info if i.value.startswith("Recorded result")]
    assert info == [text("en", "games.stopped_plain", recorded=recorded)]
    assert "resignation): resignation" not in info[0]
    at.button(key=f"ply_{batch}_0_end").click().run()
    final = [m.value for m in at.markdown if "Final position" in m.value]
    assert final and final[0].endswith(f"Final position: {recorded}**")
    assert "unfinished" not in final[0]
    assert any(c == text("en", "games.no_captures") for c in texts(at))
    assert not [d for d in at.dataframe if d.key and d.key.endswith("_captures")]


def test_portuguese_games_page_counts_one_game_in_the_singular(monkeypatch, tmp_path):
    resigned_game(tmp_path, plies=1)
    at = app(monkeypatch, tmp_path, "games", "pt")
    shown = texts(at)
    assert "1 partida · página 1 de 1" in shown
    assert not [s for s in shown if "1 partidas" in s or "1 jogadas" in s]
    assert any(s.endswith("· 1 de 1 partida") for s in shown)  # the selection line
    label = at.selectbox(key="games_pick").options[0]
    assert label.endswith("em 1 jogada")
    assert at.caption and "Nenhuma captura nesta partida." in shown
    # nothing on the page is an empty table, whose grid would say "empty" in English
    assert all(len(d.value) for d in at.dataframe)


def test_the_games_page_says_games_against_people_are_listed_whatever_the_box(
    monkeypatch, tmp_path
):
    resigned_game(tmp_path)
    at = app(monkeypatch, tmp_path, "games")
    line = next(c.value for c in at.caption if c.value.startswith("Selection:"))
    assert text("en", "filters.describe_humans") not in line
    assert text("en", "filters.describe_humans_listed") in line
    at.sidebar.checkbox(key="f_humans").check().run()
    line = next(c.value for c in at.caption if c.value.startswith("Selection:"))
    assert text("en", "filters.describe_humans") in line
    assert text("en", "filters.describe_humans_listed") not in line


@pytest.fixture(scope="module")
def many_games(tmp_path_factory) -> Path:
    """200,200 synthetic games (1,001 pages of the Games page's list)."""
    data = tmp_path_factory.mktemp("many") / "data"
    write_games_chunk(data, "many", synthetic_table(200_200, moves=False, batch_id="many"))
    return data


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_page_counts_have_thousands_separators(monkeypatch, many_games, lang):
    at = app(monkeypatch, many_games, "games", lang)
    n = Numbers(lang)
    want = text(lang, "games.count", games=n.count(200_200), page="1", pages=n.count(1001))
    assert want in [c.value for c in at.caption]
    assert ("1,001" if lang == "en" else "1.001") in want


def test_a_median_of_plies_is_whole_or_a_half(monkeypatch, tmp_path):
    rows = [dict(batch_id="m", game_index=i, plies=p, winner="red", reason="den")
            for i, p in enumerate((298, 298, 300, 302))]  # fmt: skip
    write_games_chunk(tmp_path, "m", rows_table(rows))
    at = app(monkeypatch, tmp_path, "overview")
    median = next(m for m in at.metric if m.label == text("en", "overview.median"))
    assert median.value == "299"
    assert (EN.median(298.0), EN.median(298.5), PT.median(1298.5)) == ("298", "298.5", "1.298,5")
    assert EN.median(None) == "-"
    assert fmt.median(298.5) == "298.5" and fmt.median(299.0) == "299"  # dsq stats' too


def test_the_preset_labels_and_the_fen_help_say_what_they_are(monkeypatch, tmp_path):
    at = app(monkeypatch, tmp_path, "play")
    labels = at.selectbox(key="play_preset").options
    assert labels[0] == "standard: the common rules"
    assert not [x for x in labels if "the Portuguese page's rules" in x]
    fen_help = at.text_input(key="play_fen").help
    assert "not recorded" not in fen_help and "saved like any other" in fen_help
    for lang in ("zh", "pt"):
        assert "不能记录" not in text(lang, "play.fen_help")
        assert "não gravada" not in text(lang, "play.fen_help")


def test_portuguese_first_and_second_player_match():
    pt = catalogue("pt")
    assert pt["overview.first_wins"] == "Vitórias pelo primeiro jogador"
    assert pt["overview.second_wins"] == "Vitórias pelo segundo jogador"
    assert "outro jogador" not in " ".join(pt.values())
    assert "|primeiro − segundo|" in pt["compare.design_caption"]


def test_singular_texts_exist_for_every_language_and_are_chosen_for_one():
    for lang in ("en", "zh", "pt"):
        table = catalogue(lang)
        assert {k[: -len("_one")] for k in table if k.endswith("_one")} <= set(table)
    assert counted("games.count", 1) == "games.count_one"
    assert counted("games.count", 0) == counted("games.count", 2) == "games.count"
    assert counted("games.count", None) == "games.count"
    assert counted("overview.title", 1) == "overview.title"  # no singular: the text itself
    assert text("en", counted("play.selected", 1), piece="Rat", square="a1", count="1") \
        .startswith("Rat on a1: 1 legal move,")  # fmt: skip
    assert text("pt", counted("play.hint_win", 1), side="Azul", plies="1").endswith(
        "(em 1 jogada)."
    )
    assert text("en", counted("endgames.value_win", 1), side="Red", plies=1) == (
        "Red to move wins in 1 ply."
    )
    assert text("pt", counted("endgames.built", 1), count=1, positions="96", seconds="0,1") == (
        "1 tabela construída (96 posições) em 0,1 s."
    )
    for lang in ("en", "pt"):  # no "(s)" plurals left in the texts a page shows
        assert not [k for k, v in catalogue(lang).items() if "(s)" in v or "(is)" in v]


def _running(data: Path, batch_id: str, done: int, planned: int) -> None:
    """A running batch's record: ``done`` games, 20 seconds after it started, at the rate
    its driver measured (2 games/s: the first 20 seconds went on loading)."""
    rec = valid_record(batch_id, games=planned, status="running", games_done=done,
                       started_at="2026-01-01T00:00:00+00:00",
                       updated_at="2026-01-01T00:00:20+00:00", pid=os.getpid(),
                       rate=2.0)  # fmt: skip
    batches_dir(data).mkdir(parents=True, exist_ok=True)
    atomic_write_json(batches_dir(data) / f"{batch_id}.json", rec)


def test_the_simulate_page_shows_a_running_batch_s_rate_and_leaves_out_play_saves(
    monkeypatch, tmp_path
):
    resigned_game(tmp_path)
    _running(tmp_path, "live", done=40, planned=100)
    with BatchLock(tmp_path, "live"):
        at = app(monkeypatch, tmp_path, "simulate")
        shown = texts(at)
    listed = [m for m in shown if "`live`" in m or "`play-" in m]
    assert len(listed) == 1 and "`live`" in listed[0]
    assert text("en", "simulate.play_saves_one", count="1") in shown
    # 2.0 games/s, 60 games to go: 30 s (sim.batch.progress's reckoning)
    assert text("en", "simulate.rate", rate="2.0", eta=fmt_eta(30)) in shown
    assert fmt_eta(30) == "00:30"


def test_job_speed_follows_the_run_it_sees():
    def job(done: int, updated: str, pid: int = 11) -> JobView:
        return JobView(batch_id="b", status="running", rules="standard", red="random",
                       blue="random", games_done=done, games_planned=1000,
                       started_at="2026-01-01T00:00:00+00:00",
                       updated_at=f"2026-01-01T00:{updated}+00:00", pid=pid)  # fmt: skip

    # A record without the driver's rate, first seen: no rate yet (the time since the start
    # holds the loading: 500 games in 100 s would promise 5 games/s, far from the pace)
    assert job_speed(job(500, "01:40")) is None
    # ... then the run's own pace between the records the dashboard saw: 100 games in 50 s
    rate, eta = job_speed(job(600, "02:30"))
    assert (rate, eta) == (2.0, 200.0)
    assert job_speed(job(0, "00:10", pid=12)) is None  # no games yet: unknown
    # The rate the driver measured and wrote into the record comes first
    measured = replace(job(600, "02:30", pid=13), rate=4.0)
    assert job_speed(measured) == (4.0, 100.0)
    done = JobView(batch_id="c", status="done", rules="standard", red="random",
                   blue="random", games_done=5, games_planned=5)  # fmt: skip
    assert job_speed(done) is None
