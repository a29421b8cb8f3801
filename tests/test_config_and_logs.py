"""Configuration and logs: the token never shows, bad settings are one clear line."""

from __future__ import annotations

import logging
import re
import sys
import time
from pathlib import Path

import discord
import pytest

from cogs.utils.config import (
    Config,
    ConfigError,
    check_deployment,
    format_shard_ids,
    load_config,
)
from cogs.utils.logs import LineFormatter, RedactFilter

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


def test_unset_shards_mean_one_unsharded_connection_that_syncs():
    config = load_config({"DISCORD_TOKEN": TOKEN, "WIRE_SHARD_COUNT": " ", "WIRE_SHARD_IDS": ""})
    assert (config.shard_count, config.shard_ids, config.sharded) == (None, None, False)
    assert config.runs_every_shard and config.syncs_commands


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [
        ("4", "", (0, 1, 2, 3)),
        ("4", "0-3", (0, 1, 2, 3)),
        ("8", "4,5", (4, 5)),
        ("8", "0-1,6", (0, 1, 6)),
        ("8", " 6, 0-1 ", (0, 1, 6)),
        ("1", "0", (0,)),
        ("16", "15", (15,)),
    ],
)
def test_shard_ids_are_ranges_and_lists_below_the_count(count, ids, expected):
    config = load_config({"DISCORD_TOKEN": TOKEN, "WIRE_SHARD_COUNT": count, "WIRE_SHARD_IDS": ids})
    assert (config.shard_count, config.shard_ids) == (int(count), expected)
    assert config.runs_every_shard == (len(expected) == int(count))
    assert config.syncs_commands == (0 in expected)


@pytest.mark.parametrize(
    ("count", "ids", "words"),
    [
        ("0", "", "WIRE_SHARD_COUNT must be a whole number of shards from 1"),
        ("-2", "", "not '-2'"),
        ("two", "", "not 'two'"),
        ("2.5", "", "WIRE_SHARD_COUNT must be"),
        ("²", "", "WIRE_SHARD_COUNT must be"),
        ("100001", "", "from 1 to 100,000"),
        ("9" * 5000, "", "WIRE_SHARD_COUNT must be"),
        ("", "0-1", "WIRE_SHARD_IDS needs WIRE_SHARD_COUNT"),
        ("4", "0-", "such as 0-3, 4,5 or 0-1,6, not '0-'"),
        ("4", "0,,1", "WIRE_SHARD_IDS must be shard numbers"),
        ("4", "a-b", "WIRE_SHARD_IDS must be shard numbers"),
        ("4", "0-1-2", "WIRE_SHARD_IDS must be shard numbers"),
        ("4", "-1", "WIRE_SHARD_IDS must be shard numbers"),
        ("4", "3-1", "the range 3-1, which runs backwards; write 1-3"),
        ("4", "4", "names shard 4, but WIRE_SHARD_COUNT=4 numbers the shards 0 to 3"),
        ("4", "0-999999", "names shard 999999"),
        ("4", "0-2,2", "names shard 2 twice"),
        ("8", "0-3,1-2", "names shard 1 twice"),
    ],
)
def test_bad_shard_settings_are_one_line_naming_the_fix(count, ids, words):
    env = {"DISCORD_TOKEN": TOKEN, "WIRE_SHARD_COUNT": count, "WIRE_SHARD_IDS": ids}
    with pytest.raises(ConfigError) as caught:
        load_config(env)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize(
    ("count", "ids"),
    [(None, None), (1, None), (4, None), (2, (0, 1)), (3, (2, 0, 1))],
)
def test_every_shard_in_one_process_on_sqlite_may_start(count, ids):
    check_deployment(Config(token=TOKEN, shard_count=count, shard_ids=ids))


