"""Logging set-up: discord.py's handler and format, a level from LOG_LEVEL, and no token ever.

The token filter is a last line of defence: the bot never logs the token on purpose, but a library
could (a URL, a header in a debug line), so every record is scrubbed before it is written.
"""

from __future__ import annotations

import logging
from typing import Any

import discord


class RedactFilter(logging.Filter):
    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secret:
            return True
        message = record.getMessage()
        if self.secret in message:
            record.msg = message.replace(self.secret, "<token>")
            record.args = None
        if record.exc_info and record.exc_info[1] is not None:
            text = logging.Formatter().formatException(record.exc_info)
            if self.secret in text:
                record.exc_info = None
                record.exc_text = text.replace(self.secret, "<token>")
        return True


VOICE_WARNINGS = frozenset(
    {
        "PyNaCl is not installed, voice will NOT be supported",
        "davey is not installed, voice will NOT be supported",
    }
)
"""discord.py's two warnings on every start about voice libraries: the bot uses no voice, so a
host would only wonder what to install."""


class VoiceWarningFilter(logging.Filter):
    """Drops exactly the two voice warnings; every other record of discord.client passes (a rate
    limit's warning, a failed reconnect)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() not in VOICE_WARNINGS


def skip_unused_record_fields() -> None:
    """Records without the caller's file and line, the thread's and the process's names.

    discord.py's format shows none of them, and the bot writes a line for every interaction:
    looking them up was a quarter of that line's cost (valgrind: 81,000 machine instructions a
    line with them, 61,000 without). The knobs are the ones Python's logging HOWTO names under
    "Optimization"; a traceback is unaffected.
    """
    logging._srcfile = None  # type: ignore[attr-defined]
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False


LINE_FORMAT = "[%(asctime)s] [%(levelname)-8s] %(name)s: %(message)s"
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"
"""discord.py's plain line (discord.utils.setup_logging, where the stream shows no colour), in
%-style: formatting a line from the record's fields costs half of what str.format does."""

_LEVEL_COLOURS = {
    logging.DEBUG: "\x1b[40;1m",
    logging.INFO: "\x1b[34;1m",
    logging.WARNING: "\x1b[33;1m",
    logging.ERROR: "\x1b[31m",
    logging.CRITICAL: "\x1b[41m",
}
"""discord.py's coloured line, a colour a level (its _ColourFormatter, for a terminal or a
container's log)."""


def _coloured(colour: str) -> str:
    return (
        f"\x1b[30;1m%(asctime)s\x1b[0m {colour}%(levelname)-8s\x1b[0m "
        "\x1b[35m%(name)s\x1b[0m %(message)s"
    )


class LineFormatter(logging.Formatter):
    """discord.py's line, plain or coloured as it chooses, whose time is written once a second.

    The bot writes a line for every interaction, and each line's time took a call to localtime
    and one to strftime (valgrind: about 8,000 of the line's 65,000 machine instructions); the
    time shows seconds only, and at a busy table's rate most lines share their second with the
    one before.
    """

    def __init__(self, colour: bool) -> None:
        super().__init__(LINE_FORMAT, TIME_FORMAT)
        self._styles = (
            {level: logging.PercentStyle(_coloured(c)) for level, c in _LEVEL_COLOURS.items()}
            if colour
            else {}
        )
        self._second: tuple[int, str] = (-1, "")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        second = int(record.created)
        last, text = self._second  # one read: a line of another thread sees a whole pair
        if second != last:
            text = super().formatTime(record, datefmt)
            self._second = (second, text)
        return text

    def format(self, record: logging.LogRecord) -> str:
        """The line; a coloured traceback is not left on the record for another handler (as
        discord.py's coloured formatter does not leave it)."""
        if not self._styles:
            return super().format(record)
        kept = record.exc_text
        try:
            return super().format(record)
        finally:
            record.exc_text = kept

    def formatMessage(self, record: logging.LogRecord) -> str:
        return self._styles.get(record.levelno, self._style).format(record)

    def formatException(self, ei: Any) -> str:
        text = super().formatException(ei)
        return f"\x1b[31m{text}\x1b[0m" if self._styles else text


def setup_logging(level: str, secret: str = "") -> None:
    handler = logging.StreamHandler()
    discord.utils.setup_logging(
        handler=handler,
        formatter=LineFormatter(discord.utils.stream_supports_colour(handler.stream)),
        level=logging.getLevelName(level),
        root=True,
    )
    skip_unused_record_fields()
    client_log = logging.getLogger("discord.client")
    if not any(isinstance(f, VoiceWarningFilter) for f in client_log.filters):
        client_log.addFilter(VoiceWarningFilter())
    redact = RedactFilter(secret)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redact)
