"""Bot spec strings: parsing, canonical forms, round trips and clear errors."""

from __future__ import annotations

import pytest

from engine.errors import DsqError
from sim.bots import BOT_NAMES, BotSpec, describe_bots, parse_bot


@pytest.mark.parametrize(
    "spec",
    [
        "random",
        "greedy",
        "alphabeta",
        "alphabeta:depth=6",
        "alphabeta:noise=20,time_ms=100,nodes=5000,contempt=-5,tt_mb=1",
        "alphabeta:values=100/200/300/400/500/600/700/800",
        "mcts",
        "mcts:playouts=500,c=0.7,rollout=greedy,rollout_plies=0",
        " MCTS : c = 2 ",
    ],
)
def test_round_trip(spec: str) -> None:
    parsed = parse_bot(spec)
    assert isinstance(parsed, BotSpec)
    again = parse_bot(parsed.canonical)
    assert again == parsed
    assert again.canonical == parsed.canonical
    assert hash(again) == hash(parsed)


def test_canonical_lists_every_parameter_in_order() -> None:
    assert parse_bot("alphabeta:nodes=7,depth=3").canonical == (
        "alphabeta:depth=3,noise=0,time_ms=0,nodes=7,contempt=30,tt_mb=16,eval=auto"
    )
    assert parse_bot("alphabeta:nodes=7,depth=3,eval=classic").canonical == (
        "alphabeta:depth=3,noise=0,time_ms=0,nodes=7,contempt=30,tt_mb=16,"
        "values=450/200/300/350/500/800/900/1000"
    )
    # A parameter added after games were stored is named only off its default, so the
    # stored specs keep naming the same bot.
    off = parse_bot("alphabeta:tablebase=off,depth=3,nodes=7")
    assert off.canonical == parse_bot("alphabeta:nodes=7,depth=3").canonical + ",tablebase=off"
    assert parse_bot(off.canonical) == off and off != parse_bot("alphabeta:nodes=7,depth=3")
    assert parse_bot("mcts:c=2").canonical.startswith(
        "mcts:playouts=2000,c=2.0,rollout=random,rollout_plies=0,time_ms=0,"
    )
    assert parse_bot("random").canonical == "random"
    assert parse_bot("greedy:").canonical == "greedy"
    assert parse_bot("alphabeta").params["depth"] == 4


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("", "bots are: random, greedy, alphabeta, mcts"),
        ("minimax", "bots are: random, greedy, alphabeta, mcts"),
        ("alphabeta:deep=3", "its parameters are: depth, noise"),
        ("greedy:depth=2", "its parameters are: none"),
        ("alphabeta:depth=0", "depth takes a whole number from 1 to 60"),
        ("alphabeta:depth=x", "depth takes a whole number"),
        ("alphabeta:depth", "needs a value"),
        ("alphabeta:depth=2,depth=3", "given twice"),
        ("alphabeta:depth=2,,noise=1", "empty parameter"),
        ("mcts:c=-1", "c takes a number from 0 to 100"),
        ("mcts:c=nan", "c takes a number"),
        ("mcts:rollout=smart", "rollout takes one of random, greedy"),
        ("mcts:playouts=0", "playouts takes a whole number from 1"),
        ("alphabeta:nodes=1000,soft=101", "soft takes a whole number from 0 to 100, not '101'"),
        ("alphabeta:values=1/2/3", "8 whole numbers"),
        ("alphabeta:values=1/2/3/4/5/6/7/x", "8 whole numbers"),
    ],
)
def test_bad_specs_raise_clear_errors(spec: str, fragment: str) -> None:
    with pytest.raises(DsqError) as info:
        parse_bot(spec)
    assert fragment in str(info.value)


def test_describe_bots_covers_every_parameter() -> None:
    bots = describe_bots()
    assert [b["name"] for b in bots] == list(BOT_NAMES)
    for b in bots:
        assert parse_bot(b["canonical"]).canonical == b["canonical"]
        for p in b["params"]:
            assert p["help"] and p["allowed"] and p["default"] != ""


@pytest.mark.parametrize(
    ("spec", "filled", "short"),
    [
        ("alphabeta:time_ms=300", {"depth": 60}, "alphabeta:time_ms=300"),
        ("alphabeta:nodes=5000", {"depth": 60}, "alphabeta:nodes=5000"),
        ("alphabeta:depth=6,time_ms=300", {"depth": 6}, "alphabeta:depth=6,time_ms=300"),
        ("alphabeta:time_ms=0", {"depth": 4}, "alphabeta"),
        ("alphabeta:depth=60", {"depth": 60}, "alphabeta:depth=60"),
        ("mcts:time_ms=50", {"playouts": 10**8}, "mcts:time_ms=50"),
        ("mcts:playouts=100,time_ms=50", {"playouts": 100}, "mcts:playouts=100,time_ms=50"),
    ],
)
def test_a_budget_lifts_the_default_cap(spec: str, filled: dict, short: str) -> None:
    parsed = parse_bot(spec)
    assert {k: parsed.params[k] for k in filled} == filled
    assert parse_bot(parsed.canonical) == parsed and parse_bot(parsed.short) == parsed
    assert parsed.short == short


def test_default_canonical_specs_are_unchanged() -> None:
    # Stored games name their bots by these strings (every spec before the choice of
    # evaluation): they still name the classic bots, and keep counting together.
    old_ab = (
        "alphabeta:depth=4,noise=0,time_ms=0,nodes=0,contempt=30,tt_mb=16,"
        "values=450/200/300/350/500/800/900/1000"
    )
    old_mcts = (
        "mcts:playouts=2000,c=1.4,rollout=random,rollout_plies=20,time_ms=0,"
        "values=450/200/300/350/500/800/900/1000"
    )
    # mcts changed the defaults of c and rollout_plies: its old spec names them.
    for old, short in (
        (old_ab, "alphabeta:eval=classic"),
        (old_mcts, "mcts:c=1.4,rollout_plies=20,eval=classic"),
    ):
        bot = parse_bot(old)
        assert bot.params["eval"] == "classic"
        assert bot.canonical == old
        assert parse_bot(short) == bot
        assert bot.short == short
        kind = bot.name
        assert parse_bot(kind).params["eval"] == "auto" and parse_bot(kind) != bot
    assert parse_bot("alphabeta").canonical == old_ab.split(",values=")[0] + ",eval=auto"


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("alphabeta:eval=Bad Name!", "eval takes auto (the rule set's tuned evaluation)"),
        ("alphabeta:eval=" + "x" * 41, "eval takes auto"),
        ("mcts:values=1/2/3/4/5/6/7/8,eval=auto", "drop them, or add eval=classic"),
        ("alphabeta:values=1/2/3/4/5/6/7/8,eval=mine", "not of eval=mine"),
    ],
)
def test_bad_evaluations_are_refused(spec: str, fragment: str) -> None:
    with pytest.raises(DsqError) as info:
        parse_bot(spec)
    assert fragment in str(info.value)


def test_custom_values_name_the_classic_evaluation() -> None:
    bot = parse_bot("alphabeta:values=100/200/300/400/500/600/700/800")
    assert bot.params["eval"] == "classic"
    assert bot.short == "alphabeta:values=100/200/300/400/500/600/700/800"
    assert parse_bot("alphabeta:eval=mine,depth=3").short == "alphabeta:depth=3,eval=mine"
