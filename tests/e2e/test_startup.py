"""Starting the real bot.py as a user does: missing or refused tokens, the invite link."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import REPO_ROOT

BOT = REPO_ROOT / "bot.py"


def run_bot(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    """bot.py in a folder without a .env, so only `env` configures it."""
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "WIRE_DEV_GUILD")}
    return subprocess.run(
        [sys.executable, str(BOT), *args],
        env={**clean, "PYTHONPATH": str(REPO_ROOT), **env},
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_no_token_is_one_clear_line_and_exit_1(tmp_path):
    result = run_bot([], {"DISCORD_TOKEN": ""}, tmp_path)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "DISCORD_TOKEN is not set" in lines[0]
    assert "python -m wire" in lines[0]
    assert "Traceback" not in result.stderr


def test_invite_link_has_both_scopes_and_least_permissions(tmp_path):
    client_id = 123456789012345678
    token = base64.b64encode(str(client_id).encode()).decode().rstrip("=") + ".abc.def"
    result = run_bot(["--invite"], {"DISCORD_TOKEN": token}, tmp_path)
    assert result.returncode == 0
    link = result.stdout.strip()
    assert f"client_id={client_id}" in link
    assert "scope=bot+applications.commands" in link
    # View Channel + Send Messages + Embed Links + Manage Webhooks (1024 + 2048 + 16384 + 2**29),
    # and for sessions Manage Events + Create Public Threads + Send Messages in Threads
    # (2**33 + 2**35 + 2**38)
    assert f"permissions={536890368 + 2**33 + 2**35 + 2**38}" in link
    assert token not in result.stdout + result.stderr


@pytest.mark.e2e
async def test_a_refused_token_is_one_line_exit_1_and_never_printed(standin, launch_bot, tmp_path):
    wrong = "definitely.not.thetoken"
    process = await launch_bot(
        BOT, env={"DISCORD_TOKEN": wrong, "WIRE_DATABASE": str(tmp_path / "wire.db")}
    )
    code = await process.wait(20.0)
    output = process.output()
    assert code == 1, output
    assert "Discord refused the token" in output
    assert wrong not in output
    assert "Traceback" not in output


def test_no_way_to_discord_is_one_clear_line_and_exit_1(tmp_path):
    """A token but no network (here: Discord's REST base at a port nothing listens on) ends in
    one line saying what to check, not aiohttp's traceback."""
    import socket

    with socket.socket() as probe:  # a free port, closed again: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.abc.def"
    launcher = REPO_ROOT / "tests" / "e2e" / "launcher.py"
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "WIRE_DEV_GUILD")}
    result = subprocess.run(
        [
            sys.executable,
            str(launcher),
            "--base",
            f"http://127.0.0.1:{port}/api/v10",
            "--gateway",
            f"ws://127.0.0.1:{port}",
        ],
        env={
            **clean,
            "PYTHONPATH": str(REPO_ROOT),
            "DISCORD_TOKEN": token,
            "WIRE_DATABASE": str(tmp_path / "wire.db"),
        },
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert f"Could not reach Discord at 127.0.0.1:{port}" in result.stderr
    assert token not in result.stdout + result.stderr
