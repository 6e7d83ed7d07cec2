"""Fitting evaluations to recorded games (``dsq tune``): quiet positions and their
labels (:mod:`.positions`), the evaluation as a linear model of their features
(:mod:`.features`), the fit (:mod:`.fit`) and the match that accepts it (:mod:`.accept`)."""
