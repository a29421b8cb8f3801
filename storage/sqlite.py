"""`SqliteStore`: the `Store` on one SQLite file through aiosqlite.

How it stays correct:

* One aiosqlite connection writes; it runs statements one at a time on its own thread, but an
  `await` between two statements lets another coroutine in. So every operation that writes or
  reads several statements holds `self._lock` (an asyncio.Lock) for its whole length, and every
  read-modify-write runs inside one `BEGIN IMMEDIATE` transaction, which also takes SQLite's
  write lock up front, so another process (a second bot, the CLI) cannot interleave either and
  a deferred read never has to be upgraded (the case where SQLite gives up at once with
  SQLITE_BUSY). The lock also keeps a read from seeing another coroutine's uncommitted writes on
  the shared connection.
* Single-statement reads go to a second, query-only connection without the lock (WAL: it sees
  committed data only, and neither side waits for the other); what every roll reads is cached
  there until `PRAGMA data_version` says another connection committed.
* Rolls are logged by group commit (`log_roll`): rows that queue during a commit share the next.
* Single-row changes that need no check are single statements (UPSERTs, `INSERT ... RETURNING`),
  so they are atomic in SQL whichever process runs them.
* Every query touching campaign data filters on the guild id and the campaign id (joining
  `campaigns` where the table has no guild column), so an id from another guild finds nothing.

Settings: WAL journal (readers never block the writer, and the writer never blocks readers),
foreign keys on, a 5 s busy timeout, and `synchronous = NORMAL`. In WAL mode NORMAL syncs the
WAL at checkpoints, not at every commit: a committed transaction survives the bot process being
killed (the data is in the OS's file cache, written to the WAL file), and only an OS crash or a
power cut can lose the last commits, never corrupt the file. That trade buys commits without an
fsync each, which keeps logging a roll well under a millisecond. Checkpoints run in the
background (storage/checkpoint.py), so no roll waits for one either.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import sqlite3
import statistics
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

import aiosqlite

from storage import backup as backup_files
from storage import offload
from storage.base import Store
from storage.checkpoint import FALLBACK_AUTOCHECKPOINT_PAGES, Checkpointer
from storage.errors import (
    Busy,
    Conflict,
    InvalidValue,
    NameTaken,
    NotFound,
    PermissionDenied,
    StorageError,
)
from storage.models import (
    MAX_CAMPAIGNS_PER_GUILD,
    MAX_CHARACTERS_PER_CAMPAIGN,
    MAX_NPCS_PER_CAMPAIGN,
    MAX_OPEN_PROJECTS_PER_USER,
    MAX_WEAPONS,
    Campaign,
    Character,
    CraftProject,
    PendingAction,
    RollRecord,
    RollState,
    Weapon,
    manages_guild,
)
from storage.queries import (
    ACTIVE_CHARACTER,
    CAMPAIGN_FOR_CHANNEL,
    CAMPAIGN_SELECT,
    CAMPAIGN_WIDTH,
    CHARACTER_SELECT,
    IMPORT_CHARACTERS,
    IMPORT_CLASHES,
    IMPORT_CLEAR_STATS,
    IMPORT_CLEAR_WEAPONS,
    IMPORT_STATS,
    IMPORT_WEAPONS,
    IMPORT_WRITTEN,
    INSERT_ROLL,
    INSERT_STAT,
    INSERT_WEAPON,
    NOW_SQL,
    PENDING_SELECT,
    PROJECT_SELECT,
    ROLL_COLUMNS,
    ROLLER_CONTEXT,
    campaign_from_row,
    character_from_row,
    fetch_rows,
    json_text,
    pending_from_row,
    project_from_row,
    roll_from_row,
    roll_params,
    utc_text,
)
from storage.schema import BUSY_TIMEOUT_S, prepare_database
from storage.sqlite_fights import SqliteFights
from storage.transfer import ImportPlan, campaign_document, character_document, read_import
from storage.validation import (
    STAT_COUNTS,
    check_kind,
    check_quality,
    check_stat,
    clean_attribute_names,
    clean_name,
    clean_notes,
    clean_stats,
    clean_weapon,
    normal_text,
)
from wire import limits

log = logging.getLogger("wire.storage")

CONNECTION_PRAGMAS = (
    f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}",
    "PRAGMA foreign_keys = ON",
    "PRAGMA synchronous = NORMAL",
    # 32 MiB of page cache: the hot b-tree pages of a large guild set stay in memory.
    "PRAGMA cache_size = -32768",
    "PRAGMA temp_store = MEMORY",
    f"PRAGMA wal_autocheckpoint = {FALLBACK_AUTOCHECKPOINT_PAGES}",
    # Bounds the ANALYZE that `PRAGMA optimize` may run at close on a large roll log.
    "PRAGMA analysis_limit = 1000",
)
DEFAULT_CAMPAIGN_NAME = "Default"
SQLITE_MAX_INTEGER = 2**63 - 1
IMPORT_REST_MAX = 1.0
"""Seconds at most between two imports' writes (see `SqliteStore._import_turn`)."""
RECENT_ROLLS_MAX = 100
READ_CACHE_MAX = 10_000
"""Cached reads at most; past it the cache starts again (a busy bot refills it in seconds)."""

# ---- messages -------------------------------------------------------------------------------
OWN_ONLY = "You can only change your own characters."
BUSY = "The campaign database is busy. Try again in a moment."
CAMPAIGN_GONE = "That campaign does not exist in this server (any more). /campaign list shows them."


def _no_character(name: str) -> NotFound:
    return NotFound(f"No character named {name!r} in this campaign. /character list shows them.")


def _key(name: object) -> str:
    """The case-insensitive look-up key of a name as a user typed it."""
    return normal_text(name).casefold() if isinstance(name, str) else ""


class _Access(NamedTuple):
    """Who may change a character: read inside the transaction that changes it."""

    id: int
    name: str
    owner_id: int
    is_npc: bool
    campaign: Campaign
    actor_is_gm: bool

    def require_change(self, actor_id: int) -> None:
        if self.actor_is_gm:
            return
        if self.is_npc:
            raise self.campaign.gm_only("change NPCs")
        if self.owner_id != actor_id:
            raise PermissionDenied(OWN_ONLY)


_rows = fetch_rows


class _ImportRows(NamedTuple):
    """An import's rows as JSON texts, one per table, for the IMPORT_* statements."""

    keys: str
    characters: str
    stats: str
    weapons: str


def _import_rows(sheets: Sequence[Character]) -> _ImportRows:
    """Built before the write's transaction, so the lock is held for SQLite's work only."""
    characters, stats, weapons = [], [], []
    for sheet in sheets:
        key = sheet.name.casefold()
        characters.append(
            [
                sheet.name,
                key,
                int(sheet.is_npc),
                int(sheet.shield),
                sheet.notes,
                sheet.armour,
                sheet.wp_max,
                sheet.hp_max,
                sheet.thp_max,
            ]
        )
        table = [("attribute", *item) for item in sheet.attributes.items()]
        table += [("skill", *item) for item in sheet.skills.items()]
        stats += [
            [key, kind, name.casefold(), name, value, position]
            for position, (kind, name, value) in enumerate(table, 1)
        ]
        weapons += [
            [key, w.name.casefold(), w.name, w.base, w.attribute, w.skill, position, w.kind]
            for position, w in enumerate(sheet.weapons, 1)
        ]

    def text(value: object) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    return _ImportRows(
        text([sheet.name.casefold() for sheet in sheets]),
        text(characters),
        text(stats),
        text(weapons),
    )


