"""Batches of games: the batch spec, the one driver that plays and records them, the
backends chunks run on (in the driver, a local process pool, a Dask cluster), the chunks
themselves and the progress display."""
