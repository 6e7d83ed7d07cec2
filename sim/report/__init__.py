"""How figures are written for people: number formatting and the text and JSON renderings
of the statistics, shared by the CLI and the dashboard."""
