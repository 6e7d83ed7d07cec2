"""``dsq stats``: statistics of the recorded games, with 95% intervals, as tables or JSON.

Parse and check the arguments (:func:`parse_request`), collect the figures from
:mod:`sim.stats` (pure functions over the dataset's DuckDB view; :func:`collect`), write
them with :mod:`sim.report` (:func:`~sim.report.text.stats_text` or
:func:`~sim.report.jsonable.stats_json`) and print them.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from typing import Any

from engine.errors import DsqError
from sim.commands._common import add_data_arg, float_in, int_in
from sim.storage.paths import existing_data_dir

BY_CHOICES = ("rules", "matchup", "batch", "bot")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``stats`` command."""
    p = sub.add_parser(
        "stats",
        help="statistics of recorded games (results, first-player score, lengths, Elo, ...)",
        description="Statistics of the recorded games with 95% intervals: results, the first "
        "player's score, the first-move advantage fitted with the bots' strengths, lengths, "
        "end reasons; per rules, batch, bot "
        "or matchup (--by); rule sets compared (--compare); Bradley-Terry ratings (--ratings). "
        "Red moves first; lengths are in plies.",
    )
    add_data_arg(p)
    add_selection_args(p)
    p.add_argument("--by", choices=BY_CHOICES, help="break the figures down")
    p.add_argument(
        "--compare",
        metavar="SPEC,SPEC,...",
        help="compare rule sets (differences with intervals and p-values)",
    )
    p.add_argument("--ratings", action="store_true", help="Bradley-Terry ratings of all bots")
    p.add_argument(
        "--anchor",
        metavar="BOT",
        help="with --ratings: this bot is rated 0 (a kind alone names its one rated spec)",
    )
    p.add_argument(
        "--details", action="store_true", help="den animals, capture matrix and capture squares"
    )
    p.add_argument("--bins", default="20", metavar="N", help="length histogram bins (JSON; 20)")
    p.add_argument(
        "--confidence", default="0.95", metavar="C", help="confidence level of the intervals (0.95)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def add_selection_args(p: argparse.ArgumentParser) -> None:
    """The flags that select games (``--rules``, ``--bot``, ``--batch``, ``--colour``,
    ``--between``, ``--humans``, ``--no-adjudicated``, ``--with-void``, ``--min-plies``);
    :func:`build_selection` reads them."""
    p.add_argument(
        "--rules",
        action="append",
        default=[],
        metavar="SPEC",
        help="only games under this rules spec (repeatable)",
    )
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="SPEC",
        help="only games in which this bot played (repeatable): a kind alone (alphabeta) "
        "for all its parameter sets, or a spec (alphabeta:depth=2) for that one",
    )
    p.add_argument(
        "--batch",
        action="append",
        default=[],
        metavar="ID",
        help="only games of this batch (repeatable)",
    )
    p.add_argument(
        "--colour",
        "--color",
        dest="colour",
        choices=("red", "blue"),
        help="with --bot: only games in which the bot played this colour",
    )
    p.add_argument(
        "--between",
        action="store_true",
        help="with several --bot: only games between the listed bots",
    )
    p.add_argument(
        "--humans",
        action="store_true",
        help="include games against people (played on the dashboard's Play page); they are "
        "left out unless asked, or unless --bot human is given",
    )
    p.add_argument(
        "--no-adjudicated",
        dest="adjudicated",
        action="store_false",
        help="leave out the games dsq simulate --resign/--draw adjudicated on the players'"
        " search scores (counted by default: a resign is the other side's win, each under"
        " its own reason, adjudicated_resign or adjudicated_draw)",
    )
    p.add_argument(
        "--with-void",
        dest="voids",
        action="store_true",
        help="count as results the games void under their rule set's scoring rule"
        " (void_rounds: a yeshou game ending within 10 rounds, 20 plies, scores nothing);"
        " left out of the figures by default and counted apart; lists and exports of games"
        " hold them either way",
    )
    p.add_argument(
        "--min-plies",
        default="0",
        metavar="N",
        help="leave out games shorter than N plies (a length filter; the 10-round rule of"
        " yeshou is its scoring rule, void_rounds, applied without this flag)",
    )


# ----------------------------------------------------------------------------- checking


@dataclass(frozen=True)
class StatsRequest:
    """What ``dsq stats`` was asked for, checked and canonical."""

    data: str | None
    selection: Any  # sim.stats.query.Selection (imported when the command runs)
    confidence: float
    bins: int
    by: str | None
    compare: tuple[str, ...]
    ratings: bool
    anchor: str | None
    details: bool
    json: bool


MAX_CONFIDENCE = 0.999999  # z = 4.9; closer to 1 the normal quantile is not finite
MAX_BINS = 1000
DISTINCT_MAX_GAMES = 100_000  # the distinct games are counted up to this many (about 1 s)
MAX_MIN_PLIES = 65535  # the largest ply cap


def _int_arg(name: str, text: str, minimum: int, maximum: int) -> int:
    try:
        return int_in(minimum, maximum)(str(text))
    except argparse.ArgumentTypeError as exc:
        raise DsqError(f"{name} {exc}") from None


def _confidence_arg(text: str) -> float:
    try:
        return float_in(0.5, MAX_CONFIDENCE)(str(text))
    except argparse.ArgumentTypeError as exc:
        raise DsqError(f"--confidence {exc}") from None


