"""A throwaway PostgreSQL cluster for the server's tests: Debian's postgresql 15 (``make test``
installs it), ``initdb`` into a temporary folder and ``pg_ctl`` on a unix socket in it (no TCP
port at all, so nothing but this machine's processes can reach it), fsync off (a test's data
need not survive a power cut). PostgreSQL refuses to run as root, and CI runs as root: then the
cluster runs as the unprivileged ``postgres`` user (``runuser``), its folder given to it."""

from __future__ import annotations

import contextlib
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

BIN = Path("/usr/lib/postgresql/15/bin")
PORT = 5432  # only names the socket file (.s.PGSQL.5432) in the cluster's own folder


class Cluster:
    def __init__(self, folder: Path, prefix: list[str]) -> None:
        self.folder, self.prefix = folder, prefix
        self.data, self.socket = folder / "data", folder / "socket"

    def run(self, *args: str) -> None:
        subprocess.run([*self.prefix, *args], check=True, capture_output=True, timeout=120)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket}&port={PORT}"

    def new_database(self) -> str:
        """A fresh empty database's URL (each test its own: no test sees another's games)."""
        import psycopg

        name = f"t_{secrets.token_hex(6)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def why_not() -> str | None:
    """Why no cluster can be started here (None: it can)."""
    if not (BIN / "initdb").is_file():
        return f"PostgreSQL 15 is not installed ({BIN}/initdb; make test installs it)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run PostgreSQL as"
        if shutil.which("runuser") is None:
            return "running as root and there is no runuser to run PostgreSQL as postgres"
    return None


@contextlib.contextmanager
def cluster() -> Iterator[Cluster]:
    """Start a cluster, yield it, stop it (immediate shutdown) and remove its folder."""
    folder = Path(tempfile.mkdtemp(prefix="rebelspace-pg-"))
    prefix: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    pg = Cluster(folder, prefix)
    try:
        pg.run(str(BIN / "initdb"), "-D", str(pg.data), "-U", "postgres", "--auth=trust", "-E",
               "UTF8", "--no-sync")  # fmt: skip
        pg.run("mkdir", str(pg.socket))
        options = f"-k {pg.socket} -p {PORT} -c listen_addresses='' -c fsync=off"
        log = folder / "server.log"
        pg.run(str(BIN / "pg_ctl"), "-D", str(pg.data), "-o", options, "-l", str(log), "-w",
               "-t", "60", "start")  # fmt: skip
        try:
            yield pg
        finally:
            pg.run(str(BIN / "pg_ctl"), "-D", str(pg.data), "-m", "immediate", "-w", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
