"""Character points, the ledger: awards, a GM's corrections, undo, a sheet made ready for
play and held to the ledger after, and the CP part of export and import. A part of `RuleStore`
(storage/rules.py), kept in its own module.

The ledger is append-only: a correction is a negative award, an undo a new entry that reverses
one. Each operation is one transaction no other write of the guild interleaves with, so a
sheet change and its entry are committed together or not at all. Which priced stats a change
moves, and what they are worth, is `wire.pricing`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from storage.backend import Row, Transaction
from storage.errors import (
    Conflict,
    InvalidValue,
    LedgerHolds,
    NotFound,
)
from storage.models_advancement import (
    LEDGER_SHOWN,
    MAX_AWARD,
    MAX_EARNED,
    Advancement,
    Ledger,
    LedgerEntry,
    Totals,
)
from storage.rows import utc_text
from storage.rules_advancement import clean_reason
from storage.validation import STAT_COUNTS, check_kind, check_stat, clean_name
from wire.advancement_text import move_text
from wire.i18n import N_
from wire.pricing import StatMove, priced_moves, stat_on
from wire.sheet import Character

MAX_AWARDED_AT_ONCE = 60
"""Characters one award reaches (a campaign's active characters, a fight's)."""

if TYPE_CHECKING:
    from storage.models import Campaign
    from storage.rules_characters import _Access
    from storage.rules_needs import LedgerNeeds as _Needs
else:
    _Needs = object


def _entry(row: Row) -> LedgerEntry:
    return LedgerEntry(*row)


class RuleLedger(_Needs):
    """The CP ledger methods of `RuleStore`."""

    # ---- the ledger ------------------------------------------------------------------------
    async def _totals(self, tx: Transaction, campaign_id: int, character_id: int) -> Totals:
        where = {"campaign_id": campaign_id, "character_id": character_id}
        [(earned, spent)] = await tx.fetch("cp_totals", where)
        # An expired request holds nothing, whether or not a press has closed it yet.
        [(waiting,)] = await tx.fetch("cp_waiting_total", {**where, "now": utc_text()})
        return Totals(int(earned), int(spent), int(waiting))

    async def _add_entry(self, tx: Transaction, **values: Any) -> LedgerEntry:
        row = {
            "reason": "",
            "stat_kind": None,
            "stat_name": None,
            "level_before": None,
            "level_after": None,
            "undoes": None,
            **values,
        }
        statement = "cp_import_entry" if row.get("created_at") else "cp_insert_entry"
        if not row.get("created_at"):
            row.pop("created_at", None)
        [entry] = await tx.fetch(statement, row)
        return _entry(entry)

    async def award_cp(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        characters: Sequence[str | int],
        amount: int,
        reason: str = "",
    ) -> list[tuple[Character, Totals]]:
        """Award `amount` CP (negative: a correction) to each character; GMs only. All or none:
        a correction that would leave one below what it has spent refuses the whole award."""
        async with self._write(guild_id) as tx:
            awarded = await self._award(
                tx, guild_id, campaign_id, actor_id, characters, amount, reason
            )
        return [(sheet, totals) for sheet, totals, _entry in awarded]

    async def _award(
        self,
        tx: Transaction,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        characters: Sequence[str | int],
        amount: int,
        reason: str,
    ) -> list[tuple[Character, Totals, LedgerEntry]]:
        """`award_cp` inside the caller's transaction: the checks, then an entry each."""
        if amount == 0 or abs(amount) > MAX_AWARD:
            raise InvalidValue(
                "An award is 1 to {limit} CP (a correction -1 to -{limit}), not {amount}.",
                limit=MAX_AWARD,
                amount=amount,
            )
        if not characters:
            raise InvalidValue("Name at least one character to award CP to.")
        if len(characters) > MAX_AWARDED_AT_ONCE:
            raise InvalidValue(
                "One award reaches at most {limit} characters.", limit=MAX_AWARDED_AT_ONCE
            )
        reason = clean_reason(reason)
        done: list[tuple[Character, Totals, LedgerEntry]] = []
        await self._require_gm(tx, guild_id, campaign_id, actor_id, N_("award CP"))
        seen: set[int] = set()
        for name in characters:
            access = await self._access(tx, guild_id, campaign_id, actor_id, name)
            if access.id in seen:
                continue
            seen.add(access.id)
            totals = await self._totals(tx, campaign_id, access.id)
            if totals.earned + amount > MAX_EARNED:
                raise InvalidValue(
                    "{name} would have earned {total} CP, over the limit of {limit}.",
                    name=access.name,
                    total=totals.earned + amount,
                    limit=MAX_EARNED,
                )
            if totals.available + amount < 0:
                raise InvalidValue(
                    "{name} has {available} CP unspent; a correction of {amount} would "
                    "leave less than nothing. Undo a spend first.",
                    name=access.name,
                    available=totals.available,
                    amount=amount,
                )
            entry = await self._add_entry(
                tx,
                campaign_id=campaign_id,
                character_id=access.id,
                user_id=int(actor_id),
                kind="award",
                amount=amount,
                reason=reason,
            )
            sheet = await self._character_by_id(tx, guild_id, campaign_id, access.id)
            done.append((sheet, await self._totals(tx, campaign_id, access.id), entry))
        return done

    async def active_character_ids(self, guild_id: int, campaign_id: int) -> list[int]:
        """The campaign's player characters that someone has active."""
        async with self._read() as tx:
            await self._campaign_by_id(tx, guild_id, campaign_id)
            rows = await tx.fetch("cp_active_characters", {"campaign_id": campaign_id})
            return [row[0] for row in rows]

    async def cp_ledger(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str | int,
        page: int = 0,
    ) -> Ledger:
        """One page of a character's entries (0: the newest; past the last: the last) and its
        totals over all of them; an NPC's for GMs only."""
        async with self._read() as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            if access.is_npc and not access.actor_is_gm:
                raise access.campaign.gm_only(N_("see an NPC's CP"))
            where = {"campaign_id": campaign_id, "character_id": access.id}
            [(count,)] = await tx.fetch("cp_entry_count", where)
            page = min(max(0, page), max(0, (int(count) - 1) // LEDGER_SHOWN))
            rows = await tx.fetch(
                "cp_entries_page",
                {**where, "limit": LEDGER_SHOWN, "offset": page * LEDGER_SHOWN},
            )
            undone = frozenset(row[0] for row in await tx.fetch("cp_undone_ids", where))
            sheet = await self._character_by_id(tx, guild_id, campaign_id, access.id)
            return Ledger(
                sheet,
                tuple(_entry(r) for r in rows),
                await self._totals(tx, campaign_id, access.id),
                undone,
                page,
                int(count),
            )

    async def undo_last_cp(
        self, guild_id: int, campaign_id: int, actor_id: int, character: str | int
    ) -> tuple[LedgerEntry, Character, Totals]:
        """Reverse the character's last entry not yet undone (a spend lowers the stat again);
        GMs only. Returns the entry undone."""
        async with self._write(guild_id) as tx:
            await self._require_gm(tx, guild_id, campaign_id, actor_id, N_("undo CP entries"))
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            where = {"campaign_id": campaign_id, "character_id": access.id}
            rows = await tx.fetch("cp_last_open_entry", where)
            if not rows:
                raise NotFound("{name} has no CP entry left to undo.", name=access.name)
            last = _entry(rows[0])
            totals = await self._totals(tx, campaign_id, access.id)
            if last.kind in ("spend", "correct") and last.stat_name and last.stat_kind:
                sheet = await self._character_by_id(tx, guild_id, campaign_id, access.id)
                found = stat_on(sheet, last.stat_kind, last.stat_name)
                now = found[1] if found else None
                if now != last.level_after:
                    raise Conflict(
                        "{stat} is at {now}, not the {after} that entry paid for: change it "
                        "back first, or correct with an award.",
                        stat=last.stat_name,
                        now=now if now is not None else "-",
                        after=last.level_after,
                    )
                await tx.execute(
                    "cp_set_stat_value",
                    {
                        "value": last.level_before,
                        "character_id": access.id,
                        "kind": last.stat_kind,
                        "name_key": last.stat_name.casefold(),
                    },
                )
            elif totals.available - last.amount < 0:
                raise Conflict(
                    "{name} has spent those CP already: undo the spends first.", name=access.name
                )
            await self._add_entry(
                tx,
                **where,
                user_id=int(actor_id),
                kind="undo",
                amount=-last.amount,
                reason=last.reason,
                stat_kind=last.stat_kind,
                stat_name=last.stat_name,
                level_before=last.level_after,
                level_after=last.level_before,
                undoes=last.id,
            )
            sheet = await self._character_by_id(tx, guild_id, campaign_id, access.id)
            return last, sheet, await self._totals(tx, campaign_id, access.id)

    # ---- export and import -----------------------------------------------------------------
    async def advancement_for_export(
        self, guild_id: int, campaign_id: int
    ) -> tuple[Advancement, list[LedgerEntry]]:
        """The campaign's prices, and every entry of its ledger, oldest first."""
        async with self._read() as tx:
            await self._campaign_by_id(tx, guild_id, campaign_id)
            advancement = await self._advancement(tx, campaign_id)
            rows = await tx.fetch("cp_campaign_entries", {"campaign_id": campaign_id})
            return advancement, [_entry(r) for r in rows]

    async def _import_advancement(
        self,
        tx: Transaction,
        campaign: Campaign,
        actor_id: int,
        plan: Any,
        written: Mapping[str, Sequence[int]],
    ) -> None:
        """An import's CP part, in the import's transaction: a campaign file's prices (a GM's
        import), the categories of skills the campaign has none for, and the ledger (GMs only;
        onto characters without entries here, so nothing is counted twice)."""
        advancement = plan.advancement
        is_gm = campaign.is_gm(actor_id)
        if advancement.ledger and not is_gm:
            raise campaign.gm_only(N_("import a CP ledger"))
        whole = plan.kind == "campaign"
        if is_gm:
            await self._import_categories(tx, campaign.id, advancement, whole=whole)
        if whole:
            await self._import_settings(tx, campaign.id, advancement)
        if is_gm and advancement.species_costs:
            await self._import_species_costs(tx, campaign.id, advancement, whole=whole)
        ids: dict[str, int] = {name: row[0] for name, row in written.items()}
        for name, species in (advancement.character_species or {}).items():
            if name.casefold() in ids:
                await tx.execute(
                    "cp_set_sheet_species",
                    {"character_id": ids[name.casefold()], "name": species},
                )
        if advancement.ledger:
            await self._import_ledger(tx, campaign.id, actor_id, advancement.ledger, ids)

    async def _import_categories(
        self, tx: Transaction, campaign_id: int, advancement: Any, *, whole: bool
    ) -> None:
        """A GM's file's skill categories: all of a campaign file's, else only those of skills
        the campaign has none for (a character file does not reprice the table)."""
        if not advancement.categories:
            return
        now = await self._advancement(tx, campaign_id)
        for name, category in advancement.categories.items():
            if whole or now.category(name) is None:
                await tx.execute(
                    "cp_set_category",
                    {
                        "campaign_id": campaign_id,
                        "name_key": name.casefold(),
                        "name": name,
                        "category": category.value,
                    },
                )

    async def _import_settings(self, tx: Transaction, campaign_id: int, advancement: Any) -> None:
        """A campaign file's attribute price, starting budget and approval: those it has."""
        if not (
            advancement.has_attribute_price
            or advancement.has_starting_cp
            or advancement.approval is not None
        ):
            return
        now = await self._advancement(tx, campaign_id)
        await tx.execute(
            "cp_set_settings",
            {
                "campaign_id": campaign_id,
                "attribute_price": advancement.attribute_price
                if advancement.has_attribute_price
                else now.attribute_price.per_point,
                "starting_cp": advancement.starting_cp
                if advancement.has_starting_cp
                else now.starting_cp,
                "approval": int(
                    now.approval if advancement.approval is None else advancement.approval
                ),
            },
        )

    async def _import_species_costs(
        self, tx: Transaction, campaign_id: int, advancement: Any, *, whole: bool
    ) -> None:
        """A GM's file's species prices: all of a campaign file's, else only unpriced ones."""
        now = await self._advancement(tx, campaign_id)
        await self._write_species(
            tx,
            campaign_id,
            {
                name: cost
                for name, cost in advancement.species_costs.items()
                if whole or now.species_cost(name) is None
            },
        )

    async def _import_ledger(
        self,
        tx: Transaction,
        campaign_id: int,
        actor_id: int,
        ledger: Sequence[Any],
        ids: Mapping[str, int],
    ) -> None:
        """A file's ledger onto the characters it names (by name, to their ids here): refused
        for one that has entries here already, which would count twice. An undo points at
        its entry's new id."""
        where = {"campaign_id": campaign_id}
        for key in {entry.character.casefold() for entry in ledger}:
            rows = await tx.fetch("cp_entries", {**where, "character_id": ids[key], "limit": 1})
            if rows:
                raise Conflict(
                    "{name} already has CP entries in this campaign, so the file's ledger "
                    "would count twice. Import it under another name, or without its ledger.",
                    name=next(e.character for e in ledger if e.character.casefold() == key),
                )
        new_ids: list[int] = []
        for entry in ledger:
            row = await self._add_entry(
                tx,
                **where,
                character_id=ids[entry.character.casefold()],
                user_id=int(actor_id),
                kind=entry.kind,
                amount=entry.amount,
                reason=entry.reason,
                stat_kind=entry.stat_kind,
                stat_name=entry.stat_name,
                level_before=entry.level_before,
                level_after=entry.level_after,
                undoes=new_ids[entry.undoes] if entry.undoes is not None else None,
                created_at=entry.created_at,
            )
            new_ids.append(row.id)

    # ---- a ready sheet moves only through the ledger ---------------------------------------
    async def _is_ready(self, tx: Transaction, campaign_id: int, character_id: int) -> bool:
        where = {"campaign_id": campaign_id, "character_id": character_id}
        [(count,)] = await tx.fetch("cp_is_ready", where)
        return bool(count)

    async def _hold_sheet(
        self,
        tx: Transaction,
        access: _Access,
        change: Callable[[Character], tuple[Mapping[str, int], Mapping[str, int]]],
    ) -> None:
        """In a sheet change's transaction: a player character ready for play, in a campaign
        that uses CP, moves its priced stats only through the ledger. `change` gives the sheet's
        attributes and skills after the change; a priced stat it moves refuses the whole change
        (LedgerHolds), naming the command that does it: a player's improve, a GM's correct.
        NPCs, sheets still being built and campaigns without CP change freely."""
        if access.is_npc:
            return
        campaign = access.campaign
        advancement = await self._advancement(tx, campaign.id)
        if not advancement.holds_sheets or not await self._is_ready(tx, campaign.id, access.id):
            return
        sheet = await self._character_by_id(tx, campaign.guild_id, campaign.id, access.id)
        attributes, skills = change(sheet)
        moves = priced_moves(
            sheet, attributes, skills, advancement.categories, advancement.attribute_price
        )
        if not moves:
            return
        params = {"name": sheet.name, "moves": "; ".join(move_text(m) for m in moves)}
        raised = next((m for m in moves if m.raised), None)
        if access.actor_is_gm:
            first = moves[0]
            error = LedgerHolds(
                "{name} is ready for play, so a GM's change of its priced stats is an entry in "
                "the CP ledger, with a reason: {moves}. Make it with {command}.",
                command=f"/cp correct character:{sheet.name} skill:{first.name} "
                f"value:{first.after} reason:…"
                + (" attribute:true" if first.kind == "attribute" else ""),
                **params,
            )
        elif raised is not None:
            error = LedgerHolds(
                "{name} is ready for play, so its priced stats move only through the CP "
                "ledger: {moves}. Raise a stat with {command}; a GM lowers one with "
                "/cp correct, and CP come back only by a GM's award.",
                command=f"/character improve skill:{raised.name} to:{raised.after}"
                + (" attribute:true" if raised.kind == "attribute" else ""),
                **params,
            )
        else:
            error = LedgerHolds(
                "{name} is ready for play, so its priced stats move only through the CP "
                "ledger: {moves}. A GM lowers one with /cp correct, and CP come back only by "
                "a GM's award.",
                **params,
            )
        error.moves = moves
        raise error

    async def _note(
        self, tx: Transaction, whose: tuple[int, int, int], kind: str, **values: Any
    ) -> LedgerEntry:
        """An entry that moves no CP (a character ready for play, a GM's correction): `whose`
        is (campaign id, character id, the user who made it)."""
        campaign_id, character_id, user_id = whose
        return await self._add_entry(
            tx,
            campaign_id=campaign_id,
            character_id=character_id,
            user_id=int(user_id),
            kind=kind,
            amount=0,
            **values,
        )

    async def ready_for_play(
        self, guild_id: int, campaign_id: int, actor_id: int, character: str | int
    ) -> tuple[Character, Advancement, LedgerEntry]:
        """Say a character is ready for play: a 'ready' entry in its ledger, after which (in a
        campaign that uses CP) its priced stats move only through the ledger. A GM's word takes
        it as it is; its player's needs the sheet within the starting budget."""
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            if access.is_npc:
                raise InvalidValue(
                    "{name} is an NPC: the GMs' sheets change freely and are not played into "
                    "the CP ledger.",
                    name=access.name,
                )
            access.require_change(actor_id)
            if await self._is_ready(tx, campaign_id, access.id):
                raise Conflict(
                    "{name} is ready for play already. A GM's /cp undo of that entry makes "
                    "the sheet free to build again.",
                    name=access.name,
                )
            advancement = await self._advancement(tx, campaign_id)
            sheet = await self._character_by_id(tx, guild_id, campaign_id, access.id)
            worth = advancement.worth(sheet)
            over = worth.over(advancement.starting_cp)
            if over and not access.actor_is_gm:
                raise InvalidValue(
                    "{name} is worth {total} CP, {over} CP over the starting budget of {budget}: "
                    "lower the sheet first, or ask a GM, whose /cp ready takes it as it is.",
                    name=sheet.name,
                    total=worth.total,
                    over=over,
                    budget=advancement.starting_cp,
                )
            entry = await self._note(tx, (campaign_id, access.id, actor_id), "ready")
            return sheet, advancement, entry

    async def correct_stat(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str | int,
        kind: str,
        stat: str,
        value: int,
        reason: str,
    ) -> tuple[Character, LedgerEntry, StatMove | None]:
        """A GM's change of a stat as an entry of the ledger, with who and why: the stat is set
        and a 'correct' entry written in one transaction. It moves no CP (an award does); the
        move returned says what it is worth (None: the stat is not priced)."""
        check_kind(kind)
        stat = clean_name(stat, kind)
        check_stat(kind, stat, value)
        reason = clean_reason(reason)
        if not reason:
            raise InvalidValue(
                "Say why in reason: a GM's correction keeps its reason in the CP ledger."
            )
        async with self._write(guild_id) as tx:
            await self._require_gm(tx, guild_id, campaign_id, actor_id, N_("correct a sheet"))
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            sheet = await self._character_by_id(tx, guild_id, campaign_id, access.id)
            found = stat_on(sheet, kind, stat)
            name, before = found if found is not None else (stat, 0)
            if found is not None and before == value:
                raise InvalidValue("{stat} is at {value} already.", stat=name, value=value)
            if found is None:
                await require_stat_room(tx, sheet, kind, name)
            await self._write_stats(tx, sheet.id, kind, {name: value})
            entry = await self._note(
                tx,
                (campaign_id, sheet.id, actor_id),
                "correct",
                reason=reason,
                stat_kind=kind,
                stat_name=name,
                level_before=before,
                level_after=value,
            )
            advancement = await self._advancement(tx, campaign_id)
            after = await self._character_by_id(tx, guild_id, campaign_id, sheet.id)
            moves = priced_moves(
                sheet,
                after.attributes,
                after.skills,
                advancement.categories,
                advancement.attribute_price,
            )
            return after, entry, moves[0] if moves else None


async def require_stat_room(tx: Transaction, sheet: Character, kind: str, name: str) -> None:
    """A stat the sheet lacks may be added while the sheet is under its limit of that kind."""
    [(count, _exists)] = await tx.fetch(
        "stat_count", {"name_key": name.casefold(), "character_id": sheet.id, "kind": kind}
    )
    if count >= STAT_COUNTS[kind]:
        raise InvalidValue(
            "{name} already has {count} {kind}s, the limit. Remove one first.",
            name=sheet.name,
            count=count,
            kind=kind,
        )
