"""Regenerate the reference-computed perft tables in this folder (run from the repo root).

    python tests/data/make_tables.py

* ``deep.tsv``: every position of ``hand.tsv`` (whose depth-1 moves are checked by hand) at
  deeper depths, plus mid-game positions reached by seeded random play under several rule
  sets, all counted by ``tests/support/reference.py`` (never by the engine).
* ``start.tsv`` / ``start_slow.tsv`` are written by hand from the numbers in RULES.md.

Each entry is preceded by ``#expect <count>``; the entry lines are in the
``dsq perft --suite`` format.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from tests.support import reference as ref  # noqa: E402
from tests.support import reference_board as ref_board  # noqa: E402

NODE_BUDGET = 400_000  # stop deepening an entry once a count exceeds this
MAX_DEPTH = 5

MIDGAME_RULES = [
    "standard",
    "yeshou",
    "datou",
    "standard+dog_over_wolf+rat_cross_capture",
    "yeshou+lion_jump=horizontal+tiger_jump=none",
    "datou+jump_block=enemy+rule_7_3",
    "standard+no_capture_plies=8",
]


def read_entries(path: Path) -> list[tuple[list[str], str]]:
    """(comment lines, entry line) pairs of a suite file."""
    out, comments = [], []
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            comments.append(line)
        elif line.strip():
            out.append((comments, line))
            comments = []
    return out


def midgame_moves(rules_spec: str, seed: int, plies: int) -> str:
    rules = ref_board.parse_rules(rules_spec)
    pos = ref_board.parse_fen("start")
    rng = random.Random(seed)
    played = []
    for _ in range(plies):
        moves = ref.legal_moves(pos, rules)
        if not moves:
            break
        move = rng.choice(moves)
        played.append(move)
        pos = ref.make_move(pos, move)
    return " ".join(played)


def main() -> None:
    lines = [
        "# Perft tables computed by tests/support/reference.py (make_tables.py);"
        " '#expect' = the count.",
        "",
    ]
    cases = []
    for comments, entry in read_entries(HERE / "hand.tsv"):
        rules_spec, fen, moves, _ = entry.split("\t")
        title = next(c for c in comments if not c.startswith("#legal"))
        clock_case = "no_capture_plies=6" in rules_spec
        cases.append((title, rules_spec, fen, moves, 1 if clock_case else 2, clock_case))
    for i, rules_spec in enumerate(MIDGAME_RULES):
        for seed in (1, 2):
            plies = 16 + 6 * seed
            if "no_capture_plies=8" in rules_spec:
                plies = 4 + seed  # clock 5 or 6: the draw comes inside the tree
            moves = midgame_moves(rules_spec, 1000 * i + seed, plies)
            title = f"# mid-game: seeded random play from the start (seed {1000 * i + seed})"
            cases.append((title, rules_spec, "start", moves, 2, False))
    for title, rules_spec, fen, moves, first_depth, all_depths in cases:
        rules, pos = ref.setup(rules_spec, fen, moves)
        for depth in range(first_depth, MAX_DEPTH + 1):
            t = time.time()
            count = ref.perft(pos, depth, rules)
            lines += [title, f"#expect {count}", f"{rules_spec}\t{fen}\t{moves}\t{depth}", ""]
            print(f"{depth} {count:>9} {time.time() - t:6.1f}s {title[:70]}", flush=True)
            if count == 0 or count > NODE_BUDGET or (all_depths and depth >= 4):
                break
    (HERE / "deep.tsv").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
