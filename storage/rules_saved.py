"""Saved rolls: a part of `RuleStore` (storage/rules.py), kept in its own module.

A saved roll is a character's roll under a short name: the command and the options it was made
with (as the roll log keeps them for Roll again), never its die or its numbers from the sheet,
so rolling it again reads the sheet as it is then. Who may save, rename or delete one is who
may change the character (its player, a GM for an NPC), checked inside the write transaction;
the limit per character is counted there too. Every query is scoped to guild and campaign.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from storage.errors import InvalidValue, NameTaken, NotFound
from storage.rows import json_text
from storage.transfer import ImportPlan
from storage.validation import clean_name
from wire.textcheck import normal_text

if TYPE_CHECKING:
    from storage.rules_needs import SavedNeeds as _Needs
else:
    _Needs = object


MAX_SAVED_ROLLS = 25
"""Per character: the most a select menu or an autocomplete shows at once (Discord's 25)."""


@dataclass(frozen=True, slots=True)
class SavedRoll:
    id: int
    character_id: int
    name: str
    command: dict[str, Any]
    """{"name": "check", "options": {"attr_name": "Dexterity", ...}}: what /r runs again."""
    label: str


@dataclass(frozen=True, slots=True)
class SavedChange:
    """What a save did: the roll as stored, and whether it replaced one of the same name."""

    saved: SavedRoll
    replaced: bool


def _saved(row: Sequence[Any]) -> SavedRoll:
    command = json.loads(row[3]) if isinstance(row[3], str) else row[3]
    return SavedRoll(row[0], row[1], row[2], command, row[4])


def _key(name: str) -> str:
    return normal_text(name).casefold()


class RuleSaved(_Needs):
    """The saved-roll methods of `RuleStore`."""

    async def saved_rolls(
        self, guild_id: int, campaign_id: int, character_id: int
    ) -> list[SavedRoll]:
        where = {"guild_id": guild_id, "campaign_id": campaign_id, "character_id": character_id}
        async with self._read() as tx:
            return [_saved(row) for row in await tx.fetch("saved_rolls_of", where)]

    async def get_saved_roll(
        self, guild_id: int, campaign_id: int, saved_id: int
    ) -> SavedRoll | None:
        where = {"guild_id": guild_id, "campaign_id": campaign_id, "saved_id": saved_id}
        async with self._read() as tx:
            rows = await tx.fetch("saved_roll_by_id", where)
        return _saved(rows[0]) if rows else None

    async def find_saved_roll(
        self, guild_id: int, campaign_id: int, character_id: int, name: str
    ) -> SavedRoll:
        async with self._read() as tx:
            return await self._by_name(tx, guild_id, campaign_id, character_id, name)

    async def _by_name(
        self, tx: Any, guild_id: int, campaign_id: int, character_id: int, name: str
    ) -> SavedRoll:
        where = {
            "guild_id": guild_id,
            "campaign_id": campaign_id,
            "character_id": character_id,
            "name_key": _key(name) if isinstance(name, str) else "",
        }
        rows = await tx.fetch("saved_roll_by_name", where)
        if not rows:
            raise NotFound(
                "No saved roll named {name}. /save lists the saved rolls of your character.",
                name=repr(name),
            )
        return _saved(rows[0])

    async def save_roll(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character_id: int,
        name: str,
        command: dict[str, Any],
        label: str = "",
        *,
        replace: bool = True,
    ) -> SavedChange:
        """Save (or, under a name already used, replace) a roll of the character; with
        `replace` False a name already used is refused instead (the Save button's form, where
        the name is typed fresh and a clash is more likely a slip than a wish)."""
        name = clean_name(name, "saved roll")
        text = json_text(command, "saved roll")
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character_id)
            access.require_change(actor_id)
            where = {
                "guild_id": guild_id,
                "campaign_id": campaign_id,
                "character_id": character_id,
                "name_key": _key(name),
            }
            found = await tx.fetch("saved_roll_by_name", where)
            if found and not replace:
                raise NameTaken(
                    "{name} already has a saved roll named {value}. Press Save again and pick "
                    "another name, or replace that roll with /save name:{value}.",
                    name=access.name,
                    value=name,
                )
            if found:
                saved_id = found[0][0]
                await tx.execute(
                    "update_saved", {"saved_id": saved_id, "command": text, "label": label}
                )
            else:
                [(count,)] = await tx.fetch("saved_count", {"character_id": character_id})
                if count >= MAX_SAVED_ROLLS:
                    raise InvalidValue(
                        "{name} has {count} saved rolls, the most a character keeps. Delete one "
                        "with /save name:<roll> delete:True, or save under a name it already "
                        "has to replace that roll.",
                        name=access.name,
                        count=count,
                    )
                [(saved_id,)] = await tx.fetch(
                    "insert_saved",
                    {**where, "name": name, "command": text, "label": label},
                )
            return SavedChange(SavedRoll(saved_id, character_id, name, command, label), bool(found))

    async def rename_saved_roll(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character_id: int,
        name: str,
        new_name: str,
    ) -> SavedRoll:
        new_name = clean_name(new_name, "saved roll")
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character_id)
            access.require_change(actor_id)
            saved = await self._by_name(tx, guild_id, campaign_id, character_id, name)
            if _key(new_name) != _key(saved.name):
                where = {
                    "guild_id": guild_id,
                    "campaign_id": campaign_id,
                    "character_id": character_id,
                    "name_key": _key(new_name),
                }
                if await tx.fetch("saved_roll_by_name", where):
                    raise NameTaken(
                        "{name} already has a saved roll named {value}.",
                        name=access.name,
                        value=new_name,
                    )
            await tx.execute(
                "rename_saved",
                {"saved_id": saved.id, "name": new_name, "name_key": _key(new_name)},
            )
            return SavedRoll(saved.id, character_id, new_name, saved.command, saved.label)

    async def delete_saved_roll(
        self, guild_id: int, campaign_id: int, actor_id: int, character_id: int, name: str
    ) -> SavedRoll:
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character_id)
            access.require_change(actor_id)
            saved = await self._by_name(tx, guild_id, campaign_id, character_id, name)
            await tx.execute("delete_saved", {"saved_id": saved.id})
            return saved

    async def _campaign_saved_rolls(
        self, tx: Any, guild_id: int, campaign_id: int
    ) -> dict[int, list[SavedRoll]]:
        """Every saved roll of the campaign, by character id: for an export."""
        found: dict[int, list[SavedRoll]] = {}
        where = {"guild_id": guild_id, "campaign_id": campaign_id}
        for row in await tx.fetch("saved_rolls_of_campaign", where):
            saved = _saved(row)
            found.setdefault(saved.character_id, []).append(saved)
        return found

    async def _import_saved_rolls(
        self, tx: Any, plan: ImportPlan, sheets: Sequence[Any], stored: Sequence[Any]
    ) -> None:
        """In an import's transaction: the sheets whose entries list saved rolls get those, in
        place of their own; the others (and every file from before saved rolls) keep theirs."""
        for sheet, (character_id, _owner) in zip(sheets, stored, strict=True):
            rolls = plan.saved_of(sheet.name)
            if rolls is None:
                continue
            await tx.execute("delete_saved_of_character", {"character_id": character_id})
            for roll in rolls[:MAX_SAVED_ROLLS]:
                await tx.execute(
                    "insert_saved",
                    {
                        "character_id": character_id,
                        "name": roll.name,
                        "name_key": _key(roll.name),
                        "command": json_text(roll.command, "saved roll"),
                        "label": roll.label,
                    },
                )
