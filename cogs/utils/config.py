"""The bot's configuration: from `.env` (python-dotenv) or the environment.

Read once at start-up into a frozen object, so the rest of the bot never touches os.environ and a
test can build a Config by hand.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from storage import DEFAULT_DATABASE

TOKEN_HELP = (
    "Create a bot in the Discord Developer Portal and put its token in .env as DISCORD_TOKEN "
    "(README.md, section 'Discord application and token'). "
    "Without Discord, try the offline rules: python -m wire --help"
)


class ConfigError(Exception):
    """A configuration the bot cannot start with; the message is one line for the user."""


@dataclass(frozen=True, slots=True)
class Config:
    token: str
    database: Path = Path(DEFAULT_DATABASE)
    dev_guild: int | None = None
    log_level: str = "INFO"

    def __repr__(self) -> str:
        """Never show the token, even in a traceback's locals or a debug print."""
        return (
            f"Config(token=<hidden>, database={str(self.database)!r}, "
            f"dev_guild={self.dev_guild!r}, log_level={self.log_level!r})"
        )

    __str__ = __repr__


def load_config(env: Mapping[str, str] | None = None, *, require_token: bool = True) -> Config:
    """Read DISCORD_TOKEN, WIRE_DATABASE, WIRE_DEV_GUILD and LOG_LEVEL."""
    env = os.environ if env is None else env
    token = env.get("DISCORD_TOKEN", "").strip()
    if require_token and not token:
        raise ConfigError(f"DISCORD_TOKEN is not set. {TOKEN_HELP}")
    dev_guild_text = env.get("WIRE_DEV_GUILD", "").strip()
    dev_guild = None
    if dev_guild_text:
        if not dev_guild_text.isdigit():
            raise ConfigError(
                f"WIRE_DEV_GUILD must be a server id (digits only), not {dev_guild_text!r}. "
                "Leave it empty to sync commands globally."
            )
        dev_guild = int(dev_guild_text)
    level = (env.get("LOG_LEVEL", "") or "INFO").strip().upper()
    if not isinstance(logging.getLevelName(level), int):
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")
    database = Path(env.get("WIRE_DATABASE", "").strip() or DEFAULT_DATABASE)
    return Config(token=token, database=database, dev_guild=dev_guild, log_level=level)
