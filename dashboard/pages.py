"""The dashboard's pages: their scripts, titles, icons and addresses."""

from __future__ import annotations

from pathlib import Path

# Not "pages/": that folder name switches Streamlit to its older directory-based navigation.
PAGES = Path(__file__).resolve().parent / "views"
# (script, catalogue key of its title, icon, url path); the first is the default page.
PAGE_LIST = (
    ("overview.py", "nav.overview", ":material/monitoring:", ""),
    ("compare.py", "nav.compare", ":material/compare_arrows:", "compare"),
    ("bots.py", "nav.bots", ":material/smart_toy:", "bots"),
    ("games.py", "nav.games", ":material/replay:", "games"),
    ("endgames.py", "nav.endgames", ":material/flag:", "endgames"),
    ("play.py", "nav.play", ":material/sports_esports:", "play"),
    ("simulate.py", "nav.simulate", ":material/play_circle:", "simulate"),
    ("studies.py", "nav.studies", ":material/science:", "studies"),
)
