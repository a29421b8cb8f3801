"""Conditions on a character outside a fight: a part of `RuleStore` (storage/rules.py).

A GM (or the character's player, where the table lets players: `Campaign.players_conditions`)
puts one on a sheet; the sheet's SELECT carries them (storage/sql/common.py's `conditions`), so
every roll that reads the sheet counts them without another query. When the character joins a
fight they come with it as copies on its combatant (storage/rules_fights.py), which count down
there; wire/conditions.py holds what each field means and the limits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from storage.backend import Transaction
from storage.errors import InvalidValue, NotFound
from storage.models import Campaign, require_condition
from storage.validation import clean_name
from wire.conditions import MAX_CONDITIONS, Effect, check_sheet_condition
from wire.i18n import N_
from wire.sheet import Character

if TYPE_CHECKING:
    from storage.rules_needs import SheetConditionsNeeds as _Needs
else:
    _Needs = object


async def put_on_sheet(
    tx: Transaction, guild_id: int, campaign_id: int, character_id: int, condition: Effect
) -> int:
    """Write a checked condition onto a sheet of the campaign, and a copy onto each of its
    combatants in a running fight, as if it had been on the sheet when they joined; its id."""
    [(condition_id,)] = await tx.fetch(
        "insert_sheet_condition",
        {
            "character_id": character_id,
            "name": condition.name,
            "modifier": condition.modifier,
            "applies_to": condition.applies_to.value,
            "stat": condition.stat,
            "rounds": condition.rounds_left,
            "timing": condition.timing.value,
            "hidden": int(condition.hidden),
        },
    )
    await tx.execute(
        "sheet_condition_into_fights",
        {
            "condition_id": condition_id,
            "campaign_id": campaign_id,
            "guild_id": guild_id,
            "most": MAX_CONDITIONS,
        },
    )
    return int(condition_id)


class RuleSheetConditions(_Needs):
    """The sheet-condition methods of `RuleStore`."""

    async def _condition_access(
        self, tx: Transaction, guild_id: int, campaign_id: int, actor_id: int, character: str
    ) -> tuple[Campaign, Character]:
        """The campaign and the sheet, once `actor_id` may change the sheet's conditions
        (storage.models.condition_refusal says who)."""
        access = await self._access(tx, guild_id, campaign_id, actor_id, character)
        require_condition(access.campaign, actor_id, access.name, access.owner_id, access.is_npc)
        sheet = await self._character_by_id(tx, guild_id, campaign_id, access.id)
        return access.campaign, sheet

    async def add_sheet_condition(
        self, guild_id: int, campaign_id: int, actor_id: int, character: str, condition: Effect
    ) -> tuple[Character, Effect]:
        """Put a condition on a sheet; only a GM hides one. At most `MAX_CONDITIONS` a sheet.
        If the character is fighting, its combatants get it too. The sheet after, and the
        condition as kept."""
        condition = check_sheet_condition(condition)
        clean_name(condition.name, "condition")
        async with self._write(guild_id) as tx:
            campaign, sheet = await self._condition_access(
                tx, guild_id, campaign_id, actor_id, character
            )
            if condition.hidden and not campaign.is_gm(actor_id):
                raise campaign.gm_only(N_("hide a condition"))
            [(count,)] = await tx.fetch("sheet_condition_count", {"character_id": sheet.id})
            if count >= MAX_CONDITIONS:
                raise InvalidValue(
                    "{name} has {most} conditions, the limit. Remove one first with "
                    "/condition remove.",
                    name=sheet.name,
                    most=MAX_CONDITIONS,
                )
            condition_id = await put_on_sheet(tx, guild_id, campaign_id, sheet.id, condition)
            after = await self._character_by_id(tx, guild_id, campaign_id, sheet.id)
            kept = next(c for c in after.conditions if c.id == condition_id)
            return after, kept

    async def remove_sheet_condition(
        self, guild_id: int, campaign_id: int, actor_id: int, character: str, name: str
    ) -> tuple[Character, Effect]:
        """Take a condition off a sheet (the first by that name, any case), and its copies in
        a running fight with it. Who may put one on may take it off; a hidden one, GMs."""
        async with self._write(guild_id) as tx:
            campaign, sheet = await self._condition_access(
                tx, guild_id, campaign_id, actor_id, character
            )
            folded = name.strip().casefold()
            seen = [c for c in sheet.conditions if not c.hidden or campaign.is_gm(actor_id)]
            found = next((c for c in seen if c.name.casefold() == folded), None)
            if found is None:
                raise NotFound(
                    "{name} has no condition {condition}. /character show lists them.",
                    name=sheet.name,
                    condition=name,
                )
            await tx.execute(
                "delete_sheet_condition", {"condition_id": found.id, "character_id": sheet.id}
            )
            return await self._character_by_id(tx, guild_id, campaign_id, sheet.id), found


__all__ = ["RuleSheetConditions", "put_on_sheet"]
