"""``dsq stats``: statistics of the recorded games, with 95% intervals, as tables or JSON.

All figures come from :mod:`sim.stats` (pure functions over the dataset's DuckDB view).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from engine.errors import DsqError
from sim.bots.spec import short_spec as short_bot

BY_CHOICES = ("rules", "matchup", "batch", "bot")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``stats`` command."""
    p = sub.add_parser(
        "stats",
        help="statistics of recorded games (results, first-player score, lengths, Elo, ...)",
        description="Statistics of the recorded games with 95% intervals: results, the first "
        "player's score and its test against 0.5, lengths, end reasons; per rules, batch, bot "
        "or matchup (--by); rule sets compared (--compare); Bradley-Terry ratings (--ratings). "
        "Red moves first; lengths are in plies.",
    )
    p.add_argument("--data", help="data folder (default: $DSQ_DATA, else data/ in the project)")
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
        help="only games in which this bot played (repeatable)",
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
        "--min-plies",
        default="0",
        metavar="N",
        help="leave out games shorter than N plies (20 = the anti-farming rule)",
    )
    p.add_argument("--by", choices=BY_CHOICES, help="break the figures down")
    p.add_argument(
        "--compare",
        metavar="SPEC,SPEC,...",
        help="compare rule sets (differences with intervals and p-values)",
    )
    p.add_argument("--ratings", action="store_true", help="Bradley-Terry ratings of all bots")
    p.add_argument("--anchor", metavar="BOT", help="with --ratings: this bot is rated 0")
    p.add_argument(
        "--details", action="store_true", help="den animals, capture matrix and capture squares"
    )
    p.add_argument("--bins", default="20", metavar="N", help="length histogram bins (JSON; 20)")
    p.add_argument(
        "--confidence", default="0.95", metavar="C", help="confidence level of the intervals (0.95)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


# ----------------------------------------------------------------------------- parsing


def _int_arg(name: str, text: str, minimum: int) -> int:
    try:
        v = int(str(text).strip())
    except ValueError:
        raise DsqError(f"{name} must be a whole number, got {text!r}") from None
    if v < minimum:
        raise DsqError(f"{name} must be at least {minimum}, got {v}")
    return v


def _confidence_arg(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise DsqError(f"--confidence must be a number, got {text!r}") from None
    if not 0.5 <= v < 1.0:
        raise DsqError(f"--confidence must be at least 0.5 and below 1, got {text}")
    return v


def build_selection(args: argparse.Namespace) -> Any:
    """The canonical :class:`~sim.stats.Selection` of the command line (DsqError if bad)."""
    from sim.stats.query import Selection, canonical_selection

    sel = Selection(
        rules=tuple(args.rules),
        bots=tuple(args.bot),
        batches=tuple(args.batch),
        colour=args.colour,
        min_plies=_int_arg("--min-plies", args.min_plies, 0),
        between=bool(args.between),
    )
    return canonical_selection(sel)


# ----------------------------------------------------------------------------- JSON


def jsonable(obj: Any) -> Any:
    """Plain JSON values: NaN and infinities become null, numpy scalars Python numbers,
    DataFrames lists of records, dataclasses with ``to_dict`` dicts."""
    if hasattr(obj, "to_dict") and not isinstance(obj, pd.DataFrame | pd.Series):
        return jsonable(obj.to_dict())
    if isinstance(obj, pd.DataFrame):
        return [jsonable(r) for r in obj.to_dict("records")]
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple | np.ndarray):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, float | np.floating):
        f = float(obj)
        return f if math.isfinite(f) else None
    if obj is pd.NA or obj is pd.NaT:
        return None
    return obj


# ----------------------------------------------------------------------------- text


def _pct(x: float, digits: int = 1) -> str:
    return "-" if x is None or not math.isfinite(x) else f"{100 * x:.{digits}f}%"


def _num(x: Any, digits: int = 1) -> str:
    if x is None:
        return "-"
    try:
        f = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isnan(f):
        return "-"
    if math.isinf(f):
        return "+inf" if f > 0 else "-inf"
    return f"{f:.{digits}f}"


