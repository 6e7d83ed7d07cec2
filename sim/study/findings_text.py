"""A study's findings written out: the verdict table, the skill curves and the curvature
of the draw rate, as rows (for text, CSV, the dashboard) and as sentences, each naming its
verdict, so that a page's every claim comes from the report that backs it."""

from __future__ import annotations

from typing import Any

from sim.report import fmt

UNITS = {"first_move": "Elo", "draw_rate": "points", "plies": "plies"}
WHAT = {
    "first_move": "the first-move advantage",
    "draw_rate": "the draw rate",
    "plies": "game length",
}


def _scale(metric: str) -> float:
    return 100.0 if metric == "draw_rate" else 1.0


def estimate(x: dict[str, Any], metric: str, digits: int = 1) -> str:
    """``+12.3 [+1.0, +23.6]`` in the metric's unit (draw rates in percentage points)."""
    if x.get("value") is None:
        return fmt.MISSING
    k = _scale(metric)
    v, lo, hi = x["value"] * k, x.get("low"), x.get("high")
    if lo is None or hi is None:
        return f"{v:+.{digits}f}"
    return f"{v:+.{digits}f} [{lo * k:+.{digits}f}, {hi * k:+.{digits}f}]"


def level_text(x: dict[str, Any], metric: str) -> str:
    """A level (not a difference): draw rates in percent, plies and Elo as numbers."""
    if x.get("value") is None:
        return fmt.MISSING
    if metric == "draw_rate":
        return f"{x['value']:.1%} [{x['low']:.1%}, {x['high']:.1%}]"
    if metric == "plies":
        return f"{x['value']:.1f} [{x['low']:.1f}, {x['high']:.1f}]"
    return estimate(x, metric)


def subject(f: dict[str, Any]) -> str:
    """What a finding is about: ``datou: the first-move advantage`` or ``yeshou − datou:
    game length``."""
    who = f["rules"] if f.get("against") is None else f"{f['rules']} − {f['against']}"
    return f"{who}: {WHAT[f['metric']]}"


def verdict_cells(x: dict[str, Any]) -> list[str]:
    """A finding's row of the verdict table as text: subject, pooled estimate and
    interval, unit, τ, I², conditions and verdict (the text report and the page)."""
    p = x["pooled"]
    return [subject(x), estimate(p, x["metric"]), UNITS[x["metric"]],
            _opt(p.get("tau"), x["metric"]), _i2(p.get("i2")),
            str(p.get("conditions", 0)), verdict_text(x)]  # fmt: skip


def finding_rows(rep: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per finding: ``kind`` (first move, effect, pairwise), rules, against,
    metric, the pooled estimate and interval (in the metric's unit), τ, I², the number of
    conditions, the pooled p-value after Holm, the verdict and the axes it depends on."""
    f = rep.get("findings") or {}
    rows = []
    for kind, items in (("first move", f.get("first_move", [])),
                        ("effect", f.get("effects", [])),
                        ("pairwise", f.get("pairwise", []))):  # fmt: skip
        for x in items:
            p = x["pooled"]
            k = _scale(x["metric"])
            tau = p.get("tau")
            rows.append({
                "kind": kind, "rules": x["rules"], "against": x.get("against"),
                "metric": x["metric"], "unit": UNITS[x["metric"]],
                "estimate": None if p.get("value") is None else p["value"] * k,
                "low": None if p.get("low") is None else p["low"] * k,
                "high": None if p.get("high") is None else p["high"] * k,
                "tau": None if tau is None else tau * k, "i2": p.get("i2"),
                "conditions": p.get("conditions", 0), "p_holm": p.get("p_holm"),
                "verdict": x["verdict"], "axes": ", ".join(x["axes"]),
            })  # fmt: skip
    return rows


def verdict_text(x: dict[str, Any]) -> str:
    """``robust``, ``depends on level, openings`` or ``not established``."""
    return x["verdict"] + (f" {', '.join(x['axes'])}" if x["axes"] else "")


def sentence(x: dict[str, Any]) -> str:
    """One sentence for a finding, naming its pooled estimate and its verdict."""
    p = x["pooled"]
    n = p.get("conditions", 0)
    unit = {"Elo": " Elo", "points": " percentage points", "plies": " plies"}[UNITS[x["metric"]]]
    est = estimate(p, x["metric"])
    tail = f"over {n} condition{'s' if n != 1 else ''}"
    if x["verdict"] == "robust":
        how = "in every condition, significant after correction, with the same sign"
        return f"{subject(x)} {est}{unit} pooled {tail}: **robust** ({how})."
    if x["verdict"] == "depends on":
        return (
            f"{subject(x)} {est}{unit} pooled {tail}: **depends on "
            f"{', '.join(x['axes'])}** (the interaction test is significant after correction)."
        )
    return f"{subject(x)} {est}{unit} pooled {tail}: **not established**."


def curve_rows(rep: dict[str, Any]) -> list[dict[str, Any]]:
    """The skill curves as flat rows: rules, family, rung, bot, games and each figure's
    pooled value and interval (draw rate as a share, plies, first-move Elo)."""
    out = []
    for e in (rep.get("findings") or {}).get("curves", []):
        row = {k: e[k] for k in ("rules", "family", "rung", "bot", "games")}
        for m in UNITS:
            x = e[m]
            row[m] = x.get("value")
            row[f"{m}_low"], row[f"{m}_high"] = x.get("low"), x.get("high")
        out.append(row)
    return out


def findings_text(rep: dict[str, Any]) -> str:
    """The verdict table, the skill curves and the draw rate's curvature as text."""
    # lazy: start-up time (only reports with findings)
    from sim.bots.spec import short_spec
    from sim.report.tables import aligned_table

    f = rep.get("findings") or {}
    if not f:
        return ""
    lines = ["", "findings (pooled over conditions, random effects; Holm within each family):"]
    items = f.get("first_move", []) + f.get("effects", []) + f.get("pairwise", [])
    rows = [verdict_cells(x) for x in items]
    head = ["finding", "pooled [95%]", "unit", "tau", "I2", "conditions", "verdict"]
    lines.append(aligned_table(head, rows, right={2, 3, 4, 5}))
    lines += ["", "skill curves (each rung pooled over its conditions):"]
    rows = [[e["rules"], e["family"] or "-", str(e["rung"]), short_spec(e["bot"]),
             fmt.count(e["games"]), level_text(e["draw_rate"], "draw_rate"),
             level_text(e["plies"], "plies"), level_text(e["first_move"], "first_move")]
            for e in f.get("curves", [])]  # fmt: skip
    head = ["rules", "family", "rung", "bot", "games", "draws", "plies", "first move (Elo)"]
    lines.append(aligned_table(head, rows, right={2, 4}))
    fam = f.get("families", {})
    lines += ["", "families of tests: " + "; ".join(f"{k} {v}" for k, v in fam.items())]
    return "\n".join(lines) + "\n"


def _opt(x: Any, metric: str) -> str:
    return fmt.MISSING if x is None else f"{x * _scale(metric):.1f}"


def _i2(x: Any) -> str:
    return fmt.MISSING if x is None else f"{x:.0%}"