def _is_busy(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and (
        "locked" in str(exc) or "busy" in str(exc)
    )


class _QueuedRoll(NamedTuple):
    record: RollRecord
    params: dict[str, Any]
    future: asyncio.Future[int]


def _insert_rolls(conn: sqlite3.Connection, batch: list[_QueuedRoll]) -> list[int | StorageError]:
    """On aiosqlite's thread: insert the rows in one transaction; a row's own error is returned.

    A row that inserts nothing is not an error of the batch: it is logged already (same id
    back), logged for another roll (InvalidValue), or its campaign is not in its guild
    (NotFound). Any exception rolls the whole batch back, for the caller to retry row by row.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        outcomes: list[int | StorageError] = []
        for queued in batch:
            row = conn.execute(INSERT_ROLL, queued.params).fetchone()
            outcomes.append(row[0] if row else _not_inserted(conn, queued.record))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


def _not_inserted(conn: sqlite3.Connection, record: RollRecord) -> int | StorageError:
    if record.interaction_id is not None:
        row = conn.execute(
            "SELECT id, guild_id, campaign_id FROM roll_log WHERE interaction_id = ?",
            (record.interaction_id,),
        ).fetchone()
        if row:
            if (row[1], row[2]) != (record.guild_id, record.campaign_id):
                return InvalidValue("This interaction was already logged for another roll.")
            return row[0]
    return NotFound(CAMPAIGN_GONE)


class SqliteStore(SqliteFights, Store):
    """Open with `await SqliteStore.open(path)` (or `storage.open_store`)."""

    def __init__(self, db: aiosqlite.Connection, reader: aiosqlite.Connection, path: Path) -> None:
        self._db = db
        self._reader = reader
        """Single-statement reads run here, outside `_lock`: in WAL mode a reader sees only
        committed data and neither waits for the writer nor makes it wait, so a roll's reads
        do not queue behind other rolls' commits."""
        self._read_cache: dict[tuple[str, tuple[Any, ...]], list[Any]] = {}
        """Rows of what every roll reads (the channel's campaign with its GMs, the roller's
        active character), touched on the reader's thread only. Valid while the reader's
        `PRAGMA data_version` stands still: it moves when any other connection commits, this
        store's writer included, the CLI or a second process alike."""
        self._read_version: int | None = None
        self._path = path
        self._lock = asyncio.Lock()
        self._import_turn = asyncio.Lock()
        """Imports take turns before they queue for `_lock`, which is first come, first served:
        six big imports queued there at once would make a roll that comes next wait for all six;
        so it waits for one at most."""
        self._imports_rest_until = 0.0
        self._closed = False
        self._read_queue: list[tuple[Any, str, Any, asyncio.Future[list[Any]]]] = []
        self._read_runner: asyncio.Task[None] | None = None
        self._roll_queue: list[_QueuedRoll] = []
        self._roll_flusher: asyncio.Task[None] | None = None
        self.roll_batch_sizes: Counter[int] = Counter()
        """How many roll-log rows each group commit held: the benchmark prints its spread."""
        self._checkpointer = Checkpointer(path)

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStore:
        """Create or upgrade the file (WAL, migrations), then connect. SchemaTooNew."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            await asyncio.to_thread(prepare_database, path)
        except (OSError, sqlite3.DatabaseError) as exc:
            raise StorageError(
                f"Cannot open the database {path}: {exc}. Check WIRE_DATABASE, the folder's "
                "permissions, and that the file is a WIRE database."
            ) from exc
        connections: list[aiosqlite.Connection] = []
        try:
            for pragmas in (CONNECTION_PRAGMAS, (*CONNECTION_PRAGMAS, "PRAGMA query_only = ON")):
                connection = await aiosqlite.connect(
                    path, isolation_level=None, timeout=BUSY_TIMEOUT_S
                )
                connections.append(connection)
                for pragma in pragmas:
                    await connection.execute(pragma)
        except BaseException:
            for connection in connections:
                await connection.close()
            raise
        return cls(connections[0], connections[1], path)

    @property
    def path(self) -> Path:
        return self._path

    async def __aenter__(self) -> SqliteStore:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # ---- transactions -------------------------------------------------------------------
    @asynccontextmanager
    async def _transaction(self, write: bool) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the lock for a whole transaction; roll back on any error or cancellation.

        aiosqlite queues each call on its thread in order, so a rollback issued after a
        cancellation still runs after the statements already queued, and before anything the
        next lock holder queues.
        """
        async with self._lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield self._db
                await self._db.commit()
            except BaseException as exc:
                try:
                    await self._db.rollback()
                except Exception:  # the original error matters more
                    log.exception("Rollback failed")
                if _is_busy(exc):
                    raise Busy(BUSY) from exc
                raise
        if write:
            self._checkpointer.note_write()

    def _write(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        return self._transaction(write=True)

    def _read(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        """A consistent snapshot across several statements (another process may write)."""
        return self._transaction(write=False)

    async def _query(
        self, sql: str, params: Any = (), *, write: bool = False, cached: bool = False
    ) -> list[Any]:
        """One statement, atomic by itself: a write under the lock, a read on the reader.

        `cached`: answered from `_read_cache` when nothing was committed since it was read.
        """
        try:
            if write:
                async with self._lock:
                    rows = list(await self._db.execute_fetchall(sql, params))
            elif cached:
                key = (sql, tuple(params.items()) if isinstance(params, dict) else tuple(params))
                rows = await self._read_together(key, sql, params)
            else:
                rows = list(await self._reader.execute_fetchall(sql, params))
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise Busy(BUSY) from exc
            raise
        if write:
            self._checkpointer.note_write()
        return rows

    async def _read_together(self, key: tuple[str, tuple[Any, ...]], sql: str, params: Any):
        """A cached read, in one hop to the reader's thread with the others queued meanwhile.

        A hop costs the event loop more than the read (a queue, a wake-up, the GIL, a callback
        back), and every roll makes one: reads that queue while a hop runs share the next one,
        as rolls share a group commit. No timer: a lone read goes at once.
        """
        future: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        self._read_queue.append((key, sql, params, future))
        if self._read_runner is None or self._read_runner.done():
            self._read_runner = asyncio.create_task(self._run_reads())
        return await future

    async def _run_reads(self) -> None:
        """Hand what queued to the reader's thread, then what queued meanwhile, until none."""
        while self._read_queue:
            batch, self._read_queue = self._read_queue, []
            reads = [(key, sql, params) for key, sql, params, _ in batch]
            try:
                outcomes = await self._reader._execute(self._read_batch, reads)
            except BaseException as exc:  # the connection closed, or cancelled: answer everyone
                for *_, future in batch + self._read_queue:
                    if not future.done():
                        future.set_exception(
                            exc if isinstance(exc, Exception) else StorageError(BUSY)
                        )
                self._read_queue = []
                raise
            for (*_, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():  # its caller was cancelled
                    continue
                if isinstance(outcome, BaseException):
                    future.set_exception(outcome)
                else:
                    future.set_result(outcome)

    def _read_batch(self, reads: list[tuple[Any, str, Any]]) -> list[list[Any] | Exception]:
        """On the reader's thread: each read as `_read_cached` does it; an error is its own."""
        outcomes: list[list[Any] | Exception] = []
        for key, sql, params in reads:
            try:
                outcomes.append(self._read_cached(key, sql, params))
            except Exception as exc:
                outcomes.append(exc)
        return outcomes

    def _read_cached(self, key: tuple[str, tuple[Any, ...]], sql: str, params: Any) -> list[Any]:
        """On the reader's thread, in the same hop as the read: checking `data_version` costs
        a pragma, not a thread hand-off of its own (aiosqlite's `_execute` runs this there)."""
        conn = self._reader._conn
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._read_version:
            self._read_cache.clear()
            self._read_version = version
        rows = self._read_cache.get(key)
        if rows is None:
            rows = conn.execute(sql, params).fetchall()
            if len(self._read_cache) >= READ_CACHE_MAX:
                self._read_cache.clear()
            self._read_cache[key] = rows
        return rows

    # ---- life cycle ---------------------------------------------------------------------
    async def close(self) -> None:
        if self._closed:
            return
        await self._checkpointer.stop()
        while self._roll_flusher is not None and not self._roll_flusher.done():
            await asyncio.shield(self._roll_flusher)  # a queued roll is answered, so commit it
        if self.roll_batch_sizes:
            log.info("Roll log group commits: %s", self.roll_batch_summary())
        async with self._lock:
            self._closed = True
            try:
                await self._db.execute("PRAGMA optimize")
            except sqlite3.Error:
                log.warning("PRAGMA optimize failed at close", exc_info=True)
            await self._reader.close()
            await self._db.close()

    async def backup(self, destination: str | Path) -> None:
        # A separate connection reads a WAL snapshot, so the store keeps serving meanwhile.
        await asyncio.to_thread(backup_files.backup_database, self._path, Path(destination))

    async def get_meta(self, key: str) -> str | None:
        rows = await self._query("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._query(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
            write=True,
        )

    # ---- campaigns: helpers -------------------------------------------------------------
    async def _role(
        self, db: aiosqlite.Connection, guild_id: int, campaign_id: int, user_id: int
    ) -> bool:
        """Whether the user is a GM; NotFound unless the campaign is in this guild."""
        rows = await db.execute_fetchall(
            "SELECT EXISTS (SELECT 1 FROM campaign_gms AS g"
            "                WHERE g.campaign_id = c.id AND g.user_id = ?)"
            "  FROM campaigns AS c WHERE c.id = ? AND c.guild_id = ?",
            (user_id, campaign_id, guild_id),
        )
        rows = list(rows)
        if not rows:
            raise NotFound(CAMPAIGN_GONE)
        return bool(rows[0][0]) or manages_guild(user_id)

    async def _require_gm(
        self,
        db: aiosqlite.Connection,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        action: str = "do that",
    ) -> Campaign:
        campaign = await self._campaign_by_id(db, guild_id, campaign_id)
        if not campaign.is_gm(actor_id):
            raise campaign.gm_only(action)
        return campaign

    async def _campaign_by_id(
        self, db: aiosqlite.Connection, guild_id: int, campaign_id: int
    ) -> Campaign:
        rows = await _rows(
            db, CAMPAIGN_SELECT + " WHERE c.id = ? AND c.guild_id = ?", (campaign_id, guild_id)
        )
        if not rows:
            raise NotFound(CAMPAIGN_GONE)
        return campaign_from_row(rows[0])

    # ---- campaigns ----------------------------------------------------------------------
    async def get_campaign_by_id(self, guild_id: int, campaign_id: int) -> Campaign:
        async with self._read() as db:
            return await self._campaign_by_id(db, guild_id, campaign_id)

    async def get_character_by_id(
        self, guild_id: int, campaign_id: int, character_id: int
    ) -> Character:
        async with self._read() as db:
            return await self._character_by_id(db, guild_id, campaign_id, character_id)

    async def campaign_for_channel(self, guild_id: int, channel_id: int, user_id: int) -> Campaign:
        params = {"guild_id": guild_id, "channel_id": channel_id}
        rows = await self._query(CAMPAIGN_FOR_CHANNEL, params, cached=True)
        if rows:
            return campaign_from_row(rows[0])
        async with self._write() as db:
            # Checked again under the write lock: a racing first use may have made it already.
            rows = list(await db.execute_fetchall(CAMPAIGN_FOR_CHANNEL, params))
            if rows:
                return campaign_from_row(rows[0])
            # No player GMs: the server's managers are its GMs until they name others.
            name = await self._free_default_name(db, guild_id)
            rows = await _rows(
                db,
                "INSERT INTO campaigns (guild_id, name, name_key, is_default) "
                "VALUES (?, ?, ?, 1) RETURNING id",
                (guild_id, name, name.casefold()),
            )
            return await self._campaign_by_id(db, guild_id, rows[0][0])

    async def _free_default_name(self, db: aiosqlite.Connection, guild_id: int) -> str:
        """ "Default", or "Default 2"... if someone already named a campaign "Default"."""
        taken = {
            row[0]
            for row in await db.execute_fetchall(
                "SELECT name_key FROM campaigns WHERE guild_id = ? AND name_key LIKE ?",
                (guild_id, DEFAULT_CAMPAIGN_NAME.casefold() + "%"),
            )
        }
        name, number = DEFAULT_CAMPAIGN_NAME, 1
        while name.casefold() in taken:
            number += 1
            name = f"{DEFAULT_CAMPAIGN_NAME} {number}"
        return name

    async def create_campaign(self, guild_id: int, name: str, creator_id: int) -> Campaign:
        name = clean_name(name, "campaign")
        async with self._write() as db:
            if not manages_guild(creator_id):
                gm_somewhere = await _rows(
                    db,
                    "SELECT 1 FROM campaign_gms AS g JOIN campaigns AS c ON c.id = g.campaign_id "
                    "WHERE c.guild_id = ? AND g.user_id = ? LIMIT 1",
                    (guild_id, creator_id),
                )
                if not gm_somewhere:
                    raise PermissionDenied(
                        "Creating a campaign takes Manage Server, or being a GM of a campaign "
                        "in this server. Ask a GM to make you one with `/campaign gm add`."
                    )
            count = (
                await _rows(db, "SELECT count(*) FROM campaigns WHERE guild_id = ?", (guild_id,))
            )[0][0]
            if count >= MAX_CAMPAIGNS_PER_GUILD:
                raise InvalidValue(
                    f"This server has {count} campaigns, the limit is {MAX_CAMPAIGNS_PER_GUILD}. "
                    "Play an existing one with `/campaign use`."
                )
            rows = await _rows(
                db,
                "INSERT INTO campaigns (guild_id, name, name_key) VALUES (?, ?, ?) "
                "ON CONFLICT DO NOTHING RETURNING id",
                (guild_id, name, name.casefold()),
            )
            if not rows:
                raise NameTaken(
                    f"This server already has a campaign named {name!r}. Pick another name."
                )
            await db.execute(
                "INSERT INTO campaign_gms (campaign_id, user_id, position) VALUES (?, ?, 0)",
                (rows[0][0], creator_id),
            )
            return await self._campaign_by_id(db, guild_id, rows[0][0])

    async def get_campaign(self, guild_id: int, name: str) -> Campaign:
        rows = await self._query(
            CAMPAIGN_SELECT + " WHERE c.guild_id = ? AND c.name_key = ?", (guild_id, _key(name))
        )
        if not rows:
            raise NotFound(f"No campaign named {name!r} in this server. /campaign list shows them.")
        return campaign_from_row(rows[0])

    async def list_campaigns(self, guild_id: int) -> list[Campaign]:
        rows = await self._query(
            CAMPAIGN_SELECT + " WHERE c.guild_id = ? ORDER BY c.is_default DESC, c.name_key",
            (guild_id,),
        )
        return [campaign_from_row(row) for row in rows]

    async def bind_channel(
        self, guild_id: int, channel_id: int, campaign_id: int, actor_id: int
    ) -> Campaign:
        async with self._write() as db:
            await self._require_gm(db, guild_id, campaign_id, actor_id, "play it in a channel")
            bound = await _rows(
                db,
                "SELECT campaign_id FROM channel_bindings WHERE guild_id = ? AND channel_id = ?",
                (guild_id, channel_id),
            )
            if bound and bound[0][0] != campaign_id:
                await self._require_gm(
                    db, guild_id, bound[0][0], actor_id, "move this channel to another campaign"
                )
            await db.execute(
                "INSERT INTO channel_bindings (guild_id, channel_id, campaign_id) "
                "VALUES (?, ?, ?) ON CONFLICT (guild_id, channel_id) "
                "DO UPDATE SET campaign_id = excluded.campaign_id",
                (guild_id, channel_id, campaign_id),
            )
            return await self._campaign_by_id(db, guild_id, campaign_id)

    async def unbind_channel(self, guild_id: int, channel_id: int, actor_id: int) -> None:
        async with self._write() as db:
            rows = await _rows(
                db,
                "SELECT campaign_id FROM channel_bindings WHERE guild_id = ? AND channel_id = ?",
                (guild_id, channel_id),
            )
            if not rows:
                raise NotFound(
                    "This channel is not bound to a campaign; it uses the server's default one."
                )
            await self._require_gm(db, guild_id, rows[0][0], actor_id, "unbind this channel")
            await db.execute(
                "DELETE FROM channel_bindings WHERE guild_id = ? AND channel_id = ?",
                (guild_id, channel_id),
            )

    async def update_campaign(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        *,
        npc_take10: bool | None = None,
        gm_channel_id: int | None = None,
        clear_gm_channel: bool = False,
        show_npc_modifiers: bool | None = None,
        show_npc_health: bool | None = None,
    ) -> Campaign:
        async with self._write() as db:
            await self._require_gm(db, guild_id, campaign_id, actor_id, "change its settings")
            if show_npc_health is not None:
                await db.execute(
                    "UPDATE campaigns SET show_npc_health = ? WHERE id = ? AND guild_id = ?",
                    (int(bool(show_npc_health)), campaign_id, guild_id),
                )
            if show_npc_modifiers is not None:
                await db.execute(
                    "UPDATE campaigns SET show_npc_modifiers = ? WHERE id = ? AND guild_id = ?",
                    (int(bool(show_npc_modifiers)), campaign_id, guild_id),
                )
            if npc_take10 is not None:
                await db.execute(
                    "UPDATE campaigns SET npc_take10 = ? WHERE id = ? AND guild_id = ?",
                    (int(bool(npc_take10)), campaign_id, guild_id),
                )
            if clear_gm_channel or gm_channel_id is not None:
                await db.execute(
                    "UPDATE campaigns SET gm_channel_id = ? WHERE id = ? AND guild_id = ?",
                    (None if clear_gm_channel else gm_channel_id, campaign_id, guild_id),
                )
            return await self._campaign_by_id(db, guild_id, campaign_id)

    async def set_attribute_names(
        self, guild_id: int, campaign_id: int, actor_id: int, names: Sequence[str] | None
    ) -> Campaign:
        stored = None
        if names is not None:
            stored = json_text(list(clean_attribute_names(names)), "attribute names")
        async with self._write() as db:
            await self._require_gm(
                db, guild_id, campaign_id, actor_id, "change its attribute names"
            )
            await db.execute(
                "UPDATE campaigns SET attribute_names = ? WHERE id = ? AND guild_id = ?",
                (stored, campaign_id, guild_id),
            )
            return await self._campaign_by_id(db, guild_id, campaign_id)

    async def add_gm(
        self, guild_id: int, campaign_id: int, actor_id: int, user_id: int
    ) -> Campaign:
        async with self._write() as db:
            await self._require_gm(db, guild_id, campaign_id, actor_id, "add GMs")
            await db.execute(
                "INSERT INTO campaign_gms (campaign_id, user_id, position) "
                "VALUES (?1, ?2, (SELECT coalesce(max(position), -1) + 1 FROM campaign_gms "
                "                  WHERE campaign_id = ?1)) "
                "ON CONFLICT DO NOTHING",
                (campaign_id, user_id),
            )
            return await self._campaign_by_id(db, guild_id, campaign_id)

    async def remove_gm(
        self, guild_id: int, campaign_id: int, actor_id: int, user_id: int
    ) -> Campaign:
        async with self._write() as db:
            campaign = await self._require_gm(db, guild_id, campaign_id, actor_id, "remove GMs")
            if user_id not in campaign.gm_ids:
                raise NotFound(
                    f"That user is not a GM of {campaign.name} (the server's managers always "
                    "are, and cannot be removed)."
                )
            await db.execute(
                "DELETE FROM campaign_gms WHERE campaign_id = ? AND user_id = ?",
                (campaign_id, user_id),
            )
            # No longer a GM: their active character must be one they may use.
            await db.execute(
                "DELETE FROM active_characters WHERE campaign_id = ?1 AND user_id = ?2 "
                "AND character_id IN (SELECT id FROM characters WHERE campaign_id = ?1 "
                "                      AND (owner_id != ?2 OR is_npc = 1))",
                (campaign_id, user_id),
            )
            return await self._campaign_by_id(db, guild_id, campaign_id)

    # ---- characters: helpers ------------------------------------------------------------
    async def _access(
        self,
        db: aiosqlite.Connection,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        name: str | int,
    ) -> _Access:
        """Who may change the character named `name` (or with that id, for an int)."""
        campaign = await self._campaign_by_id(db, guild_id, campaign_id)
        by_id = isinstance(name, int)
        rows = await _rows(
            db,
            "SELECT id, name, owner_id, is_npc FROM characters "
            f"WHERE campaign_id = ? AND {'id' if by_id else 'name_key'} = ?",
            (campaign_id, name if by_id else _key(name)),
        )
        if not rows:
            raise NotFound("That character no longer exists.") if by_id else _no_character(name)
        row = rows[0]
        return _Access(row[0], row[1], row[2], bool(row[3]), campaign, campaign.is_gm(actor_id))

    async def _check_room(
        self, db: aiosqlite.Connection, campaign_id: int, npcs: bool, adding: int
    ) -> None:
        """Refuse characters past the campaign's cap (player characters and NPCs apart)."""
        if adding <= 0:
            return
        count = (
            await _rows(
                db,
                "SELECT count(*) FROM characters WHERE campaign_id = ? AND is_npc = ?",
                (campaign_id, int(npcs)),
            )
        )[0][0]
        cap = MAX_NPCS_PER_CAMPAIGN if npcs else MAX_CHARACTERS_PER_CAMPAIGN
        if count + adding > cap:
            what = "NPCs" if npcs else "player characters"
            raise InvalidValue(
                f"This campaign has {count} {what}; the limit is {cap}. Delete some first."
            )

    async def _character_by_id(
        self, db: aiosqlite.Connection, guild_id: int, campaign_id: int, character_id: int
    ) -> Character:
        rows = await _rows(
            db,
            CHARACTER_SELECT + " WHERE c.guild_id = ? AND c.id = ? AND ch.id = ?",
            (guild_id, campaign_id, character_id),
        )
        if not rows:
            raise NotFound("That character no longer exists.")
        return character_from_row(rows[0])

    async def _write_stats(
        self, db: aiosqlite.Connection, character_id: int, kind: str, stats: dict[str, int]
    ) -> None:
        await db.executemany(
            INSERT_STAT,
            [(character_id, kind, name.casefold(), name, value) for name, value in stats.items()],
        )

    async def _write_weapons(
        self, db: aiosqlite.Connection, character_id: int, weapons: Iterable[Weapon]
    ) -> None:
        await db.executemany(
            INSERT_WEAPON,
            [
                (character_id, w.name.casefold(), w.name, w.base, w.attribute, w.skill, w.kind)
                for w in weapons
            ],
        )

    async def _activate_if_first(
        self, db: aiosqlite.Connection, campaign_id: int, user_id: int, character_id: int
    ) -> None:
        await db.execute(
            "INSERT INTO active_characters (campaign_id, user_id, character_id) VALUES (?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            (campaign_id, user_id, character_id),
        )

    # ---- characters ---------------------------------------------------------------------
    async def create_character(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        name: str,
        *,
        is_npc: bool = False,
        owner_id: int | None = None,
        attributes: dict[str, int] | None = None,
        skills: dict[str, int] | None = None,
        shield: bool = False,
        notes: str = "",
    ) -> Character:
        name = clean_name(name, "character")
        attributes = clean_stats("attribute", attributes)
        skills = clean_stats("skill", skills)
        notes = clean_notes(notes)
        async with self._write() as db:
            campaign = await self._campaign_by_id(db, guild_id, campaign_id)
            if is_npc:
                if not campaign.is_gm(actor_id):
                    raise campaign.gm_only("create NPCs")
                owner = int(actor_id)
            else:
                owner = int(actor_id if owner_id is None else owner_id)
                if owner != actor_id and not campaign.is_gm(actor_id):
                    raise campaign.gm_only("create characters for other players")
            await self._check_room(db, campaign_id, is_npc, 1)
            rows = await _rows(
                db,
                "INSERT INTO characters (campaign_id, name, name_key, owner_id, is_npc, "
                "shield, notes) VALUES (?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING RETURNING id",
                (
                    campaign_id,
                    name,
                    name.casefold(),
                    owner,
                    int(bool(is_npc)),
                    int(bool(shield)),
                    notes,
                ),
            )
            if not rows:
                raise NameTaken(
                    f"There is already a character named {name!r} in this campaign. "
                    "Pick another name."
                )
            character_id = rows[0][0]
            await self._write_stats(db, character_id, "attribute", attributes)
            await self._write_stats(db, character_id, "skill", skills)
            if not is_npc:
                await self._activate_if_first(db, campaign_id, owner, character_id)
            return await self._character_by_id(db, guild_id, campaign_id, character_id)

    async def get_character(self, guild_id: int, campaign_id: int, name: str) -> Character:
        rows = await self._query(
            CHARACTER_SELECT + " WHERE c.guild_id = ? AND c.id = ? AND ch.name_key = ?",
            (guild_id, campaign_id, _key(name)),
        )
        if not rows:
            raise _no_character(name)
        return character_from_row(rows[0])

    async def find_characters(
        self,
        guild_id: int,
        campaign_id: int,
        prefix: str = "",
        *,
        owner_id: int | None = None,
        is_npc: bool | None = None,
        limit: int = 25,
    ) -> list[Character]:
        if limit <= 0:
            return []
        pattern = _key(prefix).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        sql = CHARACTER_SELECT + (
            " WHERE c.guild_id = ? AND c.id = ? AND ch.name_key LIKE ? ESCAPE '\\'"
        )
        params: list[Any] = [guild_id, campaign_id, f"%{pattern}%"]
        if owner_id is not None:
            sql += " AND ch.owner_id = ?"
            params.append(owner_id)
        if is_npc is not None:
            sql += " AND ch.is_npc = ?"
            params.append(int(bool(is_npc)))
        sql += " ORDER BY ch.name_key LIMIT ?"
        params.append(min(limit, 1000))
        return [character_from_row(row) for row in await self._query(sql, params)]

    async def set_stat(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str,
        kind: str,
        stat: str,
        value: int,
    ) -> Character:
        check_kind(kind)
        stat = clean_name(stat, kind)
        check_stat(kind, stat, value)
        async with self._write() as db:
            access = await self._access(db, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            rows = await _rows(
                db,
                "SELECT count(*), coalesce(sum(name_key = ?), 0) FROM character_stats "
                "WHERE character_id = ? AND kind = ?",
                (stat.casefold(), access.id, kind),
            )
            count, exists = rows[0]
            if not exists and count >= STAT_COUNTS[kind]:
                raise InvalidValue(
                    f"{access.name} already has {count} {kind}s, the limit. Remove one first."
                )
            await db.execute(INSERT_STAT, (access.id, kind, stat.casefold(), stat, value))
            return await self._character_by_id(db, guild_id, campaign_id, access.id)

    async def replace_stats(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str | int,
        attributes: dict[str, int],
        skills: dict[str, int],
    ) -> Character:
        attributes = clean_stats("attribute", attributes)
        skills = clean_stats("skill", skills)
        async with self._write() as db:
            access = await self._access(db, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            await db.execute("DELETE FROM character_stats WHERE character_id = ?", (access.id,))
            await self._write_stats(db, access.id, "attribute", attributes)
            await self._write_stats(db, access.id, "skill", skills)
            return await self._character_by_id(db, guild_id, campaign_id, access.id)

    async def adjust_stat(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str,
        kind: str,
        stat: str,
        delta: int,
    ) -> Character:
        check_kind(kind)
        async with self._write() as db:
            access = await self._access(db, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            rows = await _rows(
                db,
                "UPDATE character_stats SET value = value + ? "
                "WHERE character_id = ? AND kind = ? AND name_key = ? RETURNING name, value",
                (delta, access.id, kind, _key(stat)),
            )
            if not rows:
                raise NotFound(f"{access.name} has no {kind} named {stat!r}.")
            check_stat(kind, rows[0][0], rows[0][1])  # out of range: rolled back
            return await self._character_by_id(db, guild_id, campaign_id, access.id)

    async def remove_stat(
        self, guild_id: int, campaign_id: int, actor_id: int, character: str, kind: str, stat: str
    ) -> Character:
        check_kind(kind, weapon_ok=True)
        async with self._write() as db:
            access = await self._access(db, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            if kind == "weapon":
                cursor = await db.execute(
                    "DELETE FROM weapons WHERE character_id = ? AND name_key = ?",
                    (access.id, _key(stat)),
                )
            else:
                cursor = await db.execute(
                    "DELETE FROM character_stats "
                    "WHERE character_id = ? AND kind = ? AND name_key = ?",
                    (access.id, kind, _key(stat)),
                )
            if cursor.rowcount == 0:
                raise NotFound(f"{access.name} has no {kind} named {stat!r}.")
            return await self._character_by_id(db, guild_id, campaign_id, access.id)

    async def set_weapon(
        self, guild_id: int, campaign_id: int, actor_id: int, character: str, weapon: Weapon
    ) -> Character:
        weapon = clean_weapon(weapon)
        async with self._write() as db:
            access = await self._access(db, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            rows = await _rows(
                db,
                "SELECT count(*), coalesce(sum(name_key = ?), 0) FROM weapons "
                "WHERE character_id = ?",
                (weapon.name.casefold(), access.id),
            )
            count, exists = rows[0]
            if not exists and count >= MAX_WEAPONS:
                raise InvalidValue(
                    f"{access.name} already has {count} weapons, the limit. Remove one first."
                )
            await self._write_weapons(db, access.id, [weapon])
            return await self._character_by_id(db, guild_id, campaign_id, access.id)

    async def update_character(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str,
        *,
        shield: bool | None = None,
        notes: str | None = None,
        new_name: str | None = None,
        owner_id: int | None = None,
    ) -> Character:
        if notes is not None:
            notes = clean_notes(notes)
        if new_name is not None:
            new_name = clean_name(new_name, "character")
        async with self._write() as db:
            access = await self._access(db, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            if owner_id is not None and owner_id != access.owner_id:
                if not access.actor_is_gm:
                    raise access.campaign.gm_only("give a character away")
                await db.execute(
                    "UPDATE characters SET owner_id = ? WHERE id = ?", (owner_id, access.id)
                )
                # The old owner may no longer use it, unless they are a GM.
                await db.execute(
                    "DELETE FROM active_characters WHERE character_id = ?1 AND user_id != ?2 "
                    "AND user_id NOT IN (SELECT user_id FROM campaign_gms WHERE campaign_id = ?3)",
                    (access.id, owner_id, campaign_id),
                )
                if not access.is_npc:
                    await self._activate_if_first(db, campaign_id, owner_id, access.id)
            if new_name is not None and new_name != access.name:
                clash = await _rows(
                    db,
                    "SELECT name FROM characters "
                    "WHERE campaign_id = ? AND name_key = ? AND id != ?",
                    (campaign_id, new_name.casefold(), access.id),
                )
                if clash:
                    raise NameTaken(
                        f"There is already a character named {clash[0][0]!r} in this campaign. "
                        "Pick another name."
                    )
                await db.execute(
                    "UPDATE characters SET name = ?, name_key = ? WHERE id = ?",
                    (new_name, new_name.casefold(), access.id),
                )
            if shield is not None:
                await db.execute(
                    "UPDATE characters SET shield = ? WHERE id = ?", (int(bool(shield)), access.id)
                )
            if notes is not None:
                await db.execute("UPDATE characters SET notes = ? WHERE id = ?", (notes, access.id))
            return await self._character_by_id(db, guild_id, campaign_id, access.id)

    async def set_health_values(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str,
        *,
        armour: int | None = None,
        wp_max: int | None = None,
        hp_max: int | None = None,
        thp_max: int | None = None,
    ) -> Character:
        for value, limit, label in (
            (armour, limits.ARMOUR, "Armour"),
            (wp_max, limits.HEALTH, "Willpower"),
            (hp_max, limits.HEALTH, "HP"),
            (thp_max, limits.HEALTH, "THP"),
        ):
            if value is not None:
                limit.check(value, label)
        async with self._write() as db:
            access = await self._access(db, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            updates = {"armour": armour, "wp_max": wp_max, "hp_max": hp_max, "thp_max": thp_max}
            for column, value in updates.items():
                if value is None:
                    continue
                # An override of 0 goes back to the default (the formula, or THP = HP).
                stored = None if column in ("hp_max", "thp_max") and value == 0 else value
                await db.execute(
                    f"UPDATE characters SET {column} = ? WHERE id = ?", (stored, access.id)
                )
            return await self._character_by_id(db, guild_id, campaign_id, access.id)

    async def delete_character(
        self, guild_id: int, campaign_id: int, actor_id: int, character: str
    ) -> None:
        async with self._write() as db:
            access = await self._access(db, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            # Stats, weapons and active choices go with it (ON DELETE CASCADE); projects keep
            # going without a character; the roll log keeps the name.
            await db.execute("DELETE FROM characters WHERE id = ?", (access.id,))

    async def set_active_character(
        self, guild_id: int, campaign_id: int, user_id: int, character: str
    ) -> Character:
        async with self._write() as db:
            access = await self._access(db, guild_id, campaign_id, user_id, character)
            if not access.actor_is_gm:
                if access.is_npc:
                    raise access.campaign.gm_only("play NPCs")
                if access.owner_id != user_id:
                    raise PermissionDenied("You can only make your own characters active.")
            await db.execute(
                "INSERT INTO active_characters (campaign_id, user_id, character_id) "
                "VALUES (?, ?, ?) ON CONFLICT (campaign_id, user_id) "
                "DO UPDATE SET character_id = excluded.character_id",
                (campaign_id, user_id, access.id),
            )
            return await self._character_by_id(db, guild_id, campaign_id, access.id)

    async def get_active_character(
        self, guild_id: int, campaign_id: int, user_id: int
    ) -> Character | None:
        rows = await self._query(ACTIVE_CHARACTER, (campaign_id, user_id, guild_id), cached=True)
        return character_from_row(rows[0]) if rows else None

    async def roller_context(
        self, guild_id: int, channel_id: int, user_id: int
    ) -> tuple[Campaign, Character | None]:
        params = {"guild_id": guild_id, "channel_id": channel_id, "user_id": user_id}
        rows = await self._query(ROLLER_CONTEXT, params, cached=True)
        if not rows:  # a new server: its default campaign is made on first use
            return await super().roller_context(guild_id, channel_id, user_id)
        row = rows[0]
        character = row[CAMPAIGN_WIDTH:]
        return campaign_from_row(row[:CAMPAIGN_WIDTH]), (
            character_from_row(character) if character[0] is not None else None
        )

    # ---- crafting -----------------------------------------------------------------------
    async def start_project(
        self,
        guild_id: int,
        campaign_id: int,
        owner_id: int,
        item: str,
        quality: int = 0,
        character_id: int | None = None,
        *,
        attribute: str | None = None,
        skill: str | None = None,
        target: int | None = None,
        goal: int | None = None,
    ) -> CraftProject:
        item = clean_name(item, "item")
        check_quality(quality)
        attribute = clean_name(attribute, "attribute") if attribute is not None else None
        skill = clean_name(skill, "skill") if skill is not None else None
        if target is not None:
            limits.TARGET.check(target)
        if goal is not None:
            check_quality(goal)
        async with self._write() as db:
            is_gm = await self._role(db, guild_id, campaign_id, owner_id)
            if character_id is not None:
                rows = await _rows(
                    db,
                    "SELECT owner_id, is_npc FROM characters WHERE id = ? AND campaign_id = ?",
                    (character_id, campaign_id),
                )
                if not rows:
                    raise NotFound("That character is not in this campaign.")
                if not is_gm and (rows[0][0] != owner_id or rows[0][1]):
                    raise PermissionDenied("You can only craft with your own characters.")
            open_count = (
                await _rows(
                    db,
                    "SELECT count(*) FROM craft_projects "
                    "WHERE campaign_id = ? AND owner_id = ? AND finished = 0",
                    (campaign_id, owner_id),
                )
            )[0][0]
            if open_count >= MAX_OPEN_PROJECTS_PER_USER:
                raise InvalidValue(
                    f"You have {open_count} unfinished crafting projects here, the limit. "
                    "Finish one with /craft finish first."
                )
            rows = await _rows(
                db,
                "INSERT INTO craft_projects (campaign_id, owner_id, item, item_key, quality, "
                "character_id, attribute, skill, target, goal) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                (
                    campaign_id,
                    owner_id,
                    item,
                    item.casefold(),
                    quality,
                    character_id,
                    attribute,
                    skill,
                    target,
                    goal,
                ),
            )
            if not rows:
                raise NameTaken(
                    f"You already have an unfinished project named {item!r}. "
                    "Finish it first, or pick another name."
                )
            return await self._project_by_id(db, guild_id, campaign_id, rows[0][0])

    async def _project_by_id(
        self, db: aiosqlite.Connection, guild_id: int, campaign_id: int, project_id: int
    ) -> CraftProject:
        rows = await _rows(
            db,
            PROJECT_SELECT + " WHERE c.guild_id = ? AND c.id = ? AND p.id = ?",
            (guild_id, campaign_id, project_id),
        )
        if not rows:
            raise NotFound("That crafting project no longer exists.")
        return project_from_row(rows[0])

    async def get_project(
        self, guild_id: int, campaign_id: int, owner_id: int, item: str
    ) -> CraftProject:
        rows = await self._query(
            PROJECT_SELECT + " WHERE c.guild_id = ? AND c.id = ? AND p.owner_id = ? "
            "AND p.item_key = ? AND p.finished = 0",
            (guild_id, campaign_id, owner_id, _key(item)),
        )
        if not rows:
            raise NotFound(
                f"You have no unfinished project named {item!r} in this campaign. "
                "Check the name, or start one."
            )
        return project_from_row(rows[0])

    async def list_projects(
        self,
        guild_id: int,
        campaign_id: int,
        owner_id: int | None = None,
        *,
        include_finished: bool = False,
    ) -> list[CraftProject]:
        sql = PROJECT_SELECT + " WHERE c.guild_id = ? AND c.id = ?"
        params: list[Any] = [guild_id, campaign_id]
        if owner_id is not None:
            sql += " AND p.owner_id = ?"
            params.append(owner_id)
        if not include_finished:
            sql += " AND p.finished = 0"
        sql += " ORDER BY p.finished, p.item_key, p.id"
        return [project_from_row(row) for row in await self._query(sql, params)]

    async def apply_craft_roll(
        self, project: CraftProject, expected_quality: int, new_quality: int, record: RollRecord
    ) -> CraftProject:
        check_quality(new_quality)
        if record.campaign_id != project.campaign_id:
            raise InvalidValue("That roll belongs to another campaign than the project.")
        guild_id, campaign_id = record.guild_id, project.campaign_id
        async with self._write() as db:
            if record.interaction_id is not None:
                # A retried interaction: the first attempt already applied and logged it.
                done = await _rows(
                    db,
                    "SELECT project_id FROM roll_log WHERE interaction_id = ? "
                    "AND guild_id = ? AND campaign_id = ?",
                    (record.interaction_id, guild_id, campaign_id),
                )
                if done and done[0][0] == project.id:
                    return await self._project_by_id(db, guild_id, campaign_id, project.id)
            rows = await _rows(
                db,
                "SELECT p.item, p.owner_id, p.finished, p.quality,"
                "       EXISTS (SELECT 1 FROM campaign_gms AS g"
                "                WHERE g.campaign_id = c.id AND g.user_id = ?)"
                "  FROM craft_projects AS p JOIN campaigns AS c ON c.id = p.campaign_id"
                " WHERE p.id = ? AND c.id = ? AND c.guild_id = ?",
                (record.user_id, project.id, campaign_id, guild_id),
            )
            if not rows:
                raise NotFound("That crafting project no longer exists.")
            item, owner_id, finished, quality, is_gm = rows[0]
            if owner_id != record.user_id and not is_gm:
                raise PermissionDenied("You can only roll for your own crafting projects.")
            if finished:
                raise InvalidValue(f"{item!r} is already finished. Start a new project.")
            if quality != expected_quality:
                raise Conflict(
                    f"Another roll for {item!r} landed first (its quality is now {quality}). "
                    "Roll again."
                )
            await db.execute(
                "UPDATE craft_projects SET quality = ?, rolls = rolls + 1 WHERE id = ?",
                (new_quality, project.id),
            )
            logged = list(await db.execute_fetchall(INSERT_ROLL, roll_params(record, project.id)))
            if not logged:
                raise InvalidValue("This interaction was already logged for another roll.")
            return await self._project_by_id(db, guild_id, campaign_id, project.id)

    async def finish_project(
        self, guild_id: int, campaign_id: int, actor_id: int, item: str
    ) -> CraftProject:
        async with self._write() as db:
            is_gm = await self._role(db, guild_id, campaign_id, actor_id)
            rows = await _rows(
                db,
                "SELECT id, owner_id FROM craft_projects "
                "WHERE campaign_id = ? AND item_key = ? AND finished = 0 "
                "ORDER BY owner_id != ?",
                (campaign_id, _key(item), actor_id),
            )
            mine = [row for row in rows if row[1] == actor_id]
            if mine:
                project_id = mine[0][0]
            elif is_gm and len(rows) == 1:
                project_id = rows[0][0]
            elif is_gm and rows:
                raise InvalidValue(
                    f"Several players have an unfinished project named {item!r}; "
                    "its owner has to finish theirs."
                )
            else:
                raise NotFound(
                    f"You have no unfinished project named {item!r} in this campaign. "
                    "Check the name."
                )
            await db.execute(
                f"UPDATE craft_projects SET finished = 1, finished_at = {NOW_SQL} WHERE id = ?",
                (project_id,),
            )
            return await self._project_by_id(db, guild_id, campaign_id, project_id)

    # ---- roll log -----------------------------------------------------------------------
    async def log_roll(self, record: RollRecord) -> int:
        """Queue the row for the next group commit and wait for that commit.

        One commit per roll made every roll wait in line for the lock and a commit of its own;
        rows that queue while a commit runs share the next one instead. No timer: an idle store
        commits a lone row at once, so batching costs no latency.
        """
        if self._closed:
            raise StorageError("The database is closed.")
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._roll_queue.append(_QueuedRoll(record, roll_params(record), future))
        if self._roll_flusher is None or self._roll_flusher.done():
            self._roll_flusher = asyncio.create_task(self._flush_rolls())
        return await future

    def roll_batch_summary(self) -> str:
        """Batch sizes as "N commits, rows min/median/max a/b/c", for the log and the bench."""
        sizes = sorted(self.roll_batch_sizes.elements())
        if not sizes:
            return "no commits"
        return (
            f"{len(sizes)} commits of {sum(sizes)} rows, rows per commit "
            f"min/median/max {sizes[0]}/{statistics.median(sizes):g}/{sizes[-1]}"
        )

    async def _flush_rolls(self) -> None:
        """Commit what queued, then what queued meanwhile, until nothing is left."""
        while self._roll_queue:
            batch, self._roll_queue = self._roll_queue, []
            self.roll_batch_sizes[len(batch)] += 1
            try:
                try:
                    outcomes = await self._commit_rolls(batch)
                except Exception as exc:
                    if len(batch) == 1:
                        outcomes = [exc]
                    else:
                        # One bad row must not fail its neighbours: each alone, its own error.
                        outcomes = []
                        for queued in batch:
                            try:
                                outcomes += await self._commit_rolls([queued])
                            except Exception as alone:
                                outcomes.append(alone)
            except BaseException as exc:  # cancelled: nobody may wait forever
                for queued in batch + self._roll_queue:
                    if not queued.future.done():
                        queued.future.set_exception(
                            exc if isinstance(exc, Exception) else StorageError(BUSY)
                        )
                self._roll_queue = []
                raise
            for queued, outcome in zip(batch, outcomes, strict=True):
                if queued.future.done():  # its caller was cancelled; the row stands
                    continue
                if isinstance(outcome, BaseException):
                    queued.future.set_exception(outcome)
                else:
                    queued.future.set_result(outcome)

    async def _commit_rolls(self, batch: list[_QueuedRoll]) -> list[int | StorageError]:
        """The batch in one transaction, in one hop to aiosqlite's thread.

        aiosqlite's `_execute` runs a function on the connection's thread; a statement per row
        through its public API would be a thread hand-off per row, under the lock.
        """
        async with self._lock:
            try:
                outcomes = await self._db._execute(_insert_rolls, self._db._conn, batch)
            except sqlite3.OperationalError as exc:
                if _is_busy(exc):
                    raise Busy(BUSY) from exc
                raise
        self._checkpointer.note_write()
        return outcomes

    async def get_roll(self, guild_id: int, roll_id: int) -> RollRecord | None:
        if not 0 < roll_id <= SQLITE_MAX_INTEGER:
            return None
        rows = await self._query(
            f"SELECT {ROLL_COLUMNS} FROM roll_log WHERE id = ? AND guild_id = ?",
            (roll_id, guild_id),
        )
        return roll_from_row(rows[0]) if rows else None

    async def roll_of_interaction(self, guild_id: int, interaction_id: int) -> int | None:
        rows = await self._query(
            "SELECT id FROM roll_log WHERE interaction_id = ? AND guild_id = ?",
            (interaction_id, guild_id),
        )
        return rows[0][0] if rows else None

    async def recent_rolls(
        self,
        guild_id: int,
        campaign_id: int,
        *,
        user_id: int | None = None,
        limit: int = 10,
        include_hidden: bool = False,
    ) -> list[RollRecord]:
        if limit <= 0:
            return []
        sql = f"SELECT {ROLL_COLUMNS} FROM roll_log WHERE campaign_id = ? AND guild_id = ?"
        params: list[Any] = [campaign_id, guild_id]
        if user_id is not None:
            sql += " AND user_id = ?"
            params.append(user_id)
        if not include_hidden:
            sql += " AND hidden = 0"
        sql += " ORDER BY id DESC LIMIT ?"
        params.append(min(limit, RECENT_ROLLS_MAX))
        return [roll_from_row(row) for row in await self._query(sql, params)]

    # ---- pending actions ----------------------------------------------------------------
    async def create_pending(
        self,
        guild_id: int,
        campaign_id: int,
        kind: str,
        payload: dict[str, Any],
        expires_at: datetime,
    ) -> PendingAction:
        text = json_text(payload, "action's data")
        rows = await self._query(
            "INSERT INTO pending_actions (guild_id, campaign_id, kind, payload, expires_at) "
            "SELECT c.guild_id, c.id, ?, ?, ? FROM campaigns AS c "
            "WHERE c.id = ? AND c.guild_id = ? RETURNING id",
            (kind, text, utc_text(expires_at), campaign_id, guild_id),
            write=True,
        )
        if not rows:
            raise NotFound(CAMPAIGN_GONE)
        return pending_from_row(
            (rows[0][0], guild_id, campaign_id, kind, text, utc_text(expires_at), None, None)
        )

    async def set_pending_message(
        self, guild_id: int, pending_id: int, channel_id: int, message_id: int
    ) -> None:
        # Nothing to do if it was already claimed (a press can beat this call).
        await self._query(
            "UPDATE pending_actions SET channel_id = ?, message_id = ? "
            "WHERE id = ? AND guild_id = ?",
            (channel_id, message_id, pending_id, guild_id),
            write=True,
        )

    async def get_pending(self, guild_id: int, pending_id: int) -> PendingAction | None:
        rows = await self._query(
            PENDING_SELECT + " WHERE id = ? AND guild_id = ?", (pending_id, guild_id)
        )
        return pending_from_row(rows[0]) if rows else None

    async def claim_pending(self, guild_id: int, pending_id: int) -> bool:
        # One DELETE: of two presses (in this process or another) exactly one gets the row.
        rows = await self._query(
            "DELETE FROM pending_actions WHERE id = ? AND guild_id = ? RETURNING id",
            (pending_id, guild_id),
            write=True,
        )
        return bool(rows)

    async def settle_pending(
        self,
        guild_id: int,
        pending_id: int,
        outcome: RollState,
        record: RollRecord | None = None,
    ) -> bool:
        async with self._write() as db:
            claimed = await _rows(
                db,
                "DELETE FROM pending_actions WHERE id = ? AND guild_id = ? RETURNING id",
                (pending_id, guild_id),
            )
            if not claimed:
                return False
            if record is not None:
                logged = await _rows(db, INSERT_ROLL, roll_params(record))
                if not logged:
                    raise InvalidValue("This interaction was already logged for another roll.")
            await db.execute(
                "UPDATE roll_log SET state = ? "
                "WHERE pending_id = ? AND guild_id = ? AND state = 'waiting'",
                (str(outcome), pending_id, guild_id),
            )
            return True

    async def expired_pending(self, now: datetime, limit: int = 50) -> list[PendingAction]:
        if limit <= 0:
            return []
        rows = await self._query(
            PENDING_SELECT + " WHERE expires_at <= ? ORDER BY expires_at, id LIMIT ?",
            (utc_text(now), limit),
        )
        return [pending_from_row(row) for row in rows]

    # ---- import / export / user data ----------------------------------------------------
    async def export_character(self, guild_id: int, campaign_id: int, name: str) -> dict[str, Any]:
        return character_document(await self.get_character(guild_id, campaign_id, name))

    async def export_campaign(self, guild_id: int, campaign_id: int) -> dict[str, Any]:
        async with self._read() as db:
            campaign = await self._campaign_by_id(db, guild_id, campaign_id)
            rows = await db.execute_fetchall(
                CHARACTER_SELECT + " WHERE c.guild_id = ? AND c.id = ? ORDER BY ch.name_key",
                (guild_id, campaign_id),
            )
            characters = [character_from_row(row) for row in rows]
        return campaign_document(campaign, characters)

    async def import_data(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        data: ImportPlan | dict[str, Any] | bytes | str,
        *,
        replace: bool = False,
    ) -> list[Character]:
        # Read before taking the lock, and off the event loop: ImportRejected writes nothing.
        plan = data if isinstance(data, ImportPlan) else await read_import(data)
        async with self._import_turn:
            # After an import, the next one rests as long as that write took: imports then
            # hold the store half the time at most, and the few statements of a roll that
            # waited for one write run in the pause instead of each waiting for another.
            rest = self._imports_rest_until - time.monotonic()
            if rest > 0:
                await asyncio.sleep(rest)
            started = time.monotonic()
            try:
                return await self._import_plan(guild_id, campaign_id, actor_id, plan, replace)
            finally:
                now = time.monotonic()
                self._imports_rest_until = now + min(now - started, IMPORT_REST_MAX)

    async def _import_plan(
        self, guild_id: int, campaign_id: int, actor_id: int, plan: ImportPlan, replace: bool
    ) -> list[Character]:
        sheets = plan.characters
        rows = await offload.run(_import_rows, sheets)  # before the lock, off the loop
        async with self._write() as db:
            campaign = await self._campaign_by_id(db, guild_id, campaign_id)
            is_gm = campaign.is_gm(actor_id)
            if plan.kind == "campaign" and not is_gm:
                raise campaign.gm_only("import a whole campaign")
            npcs = [sheet.name for sheet in sheets if sheet.is_npc]
            if npcs and not is_gm:
                raise campaign.gm_only(f"import NPCs ({', '.join(npcs[:5])})")
            [(found,)] = await _rows(db, IMPORT_CLASHES, (campaign_id, rows.keys))
            clashes = json.loads(found)
            if clashes and not replace:
                names = ", ".join(repr(row[2]) for row in clashes[:10])
                raise NameTaken(
                    f"This campaign already has {names}. Rename them in the file, or import "
                    "with replace to overwrite them."
                )
            if not is_gm:
                for row in clashes:
                    if row[4] or row[3] != actor_id:
                        raise PermissionDenied(
                            f"{row[2]!r} is not yours, so the import cannot replace it."
                        )
            existing = {row[0] for row in clashes}
            for npcs in (False, True):
                new = [s for s in sheets if s.is_npc == npcs and s.name.casefold() not in existing]
                await self._check_room(db, campaign_id, npcs, len(new))
            # A handful of statements whatever the size, each running in SQLite without the
            # GIL: a statement per row (84,000 for a big import) held the lock for 0.5 s or
            # more, one trip to the database thread each, while every other roll waited.
            if clashes:
                await db.execute(IMPORT_CLEAR_STATS, (campaign_id, rows.keys))
                await db.execute(IMPORT_CLEAR_WEAPONS, (campaign_id, rows.keys))
            await db.execute(IMPORT_CHARACTERS, (campaign_id, actor_id, rows.characters))
            await db.execute(IMPORT_STATS, (campaign_id, rows.stats))
            await db.execute(IMPORT_WEAPONS, (campaign_id, rows.weapons))
            [(found,)] = await _rows(db, IMPORT_WRITTEN, (campaign_id, rows.keys))
            written = json.loads(found)
            stored = [written[sheet.name.casefold()] for sheet in sheets]
            if plan.kind == "character" and sheets and not sheets[0].is_npc:
                await self._activate_if_first(db, campaign_id, actor_id, stored[0][0])
            if plan.kind == "campaign" and plan.npc_take10 is not None:
                await db.execute(
                    "UPDATE campaigns SET npc_take10 = ? WHERE id = ? AND guild_id = ?",
                    (int(plan.npc_take10), campaign_id, guild_id),
                )
        # The sheets as stored: as validated, with their ids and owners (a replaced sheet
        # keeps its own, so active choices and projects stay with it).
        return [
            dataclasses.replace(sheet, id=cid, campaign_id=campaign_id, owner_id=owner)
            for sheet, (cid, owner) in zip(sheets, stored, strict=True)
        ]

    async def delete_user_data(self, user_id: int) -> dict[str, int]:
        deletes = {
            "rolls": "DELETE FROM roll_log WHERE user_id = ?",
            "projects": "DELETE FROM craft_projects WHERE owner_id = ?",
            "active choices": "DELETE FROM active_characters WHERE user_id = ?",
            "GM roles": "DELETE FROM campaign_gms WHERE user_id = ?",
            "health changes": "DELETE FROM health_log WHERE user_id = ?",
            "combatants": "UPDATE combatants SET removed = 1, controller_id = NULL "
            "WHERE controller_id = ? AND removed = 0",
            "characters": "DELETE FROM characters WHERE owner_id = ? AND is_npc = 0",
        }
        counts: dict[str, int] = {}
        async with self._write() as db:
            for what, sql in deletes.items():
                cursor = await db.execute(sql, (int(user_id),))
                counts[what] = cursor.rowcount
        return counts
