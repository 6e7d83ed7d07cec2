"""A game with a person at the board (the Play page and ``dsq play``): what it is before it
starts (:mod:`~sim.interactive.setup`), the game move by move
(:mod:`~sim.interactive.session`), what it tells of its board, the moves the anti-chasing
rules forbid too (:mod:`~sim.interactive.board_queries`), how it stops besides the rules
(:mod:`~sim.interactive.stops`) and draw offers (:mod:`~sim.interactive.agreement`)."""
