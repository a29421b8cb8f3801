"""Import and export of sheets and campaigns: a part of `RuleStore` (storage/rules.py), kept in
its own module. The format and its validation are storage/transfer/; here is who may import
what, the clashes with sheets already there, and the writing, in turns.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections.abc import AsyncIterator, Collection, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from storage import offload
from storage.backend import Transaction
from storage.errors import NameTaken, PermissionDenied
from storage.models import Campaign, ImportClash, ImportOutcome, may_change
from storage.rows import character_from_row, json_text
from storage.transfer import ImportPlan, campaign_document, character_document, read_import
from storage.transfer.export import version4_parts
from storage.transfer.format import MAX_IMPORT_SESSIONS
from storage.transfer.rows import ImportRows, import_keys, import_portraits, import_rows
from storage.transfer.writing import (
    import_conditions,
    import_sessions,
    import_sheet_conditions,
)
from wire.i18n import N_
from wire.sessions import State
from wire.sheet import Character

if TYPE_CHECKING:
    from storage.rules_needs import SheetChange
    from storage.rules_needs import TransferNeeds as _Needs
else:
    _Needs = object


log = logging.getLogger("wire.storage")

IMPORT_REST_MAX = 1.0
"""Seconds at most between two imports' writes (see `RuleStore.import_data`)."""


def _clash(row: Sequence[Any]) -> ImportClash:
    """A row of import_clashes: (name_key, id, name, owner_id, is_npc)."""
    return ImportClash(str(row[2]), int(row[1]), int(row[3]), bool(row[4]))


def _may_replace(
    clash: ImportClash, actor_id: int, is_gm: bool, replace: bool, overwrite: frozenset[int]
) -> bool:
    """Whether a skipping import replaces this sheet: the actor's own, an NPC for a GM, and
    another player's only for a GM who confirmed its id (`overwrite`)."""
    mine = not clash.is_npc and clash.owner_id == actor_id
    return replace and (mine or (is_gm and (clash.is_npc or clash.character_id in overwrite)))


def _refuse_clashes(
    clashes: Sequence[Sequence[Any]], campaign: Campaign, actor_id: int, replace: bool
) -> None:
    """Any clash refuses the import unless `replace`; replacing a sheet is changing it, so the
    one rule of who may change what decides (`storage.models.may_change`)."""
    if clashes and not replace:
        names = ", ".join(repr(row[2]) for row in clashes[:10])
        raise NameTaken(
            "This campaign already has {names}. Rename them in the file, or import "
            "with replace to overwrite them.",
            names=names,
        )
    for row in clashes:
        if not may_change(campaign, actor_id, owner_id=row[3], is_npc=bool(row[4])):
            raise PermissionDenied(
                "{row} is not yours, so the import cannot replace it.", row=repr(row[2])
            )


def _becomes(new: Character) -> SheetChange:
    """The change to the sheet `new`: its attributes and skills, whatever they were."""
    return lambda _sheet: (new.attributes, new.skills)


