"""Rebel Space: a digital two-player sci-fi card game (rules engine, agents, tools)."""

__version__ = "0.1.0"
