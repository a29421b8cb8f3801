"""A chart as a Discord attachment, drawn off the event loop and never waited on for long.

Drawing takes tens of milliseconds of CPU (bench/bench_stats.py), which on the event loop would
hold up every other interaction; so it runs in a worker thread (Pillow's drawing releases the
GIL for most of it). A reply waits at most `CHART_SECONDS` for it: a slow or failed chart never
delays or loses the reply, which then comes without the picture and says so.
"""

from __future__ import annotations

import asyncio
import io
import logging

import discord

from wire.chart import ChartSpec, render

CHART_SECONDS = 2.0
"""How long a reply waits for its chart (well inside the 15 minutes a deferred reply has)."""

log = logging.getLogger(__name__)


async def chart_file(
    spec: ChartSpec, filename: str, *, seconds: float | None = None
) -> discord.File | None:
    """The chart as a PNG attachment, or None when it failed or took longer than `seconds`
    (default CHART_SECONDS)."""
    wait = CHART_SECONDS if seconds is None else seconds
    try:
        png = await asyncio.wait_for(asyncio.to_thread(render, spec), wait)
    except TimeoutError:
        log.warning("chart %s not drawn within %s s; the reply goes without it", filename, wait)
        return None
    except Exception:  # a chart is never worth losing the reply over
        log.warning("chart %s failed; the reply goes without it", filename, exc_info=True)
        return None
    return discord.File(io.BytesIO(png), filename=filename)
