"""Declarations the rest of ``sim`` shares, on the standard library and ``engine`` only:
what a batch plays (:mod:`~sim.core.batchspec`), the seeds and colours of its games
(:mod:`~sim.core.seeds`), adjudication by scores (:mod:`~sim.core.adjudication`), time
controls (:mod:`~sim.core.timecontrol`) and the running tally of a batch's games
(:mod:`~sim.core.tally`)."""
