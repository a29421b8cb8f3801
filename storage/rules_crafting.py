"""Crafting projects and their rolls: a part of `RuleStore` (storage/rules.py), kept in its own
module. The quality math is wire/crafting.py; here are the project's rows and who may roll on
them: the one rule of who may change what (storage.models.may_change), so a server manager,
a GM everywhere, may roll on or finish another player's project.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from storage.backend import Transaction
from storage.errors import Conflict, InvalidValue, NameTaken, NotFound, PermissionDenied
from storage.models import MAX_OPEN_PROJECTS_PER_USER, CraftProject, RollRecord, may_change
from storage.rows import project_from_row, roll_params
from storage.rules_common import LOGGED_ELSEWHERE, first_row, name_key
from storage.validation import check_quality, clean_name
from wire import limits

if TYPE_CHECKING:
    from storage.rules_needs import CraftingNeeds as _Needs
else:
    _Needs = object


class RuleCrafting(_Needs):
    """The crafting methods of `RuleStore`."""

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
        item = clean_name(item, "item")
        check_quality(quality)
        attribute = clean_name(attribute, "attribute") if attribute is not None else None
        skill = clean_name(skill, "skill") if skill is not None else None
        if target is not None:
            limits.TARGET.check(target)
        if goal is not None:
            check_quality(goal)
        async with self._write(guild_id) as tx:
            campaign = await self._campaign_by_id(tx, guild_id, campaign_id)
            if character_id is not None:
                row = await first_row(
                    tx,
                    "character_owner",
                    {"character_id": character_id, "campaign_id": campaign_id},
                )
                if row is None:
                    raise NotFound("That character is not in this campaign.")
                if not may_change(campaign, owner_id, owner_id=row[0], is_npc=bool(row[1])):
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
            row = await first_row(
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
        row = await first_row(
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
        """The owner's unfinished project by item name, case-insensitive. NotFound."""
        rows = await self.backend.query(
            "open_project_by_item",
            {
                "guild_id": guild_id,
                "campaign_id": campaign_id,
                "owner_id": int(owner_id),
                "item_key": name_key(item),
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
        """Set the project's quality and log the roll in one transaction.

        Compare-and-set: if the stored quality is no longer `expected_quality` (another roll
        landed first) raise StorageError so the roll can be redone on the new quality.
        """
        check_quality(new_quality)
        if record.campaign_id != project.campaign_id:
            raise InvalidValue("That roll belongs to another campaign than the project.")
        guild_id, campaign_id = record.guild_id, project.campaign_id
        params = roll_params(record, project.id)  # before the lock: an unloggable roll fails
        async with self._write(guild_id) as tx:
            if record.interaction_id is not None:
                # A retried interaction: the first attempt already applied and logged it.
                done = await first_row(
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
            campaign = await self._campaign_by_id(tx, guild_id, campaign_id)
            row = await first_row(
                tx,
                "project_for_roll",
                {"project_id": project.id, "campaign_id": campaign_id, "guild_id": guild_id},
            )
            if row is None:
                raise NotFound("That crafting project no longer exists.")
            item, owner_id, finished, quality = row
            if not may_change(campaign, record.user_id, owner_id=owner_id, is_npc=False):
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
        """The owner (or a GM) marks it finished; it keeps its final quality."""
        async with self._write(guild_id) as tx:
            is_gm = (await self._campaign_by_id(tx, guild_id, campaign_id)).is_gm(actor_id)
            rows = await tx.fetch(
                "open_projects_by_item",
                {"campaign_id": campaign_id, "item_key": name_key(item), "user_id": int(actor_id)},
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