def _ci(lo: float, hi: float, fmt: Any = _pct) -> str:
    if lo is None or hi is None or not (math.isfinite(lo) or math.isinf(lo)) or math.isnan(hi):
        return "-"
    return f"[{fmt(lo)}, {fmt(hi)}]"


def _f3(x: float) -> str:
    return f"{x:.3f}"


def _s3(x: float) -> str:
    return f"{x:+.3f}"


def _pts(x: float) -> str:
    return f"{100 * x:+.1f}"


def _p(p: float) -> str:
    if p is None or math.isnan(p):
        return "-"
    if p < 1e-4:
        return "<0.0001"
    return f"{p:.4f}"


def _peq(p: float) -> str:
    t = _p(p)
    return f"p {t[0]} {t[1:]}" if t.startswith("<") else f"p = {t}"


def _table(header: list[str], rows: list[list[str]], right: set[int] | None = None) -> str:
    right = right if right is not None else set(range(1, len(header)))
    cells = [header] + rows
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = []
    for k, r in enumerate(cells):
        parts = [
            c.rjust(w) if i in right and k > 0 else c.ljust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ]
        lines.append("  " + "  ".join(parts).rstrip())
    return "\n".join(lines)


def _general_text(g: Any, reasons: pd.DataFrame, conf: float) -> str:
    c = f"{round(conf * 100):g}% CI"
    out = []
    rows = [
        [
            "red wins (first player)",
            f"{g.red.count:,}",
            _pct(g.red.rate),
            _ci(g.red.low, g.red.high),
        ],
        [
            "blue wins (second player)",
            f"{g.blue.count:,}",
            _pct(g.blue.rate),
            _ci(g.blue.low, g.blue.high),
        ],
        ["draws", f"{g.draw.count:,}", _pct(g.draw.rate), _ci(g.draw.low, g.draw.high)],
    ]
    out.append(_table(["result", "games", "share", c], rows))
    f = g.first_player
    verdict = (
        "no significant first-player advantage"
        if f.p_value >= 1 - conf
        else ("first player (red) favoured" if f.score > 0.5 else "second player (blue) favoured")
    )
    out.append("")
    out.append(
        f"first-player score  {f.score:.3f} {_ci(f.low, f.high, _f3)}  "
        f"(wins + draws/2; vs 0.5: z = {f.z:.2f}, {_peq(f.p_value)}, exact {_peq(f.p_exact)})"
    )
    out.append(f"second-player score {g.second_player_score:.3f}  -> {verdict}")
    L = g.length
    out.append(
        f"length (plies)      mean {_num(L.mean)} {_ci(L.low, L.high, _num)}, sd {_num(L.sd)}, "
        f"median {_num(L.median, 0)}, min {L.min}, max {L.max}"
    )
    out.append("")
    rrows = [
        [
            r["reason"],
            f"{r['games']:,}",
            _pct(r["share"]),
            _ci(r["low"], r["high"]),
            f"{r['red']:,}",
            f"{r['blue']:,}",
            f"{r['draw']:,}",
        ]
        for r in reasons.to_dict("records")
    ]
    out.append(_table(["end reason", "games", "share", c, "red", "blue", "draw"], rrows))
    return "\n".join(out)


def _by_text(df: pd.DataFrame, key: str) -> str:
    rows = []
    for r in df.to_dict("records"):
        rows.append(
            [
                str(r[key]),
                f"{r['games']:,}",
                _pct(r["red_rate"]),
                _pct(r["blue_rate"]),
                f"{_pct(r['draw_rate'])} {_ci(r['draw_low'], r['draw_high'])}",
                f"{r['first_score']:.3f} {_ci(r['first_low'], r['first_high'], _f3)}",
                _p(r["first_p"]),
                f"{_num(r['mean_plies'])} {_ci(r['mean_low'], r['mean_high'], _num)}",
                _num(r["median_plies"], 0),
                f"{r['min_plies']}-{r['max_plies']}",
            ]
        )
    return _table(
        [
            key,
            "games",
            "red",
            "blue",
            "draws [CI]",
            "first score [CI]",
            "p(0.5)",
            "mean plies [CI]",
            "median",
            "min-max",
        ],
        rows,
    )


