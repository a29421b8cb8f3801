"""`RuleStore`: the `Store`'s rules, written once, over any backend (storage/backend.py).

Who may do what (GM checks through `Campaign.is_gm`/`gm_only`, owners through `_Access`), the
limits, the default campaign made on first use, the first character made active, the roll log's
group commit and the imports' turn-taking live here; no SQL text and no database driver does.
Each operation names its statements (storage/sql/) and runs them in one of the backend's
transactions:

* every read-modify-write (check the permission, check the count, write, read back) is one
  `backend.write(guild_id)` transaction, which no other write of the guild interleaves with,
  in this process or another (on SQLite `BEGIN IMMEDIATE`; on PostgreSQL advisory locks);
* single-row changes that need no check are single statements (UPSERTs, `INSERT ... RETURNING`),
  atomic in SQL whichever process runs them;
* every statement touching campaign data filters on the guild id and the campaign id (joining
  `campaigns` where the table has no guild column), so an id from another guild finds nothing.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import statistics
import time
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from storage import offload
from storage.backend import BUSY, WHOLE_STORE, Backend, Params, Row, Transaction
from storage.base import Store
from storage.errors import (
    Conflict,
    InvalidValue,
    NameTaken,
    NotFound,
    PermissionDenied,
    StorageError,
)
from storage.models import (
    LANGUAGE_CODE,
    MAX_CAMPAIGNS_PER_GUILD,
    MAX_CHARACTERS_PER_CAMPAIGN,
    MAX_NPCS_PER_CAMPAIGN,
    MAX_OPEN_PROJECTS_PER_USER,
    MAX_WEAPONS,
    Campaign,
    Character,
    CraftProject,
    ImportClash,
    ImportOutcome,
    PendingAction,
    PrunedRolls,
    RollRecord,
    RollState,
    Shards,
    Weapon,
    manages_guild,
)
from storage.rows import (
    campaign_from_row,
    character_from_row,
    json_text,
    pending_from_row,
    project_from_row,
    roll_from_row,
    roll_params,
    utc_text,
)
from storage.rules_fights import RuleFights
from storage.rules_incharacter import RuleInCharacter
from storage.rules_saved import RuleSaved
from storage.sql.common import CAMPAIGN_WIDTH
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
from wire.i18n import N_

log = logging.getLogger("wire.storage")

DEFAULT_CAMPAIGN_NAME = "Default"
MAX_INTEGER = 2**63 - 1
"""The largest id either database stores (a signed 64-bit integer)."""
IMPORT_REST_MAX = 1.0
"""Seconds at most between two imports' writes (see `RuleStore.import_data`)."""
RECENT_ROLLS_MAX = 100

# ---- messages -------------------------------------------------------------------------------
OWN_ONLY = N_("You can only change your own characters.")
CAMPAIGN_GONE = N_(
    "That campaign does not exist in this server (any more). /campaign list shows them."
)
LOGGED_ELSEWHERE = N_("This interaction was already logged for another roll.")


def _no_character(name: str) -> NotFound:
    return NotFound(
        "No character named {name} in this campaign. /character list shows them.", name=repr(name)
    )


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
            raise self.campaign.gm_only(N_("change NPCs"))
        if self.owner_id != actor_id:
            raise PermissionDenied(OWN_ONLY)


def _clash(row: Sequence[Any]) -> ImportClash:
    """A row of import_clashes: (name_key, id, name, owner_id, is_npc)."""
    return ImportClash(str(row[2]), int(row[1]), int(row[3]), bool(row[4]))


def _like(prefix: str) -> str:
    """A LIKE pattern (escaped with a backslash) for names holding `prefix` anywhere."""
    pattern = _key(prefix).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{pattern}%"


NPCS_IN_PLAY_WINDOW = 500
"""How many of the newest public rolls `npcs_in_play` looks through."""


class ImportRows(NamedTuple):
    """An import's rows as JSON texts, one per table, for the import_* statements."""

    keys: str
    characters: str
    stats: str
    weapons: str


def import_rows(sheets: Sequence[Character]) -> ImportRows:
    """Built before the write's transaction, so the lock is held for the database's work only."""
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

    return ImportRows(
        text([sheet.name.casefold() for sheet in sheets]),
        text(characters),
        text(stats),
        text(weapons),
    )


async def import_portraits(
    tx: Transaction, campaign_id: int, sheets: Sequence[Character], replaced: Params | None
) -> None:
    """The imported sheets' portraits: a replaced sheet's portrait is the file's (or none)."""
    if replaced is not None:
        await tx.execute("import_clear_portraits", replaced)
    portraits = [
        {"campaign_id": campaign_id, "name_key": s.name.casefold(), "portrait": s.portrait}
        for s in sheets
        if s.portrait
    ]
    if portraits:
        await tx.executemany("import_portrait", portraits)


class _QueuedRoll(NamedTuple):
    record: RollRecord
    params: Params
    future: asyncio.Future[int]


async def _first(tx: Transaction, name: str, params: Params) -> Row | None:
    rows = await tx.fetch(name, params)
    return rows[0] if rows else None


