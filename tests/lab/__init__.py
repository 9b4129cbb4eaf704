"""Tests of the balance lab."""
