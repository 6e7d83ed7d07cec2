"""Variant studies: a TOML file of rule sets × a ladder of bots, played as ordinary batches
(:mod:`sim.study.run`), and their figures (:mod:`sim.study.metrics`,
:mod:`sim.study.effects`, :mod:`sim.study.report`). See docs/studies.md."""
