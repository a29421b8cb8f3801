"""Counters: a part of `RuleStore` (storage/rules.py), beside storage/rules_gear.py.

A counter (arrows 12/20, luck 1/3) is always between 0 and its maximum (the table's CHECK says
so too); each change is compare-and-set from the value it was read at, in the guild's write
transaction, so two spends of the last arrow at once: one spends it, the other is refused. A
counter fills up again on a GM's word, at a fight's end (inside /fight end's transaction) or a
session's, as it says. One counter may be a weapon's ammunition: an attack spends one, refused
at 0; a defence never spends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from storage import gear_checks as check
from storage.backend import Transaction
from storage.errors import Conflict, InvalidValue, NotFound
from storage.rules_common import name_key
from storage.validation import clean_name
from wire.gear import MAX_COUNTERS, Counter, Reset
from wire.i18n import N_

if TYPE_CHECKING:
    from storage.rules_needs import CountersNeeds as _Needs
else:
    _Needs = object


class RuleCounters(_Needs):
    """The counter methods of `RuleStore`."""

    async def _counters(
        self, tx: Transaction, campaign_id: int, character_id: int
    ) -> list[Counter]:
        where = {"campaign_id": campaign_id, "character_id": character_id}
        return [check.counter_of(row) for row in await tx.fetch("counters_of", where)]

    async def _counter_named(
        self, tx: Transaction, campaign_id: int, access: Any, name: str
    ) -> Counter:
        missing = NotFound(
            "{name} has no counter {counter}. /counter add makes one.",
            name=access.name,
            counter=name,
        )
        return check.counter_of(
            await check.named_row(tx, "counter_by_name", campaign_id, access, name, missing)
        )

    async def add_counter(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str | int,
        name: str,
        maximum: int,
        value: int | None = None,
        reset: Reset = Reset.GM,
        weapon: str | None = None,
    ) -> Counter:
        """A new counter (full unless `value`), or a new shape for the one of that name; a
        `weapon` of the sheet makes it that weapon's ammunition (one counter a weapon)."""
        name = clean_name(name, "counter")
        check.maximum(maximum)
        start = check.counter_value(maximum if value is None else value, maximum)
        async with self._write(guild_id) as tx:
            access = await self._gear_access(tx, guild_id, campaign_id, actor_id, character)
            weapon_key = None
            if weapon:
                weapon_key = await self._weapon_key(tx, guild_id, campaign_id, access, weapon)
                await self._clear_ammunition(tx, campaign_id, access, weapon_key, name)
            values = {
                "value": start,
                "maximum": maximum,
                "reset_on": Reset(reset).value,
                "weapon_key": weapon_key,
            }
            key = name_key(name)
            where = {"campaign_id": campaign_id, "character_id": access.id, "name_key": key}
            rows = await tx.fetch("counter_by_name", where)
            if rows:
                await tx.execute("counter_update", {**values, "counter_id": int(rows[0][4])})
            else:
                [(count,)] = await tx.fetch("counter_count", {"character_id": access.id})
                if count >= MAX_COUNTERS:
                    raise InvalidValue(
                        "{name} has {count} counters, the most a character keeps: remove one "
                        "first.",
                        name=access.name,
                        count=count,
                    )
                new = {**values, "character_id": access.id, "name": name, "name_key": key}
                await tx.execute("counter_insert", new)
            return await self._counter_named(tx, campaign_id, access, name)

    async def _weapon_key(
        self, tx: Transaction, guild_id: int, campaign_id: int, access: Any, weapon: str
    ) -> str:
        sheet = await self._character_by_id(tx, guild_id, campaign_id, access.id)
        found = sheet.weapon(weapon)
        if found is None:
            raise NotFound(
                "{name} has no weapon {weapon}: name one of the sheet's weapons.",
                name=access.name,
                weapon=weapon,
            )
        return found.name.casefold()

    async def _clear_ammunition(
        self, tx: Transaction, campaign_id: int, access: Any, weapon_key: str, keep: str
    ) -> None:
        """One counter a weapon: another that fed it stops."""
        where = {"campaign_id": campaign_id, "character_id": access.id, "weapon_key": weapon_key}
        for row in await tx.fetch("counter_for_weapon", where):
            old = check.counter_of(row)
            if name_key(old.name) != name_key(keep):
                values = {"value": old.value, "maximum": old.maximum, "reset_on": old.reset.value}
                await tx.execute(
                    "counter_update", {**values, "counter_id": old.id, "weapon_key": None}
                )

    async def change_counter(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str | int,
        name: str,
        *,
        spend: int = 0,
        value: int | None = None,
        expected: int | None = None,
    ) -> tuple[Counter, Counter]:
        """Spend `spend` (refused past 0; a negative spend gives back, never past the maximum)
        or set the value; (before, after). `expected`: act only if the counter still shows
        that value (a button's press), else Conflict."""
        async with self._write(guild_id) as tx:
            access = await self._gear_access(tx, guild_id, campaign_id, actor_id, character)
            before = await self._counter_named(tx, campaign_id, access, name)
            if expected is not None and before.value != expected:
                raise Conflict(
                    "{counter} is at {value} now, not {expected}: nothing changed.",
                    counter=before.name,
                    value=before.value,
                    expected=expected,
                )
            if value is None:
                if spend > before.value:
                    raise InvalidValue(
                        "{name} is at {value}: there is not {count} to spend.",
                        name=before.name,
                        value=before.value,
                        count=spend,
                    )
                value = min(before.maximum, before.value - spend)
            after = await self._set_counter(tx, before, check.counter_value(value, before.maximum))
            return before, after

    async def _set_counter(self, tx: Transaction, before: Counter, value: int) -> Counter:
        where = {"counter_id": before.id, "value": value, "expected": before.value}
        if await tx.execute("counter_set", where) != 1:
            raise Conflict("{counter} changed meanwhile: nothing changed.", counter=before.name)
        return Counter(before.name, value, before.maximum, before.reset, before.id)

    async def remove_counter(
        self, guild_id: int, campaign_id: int, actor_id: int, character: str | int, name: str
    ) -> Counter:
        async with self._write(guild_id) as tx:
            access = await self._gear_access(tx, guild_id, campaign_id, actor_id, character)
            counter = await self._counter_named(tx, campaign_id, access, name)
            await tx.execute("counter_delete", {"counter_id": counter.id})
            return counter

    async def reset_counters(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str | int | None = None,
        name: str | None = None,
    ) -> int:
        """A GM's word: fill a character's counters (or the one named); without a character,
        the session's end: every counter of the campaign that fills then. How many filled."""
        async with self._write(guild_id) as tx:
            await self._require_gm(tx, guild_id, campaign_id, actor_id, N_("reset counters"))
            if character is None:
                where = {"campaign_id": campaign_id}
                return await tx.execute("counters_reset_after_session", where)
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            counters = (
                [await self._counter_named(tx, campaign_id, access, name)]
                if name
                else await self._counters(tx, campaign_id, access.id)
            )
            for counter in counters:
                await self._set_counter(tx, counter, counter.maximum)
            return len(counters)

    async def _reset_after_fight(self, tx: Transaction, fight_id: int) -> None:
        """In /fight end's transaction: the fighters' counters that fill at a fight's end."""
        await tx.execute("counters_reset_after_fight", {"fight_id": fight_id})

    async def _ammunition(
        self, tx: Transaction, campaign_id: int, character_id: int, weapon: str
    ) -> Counter | None:
        where = {
            "campaign_id": campaign_id,
            "character_id": character_id,
            "weapon_key": weapon.casefold(),
        }
        rows = await tx.fetch("counter_for_weapon", where)
        return check.counter_of(rows[0]) if rows else None

    async def ammunition(
        self, guild_id: int, campaign_id: int, character_id: int, weapon: str
    ) -> Counter | None:
        """The weapon's ammunition counter, or None."""
        async with self._read() as tx:
            await self._campaign_by_id(tx, guild_id, campaign_id)
            return await self._ammunition(tx, campaign_id, character_id, weapon)

    async def spend_ammunition(
        self, guild_id: int, campaign_id: int, character_id: int, weapon: str
    ) -> tuple[Counter, Counter] | None:
        """One shot of the weapon's ammunition for an attack (the attack checks who may
        attack); refused at 0 saying so; None for a weapon without ammunition."""
        async with self._write(guild_id) as tx:
            await self._campaign_by_id(tx, guild_id, campaign_id)
            counter = await self._loaded_ammunition(tx, campaign_id, character_id, weapon)
            return None if counter is None else await self._spend_shot(tx, counter)

    async def _loaded_ammunition(
        self, tx: Transaction, campaign_id: int, character_id: int, weapon: str
    ) -> Counter | None:
        """The weapon's ammunition counter (None: it has none), refused at 0 before anything
        is rolled or counted: an attack in a fight checks it before its turn is taken."""
        counter = await self._ammunition(tx, campaign_id, character_id, weapon)
        if counter is not None and counter.value <= 0:
            raise InvalidValue(
                "{weapon} has no {counter} left (0/{maximum}): nothing was rolled. Refill "
                "it (/counter set) or attack with another weapon.",
                weapon=weapon,
                counter=counter.name,
                maximum=counter.maximum,
            )
        return counter

    async def _spend_shot(self, tx: Transaction, counter: Counter) -> tuple[Counter, Counter]:
        """One shot off a counter `_loaded_ammunition` gave: (before, after)."""
        return counter, await self._set_counter(tx, counter, counter.value - 1)

    # ---- export --------------------------------------------------------------------------
    async def _campaign_counters(
        self, tx: Transaction, campaign_id: int
    ) -> dict[int, list[Counter]]:
        found: dict[int, list[Counter]] = {}
        for row in await tx.fetch("counters_of_campaign", {"campaign_id": campaign_id}):
            found.setdefault(int(row[0]), []).append(check.counter_of(row[1:]))
        return found
