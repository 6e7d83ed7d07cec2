"""Game records as people read and write them: the text format (:mod:`~sim.records.gametext`),
exporting selected games (:mod:`~sim.records.gameexport`), importing records
(:mod:`~sim.records.gameimport`), replaying a game (:mod:`~sim.records.replay`), the columns
its moves determine (:mod:`~sim.records.rowreplay`) and a person's game
(:mod:`~sim.records.human`)."""