@pytest.mark.parametrize(("count", "ids", "shown"), [(2, (0,), "0"), (8, (0, 1, 2, 3, 6), "0-3,6")])
def test_shards_split_over_processes_on_sqlite_are_refused(count, ids, shown):
    config = Config(token=TOKEN, database=Path("data/wire.db"), shard_count=count, shard_ids=ids)
    with pytest.raises(ConfigError) as caught:
        check_deployment(config)
    message = str(caught.value)
    assert message.startswith(f"WIRE_SHARD_IDS={shown} runs {len(ids)} of {count} shards here")
    assert "SQLite" in message and "WIRE_DATABASE=data/wire.db" in message
    assert "one process" in message and "PostgreSQL" in message
    assert "\n" not in message


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
def test_shards_split_over_processes_on_postgresql_may_start(scheme):
    env = {
        "DISCORD_TOKEN": TOKEN,
        "WIRE_DATABASE": f"{scheme}://wire:s3cret@db:5432/wire",
        "WIRE_SHARD_COUNT": "4",
        "WIRE_SHARD_IDS": "2-3",
    }
    config = load_config(env)
    check_deployment(config)
    assert config.database == f"{scheme}://wire:s3cret@db:5432/wire"  # a URL, not a path
    assert "s3cret" not in repr(config) and "wire:***@db:5432/wire" in repr(config)


@pytest.mark.parametrize("pool", ["0", "many", "1001"])
def test_a_bad_pool_size_is_one_line_naming_the_fix(pool):
    with pytest.raises(ConfigError, match="WIRE_DATABASE_POOL must be a number"):
        load_config({"DISCORD_TOKEN": TOKEN, "WIRE_DATABASE_POOL": pool})


@pytest.mark.parametrize(
    ("setting", "path"), [("sqlite:data/w.db", "data/w.db"), ("sqlite:///srv/w.db", "/srv/w.db")]
)
def test_a_sqlite_url_is_its_file(setting, path):
    config = load_config({"DISCORD_TOKEN": TOKEN, "WIRE_DATABASE": setting})
    assert config.database == Path(path)


def test_shard_ids_print_as_ranges():
    assert format_shard_ids([6, 0, 1, 2, 3]) == "0-3,6"
    assert format_shard_ids([4, 5]) == "4-5"
    assert format_shard_ids([0, 2, 4]) == "0,2,4"
    assert format_shard_ids([]) == ""


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": TOKEN, "WIRE_DEV_GUILD": "my server"}, "WIRE_DEV_GUILD must be"),
        ({"DISCORD_TOKEN": TOKEN, "WIRE_DEV_GUILD": "４２"}, "WIRE_DEV_GUILD must be"),
        ({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "LOUD"}, "LOG_LEVEL must be"),
    ],
)
def test_bad_configuration_is_one_line_naming_the_fix(env, words):
    with pytest.raises(ConfigError) as caught:
        load_config(env)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_config_never_shows_the_token():
    config = Config(token=TOKEN, shard_count=2)
    assert "shard_ids=(0, 1)" in repr(config)
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


def test_roll_log_days_are_read_and_empty_keeps_every_roll():
    assert load_config({"DISCORD_TOKEN": TOKEN}).roll_log_days is None
    assert load_config({"DISCORD_TOKEN": TOKEN, "WIRE_ROLL_LOG_DAYS": " "}).roll_log_days is None
    assert load_config({"DISCORD_TOKEN": TOKEN, "WIRE_ROLL_LOG_DAYS": "365"}).roll_log_days == 365


@pytest.mark.parametrize("days", ["0", "-5", "1y", "36501", "365.5"])
def test_bad_roll_log_days_are_one_line_naming_the_fix(days):
    with pytest.raises(ConfigError, match="WIRE_ROLL_LOG_DAYS must be a number of days") as error:
        load_config({"DISCORD_TOKEN": TOKEN, "WIRE_ROLL_LOG_DAYS": days})
    assert "\n" not in str(error.value) and "empty to keep every roll" in str(error.value)


def test_help_names_the_configuration_file_and_every_variable(capsys):
    """`python bot.py --help` answers "where do the settings go?" without the README."""

    from bot import parse_args

    with pytest.raises(SystemExit):
        parse_args(["--help"])
    shown = capsys.readouterr().out
    assert ".env" in shown and ".env.example" in shown
    config_py = (Path(__file__).resolve().parents[1] / "cogs/utils/config.py").read_text()
    read = set(re.findall(r'env\.get\("([A-Z_]+)"', config_py))
    assert read
    for name in read:
        assert re.search(rf"^  {name}  +\S", shown, re.M), f"{name} is not in bot.py --help"


_RECORD_KNOBS = ("_srcfile", "logThreads", "logProcesses", "logMultiprocessing")


