"""A disk that fills, and one that goes read-only, for the database fault tests.

As root (the CI container) a test mounts a small tmpfs of its own and fills it with a filler
file, as a VPS's disk fills: every process writing there meets ENOSPC, the bot's included.
Where mounting is not allowed, `FileSizeLimit` stands in for the bot's own process: RLIMIT_FSIZE
caps the size of any file it writes (SQLite gets EFBIG, as it would ENOSPC), with SIGXFSZ
ignored so the write fails instead of killing the process. Each test says which it used.
"""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path


def can_mount() -> bool:
    """Root and a mount program; WIRE_TEST_NO_MOUNT=1 tries the fallback instead."""
    if os.environ.get("WIRE_TEST_NO_MOUNT") == "1":
        return False
    return os.geteuid() == 0 and shutil.which("mount") is not None


@contextlib.contextmanager
def small_tmpfs(folder: Path, size: str = "8m") -> Iterator[Path | None]:
    """`folder` as a tmpfs of `size`, unmounted afterwards; None where mounting is refused."""
    folder.mkdir(parents=True, exist_ok=True)
    if not can_mount():
        yield None
        return
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        yield None
        return
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def remount_read_only(folder: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True, capture_output=True)


class Filler:
    """Fills a mounted disk to the last byte, and frees it again."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "filler.bin"

    def fill(self) -> None:
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            size = 1 << 20
            while size:  # big writes, then smaller ones, down to the last byte
                try:
                    os.write(fd, b"\0" * size)
                except OSError as exc:
                    if exc.errno != errno.ENOSPC:
                        raise
                    size //= 2
        finally:
            os.close(fd)

    def free(self) -> None:
        self.path.unlink(missing_ok=True)


class FileSizeLimit:
    """RLIMIT_FSIZE on this process: no file grows past `limit` bytes while filled."""

    def __init__(self) -> None:
        self._saved = resource.getrlimit(resource.RLIMIT_FSIZE)
        self._handler = signal.getsignal(signal.SIGXFSZ)

    def fill(self, limit: int) -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, self._saved[1]))

    def free(self) -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, self._saved)
        signal.signal(signal.SIGXFSZ, self._handler)
