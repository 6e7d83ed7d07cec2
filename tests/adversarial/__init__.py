"""Adversarial tests: what a careless or hostile user, a crash, a full disk or a damaged
file does to the dataset, the batch records and the command line. Real processes, real
files, real DuckDB and Dask; one test (at least) per way the numbers could go wrong."""
