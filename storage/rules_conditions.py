"""A campaign's named conditions (presets): a part of `RuleStore` (storage/rules.py).

WIRE defines no conditions, so the bot ships none: a table's GMs name their own ("Prone: -2 to
all defences"), and /fight effect offers them by name and fills in what a GM leaves out. A
preset is kept as the rules core's condition (`wire.conditions.Effect`, its id the preset's,
`rounds_left` its default duration). GMs only; every query scoped to guild and campaign.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from storage.errors import InvalidValue, NotFound
from storage.models import Campaign
from storage.validation import clean_name
from wire.conditions import Effect, Target, Timing, check_condition
from wire.i18n import N_
from wire.textcheck import normal_text

if TYPE_CHECKING:
    from storage.rules_needs import ConditionsNeeds as _Needs
else:
    _Needs = object


MAX_PRESETS = 25
"""Per campaign: what one autocomplete shows at once (Discord's 25)."""


def _preset(row: Sequence[Any]) -> Effect:
    return Effect(
        id=row[0],
        name=row[1],
        rounds_left=row[5],
        modifier=row[2],
        applies_to=Target(row[3]),
        stat=row[4],
        timing=Timing(row[6]),
    )


class RuleConditions(_Needs):
    """The condition-preset methods of `RuleStore`."""

    async def condition_presets(self, guild_id: int, campaign_id: int) -> list[Effect]:
        """The campaign's named conditions, by name."""
        where = {"guild_id": guild_id, "campaign_id": campaign_id}
        async with self._read() as tx:
            return [_preset(row) for row in await tx.fetch("condition_presets_of", where)]

    async def find_condition_preset(
        self, guild_id: int, campaign_id: int, name: str
    ) -> Effect | None:
        """The campaign's condition of that name (case-insensitive), or None."""
        where = {"guild_id": guild_id, "campaign_id": campaign_id, "name_key": _key(name)}
        async with self._read() as tx:
            rows = await tx.fetch("condition_preset_by_name", where)
        return _preset(rows[0]) if rows else None

    async def save_condition_preset(
        self, guild_id: int, campaign_id: int, actor_id: int, preset: Effect
    ) -> tuple[Effect, bool]:
        """Keep a named condition (one of the same name is replaced); GMs only. The preset as
        kept, and whether it replaced one. At most 25 a campaign."""
        name = clean_name(preset.name, "condition")
        if preset.timing is Timing.TURN or preset.hidden:
            raise InvalidValue("A named condition lasts rounds or until removed.")
        kept = check_condition(
            Effect(
                0,
                name,
                preset.rounds_left,
                preset.modifier,
                preset.applies_to,
                preset.stat,
                preset.timing,
            )
        )
        where = {"guild_id": guild_id, "campaign_id": campaign_id}
        async with self._write(guild_id) as tx:
            campaign: Campaign = await self._campaign_by_id(tx, guild_id, campaign_id)
            if not campaign.is_gm(actor_id):
                raise campaign.gm_only(N_("name the campaign's conditions"))
            old = await tx.fetch("condition_preset_by_name", {**where, "name_key": _key(name)})
            if not old:
                [(count,)] = await tx.fetch("condition_preset_count", where)
                if count >= MAX_PRESETS:
                    raise InvalidValue(
                        "A campaign keeps at most {most} named conditions. Delete one first "
                        "with /condition delete.",
                        most=MAX_PRESETS,
                    )
            await keep_preset(tx, guild_id, campaign_id, kept)
            [stored] = await tx.fetch("condition_preset_by_name", {**where, "name_key": _key(name)})
            return _preset(stored), bool(old)

    async def delete_condition_preset(
        self, guild_id: int, campaign_id: int, actor_id: int, name: str
    ) -> Effect:
        """Forget a named condition; GMs only. Conditions already put on stay as they are."""
        where = {"guild_id": guild_id, "campaign_id": campaign_id, "name_key": _key(name)}
        async with self._write(guild_id) as tx:
            campaign: Campaign = await self._campaign_by_id(tx, guild_id, campaign_id)
            if not campaign.is_gm(actor_id):
                raise campaign.gm_only(N_("name the campaign's conditions"))
            rows = await tx.fetch("condition_preset_by_name", where)
            if not rows:
                raise NotFound(
                    "This campaign has no named condition {name}. /condition list lists them.",
                    name=name,
                )
            await tx.execute("delete_condition_preset", {"preset_id": rows[0][0]})
            return _preset(rows[0])


def _key(name: str) -> str:
    return normal_text(name).casefold()


async def keep_preset(tx: Any, guild_id: int, campaign_id: int, preset: Effect) -> bool:
    """Write a checked named condition, replacing one of the same name; whether it did. The
    caller keeps to MAX_PRESETS (a save before it writes, an import after all its writes)."""
    where = {"guild_id": guild_id, "campaign_id": campaign_id, "name_key": _key(preset.name)}
    row = {
        "name": preset.name,
        "modifier": preset.modifier,
        "applies_to": preset.applies_to.value,
        "stat": preset.stat,
        "rounds": preset.rounds_left,
        "timing": preset.timing.value,
    }
    old = await tx.fetch("condition_preset_by_name", where)
    if old:
        await tx.execute("update_condition_preset", {**row, "preset_id": old[0][0]})
    else:
        await tx.execute(
            "insert_condition_preset",
            {**row, "campaign_id": campaign_id, "name_key": where["name_key"]},
        )
    return bool(old)


__all__ = ["MAX_PRESETS", "RuleConditions", "keep_preset"]
