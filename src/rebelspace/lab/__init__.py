"""The balance lab: many games between computer players, stored in SQLite, read as statistics.

- ``settings``: what a run is (agents, seed, card changes, rules) and its identity;
- ``play``: one game with its statistics (a ``GameRow``);
- ``store``: the SQLite database, one row per game;
- ``runner``: runs on every core (``multiprocessing``) or on Ray (``ray_runner``), resumable;
- ``stats``: intervals and tests; ``report``: the HTML and JSON report;
- ``studies``: ablation, compare, sweep and suggest, each built from runs.
"""
