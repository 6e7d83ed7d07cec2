"""Endgame tables: exact values of every position with few animals, for any rule set
(docs/tablebases.md).

- :mod:`sim.tablebase.material`: materials (``LR v e``) and the index of their positions;
- :mod:`sim.tablebase.outcomes`: the one-byte value of a position;
- :mod:`sim.tablebase.kernels`: the compiled builder's first pass;
- :mod:`sim.tablebase.levels`: the compiled builder's backward propagation;
- :mod:`sim.tablebase.table_passes`: compiled checks and counts over a finished table;
- :mod:`sim.tablebase.game_scans`: compiled scans of recorded games;
- :mod:`sim.tablebase.build`: retrograde analysis and the build plan;
- :mod:`sim.tablebase.store`: where tables live, their files, loading them;
- :mod:`sim.tablebase.probe`: values and best moves of positions;
- :mod:`sim.tablebase.analysis`: stats, verification, per-square shares;
- :mod:`sim.tablebase.advice`: what the bots take from the tables;
- :mod:`sim.tablebase.adjudicate`: ending simulated games by the tables.

Importing this package loads nothing heavy; import the module you need.
"""
