"""Accepting a fitted evaluation by a match, never by its loss.

The new evaluation plays the current default (``alphabeta`` with ``eval=auto`` under the
same rules: the shipped evaluation of the rule set's nearest preset, else the classic
one; or another evaluation named) at equal time per move, colours swapped over shared
random openings, under an SPRT with ``elo0=0, elo1=15`` on the pentanomial of the pairs.
The file is kept only when the test accepts H1, with the match's result in its
``[accepted]`` table; otherwise it is removed (the match's games stay recorded).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.errors import DsqError
from engine.rules import Ruleset
from sim.bots.evalfile import nearest_preset, resolve, write_eval
from sim.bots.evalformat import EvalFile

SPRT = "elo0=0,elo1=15,alpha=0.05,beta=0.05"
OPENING_PLIES = 4


@dataclasses.dataclass(frozen=True)
class Match:
    """How the acceptance match is played: time per move (ms), at most ``games`` games,
    the seed, the workers."""

    time_ms: int = 50
    games: int = 20_000
    seed: int = 0
    workers: int = 1
    against: str = "auto"


def opponent_name(choice: str, rules: Ruleset, folder: Path) -> str:
    """The evaluation ``eval=choice`` is under ``rules`` (``classic`` when ``auto`` finds
    no shipped one); EvalError when it names a missing or mismatched file."""
    ef = resolve(choice, rules, folder)
    return "classic" if ef is None else ef.name


def accept(
    ef: EvalFile, rules: Ruleset, data_dir: Path, folder: Path, match: Match,
    say: Callable[[str], None],
) -> dict[str, Any]:  # fmt: skip
    """Play the acceptance match of ``ef`` (written to ``folder`` for it); keep the file
    with the result on H1, remove it otherwise; the result (``decision`` and the match's
    figures)."""
    # lazy: start-up time (the batch machinery, scipy)
    from sim.batch import Plan, make_spec
    from sim.batch.progress import BatchProgress
    from sim.report.batch_text import batch_score, sprt_verdict

    against = opponent_name(match.against, rules, folder)
    path = write_eval(folder, ef)
    new = f"alphabeta:time_ms={match.time_ms},eval={ef.name}"
    base = f"alphabeta:time_ms={match.time_ms},eval={match.against}"
    say(f"accept: {new} against {base} ({against}) under {rules.spec}, SPRT {SPRT}")
    try:
        spec = make_spec(
            rules.spec, new, base, match.games + match.games % 2, match.seed, swap=True,
            opening_plies=OPENING_PLIES,
        )  # fmt: skip
        plan = Plan.new([spec], label=f"dsq tune {ef.name}: acceptance match")
        rec = plan.run(data_dir, sprt=SPRT, workers=match.workers, progress=BatchProgress())[0]
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    verdict = sprt_verdict(rec) or {}
    score = batch_score(rec)
    decision = verdict.get("decision")
    result: dict[str, Any] = {
        "decision": decision or "undecided",
        "sprt": SPRT,
        "llr": round(float(verdict.get("llr") or 0.0), 4),
        "against": f"{base} ({against})",
        "preset": nearest_preset(rules),
        "time_ms": match.time_ms,
        "batch": str(rec.get("batch_id")),
        "status": str(rec.get("status")),
    }
    if score is not None:
        result.update(wins=score.wins, draws=score.draws, losses=score.losses,
                      games=score.games, score=round(score.score, 4))  # fmt: skip
        if score.elo is not None:
            e = score.elo.to_dict()
            result.update(elo=e["point"], elo_low=e["low"], elo_high=e["high"],
                          elo_kind=e["kind"])  # fmt: skip
    result = {k: v for k, v in result.items() if v is not None}
    if decision == "H1":
        write_eval(folder, dataclasses.replace(ef, accepted=result), replace=True)
        say(f"accept: H1 after {result.get('games', 0)} games: {path} kept")
    else:
        path.unlink(missing_ok=True)
        say(f"accept: {result['decision']} after {result.get('games', 0)} games: "
            f"{ef.name} not kept")  # fmt: skip
    if rec.get("status") not in ("done", None) and decision is None:
        raise DsqError(f"the acceptance match {rec.get('batch_id')} ended {rec.get('status')}")
    return result
