"""Reading requests and writing answers the way Discord's HTTP API does.

Why a module: every REST route and every injected fault answers through ``json_response``, whose
Content-Type must be exactly ``application/json`` (discord.py reads anything else as text), and
every route reads bodies the way discord.py sends them (JSON, or multipart with
``payload_json`` and ``files[n]``).  Kept apart so the routes and the faults share one copy.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from aiohttp import BodyPartReader, web

from .protocol import JSON_CONTENT_TYPE
from .records import UploadedFile


def json_response(
    data: Any, status: int = 200, headers: Mapping[str, str] | None = None
) -> web.Response:
    """A JSON response whose Content-Type is exactly application/json, as discord.py requires.

    (``web.json_response`` appends ``; charset=utf-8`` and discord.py would then treat the body
    as text.)
    """
    resp = web.Response(status=status, body=json.dumps(data, separators=(",", ":")).encode())
    resp.headers["Content-Type"] = JSON_CONTENT_TYPE
    resp.headers["Via"] = "1.1 google"
    for key, value in (headers or {}).items():
        resp.headers[key] = value
    return resp


def int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


async def read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    """JSON body, or multipart (``payload_json`` plus ``files[n]`` parts) as discord.py sends."""
    if not request.can_read_body:
        return None, []
    ctype = request.content_type
    if ctype.startswith("multipart/"):
        payload: Any = None
        files: list[UploadedFile] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue  # nested multipart: Discord does not use it
            data = await part.read()
            if part.name == "payload_json":
                payload = json.loads(bytes(data).decode())
            else:
                files.append(
                    UploadedFile(
                        field=part.name or "",
                        filename=part.filename,
                        content_type=part.headers.get("Content-Type"),
                        data=bytes(data),
                    )
                )
        return payload, files
    raw = await request.read()
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError:
        return raw.decode(errors="replace"), []
