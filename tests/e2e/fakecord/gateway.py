"""The gateway: the websocket a bot keeps open to receive events, and its test controls.

Why a module: the gateway is a protocol of its own (HELLO, IDENTIFY -> READY and GUILD_CREATE,
heartbeats, RESUME with replay of missed events, close codes, zlib-stream and zstd-stream
compression), with its own state (sessions, connections) and its own faults (closes, RECONNECT,
INVALID_SESSION).  None of it touches the REST routes, so it reads best alone.

Shards: an IDENTIFY may carry ``shard: [shard_id, shard_count]``; each shard is its own
connection and session, and a guild's events go to shard ``(guild_id >> 22) % shard_count``, as
Discord sends them.  An IDENTIFY without ``shard`` is shard [0, 1], which carries every guild.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
import zlib
from collections.abc import Callable, Mapping
from typing import Any

from aiohttp import WSMsgType, web

from .payloads import PayloadBuilder
from .protocol import INTENT_GUILDS, PRIVILEGED_INTENTS
from .records import FakecordError, GatewayClose, Handshake

log = logging.getLogger("fakecord")


class Session:
    """One gateway session: its sequence numbers and the dispatches buffered for a RESUME."""

    def __init__(self, session_id: str, intents: int, shard: tuple[int, int]) -> None:
        self.id = session_id
        self.intents = intents
        self.shard = shard
        """(shard_id, shard_count); (0, 1) when IDENTIFY named no shard."""
        self.seq = 0
        self.buffer: list[tuple[int, dict[str, Any]]] = []
        self.conn: Conn | None = None
        self.invalid = False


class Conn:
    """One websocket connection; it carries at most one session at a time."""

    def __init__(
        self, conn_id: int, ws: web.WebSocketResponse, request: web.Request, compress: str | None
    ) -> None:
        self.id = conn_id
        self.ws = ws
        self.request = request
        self.path = request.path
        self.query = dict(request.query)
        self.compress = compress
        self.session: Session | None = None
        self.lock = asyncio.Lock()
        self.server_close_code: int | None = None
        self._compress = make_compressor(compress)

    @property
    def open(self) -> bool:
        return not self.ws.closed and self.server_close_code is None

    async def send(self, payload: Mapping[str, Any]) -> bool:
        """Send one gateway message; False if the connection went away meanwhile (a dispatch
        stays in the session's buffer and is replayed on RESUME)."""
        raw = json.dumps(payload, separators=(",", ":"))
        async with self.lock:  # the zlib stream must see frames in the order they are sent
            if self.ws.closed:
                return False
            try:
                if self._compress is None:
                    await self.ws.send_str(raw)
                else:
                    await self.ws.send_bytes(self._compress(raw.encode()))
            except ConnectionError as exc:  # aiohttp's ClientConnectionResetError is one
                log.debug("fakecord: gateway connection %s lost while sending: %s", self.id, exc)
                return False
            return True


def valid_shard(value: Any) -> tuple[int, int] | None:
    """[shard_id, shard_count] as Discord accepts it, or None (close 4010 Invalid shard)."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    shard_id, count = value
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in value):
        return None
    if count < 1 or not 0 <= shard_id < count:
        return None
    return shard_id, count


def make_compressor(kind: str | None) -> Callable[[bytes], bytes] | None:
    """Transport compression as discord.py's ``_ActiveDecompressionContext`` expects it.

    zlib-stream: one deflate stream per connection, every message flushed with Z_SYNC_FLUSH so it
    ends in 00 00 ff ff.  zstd-stream (discord.py picks it when ``zstandard`` is installed or on
    Python 3.14): one zstd stream per connection, every message a flushed block.
    """
    if kind is None:
        return None
    if kind == "zlib-stream":
        z = zlib.compressobj()
        return lambda data: z.compress(data) + z.flush(zlib.Z_SYNC_FLUSH)
    if kind == "zstd-stream":
        try:
            from compression import zstd  # type: ignore[import-not-found]  # Python 3.14+

            zc = zstd.ZstdCompressor()
            return lambda data: zc.compress(data, mode=zstd.ZstdCompressor.FLUSH_BLOCK)
        except ImportError:
            pass
        try:
            import zstandard  # type: ignore[import-not-found]

            zo = zstandard.ZstdCompressor().compressobj()
            return lambda data: zo.compress(data) + zo.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
        except ImportError:
            pass
    raise ValueError(f"unsupported gateway compression {kind!r}")


class GatewayServer(PayloadBuilder):
    """The websocket endpoint and the test controls that act on the bot's connection."""

    # ---------------------------------------------------------------- controls

    def _live_conn(self, shard_id: int = 0) -> Conn | None:
        session = self._shard_sessions.get(shard_id)
        if session is None or session.conn is None or not session.conn.open:
            return None
        return session.conn

    def _require_conn(self, shard_id: int = 0) -> Conn:
        conn = self._live_conn(shard_id)
        if conn is None:
            raise FakecordError(f"no live gateway connection for shard {shard_id}")
        return conn

    def _abort(self, conn: Conn) -> None:
        transport = conn.request.transport
        if transport is not None:
            transport.abort()

    async def close_gateway(self, code: int = 4000, reason: str = "", *, shard_id: int = 0) -> None:
        """Close a shard's gateway connection; code 1006 drops TCP without a close frame."""
        conn = self._require_conn(shard_id)
        conn.server_close_code = code
        self._detach(conn)
        self.gateway_closes.append(GatewayClose(conn.id, "server", code, time.perf_counter()))
        self._notify()
        if code == 1006:
            self._abort(conn)
            return
        # ws.close() waits for the client's answering close frame; do not block the test on it.
        task = asyncio.create_task(conn.ws.close(code=code, message=reason.encode()))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    async def send_reconnect(self, *, shard_id: int = 0) -> None:
        """Send op 7 RECONNECT on a shard: the client should close and RESUME."""
        await self._require_conn(shard_id).send({"op": 7, "d": None})

    async def send_invalid_session(self, resumable: bool = False, *, shard_id: int = 0) -> None:
        """Send op 9 INVALID_SESSION; when not resumable, the session is forgotten for good."""
        conn = self._require_conn(shard_id)
        if not resumable and conn.session is not None:
            conn.session.invalid = True
        await conn.send({"op": 9, "d": resumable})

    async def dispatch(
        self, event: str, data: Mapping[str, Any], *, shard_id: int | None = None
    ) -> int:
        """Send an op 0 dispatch on a shard's current session and return its sequence number.

        The shard is the one of the event's guild (``guild_id``, or ``id`` for GUILD_CREATE,
        GUILD_UPDATE, GUILD_DELETE), else shard 0, as Discord sends direct messages; pass
        ``shard_id`` to choose.  If the bot is between connections the event is buffered and
        replayed on RESUME, as Discord does; a session invalidated with INVALID_SESSION(false)
        loses it.
        """
        if shard_id is None:
            shard_id = self._event_shard(event, data)
        session = self._shard_sessions.get(shard_id)
        if session is None or session.invalid:
            raise FakecordError(f"cannot dispatch {event}: no gateway session for shard {shard_id}")
        return await self._dispatch(session, event, dict(data))

    def _event_shard(self, event: str, data: Mapping[str, Any]) -> int:
        guild = data.get("guild_id")
        if guild is None and event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
            guild = data.get("id")
        return 0 if guild is None else self.shard_of(int(guild))

    async def _dispatch(self, session: Session, event: str, data: dict[str, Any]) -> int:
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.buffer.append((session.seq, frame))
        del session.buffer[:-1000]
        conn = session.conn
        if conn is not None and conn.open:
            await conn.send(frame)
        return session.seq

    # ---------------------------------------------------------------- protocol

    def _add_gateway_routes(self, app: web.Application) -> None:
        """The websocket endpoint, at every path discord.py connects or resumes to."""
        for path in ("/", "/gateway", "/gateway-resume"):
            app.router.add_get(path, self._gateway)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoclose=True, max_msg_size=0)
        await ws.prepare(request)
        query = dict(request.query)
        compress = query.get("compress") or None
        conn_id = next(self._conn_ids)
        try:
            conn = Conn(conn_id, ws, request, compress)
        except ValueError as exc:
            log.error("fakecord: %s", exc)
            await ws.close(code=4012, message=b"unsupported compression")
            self.gateway_closes.append(GatewayClose(conn_id, "server", 4012, time.perf_counter()))
            return ws
        self._conns[conn_id] = conn
        try:
            if query.get("encoding", "json") != "json":
                await self._protocol_close(conn, 4012, "only encoding=json is supported")
                return ws
            await conn.send(
                {"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None}
            )
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    continue
                try:
                    raw = msg.data if msg.type is WSMsgType.TEXT else msg.data.decode()
                    frame = json.loads(raw)
                except (ValueError, UnicodeDecodeError):
                    await self._protocol_close(conn, 4002, "Error while decoding payload.")
                    break
                await self._on_frame(conn, frame)
                if not conn.open:
                    break
        finally:
            self._conns.pop(conn_id, None)
            self._detach(conn)
            if conn.server_close_code is None:
                code = ws.close_code if ws.close_code is not None else 1006
                self.gateway_closes.append(
                    GatewayClose(conn_id, "client", code, time.perf_counter())
                )
            self._notify()
        return ws

    def _detach(self, conn: Conn) -> None:
        if conn.session is not None and conn.session.conn is conn:
            conn.session.conn = None

    async def _protocol_close(self, conn: Conn, code: int, reason: str) -> None:
        log.warning("fakecord: closing gateway connection %s: %s %s", conn.id, code, reason)
        conn.server_close_code = code
        self._detach(conn)
        self.gateway_closes.append(GatewayClose(conn.id, "server", code, time.perf_counter()))
        self._notify()
        await conn.ws.close(code=code, message=reason.encode())

    async def _on_frame(self, conn: Conn, frame: Mapping[str, Any]) -> None:
        op = frame.get("op")
        d = frame.get("d")
        if op == 1:
            self.heartbeats += 1
            await conn.send({"op": 11})
        elif op == 2:
            await self._identify(conn, d if isinstance(d, dict) else {})
        elif op == 6:
            await self._resume(conn, d if isinstance(d, dict) else {})
        elif conn.session is None:
            await self._protocol_close(conn, 4003, "Not authenticated.")
        elif op in (3, 4, 8):
            pass  # presence, voice state, member requests: accepted, not acted on
        else:
            await self._protocol_close(conn, 4001, "Unknown opcode.")

    async def _identify(self, conn: Conn, d: dict[str, Any]) -> None:
        if conn.session is not None:
            await self._protocol_close(conn, 4005, "Already authenticated.")
            return
        if d.get("token") != self.token and d.get("token") != f"Bot {self.token}":
            await self._protocol_close(conn, 4004, "Authentication failed.")
            return
        intents = d.get("intents")
        if not isinstance(intents, int) or intents < 0 or intents >= 1 << 26:
            await self._protocol_close(conn, 4013, "Invalid intent(s).")
            return
        if intents & PRIVILEGED_INTENTS and not self.allow_privileged_intents:
            await self._protocol_close(conn, 4014, "Disallowed intent(s).")
            return
        asked = d.get("shard")
        shard = (0, 1) if asked is None else valid_shard(asked)
        if shard is None:
            await self._protocol_close(conn, 4010, "Invalid shard.")
            return
        shard_id, shard_count = shard
        guilds = self.guilds_of_shard(shard_id, shard_count)
        if len(guilds) > self.max_guilds_per_shard:
            await self._protocol_close(conn, 4011, "Sharding required.")
            return
        self.identify_payloads.append({k: v for k, v in d.items() if k != "token"})
        session = Session(uuid.uuid4().hex, intents, shard)
        self._sessions[session.id] = session
        self._replace_sessions(session)
        session.conn = conn
        conn.session = session
        ready: dict[str, Any] = {
            "v": 10,
            "user": self.bot_user_payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["local"],
            "user_settings": {},
            "auth": {},
            "_trace": ["fakecord"],
        }
        if asked is not None:
            ready["shard"] = list(shard)
        await self._dispatch(session, "READY", ready)
        send_guilds = self.guild_create
        if send_guilds is None:
            send_guilds = bool(intents & INTENT_GUILDS)
        if send_guilds:
            for g in guilds:
                await self._dispatch(session, "GUILD_CREATE", self.guild_create_payload(g))
        self.handshakes.append(
            Handshake(
                "identify",
                conn.id,
                session.id,
                conn.path,
                conn.query,
                intents,
                0,
                time.perf_counter(),
                shard,
            )
        )
        self._notify()

    def _replace_sessions(self, session: Session) -> None:
        """A new IDENTIFY replaces its shard's old session; one with another shard count
        re-shards the bot, so every session of the old count is over too.

        Simpler than Discord, which lets several sessions share a shard or differ in count (for
        hand-overs without downtime): a bot that restarts or re-identifies needs only the latest,
        and one current session per shard says where each event goes.
        """
        shard_id, shard_count = session.shard
        if shard_count != self.identified_shard_count:
            for old in self._shard_sessions.values():
                old.invalid = True
            self._shard_sessions.clear()
            self.identified_shard_count = shard_count
        old = self._shard_sessions.get(shard_id)
        if old is not None and old is not session:
            old.invalid = True
        self._shard_sessions[shard_id] = session

    async def _resume(self, conn: Conn, d: dict[str, Any]) -> None:
        session = self._sessions.get(str(d.get("session_id")))
        token_ok = d.get("token") in (self.token, f"Bot {self.token}")
        if not token_ok:
            await self._protocol_close(conn, 4004, "Authentication failed.")
            return
        if session is None or session.invalid:
            await asyncio.sleep(0.05)
            await conn.send({"op": 9, "d": False})
            return
        seq = d.get("seq")
        seq = int(seq) if isinstance(seq, int) else 0
        if session.conn is not None and session.conn is not conn:
            old = session.conn
            self._detach(old)
            self._abort(old)
        session.conn = conn
        conn.session = session
        missed = [frame for s, frame in session.buffer if s > seq]
        for frame in missed:
            await conn.send(frame)
        await self._dispatch(session, "RESUMED", {"_trace": ["fakecord"]})
        self._shard_sessions[session.shard[0]] = session
        self.handshakes.append(
            Handshake(
                "resume",
                conn.id,
                session.id,
                conn.path,
                conn.query,
                session.intents,
                len(missed),
                time.perf_counter(),
                session.shard,
            )
        )
        self._notify()
