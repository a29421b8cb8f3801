"""Characters: sheets, their stats and weapons, health values, the active character: a part
of `RuleStore` (storage/rules.py), kept in its own module.

Who may change a sheet is the one rule of storage.models.change_refusal, read inside the
transaction that changes it (`_Access`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from storage.backend import Transaction
from storage.errors import InvalidValue, NameTaken, NotFound
from storage.models import (
    MAX_CHARACTERS_PER_CAMPAIGN,
    MAX_NPCS_PER_CAMPAIGN,
    NPCS_ARE_THE_GMS,
    Campaign,
    RollerScene,
    require_change,
)
from storage.rows import campaign_from_row, character_from_row
from storage.rules_common import first_row, like_pattern, name_key
from storage.sql.common import CAMPAIGN_WIDTH
from storage.validation import (
    STAT_COUNTS,
    check_kind,
    check_stat,
    clean_name,
    clean_notes,
    clean_stats,
    clean_weapon,
)
from wire import limits
from wire.i18n import N_
from wire.limits import MAX_WEAPONS
from wire.sheet import Character, Weapon

if TYPE_CHECKING:
    from storage.rules_needs import CharactersNeeds as _Needs
else:
    _Needs = object


def _no_character(name: str) -> NotFound:
    return NotFound(
        "No character named {name} in this campaign. /character list shows them.", name=repr(name)
    )


def _with(
    sheet: Character, kind: str, stat: str, value: int | None, delta: int = 0
) -> tuple[dict[str, int], dict[str, int]]:
    """The sheet's attributes and skills with one stat set to `value` (None: removed, or with
    `delta`: moved by it), matched by name as the store matches it (any case)."""
    attributes, skills = dict(sheet.attributes), dict(sheet.skills)
    table = attributes if kind == "attribute" else skills
    spelled = next((k for k in table if k.casefold() == stat.casefold()), stat)
    if delta:
        table[spelled] = table.get(spelled, 0) + delta
    elif value is None:
        table.pop(spelled, None)
    else:
        table[spelled] = value
    return attributes, skills


SCENES_KEPT = 4096
"""Parsed roller reads kept (`roller_scene`); past it they are dropped and parsed anew."""


class _Access(NamedTuple):
    """Who may change a character: read inside the transaction that changes it."""

    id: int
    name: str
    owner_id: int
    is_npc: bool
    campaign: Campaign
    actor_is_gm: bool

    def require_change(self, actor_id: int, npc_action: str = NPCS_ARE_THE_GMS) -> None:
        """The one rule (storage.models.change_refusal); `npc_action` words an NPC's refusal."""
        require_change(
            self.campaign,
            actor_id,
            name=self.name,
            player_id=self.owner_id,
            is_npc=self.is_npc,
            npc_action=npc_action,
        )


