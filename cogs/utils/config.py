"""The bot's configuration: from `.env` (python-dotenv) or the environment.

Read once at start-up into a frozen object, so the rest of the bot never touches os.environ and a
test can build a Config by hand.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from storage import DEFAULT_DATABASE, database_setting, is_postgres, redacted
from storage.models import Shards

TOKEN_HELP = (
    "Create a bot in the Discord Developer Portal and put its token in .env as DISCORD_TOKEN "
    "(docs/hosting.md, section 'Discord application and token'). "
    "Without Discord, try the offline rules: python -m wire --help"
)


VARIABLES = (
    ("DISCORD_TOKEN", "required: the bot token from the Discord Developer Portal"),
    ("WIRE_DATABASE", f"the SQLite file (default {DEFAULT_DATABASE}) or a postgresql:// URL"),
    ("WIRE_DATABASE_POOL", "on PostgreSQL, connections per process (default 10)"),
    ("WIRE_DEV_GUILD", "a test server's id: register the commands there only, at once"),
    ("LOG_LEVEL", "DEBUG, INFO (default), WARNING or ERROR"),
    ("WIRE_ROLL_LOG_DAYS", "days the roll log keeps a roll (default: forever)"),
    ("WIRE_SHARD_COUNT", "shards across all processes (default: one unsharded connection)"),
    ("WIRE_SHARD_IDS", "the shards this process runs, e.g. 0-1 (default: all)"),
    ("WIRE_HEARTBEAT", "a file touched while connected, for a health check (default: none)"),
)
"""Every variable the bot reads, with a line for `python bot.py --help` (docs/hosting.md and
.env.example have the whole story)."""

MAX_SHARD_COUNT = 100_000
"""A typo guard far above any real need: at 2,500 servers a shard, 250 million servers."""

SHARD_RANGE = re.compile(r"([0-9]{1,6})(?:-([0-9]{1,6}))?")


class ConfigError(Exception):
    """A configuration the bot cannot start with; the message is one line for the user."""


@dataclass(frozen=True, slots=True)
class Config:
    token: str
    database: Path | str = Path(DEFAULT_DATABASE)
    """A SQLite file, or a PostgreSQL URL (text)."""
    dev_guild: int | None = None
    log_level: str = "INFO"
    shard_count: int | None = None
    """Shards across every process; None: one unsharded connection, as a small bot needs."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs, in order; every shard when shard_count is set alone."""
    roll_log_days: int | None = None
    """Days the roll log keeps a roll; None: forever."""
    heartbeat: Path | None = None
    """A file touched while connected to Discord, for a health check; None: none."""

    def __post_init__(self) -> None:
        if self.shard_count is not None and self.shard_ids is None:
            object.__setattr__(self, "shard_ids", tuple(range(self.shard_count)))

    def __repr__(self) -> str:
        """Never show the token or the database's password, even in a traceback's locals or a
        debug print."""
        return (
            f"Config(token=<hidden>, database={redacted(str(self.database))!r}, "
            f"dev_guild={self.dev_guild!r}, log_level={self.log_level!r}, "
            f"shard_count={self.shard_count!r}, shard_ids={self.shard_ids!r}, "
            f"roll_log_days={self.roll_log_days!r}, heartbeat={self.heartbeat!r})"
        )

    __str__ = __repr__

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def runs_every_shard(self) -> bool:
        """Whether this process is the whole bot (ids are unique and below the count)."""
        return self.shard_ids is None or len(self.shard_ids) == self.shard_count

    @property
    def own_shards(self) -> Shards | None:
        """This process's shards when other processes run the rest (None: it is the whole bot),
        so that background work (the expiry sweep) touches only this process's servers."""
        if self.shard_count is None or self.runs_every_shard:
            return None
        return Shards(self.shard_count, self.shard_ids or ())

    @property
    def syncs_commands(self) -> bool:
        """Commands belong to the application, not to a shard: one process must sync them, and
        the one with shard 0 always exists."""
        return self.shard_ids is None or 0 in self.shard_ids


def load_config(env: Mapping[str, str] | None = None, *, require_token: bool = True) -> Config:
    """Read DISCORD_TOKEN, WIRE_DATABASE (and its pool), WIRE_DEV_GUILD, LOG_LEVEL, the two
    shard settings, WIRE_ROLL_LOG_DAYS and WIRE_HEARTBEAT."""
    env = os.environ if env is None else env
    token = env.get("DISCORD_TOKEN", "").strip()
    if require_token and not token:
        raise ConfigError(f"DISCORD_TOKEN is not set. {TOKEN_HELP}")
    dev_guild_text = env.get("WIRE_DEV_GUILD", "").strip()
    dev_guild = None
    if dev_guild_text:
        if not (dev_guild_text.isascii() and dev_guild_text.isdigit()):
            raise ConfigError(
                f"WIRE_DEV_GUILD must be a server id (digits only), not {dev_guild_text!r}. "
                "Leave it empty to sync commands globally."
            )
        dev_guild = int(dev_guild_text)
    level = (env.get("LOG_LEVEL", "") or "INFO").strip().upper()
    if not isinstance(logging.getLevelName(level), int):
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")
    database = database_setting(env.get("WIRE_DATABASE", "").strip() or DEFAULT_DATABASE)
    pool = env.get("WIRE_DATABASE_POOL", "").strip()  # read again by storage.postgres
    if pool and not (pool.isascii() and pool.isdigit() and 1 <= int(pool) <= 1000):
        raise ConfigError(
            f"WIRE_DATABASE_POOL must be a number of connections from 1 to 1000, not "
            f"{_quoted(pool)}. Leave it empty for 10."
        )
    shard_count = parse_shard_count(env.get("WIRE_SHARD_COUNT", ""))
    shard_ids = parse_shard_ids(env.get("WIRE_SHARD_IDS", ""), shard_count)
    return Config(
        token=token,
        database=database,
        dev_guild=dev_guild,
        log_level=level,
        shard_count=shard_count,
        shard_ids=shard_ids,
        roll_log_days=parse_roll_log_days(env.get("WIRE_ROLL_LOG_DAYS", "")),
        heartbeat=Path(heartbeat) if (heartbeat := env.get("WIRE_HEARTBEAT", "").strip()) else None,
    )


