"""Tournaments (``dsq tournament``, docs/tournaments.md): round robin, gauntlet and Swiss
over several bots, each pairing played as an ordinary colour-swapped batch.

``plan`` (what a tournament plays, its file ``DATA/tournaments/ID.json``), ``pairing``
(who meets whom, the Swiss rule), ``run`` (rounds of batches, resumable) and ``report``
(cross table, ratings, pentanomial, forfeits, first move) with its text in ``text``.
"""
