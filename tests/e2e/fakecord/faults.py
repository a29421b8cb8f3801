"""Injected HTTP failures: 429 rate limits (with or without Cloudflare's look) and 5xx.

Why a module: how a bot copes with Discord failing is half of what the end-to-end tests are
for; the rules of a fault (which requests it hits, how often, what the answer carries so that
discord.py retries or gives up) are kept together here, away from the routes they interrupt.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable

from aiohttp import web

from .http_io import json_response
from .records import Fault, FaultRequest
from .state import FakecordState


def fault_response(fault: Fault) -> web.Response:
    """The answer a fault gives instead of the route's."""
    if fault.status == 429:
        if fault.cloudflare:
            resp = web.Response(status=429, text="error code: 1015")
            resp.headers["Content-Type"] = "text/plain"
            resp.headers["Retry-After"] = str(math.ceil(fault.retry_after))
            return resp
        body = {
            "message": "You are being rate limited.",
            "retry_after": fault.retry_after,
            "global": fault.is_global,
        }
        headers = {
            "Retry-After": str(math.ceil(fault.retry_after)),
            "X-RateLimit-Limit": "1",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + fault.retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
            "X-RateLimit-Bucket": "fakecord0000000000000000000000000",
            "X-RateLimit-Scope": "global" if fault.is_global else "user",
        }
        if fault.is_global:
            headers["X-RateLimit-Global"] = "true"
        return json_response(body, status=429, headers=headers)
    if fault.status >= 500:
        return json_response({"message": f"{fault.status}: Server Error", "code": 0}, fault.status)
    return json_response(
        {"message": f"{fault.status}: injected by fakecord", "code": 0}, fault.status
    )


class FaultInjector(FakecordState):
    """The test controls for HTTP faults, and the check every REST route makes first."""

    def inject_fault(
        self,
        status: int = 429,
        *,
        count: int | None = 1,
        kinds: Iterable[str] | None = ("callback",),
        predicate: Callable[[FaultRequest], bool] | None = None,
        retry_after: float = 0.5,
        is_global: bool = False,
        cloudflare: bool = False,
    ) -> Fault:
        """Answer the next ``count`` matching requests with ``status`` instead of serving them.

        ``kinds`` selects routes (callback, followup, webhook_message, channel_message,
        channel_message_edit, commands, me, application, gateway_info, channel; None for all).
        For 429 the answer carries what discord.py reads: JSON ``retry_after``/``global``, the
        Retry-After and X-RateLimit-* headers, and ``Via`` (discord.py treats a 429 without
        ``Via`` as a Cloudflare ban and does not retry; ``cloudflare=True`` imitates that).
        """
        fault = Fault(
            status=status,
            remaining=count,
            kinds=frozenset(kinds) if kinds is not None else None,
            predicate=predicate,
            retry_after=retry_after,
            is_global=is_global,
            cloudflare=cloudflare,
        )
        self.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        self.faults.clear()

    def _take_fault(self, req: FaultRequest) -> web.Response | None:
        for fault in self.faults:
            if fault.matches(req):
                fault.hits += 1
                if fault.remaining is not None:
                    fault.remaining -= 1
                return fault_response(fault)
        return None
