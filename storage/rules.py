"""`RuleStore`: the store the cogs use, its rules written once, over any backend
(storage/backend.py): SQLite (`SqliteStore`) or PostgreSQL (`PostgresStore`).

Every method that reads or writes campaign data takes the guild id, and where it matters the
campaign id, and touches nothing outside them: an id from another guild finds nothing. Methods
that change data take the acting user's id and enforce the rules (who may change a sheet:
storage.models.change_refusal). Errors are `storage.errors.StorageError` subclasses whose
messages are fit to show the user. The methods are grouped by what they hold, one mixin a
module: storage/rules_characters.py, rules_crafting.py, rules_rolls.py (the roll log and
pending actions), rules_transfer.py (import and export), rules_fights.py, rules_incharacter.py,
and the character points in rules_advancement.py (the table's settings), rules_ledger.py and
rules_spending.py; what they share is storage/rules_common.py. What each mixin calls of the
others is its Protocol in storage/rules_needs.py, so a type checker checks those calls. There
is one implementation, so no interface restates it: the docstrings are on the methods that run.

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
from collections import Counter
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path

from storage.backend import WHOLE_STORE, Backend, Transaction
from storage.errors import InvalidValue, NameTaken, NotFound, PermissionDenied
from storage.models import (
    LANGUAGE_CODE,
    MAX_CAMPAIGNS_PER_GUILD,
    Campaign,
    RollerScene,
    manages_guild,
)
from storage.rows import campaign_from_row, json_text
from storage.rules_advancement import RuleAdvancement
from storage.rules_characters import RuleCharacters
from storage.rules_common import (
    CAMPAIGN_GONE,
    DEFAULT_CAMPAIGN_NAME,
    QueuedRoll,
    first_row,
    log,
    name_key,
)
from storage.rules_conditions import RuleConditions
from storage.rules_counters import RuleCounters
from storage.rules_crafting import RuleCrafting
from storage.rules_fights import RuleFights
from storage.rules_gear import RuleGear
from storage.rules_health import RuleHealth
from storage.rules_incharacter import RuleInCharacter
from storage.rules_ledger import RuleLedger
from storage.rules_purse import RulePurse
from storage.rules_rolls import RuleRolls
from storage.rules_saved import RuleSaved
from storage.rules_sessions import RuleSessions
from storage.rules_sheet_conditions import RuleSheetConditions
from storage.rules_spending import RuleSpending
from storage.rules_stats import RuleStats
from storage.rules_transfer import RuleTransfer
from storage.validation import clean_attribute_names, clean_name
from wire import limits
from wire.i18n import N_
from wire.sheet import Character


class RuleStore(
    RuleAdvancement,
    RuleLedger,
    RuleSpending,
    RuleFights,
    RuleHealth,
    RuleGear,
    RulePurse,
    RuleCounters,
    RuleInCharacter,
    RuleSaved,
    RuleSessions,
    RuleCharacters,
    RuleCrafting,
    RuleConditions,
    RuleSheetConditions,
    RuleRolls,
    RuleStats,
    RuleTransfer,
):
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
        self._roll_queue: list[QueuedRoll] = []
        self._roll_flusher: asyncio.Task[None] | None = None
        self.roll_batch_sizes: Counter[int] = Counter()
        """How many roll-log rows each group commit held: the benchmark prints its spread."""
        self._scenes: dict[tuple[int, int, int], tuple[object, RollerScene]] = {}
        """Rollers' reads as parsed (`roller_scene`), each with the cached rows it came from."""

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
        """Finish pending writes and close the database."""
        if self._closed:
            return
        while self._roll_flusher is not None and not self._roll_flusher.done():
            await asyncio.shield(self._roll_flusher)  # a queued roll is answered, so commit it
        self._closed = True
        if self.roll_batch_sizes:
            log.info("Roll log group commits: %s", self.roll_batch_summary())
        await self.backend.close()

    async def backup(self, destination: str | Path) -> None:
        """Copy the live database to `destination` consistently (online backup)."""
        await self.backend.backup(destination)

    async def get_meta(self, key: str) -> str | None:
        """Bot-wide key/value settings (e.g. the hash of the last synced command payload)."""
        rows = await self.backend.query("meta_get", {"key": key})
        return rows[0][0] if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        await self.backend.query("meta_set", {"key": key, "value": value}, write=True)

    # ---- campaigns: helpers -------------------------------------------------------------
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
        row = await first_row(
            tx, "campaign_by_id", {"campaign_id": campaign_id, "guild_id": guild_id}
        )
        if row is None:
            raise NotFound(CAMPAIGN_GONE)
        return campaign_from_row(row)

    # ---- campaigns ----------------------------------------------------------------------
    async def get_campaign_by_id(self, guild_id: int, campaign_id: int) -> Campaign:
        """For state that outlives a message (a pending attack keeps ids, not names). NotFound."""
        async with self._read() as tx:
            return await self._campaign_by_id(tx, guild_id, campaign_id)

    async def get_character_by_id(
        self, guild_id: int, campaign_id: int, character_id: int
    ) -> Character:
        """By id, so a rename between an attack and its defence still finds the target."""
        async with self._read() as tx:
            return await self._character_by_id(tx, guild_id, campaign_id, character_id)

    async def campaign_for_channel(self, guild_id: int, channel_id: int, user_id: int) -> Campaign:
        """The campaign bound to the channel, else the guild's default campaign.

        The default campaign is created on first use ("Default"), so a new server needs no
        set-up. It starts with no player GMs: nobody becomes GM by being first; the server's
        managers are GMs of every campaign (see `storage.models.Actor`).
        """
        params = {"guild_id": guild_id, "channel_id": channel_id}
        rows = await self.backend.query("campaign_for_channel", params, cached=True)
        if rows:
            return campaign_from_row(rows[0])
        async with self._write(guild_id) as tx:
            # Checked again under the write lock: a racing first use may have made it already.
            row = await first_row(tx, "campaign_for_channel", params)
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
        """A new campaign; the creator is its first GM. NameTaken if the guild has the name.

        Only a server manager or a GM of a campaign in this guild may create one
        (PermissionDenied), and a guild has at most MAX_CAMPAIGNS_PER_GUILD (InvalidValue).
        """
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
            row = await first_row(
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
        """By name, case-insensitive. NotFound."""
        rows = await self.backend.query(
            "campaign_by_name", {"guild_id": guild_id, "name_key": name_key(name)}
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
        """Bind the channel to the campaign (replacing any earlier binding).

        Only a GM of the target campaign may do it, and a channel bound to another campaign is
        moved only by a GM of that one too (or a server manager). A channel belongs to at most
        one campaign.
        """
        binding = {"guild_id": guild_id, "channel_id": channel_id}
        async with self._write(guild_id) as tx:
            await self._require_gm(tx, guild_id, campaign_id, actor_id, N_("play it in a channel"))
            bound = await first_row(tx, "channel_binding", binding)
            if bound is not None and bound[0] != campaign_id:
                await self._require_gm(
                    tx, guild_id, bound[0], actor_id, N_("move this channel to another campaign")
                )
            await tx.execute("bind_channel", {**binding, "campaign_id": campaign_id})
            return await self._campaign_by_id(tx, guild_id, campaign_id)

    async def unbind_channel(self, guild_id: int, channel_id: int, actor_id: int) -> None:
        """Return the channel to the guild's default campaign; GMs of its campaign only.

        NotFound if the channel is not bound.
        """
        binding = {"guild_id": guild_id, "channel_id": channel_id}
        async with self._write(guild_id) as tx:
            bound = await first_row(tx, "channel_binding", binding)
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
        attacks_per_turn: int | None = None,
        out_of_turn_attacks: bool | None = None,
        players_conditions: bool | None = None,
    ) -> Campaign:
        """Change settings; GMs only. None leaves a setting as it is; `language` is a language
        code ("de") every reply in the campaign speaks, or "" for each user's own again;
        `attacks_per_turn` 1 to 20, or 0 for any number (wire.fight.TurnRules)."""
        where = {"campaign_id": campaign_id, "guild_id": guild_id}
        if language is not None and language != "" and not LANGUAGE_CODE.fullmatch(language):
            raise InvalidValue(
                "{language} is not a language code such as de or en.", language=repr(language)
            )
        if attacks_per_turn is not None:
            limits.ATTACKS_PER_TURN.check(attacks_per_turn)
        flags = {
            "out_of_turn_attacks": out_of_turn_attacks,
            "players_conditions": players_conditions,
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
            if attacks_per_turn is not None:
                most = attacks_per_turn or None  # 0: any number, kept as NULL
                await tx.execute("campaign_set_attacks_per_turn", {**where, "value": most})
            return await self._campaign_by_id(tx, guild_id, campaign_id)

    async def set_attribute_names(
        self, guild_id: int, campaign_id: int, actor_id: int, names: Sequence[str] | None
    ) -> Campaign:
        """The campaign's attribute names (None: back to WIRE's own); GMs only.

        Autocomplete offers them and a new attribute close to one is refused as a typo. Names
        are checked like any other; at most MAX_ATTRIBUTES, none twice (InvalidValue names
        every problem at once).
        """
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
        """GMs only."""
        async with self._write(guild_id) as tx:
            await self._require_gm(tx, guild_id, campaign_id, actor_id, N_("add GMs"))
            await tx.execute("add_gm", {"campaign_id": campaign_id, "user_id": int(user_id)})
            return await self._campaign_by_id(tx, guild_id, campaign_id)

    async def remove_gm(
        self, guild_id: int, campaign_id: int, actor_id: int, user_id: int
    ) -> Campaign:
        """GMs only. The last player GM may go: the server's managers stay GMs."""
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

    async def delete_user_data(self, user_id: int) -> dict[str, int]:
        """Forget a Discord user in every guild: their characters, projects, active choices,
        logged rolls and changes of health, GM roles, and their places in running fights, and
        their id on the CP entries they made on other users' characters and on the NPCs they
        made, which stay their campaigns' (user 0, "forgotten"), and likewise on the purse
        entries and gifts they made, in one transaction. Returns how many of each went."""
        deletes = {
            N_("rolls"): "forget_user_rolls",
            N_("projects"): "forget_user_projects",
            N_("active choices"): "forget_user_active",
            N_("GM roles"): "forget_user_gm_roles",
            N_("health changes"): "forget_user_health",
            N_("combatants"): "forget_user_combatants",
            N_("characters"): "forget_user_characters",
            N_("NPCs kept for their campaigns without your id"): "forget_user_npcs",
            N_("in-character post records"): "forget_user_posts",
            N_("answers to sessions"): "forget_user_session_answers",
            # After the characters: what is left is on other users' characters.
            N_("CP entries made anonymous"): "forget_user_cp_entries",
            N_("CP requests made anonymous"): "forget_user_cp_requests",
            N_("purse entries made anonymous"): "forget_user_purse_entries",
            N_("gifts made anonymous"): "forget_user_gifts",
        }
        counts: dict[str, int] = {}
        async with self._write(WHOLE_STORE) as tx:
            for what, name in deletes.items():
                counts[what] = await tx.execute(name, {"user_id": int(user_id)})
        return counts
