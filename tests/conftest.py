"""Shared fixtures: the registry of games is loaded once for the whole suite."""

from deltav.games import load_all

load_all()
