"""Measurements behind ``dsq bench``."""
