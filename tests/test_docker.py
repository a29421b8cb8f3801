"""The Docker files' invariants, checked without a Docker engine.

No image is built here (the machines that run the tests have no Docker engine), so the files are
read instead: the bot runs as a non-root user, its data is on a volume, the health check checks
something real, no secret reaches the image, the dependencies are installed exactly as `make run`
installs them, and compose restarts the bot and keeps its data. Compose itself (the v2 plugin or
Debian's v1 docker-compose, which .ci/run installs) reads the compose file too, at the end.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shlex
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
COMPOSE = ROOT / "docker-compose.yml"
MAKEFILE = ROOT / "Makefile"

SECRET_WORDS = ("TOKEN", "SECRET", "PASSWORD")
# A Discord bot token: base64 user id, timestamp, HMAC.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,}")
EXTRA_DOCKER_PIP_FLAGS = {"--no-cache-dir"}
"""What the image may add to `make run`'s pip install: keeping pip's cache out of the image."""


# ---- a small Dockerfile reader ---------------------------------------------------------------


@dataclass(frozen=True)
class Instruction:
    keyword: str
    flags: tuple[str, ...]
    """Leading --flags (COPY --chown=..., HEALTHCHECK --interval=...)."""
    value: str
    """The rest, as written (JSON for the exec form)."""

    def words(self) -> list[str]:
        """The arguments: the JSON array of the exec form, else shell words."""
        if self.value.startswith("["):
            return json.loads(self.value)
        return shlex.split(self.value)


def instructions(text: str) -> list[Instruction]:
    """Dockerfile instructions with line continuations joined and comments dropped."""
    result: list[Instruction] = []
    pending = ""
    for raw in text.splitlines():
        if raw.strip().startswith("#"):
            continue  # comments, also between continuation lines, are not part of the instruction
        if raw.endswith("\\"):
            pending += raw[:-1]
            continue
        line = (pending + raw).strip()
        pending = ""
        if not line:
            continue
        keyword, _, rest = line.partition(" ")
        rest = rest.strip()
        flags: list[str] = []
        while rest.startswith("--"):
            flag, _, rest = rest.partition(" ")
            flags.append(flag)
            rest = rest.strip()
        result.append(Instruction(keyword.upper(), tuple(flags), rest))
    assert not pending, "the Dockerfile ends inside a line continuation"
    return result


@pytest.fixture(scope="module")
def docker() -> list[Instruction]:
    return instructions(DOCKERFILE.read_text())


def of(docker: list[Instruction], keyword: str) -> list[Instruction]:
    return [i for i in docker if i.keyword == keyword]


def env_pairs(instruction: Instruction) -> list[tuple[str, str | None]]:
    """ENV/ARG as (name, value or None): `K=V K2=V2`, `K V` (legacy) and `ARG K`."""
    words = shlex.split(instruction.value)
    if instruction.keyword == "ENV" and len(words) >= 2 and "=" not in words[0]:
        return [(words[0], " ".join(words[1:]))]
    pairs: list[tuple[str, str | None]] = []
    for word in words:
        name, eq, value = word.partition("=")
        pairs.append((name, value if eq else None))
    return pairs


def run_commands(docker: list[Instruction]) -> list[list[str]]:
    """Every simple command of every RUN, split on && and ;, as words."""
    commands = []
    for run in of(docker, "RUN"):
        if run.value.startswith("["):
            commands.append(run.words())
            continue
        for part in re.split(r"&&|;", run.value):
            if part.strip():
                commands.append(shlex.split(part))
    return commands


def workdir(docker: list[Instruction]) -> PurePosixPath:
    dirs = of(docker, "WORKDIR")
    assert dirs, "the Dockerfile sets no WORKDIR"
    return PurePosixPath(dirs[-1].value)


# ---- .dockerignore ---------------------------------------------------------------------------


def ignore_patterns() -> list[str]:
    assert DOCKERIGNORE.exists(), ".dockerignore is missing: the whole folder would be sent"
    lines = [line.strip() for line in DOCKERIGNORE.read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    """Docker's matching (Go filepath.Match plus **): * and ? stay within one path element."""
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out += "(?:.*/)?"
            i += 3
        elif pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return re.compile(out + r"\Z")


