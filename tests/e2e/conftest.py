"""Fixtures for end-to-end tests: a running stand-in and bot processes launched against it.

A bot runs as a real subprocess (through ``launcher.py``), so that its event loop, signal
handling and exit code are the production ones.  Its stdout and stderr go to a file under the
test's tmp_path; when a test fails, every bot log of that test is attached to the report.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

import pytest

from .standin import Fakecord

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
LAUNCHER = HERE / "launcher.py"
BAREBOT = HERE / "barebot.py"

T = TypeVar("T")
_LOGS = pytest.StashKey[list["BotProcess"]]()


class BotProcess:
    """A bot subprocess running against the stand-in, with its output captured to a file."""

    def __init__(self, proc: asyncio.subprocess.Process, log_path: Path, name: str) -> None:
        self.proc = proc
        self.log_path = log_path
        self.name = name

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    def output(self) -> str:
        """Everything the bot printed so far (stdout and stderr interleaved)."""
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    async def wait(self, timeout: float) -> int:
        """Wait for the process to exit; fail with its output if it does not."""
        try:
            return await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            raise AssertionError(
                f"{self.name} did not exit within {timeout}s\n{self.output()[-4000:]}"
            ) from None

    async def until(self, awaitable: Awaitable[T], timeout: float = 15.0) -> T:
        """Await ``awaitable`` (e.g. ``standin.wait_ready()``), but fail at once, with the bot's
        output, if the bot exits first: a crashed bot should not cost a full timeout."""
        task = asyncio.ensure_future(awaitable)
        exited = asyncio.ensure_future(self.proc.wait())
        try:
            done, _ = await asyncio.wait(
                {task, exited}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            exited.cancel()
        if task in done:
            try:
                return task.result()
            except AssertionError as exc:
                raise AssertionError(
                    f"{exc}\n{self.name} output:\n{self.output()[-4000:]}"
                ) from None
        task.cancel()
        if exited in done:
            raise AssertionError(
                f"{self.name} exited with code {self.proc.returncode} before that happened\n"
                f"{self.output()[-4000:]}"
            )
        raise AssertionError(f"timed out after {timeout}s\n{self.output()[-4000:]}")

    async def terminate(self, timeout: float = 5.0) -> int:
        """SIGTERM, then wait; returns the exit code."""
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
        return await self.wait(timeout)

    async def kill(self) -> None:
        """Last resort in teardown: SIGKILL this process (only this one) and reap it."""
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.proc.wait(), 5)


LaunchBot = Callable[..., Awaitable[BotProcess]]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Attach the captured output of the test's bot processes to a failing report."""
    report = yield
    if report.failed:
        for bot in item.stash.get(_LOGS, []):
            report.sections.append((f"bot output: {bot.name} ({bot.log_path})", bot.output()))
    return report


@pytest.fixture
async def standin(request: pytest.FixtureRequest) -> AsyncIterator[Fakecord]:
    """A started stand-in on a free port of 127.0.0.1, stopped after the test.

    ``@pytest.mark.parametrize("standin", [{"shard_count": 2, ...}], indirect=True)`` passes
    keyword arguments to ``Fakecord``.
    """
    fake = Fakecord(**getattr(request, "param", {}))
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


@pytest.fixture
async def launch_bot(
    request: pytest.FixtureRequest, standin: Fakecord, tmp_path: Path
) -> AsyncIterator[LaunchBot]:
    """A factory that starts a bot entry point through the launcher against ``standin``.

    ``await launch_bot(bot=BAREBOT, env={...}, args=[...])``; every process started is
    terminated (SIGTERM, then SIGKILL) after the test.
    """
    started: list[BotProcess] = []
    request.node.stash[_LOGS] = started

    async def launch(
        bot: Path = BAREBOT,
        *,
        env: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
        name: str | None = None,
    ) -> BotProcess:
        name = name or bot.stem
        log_path = tmp_path / f"{name}-{len(started)}.log"
        full_env = {
            **os.environ,
            "DISCORD_TOKEN": standin.token,
            "WIRE_DEV_GUILD": str(standin.guilds[0].id),
            "PYTHONUNBUFFERED": "1",
            "LOG_LEVEL": "INFO",
            **(env or {}),
        }
        with log_path.open("wb") as out:
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                str(LAUNCHER),
                "--base",
                standin.base_url,
                "--gateway",
                standin.gateway_url,
                "--bot",
                str(bot),
                "--",
                *args,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=asyncio.subprocess.STDOUT,
                env=full_env,
                cwd=str(REPO_ROOT),
            )
        process = BotProcess(proc, log_path, name)
        started.append(process)
        return process

    try:
        yield launch
    finally:
        for process in started:
            if process.returncode is None:
                with contextlib.suppress(AssertionError):
                    await process.terminate(timeout=5.0)
            await process.kill()


@pytest.fixture
async def barebot(standin: Fakecord, launch_bot: LaunchBot) -> BotProcess:
    """The bare bot, logged in, its commands synced to the test guild, its gateway READY."""
    process = await launch_bot(BAREBOT)
    await process.until(standin.wait_synced(15.0, guild_id=standin.guilds[0].id))
    await process.until(standin.wait_ready(15.0))
    return process