class RuleTransfer(_Needs):
    """The import and export methods of `RuleStore`."""

    # The imports' turn-taking, set by RuleStore.__init__.
    _import_turn: asyncio.Lock
    _imports_rest_until: float

    async def export_character(
        self, guild_id: int, campaign_id: int, name: str, *, hidden: bool = False
    ) -> dict[str, Any]:
        """Versioned JSON-ready dict (see storage/transfer/format.py for the format).

        `hidden`: the sheet's hidden conditions too, for a file no one but a GM reads (the cog
        gives it for an NPC, which only GMs export); a player's export never holds them."""
        character = await self.get_character(guild_id, campaign_id, name)
        advancement, ledger = await self.advancement_for_export(guild_id, campaign_id)
        saved = await self.saved_rolls(guild_id, campaign_id, character.id)
        gear, _currency = await self.gear_for_export(guild_id, campaign_id)
        return character_document(
            character,
            None,
            advancement,
            ledger,
            saved=saved,
            gear=gear.get(character.id),
            hidden=hidden,
        )

    async def export_campaign(self, guild_id: int, campaign_id: int) -> dict[str, Any]:
        async with self._read() as tx:
            campaign = await self._campaign_by_id(tx, guild_id, campaign_id)
            rows = await tx.fetch(
                "characters_of_campaign", {"guild_id": guild_id, "campaign_id": campaign_id}
            )
            characters = [character_from_row(row) for row in rows]
            saved = await self._campaign_saved_rolls(tx, guild_id, campaign_id)
        advancement, ledger = await self.advancement_for_export(guild_id, campaign_id)
        gear, currency = await self.gear_for_export(guild_id, campaign_id)
        return campaign_document(
            campaign,
            characters,
            None,
            advancement,
            ledger,
            saved=saved,
            gear=gear,
            currency=currency,
            version4=await self._version4_for_export(guild_id, campaign_id),
        )

    async def _version4_for_export(self, guild_id: int, campaign_id: int) -> dict[str, Any]:
        """The campaign's named conditions, session settings and sessions (the newest
        MAX_IMPORT_SESSIONS, what an import takes), each session with its answers."""
        sessions = []
        for states in ((State.PLANNED, State.RUNNING), (State.ENDED, State.CANCELLED)):
            sessions += await self.sessions_in(guild_id, campaign_id, states, MAX_IMPORT_SESSIONS)
        sessions.sort(key=lambda s: (s.start, s.id), reverse=True)
        sessions = sessions[:MAX_IMPORT_SESSIONS]
        return version4_parts(
            await self.condition_presets(guild_id, campaign_id),
            sessions,
            {s.id: await self.session_answers(guild_id, s.id) for s in sessions},
            await self.session_settings(guild_id, campaign_id),
        )

    async def import_data(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        data: ImportPlan | dict[str, Any] | bytes | str,
        *,
        replace: bool = False,
        channel_id: int | None = None,
    ) -> list[Character]:
        """Import a character or campaign export into this campaign; the sheets as stored.

        `data` is the export (read and validated first, off the event loop, with
        `storage.transfer.read_import`), or the ImportPlan that function returned: the cog
        reads the file before it waits for the store, and a plan is taken as validated.
        ImportRejected lists the problems; a rejected import writes nothing. Imported player
        characters are owned by the actor; NPCs need a GM. Existing names: NameTaken unless
        `replace` (owner/GM rules still apply; a replaced sheet keeps its id and owner).

        The write is one transaction of a few statements whatever the import's size, and
        imports take turns, so a roll waits for one import's write at most. `channel_id`: where
        the import was made, the channel of the sessions it brings (None: none, 0).
        """
        plan = data if isinstance(data, ImportPlan) else await read_import(data)
        outcome = await self._import_turn_of(
            guild_id,
            campaign_id,
            actor_id,
            plan,
            replace=replace,
            skip=False,
            channel_id=channel_id,
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
        channel_id: int | None = None,
    ) -> ImportOutcome:
        """Import what does not clash, and say what was left out: an import as the bot and
        the CLI make it.

        A sheet whose name the campaign has already is left out (`ImportOutcome.left_out`)
        unless `replace` and the actor may replace it: their own sheet, an NPC for a GM, and
        another player's sheet only for a GM who names its id in `overwrite` (the confirmation
        that says whose sheets change). The rest is imported as `import_data` does.
        """
        plan = data if isinstance(data, ImportPlan) else await read_import(data)
        return await self._import_turn_of(
            guild_id,
            campaign_id,
            actor_id,
            plan,
            replace=replace,
            skip=True,
            overwrite=frozenset(overwrite),
            channel_id=channel_id,
        )

    async def import_clashes(
        self, guild_id: int, campaign_id: int, plan: ImportPlan
    ) -> list[ImportClash]:
        """The campaign's sheets the plan's names clash with (to ask before replacing)."""
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
            # After an import, the next one rests as long as that write took (`_import_write`):
            # imports then hold the store half the time at most, and the few statements of a
            # roll that waited for one write run in the pause instead of each waiting for another.
            rest = self._imports_rest_until - time.monotonic()
            if rest > 0:
                await asyncio.sleep(rest)
            return await self._import_plan(guild_id, campaign_id, actor_id, plan, **how)

    @asynccontextmanager
    async def _import_write(
        self, guild_id: int, campaign_id: int, sheets: int
    ) -> AsyncIterator[Transaction]:
        """The import's one write transaction, timed from the lock taken to the commit.

        What a roll waits for at worst while imports run is one such write: the host reads it in
        the log line, the next import rests as long, and tests/e2e/test_import_stall.py holds
        the rolls' wait against it."""
        started: float | None = None
        outcome = "rolled back"
        try:
            async with self._write(guild_id) as tx:
                started = time.monotonic()
                yield tx
            outcome = "committed"
        finally:
            if started is not None:
                held = time.monotonic() - started
                self._imports_rest_until = time.monotonic() + min(held, IMPORT_REST_MAX)
                log.info(
                    "Import into campaign %d (guild %d) %s (%d sheet(s) in the file): its write "
                    "transaction took %d ms.",
                    campaign_id,
                    guild_id,
                    outcome,
                    sheets,
                    round(held * 1000),
                )

    async def _hold_replaced(
        self,
        tx: Transaction,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        replaced: Sequence[ImportClash],
        sheets: Sequence[Character],
    ) -> None:
        """An import that replaces a sheet ready for play moves its priced stats only through
        the CP ledger, as an edit does (storage/rules_ledger.py's `_hold_sheet`)."""
        by_name = {sheet.name.casefold(): sheet for sheet in sheets}
        for clash in replaced:
            new = by_name.get(clash.name.casefold())
            if new is None or clash.is_npc:
                continue
            access = await self._access(tx, guild_id, campaign_id, actor_id, clash.character_id)
            await self._hold_sheet(tx, access, _becomes(new))

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
        channel_id: int | None = None,
    ) -> ImportOutcome:
        """`skip`: a clash the actor may not replace (or did not ask to) is left out and the
        rest imported; else any clash refuses the whole import unless `replace`. A GM replaces
        NPCs and their own sheets with `replace`, another player's only when its id is in
        `overwrite` (what the GM confirmed)."""
        keys = import_keys(plan.characters)
        expected: frozenset[str] = frozenset()
        if skip:
            expected = await self._left_out_before_write(
                guild_id, campaign_id, actor_id, keys, plan, replace, overwrite
            )
        sheets = _without(plan.characters, expected)
        # Before the lock, off the loop; nothing to make when every sheet is left out.
        rows = await offload.run(import_rows, sheets) if sheets else import_rows(sheets)
        left_out: list[ImportClash] = []
        async with self._import_write(guild_id, campaign_id, len(plan.characters)) as tx:
            campaign = await self._campaign_by_id(tx, guild_id, campaign_id)
            is_gm = campaign.is_gm(actor_id)
            _require_gm_where_needed(campaign, actor_id, plan)
            clashes = await _clashes(tx, campaign_id, keys, plan.characters)
            if skip:
                clashes, left_out = _left_out(clashes, actor_id, is_gm, replace, overwrite)
            gone = frozenset(clash.name.casefold() for clash in left_out)
            if gone != expected:
                # The campaign's names changed since the look: rare, and only then the rows
                # are made again under the write, waiting for the worker.
                sheets = _without(plan.characters, gone)
                rows = await offload.run(import_rows, sheets)
            _refuse_clashes(clashes, campaign, actor_id, replace)
            replaced = [_clash(row) for row in clashes]
            await self._hold_replaced(tx, guild_id, campaign_id, actor_id, replaced, sheets)
            await self._check_rooms(tx, campaign_id, sheets, {row[0] for row in clashes})
            if plan.kind == "campaign":  # the campaign's own, whatever its sheets
                await import_conditions(tx, guild_id, campaign_id, plan.conditions)
                await import_sessions(tx, campaign, actor_id, plan, channel_id or 0)
            if not sheets:
                return ImportOutcome([], left_out, [])
            written = await _write_sheets(tx, campaign_id, actor_id, rows, sheets, bool(clashes))
            stored = [written[sheet.name.casefold()] for sheet in sheets]
            await self._import_parts(tx, campaign, actor_id, plan, sheets, stored, written)
        # The sheets as stored: as validated, with their ids and owners (a replaced sheet
        # keeps its own, so active choices and projects stay with it).
        imported = [
            dataclasses.replace(sheet, id=cid, campaign_id=campaign_id, owner_id=owner)
            for sheet, (cid, owner) in zip(sheets, stored, strict=True)
        ]
        return ImportOutcome(imported, left_out, replaced)

    async def _left_out_before_write(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        keys: str,
        plan: ImportPlan,
        replace: bool,
        overwrite: frozenset[int],
    ) -> frozenset[str]:
        """The name keys a skipping import will leave out, as the campaign stands before its
        write: the rows of the rest are made then, in the worker process. Made under the write,
        they waited for the worker, which may be reading other imports for seconds, while every
        roll of every guild waited for the write. The write looks again."""
        async with self._read() as tx:
            campaign = await self._campaign_by_id(tx, guild_id, campaign_id)
            clashes = await _clashes(tx, campaign_id, keys, plan.characters)
        _kept, left_out = _left_out(clashes, actor_id, campaign.is_gm(actor_id), replace, overwrite)
        return frozenset(clash.name.casefold() for clash in left_out)

    async def _check_rooms(
        self, tx: Transaction, campaign_id: int, sheets: Sequence[Character], existing: set[str]
    ) -> None:
        """The campaign has room for the new player characters and the new NPCs."""
        for npcs in (False, True):
            new = [s for s in sheets if s.is_npc == npcs and s.name.casefold() not in existing]
            await self._check_room(tx, campaign_id, npcs, len(new))

    async def _import_parts(
        self,
        tx: Transaction,
        campaign: Any,
        actor_id: int,
        plan: ImportPlan,
        sheets: Sequence[Character],
        stored: Sequence[Sequence[int]],
        written: dict[str, Sequence[int]],
    ) -> None:
        """What the file brings beside the sheets, in the import's transaction: saved rolls,
        gear, conditions, the first sheet made active, character points and the campaign's
        settings."""
        await self._import_saved_rolls(tx, plan, sheets, stored)
        await self._import_gear(tx, campaign, actor_id, plan, sheets, stored)
        await import_sheet_conditions(tx, campaign, actor_id, plan, sheets, stored)
        if plan.kind == "character" and sheets and not sheets[0].is_npc:
            await self._activate_if_first(tx, campaign.id, actor_id, stored[0][0])
        if plan.advancement is not None:
            await self._import_advancement(tx, campaign, actor_id, plan, written)
        if plan.kind == "campaign" and plan.npc_take10 is not None:
            await tx.execute(
                "campaign_set_npc_take10",
                {
                    "campaign_id": campaign.id,
                    "guild_id": campaign.guild_id,
                    "value": int(plan.npc_take10),
                },
            )