def ignored(path: str, patterns: list[str] | None = None) -> bool:
    """Whether the build context leaves `path` out (the last matching pattern decides).

    A pattern that matches a folder leaves out everything in it, as Docker does.
    """
    patterns = ignore_patterns() if patterns is None else patterns
    parts = PurePosixPath(path).parts
    candidates = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    result = False
    for raw in patterns:
        negate = raw.startswith("!")
        pattern = raw[1:] if negate else raw
        pattern = str(PurePosixPath(pattern.strip("/")))
        regex = _pattern_regex(pattern)
        if any(regex.match(candidate) for candidate in candidates):
            result = not negate
    return result


def test_the_ignore_matcher_reads_patterns_as_docker_does():
    assert ignored(".venv/bin/python", [".venv/"])
    assert ignored("a/__pycache__/x.pyc", ["**/__pycache__/"])
    assert not ignored(".env.example", [".env.*", "!.env.example"])
    assert not ignored("data/wire/x", ["data/*.db*"])
    assert ignored("data/wire.db-wal", ["data/*.db*"])
    assert not ignored("cogs/rolls.py", ["*.py2"])


@pytest.mark.parametrize(
    "path",
    [
        ".env",
        ".env.local",
        ".env.production",
        ".venv/bin/python",
        "data/wire.db",
        "data/wire.db-wal",
        "data/wire.db-shm",
        "data/wire.before-restore-20261130T120000Z.db",
        ".git/config",
        "cogs/__pycache__/rolls.cpython-311.pyc",
        ".pytest_cache/README.md",
        ".hypothesis/examples/x",
        "bench/out/result.json",
        "tests/test_docker.py",
    ],
)
def test_dockerignore_keeps_secrets_state_and_tests_out_of_the_context(path):
    assert ignored(path), f"{path} would be sent to the Docker build"


@pytest.mark.parametrize(
    "path",
    [
        ".env.example",
        "bot.py",
        "cogs/rolls.py",
        "wire/cli.py",
        "storage/sqlite.py",
        "storage/migrations/0001_initial.sql",
        "requirements.txt",
        "data/example-campaign.json",
    ],
)
def test_dockerignore_keeps_what_the_image_needs(path):
    assert not ignored(path), f"{path} is needed by the image but .dockerignore leaves it out"


# ---- the Dockerfile --------------------------------------------------------------------------


def test_the_base_image_is_python_311_slim(docker):
    froms = of(docker, "FROM")
    assert len(froms) == 1
    assert froms[0].value.split()[0] == "python:3.11-slim"


def test_the_bot_runs_as_a_non_root_user(docker):
    keywords = [i.keyword for i in docker]
    assert "CMD" in keywords, "no CMD"
    cmd_at = len(keywords) - 1 - keywords[::-1].index("CMD")
    users = [i for i in docker[:cmd_at] if i.keyword == "USER"]
    assert users, "no USER before CMD: the bot would run as root"
    user = users[-1].value.split(":")[0]
    assert user not in {"root", "0", ""}, f"USER {users[-1].value} is root"
    if not user.isdigit():
        created = [c for c in run_commands(docker) if c and c[0] in {"useradd", "adduser"}]
        assert any(user in c for c in created), f"USER {user} is never created"
        uids = [c[c.index("--uid") + 1] for c in created if "--uid" in c]
        assert all(uid != "0" for uid in uids)


def test_the_data_folder_is_a_volume_owned_by_the_bot_user(docker):
    volumes = [v for i in of(docker, "VOLUME") for v in i.words()]
    assert "/app/data" in volumes
    user = of(docker, "USER")[-1].value.split(":")[0]
    volume_at = next(n for n, i in enumerate(docker) if i.keyword == "VOLUME")
    chowned = [
        c
        for i in docker[:volume_at]
        if i.keyword == "RUN"
        for c in run_commands([i])
        if c and c[0] == "chown" and any(w.rstrip("/") == "/app/data" for w in c)
    ]
    assert any(c[-2].split(":")[0] == user for c in chowned if len(c) >= 3), (
        "/app/data must belong to the bot's user before VOLUME (a new volume copies its owner)"
    )


def test_the_database_path_is_on_the_volume(docker):
    env = dict(pair for i in of(docker, "ENV") for pair in env_pairs(i))
    assert env.get("WIRE_DATABASE") == "/app/data/wire.db"


