"""Tests of the rules engine, named after the rules and rulings."""