class RuleStore(RuleFights, RuleInCharacter, RuleSaved, Store):
    """The store over `backend`; open one with `SqliteStore.open(path)`,
    `PostgresStore.open(dsn)` or `storage.open_store()`."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self._import_turn = asyncio.Lock()
        """Imports take turns before they queue for the write lock, which is first come, first
        served: six big imports queued there at once would make a roll that comes next wait for
        all six; so it waits for one at most."""
        self._imports_rest_until = 0.0
        self._closed = False
        self._roll_queue: list[_QueuedRoll] = []
        self._roll_flusher: asyncio.Task[None] | None = None
        self.roll_batch_sizes: Counter[int] = Counter()
        """How many roll-log rows each group commit held: the benchmark prints its spread."""

    @property
    def path(self) -> Path | None:
        """The database file, on SQLite."""
        return self.backend.path

    async def __aenter__(self) -> RuleStore:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def _write(self, guild_id: int | None) -> AbstractAsyncContextManager[Transaction]:
        return self.backend.write(guild_id)

    def _read(self) -> AbstractAsyncContextManager[Transaction]:
        """A consistent snapshot across several statements (another process may write)."""
        return self.backend.read()

    # ---- life cycle ---------------------------------------------------------------------
    async def close(self) -> None:
        if self._closed:
            return
        while self._roll_flusher is not None and not self._roll_flusher.done():
            await asyncio.shield(self._roll_flusher)  # a queued roll is answered, so commit it
        self._closed = True
        if self.roll_batch_sizes:
            log.info("Roll log group commits: %s", self.roll_batch_summary())
        await self.backend.close()

    async def backup(self, destination: str | Path) -> None:
        await self.backend.backup(destination)

    async def get_meta(self, key: str) -> str | None:
        rows = await self.backend.query("meta_get", {"key": key})
        return rows[0][0] if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        await self.backend.query("meta_set", {"key": key, "value": value}, write=True)

    # ---- campaigns: helpers -------------------------------------------------------------
    async def _role(self, tx: Transaction, guild_id: int, campaign_id: int, user_id: int) -> bool:
        """Whether the user is a GM; NotFound unless the campaign is in this guild."""
        row = await _first(
            tx,
            "campaign_is_gm",
            {"user_id": int(user_id), "campaign_id": campaign_id, "guild_id": guild_id},
        )
        if row is None:
            raise NotFound(CAMPAIGN_GONE)
        return bool(row[0]) or manages_guild(user_id)

    async def _require_gm(
        self,
        tx: Transaction,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        action: str = N_("do that"),
    ) -> Campaign:
        campaign = await self._campaign_by_id(tx, guild_id, campaign_id)
        if not campaign.is_gm(actor_id):
            raise campaign.gm_only(action)
        return campaign

    async def _campaign_by_id(self, tx: Transaction, guild_id: int, campaign_id: int) -> Campaign:
        row = await _first(tx, "campaign_by_id", {"campaign_id": campaign_id, "guild_id": guild_id})
        if row is None:
            raise NotFound(CAMPAIGN_GONE)
        return campaign_from_row(row)

    # ---- campaigns ----------------------------------------------------------------------
    async def get_campaign_by_id(self, guild_id: int, campaign_id: int) -> Campaign:
        async with self._read() as tx:
            return await self._campaign_by_id(tx, guild_id, campaign_id)

    async def get_character_by_id(
        self, guild_id: int, campaign_id: int, character_id: int
    ) -> Character:
        async with self._read() as tx:
            return await self._character_by_id(tx, guild_id, campaign_id, character_id)

    async def campaign_for_channel(self, guild_id: int, channel_id: int, user_id: int) -> Campaign:
        params = {"guild_id": guild_id, "channel_id": channel_id}
        rows = await self.backend.query("campaign_for_channel", params, cached=True)
        if rows:
            return campaign_from_row(rows[0])
        async with self._write(guild_id) as tx:
            # Checked again under the write lock: a racing first use may have made it already.
            row = await _first(tx, "campaign_for_channel", params)
            if row is not None:
                return campaign_from_row(row)
            # No player GMs: the server's managers are its GMs until they name others.
            name = await self._free_default_name(tx, guild_id)
            [(campaign_id,)] = await tx.fetch(
                "insert_default_campaign",
                {"guild_id": guild_id, "name": name, "name_key": name.casefold()},
            )
            return await self._campaign_by_id(tx, guild_id, campaign_id)

    async def _free_default_name(self, tx: Transaction, guild_id: int) -> str:
        """ "Default", or "Default 2"... if someone already named a campaign "Default"."""
        pattern = DEFAULT_CAMPAIGN_NAME.casefold() + "%"
        rows = await tx.fetch("default_names_taken", {"guild_id": guild_id, "pattern": pattern})
        taken = {row[0] for row in rows}
        name, number = DEFAULT_CAMPAIGN_NAME, 1
        while name.casefold() in taken:
            number += 1
            name = f"{DEFAULT_CAMPAIGN_NAME} {number}"
        return name

    async def create_campaign(self, guild_id: int, name: str, creator_id: int) -> Campaign:
        name = clean_name(name, "campaign")
        async with self._write(guild_id) as tx:
            if not manages_guild(creator_id):
                gm_somewhere = await tx.fetch(
                    "gm_somewhere", {"guild_id": guild_id, "user_id": int(creator_id)}
                )
                if not gm_somewhere:
                    raise PermissionDenied(
                        "Creating a campaign takes Manage Server, or being a GM of a campaign "
                        "in this server. Ask a GM to make you one with `/campaign gm add`."
                    )
            [(count,)] = await tx.fetch("count_campaigns", {"guild_id": guild_id})
            if count >= MAX_CAMPAIGNS_PER_GUILD:
                raise InvalidValue(
                    "This server has {count} campaigns, the limit is "
                    "{most}. Play an existing one with `/campaign use`.",
                    count=count,
                    most=MAX_CAMPAIGNS_PER_GUILD,
                )
            row = await _first(
                tx,
                "insert_campaign",
                {"guild_id": guild_id, "name": name, "name_key": name.casefold()},
            )
            if row is None:
                raise NameTaken(
                    "This server already has a campaign named {name}. Pick another name.",
                    name=repr(name),
                )
            await tx.execute("insert_first_gm", {"campaign_id": row[0], "user_id": int(creator_id)})
            return await self._campaign_by_id(tx, guild_id, row[0])

    async def get_campaign(self, guild_id: int, name: str) -> Campaign:
        rows = await self.backend.query(
            "campaign_by_name", {"guild_id": guild_id, "name_key": _key(name)}
        )
        if not rows:
            raise NotFound(
                "No campaign named {name} in this server. /campaign list shows them.",
                name=repr(name),
            )
        return campaign_from_row(rows[0])

    async def list_campaigns(self, guild_id: int) -> list[Campaign]:
        rows = await self.backend.query("campaigns_of_guild", {"guild_id": guild_id})
        return [campaign_from_row(row) for row in rows]

    async def bind_channel(
        self, guild_id: int, channel_id: int, campaign_id: int, actor_id: int
    ) -> Campaign:
        binding = {"guild_id": guild_id, "channel_id": channel_id}
        async with self._write(guild_id) as tx:
            await self._require_gm(tx, guild_id, campaign_id, actor_id, N_("play it in a channel"))
            bound = await _first(tx, "channel_binding", binding)
            if bound is not None and bound[0] != campaign_id:
                await self._require_gm(
                    tx, guild_id, bound[0], actor_id, N_("move this channel to another campaign")
                )
            await tx.execute("bind_channel", {**binding, "campaign_id": campaign_id})
            return await self._campaign_by_id(tx, guild_id, campaign_id)

    async def unbind_channel(self, guild_id: int, channel_id: int, actor_id: int) -> None:
        binding = {"guild_id": guild_id, "channel_id": channel_id}
        async with self._write(guild_id) as tx:
            bound = await _first(tx, "channel_binding", binding)
            if bound is None:
                raise NotFound(
                    "This channel is not bound to a campaign; it uses the server's default one."
                )
            await self._require_gm(tx, guild_id, bound[0], actor_id, N_("unbind this channel"))
            await tx.execute("unbind_channel", binding)

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
        language: str | None = None,
    ) -> Campaign:
        where = {"campaign_id": campaign_id, "guild_id": guild_id}
        if language is not None and language != "" and not LANGUAGE_CODE.fullmatch(language):
            raise InvalidValue(
                "{language} is not a language code such as de or en.", language=repr(language)
            )
        flags = {
            "show_npc_health": show_npc_health,
            "show_npc_modifiers": show_npc_modifiers,
            "npc_take10": npc_take10,
        }
        async with self._write(guild_id) as tx:
            await self._require_gm(tx, guild_id, campaign_id, actor_id, N_("change its settings"))
            for flag, value in flags.items():
                if value is not None:
                    await tx.execute(f"campaign_set_{flag}", {**where, "value": int(bool(value))})
            if clear_gm_channel or gm_channel_id is not None:
                channel = None if clear_gm_channel else gm_channel_id
                await tx.execute("campaign_set_gm_channel", {**where, "value": channel})
            if language is not None:
                await tx.execute("campaign_set_language", {**where, "value": language or None})
            return await self._campaign_by_id(tx, guild_id, campaign_id)

    async def set_attribute_names(
        self, guild_id: int, campaign_id: int, actor_id: int, names: Sequence[str] | None
    ) -> Campaign:
        stored = None
        if names is not None:
            stored = json_text(list(clean_attribute_names(names)), "attribute names")
        async with self._write(guild_id) as tx:
            await self._require_gm(
                tx, guild_id, campaign_id, actor_id, N_("change its attribute names")
            )
            await tx.execute(
                "campaign_set_attribute_names",
                {"campaign_id": campaign_id, "guild_id": guild_id, "value": stored},
            )
            return await self._campaign_by_id(tx, guild_id, campaign_id)

    async def add_gm(
        self, guild_id: int, campaign_id: int, actor_id: int, user_id: int
    ) -> Campaign:
        async with self._write(guild_id) as tx:
            await self._require_gm(tx, guild_id, campaign_id, actor_id, N_("add GMs"))
            await tx.execute("add_gm", {"campaign_id": campaign_id, "user_id": int(user_id)})
            return await self._campaign_by_id(tx, guild_id, campaign_id)

    async def remove_gm(
        self, guild_id: int, campaign_id: int, actor_id: int, user_id: int
    ) -> Campaign:
        async with self._write(guild_id) as tx:
            campaign = await self._require_gm(tx, guild_id, campaign_id, actor_id, N_("remove GMs"))
            if user_id not in campaign.gm_ids:
                raise NotFound(
                    "That user is not a GM of {name} (the server's managers always are, and "
                    "cannot be removed).",
                    name=campaign.name,
                )
            gm = {"campaign_id": campaign_id, "user_id": int(user_id)}
            await tx.execute("remove_gm", gm)
            # No longer a GM: their active character must be one they may use.
            await tx.execute("drop_active_of_former_gm", gm)
            return await self._campaign_by_id(tx, guild_id, campaign_id)

    # ---- characters: helpers ------------------------------------------------------------
    async def _access(
        self,
        tx: Transaction,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        name: str | int,
    ) -> _Access:
        """Who may change the character named `name` (or with that id, for an int)."""
        campaign = await self._campaign_by_id(tx, guild_id, campaign_id)
        if isinstance(name, int):
            params = {"campaign_id": campaign_id, "character_id": name}
            row = await _first(tx, "character_access_by_id", params)
            if row is None:
                raise NotFound("That character no longer exists.")
        else:
            params = {"campaign_id": campaign_id, "name_key": _key(name)}
            row = await _first(tx, "character_access_by_name", params)
            if row is None:
                raise _no_character(name)
        return _Access(row[0], row[1], row[2], bool(row[3]), campaign, campaign.is_gm(actor_id))

    async def _check_room(self, tx: Transaction, campaign_id: int, npcs: bool, adding: int) -> None:
        """Refuse characters past the campaign's cap (player characters and NPCs apart)."""
        if adding <= 0:
            return
        [(count,)] = await tx.fetch(
            "count_characters", {"campaign_id": campaign_id, "is_npc": int(npcs)}
        )
        cap = MAX_NPCS_PER_CAMPAIGN if npcs else MAX_CHARACTERS_PER_CAMPAIGN
        if count + adding > cap:
            what = "NPCs" if npcs else "player characters"
            raise InvalidValue(
                "This campaign has {count} {what}; the limit is {cap}. Delete some first.",
                count=count,
                what=what,
                cap=cap,
            )

    async def _character_by_id(
        self, tx: Transaction, guild_id: int, campaign_id: int, character_id: int
    ) -> Character:
        row = await _first(
            tx,
            "character_by_id",
            {"guild_id": guild_id, "campaign_id": campaign_id, "character_id": character_id},
        )
        if row is None:
            raise NotFound("That character no longer exists.")
        return character_from_row(row)

    async def _write_stats(
        self, tx: Transaction, character_id: int, kind: str, stats: dict[str, int]
    ) -> None:
        await tx.executemany(
            "insert_stat",
            [
                {
                    "character_id": character_id,
                    "kind": kind,
                    "name_key": name.casefold(),
                    "name": name,
                    "value": value,
                }
                for name, value in stats.items()
            ],
        )

    async def _write_weapons(
        self, tx: Transaction, character_id: int, weapons: Iterable[Weapon]
    ) -> None:
        await tx.executemany(
            "insert_weapon",
            [
                {
                    "character_id": character_id,
                    "name_key": w.name.casefold(),
                    "name": w.name,
                    "base": w.base,
                    "attribute": w.attribute,
                    "skill": w.skill,
                    "kind": w.kind,
                }
                for w in weapons
            ],
        )

    async def _activate_if_first(
        self, tx: Transaction, campaign_id: int, user_id: int, character_id: int
    ) -> None:
        await tx.execute(
            "activate_if_first",
            {"campaign_id": campaign_id, "user_id": int(user_id), "character_id": character_id},
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
        async with self._write(guild_id) as tx:
            campaign = await self._campaign_by_id(tx, guild_id, campaign_id)
            if is_npc:
                if not campaign.is_gm(actor_id):
                    raise campaign.gm_only(N_("create NPCs"))
                owner = int(actor_id)
            else:
                owner = int(actor_id if owner_id is None else owner_id)
                if owner != actor_id and not campaign.is_gm(actor_id):
                    raise campaign.gm_only(N_("create characters for other players"))
            await self._check_room(tx, campaign_id, is_npc, 1)
            row = await _first(
                tx,
                "insert_character",
                {
                    "campaign_id": campaign_id,
                    "name": name,
                    "name_key": name.casefold(),
                    "owner_id": owner,
                    "is_npc": int(bool(is_npc)),
                    "shield": int(bool(shield)),
                    "notes": notes,
                },
            )
            if row is None:
                raise NameTaken(
                    "There is already a character named {name} in this campaign. Pick "
                    "another name.",
                    name=repr(name),
                )
            character_id = row[0]
            await self._write_stats(tx, character_id, "attribute", attributes)
            await self._write_stats(tx, character_id, "skill", skills)
            if not is_npc:
                await self._activate_if_first(tx, campaign_id, owner, character_id)
            return await self._character_by_id(tx, guild_id, campaign_id, character_id)

    async def get_character(self, guild_id: int, campaign_id: int, name: str) -> Character:
        rows = await self.backend.query(
            "character_by_name",
            {"guild_id": guild_id, "campaign_id": campaign_id, "name_key": _key(name)},
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
        rows = await self.backend.query(
            "find_characters",
            {
                "guild_id": guild_id,
                "campaign_id": campaign_id,
                "pattern": _like(prefix),
                "owner_id": None if owner_id is None else int(owner_id),
                "is_npc": None if is_npc is None else int(bool(is_npc)),
                "limit": min(limit, 1000),
            },
        )
        return [character_from_row(row) for row in rows]

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
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            [(count, exists)] = await tx.fetch(
                "stat_count",
                {"name_key": stat.casefold(), "character_id": access.id, "kind": kind},
            )
            if not exists and count >= STAT_COUNTS[kind]:
                raise InvalidValue(
                    "{name} already has {count} {kind}s, the limit. Remove one first.",
                    name=access.name,
                    count=count,
                    kind=kind,
                )
            await self._write_stats(tx, access.id, kind, {stat: value})
            return await self._character_by_id(tx, guild_id, campaign_id, access.id)

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
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            await tx.execute("delete_stats", {"character_id": access.id})
            await self._write_stats(tx, access.id, "attribute", attributes)
            await self._write_stats(tx, access.id, "skill", skills)
            return await self._character_by_id(tx, guild_id, campaign_id, access.id)

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
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            row = await _first(
                tx,
                "adjust_stat",
                {"delta": delta, "character_id": access.id, "kind": kind, "name_key": _key(stat)},
            )
            if row is None:
                raise NotFound(
                    "{name} has no {kind} named {stat}.",
                    name=access.name,
                    kind=kind,
                    stat=repr(stat),
                )
            check_stat(kind, row[0], row[1])  # out of range: rolled back
            return await self._character_by_id(tx, guild_id, campaign_id, access.id)

    async def remove_stat(
        self, guild_id: int, campaign_id: int, actor_id: int, character: str, kind: str, stat: str
    ) -> Character:
        check_kind(kind, weapon_ok=True)
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            where = {"character_id": access.id, "name_key": _key(stat)}
            if kind == "weapon":
                removed = await tx.execute("delete_weapon", where)
            else:
                removed = await tx.execute("delete_stat", {**where, "kind": kind})
            if removed == 0:
                raise NotFound(
                    "{name} has no {kind} named {stat}.",
                    name=access.name,
                    kind=kind,
                    stat=repr(stat),
                )
            return await self._character_by_id(tx, guild_id, campaign_id, access.id)

    async def set_weapon(
        self, guild_id: int, campaign_id: int, actor_id: int, character: str, weapon: Weapon
    ) -> Character:
        weapon = clean_weapon(weapon)
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            [(count, exists)] = await tx.fetch(
                "weapon_count", {"name_key": weapon.name.casefold(), "character_id": access.id}
            )
            if not exists and count >= MAX_WEAPONS:
                raise InvalidValue(
                    "{name} already has {count} weapons, the limit. Remove one first.",
                    name=access.name,
                    count=count,
                )
            await self._write_weapons(tx, access.id, [weapon])
            return await self._character_by_id(tx, guild_id, campaign_id, access.id)

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
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            this = {"character_id": access.id}
            if owner_id is not None and owner_id != access.owner_id:
                if not access.actor_is_gm:
                    raise access.campaign.gm_only(N_("give a character away"))
                owner = {**this, "owner_id": int(owner_id)}
                await tx.execute("character_set_owner", owner)
                # The old owner may no longer use it, unless they are a GM.
                await tx.execute(
                    "drop_active_of_former_owner", {**owner, "campaign_id": campaign_id}
                )
                if not access.is_npc:
                    await self._activate_if_first(tx, campaign_id, owner_id, access.id)
            if new_name is not None and new_name != access.name:
                clash = await _first(
                    tx,
                    "character_name_clash",
                    {**this, "campaign_id": campaign_id, "name_key": new_name.casefold()},
                )
                if clash is not None:
                    raise NameTaken(
                        "There is already a character named {clash} in this campaign. Pick "
                        "another name.",
                        clash=repr(clash[0]),
                    )
                await tx.execute(
                    "character_rename",
                    {**this, "name": new_name, "name_key": new_name.casefold()},
                )
            if shield is not None:
                await tx.execute("character_set_shield", {**this, "value": int(bool(shield))})
            if notes is not None:
                await tx.execute("character_set_notes", {**this, "value": notes})
            return await self._character_by_id(tx, guild_id, campaign_id, access.id)

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
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            updates = {"armour": armour, "wp_max": wp_max, "hp_max": hp_max, "thp_max": thp_max}
            for column, value in updates.items():
                if value is None:
                    continue
                # An override of 0 goes back to the default (the formula, or THP = HP).
                stored = None if column in ("hp_max", "thp_max") and value == 0 else value
                await tx.execute(
                    f"character_set_{column}", {"character_id": access.id, "value": stored}
                )
            return await self._character_by_id(tx, guild_id, campaign_id, access.id)

    async def delete_character(
        self, guild_id: int, campaign_id: int, actor_id: int, character: str
    ) -> None:
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            # Stats, weapons and active choices go with it (ON DELETE CASCADE); projects keep
            # going without a character; the roll log keeps the name.
            await tx.execute("delete_character", {"character_id": access.id})

    async def set_active_character(
        self, guild_id: int, campaign_id: int, user_id: int, character: str
    ) -> Character:
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, user_id, character)
            if not access.actor_is_gm:
                if access.is_npc:
                    raise access.campaign.gm_only(N_("play NPCs"))
                if access.owner_id != user_id:
                    raise PermissionDenied("You can only make your own characters active.")
            await tx.execute(
                "set_active",
                {"campaign_id": campaign_id, "user_id": int(user_id), "character_id": access.id},
            )
            return await self._character_by_id(tx, guild_id, campaign_id, access.id)

    async def get_active_character(
        self, guild_id: int, campaign_id: int, user_id: int
    ) -> Character | None:
        rows = await self.backend.query(
            "active_character",
            {"campaign_id": campaign_id, "user_id": int(user_id), "guild_id": guild_id},
            cached=True,
        )
        return character_from_row(rows[0]) if rows else None

    async def roller_context(
        self, guild_id: int, channel_id: int, user_id: int
    ) -> tuple[Campaign, Character | None]:
        params = {"guild_id": guild_id, "channel_id": channel_id, "user_id": int(user_id)}
        rows = await self.backend.query("roller_context", params, cached=True)
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
        async with self._write(guild_id) as tx:
            is_gm = await self._role(tx, guild_id, campaign_id, owner_id)
            if character_id is not None:
                row = await _first(
                    tx,
                    "character_owner",
                    {"character_id": character_id, "campaign_id": campaign_id},
                )
                if row is None:
                    raise NotFound("That character is not in this campaign.")
                if not is_gm and (row[0] != owner_id or row[1]):
                    raise PermissionDenied("You can only craft with your own characters.")
            [(open_count,)] = await tx.fetch(
                "count_open_projects", {"campaign_id": campaign_id, "owner_id": int(owner_id)}
            )
            if open_count >= MAX_OPEN_PROJECTS_PER_USER:
                raise InvalidValue(
                    "You have {open_count} unfinished crafting projects here, the limit. "
                    "Finish one with /craft finish first.",
                    open_count=open_count,
                )
            row = await _first(
                tx,
                "insert_project",
                {
                    "campaign_id": campaign_id,
                    "owner_id": int(owner_id),
                    "item": item,
                    "item_key": item.casefold(),
                    "quality": quality,
                    "character_id": character_id,
                    "attribute": attribute,
                    "skill": skill,
                    "target": target,
                    "goal": goal,
                },
            )
            if row is None:
                raise NameTaken(
                    "You already have an unfinished project named {item}. Finish it first, "
                    "or pick another name.",
                    item=repr(item),
                )
            return await self._project_by_id(tx, guild_id, campaign_id, row[0])

    async def _project_by_id(
        self, tx: Transaction, guild_id: int, campaign_id: int, project_id: int
    ) -> CraftProject:
        row = await _first(
            tx,
            "project_by_id",
            {"guild_id": guild_id, "campaign_id": campaign_id, "project_id": project_id},
        )
        if row is None:
            raise NotFound("That crafting project no longer exists.")
        return project_from_row(row)

    async def get_project(
        self, guild_id: int, campaign_id: int, owner_id: int, item: str
    ) -> CraftProject:
        rows = await self.backend.query(
            "open_project_by_item",
            {
                "guild_id": guild_id,
                "campaign_id": campaign_id,
                "owner_id": int(owner_id),
                "item_key": _key(item),
            },
        )
        if not rows:
            raise NotFound(
                "You have no unfinished project named {item} in this campaign. Check the "
                "name, or start one.",
                item=repr(item),
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
        rows = await self.backend.query(
            "projects",
            {
                "guild_id": guild_id,
                "campaign_id": campaign_id,
                "owner_id": None if owner_id is None else int(owner_id),
                "include_finished": int(bool(include_finished)),
            },
        )
        return [project_from_row(row) for row in rows]

    async def apply_craft_roll(
        self, project: CraftProject, expected_quality: int, new_quality: int, record: RollRecord
    ) -> CraftProject:
        check_quality(new_quality)
        if record.campaign_id != project.campaign_id:
            raise InvalidValue("That roll belongs to another campaign than the project.")
        guild_id, campaign_id = record.guild_id, project.campaign_id
        params = roll_params(record, project.id)  # before the lock: an unloggable roll fails
        async with self._write(guild_id) as tx:
            if record.interaction_id is not None:
                # A retried interaction: the first attempt already applied and logged it.
                done = await _first(
                    tx,
                    "project_of_interaction",
                    {
                        "interaction_id": record.interaction_id,
                        "guild_id": guild_id,
                        "campaign_id": campaign_id,
                    },
                )
                if done is not None and done[0] == project.id:
                    return await self._project_by_id(tx, guild_id, campaign_id, project.id)
            row = await _first(
                tx,
                "project_for_roll",
                {
                    "user_id": int(record.user_id),
                    "project_id": project.id,
                    "campaign_id": campaign_id,
                    "guild_id": guild_id,
                },
            )
            if row is None:
                raise NotFound("That crafting project no longer exists.")
            item, owner_id, finished, quality, is_gm = row
            if owner_id != record.user_id and not is_gm:
                raise PermissionDenied("You can only roll for your own crafting projects.")
            if finished:
                raise InvalidValue(
                    "{item} is already finished. Start a new project.", item=repr(item)
                )
            if quality != expected_quality:
                raise Conflict(
                    "Another roll for {item} landed first (its quality is now {quality}). "
                    "Roll again.",
                    item=repr(item),
                    quality=quality,
                )
            await tx.execute(
                "project_set_quality", {"quality": new_quality, "project_id": project.id}
            )
            if not await tx.fetch("insert_roll", params):
                raise InvalidValue(LOGGED_ELSEWHERE)
            return await self._project_by_id(tx, guild_id, campaign_id, project.id)

    async def finish_project(
        self, guild_id: int, campaign_id: int, actor_id: int, item: str
    ) -> CraftProject:
        async with self._write(guild_id) as tx:
            is_gm = await self._role(tx, guild_id, campaign_id, actor_id)
            rows = await tx.fetch(
                "open_projects_by_item",
                {"campaign_id": campaign_id, "item_key": _key(item), "user_id": int(actor_id)},
            )
            mine = [row for row in rows if row[1] == actor_id]
            if mine:
                project_id = mine[0][0]
            elif is_gm and len(rows) == 1:
                project_id = rows[0][0]
            elif is_gm and rows:
                raise InvalidValue(
                    "Several players have an unfinished project named {item}; its owner has "
                    "to finish theirs.",
                    item=repr(item),
                )
            else:
                raise NotFound(
                    "You have no unfinished project named {item} in this campaign. Check the name.",
                    item=repr(item),
                )
            await tx.execute("finish_project", {"project_id": project_id})
            return await self._project_by_id(tx, guild_id, campaign_id, project_id)

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
        """Commit what queued, then what queued meanwhile, until nothing is left.

        The backend commits a batch in one transaction, or, if that fails, each row alone, so
        one bad row fails only itself.
        """
        while self._roll_queue:
            batch, self._roll_queue = self._roll_queue, []
            self.roll_batch_sizes[len(batch)] += 1
            try:
                outcomes = await self.backend.insert_rolls([queued.params for queued in batch])
                outcomes = [
                    await self._not_inserted(queued.record) if outcome is None else outcome
                    for queued, outcome in zip(batch, outcomes, strict=True)
                ]
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

    async def _not_inserted(self, record: RollRecord) -> int | StorageError:
        """Why a row inserted nothing: logged already (its id back: the same interaction
        again), logged for another roll (InvalidValue), or its campaign is not in its guild."""
        if record.interaction_id is not None:
            rows = await self.backend.query(
                "roll_of_interaction_anywhere", {"interaction_id": record.interaction_id}
            )
            if rows:
                roll_id, guild_id, campaign_id = rows[0]
                if (guild_id, campaign_id) != (record.guild_id, record.campaign_id):
                    return InvalidValue(LOGGED_ELSEWHERE)
                return roll_id
        return NotFound(CAMPAIGN_GONE)

    async def get_roll(self, guild_id: int, roll_id: int) -> RollRecord | None:
        if not 0 < roll_id <= MAX_INTEGER:
            return None
        rows = await self.backend.query("roll_by_id", {"roll_id": roll_id, "guild_id": guild_id})
        return roll_from_row(rows[0]) if rows else None

    async def roll_of_interaction(self, guild_id: int, interaction_id: int) -> int | None:
        rows = await self.backend.query(
            "roll_of_interaction", {"interaction_id": interaction_id, "guild_id": guild_id}
        )
        return rows[0][0] if rows else None

    async def npcs_in_play(
        self, guild_id: int, campaign_id: int, prefix: str = "", *, limit: int = 25
    ) -> list[str]:
        if limit <= 0:
            return []
        rows = await self.backend.query(
            "npcs_in_play",
            {
                "guild_id": guild_id,
                "campaign_id": campaign_id,
                "pattern": _like(prefix),
                "window": NPCS_IN_PLAY_WINDOW,
                "limit": min(limit, 1000),
            },
        )
        return [row[0] for row in rows]

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
        params: Params = {
            "campaign_id": campaign_id,
            "guild_id": guild_id,
            "include_hidden": int(bool(include_hidden)),
            "limit": min(limit, RECENT_ROLLS_MAX),
        }
        name = "recent_rolls"
        if user_id is not None:
            name, params["user_id"] = "recent_rolls_of_user", int(user_id)
        return [roll_from_row(row) for row in await self.backend.query(name, params)]

    async def delete_old_rolls(
        self, before: datetime, *, after_id: int = 0, batch: int = 500
    ) -> PrunedRolls:
        rows = await self.backend.query(
            "delete_old_rolls",
            {"after_id": after_id, "batch": batch, "before": utc_text(before)},
            write=True,
        )
        return PrunedRolls(len(rows), max((row[0] for row in rows), default=None))

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
        rows = await self.backend.query(
            "insert_pending",
            {
                "kind": kind,
                "payload": text,
                "expires_at": utc_text(expires_at),
                "campaign_id": campaign_id,
                "guild_id": guild_id,
            },
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
        await self.backend.query(
            "set_pending_message",
            {
                "channel_id": channel_id,
                "message_id": message_id,
                "pending_id": pending_id,
                "guild_id": guild_id,
            },
            write=True,
        )

    async def get_pending(self, guild_id: int, pending_id: int) -> PendingAction | None:
        rows = await self.backend.query(
            "pending_by_id", {"pending_id": pending_id, "guild_id": guild_id}
        )
        return pending_from_row(rows[0]) if rows else None

    async def claim_pending(self, guild_id: int, pending_id: int) -> bool:
        # One DELETE: of two presses (in this process or another) exactly one gets the row.
        rows = await self.backend.query(
            "claim_pending", {"pending_id": pending_id, "guild_id": guild_id}, write=True
        )
        return bool(rows)

    async def settle_pending(
        self,
        guild_id: int,
        pending_id: int,
        outcome: RollState,
        record: RollRecord | None = None,
    ) -> bool:
        params = None if record is None else roll_params(record)
        where = {"pending_id": pending_id, "guild_id": guild_id}
        async with self._write(guild_id) as tx:
            if not await tx.fetch("claim_pending", where):
                return False
            if params is not None and not await tx.fetch("insert_roll", params):
                raise InvalidValue(LOGGED_ELSEWHERE)
            await tx.execute("settle_waiting_rolls", {**where, "state": str(outcome)})
            return True

    async def expired_pending(
        self, now: datetime, limit: int = 50, shards: Shards | None = None
    ) -> list[PendingAction]:
        if limit <= 0:
            return []
        params: Params = {"now": utc_text(now), "limit": limit}
        name = "expired_pending"
        if shards is not None:
            name = "expired_pending_of_shards"
            params["shard_count"] = shards.count
            params["shard_ids"] = json.dumps(list(shards.ids))
        rows = await self.backend.query(name, params)
        return [pending_from_row(row) for row in rows]

    # ---- import / export / user data ----------------------------------------------------
    async def export_character(self, guild_id: int, campaign_id: int, name: str) -> dict[str, Any]:
        sheet = await self.get_character(guild_id, campaign_id, name)
        saved = await self.saved_rolls(guild_id, campaign_id, sheet.id)
        return character_document(sheet, saved=saved)

    async def export_campaign(self, guild_id: int, campaign_id: int) -> dict[str, Any]:
        async with self._read() as tx:
            campaign = await self._campaign_by_id(tx, guild_id, campaign_id)
            rows = await tx.fetch(
                "characters_of_campaign", {"guild_id": guild_id, "campaign_id": campaign_id}
            )
            characters = [character_from_row(row) for row in rows]
            saved = await self._campaign_saved_rolls(tx, guild_id, campaign_id)
        return campaign_document(campaign, characters, saved=saved)

    async def import_data(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        data: ImportPlan | dict[str, Any] | bytes | str,
        *,
        replace: bool = False,
    ) -> list[Character]:
        plan = data if isinstance(data, ImportPlan) else await read_import(data)
        outcome = await self._import_turn_of(
            guild_id, campaign_id, actor_id, plan, replace=replace, skip=False
        )
        return outcome.imported

    async def import_sheets(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        data: ImportPlan | dict[str, Any] | bytes | str,
        *,
        replace: bool = False,
        overwrite: Collection[int] = (),
    ) -> ImportOutcome:
        plan = data if isinstance(data, ImportPlan) else await read_import(data)
        return await self._import_turn_of(
            guild_id,
            campaign_id,
            actor_id,
            plan,
            replace=replace,
            skip=True,
            overwrite=frozenset(overwrite),
        )

    async def import_clashes(
        self, guild_id: int, campaign_id: int, plan: ImportPlan
    ) -> list[ImportClash]:
        keys = [sheet.name.casefold() for sheet in plan.characters]
        async with self._read() as tx:
            await self._campaign_by_id(tx, guild_id, campaign_id)
            [(found,)] = await tx.fetch(
                "import_clashes", {"campaign_id": campaign_id, "keys": json_text(keys, "keys")}
            )
        return [_clash(row) for row in json.loads(found)]

    async def _import_turn_of(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        plan: ImportPlan,
        **how: Any,
    ) -> ImportOutcome:
        # Read before taking the lock, and off the event loop: ImportRejected writes nothing.
        async with self._import_turn:
            # After an import, the next one rests as long as that write took: imports then
            # hold the store half the time at most, and the few statements of a roll that
            # waited for one write run in the pause instead of each waiting for another.
            rest = self._imports_rest_until - time.monotonic()
            if rest > 0:
                await asyncio.sleep(rest)
            started = time.monotonic()
            try:
                return await self._import_plan(guild_id, campaign_id, actor_id, plan, **how)
            finally:
                now = time.monotonic()
                self._imports_rest_until = now + min(now - started, IMPORT_REST_MAX)

    async def _import_plan(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        plan: ImportPlan,
        *,
        replace: bool,
        skip: bool,
        overwrite: frozenset[int] = frozenset(),
    ) -> ImportOutcome:
        """`skip`: a clash the actor may not replace (or did not ask to) is left out and the
        rest imported; else any clash refuses the whole import unless `replace`. A GM replaces
        NPCs and their own sheets with `replace`, another player's only when its id is in
        `overwrite` (what the GM confirmed)."""
        sheets = plan.characters
        rows = await offload.run(import_rows, sheets)  # before the lock, off the loop
        keys = {"campaign_id": campaign_id, "keys": rows.keys}
        left_out: list[ImportClash] = []
        async with self._write(guild_id) as tx:
            campaign = await self._campaign_by_id(tx, guild_id, campaign_id)
            is_gm = campaign.is_gm(actor_id)
            if plan.kind == "campaign" and not is_gm:
                raise campaign.gm_only(N_("import a whole campaign"))
            npcs = [sheet.name for sheet in sheets if sheet.is_npc]
            if npcs and not is_gm:
                raise campaign.gm_only(N_("import NPCs ({names})"), names=", ".join(npcs[:5]))
            [(found,)] = await tx.fetch("import_clashes", keys)
            order = {sheet.name.casefold(): i for i, sheet in enumerate(sheets)}
            clashes = sorted(json.loads(found), key=lambda row: order.get(row[0], 0))
            if skip:
                kept = []
                for row in clashes:
                    clash = _clash(row)
                    mine = not clash.is_npc and clash.owner_id == actor_id
                    allowed = replace and (
                        mine or (is_gm and (clash.is_npc or clash.character_id in overwrite))
                    )
                    if allowed:
                        kept.append(row)
                    else:
                        left_out.append(clash)
                clashes = kept
                if left_out:
                    gone = {clash.name.casefold() for clash in left_out}
                    sheets = tuple(s for s in sheets if s.name.casefold() not in gone)
                    rows = await offload.run(import_rows, sheets)
                    keys = {"campaign_id": campaign_id, "keys": rows.keys}
            if clashes and not replace:
                names = ", ".join(repr(row[2]) for row in clashes[:10])
                raise NameTaken(
                    "This campaign already has {names}. Rename them in the file, or import "
                    "with replace to overwrite them.",
                    names=names,
                )
            if not is_gm:
                for row in clashes:
                    if row[4] or row[3] != actor_id:
                        raise PermissionDenied(
                            "{row} is not yours, so the import cannot replace it.", row=repr(row[2])
                        )
            replaced = [_clash(row) for row in clashes]
            existing = {row[0] for row in clashes}
            for npcs in (False, True):
                new = [s for s in sheets if s.is_npc == npcs and s.name.casefold() not in existing]
                await self._check_room(tx, campaign_id, npcs, len(new))
            if not sheets:
                return ImportOutcome([], left_out, [])
            # A handful of statements whatever the size, each running in the database without
            # the GIL: a statement per row (84,000 for a big import) held the lock for 0.5 s or
            # more, one trip to the database each, while every other roll waited.
            if clashes:
                await tx.execute("import_clear_character_stats", keys)
                await tx.execute("import_clear_weapons", keys)
            await tx.execute(
                "import_characters",
                {"campaign_id": campaign_id, "owner_id": int(actor_id), "rows": rows.characters},
            )
            await tx.execute("import_stats", {"campaign_id": campaign_id, "rows": rows.stats})
            await tx.execute("import_weapons", {"campaign_id": campaign_id, "rows": rows.weapons})
            await import_portraits(tx, campaign_id, sheets, keys if clashes else None)
            [(found,)] = await tx.fetch("import_written", keys)
            written = json.loads(found)
            stored = [written[sheet.name.casefold()] for sheet in sheets]
            await self._import_saved_rolls(tx, plan, sheets, stored)
            if plan.kind == "character" and sheets and not sheets[0].is_npc:
                await self._activate_if_first(tx, campaign_id, actor_id, stored[0][0])
            if plan.kind == "campaign" and plan.npc_take10 is not None:
                await tx.execute(
                    "campaign_set_npc_take10",
                    {
                        "campaign_id": campaign_id,
                        "guild_id": guild_id,
                        "value": int(plan.npc_take10),
                    },
                )
        # The sheets as stored: as validated, with their ids and owners (a replaced sheet
        # keeps its own, so active choices and projects stay with it).
        imported = [
            dataclasses.replace(sheet, id=cid, campaign_id=campaign_id, owner_id=owner)
            for sheet, (cid, owner) in zip(sheets, stored, strict=True)
        ]
        return ImportOutcome(imported, left_out, replaced)

    async def delete_user_data(self, user_id: int) -> dict[str, int]:
        deletes = {
            N_("rolls"): "forget_user_rolls",
            N_("projects"): "forget_user_projects",
            N_("active choices"): "forget_user_active",
            N_("GM roles"): "forget_user_gm_roles",
            N_("health changes"): "forget_user_health",
            N_("combatants"): "forget_user_combatants",
            N_("characters"): "forget_user_characters",
            N_("in-character post records"): "forget_user_posts",
        }
        counts: dict[str, int] = {}
        async with self._write(WHOLE_STORE) as tx:
            for what, name in deletes.items():
                counts[what] = await tx.execute(name, {"user_id": int(user_id)})
        return counts
