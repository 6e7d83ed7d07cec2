"""Playing games: the referee (one game between two bots, :mod:`~sim.play.referee`, its
stepwise loop in :mod:`~sim.play.stepwise`) and the columnar fast path for many games
between fast bots (:mod:`~sim.play.columnar`)."""
