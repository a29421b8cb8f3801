"""A character's portrait: an https link to an image, checked when it arrives.

The bot never fetches the image; Discord does, each time it shows a message with the link (a
sheet's thumbnail, a roll's author icon, an in-character post's avatar). So what is checked
is the link itself: https only (Discord shows no other), a sane length, nothing invisible or
direction-changing in it, and no credentials (a user and password, or a token in the query),
which every reader of the message would see. A Discord attachment link is taken, with a
warning: Discord's attachment links expire (about a day) and the portrait would stop showing.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

from storage.errors import InvalidValue
from storage.validation import TextProblem, expected_text, normal_text, text_problem
from wire.i18n import N_

PORTRAIT_MAX = 512
"""Longest portrait link (characters): image hosts' links are far shorter; Discord takes an
embed's image URL up to 2,048."""
DISCORD_ATTACHMENT_HOSTS = frozenset({"cdn.discordapp.com", "media.discordapp.net"})
CREDENTIAL_PARAMETERS = frozenset(
    {
        "access_token",
        "api_key",
        "apikey",
        "auth",
        "client_secret",
        "key",
        "password",
        "passwd",
        "pwd",
        "secret",
        "session",
        "sessionid",
        "token",
        "x-amz-credential",
        "x-amz-security-token",
    }
)
"""Query parameters that carry a credential: such a link is refused, since everyone who sees
the message sees the link."""

EXPIRES = N_(
    "This is a Discord attachment link: Discord's attachment links expire after about a day, "
    "and then the portrait stops showing. Upload the image to a lasting host (World Anvil, "
    "or any image host) and set that link instead."
)


@dataclass(frozen=True, slots=True)
class Portrait:
    """A checked portrait link; `expires` when Discord will stop serving it."""

    url: str
    expires: bool = False


def portrait_problem(value: object) -> TextProblem | None:
    """Why `value` cannot be a portrait link, or None."""
    if not isinstance(value, str):
        problem = expected_text(value)
        return TextProblem(problem.template, N_("Give an https link."), problem.params)
    problem = text_problem(value, PORTRAIT_MAX)
    if problem:
        return problem
    url = normal_text(value)
    if any(ch.isspace() for ch in url):
        return TextProblem(N_("contains a space"), N_("Copy the link again, without spaces."))
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        return TextProblem(N_("is not a link"), N_("Give an https link to an image."))
    if parts.scheme.lower() != "https" or not parts.hostname:
        return TextProblem(
            N_("is not an https link"),
            N_("Give a link that starts with https:// (Discord shows no other)."),
        )
    if parts.username is not None or parts.password is not None:
        return TextProblem(
            N_("holds a user name or password"),
            N_("Everyone who sees the portrait sees its link: give one without them."),
        )
    names = {name.casefold() for name, _ in parse_qsl(parts.query, keep_blank_values=True)}
    credential = sorted(names & CREDENTIAL_PARAMETERS)
    if credential:
        return TextProblem(
            N_("holds a credential ({parameter}=)"),
            N_("Everyone who sees the portrait sees its link: give one without it."),
            {"parameter": credential[0]},
        )
    return None


def is_discord_attachment(url: str) -> bool:
    parts = urlsplit(url)
    host = (parts.hostname or "").casefold()
    return host in DISCORD_ATTACHMENT_HOSTS and (
        parts.path.startswith("/attachments/") or parts.path.startswith("/ephemeral-attachments/")
    )


def clean_portrait(value: object) -> Portrait:
    """The link as stored, or InvalidValue saying what is wrong and how to fix it."""
    problem = portrait_problem(value)
    if problem:
        raise InvalidValue("The portrait link {problem}. {fix}", problem=problem, fix=problem.fix)
    url = normal_text(str(value))
    return Portrait(url, expires=is_discord_attachment(url))
