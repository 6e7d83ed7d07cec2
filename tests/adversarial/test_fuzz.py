"""A hypothesis fuzz of every ``dsq`` command's arguments: whatever the arguments, the
command ends with an exit code (2 with one ``error:`` line for anything it refuses),
never with a traceback. Values mix valid small ones (so real work runs, bounded) with
hostile ones: huge, negative, non-finite, non-ASCII digits, empty, control characters."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.cli import COMMAND_MODULES
from tests.support.procs import in_process

HUGE = "9" * 25
NUMBERS = ["-1", "0", "1", "2", "+2", " 1", "00", HUGE, "-" + HUGE, "1e9", "1e308", "nan",
           "inf", "-inf", "", "x", "0x10", "1_0", "\u0663", "0.5", "1" * 5000]  # fmt: skip
WORDS = ["", " ", "-", "-x", "--", "nl\n", "a\x00b", "../..", "é", "x" * 300, "standard",
         "datou+rule_7_3", "yeshou+tiger_jump=none", "random", "greedy", "start"]  # fmt: skip
numbers = st.sampled_from(NUMBERS)
words = st.one_of(st.sampled_from(WORDS), st.text(max_size=12))
RULES = ["standard", "yeshou", "datou", "standard+no_capture_plies=4", "datou+bogus",
         "yeshou+no_capture_plies=" + HUGE]  # fmt: skip
rules = st.one_of(st.sampled_from(RULES), words)
bots = st.one_of(
    st.sampled_from(["random", "greedy", "alphabeta:depth=1", "mcts:playouts=8",
                     "alphabeta:tt_mb=" + HUGE, "mcts:c=nan", "alphabeta:depth=1,depth=2",
                     "engine:x,movetime=5", "engine", "engine:,tc=" + HUGE]),
    numbers.map(lambda n: "alphabeta:depth=" + n),
    words,
)  # fmt: skip
BAD_FILES = ["/dev/zero", "/nonexistent", "/", "/dev/null", "docs/rules.md", "README.md"]
logs = st.sampled_from(["", "/dev/null", "/dev/null/x", "/proc/1/x"])  # none made in the tree
small = st.sampled_from(["0", "1", "2", "-1", HUGE, "x", "", "1e3", "\u0663"])


def opts(**spec: st.SearchStrategy | None) -> st.SearchStrategy[list[str]]:
    """Any subset of the options, each with a drawn value (None: a flag)."""
    items = [
        st.just([f"--{k.replace('_', '-')}"]) if v is None
        else v.map(lambda x, k=k: [f"--{k.replace('_', '-')}", x])
        for k, v in spec.items()
    ]  # fmt: skip
    junk = st.sampled_from([[], [], [], ["--nope"], ["-"], ["extra"]])
    return st.tuples(st.lists(st.one_of(items), max_size=6), junk).map(
        lambda t: list(itertools.chain.from_iterable(t[0])) + t[1]
    )


# The commands that take a data folder: fuzzed runs get a temporary one.
DATA_COMMANDS = (
    "simulate",
    "stats",
    "batches",
    "compact",
    "tablebase",
    "replay",
    "study",
    "tournament",
    "games",
    "openings",
    "tune",
)

COMMANDS: dict[str, st.SearchStrategy[list[str]]] = {
    "perft": opts(depth=small, rules=rules, fen=words, moves=words, divide=None,
                  suite=st.sampled_from(["/dev/zero", "/nonexistent", "/", "/dev/null"])),
    "legal": opts(rules=rules, fen=words, moves=words),
    "replay": opts(rules=rules, fen=words, moves=words, jsonl=None, game=st.one_of(
        words, st.sampled_from(["sample-random-1:3", "sample-mcts-2:" + HUGE, "x:1", ":1",
                                "sample-greedy-1:-1", "../x:1", "sample-ab2-1:\u0663"]))),
    "bench": opts(json=None).map(lambda a: a + ["--no-warmup", "--strong-games", "0"]).flatmap(
        lambda a: st.tuples(small, small).map(lambda v: a + ["--depth", v[0], "--games", v[1]])),
    "bots": opts(json=None),
    "bestmove": opts(bot=bots, rules=rules, fen=words, moves=words, seed=numbers, json=None,
                 engines=words, data=words),
    "play": opts(red=bots, blue=st.one_of(bots, st.just("human")), rules=rules,
                 seed=numbers, ply_cap=small, quiet=None, fen=words, engines=words),
    "simulate": opts(rules=rules, red=bots, blue=bots, games=small, seed=numbers, swap=None,
                     opening_plies=small, ply_cap=st.sampled_from(["3", "0", HUGE, "x"]),
                     workers=st.sampled_from(["1", "0", HUGE, "-1", "x"]), label=words,
                     batch_id=words, resume=words, sprt=words, chunk_games=small,
                     chunk_seconds=numbers, flush_games=small, flush_seconds=numbers,
                     max_seconds=numbers, quiet=None, json=None, engines=words,
                     force_engines=None, engine_log=logs,
                     openings=st.one_of(st.sampled_from(BAD_FILES), words),
                     openings_order=st.sampled_from(["random", "sequential", "x", ""]),
                     record=st.sampled_from(["moves", "outcomes", "x", ""]),
                     scheduler=st.sampled_from(["x", "", "tcp://", "udp://a:1"])),
    "batches": opts(json=None),
    "compact": opts(batch=st.one_of(words, st.sampled_from(["sample-mcts-1", "../x", ""])),
                    target_games=small, json=None),
    "serve": opts(bot=bots, rules=rules, seed=numbers),
    "engines": st.tuples(
        st.sampled_from([[], ["list"], ["show"], ["check"], ["check", "x"], ["show", "x"],
                         ["nope"]]),
        opts(engines=words, data=words, rules=rules, games=small, plies=small,
             perft_depth=small, seed=numbers, fen=words, json=None, quiet=None,
             engine_log=logs),
    ).map(lambda t: t[0] + t[1]),
    # Materials of at most 2 animals (or refused ones), so a run builds little.
    "tablebase": st.tuples(
        st.sampled_from(["build", "stats", "probe", "verify", "list", "", "nope"]),
        opts(rules=rules, material=st.sampled_from(
                 ["R v r", "E v r", "L v", "v e", "RR v r", "X v y", "LR v e " * 50, ""]),
             pieces=st.sampled_from(["1", "2", "0", "5", HUGE, "x"]), fen=words,
             json=None, jsonl=None, jobs=st.sampled_from(["1", "0", HUGE])),
    ).map(lambda t: [t[0], *t[1]] if t[0] else t[1]),
    # run: only files that cannot start a study (a real one would play its games)
    "study": st.one_of(
        st.tuples(st.just("run"), st.one_of(st.sampled_from(BAD_FILES), words),
                  opts(quick=None, workers=numbers, scheduler=words, quiet=None)),
        st.tuples(st.just("report"),
                  st.one_of(st.sampled_from([*BAD_FILES, "docs/studies/atlas.toml", "atlas"]),
                            words),
                  opts(quick=None, json=None, csv=st.sampled_from(["/dev/full", "/"]))),
        st.tuples(st.sampled_from(["", "nope", "-x"]), words, opts(data=words)),
    ).map(lambda t: [x for x in t[:2] if x] + t[2]),
    # one --players value: refused before any game (a tournament needs two)
    "tournament": opts(format=st.sampled_from(["round-robin", "gauntlet", "swiss", "x", ""]),
                       players=bots, games_per_pair=small, rounds=small, rules=rules,
                       seed=numbers, opening_plies=small, ply_cap=small, sprt=words,
                       openings=st.one_of(st.sampled_from(BAD_FILES), words),
                       tournament_id=words, name=words, resume=words, report=words, list=None,
                       workers=numbers, scheduler=words, engines=words, json=None, quiet=None),
    "rules": st.tuples(st.lists(rules, max_size=3), opts(json=None)).map(
        lambda t: t[0] + t[1]),
    "stats": opts(rules=rules, bot=bots, batch=words, colour=words, between=None,
                  min_plies=numbers, by=words, compare=words, ratings=None, anchor=bots,
                  details=None, bins=numbers, confidence=numbers, json=None),
    # export: one small batch of the sample, so a run writes little
    "games": st.one_of(
        st.tuples(st.just("export"), opts(rules=rules, bot=bots, batch=words, colour=words,
                                          between=None, min_plies=numbers, humans=None,
                                          format=words)).map(
            lambda t: [t[0], "--batch", "sample-mcts-1", *t[1]]),
        st.tuples(st.just("import"), st.one_of(st.sampled_from([*BAD_FILES, "-"]), words),
                  opts(data=words)).map(lambda t: [t[0], t[1], *t[2]]),
        st.tuples(st.sampled_from(["", "nope", "-x"]), opts(data=words)).map(
            lambda t: [x for x in t[:1] if x] + t[1]),
    ),
    # build: on the sample; check (no data folder): files that exist or not, any rules
    "openings": st.one_of(
        opts(plies=small, min_games=small, band=words, window=small, max_score=numbers,
             count=small, seed=numbers, rules=rules, bot=bots, batch=words,
             output=st.sampled_from(["-", "/dev/full", "/"])).map(
            lambda a: ["build", "--plies", "2", *a]),
        st.tuples(st.one_of(st.sampled_from([*BAD_FILES, "docs/examples/openings.txt"]), words),
                  opts(rules=rules)).map(lambda t: ["check", t[0], *t[1]]),
        st.tuples(st.sampled_from([[], ["nope"], ["-x"]]), opts(rules=rules)).map(
            lambda t: t[0] + t[1]),
    ),
    # selecting no game (a batch that does not exist): refused before any fit or match
    "tune": opts(name=words, rules=rules, bot=bots, positions=numbers, play_bot=bots,
                 held_out=numbers, ridge=numbers, result_weight=numbers, max_iter=small,
                 seed=numbers, accept=None, time_ms=small, against=words,
                 accept_games=small, workers=numbers, json=None).map(
        lambda a: a + ["--batch", "no-such-batch", "--play", "0"]),
    "dashboard": opts(port=numbers, max_games=numbers, max_depth=numbers,
                      max_playouts=numbers, max_workers=numbers, max_running=numbers,
                      max_hours=numbers, no_browser=None).map(
        lambda a: a + ["--host", "256.256.256.256"]),  # never starts a server
}  # fmt: skip


# Valid arguments first (options given again later win), so some runs do real work.
BASE = {
    "simulate": ["--rules", "standard", "--games", "2", "--quiet"],
    "play": ["--red", "random", "--blue", "greedy", "--ply-cap", "4"],
    "bestmove": ["--bot", "greedy"],
    "serve": ["--bot", "random"],
}


def test_every_command_is_fuzzed() -> None:
    assert set(COMMANDS) == {m.rsplit(".", 1)[1] for m in COMMAND_MODULES}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_no_arguments_give_a_traceback(command: str, data_copy: Path, tmp_path: Path) -> None:
    data = (
        data_copy
        if command in ("stats", "batches", "replay", "games", "openings", "compact")
        else tmp_path / "data"
    )
    stdin = '[[[[\n{"rules": 5}\n{"rules": "standard", "moves": ["a3a4"]}\n\x00\n'

    @settings(max_examples=40 if command == "simulate" else 25, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(argv=COMMANDS[command])
    def run(argv: list[str]) -> None:
        full = [command, *BASE.get(command, []), *argv]
        if command in DATA_COMMANDS and "--data" not in argv and argv[:1] != ["check"]:
            full += ["--data", str(data)]
        code, _, err = in_process(full, stdin=stdin)
        assert "Traceback" not in err
        assert code in (0, 1, 2, 3), (full, code, err)
        if code == 2:
            assert re.match(rf"dsq( {command}( [a-z]+)?)?: error:", err.strip().splitlines()[-1]), (
                err
            )

    run()