def test_no_secret_is_built_into_the_image(docker):
    for instruction in of(docker, "ENV") + of(docker, "ARG"):
        for name, value in env_pairs(instruction):
            if any(word in name.upper() for word in SECRET_WORDS):
                pytest.fail(
                    f"{instruction.keyword} {name}={value!r}: a secret in ENV/ARG stays in the "
                    "image's history; it comes from the environment at run time"
                )
    for path in (DOCKERFILE, COMPOSE):
        assert not TOKEN_SHAPE.search(path.read_text()), f"{path.name} contains a token"


def test_copy_never_takes_env_files_or_the_whole_context_unguarded(docker):
    patterns = ignore_patterns()
    for instruction in of(docker, "COPY") + of(docker, "ADD"):
        if any(flag.startswith("--from") for flag in instruction.flags):
            continue
        sources = instruction.words()[:-1]
        assert sources, f"{instruction} copies nothing"
        for source in sources:
            assert not re.match(r"https?://", source), "ADD of a URL: pin and verify it instead"
            name = PurePosixPath(source).name
            assert not (name == ".env" or (name.startswith(".env.") and name != ".env.example")), (
                f"{instruction.keyword} {source}: the token file must never be in the image"
            )
            if source.rstrip("/") in {".", "*", "./"}:
                for needed in (".env", ".venv/bin/python", "data/wire.db", "data/wire.db-wal"):
                    assert ignored(needed, patterns), (
                        f"COPY of the whole context, and .dockerignore does not exclude {needed}"
                    )
            else:
                assert not ignored(source.rstrip("/"), patterns), (
                    f"{instruction.keyword} {source}: .dockerignore leaves it out of the context"
                )
                assert (ROOT / source).exists(), f"{instruction.keyword} {source}: no such path"


def test_the_image_has_the_code_the_bot_runs(docker):
    copied = {
        PurePosixPath(source.rstrip("/")).as_posix()
        for instruction in of(docker, "COPY")
        for source in instruction.words()[:-1]
    }
    assert {"bot.py", "cogs", "wire", "storage", "requirements.txt"} <= copied
    assert "data/example-campaign.json" in copied


# ---- install and start exactly as `make run` -------------------------------------------------


def make_variables(text: str) -> dict[str, str]:
    variables = {}
    for line in text.splitlines():
        match = re.match(r"^([A-Z_]+)\s*(?::=|\?=|=)\s*(.*)$", line)
        if match:
            variables[match[1]] = match[2].strip()
    return variables


def expand(value: str, variables: dict[str, str]) -> str:
    for _ in range(10):
        value = re.sub(r"\$\((\w+)\)", lambda m: variables.get(m[1], ""), value)
    return value