def build_selection(args: argparse.Namespace) -> Any:
    """The canonical :class:`~sim.stats.Selection` of the command line (DsqError if bad)."""
    # lazy: start-up time (duckdb, pandas)
    from sim.stats.query import Selection, canonical_selection

    sel = Selection(
        rules=tuple(args.rules),
        bots=tuple(args.bot),
        batches=tuple(args.batch),
        colour=args.colour,
        min_plies=_int_arg("--min-plies", args.min_plies, 0, MAX_MIN_PLIES),
        between=bool(args.between),
        humans=bool(args.humans),
        adjudicated=bool(args.adjudicated),
        voids=bool(args.voids),
    )
    return canonical_selection(sel)


def parse_request(args: argparse.Namespace) -> StatsRequest:
    """The checked, canonical request of the command line (DsqError, one line, if bad)."""
    conf = _confidence_arg(args.confidence)
    bins = _int_arg("--bins", args.bins, 1, MAX_BINS)
    specs: list[str] = []
    if args.compare is not None:
        specs = [s.strip() for s in args.compare.split(",") if s.strip()]
        if len(specs) < 2:
            raise DsqError("--compare needs at least two rules specs separated by commas")
        # lazy: start-up time (duckdb, pandas)
        from engine.rules import canonical_rules

        specs = [canonical_rules(s) for s in specs]
    if args.anchor and not args.ratings:
        raise DsqError("--anchor goes with --ratings")
    sel = build_selection(args)
    anchor = None
    if args.anchor:
        # lazy: start-up time (duckdb, pandas)
        from sim.stats.query import bot_filter

        anchor = bot_filter(args.anchor)
    return StatsRequest(
        data=args.data,
        selection=sel,
        confidence=conf,
        bins=bins,
        by=args.by,
        compare=tuple(specs),
        ratings=bool(args.ratings),
        anchor=anchor,
        details=bool(args.details),
        json=bool(args.json),
    )


# ----------------------------------------------------------------------------- collecting


def _open(data: str | None) -> Any:
    # lazy: start-up time (duckdb, pandas)
    from sim.storage.reading import open_dataset

    return open_dataset(existing_data_dir(data))


def collect(request: StatsRequest) -> dict[str, Any]:
    """Everything ``dsq stats`` shows, as Python objects (before formatting)."""
    ds = _open(request.data)
    try:
        return ds.read(lambda: _collect(ds, request))
    finally:
        ds.close()


def say_skipped(skipped: list[tuple[str, str]]) -> None:
    """Each file the reader left out, and why, on standard error."""
    for path, reason in skipped:
        print(f"dsq stats: skipped {path}: {reason}", file=sys.stderr)


def _collect(ds: Any, request: StatsRequest) -> dict[str, Any]:
    """The figures of ``dsq stats`` from an opened dataset."""
    # lazy: start-up time (duckdb, pandas)
    import sim.stats as st

    con, sel, conf = ds.con, request.selection, request.confidence
    out: dict[str, Any] = {
        "data": str(ds.data_dir),
        "selection": sel,
        "skipped": [{"path": p, "reason": r} for p, r in ds.skipped],
        "confidence": conf,
    }
    g = st.general_stats(con, sel, conf)
    out["general"] = g
    if 0 < g.games <= DISTINCT_MAX_GAMES:  # cheap enough: the count reads every game's moves
        # lazy: start-up time (as sim.stats)
        from sim.stats.distinct import distinct_games

        out["distinct"] = distinct_games(con, sel).total
    if g.games == 0:
        # lazy: start-up time (as sim.stats)
        from sim.stats.empty import no_games

        say_skipped(ds.skipped)  # the files left out may be why nothing is left
        raise no_games(con, sel, ds.data_dir, 0 if sel.voids else g.void)
    out["reasons"] = st.end_reasons(con, sel, conf)
    if request.json:
        out["length_histogram"] = st.length_histogram(con, sel, request.bins)
    if request.by in ("rules", "batch"):
        out["by"] = {"key": request.by, "table": st.general_stats_by(con, sel, request.by, conf)}
    elif request.by == "matchup":
        out["by"] = {"key": "matchup", "table": st.matchup_table(con, sel, conf)}
    elif request.by == "bot":
        out["by"] = {"key": "bot", "table": st.bot_table(con, sel, conf)}
    if request.compare:
        out["compare"] = st.compare_rules(con, list(request.compare), sel, conf, canonicalise=False)
    if request.ratings:
        out["ratings"] = st.ratings(con, sel, anchor=request.anchor, confidence=conf)
    if request.details:
        out["details"] = {
            "den_animals": st.den_animals(con, sel),
            "capture_matrix": st.capture_matrix(con, sel),
            "capture_squares": st.capture_squares(con, sel),
        }
    return out


# ----------------------------------------------------------------------------- run


def run(args: argparse.Namespace) -> int:
    """Run ``dsq stats``: check, collect, write as text or JSON, print."""
    # lazy: start-up time (pandas, pyarrow: not for --help and the other commands)
    from sim.report.jsonable import stats_json
    from sim.report.text import stats_text

    request = parse_request(args)
    out = collect(request)
    say_skipped([(item["path"], item["reason"]) for item in out["skipped"]])
    if request.json:
        print(json.dumps(stats_json(out), indent=1))
    else:
        print(stats_text(out))
    return 0
