"""Refusing what Discord refuses in a message, with Discord's 400 Invalid Form Body answer.

Why a module: the limits and the checks (content 2000, embeds, components, custom_ids...) live
in ``tests/discord_rules.py``, shared with the unit tests, so that no limit is declared twice.
This module only turns the problems found there into the nested ``errors`` object Discord
answers with (code 50035), and adds the one rule that depends on the request rather than on
the body: a new message must not be empty.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tests import discord_rules as rules

from .records import UploadedFile

INVALID_FORM_BODY = 50035


def form_error(code: str, message: str) -> dict[str, str]:
    """One entry of an ``_errors`` list."""
    return {"code": code, "message": message}


def invalid_form_body(errors: dict[str, Any]) -> dict[str, Any]:
    """Discord's answer body to a request it refuses (HTTP 400)."""
    return {"message": "Invalid Form Body", "code": INVALID_FORM_BODY, "errors": errors}


def errors_tree(problems: Iterable[rules.Problem]) -> dict[str, Any]:
    """Discord's nested ``errors`` object: each problem under its path, in ``_errors``.

    ``("embeds", 0, "title")`` becomes ``{"embeds": {"0": {"title": {"_errors": [...]}}}}``.
    """
    errors: dict[str, Any] = {}
    for problem in problems:
        node = errors
        for part in problem.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append(form_error(problem.code, problem.text))
    return errors


def message_errors(
    body: Mapping[str, Any], files: Sequence[UploadedFile], *, need_content: bool
) -> dict[str, Any] | None:
    """The ``errors`` object for a message body Discord would refuse, or None if it is fine.

    ``need_content``: the request creates a message (not an edit), which must carry something:
    content, embeds, components, files, a poll or stickers.
    """
    errors = errors_tree(rules.located_message_problems(body))
    has_something = (
        body.get("content")
        or body.get("embeds")
        or body.get("components")
        or files
        or body.get("poll")
        or body.get("sticker_ids")
    )
    if need_content and not has_something:
        return {"_errors": [form_error("MESSAGE_EMPTY", "Cannot send an empty message")]}
    return errors or None


def modal_errors(data: Any) -> dict[str, Any] | None:
    """The ``errors`` object for a MODAL callback's data Discord would refuse, or None."""
    if data is None:
        return {"data": {"_errors": [form_error("BASE_TYPE_REQUIRED", "This field is required")]}}
    errors = errors_tree(rules.located_modal_problems(data))
    return {"data": errors} if errors else None
