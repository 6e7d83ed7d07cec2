"""Opening suites (docs/openings.md): the file format and the suite a batch plays in turn
(:mod:`~sim.openings.suite`), and suites built from the lab's own games
(:mod:`~sim.openings.build`)."""