MAX_ROLL_LOG_DAYS = 36_500
"""A hundred years: a typo guard (days are read as days, not as a date or hours)."""


def parse_roll_log_days(text: str) -> int | None:
    """Days to keep a roll in the log; empty: forever."""
    text = text.strip()
    if not text:
        return None
    if not re.fullmatch(r"[0-9]{1,6}", text) or not 1 <= int(text) <= MAX_ROLL_LOG_DAYS:
        raise ConfigError(
            f"WIRE_ROLL_LOG_DAYS must be a number of days from 1 to {MAX_ROLL_LOG_DAYS:,}, "
            f"not {_quoted(text)}. Leave it empty to keep every roll."
        )
    return int(text)


def parse_shard_count(text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not re.fullmatch(r"[0-9]{1,6}", text) or not 1 <= int(text) <= MAX_SHARD_COUNT:
        raise ConfigError(
            f"WIRE_SHARD_COUNT must be a whole number of shards from 1 to {MAX_SHARD_COUNT:,}, "
            f"not {_quoted(text)}. Leave it empty for one unsharded connection."
        )
    return int(text)


def parse_shard_ids(text: str, count: int | None) -> tuple[int, ...] | None:
    """`0-3`, `4,5` or `0-1,6`: the shards this process runs, out of `count`.

    Every id is checked against the count before a range is expanded, so a typo like
    `0-999999` is an error message, not a long wait.
    """
    text = text.strip()
    if not text:
        return None
    if count is None:
        raise ConfigError(
            "WIRE_SHARD_IDS needs WIRE_SHARD_COUNT, the number of shards across all processes."
        )
    ids: list[int] = []
    for part in text.split(","):
        match = SHARD_RANGE.fullmatch(part.strip())
        if match is None:
            raise ConfigError(
                f"WIRE_SHARD_IDS must be shard numbers and ranges such as 0-3, 4,5 or 0-1,6, "
                f"not {_quoted(text)}."
            )
        first = int(match[1])
        last = int(match[2]) if match[2] is not None else first
        if last < first:
            raise ConfigError(
                f"WIRE_SHARD_IDS has the range {first}-{last}, which runs backwards; "
                f"write {last}-{first}."
            )
        if last >= count:
            raise ConfigError(
                f"WIRE_SHARD_IDS names shard {last}, but WIRE_SHARD_COUNT={count} numbers the "
                f"shards 0 to {count - 1}."
            )
        ids.extend(range(first, last + 1))
    seen: set[int] = set()
    for shard in ids:
        if shard in seen:
            raise ConfigError(f"WIRE_SHARD_IDS names shard {shard} twice ({_quoted(text)}).")
        seen.add(shard)
    return tuple(sorted(ids))


def _quoted(text: str, limit: int = 40) -> str:
    """A value echoed in a message, cut short so that the message stays one readable line."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


def format_shard_ids(ids: Iterable[int]) -> str:
    """The ids as WIRE_SHARD_IDS would write them: `0-3,6`."""
    parts: list[str] = []
    run: list[int] = []
    for shard in sorted(ids):
        if run and shard == run[-1] + 1:
            run.append(shard)
            continue
        if run:
            parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
        run = [shard]
    if run:
        parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
    return ",".join(parts)


def check_deployment(config: Config) -> None:
    """Refuse shards split over processes on SQLite, before anything connects.

    Split shards mean other processes writing the same campaigns; SQLite is one file on one
    machine with one writer at a time, and the store's lock and caches are per process, so such a
    deployment would lose or garble data rather than fail. One process with every shard is fine;
    on PostgreSQL any split is, as its backend serialises each guild's writes across processes.
    """
    if config.runs_every_shard or is_postgres(config.database):
        return
    here = config.shard_ids or ()
    raise ConfigError(
        f"WIRE_SHARD_IDS={format_shard_ids(here)} runs {len(here)} of "
        f"{config.shard_count} shards here, so the others would need other processes, but the "
        f"SQLite database (WIRE_DATABASE={config.database}) is one file on one machine: run all "
        f"{config.shard_count} shards in one process (leave WIRE_SHARD_IDS empty), or set "
        "WIRE_DATABASE to a PostgreSQL URL (postgresql://...), which several processes share."
    )