def make_recipe(target: str) -> list[list[str]]:
    """What `make TARGET` runs: its prerequisites' recipes first, then its own (expanded)."""
    text = MAKEFILE.read_text().replace("\\\n", " ")  # a recipe line continued is one line
    variables = make_variables(text)
    rules: dict[str, tuple[list[str], list[str]]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("\t") and current is not None:
            current.append(line.strip())
            continue
        match = re.match(r"^([^\s:=#][^:=]*?)\s*:(?!=)\s*(.*)$", line)
        if match and not line.startswith("."):
            name = expand(match[1].strip(), variables)
            prerequisites = [expand(p, variables) for p in match[2].split()]
            current = []
            rules[name] = (prerequisites, current)
        elif not line.startswith("\t"):
            current = None
    assert target in rules, f"the Makefile has no {target} target"

    commands: list[list[str]] = []

    def visit(name: str) -> None:
        if name not in rules:
            return  # a file (requirements.txt)
        prerequisites, recipe = rules[name]
        for prerequisite in prerequisites:
            visit(prerequisite)
        commands.extend(shlex.split(expand(line, variables)) for line in recipe)

    visit(target)
    return commands


def resolve(path: str, base: PurePosixPath) -> PurePosixPath:
    candidate = PurePosixPath(path)
    return candidate if candidate.is_absolute() else base / candidate


def venv_and_pip(commands: list[list[str]], base: PurePosixPath) -> tuple[PurePosixPath, list[str]]:
    """(the venv folder, the pip executable and its arguments) of an install."""
    venvs = [c for c in commands if ["-m", "venv"] in map(list, itertools.pairwise(c))]
    assert len(venvs) == 1, f"expected one `python -m venv`, found {venvs}"
    venv = resolve(venvs[0][venvs[0].index("venv") + 1], base)
    pips = [c for c in commands if len(c) > 1 and c[0].endswith("pip") and c[1] == "install"]
    assert len(pips) == 1, f"expected one pip install, found {pips}"
    pip = pips[0]
    assert resolve(pip[0], base) == venv / "bin" / "pip", "pip must be the venv's own"
    return venv, pip[1:]


def test_the_image_installs_requirements_as_make_run_does(docker):
    app = workdir(docker)
    _, make_pip = venv_and_pip(make_recipe("run"), PurePosixPath("/repo"))
    venv, docker_pip = venv_and_pip(run_commands(docker), app)
    assert venv == app / ".venv"
    extra = [arg for arg in docker_pip if arg in EXTRA_DOCKER_PIP_FLAGS]
    assert [arg for arg in docker_pip if arg not in extra] == make_pip, (
        f"make run installs with `pip {' '.join(make_pip)}`, the image with "
        f"`pip {' '.join(docker_pip)}`"
    )
    requirements = make_pip[make_pip.index("-r") + 1]
    copy_at = next(
        n for n, i in enumerate(docker) if i.keyword == "COPY" and requirements in i.words()[:-1]
    )
    install_at = next(
        n
        for n, i in enumerate(docker)
        if i.keyword == "RUN" and "pip" in i.value and requirements in i.value
    )
    assert copy_at < install_at, f"{requirements} must be copied before it is installed"


def test_the_image_starts_the_bot_as_make_run_does(docker):
    app = workdir(docker)
    run_line = make_recipe("run")[-1]
    cmd = of(docker, "CMD")[-1]
    assert cmd.value.startswith("["), "CMD in exec form, so the bot gets SIGTERM itself"
    words = cmd.words()
    assert resolve(words[0], app) == app / resolve(run_line[0], PurePosixPath(".")).as_posix()
    assert words[1:] == run_line[1:] == ["bot.py"]
    assert not of(docker, "ENTRYPOINT"), "an ENTRYPOINT would change what CMD runs"


# ---- the health check ------------------------------------------------------------------------


def healthcheck(docker: list[Instruction]) -> list[str]:
    checks = of(docker, "HEALTHCHECK")
    assert len(checks) == 1, "exactly one HEALTHCHECK"
    value = checks[0].value
    assert value.startswith("CMD "), "HEALTHCHECK CMD ... (not NONE)"
    words = json.loads(value[4:].strip())
    assert isinstance(words, list) and words, "HEALTHCHECK CMD in exec form"
    return words


def test_the_healthcheck_uses_no_network(docker):
    words = healthcheck(docker)
    script = (ROOT / PurePosixPath(words[-1]).relative_to("/app")).read_text()
    for word in ("curl", "wget", "http", "socket", "discord.com", "urllib", "quick_check"):
        assert word not in " ".join(words) + script, f"the health check uses {word}"
    flags = dict(flag.partition("=")[::2] for flag in of(docker, "HEALTHCHECK")[0].flags)
    assert "--interval" in flags and "--timeout" in flags
    heartbeat = {i.value.split("=", 1)[0]: i.value for i in of(docker, "ENV")}
    assert "WIRE_HEARTBEAT" in heartbeat, "the image sets the file the bot's heartbeat writes"


def run_healthcheck(
    docker: list[Instruction], database: Path | str, heartbeat: Path | None
) -> subprocess.CompletedProcess:
    words = healthcheck(docker)
    assert words[0].endswith("/python")
    script = ROOT / PurePosixPath(words[1]).relative_to("/app")
    env = {**os.environ, "WIRE_DATABASE": str(database)}
    env["WIRE_HEARTBEAT"] = str(heartbeat or "")
    return subprocess.run(
        [sys.executable, str(script)], env=env, timeout=30, capture_output=True, text=True
    )


@pytest.fixture
def heartbeat(tmp_path: Path) -> Path:
    """A heartbeat file as the connected bot writes it (cogs/heartbeat.py)."""
    from cogs.heartbeat import beat

    path = tmp_path / "wire-heartbeat"
    beat(path)
    return path


def test_the_healthcheck_passes_on_a_connected_bot_with_a_live_wal_database(
    docker, heartbeat, tmp_path
):
    database = tmp_path / "wire.db"
    live = sqlite3.connect(database)  # held open in WAL mode, as the running bot holds it
    try:
        live.execute("PRAGMA journal_mode = WAL")
        live.execute("CREATE TABLE t (x)")
        live.execute("INSERT INTO t VALUES (1)")
        live.commit()
        done = run_healthcheck(docker, database, heartbeat)
        assert done.returncode == 0, done.stdout
    finally:
        live.close()


def test_the_healthcheck_fails_when_the_bot_is_not_connected_to_discord(
    docker, heartbeat, tmp_path
):
    """A process that lives but has no gateway (never READY, or lost and not back) writes no
    heartbeat: unhealthy, whatever the database says."""
    from healthcheck import MAX_AGE

    database = tmp_path / "wire.db"
    sqlite3.connect(database).execute("CREATE TABLE t (x)").connection.close()
    never = run_healthcheck(docker, database, tmp_path / "none")
    assert never.returncode == 1 and "has not connected to Discord" in never.stdout
    old = time.time() - MAX_AGE - 5
    os.utime(heartbeat, (old, old))
    lost = run_healthcheck(docker, database, heartbeat)
    assert lost.returncode == 1 and "not connected to Discord" in lost.stdout


def test_the_healthcheck_fails_without_a_database_or_with_a_damaged_one(
    docker, heartbeat, tmp_path
):
    assert run_healthcheck(docker, tmp_path / "missing.db", heartbeat).returncode != 0
    assert not (tmp_path / "missing.db").exists(), "the check must not create the database"
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    assert run_healthcheck(docker, damaged, heartbeat).returncode != 0


def test_the_healthcheck_reads_one_page_not_the_whole_file(docker, heartbeat, tmp_path):
    """A large database costs the check what a small one does: no page but the first is read
    (the integrity scan belongs to the bot's start and to `python -m storage check`)."""
    database = tmp_path / "wire.db"
    connection = sqlite3.connect(database)
    connection.execute("CREATE TABLE t (x)")
    connection.executemany("INSERT INTO t VALUES (?)", ((b"x" * 3000,) for _ in range(400)))
    connection.commit()
    connection.close()
    with database.open("r+b") as file:  # a page deep in the table, damaged
        file.seek(4096 * 200)
        file.write(b"\xff" * 4096)
    assert run_healthcheck(docker, database, heartbeat).returncode == 0


# ---- docker-compose.yml ----------------------------------------------------------------------


def _scalar(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _strip_comment(line: str) -> str:
    quote = ""
    for n, ch in enumerate(line):
        if ch in "'\"":
            quote = "" if quote == ch else quote or ch
        elif ch == "#" and not quote and (n == 0 or line[n - 1] in " \t"):
            return line[:n].rstrip()
    return line.rstrip()


def parse_compose(text: str):
    """The block-style YAML subset compose files use (mappings, lists, scalars); no PyYAML."""
    lines = []
    for raw in text.splitlines():
        line = _strip_comment(raw)
        if line.strip():
            assert "\t" not in line[: len(line) - len(line.lstrip())], "tabs in YAML indentation"
            lines.append((len(line) - len(line.lstrip()), line.strip()))

    anchors: dict[str, object] = {}

    def block(start: int, indent: int):
        if lines[start][1].startswith("- "):
            items, n = [], start
            while n < len(lines) and lines[n][0] == indent and lines[n][1].startswith("- "):
                items.append(_scalar(lines[n][1][2:]))
                n += 1
            return items, n
        mapping, merged, n = {}, {}, start
        while n < len(lines) and lines[n][0] == indent:
            key, sep, rest = lines[n][1].partition(":")
            assert sep, f"not a mapping entry: {lines[n][1]!r}"
            assert not rest.strip().startswith(("{", "[")), "flow style is not read here"
            n += 1
            anchor = rest.strip()[1:] if rest.strip().startswith("&") else None
            if key == "<<":  # a merge key: the anchored mapping's entries, under the explicit ones
                assert rest.strip().startswith("*"), "<< merges an alias"
                merged.update(anchors[rest.strip()[1:]])
                continue
            if rest.strip() and anchor is None:
                mapping[_scalar(key)] = _scalar(rest)
            elif n < len(lines) and lines[n][0] > indent:
                mapping[_scalar(key)], n = block(n, lines[n][0])
            elif n < len(lines) and lines[n][0] == indent and lines[n][1].startswith("- "):
                mapping[_scalar(key)], n = block(n, indent)
            else:
                mapping[_scalar(key)] = None
            if anchor is not None:
                anchors[anchor] = mapping[_scalar(key)]
        return {**merged, **mapping}, n

    document, end = block(0, lines[0][0])
    assert end == len(lines), f"could not read docker-compose.yml from line {lines[end][1]!r}"
    return document


@pytest.fixture(scope="module")
def compose():
    return parse_compose(COMPOSE.read_text())


@pytest.fixture(scope="module")
def service(compose):
    assert "wire-bot" in compose["services"]
    return compose["services"]["wire-bot"]


def test_compose_builds_this_folder_and_restarts_the_bot(service):
    build = service["build"]
    assert (build if isinstance(build, str) else build.get("context")) in {".", "./"}
    assert service.get("restart") in {"unless-stopped", "always", "on-failure"}


def test_compose_keeps_the_data_on_a_named_volume(compose, service):
    mounts = {}
    for volume in service["volumes"]:
        source, _, target = volume.partition(":")
        mounts[target.split(":")[0]] = source
    assert "/app/data" in mounts, "no volume at /app/data: the database would die with the box"
    source = mounts["/app/data"]
    assert not source.startswith((".", "/")), "a named volume, not a bind mount of the repo"
    assert source in (compose.get("volumes") or {}), f"volume {source} is not declared"
    environment = service.get("environment") or {}
    database = environment.get("WIRE_DATABASE", "/app/data/wire.db")
    assert database.startswith("/app/data/")


def test_compose_takes_the_token_from_the_env_file_at_run_time(service):
    env_file = service["env_file"]
    env_files = [env_file] if isinstance(env_file, str) else env_file
    assert ".env" in env_files
    environment = service.get("environment") or {}
    if isinstance(environment, list):
        environment = dict(item.partition("=")[::2] for item in environment)
    for name, value in environment.items():
        if any(word in name.upper() for word in SECRET_WORDS):
            pytest.fail(f"{name} is set in docker-compose.yml; it belongs in .env")
        assert value is None or not TOKEN_SHAPE.search(value)
    assert "LOG_LEVEL" in environment
    assert "args" not in (service["build"] if isinstance(service["build"], dict) else {})


# ---- the postgres profile: PostgreSQL and two bot processes with two shards each -------------

POSTGRES_BOTS = ("wire-shards-0-1", "wire-shards-2-3")


def test_plain_compose_up_is_still_the_one_sqlite_bot(compose):
    """Services without a profile are what `docker compose up` starts."""
    always = [name for name, spec in compose["services"].items() if not spec.get("profiles")]
    assert always == ["wire-bot"]


def test_the_postgres_profile_runs_postgresql_on_a_volume_with_a_health_check(compose):
    postgres = compose["services"]["postgres"]
    assert postgres["profiles"] == ["postgres"]
    assert postgres["image"] == "postgres:15"
    assert postgres.get("restart") == "unless-stopped"
    volume, _, target = postgres["volumes"][0].partition(":")
    assert target == "/var/lib/postgresql/data" and volume in compose["volumes"]
    assert "pg_isready" in postgres["healthcheck"]["test"]
    environment = postgres["environment"]
    assert environment["POSTGRES_PASSWORD"].startswith("${"), "the password comes from .env"


def test_the_postgres_profile_splits_the_shards_over_two_bot_processes(compose):
    from cogs.utils.config import parse_shard_count, parse_shard_ids

    shards: list[int] = []
    for name in POSTGRES_BOTS:
        bot = compose["services"][name]
        assert bot["profiles"] == ["postgres"]
        assert bot["build"] == "." and bot["image"] == "wire-bot"
        assert bot["env_file"] == ".env" and bot.get("restart") == "unless-stopped"
        assert bot["depends_on"] == {"postgres": {"condition": "service_healthy"}}
        environment = bot["environment"]
        database = urlsplit(environment["WIRE_DATABASE"])
        assert database.scheme == "postgresql"
        assert (database.hostname, database.port) == ("postgres", 5432)
        # Not in the URL, where a `@`, `/` or `%` would break it: asyncpg reads PGPASSWORD.
        assert database.password is None
        assert environment["PGPASSWORD"].startswith("${POSTGRES_PASSWORD"), "from .env"
        count = parse_shard_count(environment["WIRE_SHARD_COUNT"])
        assert count == 4
        shards += parse_shard_ids(environment["WIRE_SHARD_IDS"], count)
    assert sorted(shards) == [0, 1, 2, 3], "every shard runs, each in one process"


def test_the_hosting_page_starts_the_postgres_profile_without_the_sqlite_bot(compose):
    readme = (ROOT / "docs" / "hosting.md").read_text()
    command = f"docker compose --profile postgres up -d {' '.join(POSTGRES_BOTS)}"
    assert command in readme and command in COMPOSE.read_text()


def test_the_two_shard_bots_share_one_definition():
    """The shard services differ in their shards only: both come from one anchored block."""
    text = COMPOSE.read_text()
    assert text.count("<<: *shard-bot") == 2 and text.count("<<: *shard-environment") == 2
    assert text.count("condition: service_healthy") == 1


def test_the_volumes_are_the_projects_own(compose):
    """A fixed `name:` would give two clones on one host the same database volume; without it
    compose names each after its project (the folder, or COMPOSE_PROJECT_NAME)."""
    for volume, spec in compose["volumes"].items():
        assert not (spec or {}).get("name"), f"volume {volume} has a fixed name"


def test_the_shard_bots_health_check_needs_the_heartbeat_and_postgresql(
    docker, compose, heartbeat, tmp_path, postgres_database, postgres_cluster
):
    """The image's one check serves the shard bots too: a URL without its password, which
    comes in PGPASSWORD as compose passes it."""
    for name in POSTGRES_BOTS:
        assert "healthcheck" not in compose["services"][name], "the image's check serves"
    url = urlsplit(postgres_database)
    if url.password:
        os.environ["PGPASSWORD"] = url.password
        postgres_database = url._replace(netloc=url.netloc.replace(f":{url.password}@", "@"))
        postgres_database = postgres_database.geturl()
    try:
        assert run_healthcheck(docker, postgres_database, heartbeat).returncode == 0
        missing = postgres_cluster.dsn("no_such_database")
        assert run_healthcheck(docker, missing, heartbeat).returncode == 1
        assert run_healthcheck(docker, postgres_database, tmp_path / "none").returncode == 1
    finally:
        os.environ.pop("PGPASSWORD", None)


# ---- compose's own reading of the file --------------------------------------------------------


def compose_command() -> list[str] | None:
    """`docker compose` (the v2 plugin) where it runs, else the v1 `docker-compose`, else None."""
    candidates = (["docker", "compose"], ["docker-compose"])
    for command in candidates:
        try:
            found = subprocess.run([*command, "version"], capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if found.returncode == 0:
            return command
    return None


def compose_config(command: list[str], folder: Path, *args: str) -> str:
    """What compose makes of the files in `folder`: the merged, interpolated configuration."""
    done = subprocess.run(
        [*command, *args, "config"], cwd=folder, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, f"compose refused the file:\n{done.stderr}"
    return done.stdout


@pytest.mark.parametrize("password", ["plain", "p@ss:w/rd#%?&="])
def test_compose_itself_reads_the_file_and_passes_the_password_whole(tmp_path, password):
    """The reader above is ours; this asks compose (`docker compose config`, or v1's
    `docker-compose config`) to read the same files with a host's .env, for both profiles,
    and checks that a password with URL-breaking characters reaches the bots unchanged. CI
    installs compose (.ci/run); elsewhere a machine without it skips this one test."""
    command = compose_command()
    if command is None:
        if os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}:
            pytest.fail("compose is required in CI (CI=true): .ci/run installs it", pytrace=False)
        pytest.skip("neither `docker compose` nor `docker-compose` is installed")
    for name in ("docker-compose.yml", "Dockerfile", ".env.example"):
        (tmp_path / name).write_bytes((ROOT / name).read_bytes())
    env = (ROOT / ".env.example").read_text()
    env = env.replace("# POSTGRES_PASSWORD=", f"POSTGRES_PASSWORD='{password}'")
    (tmp_path / ".env").write_text(env + "DISCORD_TOKEN=not-a-real-token\n")

    assert "wire-bot:" in compose_config(command, tmp_path)
    with_postgres = compose_config(command, tmp_path, "--profile", "postgres")
    for name in ("postgres:", *(f"{bot}:" for bot in POSTGRES_BOTS)):
        assert name in with_postgres, f"{name} missing from the postgres profile"
    passed = re.findall(r"PGPASSWORD: (.*)", with_postgres)
    assert len(passed) == len(POSTGRES_BOTS)
    assert {value.strip().strip("'\"") for value in passed} == {password}
