"""The game server: REST and WebSocket play over the engine, with a SQLite store.

``rebelspace serve`` runs it (``serve.py``); ``app.create_app`` builds the ASGI app; the
protocol is documented in docs/protocol.md.
"""
