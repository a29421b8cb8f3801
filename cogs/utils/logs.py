"""Logging set-up: discord.py's handler and format, a level from LOG_LEVEL, and no token ever.

The token filter is a last line of defence: the bot never logs the token on purpose, but a library
could (a URL, a header in a debug line), so every record is scrubbed before it is written.
"""

from __future__ import annotations

import logging

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


def setup_logging(level: str, secret: str = "") -> None:
    discord.utils.setup_logging(level=logging.getLevelName(level), root=True)
    skip_unused_record_fields()
    client_log = logging.getLogger("discord.client")
    if not any(isinstance(f, VoiceWarningFilter) for f in client_log.filters):
        client_log.addFilter(VoiceWarningFilter())
    redact = RedactFilter(secret)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redact)
