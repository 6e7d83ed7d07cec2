"""A study's bots pinned: each cell's specs with the evaluation named by content under
its rules (docs/studies.md, "Pinned bots"), and the study file's ``[evals]`` table, which
says what ``eval=auto`` stands for under each preset."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import DsqError
from sim.study.errors import StudyError
from sim.study.errors import err as _err
from sim.study.games import _unknown

if TYPE_CHECKING:
    from sim.study.spec import Cell


def read_evals(path: str, raw: Any) -> dict[str, str]:
    """The ``[evals]`` table: what ``eval=auto`` stands for under each preset (a pinned
    evaluation, ``NAME@HEX``), so that the file itself names every bot."""
    t = _unknown(path, "evals", raw, {"standard", "yeshou", "datou"})
    for k, v in t.items():
        if not isinstance(v, str) or "@" not in v:
            raise _err(path, f"evals.{k}", f"must be a pinned evaluation NAME@HEX, got {v!r}")
    return dict(t)


def pin_cells(
    cells: list[Cell], data_dir: Path | None = None, evals: dict[str, str] | None = None
) -> dict[str, str]:
    """Each cell's bot specs pinned under its rules (``"RULES|SPEC"`` -> pinned spec), only
    where pinning changes the spec; ``evals`` (preset -> ``NAME@HEX``) says what
    ``eval=auto`` stands for (else today's shipped evaluation)."""
    # lazy: start-up time (the evaluations)
    from sim.bots.pinning import pin_bot
    from sim.bots.spec import BotSpec, parse_bot

    out: dict[str, str] = {}
    for c in cells:
        for spec in (c.red, c.blue):
            key = f"{c.rules}|{spec}"
            if key in out:
                continue
            text, preset = spec, c.rules.split("+", 1)[0]
            if evals and preset in evals and spec.startswith(("alphabeta:", "mcts:")):
                bot = parse_bot(spec)
                if bot.params.get("eval") == "auto":
                    text = BotSpec(bot.name, {**bot.params, "eval": evals[preset]}).canonical
            try:
                out[key] = pin_bot(text, c.rules, data_dir)
            except DsqError as exc:
                raise StudyError(f"cell {c.index} ({c.rules}, {c.pairing}): {exc}") from None
    return {k: v for k, v in out.items() if k.split("|", 1)[1] != v}
