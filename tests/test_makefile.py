"""The Makefile as a new host meets it: the Python version checked before anything is installed,
a .venv built by another Python rebuilt, and `make invite` / `make sync` instead of paths.

Every test runs make in a scratch copy (tmp_path) with its own .venv: the repository's .venv is
never touched.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The Makefile and what its first step reads, in a scratch folder."""
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "tools").mkdir()
    shutil.copy(ROOT / "tools" / "python_check.py", tmp_path / "tools" / "python_check.py")
    for name in ("requirements.txt", "requirements-dev.txt"):
        (tmp_path / name).write_text("")
    return tmp_path


def script(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def old_python(folder: Path) -> Path:
    """A Python that says it is 3.10.12: the real one, with sys.version_info replaced."""
    runner = (
        "import runpy, sys; sys.version_info = (3, 10, 12, 'final', 0); "
        "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')"
    )
    return script(folder / "python3.10", f'#!/bin/sh\nexec {sys.executable} -c "{runner}" "$@"\n')


def make(project: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    return subprocess.run(
        ["make", "--no-print-directory", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_an_old_python_is_refused_in_one_line_before_anything_is_installed(project):
    fake = old_python(project / "bin")
    result = make(project, "run", f"PYTHON={fake}")
    assert result.returncode != 0
    ours = [line for line in result.stderr.splitlines() if not line.startswith("make")]
    assert ours == [
        f"Python 3.10.12 found ({sys.executable}); the bot needs Python 3.11 or newer. Install it "
        "and run make again with PYTHON=python3.11 (or the new Python's path)."
    ]
    assert not (project / ".venv").exists()


def test_a_venv_built_by_another_python_is_rebuilt(project):
    venv = project / ".venv"
    script(venv / "bin" / "python", "#!/bin/sh\necho 3.10\n")
    (venv / ".python").write_text("3.10\n")
    (venv / ".runtime").touch()
    result = make(project, ".venv/.python", f"PYTHON={sys.executable}")
    assert result.returncode == 0, result.stderr
    mine = "{}.{}".format(*sys.version_info[:2])
    assert f"Rebuilding .venv: it was built by Python 3.10, {sys.executable} is {mine}." in (
        result.stdout
    )
    assert (venv / ".python").read_text() == f"{mine}\n"
    # The old install went with it, so the next `make run` installs the requirements again.
    assert not (venv / ".runtime").exists()
    version = subprocess.run(
        [venv / "bin" / "python", "-c", "import sys; print(sys.version_info[:2])"],
        capture_output=True,
        text=True,
    )
    assert version.stdout.strip() == str(tuple(sys.version_info[:2]))


def test_a_venv_of_the_same_python_is_kept(project):
    first = make(project, ".venv/.python", f"PYTHON={sys.executable}")
    assert first.returncode == 0, first.stderr
    stamp = project / ".venv" / ".python"
    keep = project / ".venv" / "installed-before"
    keep.touch()
    before = stamp.stat().st_mtime_ns
    again = make(project, ".venv/.python", f"PYTHON={sys.executable}")
    assert again.returncode == 0, again.stderr
    assert "Rebuilding" not in again.stdout
    assert keep.exists() and stamp.stat().st_mtime_ns == before


@pytest.mark.parametrize(("target", "flag"), [("invite", "--invite"), ("sync", "--sync")])
def test_invite_and_sync_run_the_bot_from_the_venv(project, target, flag):
    result = make(project, "-n", target)
    assert result.returncode == 0, result.stderr
    assert f".venv/bin/python bot.py {flag}" in result.stdout.splitlines()


def test_the_makefile_says_how_to_pick_the_python():
    makefile = (ROOT / "Makefile").read_text()
    assert "PYTHON=python3.12" in makefile


def test_the_commands_hosts_are_told_to_run_work_as_written():
    """The stale-command reply names a make target; the restore hint the venv's Python (which has
    the bot's dependencies, unlike a bare `python`) and arguments the storage tool accepts."""
    import re
    import shlex

    from cogs.utils.tree import STALE_MESSAGE
    from storage.cli import build_parser
    from storage.faults import restore_hint

    target = re.search(r"`make (\w+)`", STALE_MESSAGE)[1]
    assert re.search(rf"^{target}:", (ROOT / "Makefile").read_text(), re.M)
    words = shlex.split(restore_hint("data/wire.db"))
    assert words[:3] == [".venv/bin/python", "-m", "storage"]
    assert build_parser().parse_args(words[3:]).command == "restore"


def test_the_version_make_needs_is_the_one_pyproject_claims():
    import tomllib

    from tools.python_check import NEEDED

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">={}.{}".format(*NEEDED)
    claimed = [c.rsplit(" ", 1)[1] for c in project["classifiers"] if "Python :: 3." in c]
    assert claimed[0] == "{}.{}".format(*NEEDED) and "3.13" in claimed


def test_mutate_runs_and_scores_the_files_named_alone_or_reruns_the_mutants_named(project):
    """`make mutate MUTATE=...` is a fresh run of those files' mutants (docs/mutation.md);
    `MUTANTS=...` reruns mutmut's named mutants and keeps the rest of the last run."""
    (project / "requirements-mutate.txt").write_text("")
    files = make(project, "-n", "mutate", "MUTATE=wire/fight.py wire/conditions.py")
    assert files.returncode == 0, files.stderr
    lines = files.stdout.splitlines()
    assert "rm -rf mutants" in lines
    assert any("mutmut run --max-children 2 'wire.fight.*' 'wire.conditions.*'" in x for x in lines)
    assert ".venv/bin/python -m tests.wire.mutation_score wire/fight.py wire/conditions.py" in lines
    again = make(project, "-n", "mutate", "MUTANTS=wire.health.*").stdout.splitlines()
    assert "rm -rf mutants" not in again
    assert any("mutmut run --max-children 2 'wire.health.*'" in x for x in again)
