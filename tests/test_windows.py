"""What the bot needs of the operating system, checked for Windows without Windows.

docs/hosting.md says the bot runs on Windows with the same commands. CI has no Windows, so the
two ways a POSIX-only call would stop the bot there are simulated: the modules Windows lacks
(resource, fcntl, pwd, grp, termios) are made unimportable in a fresh interpreter, and an event
loop that refuses signal handlers, as Windows' ProactorEventLoop does.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import bot
from storage import faults

ROOT = Path(__file__).resolve().parents[1]

POSIX_ONLY = ("resource", "fcntl", "pwd", "grp", "termios")

IMPORT_EVERYTHING = f"""
import importlib, pkgutil, sys
for name in {POSIX_ONLY!r}:
    sys.modules[name] = None  # what `import name` finds on Windows: ImportError
import bot
failed = []
for package in ("cogs", "storage", "wire"):
    root = importlib.import_module(package)
    for info in pkgutil.walk_packages(root.__path__, package + "."):
        if info.name.endswith("__main__") or info.name in {{"storage.pg_testing"}}:
            continue  # __main__ runs a CLI; pg_testing starts test clusters as a POSIX user
        try:
            importlib.import_module(info.name)
        except ImportError as exc:
            failed.append(f"{{info.name}}: {{exc}}")
print("\\n".join(failed) or "all imported")
"""


def test_the_bot_and_its_packages_import_without_posix_only_modules():
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_EVERYTHING],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "all imported"


class WindowsLoop(asyncio.SelectorEventLoop):
    def add_signal_handler(self, sig, callback, *args):
        raise NotImplementedError  # as asyncio's ProactorEventLoop on Windows


def test_a_loop_without_signal_handlers_still_starts_the_bot():
    loop = WindowsLoop()
    try:
        assert bot.close_on_signals(loop, bot=None) is False
    finally:
        loop.close()


def test_a_posix_loop_takes_the_handlers():
    loop = asyncio.new_event_loop()
    try:
        assert bot.close_on_signals(loop, bot=None) is True
    finally:
        for sig in (bot.signal.SIGINT, bot.signal.SIGTERM):
            loop.remove_signal_handler(sig)
        loop.close()


def test_the_full_disk_check_works_without_a_file_size_limit(monkeypatch, tmp_path):
    """Windows has no RLIMIT_FSIZE: the check reads only the free space there."""
    monkeypatch.setattr(faults, "resource", None)
    assert faults.no_room(tmp_path / "wire.db") is False
