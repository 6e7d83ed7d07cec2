"""Simulate: launch a batch as a detached ``dsq simulate`` and watch every batch on disk."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dashboard.builders import bot_builder, rules_builder
from dashboard.common import sample_note
from dashboard.filters import current_selection
from dashboard.i18n import counted
from dashboard.job_list import JobView, job_speed, list_jobs
from dashboard.jobs import LaunchRequest, cancel, launch, resume
from dashboard.lang import error_text, labels, nf, side, t
from dashboard.settings import Limits, load_settings
from dashboard.urlstate import keep
from engine import PRESETS
from engine.errors import DsqError
from sim.batch.progress import fmt_eta
from sim.bots.spec import short_spec
from sim.core.batchspec import MAX_OPENING_PLIES, MAX_PLY_CAP
from sim.core.seeds import MAX_SEED
from sim.stats.query import Selection
from sim.storage.paths import dsq_line

STATUS_ICONS = {
    "starting": ":material/hourglass_top:",
    "queued": ":material/hourglass_top:",
    "running": ":material/directions_run:",
    "done": ":material/check_circle:",
    "failed": ":material/error:",
    "cancelled": ":material/cancel:",
    "interrupted": ":material/warning:",
    "unreadable": ":material/report:",
}
SHOWN_BATCHES = 15
JS_MAX_INT = min(MAX_SEED, 2**53 - 1)  # the browser holds numbers as doubles


def rules_choice() -> list[str]:
    """The built rules spec, then the presets to play the same games under as well."""
    st.markdown(f"**{t('simulate.rules')}**")
    spec = rules_builder("sim")
    others = [p for p in PRESETS if p != spec]
    keep("sim_also", "list", options=others)
    also = st.multiselect(
        t("simulate.also"),
        others,
        key="sim_also",
        placeholder=t("simulate.no_other_rules"),
        format_func=labels("rules.preset_"),
    )
    return [spec, *also]


def keep_settings(limits: Limits) -> None:
    """The launch settings the URL keeps (declared before they are drawn)."""
    keep("sim_games", "int", default=min(200, limits.max_games), low=1, high=limits.max_games)
    keep("sim_seed", "int", low=0, high=JS_MAX_INT)
    keep("sim_workers", "int", default=1, low=1, high=limits.max_workers)
    keep("sim_opening", "int", default=0, low=0, high=MAX_OPENING_PLIES)
    keep("sim_plycap", "int", default=1000, low=1, high=MAX_PLY_CAP)
    keep("sim_label", "str", default="", valid=lambda s: len(s) <= 200)
    keep("sim_swap", "bool", default=False)
    keep("sim_outcomes", "bool", default=False)


def launch_form(data_dir: Path, limits: Limits) -> None:
    """The launch form; starts a detached batch and reports what happened."""
    n = nf()
    with st.container(border=True):
        st.subheader(t("simulate.launch_title"))
        rules = rules_choice()
        st.markdown(f"**{t('simulate.bots')}**")
        left, right = st.columns(2)
        with left:
            red = bot_builder("sim_red", t("simulate.bot_of", side=side("red")), limits, "random")
        with right:
            blue = bot_builder(
                "sim_blue", t("simulate.bot_of", side=side("blue")), limits, "greedy"
            )
        st.markdown(f"**{t('simulate.games')}**")
        keep_settings(limits)
        c = st.columns(3)
        games = c[0].number_input(
            t("simulate.games_per_rules", limit=n.count(limits.max_games)),
            1,
            limits.max_games,
            min(200, limits.max_games),
            key="sim_games",
        )
        seed = c[1].number_input(
            t("simulate.seed"),
            0,
            JS_MAX_INT,
            None,
            key="sim_seed",
            placeholder=t("simulate.seed_random"),
        )
        workers = c[2].number_input(
            t("simulate.workers", limit=limits.max_workers),
            1,
            limits.max_workers,
            1,
            key="sim_workers",
        )
        c = st.columns(3)
        opening = c[0].number_input(
            t("simulate.opening"), 0, MAX_OPENING_PLIES, 0, key="sim_opening"
        )
        ply_cap = c[1].number_input(t("simulate.ply_cap"), 1, MAX_PLY_CAP, 1000, key="sim_plycap")
        label = c[2].text_input(t("simulate.label"), key="sim_label")
        swap = st.checkbox(t("simulate.swap"), key="sim_swap")
        outcomes = st.checkbox(
            t("simulate.outcomes"), key="sim_outcomes", help=t("simulate.outcomes_help")
        )
        if st.button(t("simulate.launch"), type="primary", key="sim_launch"):
            request = LaunchRequest(
                rules=tuple(rules),
                red=red,
                blue=blue,
                games=int(games),
                seed=None if seed is None else int(seed),
                swap=bool(swap),
                opening_plies=int(opening),
                ply_cap=int(ply_cap),
                workers=int(workers),
                label=label.strip() or None,
                record="outcomes" if outcomes else "moves",
            )
            try:
                ids = launch(data_dir, request, limits)
            except DsqError as exc:
                st.error(t("simulate.not_launched", detail=error_text(exc)))
            except OSError as exc:
                st.error(t("simulate.not_launched", detail=exc.strerror or exc))
            else:
                st.success(t(counted("simulate.launched", len(ids)), count=n.count(len(ids)),
                             ids=", ".join(ids)))  # fmt: skip


def _matches(job: JobView, sel: Selection) -> bool:
    if sel.rules and job.rules not in sel.rules:
        return False
    if sel.batches and job.batch_id not in sel.batches:
        return False
    return sel.names(job.red) or sel.names(job.blue)


def _cancel(data_dir: Path, batch_id: str) -> None:
    try:
        cancel(data_dir, batch_id)
    except DsqError as exc:
        st.session_state["sim_cancel_error"] = t("simulate.cancel_failed", detail=error_text(exc))


def _resume(data_dir: Path, batch_id: str) -> None:
    try:
        resume(data_dir, batch_id, load_settings().limits)
    except DsqError as exc:
        st.session_state["sim_cancel_error"] = t("simulate.resume_failed", detail=error_text(exc))


def show_job(job: JobView, data_dir: Path) -> None:
    """One batch: status, progress bar, counts, a cancel button while it runs and a resume
    button once it stopped before its end."""
    n = nf()
    with st.container(border=True):
        # The button takes its label's width (a narrow column cut "Cancel" to "Ca…").
        top = st.container(horizontal=True, vertical_alignment="center")
        icon = STATUS_ICONS.get(job.status, ":material/help:")
        label = f" · {job.label}" if job.label else ""
        status = t(f"status.{job.status}") if job.status in STATUS_ICONS else job.status
        top.markdown(
            f"{icon} **{status}** · `{job.batch_id}`{label} · `{job.rules}` · "
            + t("simulate.versus", red=short_spec(job.red), blue=short_spec(job.blue))
        )
        if job.active:
            top.button(
                t("simulate.cancel"),
                key=f"cancel_{job.batch_id}",
                on_click=_cancel,
                args=(data_dir, job.batch_id),
                width="content",
            )
        elif job.resumable:
            again = dsq_line("simulate", "--resume", job.batch_id, data=data_dir, always=True)
            top.button(
                t("simulate.resume"),
                key=f"resume_{job.batch_id}",
                on_click=_resume,
                args=(data_dir, job.batch_id),
                icon=":material/play_arrow:",
                help=t("simulate.resume_help", command=again),
                width="content",
            )
        c = job.counts
        text = t(
            "simulate.progress",
            done=n.count(job.games_done),
            planned=n.count(job.games_planned),
            red=n.count(c.get("red", 0)),
            blue=n.count(c.get("blue", 0)),
            draw=n.count(c.get("draw", 0)),
        )
        st.progress(job.fraction, text=text)
        if job.status == "running":
            speed = job_speed(job)
            if speed is None:
                st.caption(t("simulate.rate_unknown"))
            else:
                rate, eta = speed
                digits = 1 if rate >= 1 else 2 if rate >= 0.1 else 3  # slow bots: 0.042/s
                st.caption(t("simulate.rate", rate=n.num(rate, digits), eta=fmt_eta(eta)))
        if job.error and job.status in ("failed", "cancelled", "interrupted", "unreadable"):
            st.caption(f"{job.error}")


@st.fragment(run_every=2)
def batches_panel(data_dir: Path) -> None:
    """Every batch in the data folder (refreshed every 2 s), newest first.

    A fragment rerun does not pass through ``app.py``'s error handler, so it has its own.
    """
    try:
        _batches_panel(data_dir)
    except Exception as exc:  # noqa: BLE001 - a message, never a traceback
        st.error(t("simulate.list_failed", detail=error_text(exc)))


def _batches_panel(data_dir: Path) -> None:
    st.subheader(t("simulate.batches"))
    error = st.session_state.pop("sim_cancel_error", None)
    if error:  # a failed cancel or resume
        st.error(error)
    listed = [j for j in list_jobs(data_dir) if _matches(j, current_selection())]
    jobs = [j for j in listed if not j.played_by_person]  # games, not batches to follow
    saves = len(listed) - len(jobs)
    n = nf()
    if saves:
        st.caption(t(counted("simulate.play_saves", saves), count=n.count(saves)))
    if not jobs:
        st.info(t("simulate.no_batches"))
        return
    running = [j for j in jobs if j.active]
    st.caption(t("simulate.batches_caption", running=n.count(len(running)),
                 total=n.count(len(jobs))))  # fmt: skip
    keep("sim_show_all", "bool", default=False)
    show_all = (
        st.toggle(t("simulate.show_all"), key="sim_show_all") if len(jobs) > SHOWN_BATCHES else True
    )
    for job in jobs if show_all else jobs[:SHOWN_BATCHES]:
        show_job(job, data_dir)


st.title(t("simulate.title"))
st.caption(t("simulate.caption"))
settings = load_settings()
sample_note(settings.data_dir)
form, panel = st.columns([1, 1])
with form:
    launch_form(settings.data_dir, settings.limits)
with panel:
    batches_panel(settings.data_dir)
