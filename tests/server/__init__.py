"""Tests of the game server: the app in-process and a real `rebelspace serve`."""
