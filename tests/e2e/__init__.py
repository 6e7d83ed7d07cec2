"""Helpers for the dashboard tests: a small real dataset and a real ``streamlit run`` server."""
