"""The presets study (docs/study-presets.md), rerun from scratch: alpha-beta depth 4
self-play under standard, yeshou and datou, then the figures of the study.

    python benchmarks/study_presets.py [--data /tmp/dsq-study/data] [--workers 2]
                                       [--rounds 7] [--games 100] [--bot SPEC]

Seven rounds, batch seeds 101..107; each round is one ``dsq simulate`` call with the three
presets (one batch per preset, the same seeds), 100 games per preset with 8 random opening
plies: 700 games per preset, 2,100 in all. The games are a pure function of the seeds, so
every run records the same games (only the timing columns differ). Exactly the same as::

    for seed in 101 102 103 104 105 106 107; do
      dsq simulate --rules standard,yeshou,datou \\
        --red alphabeta:depth=4,eval=classic --blue alphabeta:depth=4,eval=classic \\
        --games 100 --opening-plies 8 --seed $seed --workers 2 \\
        --data /tmp/dsq-study/data --batch-id study-$seed --label "presets study round $seed"
    done
    dsq stats --data /tmp/dsq-study/data --by rules --compare standard,yeshou,datou

A round already recorded in the data folder is kept, an interrupted one is resumed, so the
script can be stopped and started again. ``--rounds`` and ``--games`` play a smaller study
(the first rounds, fewer games each: the first games of the full study's batches) to
measure how long the whole takes. The wall time of every round is printed on stderr.
``--bot`` repeats the study with another bot (default ``alphabeta:depth=4,eval=classic``,
the study's; ``alphabeta:depth=4`` plays the tuned evaluations), in batches of their own
(``study-SEED-BOTTAG``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.errors import DsqError  # noqa: E402
from sim.batch import make_spec, run_batches  # noqa: E402
from sim.cli import main as dsq  # noqa: E402
from sim.storage.records import read_batch_record  # noqa: E402

PRESETS = ("standard", "yeshou", "datou")
BOT = "alphabeta:depth=4,eval=classic"
SEEDS = tuple(range(101, 108))
GAMES = 100
OPENING_PLIES = 8


def play_round(data: Path, seed: int, games: int, workers: int, bot: str = BOT) -> float:
    """Play (or resume, or keep) the round of batch seed ``seed``; its wall time in s."""
    start = time.monotonic()
    group = f"study-{seed}" if games == GAMES else f"study-{seed}-g{games}"
    if bot != BOT:
        group += "-" + "".join(c if c.isalnum() else "-" for c in bot)
    ids = [f"{group}-{k + 1}" for k in range(len(PRESETS))]
    try:
        records = [read_batch_record(data, bid) for bid in ids]
    except DsqError:
        records = []
    if not records:
        specs = [
            make_spec(r, bot, bot, games, seed=seed, opening_plies=OPENING_PLIES) for r in PRESETS
        ]
        run_batches(
            specs, data, batch_id=group, label=f"presets study round {seed}", workers=workers
        )
    else:
        for rec in records:
            if rec["status"] != "done":
                run_batches(data_dir=data, resume=rec["batch_id"], workers=workers)
    return time.monotonic() - start


def main(argv: list[str] | None = None) -> int:
    """Play the study's rounds, then print ``dsq stats --by rules --compare``."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", type=Path, default=Path("/tmp/dsq-study/data"))
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--rounds", type=int, default=len(SEEDS), help="the first N rounds (7)")
    p.add_argument("--games", type=int, default=GAMES, help="games per preset per round (100)")
    p.add_argument("--bot", default=BOT, help=f"the bot on both sides ({BOT})")
    args = p.parse_args(argv)
    total = 0.0
    for seed in SEEDS[: args.rounds]:
        seconds = play_round(args.data, seed, args.games, args.workers, args.bot)
        total += seconds
        print(f"round {seed}: {seconds:.1f} s", file=sys.stderr, flush=True)
    games = args.rounds * args.games * len(PRESETS)
    print(f"{games:,} games in {total:.1f} s on {args.workers} workers", file=sys.stderr)
    chosen = [] if args.bot == BOT else ["--bot", args.bot, "--between"]
    return dsq(["stats", "--data", str(args.data), *chosen, "--by", "rules",
                "--compare", ",".join(PRESETS)])  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