def _matchup_text(df: pd.DataFrame) -> str:
    rows = []
    for r in df.to_dict("records"):
        ptn = "-"
        if r["pairs"]:
            ptn = (
                f"{r['pairs']} pairs {r['ptnml']}  Elo {_num(r['ptnml_elo'])} +- "
                f"{_num(r['ptnml_elo_error'])}  nElo {_num(r['nelo'])} "
                f"{_ci(r['nelo_low'], r['nelo_high'], _num)}"
            )
        rows.append(
            [
                short_bot(r["bot"]),
                short_bot(r["opponent"]),
                f"{r['games']:,}",
                f"{r['wins']}-{r['draws']}-{r['losses']}",
                f"{r['score']:.3f}",
                f"{_num(r['elo'])} +- {_num(r['elo_error'])}",
                _pct(r["los"]),
                _pct(r["draw_ratio"]),
                ptn,
            ]
        )
    return _table(
        ["bot", "opponent", "games", "W-D-L", "score", "Elo", "LOS", "draws", "pentanomial"],
        rows,
        right={2, 3, 4, 5, 6, 7},
    )


def _bot_text(df: pd.DataFrame) -> str:
    rows = [
        [
            short_bot(r["bot"]),
            str(r["opponents"]),
            f"{r['games']:,}",
            f"{r['wins']}-{r['draws']}-{r['losses']}",
            f"{r['score']:.3f}",
            f"{_num(r['elo'])} +- {_num(r['elo_error'])}",
            _pct(r["draw_ratio"]),
            _num(r["score_as_red"], 3),
            _num(r["score_as_blue"], 3),
        ]
        for r in df.to_dict("records")
    ]
    return _table(
        [
            "bot",
            "opponents",
            "games",
            "W-D-L",
            "score",
            "perf. Elo vs field",
            "draws",
            "score as red",
            "score as blue",
        ],
        rows,
    )


def _compare_text(c: Any) -> str:
    out = []
    rows = []
    for r in c.per_rules.to_dict("records"):
        if not r.get("games"):
            rows.append([r["rules"], "0"] + ["-"] * 8)
            continue
        rows.append(
            [
                r["rules"],
                f"{r['games']:,}",
                f"{r['first_score']:.3f} {_ci(r['first_low'], r['first_high'], _f3)}",
                f"{_pct(r['draw_rate'])} {_ci(r['draw_low'], r['draw_high'])}",
                f"{_num(r['mean_plies'])} {_ci(r['mean_low'], r['mean_high'], _num)}",
                _num(r["sd_plies"]),
                f"{r['balance']:.3f}",
                _pct(r["completion"]),
                f"{_pct(r['rule_draws'])} / {_pct(r['ply_cap_draws'])}",
                _num(r["branching"]),
            ]
        )
    out.append(
        _table(
            [
                "rules",
                "games",
                "first score [CI]",
                "draws [CI]",
                "mean plies [CI]",
                "sd",
                "balance",
                "completion",
                "rule/cap draws",
                "branching",
            ],
            rows,
        )
    )
    if not c.pairs.empty:
        out.append("")
        prow = []
        for r in c.pairs.to_dict("records"):
            prow.append(
                [
                    f"{r['rules_a']} - {r['rules_b']}",
                    f"{r['first_diff']:+.3f} {_ci(r['first_diff_low'], r['first_diff_high'], _s3)}",
                    _p(r["first_diff_p"]),
                    _pts(r["draw_diff"])
                    + " pts "
                    + _ci(r["draw_diff_low"], r["draw_diff_high"], _pts),
                    _p(r["draw_diff_p"]),
                    f"{r['mean_plies_diff']:+.1f}",
                    _p(r["length_p"]),
                    _p(r["reasons_p"]),
                ]
            )
        out.append(
            _table(
                [
                    "difference",
                    "first score [CI]",
                    "p",
                    "draw rate [CI]",
                    "p",
                    "mean plies",
                    "p (M-W)",
                    "reasons p (chi2)",
                ],
                prow,
            )
        )
    if c.omnibus:
        o = c.omnibus
        out.append("")
        out.append(
            "all rule sets: results chi2 = {:.1f} (df {}), {}; reasons chi2 = {:.1f} "
            "(df {}), {}; lengths Kruskal-Wallis H = {:.1f} (df {}), {}".format(
                o["results_chi2"]["statistic"],
                o["results_chi2"]["dof"],
                _peq(o["results_chi2"]["p"]),
                o["reasons_chi2"]["statistic"],
                o["reasons_chi2"]["dof"],
                _peq(o["reasons_chi2"]["p"]),
                o["length_kruskal"]["statistic"],
                o["length_kruskal"]["dof"],
                _peq(o["length_kruskal"]["p"]),
            )
        )
    for n in c.notes:
        out.append(f"note: {n}")
    return "\n".join(out)


