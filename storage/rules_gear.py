"""Gear: a part of `RuleStore` (storage/rules.py), kept in its own module with its two
siblings, storage/rules_purse.py (money) and storage/rules_counters.py (what runs out).

Each operation is one write transaction of the guild (storage/backend.py), so a give's two sides
are written together or not at all; and each change that must act once is compare-and-set on
top: an item's quantity changes only from the quantity it was read at. Two gives of the last
arrow at once: one finds it, the other finds none and says so.

Who may: GMs see and change any character's gear; a player their own character's; an NPC's is
the GMs'. Player-to-player gives wait for the receiver's Accept unless the campaign lets gifts
land at once. The numbers (load, coins) are the rules core's (wire/gear.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from storage import gear_checks as check
from storage.backend import Transaction
from storage.errors import Conflict, InvalidValue, NotFound, PermissionDenied
from storage.models import may_change
from storage.models_gear import MAX_WAITING_GIFTS, NOTE_MAX, Gear, GearSettings, Gift, GiveOutcome
from storage.rows import json_text
from storage.rules_common import name_key
from storage.transfer.gear import currency_data, gear_data
from storage.validation import clean_name
from wire.gear import MAX_AMOUNT, MAX_ITEMS, MAX_QUANTITY, Counter, Currency, Item, Load, load_of
from wire.i18n import N_
from wire.sheet import Character

if TYPE_CHECKING:
    from storage.rules_needs import GearNeeds as _Needs
else:
    _Needs = object


KEEP: Any = object()
"""A setting left as it is."""


class RuleGear(_Needs):
    """The gear methods of `RuleStore`: settings, items, gives."""

    # ---- who may -------------------------------------------------------------------------
    async def _gear_access(
        self, tx: Transaction, guild_id: int, campaign_id: int, actor_id: int, character: Any
    ) -> Any:
        """The character if `actor_id` may see and change its gear: a GM any, a player their
        own; an NPC's gear is the GMs'."""
        access = await self._access(tx, guild_id, campaign_id, actor_id, character)
        if may_change(access.campaign, actor_id, owner_id=access.owner_id, is_npc=access.is_npc):
            return access
        if access.is_npc:
            raise access.campaign.gm_only(
                N_("see or change {name}'s gear, an NPC"), name=access.name
            )
        raise PermissionDenied(
            "Only {name}'s player or a GM can see or change {name}'s gear.", name=access.name
        )

    # ---- settings ------------------------------------------------------------------------
    async def _gear_settings(self, tx: Transaction, campaign_id: int) -> GearSettings:
        rows = await tx.fetch("gear_settings_of", {"campaign_id": campaign_id})
        return check.settings_of(rows[0] if rows else None)

    async def gear_settings(self, guild_id: int, campaign_id: int) -> GearSettings:
        async with self._read() as tx:
            await self._campaign_by_id(tx, guild_id, campaign_id)
            return await self._gear_settings(tx, campaign_id)

    async def set_gear_settings(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        *,
        currency: Currency | None = KEEP,
        gifts_at_once: bool | None = None,
    ) -> GearSettings:
        """The campaign's currency (None: back to one coin) and whether gifts land at once;
        GMs only. Purses hold the smallest coin, so a new currency reads them in its own."""
        async with self._write(guild_id) as tx:
            await self._require_gm(
                tx, guild_id, campaign_id, actor_id, N_("change its currency and gift settings")
            )
            now = await self._gear_settings(tx, campaign_id)
            money = now.currency if currency is KEEP else (currency or Currency())
            at_once = now.gifts_at_once if gifts_at_once is None else gifts_at_once
            await self._write_gear_settings(tx, campaign_id, GearSettings(money, at_once))
            return GearSettings(money, at_once)

    async def _write_gear_settings(
        self, tx: Transaction, campaign_id: int, settings: GearSettings
    ) -> None:
        await tx.execute(
            "gear_set_settings",
            {
                "campaign_id": campaign_id,
                "coins": json_text(list(settings.currency.names), "currency"),
                "rates": json_text(list(settings.currency.rates), "currency"),
                "gifts_at_once": int(settings.gifts_at_once),
            },
        )

    # ---- reading -------------------------------------------------------------------------
    async def _items(self, tx: Transaction, campaign_id: int, character_id: int) -> list[Item]:
        where = {"campaign_id": campaign_id, "character_id": character_id}
        return [check.item_of(row) for row in await tx.fetch("gear_items_of", where)]

    async def _gear(self, tx: Transaction, guild_id: int, campaign_id: int, cid: int) -> Gear:
        sheet = await self._character_by_id(tx, guild_id, campaign_id, cid)
        items = await self._items(tx, campaign_id, cid)
        counters: list[Counter] = await self._counters(tx, campaign_id, cid)
        return Gear(
            sheet,
            tuple(items),
            tuple(counters),
            await self._purse(tx, campaign_id, cid),
            await self._gear_settings(tx, campaign_id),
            load_of(sheet.attributes, items),
        )

    async def gear(
        self, guild_id: int, campaign_id: int, actor_id: int, character: str | int
    ) -> Gear:
        """The character's items, counters, purse and load, for whoever may see them."""
        async with self._read() as tx:
            access = await self._gear_access(tx, guild_id, campaign_id, actor_id, character)
            return await self._gear(tx, guild_id, campaign_id, access.id)

    async def sheet_load(self, guild_id: int, campaign_id: int, character_id: int) -> Load | None:
        """The carried load against the maximum for the sheet's embed, None without items
        (the sheet's reader is checked by the sheet's own command)."""
        async with self._read() as tx:
            sheet = await self._character_by_id(tx, guild_id, campaign_id, character_id)
            items = await self._items(tx, campaign_id, character_id)
            return load_of(sheet.attributes, items) if items else None

    # ---- items ---------------------------------------------------------------------------
    async def _item_named(self, tx: Transaction, campaign_id: int, access: Any, name: str) -> Item:
        missing = NotFound(
            "{name} carries no {item}. /gear list shows what they have.",
            name=access.name,
            item=name,
        )
        return check.item_of(
            await check.named_row(tx, "gear_item_by_name", campaign_id, access, name, missing)
        )

    async def _add_item(
        self,
        tx: Transaction,
        campaign_id: int,
        access: Any,
        item: Item,
        *,
        given: tuple[bool, bool] = (False, False),
    ) -> Item:
        """Add to the character's item of that name (its weight and place kept where
        not `given`: (weight, place) as given, a note when given), or a new item; the limits
        checked."""
        key = name_key(item.name)
        where = {"campaign_id": campaign_id, "character_id": access.id, "name_key": key}
        rows = await tx.fetch("gear_item_by_name", where)
        if rows:
            have = check.item_of(rows[0])
            return await self._add_to(tx, campaign_id, access, have, item, given)
        [(count,)] = await tx.fetch("gear_item_count", {"character_id": access.id})
        if count >= MAX_ITEMS:
            raise InvalidValue(
                "{name} has {count} different items, the most a character keeps: remove some "
                'first, or note small things together ("odds and ends").',
                name=access.name,
                count=count,
            )
        await tx.execute(
            "gear_insert_item",
            {
                "character_id": access.id,
                "name": item.name,
                "name_key": key,
                "quantity": item.quantity,
                "grams": item.grams,
                "note": item.note,
                "carried": int(item.carried),
            },
        )
        return await self._item_named(tx, campaign_id, access, item.name)

    async def _add_to(
        self,
        tx: Transaction,
        campaign_id: int,
        access: Any,
        have: Item,
        item: Item,
        given: tuple[bool, bool],
    ) -> Item:
        total = have.quantity + item.quantity
        if total > MAX_QUANTITY:
            raise InvalidValue(
                "{name} would have {count} of {item}, over the limit of {limit}.",
                name=access.name,
                count=total,
                item=have.name,
                limit=MAX_QUANTITY,
            )
        where = {"item_id": have.id, "quantity": total, "expected": have.quantity}
        if await tx.execute("gear_set_quantity", where) != 1:
            raise Conflict("{item} changed meanwhile: look again and retry.", item=have.name)
        weight, place = given
        await tx.execute(
            "gear_update_item",
            {
                "item_id": have.id,
                "grams": item.grams if weight else have.grams,
                "note": item.note or have.note,
                "carried": int(item.carried if place else have.carried),
            },
        )
        return await self._item_named(tx, campaign_id, access, have.name)

    async def add_item(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str | int,
        name: str,
        quantity: int = 1,
        grams: int | None = None,
        note: str = "",
        carried: bool | None = None,
    ) -> tuple[Item, Gear]:
        """Add `quantity` of an item: to one of the same name, its weight, note and place are
        the ones given, the ones it had where none is (None: a new item weighs 0, carried)."""
        item = Item(
            clean_name(name, "item"),
            check.quantity(quantity),
            check.grams(grams or 0),
            check.clean_text(note, NOTE_MAX, check.NOTE_PROBLEM),
            carried is not False,
        )
        given = (grams is not None, carried is not None)
        async with self._write(guild_id) as tx:
            access = await self._gear_access(tx, guild_id, campaign_id, actor_id, character)
            stored = await self._add_item(tx, campaign_id, access, item, given=given)
            return stored, await self._gear(tx, guild_id, campaign_id, access.id)

    async def _take_item(
        self, tx: Transaction, campaign_id: int, access: Any, name: str, quantity: int | None
    ) -> Item:
        """Take `quantity` (None: all) of the item off the character; refused when it has
        fewer. The item as it was, with the quantity taken."""
        have = await self._item_named(tx, campaign_id, access, name)
        taken = have.quantity if quantity is None else check.quantity(quantity)
        if taken > have.quantity:
            raise InvalidValue(
                "{name} has {count} of {item}, not {wanted}.",
                name=access.name,
                count=have.quantity,
                item=have.name,
                wanted=taken,
            )
        left = have.quantity - taken
        statement = "gear_delete_item" if left == 0 else "gear_set_quantity"
        where = {"item_id": have.id, "quantity": left, "expected": have.quantity}
        if await tx.execute(statement, where) != 1:
            raise Conflict("{item} changed meanwhile: look again and retry.", item=have.name)
        return Item(have.name, taken, have.grams, have.note, have.carried, have.id)

    async def remove_item(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str | int,
        name: str,
        quantity: int | None = None,
    ) -> tuple[Item, Gear]:
        """Remove `quantity` of an item (None: all of it); using one is removing one."""
        async with self._write(guild_id) as tx:
            access = await self._gear_access(tx, guild_id, campaign_id, actor_id, character)
            taken = await self._take_item(tx, campaign_id, access, name, quantity)
            return taken, await self._gear(tx, guild_id, campaign_id, access.id)

    async def replace_items(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str | int,
        items: Sequence[Item],
    ) -> Gear:
        """The character's items as a whole (the gear's Edit form), in one transaction: all
        of them checked first, so a bad one changes nothing."""
        if len(items) > MAX_ITEMS:
            raise InvalidValue(
                "A character keeps at most {limit} different items.", limit=MAX_ITEMS
            )
        clean = [
            Item(
                clean_name(item.name, "item"),
                check.quantity(item.quantity),
                check.grams(item.grams),
                check.clean_text(item.note, NOTE_MAX, check.NOTE_PROBLEM),
                item.carried,
            )
            for item in items
        ]
        if len({name_key(item.name) for item in clean}) != len(clean):
            raise InvalidValue("Each item is listed once; add the quantities up.")
        async with self._write(guild_id) as tx:
            access = await self._gear_access(tx, guild_id, campaign_id, actor_id, character)
            where = {"character_id": access.id}
            await tx.execute("gear_delete_items_of", where)
            for item in clean:
                await tx.execute("gear_insert_item", {**where, **_item_row(item)})
            return await self._gear(tx, guild_id, campaign_id, access.id)

    # ---- gives ---------------------------------------------------------------------------
    async def give(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        giver: str | int,
        receiver: str | int,
        *,
        item: str | None = None,
        quantity: int = 1,
        amount: int = 0,
        press_id: int | None = None,
    ) -> GiveOutcome:
        """Give an item (`quantity` of it) or money (`amount`) to another character of the
        campaign. Both sides in one transaction when it lands at once: a GM's give, one between
        a player's own characters, one to an NPC, or any when the campaign lets gifts land at
        once; else a gift waits for the receiver's player to accept (nothing moves yet, but the
        giver must have it now)."""
        if (item is None) == (amount == 0):
            raise InvalidValue("Give either an item or an amount of money, one of them.")
        if item is not None:
            check.quantity(quantity)
        else:
            check.amount(amount)
        async with self._write(guild_id) as tx:
            source = await self._gear_access(tx, guild_id, campaign_id, actor_id, giver)
            target = await self._access(tx, guild_id, campaign_id, actor_id, receiver)
            if target.id == source.id:
                raise InvalidValue("{name} cannot give to themselves.", name=source.name)
            settings = await self._gear_settings(tx, campaign_id)
            at_once = (
                source.actor_is_gm
                or settings.gifts_at_once
                or target.is_npc
                or target.owner_id == source.owner_id
            )
            gift = None
            if at_once:
                await self._hand_over(
                    tx, campaign_id, actor_id, source, target, (item, quantity, amount), press_id
                )
            else:
                gift = await self._offer(
                    tx, campaign_id, actor_id, source, target, item, quantity, amount
                )
            return GiveOutcome(
                await self._character_by_id(tx, guild_id, campaign_id, source.id),
                await self._character_by_id(tx, guild_id, campaign_id, target.id),
                gift,
                0 if target.is_npc else target.owner_id,
            )

    async def _hand_over(
        self,
        tx: Transaction,
        campaign_id: int,
        actor_id: int,
        source: Any,
        target: Any,
        what: tuple[str | None, int, int],
        press_id: int | None,
    ) -> None:
        """Both sides of a give: an item off one and onto the other, or money by two entries
        sharing the giver's entry id."""
        item, quantity, amount = what
        if item is not None:
            taken = await self._take_item(tx, campaign_id, source, item, quantity)
            await self._add_item(tx, campaign_id, target, taken)
            return
        out = await self._move_purse(
            tx, campaign_id, actor_id, source, "give", -amount, "", press_id=press_id
        )
        await tx.execute("purse_link_transfer", {"transfer_id": out.id, "entry_id": out.id})
        await self._move_purse(
            tx, campaign_id, actor_id, target, "give", amount, "", transfer_id=out.id
        )

    async def _offer(
        self,
        tx: Transaction,
        campaign_id: int,
        actor_id: int,
        source: Any,
        target: Any,
        item: str | None,
        quantity: int,
        amount: int,
    ) -> Gift:
        [(waiting,)] = await tx.fetch("gifts_waiting_count", {"giver_id": source.id})
        if waiting >= MAX_WAITING_GIFTS:
            raise InvalidValue(
                "{name} has {count} gifts waiting to be accepted, the most at once: wait for "
                "an answer first.",
                name=source.name,
                count=waiting,
            )
        if item is not None:
            have = await self._item_named(tx, campaign_id, source, item)
            if have.quantity < quantity:
                raise InvalidValue(
                    "{name} has {count} of {item}, not {wanted}.",
                    name=source.name,
                    count=have.quantity,
                    item=have.name,
                    wanted=quantity,
                )
            item = have.name
        elif (await self._purse(tx, campaign_id, source.id)).balance < amount:
            raise InvalidValue("{name} has not that much money.", name=source.name)
        [(gift_id,)] = await tx.fetch(
            "gift_insert",
            {
                "campaign_id": campaign_id,
                "giver_id": source.id,
                "receiver_id": target.id,
                "user_id": int(actor_id),
                "item_name": item,
                "quantity": quantity if item is not None else 0,
                "amount": amount,
            },
        )
        rows = await tx.fetch("gift_by_id", {"campaign_id": campaign_id, "gift_id": gift_id})
        return check.gift_of(rows[0])

    async def get_gift(self, guild_id: int, campaign_id: int, gift_id: int) -> Gift | None:
        async with self._read() as tx:
            await self._campaign_by_id(tx, guild_id, campaign_id)
            rows = await tx.fetch("gift_by_id", {"campaign_id": campaign_id, "gift_id": gift_id})
            return check.gift_of(rows[0]) if rows else None

    async def answer_gift(
        self, guild_id: int, campaign_id: int, actor_id: int, gift_id: int, accept: bool
    ) -> tuple[Gift, str]:
        """The receiver's player accepts (the give happens now, both sides at once) or refuses;
        the giver's player may take a waiting gift back. Acts once: a second press finds it
        answered. The gift and its state now: "accepted", "refused", or "failed" (the giver
        no longer has it, or the receiver has no room: nothing moved)."""
        async with self._write(guild_id) as tx:
            rows = await tx.fetch("gift_by_id", {"campaign_id": campaign_id, "gift_id": gift_id})
            if not rows:
                raise NotFound("That gift no longer exists.")
            gift = check.gift_of(rows[0])
            if gift.state != "waiting":
                raise Conflict("That gift was answered already: nothing changed.")
            source = await self._access(tx, guild_id, campaign_id, actor_id, gift.giver_id)
            target = await self._access(tx, guild_id, campaign_id, actor_id, gift.receiver_id)
            receiver_may = actor_id == target.owner_id and not target.is_npc
            giver_may = actor_id == source.owner_id and not accept
            if not (receiver_may or giver_may):
                raise PermissionDenied(
                    "Only {name}'s player can answer this gift.", name=target.name
                )
            state = "accepted" if accept else "refused"
            if accept:
                state = await self._accept(tx, campaign_id, gift, source, target)
            if await tx.execute("gift_decide", {"gift_id": gift.id, "state": state}) != 1:
                raise Conflict("That gift was answered already: nothing changed.")
            return gift, state

    async def _accept(
        self, tx: Transaction, campaign_id: int, gift: Gift, source: Any, target: Any
    ) -> str:
        """Hand the gift over if both sides still allow it, else "failed" with nothing
        written: checked before the first write, so no half of a give is ever kept."""
        if not await self._can_hand_over(tx, campaign_id, gift, source, target):
            return "failed"
        what = (gift.item_name, gift.quantity, gift.amount)
        await self._hand_over(tx, campaign_id, gift.user_id, source, target, what, None)
        return "accepted"

    async def _can_hand_over(
        self, tx: Transaction, campaign_id: int, gift: Gift, source: Any, target: Any
    ) -> bool:
        """Whether the giver still has the gift and the receiver has room for it."""
        if gift.item_name is None:
            have = (await self._purse(tx, campaign_id, source.id)).balance
            room = MAX_AMOUNT - (await self._purse(tx, campaign_id, target.id)).balance
            return have >= gift.amount and room >= gift.amount
        items = await self._items(tx, campaign_id, source.id)
        held = {i.name.casefold(): i.quantity for i in items}
        if held.get(gift.item_name.casefold(), 0) < gift.quantity:
            return False
        theirs = {
            i.name.casefold(): i.quantity for i in await self._items(tx, campaign_id, target.id)
        }
        already = theirs.get(gift.item_name.casefold())
        if already is None:
            return len(theirs) < MAX_ITEMS
        return already + gift.quantity <= MAX_QUANTITY

    # ---- export and import ---------------------------------------------------------------
    async def gear_for_export(
        self, guild_id: int, campaign_id: int
    ) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
        """Each character's "gear" by its id, and the campaign's "currency" (both {} where
        there is none), as storage/transfer/gear.py writes them."""
        where = {"campaign_id": campaign_id}
        async with self._read() as tx:
            await self._campaign_by_id(tx, guild_id, campaign_id)
            items: dict[int, list[Item]] = {}
            for row in await tx.fetch("gear_items_of_campaign", where):
                items.setdefault(int(row[0]), []).append(check.item_of(row[1:]))
            counters: dict[int, list[tuple[Counter, str | None]]] = {}
            for row in await tx.fetch("counters_of_campaign", where):
                counters.setdefault(int(row[0]), []).append((check.counter_of(row[1:]), row[6]))
            purses = await self._campaign_purses(tx, campaign_id)
            settings = await self._gear_settings(tx, campaign_id)
        ids = set(items) | set(counters) | set(purses)
        gear = {
            cid: gear_data(items.get(cid, ()), counters.get(cid, ()), purses.get(cid))
            for cid in ids
        }
        return gear, currency_data(settings)

    async def _import_gear(
        self,
        tx: Transaction,
        campaign: Any,
        actor_id: int,
        plan: Any,
        sheets: Sequence[Character],
        stored: Sequence[Sequence[int]],
    ) -> None:
        """An import's gear, in its transaction: a GM's campaign file sets the currency; each
        sheet whose entry has gear gets the file's items and counters in place of its own, and
        the file's purse, but never over a purse the bot changed since the export (refused,
        saying so: nothing of the import is written)."""
        if plan.currency is not None and campaign.is_gm(actor_id):
            await self._write_gear_settings(tx, campaign.id, plan.currency)
        changed: list[str] = []
        for sheet, (character_id, _owner) in zip(sheets, stored, strict=True):
            gear = plan.gear_of(sheet.name)
            if gear is None:
                continue
            where = {"character_id": character_id}
            if gear.items is not None:
                await tx.execute("gear_delete_items_of", where)
                for item in gear.items:
                    await tx.execute("gear_insert_item", {**where, **_item_row(item)})
            if gear.counters is not None:
                await tx.execute("counters_delete_of", where)
                for counter, weapon in gear.counters:
                    await tx.execute("counter_insert", {**where, **_counter_row(counter, weapon)})
            if gear.purse is not None:
                now = await self._purse(tx, campaign.id, character_id)
                if gear.purse.balance != now.balance and not campaign.is_gm(actor_id):
                    raise campaign.gm_only(N_("import money into a purse"))
                if now.revision > gear.purse.revision:
                    changed.append(sheet.name)
                    continue
                await self._import_purse(tx, campaign.id, actor_id, character_id, now, gear.purse)
        if changed:
            raise Conflict(
                "The bot changed the purse of {names} after this file was exported: the import "
                'would undo that, so nothing was imported. Export again, or take "purse" out '
                "of those sheets' gear in the file to keep the bot's.",
                names=", ".join(changed[:10]),
            )

    async def _import_purse(
        self, tx: Transaction, campaign_id: int, actor_id: int, cid: int, now: Any, new: Any
    ) -> None:
        """The file's purse, its revision kept (so a later change shows), and one ledger entry
        for the difference, so the ledger still sums to the balance."""
        await tx.execute("purse_ensure", {"character_id": cid})
        await tx.execute(
            "purse_set",
            {"character_id": cid, "balance": new.balance, "revision": new.revision},
        )
        if new.balance != now.balance:
            await tx.fetch(
                "purse_insert_entry",
                {
                    "campaign_id": campaign_id,
                    "character_id": cid,
                    "user_id": int(actor_id),
                    "kind": "import",
                    "amount": new.balance - now.balance,
                    "reason": "",
                    "transfer_id": None,
                    "undoes": None,
                    "press_id": None,
                },
            )


def _item_row(item: Item) -> dict[str, Any]:
    return {
        "name": item.name,
        "name_key": name_key(item.name),
        "quantity": item.quantity,
        "grams": item.grams,
        "note": item.note,
        "carried": int(item.carried),
    }


def _counter_row(counter: Counter, weapon: str | None) -> dict[str, Any]:
    return {
        "name": counter.name,
        "name_key": name_key(counter.name),
        "value": counter.value,
        "maximum": counter.maximum,
        "reset_on": counter.reset.value,
        "weapon_key": weapon,
    }