class RuleCharacters(_Needs):
    """The character methods of `RuleStore`."""

    _scenes: dict[tuple[int, int, int], tuple[object, RollerScene]]

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
            by_id = {"campaign_id": campaign_id, "character_id": name}
            row = await first_row(tx, "character_access_by_id", by_id)
            if row is None:
                raise NotFound("That character no longer exists.")
        else:
            by_name = {"campaign_id": campaign_id, "name_key": name_key(name)}
            row = await first_row(tx, "character_access_by_name", by_name)
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
        row = await first_row(
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
        categories: Mapping[str, Any] | None = None,
    ) -> Character:
        """Owner defaults to the actor. NPCs: GMs only (their owner is the creating GM).

        A player's first character in a campaign becomes their active one. `categories`: skill
        categories the sheet text wrote (a GM's set the campaign's; a player's must agree with
        them: storage/rules_advancement.py). NameTaken, InvalidValue.
        """
        name = clean_name(name, "character")
        attributes = clean_stats("attribute", attributes)
        skills = clean_stats("skill", skills)
        notes = clean_notes(notes)
        async with self._write(guild_id) as tx:
            campaign = await self._campaign_by_id(tx, guild_id, campaign_id)
            await self._sheet_categories(tx, campaign, actor_id, categories)
            if is_npc:
                if not campaign.is_gm(actor_id):
                    raise campaign.gm_only(N_("create NPCs"))
                owner = int(actor_id)
            else:
                owner = int(actor_id if owner_id is None else owner_id)
                if owner != actor_id and not campaign.is_gm(actor_id):
                    raise campaign.gm_only(N_("create characters for other players"))
            await self._check_room(tx, campaign_id, is_npc, 1)
            row = await first_row(
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
        """By exact name, case-insensitive. NotFound."""
        rows = await self.backend.query(
            "character_by_name",
            {"guild_id": guild_id, "campaign_id": campaign_id, "name_key": name_key(name)},
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
        """For autocomplete and lists: names containing `prefix` (case-insensitive), by name."""
        if limit <= 0:
            return []
        rows = await self.backend.query(
            "find_characters",
            {
                "guild_id": guild_id,
                "campaign_id": campaign_id,
                "pattern": like_pattern(prefix),
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
        """Set one attribute (kind "attribute") or skill (kind "skill"), atomically.

        Matching an existing stat name is case-insensitive and keeps its spelling. Concurrent
        writers lose no update. PermissionDenied, NotFound, InvalidValue.
        """
        check_kind(kind)
        stat = clean_name(stat, kind)
        check_stat(kind, stat, value)
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            await self._hold_sheet(tx, access, lambda sheet: _with(sheet, kind, stat, value))
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
        categories: Mapping[str, Any] | None = None,
    ) -> Character:
        """Make the sheet's attributes and skills exactly these, in one transaction (with the
        skill categories the text wrote, as `create_character` takes them).

        What is missing goes, what is new comes, the rest takes the new value; weapons, notes
        and health stay. `character` is a name, or the id (a form names the id, so a rename
        while it is open still finds the sheet). The same permissions as set_stat:
        PermissionDenied, NotFound, InvalidValue (and then nothing changes).
        """
        attributes = clean_stats("attribute", attributes)
        skills = clean_stats("skill", skills)
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            await self._sheet_categories(tx, access.campaign, actor_id, categories)
            await self._hold_sheet(tx, access, lambda _sheet: (attributes, skills))
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
        """Add `delta` to an existing attribute or skill in one atomic step.

        For counters two people change at once (wounds, resources): a read then a set_stat from
        the cog would lose one of two simultaneous changes. NotFound if the stat is missing;
        InvalidValue (and no change) if the result leaves the stat's range.
        """
        check_kind(kind)
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            await self._hold_sheet(tx, access, lambda sheet: _with(sheet, kind, stat, None, delta))
            row = await first_row(
                tx,
                "adjust_stat",
                {
                    "delta": delta,
                    "character_id": access.id,
                    "kind": kind,
                    "name_key": name_key(stat),
                },
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
        """Remove an attribute/skill ("attribute"/"skill") or a weapon ("weapon") by name."""
        check_kind(kind, weapon_ok=True)
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            if kind != "weapon":
                await self._hold_sheet(tx, access, lambda sheet: _with(sheet, kind, stat, None))
            where = {"character_id": access.id, "name_key": name_key(stat)}
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
        """Add or replace (by name, case-insensitive) a weapon."""
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
        """Change the shield flag, notes, name, or (GMs only) owner. None leaves it as it is."""
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
                clash = await first_row(
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
        """A sheet's armour, willpower and health overrides (hp_max 0: back to 20 +
        Constitution + Resolve; thp_max 0: equal to HP). None leaves a value as it is."""
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
        """Players may activate only their own; GMs any in the campaign (NPCs included)."""
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, user_id, character)
            access.require_change(user_id)
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
        """`campaign_for_channel` and the user's active character there: what every roll reads.

        One method so a backend can answer both in one round trip.
        """
        scene = await self.roller_scene(guild_id, channel_id, user_id)
        return scene.campaign, scene.character

    async def roller_scene(self, guild_id: int, channel_id: int, user_id: int) -> RollerScene:
        """`roller_context` and whether the channel has a fight running, in the one cached
        read: a roll in a channel without a fight (most of them) then asks nothing more."""
        params = {"guild_id": guild_id, "channel_id": channel_id, "user_id": int(user_id)}
        rows = await self.backend.query("roller_context", params, cached=True)
        if not rows:  # a new server: its default campaign is made on first use
            campaign = await self.campaign_for_channel(guild_id, channel_id, user_id)
            character = await self.get_active_character(guild_id, campaign.id, user_id)
            return RollerScene(campaign, character, None)
        # Rows equal to last time's are the same scene (it is made of them alone, and records
        # are frozen): parsing the sheet's stats and weapons anew cost a roll about as much as
        # the read. Equal, not the same rows: a write that empties the read cache (a fight's
        # turn, another sheet's change) makes the next read of an unchanged sheet new rows with
        # the same values. (A roll's log entry does not empty it.)
        key = (guild_id, channel_id, int(user_id))
        seen = self._scenes.get(key)
        if seen is not None and seen[0] == rows:
            return seen[1]
        row = rows[0]
        sheet = row[CAMPAIGN_WIDTH:-1]
        scene = RollerScene(
            campaign_from_row(row[:CAMPAIGN_WIDTH]),
            character_from_row(sheet) if sheet[0] is not None else None,
            row[-1] is not None,
        )
        if len(self._scenes) >= SCENES_KEPT:
            self._scenes.clear()
        self._scenes[key] = (rows, scene)
        return scene
