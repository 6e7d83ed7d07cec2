"""Simulate: launch a batch as a detached ``dsq simulate`` and watch every batch on disk."""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import streamlit as st

from dashboard.filters import current_selection
from dashboard.jobs import JobView, LaunchRequest, cancel, launch, list_jobs
from dashboard.settings import Limits, load_settings
from engine import PRESETS
from engine.errors import DsqError
from engine.rules import JUMP_BLOCK_VALUES, JUMP_VALUES, MAX_NO_CAPTURE_PLIES
from sim.bots.spec import short_spec
from sim.play.seeds import MAX_SEED
from sim.report import fmt
from sim.stats.query import Selection

STATUS_ICONS = {
    "starting": ":material/hourglass_top:", "queued": ":material/hourglass_top:",
    "running": ":material/directions_run:", "done": ":material/check_circle:",
    "failed": ":material/error:", "cancelled": ":material/cancel:",
    "interrupted": ":material/warning:",
}  # fmt: skip
OPTION_LABELS = {
    "dog_over_wolf": "Dog stronger than wolf",
    "jump_block": "Rats that block a river jump",
    "lion_jump": "Lion jumps",
    "tiger_jump": "Tiger jumps",
    "rat_cross_capture": "Rat in water and rat on land may capture each other",
    "rule_7_3": "7-3 anti-chasing rule",
    "rule_17_5": "17-5 anti-chasing rule",
    "no_capture_plies": "Draw after this many plies without a capture (0: never)",
}
# The texts of external engines on this page (kept together for the language catalogues).
ENGINE_TEXT = {
    "choose": "Engine (from the engine registry)",
    "none": "No external engine is registered: name them in engines.toml in the data folder, "
    "or start the dashboard with --engines FILE (docs/engine-protocol.md).",
    "bad": "The engine registry cannot be read: {error}",
}
SHOWN_BATCHES = 15
JS_MAX_INT = min(MAX_SEED, 2**53 - 1)  # the browser holds numbers as doubles


def rules_builder() -> list[str]:
    """A preset and its options; returns the rules specs to play (the built one first)."""
    st.markdown("**Rules**")
    preset = st.selectbox("Preset", list(PRESETS), key="sim_preset")
    base = PRESETS[preset]
    values: dict[str, Any] = {}
    cols = st.columns(2)
    for i, f in enumerate(fields(base)):
        current = getattr(base, f.name)
        key = f"sim_opt_{preset}_{f.name}"
        box = cols[i % 2]
        label = OPTION_LABELS.get(f.name, f.name)
        if isinstance(current, bool):
            values[f.name] = box.toggle(label, value=current, key=key)
        elif f.name == "jump_block":
            values[f.name] = box.selectbox(
                label, JUMP_BLOCK_VALUES, index=JUMP_BLOCK_VALUES.index(current), key=key
            )
        elif f.name in ("lion_jump", "tiger_jump"):
            values[f.name] = box.selectbox(label, JUMP_VALUES, index=JUMP_VALUES.index(current),
                                           key=key)  # fmt: skip
        else:
            values[f.name] = int(box.number_input(label, 0, MAX_NO_CAPTURE_PLIES, current,
                                                  key=key))  # fmt: skip
    spec = replace(base, **values).spec
    st.markdown(f"Rules spec: `{spec}`")
    others = [p for p in PRESETS if p != spec]
    also = st.multiselect("Also play the same games (same seeds) under", others,
                          key="sim_also", placeholder="no other rules")  # fmt: skip
    return [spec, *also]


def engine_choice(side: str) -> str | None:
    """An engine of the registry (``--engines`` / ``$DSQ_ENGINES`` / the data folder's)."""
    from sim.engines.registry import activate

    try:
        names = sorted(activate(None, load_settings().data_dir))
    except DsqError as exc:
        st.warning(ENGINE_TEXT["bad"].format(error=exc))
        return None
    if not names:
        st.info(ENGINE_TEXT["none"])
        return None
    return st.selectbox(ENGINE_TEXT["choose"], names, key=f"sim_{side}_engine_name")


def bot_builder(side: str, limits: Limits) -> str:
    """A bot and its parameters for one side; returns its spec."""
    from sim.bots.spec import BOTS

    names = list(BOTS)
    default = names.index("greedy" if side == "blue" else "random") if "greedy" in names else 0
    name = st.selectbox(f"{side.capitalize()} bot", names, index=default, key=f"sim_{side}_bot",
                        help=BOTS[names[default]][0])  # fmt: skip
    caps = {"depth": limits.max_depth, "playouts": limits.max_playouts}
    parts = []
    if name == "engine":  # engine:NAME,key=value,...
        engine = engine_choice(side)
        name = f"engine:{engine}" if engine else "engine"
    kind = name.split(":")[0]
    for p in BOTS[kind][1]:
        key = f"sim_{side}_{kind}_{p.name}"
        if p.kind == "int":
            high = int(min(p.high, caps.get(p.name, p.high)))
            value = st.number_input(f"{p.name}", int(p.low), high, min(int(p.default), high),
                                    key=key, help=p.help)  # fmt: skip
            if value != p.default:
                parts.append(f"{p.name}={int(value)}")
        elif p.kind == "float":
            value = st.number_input(p.name, float(p.low), float(p.high), float(p.default),
                                    key=key, help=p.help)  # fmt: skip
            if value != p.default:
                parts.append(f"{p.name}={value}")
        elif p.kind == "choice":
            value = st.selectbox(p.name, p.choices, index=p.choices.index(p.default), key=key,
                                 help=p.help)  # fmt: skip
            if value != p.default:
                parts.append(f"{p.name}={value}")
        else:
            text = st.text_input(p.name, p.format(p.default), key=key, help=p.help)
            if text.strip() != p.format(p.default):
                parts.append(f"{p.name}={text.strip()}")
    sep = "," if ":" in name else ":"
    return name + (sep + ",".join(parts) if parts else "")