def _ratings_text(r: Any) -> str:
    rows = [
        [
            str(k + 1),
            short_bot(x["bot"]),
            f"{x['rating']:.1f}",
            f"+- {x['error']:.1f}",
            f"{x['games']:,}",
            f"{x['score']:.3f}",
            str(x["opponents"]),
        ]
        for k, x in enumerate(r.table.to_dict("records"))
    ]
    zero = f"anchor {short_bot(r.anchor)} = 0" if r.anchor else "mean 0"
    head = (
        f"Bradley-Terry ratings (Elo scale, {zero}, {round(r.confidence * 100):g}% intervals, "
        f"{r.games:,} games)"
    )
    out = [
        head,
        _table(
            ["#", "bot", "rating", "error", "games", "score", "opponents"],
            rows,
            right={0, 2, 3, 4, 5, 6},
        ),
    ]
    if r.note:
        out.append(f"note: {r.note}")
    return "\n".join(out)


def _details_text(den: pd.DataFrame, matrix: pd.DataFrame, squares: pd.DataFrame) -> str:
    from sim.stats.details import square_grid

    out = ["den entered by (winner's animal)"]
    out.append(
        _table(
            ["animal", "red", "blue", "total", "share"],
            [
                [r["animal"], str(r["red"]), str(r["blue"]), str(r["total"]), _pct(r["share"])]
                for r in den.to_dict("records")
            ],
        )
    )
    out.append("")
    out.append("captures: capturer (rows) x captured (columns), both colours")
    cols = list(matrix.columns)
    out.append(
        _table(
            ["capturer"] + cols,
            [
                [idx] + [str(int(v)) for v in row]
                for idx, row in zip(matrix.index, matrix.to_numpy(), strict=True)
            ],
        )
    )
    out.append("")
    out.append("captures by square (rank 9 at the top)")
    grid = square_grid(squares)
    out.append(
        _table(
            ["rank"] + list(grid.columns),
            [
                [str(rank)] + [str(int(v)) for v in row]
                for rank, row in zip(grid.index, grid.to_numpy(), strict=True)
            ],
        )
    )
    return "\n".join(out)


# ----------------------------------------------------------------------------- run


def _open(data: str | None) -> Any:
    from sim.storage.paths import resolve_data_dir
    from sim.storage.reading import open_dataset

    d = resolve_data_dir(data)
    if not Path(d).is_dir():
        raise DsqError(f"data folder {d} does not exist")
    return open_dataset(d)


def collect(args: argparse.Namespace) -> dict[str, Any]:
    """Everything ``dsq stats`` shows, as Python objects (before formatting)."""
    conf = _confidence_arg(args.confidence)
    bins = _int_arg("--bins", args.bins, 1)
    specs: list[str] = []
    if args.compare is not None:
        specs = [s.strip() for s in args.compare.split(",") if s.strip()]
        if len(specs) < 2:
            raise DsqError("--compare needs at least two rules specs separated by commas")
        from sim.stats.query import canonical_rules

        specs = [canonical_rules(s) for s in specs]
    if args.anchor and not args.ratings:
        raise DsqError("--anchor goes with --ratings")
    sel = build_selection(args)
    anchor = None
    if args.anchor:
        from sim.stats.query import canonical_bot

        anchor = canonical_bot(args.anchor)
    ds = _open(args.data)
    try:
        return ds.read(lambda: _collect(ds, args, sel, conf, bins, specs, anchor))
    finally:
        ds.close()


