"""Discord's per-channel rate limit on message edits, as a bot meets it: headers on every
answer, a 429 with a JSON body past the limit.

Why a module: a bot that edits one message often (the fight tracker) must pace itself, and a
stand-in without the limit would let it edit at any speed. Discord's documentation (Topics →
Rate Limits) says per-route limits are keyed by their top-level resource (a channel here), are
announced in `X-RateLimit-Limit`, `-Remaining`, `-Reset`, `-Reset-After` and `-Bucket` on every
answer, and that going past one answers 429 with `{"message", "retry_after", "global"}` and
`X-RateLimit-Scope: user` (plus `Retry-After`). The numbers are not documented ("should not be
hard coded"); the default here is what a channel's message edits show: 5 per 5 s, a window
that opens with the first request.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web

from .http_io import json_response

EDIT_LIMIT = (5, 5.0)
"""Edits of one channel's messages per window, and the window's seconds."""


@dataclass
class _Window:
    opened: float
    used: int = 0


class ChannelLimit:
    """A fixed-window limit per channel for one route (its bucket name says which)."""

    def __init__(
        self,
        limit: int,
        per: float,
        bucket: str,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit, self.per, self.bucket = limit, per, bucket
        self._clock = clock
        self._windows: dict[int, _Window] = {}
        self.refused = 0
        """429s answered, across channels."""

    def take(self, channel_id: int) -> tuple[bool, dict[str, str]]:
        """Whether a request to the channel may go now, and the headers its answer carries."""
        now = self._clock()
        window = self._windows.get(channel_id)
        if window is None or now >= window.opened + self.per:
            window = self._windows[channel_id] = _Window(now)
        reset_after = window.opened + self.per - now
        allowed = window.used < self.limit
        if allowed:
            window.used += 1
        else:
            self.refused += 1
        headers = {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.limit - window.used),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": self.bucket,
        }
        return allowed, headers

    def refusal(self, headers: dict[str, str]) -> web.Response:
        """Discord's 429 for this limit: the JSON body with `retry_after`, and the headers."""
        retry_after = float(headers["X-RateLimit-Reset-After"])
        body = {"message": "You are being rate limited.", "retry_after": retry_after,
                "global": False}  # fmt: skip
        return json_response(
            body,
            status=429,
            headers={
                **headers,
                "Retry-After": str(math.ceil(retry_after)),
                "X-RateLimit-Scope": "user",
            },
        )
