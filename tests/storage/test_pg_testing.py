"""The throwaway PostgreSQL cluster: skipped with a reason where PostgreSQL is missing (failed in
CI), and gone without a trace when the session ends."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from storage.pg_testing import PostgresCluster, find_postgres_bindir, postgres_unavailable

ROOT = Path(__file__).resolve().parents[2]

CONFTEST = """
import storage.pg_testing

storage.pg_testing.find_postgres_bindir = lambda: None  # a machine without PostgreSQL
pytest_plugins = ["storage.pg_testing"]
"""

TESTS = """
def test_one(postgres_database):
    pass

def test_two(postgres_dsn):
    pass

def test_without_postgres():
    pass
"""


def _run_pytest(folder: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    (folder / "conftest.py").write_text(CONFTEST)
    (folder / "test_needs_postgres.py").write_text(TESTS)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["PYTHONPATH"] = str(ROOT)
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rN", str(folder)],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_without_postgresql_the_tests_skip_and_the_summary_says_why(tmp_path: Path) -> None:
    done = _run_pytest(tmp_path, ci=None)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed, 2 skipped" in done.stdout
    assert "2 PostgreSQL test(s) skipped: no pg_ctl" in done.stdout


def test_in_ci_missing_postgresql_is_a_failure(tmp_path: Path) -> None:
    done = _run_pytest(tmp_path, ci="true")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "2 errors" in done.stdout
    assert "PostgreSQL is required in CI" in done.stdout


def test_the_cluster_leaves_nothing_behind() -> None:
    bindir = find_postgres_bindir()
    if bindir is None:
        postgres_unavailable("not installed")
        return
    cluster = PostgresCluster(bindir)
    cluster.start()
    folder, port = cluster.folder, cluster.port
    assert folder is not None and (folder / "data" / "PG_VERSION").is_file()
    cluster.stop()
    assert not folder.exists()
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0  # nobody listens any more