def launch_form(data_dir: Path, limits: Limits) -> None:
    """The launch form; starts a detached batch and reports what happened."""
    with st.container(border=True):
        st.subheader("Launch a batch")
        rules = rules_builder()
        st.markdown("**Bots**")
        left, right = st.columns(2)
        with left:
            red = bot_builder("red", limits)
        with right:
            blue = bot_builder("blue", limits)
        st.markdown("**Games**")
        c = st.columns(3)
        games = c[0].number_input(f"Games per rules (at most {limits.max_games:,})", 1,
                                  limits.max_games, min(200, limits.max_games),
                                  key="sim_games")  # fmt: skip
        seed = c[1].number_input("Seed (empty: random, recorded)", 0, JS_MAX_INT, None,
                                 key="sim_seed", placeholder="random")  # fmt: skip
        workers = c[2].number_input(f"Workers (at most {limits.max_workers})", 1,
                                    limits.max_workers, 1, key="sim_workers")  # fmt: skip
        c = st.columns(3)
        opening = c[0].number_input("Random opening plies", 0, 200, 0, key="sim_opening")
        ply_cap = c[1].number_input("Ply cap (draw after)", 1, 65535, 1000, key="sim_plycap")
        label = c[2].text_input("Label (optional)", key="sim_label")
        swap = st.checkbox("Swap colours: play every opening twice with the bots exchanged "
                           "(games must be even)", key="sim_swap")  # fmt: skip
        if st.button("Launch", type="primary", key="sim_launch"):
            request = LaunchRequest(
                rules=tuple(rules), red=red, blue=blue, games=int(games),
                seed=None if seed is None else int(seed), swap=bool(swap),
                opening_plies=int(opening), ply_cap=int(ply_cap), workers=int(workers),
                label=label.strip() or None,
            )  # fmt: skip
            try:
                ids = launch(data_dir, request, limits)
            except DsqError as exc:
                st.error(f"Not launched: {exc}")
            except OSError as exc:
                st.error(f"Not launched: {exc.strerror or exc}")
            else:
                st.success(
                    f"Launched {len(ids)} batch(es): {', '.join(ids)}. They run in the "
                    "background: you can leave this page, reload it or close the browser."
                )


def _matches(job: JobView, sel: Selection) -> bool:
    if sel.rules and job.rules not in sel.rules:
        return False
    if sel.batches and job.batch_id not in sel.batches:
        return False
    return not sel.bots or job.red in sel.bots or job.blue in sel.bots


def _cancel(data_dir: Path, batch_id: str) -> None:
    try:
        cancel(data_dir, batch_id)
    except DsqError as exc:
        st.session_state["sim_cancel_error"] = str(exc)


def show_job(job: JobView, data_dir: Path) -> None:
    """One batch: status, progress bar, counts, and a cancel button while it runs."""
    with st.container(border=True):
        top = st.columns([6, 1])
        icon = STATUS_ICONS.get(job.status, ":material/help:")
        label = f" · {job.label}" if job.label else ""
        top[0].markdown(
            f"{icon} **{job.status}** · `{job.batch_id}`{label} · `{job.rules}` · "
            f"{short_spec(job.red)} vs {short_spec(job.blue)}"
        )
        if job.active:
            top[1].button("Cancel", key=f"cancel_{job.batch_id}", on_click=_cancel,
                          args=(data_dir, job.batch_id))  # fmt: skip
        c = job.counts
        text = (
            f"{fmt.count(job.games_done)} / {fmt.count(job.games_planned)} games · red "
            f"{c.get('red', 0)} · blue {c.get('blue', 0)} · draws {c.get('draw', 0)}"
        )
        st.progress(job.fraction, text=text)
        if job.error and job.status in ("failed", "cancelled", "interrupted"):
            st.caption(f"{job.error}")


@st.fragment(run_every=2)
def batches_panel(data_dir: Path) -> None:
    """Every batch in the data folder (refreshed every 2 s), newest first.

    A fragment rerun does not pass through ``app.py``'s error handler, so it has its own.
    """
    try:
        _batches_panel(data_dir)
    except Exception as exc:  # noqa: BLE001 - a message, never a traceback
        st.error(f"The list of batches could not be read: {exc}")


def _batches_panel(data_dir: Path) -> None:
    st.subheader("Batches")
    error = st.session_state.pop("sim_cancel_error", None)
    if error:
        st.error(f"Could not cancel: {error}")
    jobs = [j for j in list_jobs(data_dir) if _matches(j, current_selection())]
    if not jobs:
        st.info("No batches yet (or none match the filters in the sidebar).")
        return
    running = [j for j in jobs if j.active]
    st.caption(
        f"{len(running)} running · {len(jobs)} in all · results appear on the other pages "
        "as each part of a batch is written."
    )
    show_all = st.toggle("Show all batches", key="sim_show_all") if len(jobs) > SHOWN_BATCHES \
        else True  # fmt: skip
    for job in jobs if show_all else jobs[:SHOWN_BATCHES]:
        show_job(job, data_dir)


st.title("Simulate")
st.caption(
    "Launch bot-vs-bot games in the background (`dsq simulate`, detached) and follow them; "
    "a reload or another browser tab shows the same batches."
)
settings = load_settings()
form, panel = st.columns([1, 1])
with form:
    launch_form(settings.data_dir, settings.limits)
with panel:
    batches_panel(settings.data_dir)
