"""The storage interface the cogs use, free of any database's particulars.

`storage.rules.RuleStore` implements every method once, over a SQLite or a PostgreSQL backend
(`SqliteStore`, `PostgresStore`). Every method that reads or writes campaign data takes the
guild id, and where it matters the campaign id, and touches nothing outside them: an id from
another guild finds nothing. Methods that change data take the acting user's id and enforce the
rules: players change only their own characters, GMs change any in their campaign (and all
NPCs).

Errors are `storage.errors.StorageError` subclasses whose messages are fit to show the user.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from storage.models import (
    Campaign,
    Character,
    CraftProject,
    Fight,
    HealthEntry,
    HealthTarget,
    ImportClash,
    ImportOutcome,
    NewCombatant,
    PendingAction,
    PrunedRolls,
    RollRecord,
    RollState,
    Shards,
    TurnChange,
    Weapon,
)
from storage.transfer import ImportPlan
from wire.health import DamageKind, Pool


class Store(ABC):
    # ---- life cycle -------------------------------------------------------------------------
    @abstractmethod
    async def close(self) -> None:
        """Finish pending writes and close the database."""

    @abstractmethod
    async def backup(self, destination: str | Path) -> None:
        """Copy the live database to `destination` consistently (online backup)."""

    @abstractmethod
    async def get_meta(self, key: str) -> str | None:
        """Bot-wide key/value settings (e.g. the hash of the last synced command payload)."""

    @abstractmethod
    async def set_meta(self, key: str, value: str) -> None: ...

    # ---- campaigns ----------------------------------------------------------------------------
    @abstractmethod
    async def campaign_for_channel(self, guild_id: int, channel_id: int, user_id: int) -> Campaign:
        """The campaign bound to the channel, else the guild's default campaign.

        The default campaign is created on first use ("Default"), so a new server needs no
        set-up. It starts with no player GMs: nobody becomes GM by being first; the server's
        managers are GMs of every campaign (see `storage.models.Actor`).
        """

    @abstractmethod
    async def create_campaign(self, guild_id: int, name: str, creator_id: int) -> Campaign:
        """A new campaign; the creator is its first GM. NameTaken if the guild has the name.

        Only a server manager or a GM of a campaign in this guild may create one
        (PermissionDenied), and a guild has at most MAX_CAMPAIGNS_PER_GUILD (InvalidValue).
        """

    @abstractmethod
    async def get_campaign(self, guild_id: int, name: str) -> Campaign:
        """By name, case-insensitive. NotFound."""

    @abstractmethod
    async def list_campaigns(self, guild_id: int) -> list[Campaign]: ...

    @abstractmethod
    async def get_campaign_by_id(self, guild_id: int, campaign_id: int) -> Campaign:
        """For state that outlives a message (a pending attack keeps ids, not names). NotFound."""

    @abstractmethod
    async def bind_channel(
        self, guild_id: int, channel_id: int, campaign_id: int, actor_id: int
    ) -> Campaign:
        """Bind the channel to the campaign (replacing any earlier binding).

        Only a GM of the target campaign may do it, and a channel bound to another campaign is
        moved only by a GM of that one too (or a server manager). A channel belongs to at most
        one campaign.
        """

    async def unbind_channel(self, guild_id: int, channel_id: int, actor_id: int) -> None:
        """Return the channel to the guild's default campaign; GMs of its campaign only.

        NotFound if the channel is not bound.
        """
        raise NotImplementedError

    @abstractmethod
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
        """Change settings; GMs only. None leaves a setting as it is; `language` is a language
        code ("de") every reply in the campaign speaks, or "" for each user's own again."""

    @abstractmethod
    async def set_attribute_names(
        self, guild_id: int, campaign_id: int, actor_id: int, names: Sequence[str] | None
    ) -> Campaign:
        """The campaign's attribute names (None: back to WIRE's own); GMs only.

        Autocomplete offers them and a new attribute close to one is refused as a typo. Names
        are checked like any other; at most MAX_ATTRIBUTES, none twice (InvalidValue names
        every problem at once).
        """

    @abstractmethod
    async def add_gm(
        self, guild_id: int, campaign_id: int, actor_id: int, user_id: int
    ) -> Campaign:
        """GMs only."""

    @abstractmethod
    async def remove_gm(
        self, guild_id: int, campaign_id: int, actor_id: int, user_id: int
    ) -> Campaign:
        """GMs only. The last player GM may go: the server's managers stay GMs."""

    # ---- characters ---------------------------------------------------------------------------
    @abstractmethod
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
        """Owner defaults to the actor. NPCs: GMs only (their owner is the creating GM).

        A player's first character in a campaign becomes their active one. NameTaken, InvalidValue.
        """

    @abstractmethod
    async def get_character(self, guild_id: int, campaign_id: int, name: str) -> Character:
        """By exact name, case-insensitive. NotFound."""

    @abstractmethod
    async def get_character_by_id(
        self, guild_id: int, campaign_id: int, character_id: int
    ) -> Character:
        """By id, so a rename between an attack and its defence still finds the target."""

    @abstractmethod
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
        """For autocomplete and lists: names containing `prefix` (case-insensitive), by name."""

    @abstractmethod
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
        """Set one attribute (kind "attribute") or skill (kind "skill"), atomically.

        Matching an existing stat name is case-insensitive and keeps its spelling. Concurrent
        writers lose no update. PermissionDenied, NotFound, InvalidValue.
        """

    @abstractmethod
    async def replace_stats(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str | int,
        attributes: dict[str, int],
        skills: dict[str, int],
    ) -> Character:
        """Make the sheet's attributes and skills exactly these, in one transaction.

        What is missing goes, what is new comes, the rest takes the new value; weapons, notes
        and health stay. `character` is a name, or the id (a form names the id, so a rename
        while it is open still finds the sheet). The same permissions as set_stat:
        PermissionDenied, NotFound, InvalidValue (and then nothing changes).
        """

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
        """Add `delta` to an existing attribute or skill in one atomic step.

        For counters two people change at once (wounds, resources): a read then a set_stat from
        the cog would lose one of two simultaneous changes. NotFound if the stat is missing;
        InvalidValue (and no change) if the result leaves the stat's range.
        """
        raise NotImplementedError

    @abstractmethod
    async def remove_stat(
        self, guild_id: int, campaign_id: int, actor_id: int, character: str, kind: str, stat: str
    ) -> Character:
        """Remove an attribute/skill ("attribute"/"skill") or a weapon ("weapon") by name."""

    @abstractmethod
    async def set_weapon(
        self, guild_id: int, campaign_id: int, actor_id: int, character: str, weapon: Weapon
    ) -> Character:
        """Add or replace (by name, case-insensitive) a weapon."""

    @abstractmethod
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
        """Change the shield flag, notes, name, or (GMs only) owner. None leaves it as it is."""

    @abstractmethod
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
        """A sheet's armour, willpower and health overrides (hp_max 0: back to 20 +
        Constitution + Resolve; thp_max 0: equal to HP). None leaves a value as it is."""

    @abstractmethod
    async def delete_character(
        self, guild_id: int, campaign_id: int, actor_id: int, character: str
    ) -> None: ...

    @abstractmethod
    async def set_active_character(
        self, guild_id: int, campaign_id: int, user_id: int, character: str
    ) -> Character:
        """Players may activate only their own; GMs any in the campaign (NPCs included)."""

    @abstractmethod
    async def get_active_character(
        self, guild_id: int, campaign_id: int, user_id: int
    ) -> Character | None: ...

    async def roller_context(
        self, guild_id: int, channel_id: int, user_id: int
    ) -> tuple[Campaign, Character | None]:
        """`campaign_for_channel` and the user's active character there: what every roll reads.

        One method so a backend can answer both in one round trip.
        """
        campaign = await self.campaign_for_channel(guild_id, channel_id, user_id)
        return campaign, await self.get_active_character(guild_id, campaign.id, user_id)

    # ---- crafting -----------------------------------------------------------------------------
    @abstractmethod
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
        """NameTaken if the owner already has an unfinished project with this item name.

        The recipe (`attribute`, `skill` from the crafter's sheet, the `target` number of each
        roll) lets each roll give just the project; `goal` is the quality aimed for.
        """

    @abstractmethod
    async def get_project(
        self, guild_id: int, campaign_id: int, owner_id: int, item: str
    ) -> CraftProject:
        """The owner's unfinished project by item name, case-insensitive. NotFound."""

    @abstractmethod
    async def list_projects(
        self,
        guild_id: int,
        campaign_id: int,
        owner_id: int | None = None,
        *,
        include_finished: bool = False,
    ) -> list[CraftProject]: ...

    @abstractmethod
    async def apply_craft_roll(
        self, project: CraftProject, expected_quality: int, new_quality: int, record: RollRecord
    ) -> CraftProject:
        """Set the project's quality and log the roll in one transaction.

        Compare-and-set: if the stored quality is no longer `expected_quality` (another roll
        landed first) raise StorageError so the roll can be redone on the new quality.
        """

    @abstractmethod
    async def finish_project(
        self, guild_id: int, campaign_id: int, actor_id: int, item: str
    ) -> CraftProject:
        """The owner (or a GM) marks it finished; it keeps its final quality."""

    # ---- roll log -----------------------------------------------------------------------------
    @abstractmethod
    async def log_roll(self, record: RollRecord) -> int:
        """Commit the roll; return its id. Same interaction_id twice: one row, same id."""

    @abstractmethod
    async def get_roll(self, guild_id: int, roll_id: int) -> RollRecord | None:
        """One logged roll by id (a Roll again button names it); None in another guild."""

    @abstractmethod
    async def roll_of_interaction(self, guild_id: int, interaction_id: int) -> int | None:
        """The id of the roll an interaction logged, if any."""

    @abstractmethod
    async def npcs_in_play(
        self, guild_id: int, campaign_id: int, prefix: str = "", *, limit: int = 25
    ) -> list[str]:
        """Names of the campaign's NPCs that rolled in public lately (what the players have
        seen), matching `prefix` anywhere; for players' target autocomplete."""

    @abstractmethod
    async def recent_rolls(
        self,
        guild_id: int,
        campaign_id: int,
        *,
        user_id: int | None = None,
        limit: int = 10,
        include_hidden: bool = False,
    ) -> list[RollRecord]:
        """Newest first."""

    # ---- pending actions (buttons that wait for a user) ---------------------------------------
    @abstractmethod
    async def create_pending(
        self,
        guild_id: int,
        campaign_id: int,
        kind: str,
        payload: dict[str, Any],
        expires_at: datetime,
    ) -> PendingAction: ...

    @abstractmethod
    async def set_pending_message(
        self, guild_id: int, pending_id: int, channel_id: int, message_id: int
    ) -> None:
        """Remember where the buttons were posted, so an expiry note can edit that message."""

    @abstractmethod
    async def get_pending(self, guild_id: int, pending_id: int) -> PendingAction | None:
        """Read without claiming (to check who may press and whether it expired)."""

    @abstractmethod
    async def claim_pending(self, guild_id: int, pending_id: int) -> bool:
        """Remove it; True only for the one caller that removed it (a press wins once)."""

    @abstractmethod
    async def settle_pending(
        self,
        guild_id: int,
        pending_id: int,
        outcome: RollState,
        record: RollRecord | None = None,
    ) -> bool:
        """Claim the action, log `record` (the roll that settles it, if any) and mark the rolls
        that waited on it `outcome`, all in one transaction; False if it was claimed already.

        One transaction, so a defence is never logged without its attack being settled, nor the
        other way round, and of two presses exactly one settles it.
        """

    @abstractmethod
    async def delete_old_rolls(
        self, before: datetime, *, after_id: int = 0, batch: int = 500
    ) -> PrunedRolls:
        """One short batch of the retention job: of the `batch` oldest rows after `after_id`,
        delete those logged before `before`, in one statement (the writer is held for that
        statement only)."""

    @abstractmethod
    async def expired_pending(
        self, now: datetime, limit: int = 50, shards: Shards | None = None
    ) -> list[PendingAction]:
        """Actions whose time ran out, across guilds, oldest first (for the expiry sweeper);
        with `shards`, only in the guilds of those shards (a process sweeps its own)."""

    # ---- fights and health --------------------------------------------------------------------
    @abstractmethod
    async def start_fight(
        self, guild_id: int, campaign_id: int, channel_id: int, actor_id: int, name: str
    ) -> Fight:
        """A new fight in the channel; GMs only. Conflict if one is running there already."""

    @abstractmethod
    async def running_fight(self, guild_id: int, channel_id: int) -> Fight | None:
        """The channel's running fight with its combatants, health and effects, if any."""

    @abstractmethod
    async def get_fight(self, guild_id: int, fight_id: int) -> Fight | None:
        """By id (a button names it), running or ended; None in another guild."""

    @abstractmethod
    async def add_combatants(
        self, guild_id: int, fight_id: int, actor_id: int, new: Sequence[NewCombatant]
    ) -> Fight:
        """All or none: NPCs by GMs, a player character by its player (or a GM). NameTaken if
        a name (or a player character) is in the fight already; at most 50 combatants."""

    @abstractmethod
    async def remove_combatant(
        self, guild_id: int, fight_id: int, actor_id: int, combatant_id: int
    ) -> Fight:
        """GMs, or the player of a player character; its turn passes to the next."""

    @abstractmethod
    async def advance_turn(
        self, guild_id: int, fight_id: int, actor_id: int, expected_step: int | None = None
    ) -> TurnChange:
        """End the current turn: the next in the order acts, a new round after the last.

        Only the current combatant's player or a GM; the first turn, GMs only. The effects of
        the combatant whose turn ends count down. `expected_step` (a Next button's) makes it a
        compare-and-set: of two presses at once, one advances and the other gets Conflict.
        """

    @abstractmethod
    async def add_effect(
        self,
        guild_id: int,
        fight_id: int,
        actor_id: int,
        combatant_id: int,
        name: str,
        rounds: int | None,
    ) -> Fight:
        """A condition lasting `rounds` of its combatant's turns (None: until ended)."""

    @abstractmethod
    async def end_fight(self, guild_id: int, fight_id: int, actor_id: int) -> Fight:
        """GMs only; the ended fight, for its summary."""

    @abstractmethod
    async def set_tracker(self, guild_id: int, fight_id: int, message_id: int | None) -> None:
        """Remember the tracker message the bot keeps editing."""

    @abstractmethod
    async def change_health(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        target: HealthTarget,
        op: str,
        amount: int,
        *,
        pool: Pool | None = None,
        kind: DamageKind = DamageKind.LETHAL,
        armour: bool = False,
        by_roll: bool = False,
        attacker_id: int | None = None,
        interaction_id: int | None = None,
    ) -> HealthEntry:
        """Damage, heal or set one pool of a combatant (an NPC copy's own) or a sheet, and log
        it, in one transaction: concurrent blows lose no damage.

        `op`: damage (to the pool of `kind`, or `pool`; less the target's armour if `armour`),
        heal or set (`pool`, default HP). By hand: GMs, or a player for their own character;
        `by_roll`: an attack's damage, which its resolution allows.
        """

    @abstractmethod
    async def undo_health(self, guild_id: int, campaign_id: int, actor_id: int) -> HealthEntry:
        """Undo the campaign's last change of health that is not undone yet; GMs only."""

    @abstractmethod
    async def recent_health(
        self, guild_id: int, campaign_id: int, limit: int = 10
    ) -> list[HealthEntry]:
        """Newest first, for /history."""

    # ---- import / export / user data ----------------------------------------------------------
    @abstractmethod
    async def export_character(self, guild_id: int, campaign_id: int, name: str) -> dict[str, Any]:
        """Versioned JSON-ready dict (see storage/transfer.py for the format)."""

    @abstractmethod
    async def export_campaign(self, guild_id: int, campaign_id: int) -> dict[str, Any]: ...

    @abstractmethod
    async def import_data(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        data: ImportPlan | dict[str, Any] | bytes | str,
        *,
        replace: bool = False,
    ) -> list[Character]:
        """Import a character or campaign export into this campaign; the sheets as stored.

        `data` is the export (read and validated first, off the event loop, with
        `storage.transfer.read_import`), or the ImportPlan that function returned: the cog
        reads the file before it waits for the store, and a plan is taken as validated.
        ImportRejected lists the problems; a rejected import writes nothing. Imported player
        characters are owned by the actor; NPCs need a GM. Existing names: NameTaken unless
        `replace` (owner/GM rules still apply; a replaced sheet keeps its id and owner).

        The write is one transaction of a few statements whatever the import's size, and
        imports take turns, so a roll waits for one import's write at most.
        """

    @abstractmethod
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
        """Import what does not clash, and say what was left out: an import as the bot and
        the CLI make it.

        A sheet whose name the campaign has already is left out (`ImportOutcome.left_out`)
        unless `replace` and the actor may replace it: their own sheet, an NPC for a GM, and
        another player's sheet only for a GM who names its id in `overwrite` (the confirmation
        that says whose sheets change). The rest is imported as `import_data` does.
        """

    @abstractmethod
    async def import_clashes(
        self, guild_id: int, campaign_id: int, plan: ImportPlan
    ) -> list[ImportClash]:
        """The campaign's sheets the plan's names clash with (to ask before replacing)."""

    @abstractmethod
    async def delete_user_data(self, user_id: int) -> dict[str, int]:
        """Forget a Discord user in every guild: their characters, projects, active choices,
        logged rolls and changes of health, GM roles, and their places in running fights, in
        one transaction. Returns how many of each went."""
