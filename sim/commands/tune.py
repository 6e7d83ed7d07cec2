"""``dsq tune``: fit an evaluation to the recorded games of a data folder, and accept it
only by a match (docs/bots.md, "Tuned evaluations")."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any

from engine.errors import DsqError
from sim.commands._common import SEED_ARG, add_data_arg, float_in, int_in, sigterm_as_interrupt
from sim.commands.stats import add_selection_args, build_selection
from sim.storage.paths import dsq_line, writable_data_dir

EXIT_FAILED = 1  # a batch it played failed (as dsq simulate and dsq tournament say it)

MAX_POSITIONS = 50_000_000


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``tune`` command."""
    p = sub.add_parser(
        "tune",
        help="fit an evaluation to recorded games; accept it by an SPRT match",
        description="Fit the tuned evaluation (animal values, a square table per animal, "
        "danger penalties, a move bonus) to the quiet positions of the selected games of "
        "one rule set, labelled by each game's result (or by the endgame tables where "
        "they cover a position), minimising the logistic loss with L-BFGS. Writes "
        "DATA/evals/NAME.toml, which bots load as alphabeta:eval=NAME or mcts:eval=NAME. "
        "With --play N it first plays N self-play games into the data folder. With "
        "--accept the new evaluation plays the current default at equal time per move "
        "(colours swapped, shared openings, SPRT elo0=0 elo1=15 on the pentanomial) and "
        "is kept only when the test accepts H1.",
    )
    p.add_argument("--name", required=True, help="the new evaluation's name (a-z, 0-9, _ -)")
    add_data_arg(p, creates=True)
    add_selection_args(p)
    p.add_argument("--positions", type=int_in(100, MAX_POSITIONS), default=1_000_000,
                   metavar="N", help="at most N quiet positions (a sample; 1e6)")  # fmt: skip
    p.add_argument("--play", type=int_in(0, 10_000_000), default=0, metavar="GAMES",
                   help="self-play games to play and record first (0)")  # fmt: skip
    p.add_argument("--play-bot", default=None, metavar="SPEC",
                   help="the bot of the self-play games (alphabeta:depth=3,noise=40)")  # fmt: skip
    p.add_argument("--held-out", type=float_in(0.01, 0.5), default=0.1, metavar="SHARE",
                   help="share of the games held out for the held-out loss (0.1)")  # fmt: skip
    p.add_argument("--ridge", type=float_in(0.0, 1.0), default=None, metavar="R",
                   help="ridge on squares and penalties, per squared unit (1e-10)")  # fmt: skip
    p.add_argument("--result-weight", type=float_in(0.0, 1.0), default=0.5, metavar="W",
                   help="label = W * result + (1 - W) * recorded search score (0.5)")  # fmt: skip
    p.add_argument("--max-iter", type=int_in(1, 100_000), default=400, metavar="N",
                   help="L-BFGS iterations at most (400)")  # fmt: skip
    p.add_argument("--seed", type=SEED_ARG, default=0, metavar="S",
                   help="seed of the sample, held-out games, games played (0)")  # fmt: skip
    p.add_argument("--accept", action="store_true",
                   help="keep the evaluation only if it wins the SPRT match")  # fmt: skip
    p.add_argument("--time-ms", type=int_in(1, 600_000), default=50, metavar="MS",
                   help="time per move of the acceptance match (50)")  # fmt: skip
    p.add_argument("--against", default="auto", metavar="EVAL",
                   help="the acceptance match's opponent evaluation (auto)")  # fmt: skip
    p.add_argument("--accept-games", type=int_in(2, 10_000_000), default=20_000, metavar="N",
                   help="games of the acceptance match at most (20000)")  # fmt: skip
    p.add_argument("--workers", type=int_in(1, 8), default=1,
                   help="local worker processes for the games (1)")  # fmt: skip
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``dsq tune``."""
    # lazy: start-up time (numba, scipy, duckdb)
    from engine.rules import parse_rules
    from sim.batch.failures import BatchFailed
    from sim.bots.evalfile import check_name, evals_dir, find_eval, write_eval
    from sim.bots.spec import parse_bot
    from sim.tune.accept import Match, accept
    from sim.tune.fit import DEFAULT_RIDGE
    from sim.tune.run import PLAY_BOT, TuneJob, tune

    name = check_name(args.name)
    selection = build_selection(args)
    if len(selection.rules) > 1:
        raise DsqError("an evaluation is fitted for one rule set: give one --rules")
    rules = parse_rules(selection.rules[0] if selection.rules else "standard")
    if not selection.rules:
        selection = dataclasses.replace(selection, rules=(rules.spec,))
    data = writable_data_dir(args.data)
    folder = evals_dir(data)
    try:
        find_eval(name, folder)
    except DsqError:
        pass
    else:
        raise DsqError(f"evaluation {name!r} already exists: choose another name")
    play_bot = parse_bot(args.play_bot or PLAY_BOT).canonical
    job = TuneJob(
        rules=rules, name=name, data_dir=data, selection=selection, positions=args.positions,
        seed=args.seed, held_out=args.held_out,
        ridge=DEFAULT_RIDGE if args.ridge is None else args.ridge, max_iter=args.max_iter,
        play=args.play, play_bot=play_bot, workers=args.workers,
        result_weight=args.result_weight,
    )  # fmt: skip

    def say(line: str) -> None:
        print(f"dsq tune: {line}", file=sys.stderr, flush=True)

    try:
        with sigterm_as_interrupt():  # kill stops it as Ctrl-C does: exit 130, no file kept
            result = tune(job, say)
            summary = result.summary()
            if args.accept:
                against = parse_bot(f"alphabeta:eval={args.against}").params["eval"]
                match = Match(args.time_ms, args.accept_games, args.seed, args.workers, against)
                summary["accepted"] = accept(result.evaluation, rules, data, folder, match, say)
                kept = folder / f"{name}.toml"
                summary["file"] = str(kept) if kept.exists() else None
            else:
                summary["file"] = str(write_eval(folder, result.evaluation))
    except BatchFailed as exc:  # a game of its self-play or match raised: its record says why
        print(f"dsq tune: batch {exc.batch_id} failed: {exc}", file=sys.stderr)
        return EXIT_FAILED
    if summary["held_out_loss"] > summary["classic_held_out_loss"]:
        say(f"warning: {worse_than_classic(summary)}")
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        _print(summary)
        if summary["file"]:
            print(f"play it against the classic evaluation: {match_line(name, rules.spec, data)}")
    return 0


def match_line(name: str, rules: str, data: Any) -> str:
    """The command that plays evaluation ``name`` of the data folder ``data`` against the
    classic one, colours swapped (the evaluation is read from that folder: ``--data``)."""
    return dsq_line(
        "simulate", "--rules", rules, "--red", f"alphabeta:eval={name}",
        "--blue", "alphabeta:eval=classic", "--games", "200", "--swap", data=data,
    )  # fmt: skip


def worse_than_classic(s: dict[str, Any]) -> str:
    """The warning of a fit that predicts the held-out games worse than the classic
    evaluation does."""
    kept = "it is kept" if s.get("file") else "it was not kept"
    return (
        f"evaluation {s['name']} predicts the held-out games worse than the classic one "
        f"(held-out loss {s['held_out_loss']:.5f} > {s['classic_held_out_loss']:.5f}); "
        f"{kept}, but eval=classic is likely the better: fit on more games (--play N), "
        "or let a match decide (--accept)"
    )


def _print(s: dict[str, Any]) -> None:
    print(f"evaluation {s['name']} for {s['rules']}: {s['positions']:,} positions from "
          f"{s['games']:,} games ({s['held_out_positions']:,} held out)")  # fmt: skip
    print(f"held-out loss {s['held_out_loss']:.5f} (lower is better; the classic evaluation "
          f"{s['classic_held_out_loss']:.5f} at its scale k = 1/400, "
          f"{s['classic_held_out_loss_best_k']:.5f} at k = 1/{1 / s['classic_best_k']:.0f}, "
          "the scale that fits the training positions best), "
          f"train {s['train_loss']:.5f}, {s['iterations']} iterations")  # fmt: skip
    acc = s.get("accepted")
    if acc:
        elo = ""
        if "elo" in acc:
            low, high = acc.get("elo_low"), acc.get("elo_high")  # None: open at that end
            low = "-inf" if low is None else f"{low:+.1f}"
            high = "+inf" if high is None else f"{high:+.1f}"
            elo = f", {acc['elo']:+.1f} Elo [{low}, {high}]"
        print(f"match: {acc['decision']} (LLR {acc['llr']}) after {acc.get('games', 0)} games "
              f"{acc.get('wins', 0)}-{acc.get('draws', 0)}-{acc.get('losses', 0)}{elo} "
              f"against {acc['against']}")  # fmt: skip
    print(f"file: {s['file']}" if s.get("file") else "file: none (not accepted)")
