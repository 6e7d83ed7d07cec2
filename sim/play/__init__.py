"""Playing games: the referee (one game between two bots), the columnar fast path for
many games between fast bots, and the seeds each game derives from its batch."""
