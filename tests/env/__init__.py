"""Tests of the reinforcement-learning environments."""
