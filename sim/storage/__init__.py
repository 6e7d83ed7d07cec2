"""The dataset on disk: the data folder's layout, the parquet schema of a game, the one
reader (a DuckDB view), atomic writing, the batch records and the summaries."""
