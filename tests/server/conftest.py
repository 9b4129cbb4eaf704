"""Fixtures of the server tests: an app on a temporary SQLite file and small client helpers."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    # starlette's TestClient warns that its httpx support is deprecated; it still works.
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from rebelspace.server.app import create_app
from tests.server import postgres
from tests.server.server_helpers import FakeTime
from tests.server.server_process import ServerProcess


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "games.sqlite3")


@pytest.fixture
def client(db_path: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_path)) as c:
        yield c


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def timed_client(db_path: str, fake_time: FakeTime) -> Iterator[TestClient]:
    """An app whose clocks and claims run on ``fake_time`` (claims after 60 s)."""
    with TestClient(create_app(db_path, now=fake_time, claim_after=60)) as c:
        yield c


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A real `rebelspace serve` process on a free port, games in a temporary SQLite file."""
    with ServerProcess(tmp_path / "games.sqlite3", tmp_path / "server.log") as proc:
        yield proc


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[postgres.Cluster]:
    """One PostgreSQL cluster for the session (each test takes its own database in it).
    Skipped only when PostgreSQL cannot be started here at all, saying why; a cluster that
    fails to start is an error."""
    reason = postgres.why_not()
    if reason is not None:
        pytest.skip(reason)
    with postgres.cluster() as pg:
        yield pg


@pytest.fixture(params=["sqlite", "postgresql"])
def store_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of each store: a SQLite file, then a PostgreSQL database's URL."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    cluster: postgres.Cluster = request.getfixturevalue("pg_cluster")
    return cluster.new_database()
