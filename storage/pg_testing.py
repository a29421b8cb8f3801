"""Pytest fixtures for tests on a real PostgreSQL server: a throwaway cluster per test session.

Load with `pytest_plugins = ["storage.pg_testing"]` in the top tests/conftest.py. The cluster is
made by PostgreSQL's own `initdb` in a temporary folder, runs on a free port of 127.0.0.1 with
trust authentication and fsync off, and is removed at the end of the session, also after a
failure. `initdb` refuses to run as root, so as root the cluster is made and run as the
`postgres` user that Debian's package creates.

    async def test_something(postgres_database):       # a fresh, migrated, empty database
        conn = await asyncpg.connect(postgres_database)

Fixtures: `postgres_cluster` (session; the running server), `postgres_dsn` (session; the DSN of
its `postgres` database, for admin work), `postgres_database` (per test; a fresh database with
the current schema, copied from a template migrated once per session) and
`postgres_empty_database` (per test; a fresh database with no schema at all).

Outside pytest (the benchmarks), `with throwaway_cluster() as cluster:` gives the same server.

Without PostgreSQL installed the tests that use these are skipped, and the end of the run says
how many and why; with CI=true in the environment they fail instead, so CI never passes by
skipping them.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import pytest

from storage.postgres_schema import prepare_postgres

SKIP_REASON_PREFIX = "PostgreSQL unavailable: "
"""Every skip for want of PostgreSQL starts with this, so the summary can count them."""

SUPERUSER = "postgres"
TEMPLATE_DATABASE = "wire_template"
START_TIMEOUT_S = 60

T = TypeVar("T")


class ClusterError(RuntimeError):
    """The throwaway cluster could not be made or started; the message says why."""


def find_postgres_bindir() -> Path | None:
    """Where pg_ctl and initdb are: Debian's versioned folder (newest first), PATH, pg_config."""
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"),
        key=lambda path: _version_key(Path(path).parent.name),
        reverse=True,
    )
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(str(Path(on_path).resolve().parent))
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            found = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=True
            ).stdout.strip()
            if found:
                candidates.append(found)
    for candidate in candidates:
        folder = Path(candidate)
        if (folder / "pg_ctl").is_file() and (folder / "initdb").is_file():
            return folder
    return None


