"""A study's figures: every cell's metrics, the ladder's (skill depth, first move per rung)
and the grid's effects, as one JSON-ready dict, and as text."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import DsqError
from sim.bots.spec import short_spec
from sim.report import fmt
from sim.stats import Selection, ratings
from sim.storage.paths import read_bounded, resolve_data_dir
from sim.storage.reading import open_dataset
from sim.study.effects import effects_tally
from sim.study.metrics import cell_metrics, value
from sim.study.run import cell_batches, recorded_study, study_path
from sim.study.spec import Study, load_study


def resolve_study(file_or_name: str, data_dir: Path) -> Study:
    """The study of a file, or of a name recorded in ``DATA/studies/``."""
    p = Path(file_or_name)
    if p.suffix == ".toml" or p.exists():
        return load_study(p, quick=False)
    if not study_path(data_dir, file_or_name).exists():
        raise DsqError(f"no study file or recorded study named {file_or_name!r} (in {data_dir})")
    return recorded_study(data_dir, file_or_name)


MAX_REPORT_BYTES = 64 << 20  # a saved report: one JSON object of a study's figures


def read_saved_report(path: str | Path) -> dict[str, Any]:
    """A report saved by ``dsq study report --json`` (DsqError naming the file when it is
    missing, too big or not such a report)."""
    try:
        rep = json.loads(read_bounded(Path(path), MAX_REPORT_BYTES).decode("utf-8"))
    except (OSError, ValueError) as exc:
        raise DsqError(f"{path}: not a saved study report: {exc}") from None
    if not isinstance(rep, dict) or not isinstance(rep.get("cells"), list):
        raise DsqError(f"{path}: not a saved study report (no cells)")
    return rep


def skill_depth(con: Any, study: Study, rules: str, batches: list[str]) -> dict[str, Any]:
    """The Elo gap from the lowest to the highest rung under ``rules``, from the mixed
    pairings' games (Bradley-Terry ratings anchored at the lowest rung)."""
    lo_bot, hi_bot = study.bots[0], study.bots[-1]
    # the bots as played (pinned) under these rules: the ratings name them so
    lo_bot = study.pins.get(f"{rules}|{lo_bot}", lo_bot)
    hi_bot = study.pins.get(f"{rules}|{hi_bot}", hi_bot)
    out: dict[str, Any] = {
        "rules": rules,
        "low": short_spec(lo_bot),
        "high": short_spec(hi_bot),
        "value": None,
        "low_ci": None,
        "high_ci": None,
        "games": 0,
    }
    if not batches:
        out["note"] = "no mixed pairings played"
        return out
    r = ratings(con, Selection(batches=tuple(batches)), anchor=lo_bot)
    rows = {row["bot"]: row for row in r.table.to_dict("records")}
    if hi_bot in rows:
        row = rows[hi_bot]
        out.update(value=row["rating"], low_ci=row["low"], high_ci=row["high"], games=r.games)
    out["note"] = r.note
    return out


def build_report(
    study: Study, data_dir: str | Path | None = None, effects: bool = True
) -> dict[str, Any]:
    """Every figure of ``study`` in ``data_dir``: ``cells`` (``rules``, ``bots``, ``games``,
    ``batches`` and the metrics by name), ``ladder`` and, for a grid, ``effects``."""
    # lazy: start-up time (DuckDB)
    from sim.study.replay import forbidden_counts

    d = resolve_data_dir(data_dir)
    ds = open_dataset(d)
    cells = []
    for c in study.cells:
        batches = cell_batches(study, d, c)
        m = cell_metrics(ds.con, batches)
        m.update(forbidden_counts(ds.con, batches, c.rules))
        cells.append(
            {
                "cell": c.index,
                "rules": c.rules,
                "bots": [c.red, c.blue],
                "played": list(study.pinned(c)),
                "pairing": c.pairing,
                "condition": c.condition,
                "family": c.family,
                "opening": study.protocol(c).label,
                "seed_set": c.seed_set,
                "rung": c.rung,
                "options": c.options,
                "batches": batches,
                **m,
            }
        )
    ladder = []
    for rules in dict.fromkeys(c.rules for c in study.cells):
        mixed = [
            b for c in cells if c["rules"] == rules and c["rung"] is None for b in c["batches"]
        ]
        entry: dict[str, Any] = (
            skill_depth(ds.con, study, rules, mixed)
            if study.pairings != "self"
            else {"rules": rules, "value": None, "note": "self-play only: no skill depth"}
        )
        entry["first_move_by_rung"] = [
            {"bot": c["bots"][0], "games": c["games"], **c.get("first_move_elo", {})}
            for c in cells
            if c["rules"] == rules and c["rung"] is not None
        ]
        ladder.append(entry)
    out: dict[str, Any] = {
        "study": study.name,
        "title": study.title,
        "file": study.path,
        "data": str(d),
        "cells": cells,
        "ladder": ladder,
    }
    # lazy: start-up time (scipy, statsmodels)
    from sim.study.findings import study_findings

    presets = [
        r for r in dict.fromkeys(c.rules for c in study.cells) if "+" not in r and r != study.base
    ]
    out["findings"] = study_findings(ds.con, cells, study.base, presets)
    if effects and study.grid:
        # lazy: start-up time (statsmodels)
        from sim.study.effects import grid_effects

        by_pairing: dict[str, list[dict[str, Any]]] = {}
        grid_rules = {x.rules for x in study.cells if x.options or x.rules == study.base}
        for row in cells:
            if row["rules"] in grid_rules:
                by_pairing.setdefault(row["pairing"], []).append(row)
        out["effects"] = grid_effects(ds.con, by_pairing, study.interactions)
    return out


