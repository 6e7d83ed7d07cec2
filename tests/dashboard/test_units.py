"""Unit tests of the dashboard's pure parts: the board drawing, result texts, the launch
limits, short bot names and the ``dsq dashboard`` command (number formatting is tested in
``tests/sim/report``)."""

from __future__ import annotations

import argparse
import os
import socket

import pytest

from dashboard.board import board_svg, piece_from_letter, strength
from dashboard.i18n import result_text
from dashboard.job_list import list_jobs
from dashboard.jobs import LaunchRequest, validate
from dashboard.limits import check_bot_limits
from dashboard.settings import Limits, load_settings
from engine import Position
from engine.errors import DsqError
from sim.bots.spec import short_spec
from sim.cli import main as dsq
from sim.commands.dashboard import command
from tests.support import APP


def test_board_draws_river_traps_dens_and_all_animals():
    svg = board_svg(Position().board(), last_move=(14, 21), capture_square=21)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count("#8cbfe8") == 12  # water squares
    assert svg.count(">trap</text>") == 6
    assert svg.count(">DEN</text>") == 2
    assert svg.count('class="piece red"') == 8 and svg.count('class="piece blue"') == 8
    for name, s in (("Elephant", 8), ("Lion", 7), ("Rat", 1), ("Wolf", 4), ("Dog", 3)):
        assert f">{name}</text>" in svg
        assert f">{s}</text>" in svg
    assert 'class="capture"' in svg and 'stroke-dasharray="6 4"' in svg


def test_dog_over_wolf_swaps_the_strengths_shown():
    assert strength(3) == 3 and strength(4) == 4
    assert strength(3, dog_over_wolf=True) == 4 and strength(4, dog_over_wolf=True) == 3
    assert piece_from_letter("l").side == "blue" and piece_from_letter("L").name == "lion"
    assert piece_from_letter(None) is None
    with pytest.raises(ValueError):
        board_svg([None] * 10)


def test_results_are_named_in_every_language():
    assert result_text("en", "red", "den") == "Red wins (den entered)"
    assert result_text("zh", "red", "den") == "红方胜（走入兽穴）"
    assert result_text("pt", "draw", "ply_cap") == "Empate (limite de jogadas atingido)"
    assert result_text("en", None, None) == "unfinished"


def test_launch_requests_are_bounded():
    limits = Limits(max_games=100, max_depth=3, max_playouts=500, max_workers=2)
    ok = LaunchRequest(rules=("standard", "datou"), red="random", blue="greedy", games=10)
    assert [s.rules for s in validate(ok, limits)] == ["standard", "datou"]
    bad = [
        (LaunchRequest(rules=("standard",), red="random", blue="greedy", games=101), "limit"),
        (LaunchRequest(rules=(), red="random", blue="greedy", games=1), "at least one"),
        (LaunchRequest(rules=("standard",), red="random", blue="x", games=1), "unknown bot"),
        (LaunchRequest(rules=("nope",), red="random", blue="greedy", games=1), "preset"),
        (LaunchRequest(rules=("standard",), red="random", blue="greedy", games=3, swap=True),
         "even"),
        (LaunchRequest(rules=("standard",), red="random", blue="greedy", games=1, workers=3),
         "workers"),
        (LaunchRequest(rules=("standard", "standard"), red="random", blue="greedy", games=1),
         "twice"),
    ]  # fmt: skip
    for request, words in bad:
        with pytest.raises(DsqError, match=words):
            validate(request, limits)
    with pytest.raises(DsqError, match="depth=4 is above"):
        check_bot_limits("alphabeta:depth=4", limits)
    with pytest.raises(DsqError, match="playouts=501"):
        check_bot_limits("mcts:playouts=501", limits)
    assert check_bot_limits("alphabeta:depth=3", limits).startswith("alphabeta:depth=3,")
    # A time budget bounds the search instead of the depth or playouts (it is capped itself).
    assert check_bot_limits("alphabeta:time_ms=300", limits).startswith("alphabeta:depth=60,")
    assert check_bot_limits("mcts:time_ms=300", limits).startswith("mcts:playouts=100000000,")
    with pytest.raises(DsqError, match="time_ms=20000"):
        check_bot_limits("alphabeta:time_ms=20000", limits)


def test_settings_come_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("DSQ_DATA", str(tmp_path))
    monkeypatch.setenv("DSQ_DASHBOARD_MAX_GAMES", "50")
    monkeypatch.setenv("DSQ_DASHBOARD_MAX_DEPTH", "zero")
    s = load_settings()
    assert s.data_dir == tmp_path.resolve() and s.limits.max_games == 50
    assert s.limits.max_depth == 6 and s.problems[0].variable == "DSQ_DASHBOARD_MAX_DEPTH"
    assert "DSQ_DASHBOARD_MAX_DEPTH='zero' is not a whole number" in str(s.problems[0])
    assert list_jobs(tmp_path / "missing") == []


def test_statistics_are_cached_on_the_functions_qualified_name():
    from dashboard.loaders import qualified_name, stat
    from sim.stats import general_stats, matchup_table
    from sim.stats.query import Selection

    assert qualified_name(general_stats) == "sim.stats.general.general_stats"
    assert qualified_name(matchup_table) == "sim.stats.matchups.matchup_table"
    with pytest.raises(TypeError, match="module-level"):
        stat(lambda con, selection: 0, Selection())


def test_short_bot_names():
    assert short_spec("greedy") == "greedy"
    from sim.bots import parse_bot

    assert short_spec(parse_bot("alphabeta:depth=2").canonical) == "alphabeta:depth=2"
    assert short_spec("not a bot") == "not a bot"


def _args(**kw: object) -> argparse.Namespace:
    base = dict(data=None, port=8501, host="127.0.0.1", no_browser=True, max_games=None,
                max_depth=None, max_playouts=None, max_workers=None)  # fmt: skip
    base.update(kw)
    return argparse.Namespace(**base)


def test_dashboard_command_line(tmp_path):
    cmd, env = command(_args(max_games=77), tmp_path)
    assert cmd[1:4] == ["-m", "streamlit", "run"] and cmd[4].endswith("dashboard/server.py")
    assert cmd[cmd.index("--server.address") + 1] == "127.0.0.1"
    assert cmd[cmd.index("--server.port") + 1] == "8501"
    assert env["DSQ_DATA"] == str(tmp_path) and env["DSQ_DASHBOARD_MAX_GAMES"] == "77"
    # app.py does not edit sys.path: the child finds the packages on its PYTHONPATH
    assert env["PYTHONPATH"].split(os.pathsep)[0] == str(APP.parent.parent)


def test_dashboard_command_refuses_bad_input(tmp_path, capsys):
    afile = tmp_path / "file"
    afile.write_text("x")
    assert dsq(["dashboard", "--data", str(afile)]) == 2
    assert "is not a folder" in capsys.readouterr().err
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert dsq(["dashboard", "--data", str(tmp_path), "--port", str(port)]) == 2
    assert "cannot listen" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        dsq(["dashboard", "--port", "0"])
    assert exc.value.code == 2


def test_every_page_script_is_in_the_navigation_and_exists():
    from dashboard.pages import PAGE_LIST, PAGES

    scripts = [script for script, *_ in PAGE_LIST]
    on_disk = sorted(p.name for p in PAGES.glob("*.py") if p.name != "__init__.py")
    assert sorted(scripts) == on_disk  # no page unreachable, none missing
    paths = [path for *_, path in PAGE_LIST]
    assert len(set(paths)) == len(paths) and paths[0] == ""  # the first page is the default
    assert APP.is_file() and APP.parent == PAGES.parent