def _collect(
    ds: Any,
    args: argparse.Namespace,
    sel: Any,
    conf: float,
    bins: int,
    specs: list[str],
    anchor: str | None,
) -> dict[str, Any]:
    """The figures of ``dsq stats`` from an opened dataset."""
    import sim.stats as st

    con = ds.con
    out: dict[str, Any] = {
        "data": str(ds.data_dir),
        "selection": sel,
        "skipped": [{"path": p, "reason": r} for p, r in ds.skipped],
        "confidence": conf,
    }
    g = st.general_stats(con, sel, conf)
    out["general"] = g
    if g.games == 0:
        return out
    out["reasons"] = st.end_reasons(con, sel, conf)
    if args.json:
        out["length_histogram"] = st.length_histogram(con, sel, bins)
    if args.by in ("rules", "batch"):
        out["by"] = {"key": args.by, "table": st.general_stats_by(con, sel, args.by, conf)}
    elif args.by == "matchup":
        out["by"] = {"key": "matchup", "table": st.matchup_table(con, sel, conf)}
    elif args.by == "bot":
        out["by"] = {"key": "bot", "table": st.bot_table(con, sel, conf)}
    if specs:
        out["compare"] = st.compare_rules(con, specs, sel, conf, canonicalise=False)
    if args.ratings:
        out["ratings"] = st.ratings(con, sel, anchor=anchor, confidence=conf)
    if args.details:
        out["details"] = {
            "den_animals": st.den_animals(con, sel),
            "capture_matrix": st.capture_matrix(con, sel),
            "capture_squares": st.capture_squares(con, sel),
        }
    return out


def _json_out(out: dict[str, Any]) -> dict[str, Any]:
    res = dict(out)
    det = res.get("details")
    if det:
        m = det["capture_matrix"]
        res["details"] = {
            "den_animals": det["den_animals"],
            "capture_matrix": {
                "animals": list(m.index),
                "rows_capturer_columns_captured": m.to_numpy().tolist(),
            },
            "capture_squares": det["capture_squares"],
        }
    if "by" in res:
        res["by"] = {"key": res["by"]["key"], "rows": res["by"]["table"]}
    return jsonable(res)


def run(args: argparse.Namespace) -> int:
    """Run ``dsq stats``."""
    out = collect(args)
    for item in out["skipped"]:
        print(f"dsq stats: skipped {item['path']}: {item['reason']}", file=sys.stderr)
    g = out["general"]
    if args.json:
        print(json.dumps(_json_out(out), indent=1))
        return 0
    sel = out["selection"]
    if g.games == 0:
        print(f"no games in {out['data']} for the selection ({sel.describe()})")
        return 0
    conf = out["confidence"]
    print(f"{g.games:,} games in {out['data']}  ({sel.describe()})")
    print()
    print(_general_text(g, out["reasons"], conf))
    if "by" in out:
        print()
        key, table = out["by"]["key"], out["by"]["table"]
        print(f"by {key}:")
        if table.empty:
            print("  (no games between different bots)" if key in ("matchup", "bot") else "  -")
        elif key in ("rules", "batch"):
            print(_by_text(table, key))
        elif key == "matchup":
            print(_matchup_text(table))
        else:
            print(_bot_text(table))
    if "compare" in out:
        print()
        print("rule sets compared:")
        print(_compare_text(out["compare"]))
    if "ratings" in out:
        print()
        print(_ratings_text(out["ratings"]))
    if "details" in out:
        d = out["details"]
        print()
        print(_details_text(d["den_animals"], d["capture_matrix"], d["capture_squares"]))
    return 0