def _cell(m: dict[str, Any], name: str, kind: str) -> str:
    x = m.get(name) or {}
    v = x.get("value") if isinstance(x, dict) else None
    if v is None:
        return fmt.MISSING
    if kind == "pct":
        return fmt.pct(v)
    if kind == "elo":
        return fmt.elo(v, None, x.get("low"), x.get("high"))
    return f"{v:.1f}" if kind == "num" else f"{v:.3f}"


COLUMNS = (
    ("first move", "first_move_elo", "elo"),
    ("1st score", "first_player_score", "pct"),
    ("draws", "draw_rate", "pct"),
    ("natural", "natural_draw_rate", "pct"),
    ("ply cap", "ply_cap_draw_rate", "pct"),
    ("plies", "mean_plies", "num"),
    ("median", "median_plies", "num"),
    ("den", "den_rate", "pct"),
    ("branching", "branching", "num"),
    ("coverage", "coverage", "frac"),
    ("7-3", "forbidden_7_3", "frac"),
    ("17-5", "forbidden_17_5", "frac"),
    ("lead chg", "lead_change", "frac"),
    ("swing", "swing", "frac"),
    ("decisive", "decisiveness_threshold", "frac"),
    ("scored", "scored_share", "pct"),
)


def report_text(rep: dict[str, Any]) -> str:
    """The report as text: one line per cell, the ladder, and the significant effects."""
    lines = [f"study {rep['study']}: {rep['title']}  (data {rep['data']})", ""]
    rows = [["cell", "rules", "pairing", "games"] + [h for h, _, _ in COLUMNS]]
    for c in rep["cells"]:
        rows.append(
            [str(c["cell"]), c["rules"], c["pairing"], fmt.count(c["games"])]
            + [_cell(c, k, kind) for _, k, kind in COLUMNS]
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines += [
        "",
        "first move: Elo of the first player's edge fitted with the bots "
        "(95% interval); 1st score: Red's raw score; 7-3, 17-5: share of positions "
        "where the rule forbade a move; lead chg, swing, decisive: from the bots' search "
        "scores (docs/studies.md), over the scored share of plies",
    ]
    void = [(c["cell"], c.get("void_games") or 0) for c in rep["cells"]]
    if any(k for _, k in void):
        lines.append(
            f"void rule: {sum(k for _, k in void):,} games left out of every figure, void under "
            "their rules' scoring rule (yeshou: over in 20 plies or fewer); by cell: "
            + ", ".join(f"{i}: {k:,}" for i, k in void if k)
        )
    lines.append("")
    for entry in rep["ladder"]:
        if entry.get("value") is not None:
            lines.append(
                f"skill depth under {entry['rules']}: {entry['high']} is "
                f"{fmt.elo(entry['value'], None, entry['low_ci'], entry['high_ci'])} Elo above "
                f"{entry['low']}"
            )
    sig = [e for e in rep.get("effects", []) if e.get("sentence")]
    if "effects" in rep:
        k, n = effects_tally(rep["effects"])
        lines += ["", f"effects: {k} of {n} significant after Holm's correction"]
        lines += [f"  {e['sentence']} ({fmt.p_value(e['p_holm'])}, Holm)" for e in sig]
    # lazy: start-up time (the findings' text)
    from sim.study.findings_text import findings_text

    return "\n".join(lines) + "\n" + findings_text(rep)


def cells_frame(rep: dict[str, Any]) -> Any:
    """The cells as a flat table (one row per cell, one column per figure): the CSV."""
    # lazy: start-up time (pandas)
    import pandas as pd

    rows = []
    for c in rep["cells"]:
        row = {
            "cell": c["cell"],
            "rules": c["rules"],
            "red": c["bots"][0],
            "blue": c["bots"][1],
            "games": c["games"],
            "void_games": c.get("void_games", 0),
            "batches": " ".join(c["batches"]),
        }
        for k, m in c.items():
            if isinstance(m, dict) and "value" in m:
                row[k] = value(c, k)
                for bound in ("low", "high"):
                    if m.get(bound) is not None:
                        row[f"{k}_{bound}"] = m[bound]
        rows.append(row)
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class StudyReport:
    """A study's figures, as :func:`build_report` gives them (``figures``, JSON-ready:
    ``cells``, ``ladder``, ``findings``, and ``effects`` for a grid) with their views: the
    cells as a table, the report as text and as Markdown (what Jupyter shows)."""

    figures: dict[str, Any]

    @property
    def name(self) -> str:
        """The study's name (``NAME-quick`` for its first look)."""
        return str(self.figures["study"])

    @property
    def title(self) -> str:
        """The study's title."""
        return str(self.figures["title"])

    @property
    def games(self) -> int:
        """The games of the study recorded in the data folder."""
        return sum(int(c["games"]) for c in self.figures["cells"])

    def cells(self) -> Any:
        """One row per cell, one column per figure and its bounds (a pandas DataFrame:
        ``dsq study report --csv``)."""
        return cells_frame(self.figures)

    def text(self) -> str:
        """The report as ``dsq study report`` prints it."""
        return report_text(self.figures)

    def markdown(self) -> str:
        """The findings as a Markdown page (``dsq study report --markdown``)."""
        # lazy: start-up time (the findings' text is needed only here)
        from sim.study.markdown import report_markdown

        return report_markdown(self.figures)

    def _repr_markdown_(self) -> str:
        return self.markdown()
