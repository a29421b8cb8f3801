"""The dependency locks: what `make` installs is every package at one version with its hashes.

requirements*.in name the direct dependencies; `make lock` resolves each into its *.txt. A lock
that misses a package, a hash or a pin of its *.in would let an install float again.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LOCKS = ("requirements", "requirements-dev", "requirements-bench", "requirements-mutate")
PIN = re.compile(r"^([A-Za-z0-9_.\[\]-]+)==([^\s;\\]+)", re.M)


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", re.sub(r"\[.*\]", "", name)).lower()


def locked(name: str) -> dict[str, str]:
    return {canonical(n): v for n, v in PIN.findall((ROOT / f"{name}.txt").read_text())}


def direct(name: str) -> dict[str, str]:
    """The pins of an .in file and of the .in files it includes (-r)."""
    text = (ROOT / f"{name}.in").read_text()
    pins = {canonical(n): v for n, v in PIN.findall(text)}
    for included in re.findall(r"^-r (\S+)\.in$", text, re.M):
        pins |= direct(included)
    return pins


@pytest.mark.parametrize("name", LOCKS)
def test_every_locked_package_has_a_version_and_hashes(name):
    text = (ROOT / f"{name}.txt").read_text()
    entries = re.split(r"\n(?=[A-Za-z])", text.split("\n", 2)[2])
    assert len(entries) > 10
    for entry in entries:
        if entry.startswith("#") or not entry.strip():
            continue
        assert PIN.match(entry), f"{name}.txt: {entry.splitlines()[0]} is not pinned with =="
        assert "--hash=sha256:" in entry, f"{name}.txt: {entry.splitlines()[0]} has no hash"


@pytest.mark.parametrize("name", LOCKS)
def test_each_lock_holds_its_direct_pins(name):
    pins, lock = direct(name), locked(name)
    for package, version in pins.items():
        assert lock.get(package) == version, f"{package}=={version} of {name}.in, not in the lock"


def test_the_locks_agree_on_every_shared_package():
    runtime, dev = locked("requirements"), locked("requirements-dev")
    for other in ("requirements-bench", "requirements-mutate"):
        lock = locked(other)
        assert {p: lock[p] for p in dev} == dev
    assert {p: dev[p] for p in runtime} == runtime


def test_benchmark_tools_stay_out_of_the_test_install():
    assert not {"psutil", "py-spy"} & set(locked("requirements-dev"))
    assert {"psutil", "py-spy"} <= set(locked("requirements-bench"))


def test_python_3_13_gets_what_discord_py_needs_there():
    """discord.py needs audioop-lts from Python 3.13: a lock made on 3.11 must hold it too."""
    text = (ROOT / "requirements.txt").read_text()
    assert re.search(r"^audioop-lts==\S+ ; python_full_version >= '3.13'", text, re.M)


def test_make_installs_from_the_locks_with_hashes_required():
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^PIP_INSTALL := .*--require-hashes", makefile, re.M)
    for name in LOCKS:
        assert f"$(PIP_INSTALL) -r {name}.txt" in makefile
