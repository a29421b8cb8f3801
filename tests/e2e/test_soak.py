"""A short night at the tables (bench/soak.py with a few hundred interactions): on SQLite and on
PostgreSQL, every interaction answered, no error or traceback in the bot's log, and the roll log
exactly what was answered as a roll. The full 20,000, with its memory figures, is the bench's:
`nice -n 10 .venv/bin/python -m bench.soak [--postgresql]`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench.soak import Report, soak

pytestmark = pytest.mark.e2e

COUNT = int(os.environ.get("WIRE_E2E_SOAK", 400))


def assert_clean(report: Report) -> None:
    text = "\n".join(report.lines())
    assert report.interactions >= COUNT, text
    assert report.unanswered == 0, text
    assert report.errors == 0, text
    assert report.roll_log_equal and report.rolls_logged > COUNT // 5, text
    # The whole mix was played, not one kind of interaction only.
    assert {"check", "again", "attack", "defend", "fight", "sheet", "history", "import"} <= set(
        report.kinds
    ), text


async def test_a_short_soak_on_sqlite(tmp_path: Path) -> None:
    assert_clean(await soak(tmp_path / "wire.db", COUNT, 4, tmp_path))


async def test_a_short_soak_on_postgresql(tmp_path: Path, postgres_database: str) -> None:
    assert_clean(await soak(postgres_database, COUNT, 4, tmp_path))
