"""Statistics over recorded games (pure functions of a DuckDB ``games`` view)."""
