"""Showing what a user typed, as they typed it: never as Discord markdown.

A name, label, note or item is shown through `inert` wherever Discord renders markdown: message
contents, embed titles, descriptions, field names and values. So a character named
`[Free Nitro](https://example.com)` shows those very characters, not a link; `**bold**`,
`# Big`, `-# small`, `> quote`, `<@123>` and `@everyone` show literally too, and a name ending
in a backslash cannot escape the bot's own `**` around it.

Discord renders no markdown in embed footers and author names, so text there is shown as it is;
escaping it would only add visible backslashes. Clip after escaping (`discord_limits.clip`), so
Discord's limits still hold: a cut never un-escapes anything, as it keeps a prefix.
"""

from __future__ import annotations

import re

from discord.utils import escape_mentions

_ANYWHERE = re.compile(r"[\\*_~|`\[<]")
"""Characters that start markdown anywhere in a line: emphasis, underline, strike, spoiler,
code, a masked link `[..](..)`, and `<..>` (mentions, channels, emoji, timestamps); the
backslash itself, so typed text cannot escape what follows it."""
_LINE_START = re.compile(r"^([^\S\n]*)([#>+-]|[0-9]+(?=[.)]))", re.MULTILINE)
"""What starts markdown at the start of a line: a header (`#`), subtext (`-#`), a quote (`>`),
a list item (`-`, `+`; `*` is escaped anywhere) or a numbered one (`1.`)."""
BIDI_CONTROLS = dict.fromkeys(
    map(ord, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
)
"""Direction marks, embeddings, overrides and isolates: dropped from what is shown."""
_PLAIN = re.compile("[^" + re.escape("\\*_~|`[<@#>+-.)" + "".join(map(chr, BIDI_CONTROLS))) + "]*")
"""Text without one character any step of `inert` looks at (markdown anywhere, a line-start
marker or a numbered item's dot or bracket, a mention's @, a direction control): unchanged by
it. Most names and labels are such text, and a check is cheaper than the three passes."""


def inert(text: str) -> str:
    """`text` for a place Discord renders markdown, so that it shows exactly as typed.

    Every markdown character is escaped with a backslash (Discord shows the character alone),
    and `@everyone`/`@here` get a zero-width space so they never read as a mention. Ordinary
    names ("Jaime", "Ser Carol", "Long sword") come back unchanged.

    The store refuses direction-changing characters, but a Discord display name or text stored
    before that check may hold one, and shown it would turn the rest of the line around (a roll's
    result included): those controls are dropped.
    """
    if _PLAIN.fullmatch(text):
        return text
    return _escape(text)


def _escape(text: str) -> str:
    """`inert`'s three passes, for text that may need them."""
    escaped = _ANYWHERE.sub(r"\\\g<0>", text.translate(BIDI_CONTROLS))
    escaped = _LINE_START.sub(_escape_marker, escaped)
    return escape_mentions(escaped)


def _escape_marker(match: re.Match[str]) -> str:
    indent, marker = match.groups()
    if marker[0].isdigit():  # "1." stays "1" with its dot escaped: "1\."
        return f"{indent}{marker}\\"
    return f"{indent}\\{marker}"


def quoted(text: str) -> str:
    """User text quoted inside a message: 'Long sword', inert."""
    return f"'{inert(text)}'"


def code(text: str) -> str:
    """Text in an inline code span, to copy as it is.

    Inside a code span nothing renders, but a backtick would close it early and let the rest
    render: such text is shown inert instead, outside a code span.
    """
    if "`" in text:
        return inert(text)
    return f"`{text}`"


def loggable(text: str, limit: int = 100) -> str:
    """Text from a client for one log line: non-printable characters as escapes, cut short.

    A line break or a control character in a log line could forge another line.
    """
    shown = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode() for ch in text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"
