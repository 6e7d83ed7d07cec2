"""``dsq replay --game``: a recorded game replayed by the engine and compared with its record."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.codes import RULE_ENDS
from engine.errors import DsqError
from sim.commands.replay_report import replay
from sim.storage.paths import check_batch_id


def parse_game_ref(text: str) -> tuple[str, int]:
    """``"BATCH:INDEX"`` -> ``(batch_id, index)``; DsqError when it is not of that form."""
    bid, sep, index = text.rpartition(":")
    if not sep or not index.isascii() or not index.isdigit() or len(index) > 10:
        raise DsqError(f"--game {text!r}: expected BATCH:INDEX, e.g. sample-random-1:17")
    try:
        check_batch_id(bid)
    except DsqError as exc:
        raise DsqError(f"--game {text!r}: {exc}") from None
    return bid, int(index)


def agrees(replayed: dict[str, str] | None, winner: str, reason: str) -> bool:
    """Whether a replay's result matches a recorded winner and reason: the same result for
    an end the rules give, a game still going on for one stopped before (any other reason:
    the ply cap, the tables, a forfeit, the clock, a resignation)."""
    if reason in RULE_ENDS:
        return replayed == {"winner": winner, "reason": reason}
    return replayed is None


def replay_recorded(data_dir: Path, ref: str) -> dict[str, Any]:
    """The replay report (as ``dsq replay`` prints it) of recorded game ``ref``, with
    ``"game"``, ``"recorded"`` (its stored winner, reason and plies) and ``"agrees"``."""
    # lazy: start-up time (duckdb, pandas)
    from sim.stats.games import game_record, replay_input
    from sim.storage.reading import open_dataset

    bid, index = parse_game_ref(ref)
    with open_dataset(data_dir) as ds:
        record = ds.read(lambda: game_record(ds.con, bid, index))
    if record is None:
        raise DsqError(f"no recorded game {bid}:{index} in {data_dir}")
    line = replay_input(record)
    report = replay(line["rules"], line["fen"], line["moves"])
    recorded = {
        "winner": record["winner"],
        "reason": record["reason"],
        "plies": int(record["plies"]),
    }
    same = agrees(report["result"], recorded["winner"], recorded["reason"])
    return {
        "game": f"{bid}:{index}",
        "rules": line["rules"],
        "start_fen": line["fen"],
        **report,
        "recorded": recorded,
        "agrees": same and report["plies"] == recorded["plies"],
    }