def _version_key(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in name.split(".") if part.isdigit()) or (0,)


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on right now (the server may still lose a race)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run_async(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to the end from synchronous code, even inside a running event loop.

    The fixtures that create and drop databases are synchronous (they serve sync and async
    tests alike), so their asyncpg calls get a loop of their own in a worker thread.
    """
    with ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(lambda: asyncio.run(make())).result()


class PostgresCluster:
    """A PostgreSQL server of our own in a temporary folder; `stop()` removes every trace."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.folder: Path | None = None
        self.port = 0
        self._run_as: list[str] = []
        self._owner: tuple[int, int] | None = None
        self._names = itertools.count(1)

    @property
    def data_dir(self) -> Path:
        assert self.folder is not None
        return self.folder / "data"

    @property
    def socket_dir(self) -> Path:
        assert self.folder is not None
        return self.folder / "socket"

    @property
    def log_file(self) -> Path:
        assert self.folder is not None
        return self.folder / "server.log"

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        """initdb, then start the server; on any failure leave nothing behind."""
        try:
            self._make_folder()
            self._initdb()
            for attempt in range(3):
                self.port = free_port()
                try:
                    self._pg_ctl_start()
                    return
                except ClusterError:
                    if attempt == 2 or "could not bind" not in self._log_tail():
                        raise
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Stop the server at once (its data is thrown away) and remove the folder."""
        if self.folder is None:
            return
        try:
            if (self.data_dir / "postmaster.pid").exists():
                try:
                    self._tool("pg_ctl", "stop", "-D", str(self.data_dir), "-m", "immediate", "-w")
                except ClusterError:
                    self._kill_postmaster()
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def restart(self) -> None:
        """A fast restart, as for an upgrade: the server ends every connection, then starts
        again on the same port with the same data."""
        self._tool(
            "pg_ctl",
            *("restart", "-D", str(self.data_dir), "-m", "fast", "-w"),
            *("-t", str(START_TIMEOUT_S), "-l", str(self.log_file)),
        )

    def pause(self) -> None:
        """Stop the server (fast: every connection ended), keeping its data; `resume()`."""
        self._tool("pg_ctl", "stop", "-D", str(self.data_dir), "-m", "fast", "-w")

    def resume(self) -> None:
        """Start a paused server again on the same port."""
        self._pg_ctl_start()

    def create_database(self, name: str, template: str = "template0") -> str:
        """A new database copied from `template`; returns its DSN."""

        async def create() -> None:
            conn = await asyncpg.connect(self.dsn())
            try:
                await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
            finally:
                await conn.close()

        run_async(create)
        return self.dsn(name)

    def drop_database(self, name: str) -> None:
        """Drop a database even while a forgotten connection still uses it."""

        async def drop() -> None:
            conn = await asyncpg.connect(self.dsn())
            try:
                await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            finally:
                await conn.close()

        run_async(drop)

    def new_database_name(self, prefix: str = "wire_test") -> str:
        return f"{prefix}_{os.getpid()}_{next(self._names)}"

    # ---- internals --------------------------------------------------------------------------

    def _make_folder(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="wire-pg-"))
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam(SUPERUSER)
            except KeyError:
                raise ClusterError(
                    f"running as root, and there is no {SUPERUSER!r} user to run initdb as"
                ) from None
            self._owner = (user.pw_uid, user.pw_gid)
            os.chown(self.folder, *self._owner)
            runuser = shutil.which("runuser")
            self._run_as = (
                [runuser, "-u", SUPERUSER, "--"] if runuser else ["su", SUPERUSER, "-s", "/bin/sh"]
            )
        self.socket_dir.mkdir()
        if self._owner:
            os.chown(self.socket_dir, *self._owner)

    def _initdb(self) -> None:
        self._tool(
            "initdb",
            *("-D", str(self.data_dir), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8"),
            *("--no-locale", "--no-sync", "--no-instructions"),
        )

    def _pg_ctl_start(self) -> None:
        options = " ".join(
            [
                "-c listen_addresses=127.0.0.1",
                f"-p {self.port}",
                f"-k {self.socket_dir}",
                # Throwaway data: durability costs time and buys nothing here.
                "-c fsync=off",
                "-c synchronous_commit=off",
                "-c full_page_writes=off",
                "-c max_connections=200",
            ]
        )
        self._tool(
            "pg_ctl",
            *("start", "-D", str(self.data_dir), "-w", "-t", str(START_TIMEOUT_S)),
            *("-l", str(self.log_file), "-o", options),
        )

    def _tool(self, program: str, *args: str) -> None:
        """Run one of PostgreSQL's programs as the cluster's owner; ClusterError if it fails."""
        what = f"{program} {args[0]}" if program == "pg_ctl" else program
        command = [str(self.bindir / program), *args]
        if self._run_as and self._run_as[0] == "su":
            command = [*self._run_as, "-c", " ".join(_quote(word) for word in command)]
        else:
            command = [*self._run_as, *command]
        try:
            done = subprocess.run(
                command,
                capture_output=True,
                text=True,
                timeout=START_TIMEOUT_S + 30,
                cwd=self.folder,
                stdin=subprocess.DEVNULL,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ClusterError(f"{what} failed: {exc}") from exc
        if done.returncode != 0:
            output = (done.stderr or done.stdout).strip().splitlines()[-5:]
            log = self._log_tail()
            raise ClusterError(
                f"{what} failed (exit {done.returncode}): {' / '.join(output)}"
                + (f"; server log: {log}" if log else "")
            )

    def _log_tail(self) -> str:
        try:
            lines = self.log_file.read_text(errors="replace").strip().splitlines()
        except OSError:
            return ""
        return " / ".join(lines[-5:])

    def _kill_postmaster(self) -> None:
        with contextlib.suppress(OSError, ValueError, IndexError):
            pid = int((self.data_dir / "postmaster.pid").read_text().splitlines()[0])
            os.kill(pid, signal.SIGKILL)


NO_BINDIR = (
    "no pg_ctl in /usr/lib/postgresql/*/bin, on PATH or from pg_config --bindir "
    "(Debian: apt-get install postgresql)"
)


@contextlib.contextmanager
def throwaway_cluster() -> Iterator[PostgresCluster]:
    """A running throwaway server, stopped and removed when the block ends; ClusterError
    (with the reason) if PostgreSQL is not installed or the server does not start."""
    bindir = find_postgres_bindir()
    if bindir is None:
        raise ClusterError(NO_BINDIR)
    cluster = PostgresCluster(bindir)
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


def _quote(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def postgres_unavailable(reason: str) -> None:
    """Skip the test for want of PostgreSQL, or fail it in CI (CI=true), where that is a bug."""
    if os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}:
        pytest.fail(f"PostgreSQL is required in CI (CI=true): {reason}", pytrace=False)
    pytest.skip(SKIP_REASON_PREFIX + reason)


# ---- fixtures --------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """A running throwaway PostgreSQL server for the whole session, removed at its end."""
    if find_postgres_bindir() is None:
        postgres_unavailable(NO_BINDIR)
        return
    with contextlib.ExitStack() as stack:
        try:
            cluster = stack.enter_context(throwaway_cluster())
        except ClusterError as exc:
            postgres_unavailable(f"the throwaway cluster did not start: {exc}")
            return
        yield cluster


@pytest.fixture(scope="session")
def postgres_dsn(postgres_cluster: PostgresCluster) -> str:
    """The DSN of the throwaway server's `postgres` database (a superuser, no password)."""
    return postgres_cluster.dsn()


@pytest.fixture(scope="session")
def postgres_template(postgres_cluster: PostgresCluster) -> str:
    """A database migrated once per session; `postgres_database` copies it for each test."""
    dsn = postgres_cluster.create_database(TEMPLATE_DATABASE)
    run_async(lambda: prepare_postgres(dsn))
    return TEMPLATE_DATABASE


@pytest.fixture
def postgres_database(postgres_cluster: PostgresCluster, postgres_template: str) -> Iterator[str]:
    """The DSN of a fresh database with the current schema and no rows, dropped after the test."""
    name = postgres_cluster.new_database_name()
    dsn = postgres_cluster.create_database(name, template=postgres_template)
    try:
        yield dsn
    finally:
        postgres_cluster.drop_database(name)


@pytest.fixture
def postgres_empty_database(postgres_cluster: PostgresCluster) -> Iterator[str]:
    """The DSN of a fresh database without any schema, dropped after the test."""
    name = postgres_cluster.new_database_name("wire_empty")
    dsn = postgres_cluster.create_database(name)
    try:
        yield dsn
    finally:
        postgres_cluster.drop_database(name)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say how many tests were skipped for want of PostgreSQL, and why, at the end of the run."""
    reasons: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        text = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else ""
        if SKIP_REASON_PREFIX in text:
            reason = text.split(SKIP_REASON_PREFIX, 1)[1]
            reasons[reason] = reasons.get(reason, 0) + 1
    for reason, count in reasons.items():
        terminalreporter.write_line(
            f"{count} PostgreSQL test(s) skipped: {reason}", yellow=True, bold=True
        )