def _require_gm_where_needed(campaign: Any, actor_id: int, plan: ImportPlan) -> None:
    """A whole campaign, NPCs and hidden conditions are a GM's to import (only a GM hides a
    condition, as /condition add says)."""
    if campaign.is_gm(actor_id):
        return
    if plan.kind == "campaign":
        raise campaign.gm_only(N_("import a whole campaign"))
    npcs = [sheet.name for sheet in plan.characters if sheet.is_npc]
    if npcs:
        raise campaign.gm_only(N_("import NPCs ({names})"), names=", ".join(npcs[:5]))
    hiding = [
        sheet.name
        for sheet in plan.characters
        if any(c.hidden for c in plan.conditions_of(sheet.name) or ())
    ]
    if hiding:
        raise campaign.gm_only(
            N_("import hidden conditions ({names})"), names=", ".join(hiding[:5])
        )


def _left_out(
    clashes: Sequence[Any],
    actor_id: int,
    is_gm: bool,
    replace: bool,
    overwrite: frozenset[int],
) -> tuple[list[Any], list[ImportClash]]:
    """A skipping import's clashes split: the rows it replaces, and the sheets it leaves out."""
    kept: list[Any] = []
    left_out: list[ImportClash] = []
    for row in clashes:
        if _may_replace(_clash(row), actor_id, is_gm, replace, overwrite):
            kept.append(row)
        else:
            left_out.append(_clash(row))
    return kept, left_out


