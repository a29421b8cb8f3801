"""Configuration and logs: the token never shows, bad settings are one clear line."""

from __future__ import annotations

import logging

import pytest

from cogs.utils.config import Config, ConfigError, load_config
from cogs.utils.logs import RedactFilter

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.secret.part"


def test_config_reads_every_variable_with_defaults():
    config = load_config({"DISCORD_TOKEN": TOKEN})
    assert (str(config.database), config.dev_guild, config.log_level) == (
        "data/wire.db",
        None,
        "INFO",
    )
    config = load_config(
        {
            "DISCORD_TOKEN": TOKEN,
            "WIRE_DATABASE": "/tmp/x.db",
            "WIRE_DEV_GUILD": "42",
            "LOG_LEVEL": "debug",
        }
    )
    assert (str(config.database), config.dev_guild, config.log_level) == ("/tmp/x.db", 42, "DEBUG")


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": TOKEN, "WIRE_DEV_GUILD": "my server"}, "WIRE_DEV_GUILD must be"),
        ({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "LOUD"}, "LOG_LEVEL must be"),
    ],
)
def test_bad_configuration_is_one_line_naming_the_fix(env, words):
    with pytest.raises(ConfigError) as caught:
        load_config(env)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_config_never_shows_the_token():
    config = Config(token=TOKEN)
    assert TOKEN not in repr(config)
    assert TOKEN not in str(config)


def test_log_records_are_scrubbed_of_the_token(caplog):
    logger = logging.getLogger("wire.test.redact")
    redact = RedactFilter(TOKEN)
    caplog.handler.addFilter(redact)
    try:
        logger.warning("connecting with %s", TOKEN)
        try:
            raise RuntimeError(f"bad header Bot {TOKEN}")
        except RuntimeError:
            logger.exception("request failed")
    finally:
        caplog.handler.removeFilter(redact)
    assert TOKEN not in caplog.text
    assert "<token>" in caplog.text
