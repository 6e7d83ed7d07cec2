"""dsq's simulations, statistics and studies. Their Python front door is :mod:`sim.api`,
whose names are also ``sim.NAME``, loaded on first use: ``import sim`` (which the ``dsq``
command does on start) loads nothing."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sim.api import *  # noqa: F403

API = frozenset(
    "BatchRecord BotInfo DsqError GameRecord GeneralRow Position Selection StudyReport batches "
    "end_reasons game games lengths list_bots matchups position ratings replay run_study "
    "simulate statistics study_report".split()
)


def __getattr__(name):
    if name not in API:
        raise AttributeError(f"module 'sim' has no attribute {name!r}")
    # lazy: start-up time (the API, and what it names, load on first use)
    from sim import api

    return getattr(api, name)