def _without(sheets: tuple[Character, ...], gone: frozenset[str]) -> tuple[Character, ...]:
    return tuple(s for s in sheets if s.name.casefold() not in gone) if gone else sheets


async def _clashes(
    tx: Transaction, campaign_id: int, keys: str, sheets: Sequence[Character]
) -> list[Any]:
    """The campaign's sheets of the file's names (`keys`, `import_keys`), in the file's order."""
    [(found,)] = await tx.fetch("import_clashes", {"campaign_id": campaign_id, "keys": keys})
    order = {sheet.name.casefold(): i for i, sheet in enumerate(sheets)}
    return sorted(json.loads(found), key=lambda row: order.get(row[0], 0))


async def _write_sheets(
    tx: Transaction,
    campaign_id: int,
    actor_id: int,
    rows: ImportRows,
    sheets: Sequence[Character],
    replacing: bool,
) -> dict[str, Sequence[int]]:
    """The sheets written (a replaced one cleared first); each name key's (id, owner).

    A handful of statements whatever the size, each running in the database without the GIL:
    a statement per row (84,000 for a big import) held the lock for 0.5 s or more, one trip to
    the database each, while every other roll waited."""
    keys = {"campaign_id": campaign_id, "keys": rows.keys}
    if replacing:
        await tx.execute("import_clear_character_stats", keys)
        await tx.execute("import_clear_weapons", keys)
    await tx.execute(
        "import_characters",
        {"campaign_id": campaign_id, "owner_id": int(actor_id), "rows": rows.characters},
    )
    await tx.execute("import_stats", {"campaign_id": campaign_id, "rows": rows.stats})
    await tx.execute("import_weapons", {"campaign_id": campaign_id, "rows": rows.weapons})
    await import_portraits(tx, campaign_id, sheets, keys if replacing else None)
    [(found,)] = await tx.fetch("import_written", keys)
    return json.loads(found)
