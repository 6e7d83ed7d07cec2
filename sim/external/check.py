"""The rules check: does an external engine play the rules it claims?

Three comparisons with our engine, each difference filed under the docs/rules.md clause that
decides it (:mod:`sim.external.why`):

- ``perft`` (when the engine has it): from the initial position to ``perft_depth``, and
  at depth 2 from positions along the random games;
- legal moves (``moves``, when the engine has it and dsq can read its list): in every
  position of ``games`` random games (uniform among our legal moves, seeded) of up to
  ``plies`` plies; the even games are sent as ``position ... moves ...`` (the engine sees
  the history), the odd ones as the FEN of each position alone (``position fen ...``, so a
  FEN reader that gets a position wrong shows), compared with dsq's moves from that FEN;
- otherwise its accepted moves: the engine's ``go depth 1 movetime 200`` answer in each
  position must be legal here (``stop`` after 2 s; no answer 1 s later is a fault).

A list of moves dsq cannot read is reported once (``unreadable_moves``) and the chosen
moves are compared instead. ``progress(done, total)`` hears of each position compared
(``total`` is ``games * plies``, an upper bound: a game may end sooner).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.errors import DsqError
from engine.position import Position, decode_move, encode_move
from engine.rng import rng_below, seed_state
from engine.rules import Ruleset, parse_rules
from sim.external.client import EngineClient, UnreadableMoves
from sim.external.positions import PositionText
from sim.external.process import EngineFault
from sim.external.registry import EngineEntry
from sim.external.why import move_clause

PERFT_EVERY = 40  # plies between the positions of a random game whose perft is compared
CHECK_GO = "depth 1 movetime 200"  # the search asked for when the engine lists no moves
CHECK_WAIT_MS, CHECK_GRACE_MS = 2000, 1000  # then stop; then no answer is a fault


@dataclass
class Difference:
    """The moves of one clause where the engine and dsq disagree, with a first example."""

    clause: str
    count: int = 0
    engine_allows: int = 0  # of them, moves the engine allows and dsq refuses
    example: dict[str, Any] = field(default_factory=dict)


@dataclass
class CheckReport:
    """What :func:`check_engine` found; ``passed`` when nothing differs."""

    engine: str
    rules: str
    identity: dict[str, Any]
    method: str = "moves"  # moves, bestmove
    positions: int = 0
    perft: list[dict[str, Any]] = field(default_factory=list)
    differences: dict[str, Difference] = field(default_factory=dict)
    seconds: float = 0.0
    unreadable_moves: str | None = None  # the move list line dsq could not read

    @property
    def perft_failures(self) -> list[dict[str, Any]]:
        """The perft comparisons where the counts differ."""
        return [p for p in self.perft if p["engine"] is not None and p["engine"] != p["dsq"]]

    @property
    def passed(self) -> bool:
        """Whether no difference was found."""
        return not self.differences and not self.perft_failures

    def add(self, clause: str, engine_allows: bool, example: dict[str, Any]) -> None:
        """Count one differing move under ``clause``."""
        d = self.differences.setdefault(clause, Difference(clause))
        d.count += 1
        d.engine_allows += int(engine_allows)
        if not d.example:
            d.example = example

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        return {
            "engine": self.engine,
            "rules": self.rules,
            "identity": self.identity,
            "passed": self.passed,
            "method": self.method,
            "positions": self.positions,
            "unreadable_moves": self.unreadable_moves,
            "perft": self.perft,
            "differences": [
                {
                    "clause": d.clause,
                    "moves": d.count,
                    "engine_allows": d.engine_allows,
                    "dsq_allows": d.count - d.engine_allows,
                    "example": d.example,
                }
                for d in sorted(self.differences.values(), key=lambda d: -d.count)
            ],
            "seconds": round(self.seconds, 3),
        }


def check_engine(
    entry: EngineEntry,
    rules: Ruleset | str,
    games: int = 20,
    plies: int = 200,
    perft_depth: int = 4,
    seed: int = 0,
    fen: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> CheckReport:
    """Compare ``entry``'s perft and moves with ours under ``rules`` (see the module
    docstring), the random games starting from ``fen`` (default: the initial position);
    EngineFault if the engine cannot be started or stops answering."""
    ruleset = parse_rules(rules)
    t0 = time.monotonic()
    client = EngineClient(entry).start()
    try:
        report = CheckReport(entry.name, ruleset.spec, client.identity())
        texts = PositionText(entry)
        start = Position(ruleset, fen)
        _compare_perft(client, report, start, texts.command(start.st), perft_depth)
        try:
            probe = client.legal_moves(texts.command(start.st))
        except UnreadableMoves as exc:
            probe, report.unreadable_moves = None, exc.line
        report.method = "moves" if probe is not None else "bestmove"
        rng = seed_state(seed)
        for game in range(games):
            client.new_game()
            pos = Position(ruleset, fen)
            texts = PositionText(entry)
            while pos.ply < plies and pos.result is None:
                command = texts.command(pos.st)
                if game % 2 and pos.has_fen:  # the position as a FEN alone
                    alone = Position(ruleset, pos.fen())
                    _compare_moves(
                        client, report, alone, PositionText(entry, True).command(alone.st)
                    )
                else:
                    _compare_moves(client, report, pos, command)
                if progress is not None:
                    progress(report.positions, games * plies)
                if pos.ply and pos.ply % PERFT_EVERY == 0:
                    _compare_perft(client, report, pos, command, 2)
                legal = pos.legal_codes()
                pos.play(decode_move(int(legal[rng_below(rng, len(legal))])))
    finally:
        client.close()
    report.seconds = time.monotonic() - t0
    return report


def _compare_perft(
    client: EngineClient, report: CheckReport, pos: Position, command: str, depth: int
) -> None:
    for d in range(1, depth + 1):
        theirs = client.perft(command, d, timeout=120.0)
        if theirs is None and not client.alive():
            raise EngineFault("no_answer", f"engine {report.engine} stopped answering perft")
        report.perft.append(
            {"fen": pos.fen(), "moves": list(pos.history), "depth": d,
             "dsq": pos.perft(d), "engine": theirs}
        )  # fmt: skip
        if theirs is None or theirs != report.perft[-1]["dsq"]:
            return


def _compare_moves(client: EngineClient, report: CheckReport, pos: Position, command: str) -> None:
    """File each move the engine and dsq disagree on in ``pos`` (the engine's one chosen
    move when it has no ``moves`` command)."""
    ours = {int(m) for m in pos.legal_codes()}
    listed = None
    if report.method == "moves":
        try:
            listed = client.legal_moves(command)
        except UnreadableMoves as exc:  # reported once; chosen moves from here on
            report.unreadable_moves, report.method = exc.line, "bestmove"
        else:
            if listed is None:
                raise EngineFault("no_answer", f"engine {report.engine} stopped answering 'moves'")
    if listed is not None:
        theirs = {encode_move(m) for m in listed}
        differing = ours ^ theirs
    else:
        answer = client.go(command, CHECK_GO, CHECK_WAIT_MS, CHECK_GRACE_MS).move
        try:
            theirs = {encode_move(answer)}
        except DsqError:
            raise EngineFault("garbage", f"engine {report.engine} answered {answer!r}") from None
        differing = theirs - ours
    report.positions += 1
    for mv in sorted(differing):
        engine_allows = mv in theirs
        _, clause = move_clause(pos.st, pos.rules, mv)
        report.add(
            clause,
            engine_allows,
            {"fen": pos.fen(), "moves": list(pos.history), "move": decode_move(mv),
             "allowed_by": "engine" if engine_allows else "dsq"},
        )  # fmt: skip


def report_text(report: CheckReport) -> str:
    """The report as the lines ``dsq engines check`` prints."""
    ident = report.identity
    out = [
        f"engine {report.engine} ({ident.get('version') or 'no id name'}), rules {report.rules}",
        f"perft: {_perft_summary(report)}",
    ]
    if report.unreadable_moves is not None:
        out.append(
            f"legal moves: could not read the engine's move list "
            f"({report.unreadable_moves[:120]!r}); its chosen moves were compared instead"
        )
    out.append(
        f"{'legal moves' if report.method == 'moves' else f'chosen moves (go {CHECK_GO})'} "
        f"compared in {report.positions} positions"
    )
    if not report.differences:
        out.append("moves: no difference")
    for d in sorted(report.differences.values(), key=lambda d: -d.count):
        ex = d.example
        who = "engine allows, dsq refuses" if ex["allowed_by"] == "engine" else "dsq allows"
        out.append(
            f"  {d.clause}: {d.count} moves ({d.engine_allows} the engine allows, "
            f"{d.count - d.engine_allows} dsq allows)"
        )
        out.append(f"    e.g. {ex['move']} in {ex['fen']} ({who})")
    out.append(f"result: {'pass' if report.passed else 'FAIL'} ({report.seconds:.1f} s)")
    return "\n".join(out)


def _perft_summary(report: CheckReport) -> str:
    if not report.perft or report.perft[0]["engine"] is None:
        return "not supported by the engine"
    bad = report.perft_failures
    if bad:
        b = bad[0]
        return (
            f"{len(bad)} differ; first at depth {b['depth']} from {b['fen']}: "
            f"dsq {b['dsq']}, engine {b['engine']}"
        )
    start = [p for p in report.perft if not p["moves"] and p["fen"] == report.perft[0]["fen"]]
    deepest = max(start, key=lambda p: p["depth"])
    return (
        f"{len(report.perft)} counts agree (from the start to depth {deepest['depth']}: "
        f"{deepest['dsq']:,})"
    )