@pytest.fixture
def logging_restored():
    """setup_logging changes the process's logging: put back the root's handlers, discord.client's
    filters and the record knobs it turns off, for the tests after."""
    root = logging.getLogger()
    before = list(root.handlers)
    client_log = logging.getLogger("discord.client")
    filters = list(client_log.filters)
    knobs = {name: getattr(logging, name) for name in _RECORD_KNOBS}
    yield
    for handler in root.handlers[:]:
        if handler not in before:
            root.removeHandler(handler)
    client_log.filters[:] = filters
    for name, value in knobs.items():
        setattr(logging, name, value)


def test_a_line_without_the_unused_record_fields_reads_as_before(logging_restored, capsys):
    """The bot skips the caller's file and the thread's and process's names (no format shows
    them): the line on stderr keeps its level, logger and text, an exception its traceback, and
    the token stays out."""
    from cogs.utils.logs import setup_logging

    setup_logging("INFO", secret="sekrit-token")
    log = logging.getLogger("wire")
    log.info("guild=1 user=2 command=attack outcome=ok time=1.0ms")
    try:
        raise ValueError("broke with sekrit-token")
    except ValueError:
        log.exception("Ignoring a failed roll")
    err = re.sub(r"\x1b\[[0-9;]*m", "", capsys.readouterr().err)  # colours, where shown
    assert re.search(r"INFO\W+wire\W+guild=1 user=2 command=attack outcome=ok time=1.0ms", err)
    assert "ERROR" in err and "Ignoring a failed roll" in err
    assert "Traceback (most recent call last)" in err and "ValueError" in err
    assert "sekrit-token" not in err
    assert logging._srcfile is None and not logging.logThreads


def test_the_two_voice_warnings_are_silenced_and_other_warnings_are_not(caplog, logging_restored):
    """discord.py warns on every start that PyNaCl and davey are missing; the bot uses no voice.
    A rate limit's warning (any other warning) still shows."""
    from cogs.utils.logs import setup_logging

    client_log = logging.getLogger("discord.client")
    setup_logging("INFO")
    caplog.set_level(logging.INFO)
    client_log.warning("PyNaCl is not installed, voice will NOT be supported")
    client_log.warning("davey is not installed, voice will NOT be supported")
    client_log.warning("We are being rate limited. Retrying in 2.00 seconds.")
    logging.getLogger("discord.http").warning("We are being rate limited.")
    shown = [record.getMessage() for record in caplog.records]
    assert shown == [
        "We are being rate limited. Retrying in 2.00 seconds.",
        "We are being rate limited.",
    ]


@pytest.mark.parametrize("colour", [False, True])
def test_the_bots_line_reads_as_discord_pys_and_writes_its_time_once_a_second(colour, monkeypatch):
    """The bot's formatter gives the line discord.py's own would (plain, or coloured for a
    terminal or a container), traceback included, and formats the time once for the lines of
    one second: the next second's line has its own time."""
    theirs = (
        discord.utils._ColourFormatter()
        if colour
        else logging.Formatter(
            "[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S", style="{"
        )
    )
    ours = LineFormatter(colour)
    try:
        raise ValueError("broke")
    except ValueError:
        failure = sys.exc_info()
    times = []
    real_strftime = time.strftime
    monkeypatch.setattr(time, "strftime", lambda *a: times.append(a) or real_strftime(*a))
    for level, msg, exc in (
        (logging.INFO, "guild=1 user=2 command=attack outcome=ok", None),
        (logging.WARNING, "slow", None),
        (logging.ERROR, "Ignoring a failed roll", failure),
        (logging.DEBUG, "quiet", None),
    ):
        made = logging.LogRecord("wire.x", level, __file__, 1, msg, None, exc)
        copy = logging.LogRecord("wire.x", level, __file__, 1, msg, None, exc)
        copy.created = made.created = 1_700_000_000.25
        assert ours.format(made) == theirs.format(copy)
        assert "\x1b" not in (made.exc_text or "")  # another handler gets a plain traceback
    ours_count = len(times) - 4  # discord.py's formatter wrote the time of each of the four
    assert ours_count == 1
    later = logging.LogRecord("wire.x", logging.INFO, __file__, 1, "next", None, None)
    later.created = 1_700_000_001.0
    assert real_strftime("%H:%M:%S", time.localtime(later.created)) in ours.format(later)
