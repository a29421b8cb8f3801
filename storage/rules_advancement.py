"""Character points: a part of `RuleStore` (storage/rules.py), kept in its own module.

The same rules as the rest of the store: each operation is one transaction, and each write's
is one no other write of the guild interleaves with, so a spend and the sheet change it pays
for are committed together or not at all, and two improvements racing for the same CP cannot
both see it unspent (on SQLite and PostgreSQL alike: storage/backend.py's `write`). The ledger
is append-only: a correction is a negative award, an undo a new entry that reverses one.
The prices come from `wire.advancement`; nothing here decides a number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from storage.backend import Row, Transaction
from storage.errors import (
    Conflict,
    InvalidValue,
    LedgerHolds,
    NotFound,
    PermissionDenied,
    StorageError,
)
from storage.models import Shards
from storage.models_advancement import (
    LEDGER_SHOWN,
    MAX_AWARD,
    MAX_EARNED,
    MAX_SKILL_CATEGORIES,
    MAX_SPECIES,
    MAX_WAITING,
    REASON_MAX,
    REQUEST_DAYS,
    SPECIES_COST_MAX,
    Advancement,
    Improvement,
    Ledger,
    LedgerEntry,
    Quote,
    Request,
    Totals,
)
from storage.rows import utc_text
from storage.rules_common import sweep_query
from storage.validation import STAT_COUNTS, check_kind, check_stat, clean_name
from wire.advancement import ATTRIBUTE_PRICE_MAX, AttributePrice, Category
from wire.advancement_text import move_text
from wire.errors import RulesError
from wire.i18n import N_
from wire.pricing import StatMove, price_step, priced_moves
from wire.sheet import Character, find_stat
from wire.textcheck import normal_text, text_problem

KEEP: Any = object()
"""A setting left as it is (None means "clear it")."""
STARTING_CP_MAX = 100_000
REQUEST_LIFE = timedelta(days=REQUEST_DAYS)
MAX_AWARDED_AT_ONCE = 60
"""Characters one award reaches (a campaign's active characters, a fight's)."""


def _entry(row: Row) -> LedgerEntry:
    return LedgerEntry(*row)


def _request(row: Row) -> Request:
    return Request(*row)


def clean_reason(reason: str) -> str:
    problem = text_problem(reason, REASON_MAX, empty_ok=True)
    if problem:
        raise InvalidValue("The reason {problem}. {fix}", problem=problem, fix=problem.fix)
    return normal_text(reason)


class RuleAdvancement:
    """The CP methods of `RuleStore`."""

    # Provided by RuleStore.
    _write: Any
    _read: Any
    _campaign_by_id: Any
    _character_by_id: Any
    _access: Any
    _require_gm: Any
    _write_stats: Any

    # ---- settings -------------------------------------------------------------------------
    async def _advancement(self, tx: Transaction, campaign_id: int) -> Advancement:
        where = {"campaign_id": campaign_id}
        categories = {name: Category(c) for name, c in await tx.fetch("cp_categories", where)}
        species = {name: int(cost) for name, cost in await tx.fetch("cp_species", where)}
        sheets = {int(cid): name for cid, name in await tx.fetch("cp_sheet_species", where)}
        rows = await tx.fetch("cp_settings", where)
        price, starting, approval = rows[0] if rows else (None, None, 0)
        return Advancement(
            categories, AttributePrice(price), starting, bool(approval), species, sheets
        )

    async def get_advancement(self, guild_id: int, campaign_id: int) -> Advancement:
        async with self._read() as tx:
            await self._campaign_by_id(tx, guild_id, campaign_id)
            return await self._advancement(tx, campaign_id)

    async def set_skill_categories(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        changes: Mapping[str, Category | None],
        *,
        replace: bool = False,
    ) -> Advancement:
        """Give skills their categories (None: forget a skill's); `replace`: the whole list."""
        cleaned = {clean_name(name, "skill"): category for name, category in changes.items()}
        async with self._write(guild_id) as tx:
            await self._require_gm(
                tx, guild_id, campaign_id, actor_id, N_("set its skill categories")
            )
            return await self._write_categories(tx, campaign_id, cleaned, replace=replace)

    async def _write_categories(
        self,
        tx: Transaction,
        campaign_id: int,
        cleaned: Mapping[str, Category | None],
        *,
        replace: bool = False,
    ) -> Advancement:
        where = {"campaign_id": campaign_id}
        if replace:
            await tx.execute("cp_drop_categories", where)
        for name, category in cleaned.items():
            key = {**where, "name_key": name.casefold()}
            if category is None:
                await tx.execute("cp_drop_category", key)
            else:
                await tx.execute(
                    "cp_set_category", {**key, "name": name, "category": category.value}
                )
        [(count,)] = await tx.fetch("cp_category_count", where)
        if count > MAX_SKILL_CATEGORIES:
            raise InvalidValue(
                "A campaign can give at most {limit} skills a category; this would be "
                "{count}. Forget some first.",
                limit=MAX_SKILL_CATEGORIES,
                count=count,
            )
        return await self._advancement(tx, campaign_id)

    async def _sheet_categories(
        self,
        tx: Transaction,
        campaign: Any,
        actor_id: int,
        categories: Mapping[str, Category] | None,
    ) -> None:
        """The categories a sheet's text wrote ("Parry 3 (combat)"), in the sheet's transaction:
        a GM's become the campaign's; a player's must be the campaign's already (only GMs set
        prices), else nothing of the sheet is written."""
        if not categories:
            return
        if campaign.is_gm(actor_id):
            cleaned = {clean_name(name, "skill"): c for name, c in categories.items()}
            await self._write_categories(tx, campaign.id, cleaned)
            return
        known = await self._advancement(tx, campaign.id)
        for name, category in categories.items():
            now = known.category(name)
            if now is None:
                raise PermissionDenied(
                    "Only a GM gives a skill its category, and {skill} has none in this "
                    "campaign: write it without the brackets, or ask a GM (/cp categories).",
                    skill=name,
                )
            if now is not category:
                raise PermissionDenied(
                    "{skill} has the category {now} in this campaign, not {written}: only a GM "
                    "changes a category (/cp categories).",
                    skill=name,
                    now=now.label,
                    written=category.label,
                )

    async def set_species_costs(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        changes: Mapping[str, int | None],
    ) -> Advancement:
        """Price species in CP (None forgets one); GMs only. A table setting: none is assumed."""
        cleaned = {clean_name(name, "species"): cost for name, cost in changes.items()}
        for name, cost in cleaned.items():
            if cost is not None and not 0 <= cost <= SPECIES_COST_MAX:
                raise InvalidValue(
                    "A species costs 0 to {high} CP, not {value} ({name}).",
                    high=SPECIES_COST_MAX,
                    value=cost,
                    name=name,
                )
        async with self._write(guild_id) as tx:
            await self._require_gm(tx, guild_id, campaign_id, actor_id, N_("price species"))
            await self._write_species(tx, campaign_id, cleaned)
            return await self._advancement(tx, campaign_id)

    async def _write_species(
        self, tx: Transaction, campaign_id: int, cleaned: Mapping[str, int | None]
    ) -> None:
        where = {"campaign_id": campaign_id}
        for name, cost in cleaned.items():
            key = {**where, "name_key": name.casefold()}
            if cost is None:
                await tx.execute("cp_drop_species", key)
            else:
                await tx.execute("cp_set_species", {**key, "name": name, "cost": cost})
        [(count,)] = await tx.fetch("cp_species_count", where)
        if count > MAX_SPECIES:
            raise InvalidValue(
                "A campaign prices at most {limit} species; this would be {count}.",
                limit=MAX_SPECIES,
                count=count,
            )

    async def set_character_species(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str | int,
        species: str | None,
    ) -> tuple[Character, Advancement]:
        """Name a character's species (None: none); its player or a GM, as for its sheet. A
        species the table has not priced is kept and shown as not priced."""
        name = clean_name(species, "species") if species else None
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            access.require_change(actor_id)
            if name is None:
                await tx.execute("cp_drop_sheet_species", {"character_id": access.id})
            else:
                known = await self._advancement(tx, campaign_id)
                spelled = next((n for n in known.species if n.casefold() == name.casefold()), name)
                await tx.execute(
                    "cp_set_sheet_species", {"character_id": access.id, "name": spelled}
                )
            sheet = await self._character_by_id(tx, guild_id, campaign_id, access.id)
            return sheet, await self._advancement(tx, campaign_id)

    async def campaign_skill_names(
        self, guild_id: int, campaign_id: int, *, npcs: bool = False, limit: int = 200
    ) -> list[str]:
        """The skills the campaign's sheets have (the NPCs' too with `npcs`: GMs only), by
        name, one spelling each: what a GM gives categories to, offered by autocomplete."""
        async with self._read() as tx:
            await self._campaign_by_id(tx, guild_id, campaign_id)
            rows = await tx.fetch(
                "cp_campaign_skills",
                {"campaign_id": campaign_id, "npcs": int(npcs), "limit": int(limit)},
            )
            return [row[0] for row in rows]

    async def categories_shown(
        self, guild_id: int, campaign_id: int, actor_id: int
    ) -> dict[str, Category]:
        """The campaign's skill categories as `actor_id` may read them: all for a GM; for a
        player without the skills only NPC sheets have (a GM's NPC sheet text gives the
        campaign its categories, and the names would tell what the NPCs can do). A skill no
        sheet has yet stays in: the table's list of what may be learned."""
        async with self._read() as tx:
            campaign = await self._campaign_by_id(tx, guild_id, campaign_id)
            categories = (await self._advancement(tx, campaign_id)).categories
            if campaign.is_gm(actor_id):
                return dict(categories)
            rows = await tx.fetch("cp_npc_only_skills", {"campaign_id": campaign_id})
            hidden = {row[0] for row in rows}
            return {n: c for n, c in categories.items() if n.casefold() not in hidden}

    async def set_advancement(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        *,
        attribute_price: int | None = KEEP,
        starting_cp: int | None = KEEP,
        approval: bool | None = None,
    ) -> Advancement:
        """Change the table's settings; KEEP leaves one as it is, None clears it."""
        if isinstance(attribute_price, int) and not 0 <= attribute_price <= ATTRIBUTE_PRICE_MAX:
            raise InvalidValue(
                "An attribute point's price must be between 0 and {high} CP, not {value}.",
                high=ATTRIBUTE_PRICE_MAX,
                value=attribute_price,
            )
        if isinstance(starting_cp, int) and not 0 <= starting_cp <= STARTING_CP_MAX:
            raise InvalidValue(
                "A starting budget must be between 0 and {high} CP, not {value}.",
                high=STARTING_CP_MAX,
                value=starting_cp,
            )
        async with self._write(guild_id) as tx:
            await self._require_gm(
                tx, guild_id, campaign_id, actor_id, N_("change its advancement settings")
            )
            now = await self._advancement(tx, campaign_id)
            await tx.execute(
                "cp_set_settings",
                {
                    "campaign_id": campaign_id,
                    "attribute_price": now.attribute_price.per_point
                    if attribute_price is KEEP
                    else attribute_price,
                    "starting_cp": now.starting_cp if starting_cp is KEEP else starting_cp,
                    "approval": int(now.approval if approval is None else approval),
                },
            )
            return await self._advancement(tx, campaign_id)

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

    async def campaign_ledger(self, guild_id: int, campaign_id: int) -> list[LedgerEntry]:
        """Every entry of the campaign, oldest first (for its export)."""
        async with self._read() as tx:
            await self._campaign_by_id(tx, guild_id, campaign_id)
            rows = await tx.fetch("cp_campaign_entries", {"campaign_id": campaign_id})
            return [_entry(r) for r in rows]

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
                now = _stat(sheet, last.stat_kind, last.stat_name)
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
        async with self._read() as tx:
            await self._campaign_by_id(tx, guild_id, campaign_id)
            advancement = await self._advancement(tx, campaign_id)
            rows = await tx.fetch("cp_campaign_entries", {"campaign_id": campaign_id})
            return advancement, [_entry(r) for r in rows]

    async def _import_advancement(
        self,
        tx: Transaction,
        campaign: Any,
        actor_id: int,
        plan: Any,
        written: Mapping[str, Sequence[int]],
    ) -> None:
        """An import's CP part, in the import's transaction: a campaign file's prices (a GM's
        import), the categories of skills the campaign has none for, and the ledger (GMs only;
        onto characters without entries here, so nothing is counted twice)."""
        advancement = plan.advancement
        is_gm = campaign.is_gm(actor_id)
        where = {"campaign_id": campaign.id}
        if advancement.ledger and not is_gm:
            raise campaign.gm_only(N_("import a CP ledger"))
        if is_gm and advancement.categories:
            now = await self._advancement(tx, campaign.id)
            for name, category in advancement.categories.items():
                if plan.kind == "campaign" or now.category(name) is None:
                    await tx.execute(
                        "cp_set_category",
                        {
                            **where,
                            "name_key": name.casefold(),
                            "name": name,
                            "category": category.value,
                        },
                    )
        if plan.kind == "campaign" and (
            advancement.has_attribute_price
            or advancement.has_starting_cp
            or advancement.approval is not None
        ):
            now = await self._advancement(tx, campaign.id)
            await tx.execute(
                "cp_set_settings",
                {
                    **where,
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
        ids: dict[str, int] = {name: row[0] for name, row in written.items()}
        if is_gm and advancement.species_costs:
            now = await self._advancement(tx, campaign.id)
            await self._write_species(
                tx,
                campaign.id,
                {
                    name: cost
                    for name, cost in advancement.species_costs.items()
                    if plan.kind == "campaign" or now.species_cost(name) is None
                },
            )
        for name, species in (advancement.character_species or {}).items():
            if name.casefold() in ids:
                await tx.execute(
                    "cp_set_sheet_species",
                    {"character_id": ids[name.casefold()], "name": species},
                )
        if not advancement.ledger:
            return
        for key in {entry.character.casefold() for entry in advancement.ledger}:
            rows = await tx.fetch("cp_entries", {**where, "character_id": ids[key], "limit": 1})
            if rows:
                raise Conflict(
                    "{name} already has CP entries in this campaign, so the file's ledger "
                    "would count twice. Import it under another name, or without its ledger.",
                    name=next(
                        e.character for e in advancement.ledger if e.character.casefold() == key
                    ),
                )
        new_ids: list[int] = []
        for entry in advancement.ledger:
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
        access: Any,
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
            if not access.actor_is_gm and access.owner_id != actor_id:
                raise PermissionDenied(
                    N_("Only its player or a GM says a character is ready for play.")
                )
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
            table = sheet.skills if kind == "skill" else sheet.attributes
            found = find_stat(table, stat)
            name, before = found if found is not None else (stat, 0)
            if found is not None and before == value:
                raise InvalidValue("{stat} is at {value} already.", stat=name, value=value)
            if found is None:
                await _require_stat_room(tx, sheet, kind, name)
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

    # ---- spending --------------------------------------------------------------------------
    async def _quote(
        self,
        tx: Transaction,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str | int,
        kind: str,
        stat: str,
        to_level: int | None,
    ) -> tuple[Quote, bool]:
        check_kind(kind)
        stat = clean_name(stat, kind)
        access = await self._access(tx, guild_id, campaign_id, actor_id, character)
        if access.is_npc and not access.actor_is_gm:
            raise access.campaign.gm_only(N_("improve NPCs"))
        if not access.actor_is_gm and access.owner_id != actor_id:
            raise PermissionDenied(N_("You can only spend CP on your own characters."))
        sheet = await self._character_by_id(tx, guild_id, campaign_id, access.id)
        advancement = await self._advancement(tx, campaign_id)
        step = price_step(
            sheet, kind, stat, to_level, advancement.categories, advancement.attribute_price
        )
        name = step.name
        if step.new:
            await _require_stat_room(tx, sheet, kind, name)
        if advancement.approval and not access.actor_is_gm:
            await self._require_room_to_wait(tx, campaign_id, sheet, kind, name)
        totals = await self._totals(tx, campaign_id, sheet.id)
        quote = Quote(
            sheet,
            kind,
            name,
            step.before,
            step.after,
            step.cost,
            step.category,
            totals,
            advancement.approval,
        )
        return quote, access.actor_is_gm

    async def _require_room_to_wait(
        self, tx: Transaction, campaign_id: int, sheet: Character, kind: str, stat: str
    ) -> None:
        """Each request posts a message for the GMs: one waits per stat, and at most
        MAX_WAITING per character, so a player's CP cannot flood the GM channel."""
        rows = await tx.fetch(
            "cp_waiting_stats",
            {"campaign_id": campaign_id, "character_id": sheet.id, "now": utc_text()},
        )
        if any(k == kind and n.casefold() == stat.casefold() for k, n in rows):
            raise Conflict(
                "{name}'s {stat} already waits for a GM's decision: ask again once a GM has "
                "decided it (or after {days} days, when it closes).",
                name=sheet.name,
                stat=stat,
                days=REQUEST_DAYS,
            )
        if len(rows) >= MAX_WAITING:
            raise Conflict(
                "{name} has {limit} improvements waiting for a GM, the most at once: ask again "
                "once a GM has decided one.",
                name=sheet.name,
                limit=MAX_WAITING,
            )

    async def quote_improvement(
        self, guild_id: int, campaign_id: int, actor_id: int, *ask: Any, **options: Any
    ) -> Quote:
        """The price of raising `stat` by one level (or to `to_level`), before it is paid:
        `improve`'s own pricing, in a read transaction, paying nothing."""
        done = await self.improve(guild_id, campaign_id, actor_id, *ask, quote_only=True, **options)
        return done.quote

    async def improve(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str | int,
        stat: str,
        to_level: int | None = None,
        kind: str = "skill",
        *,
        expected_cost: int | None = None,
        expected_before: int | None = None,
        quote_only: bool = False,
        now: datetime | None = None,
        asked_in: tuple[int, str] | None = None,
    ) -> Improvement:
        """Spend CP and raise the stat in one transaction, or (with approval on, for a player)
        file a request that holds the CP until a GM decides. `expected_cost`: the price the
        user confirmed, from `expected_before`; a different one now (the sheet or the categories
        changed) refuses, saying the price is out of date and what the next step costs now.
        `quote_only`: only the price (`quote_improvement`), read without taking the write lock.
        A request expires REQUEST_DAYS after `now` (the bot's clock; default the real one);
        `asked_in`: the channel and language the player asked in, where the answer goes."""
        async with self._read() if quote_only else self._write(guild_id) as tx:
            ask = (tx, guild_id, campaign_id, actor_id, character, kind, stat)
            if expected_before is not None:
                await self._require_fresh(ask, expected_before)
            quote, gm = await self._quote(*ask, to_level)
            if quote_only:
                return Improvement(quote, quote.character)
            if expected_cost is not None and quote.cost != expected_cost:
                raise Conflict(
                    "The price changed to {cost} CP since it was shown; ask again.",
                    cost=quote.cost,
                )
            _require_affordable(quote)
            sheet_id = quote.character.id
            if quote.approval and not gm:
                [(request_id,)] = await tx.fetch(
                    "cp_insert_request",
                    {
                        "campaign_id": campaign_id,
                        "character_id": sheet_id,
                        "user_id": int(actor_id),
                        "stat_kind": kind,
                        "stat_name": quote.stat_name,
                        "level_before": quote.before,
                        "level_after": quote.after,
                        "cost": quote.cost,
                        "expires_at": utc_text((now or datetime.now(UTC)) + REQUEST_LIFE),
                        "asked_channel_id": int(asked_in[0]) if asked_in else None,
                        "asked_language": asked_in[1] if asked_in else None,
                    },
                )
                return Improvement(quote, quote.character, request_id=request_id)
            entry = await self._spend(tx, campaign_id, actor_id, quote)
            sheet = await self._character_by_id(tx, guild_id, campaign_id, sheet_id)
            return Improvement(quote, sheet, entry=entry)

    async def _require_fresh(self, ask: tuple[Any, ...], expected_before: int) -> None:
        """A Spend pressed after the stat moved (another Spend, a GM's correction): the price
        it showed is out of date; say so, with what the next step costs now."""
        tx, guild_id, campaign_id, actor, character, kind, stat = ask
        access = await self._access(tx, guild_id, campaign_id, actor, character)
        sheet = await self._character_by_id(tx, guild_id, campaign_id, access.id)
        found = find_stat(sheet.skills if kind == "skill" else sheet.attributes, stat)
        level = found[1] if found else 0
        if level == expected_before:
            return
        try:
            fresh, _gm = await self._quote(*ask, None)
        except (RulesError, StorageError) as exc:
            raise Conflict(
                "That price is out of date: {stat} is at {level} now. {problem}",
                stat=found[0] if found else stat,
                level=level,
                problem=str(exc),
            ) from None
        raise Conflict(
            "That price is out of date: {stat} is at {level} now, and {level} → {after} costs "
            "{cost} CP. Ask again with /character improve.",
            stat=fresh.stat_name,
            level=fresh.before,
            after=fresh.after,
            cost=fresh.cost,
        )

    async def _spend(
        self, tx: Transaction, campaign_id: int, actor_id: int, quote: Quote
    ) -> LedgerEntry:
        await self._write_stats(
            tx, quote.character.id, quote.stat_kind, {quote.stat_name: quote.after}
        )
        return await self._add_entry(
            tx,
            campaign_id=campaign_id,
            character_id=quote.character.id,
            user_id=int(actor_id),
            kind="spend",
            amount=-quote.cost,
            stat_kind=quote.stat_kind,
            stat_name=quote.stat_name,
            level_before=quote.before,
            level_after=quote.after,
        )

    async def get_cp_request(self, guild_id: int, request_id: int) -> Request | None:
        async with self._read() as tx:
            rows = await tx.fetch("cp_request", {"request_id": request_id, "guild_id": guild_id})
            return _request(rows[0]) if rows else None

    async def cp_request_posted(
        self, guild_id: int, request_id: int, channel_id: int, message_id: int, language: str
    ) -> None:
        """Note where a request's message for the GMs went, and its language (for the sweep)."""
        async with self._write(guild_id) as tx:
            await tx.execute(
                "cp_request_posted",
                {
                    "request_id": request_id,
                    "guild_id": guild_id,
                    "channel_id": int(channel_id),
                    "message_id": int(message_id),
                    "language": language,
                },
            )

    async def expired_cp_requests(
        self, now: datetime, limit: int = 50, shards: Shards | None = None
    ) -> list[tuple[int, Request]]:
        """Waiting requests past their expiry whose message is known, across guilds, oldest
        first, each with its guild's id (for the expiry sweep); with `shards`, only in the
        guilds of those shards (a process sweeps its own)."""
        if limit <= 0:
            return []
        rows = await self.backend.query(*sweep_query("expired_cp_requests", now, limit, shards))
        return [(int(row[0]), _request(row[1:])) for row in rows]

    async def sweep_cp_request(self, guild_id: int, request_id: int, now: datetime) -> bool:
        """Close a waiting request past its expiry (nothing spent); False when a press decided
        or closed it first, so its message is edited once."""
        async with self._write(guild_id) as tx:
            rows = await tx.fetch(
                "cp_sweep_request",
                {"request_id": request_id, "guild_id": guild_id, "now": utc_text(now)},
            )
            return bool(rows)

    async def decide_cp_request(
        self,
        guild_id: int,
        request_id: int,
        actor_id: int,
        approve: bool,
        *,
        now: datetime | None = None,
    ) -> tuple[Request, Improvement | None]:
        """Approve (spend and raise, if the sheet and the CP still allow it) or refuse a
        waiting improvement; GMs only, and once. One past its expiry is closed instead (state
        expired, nothing spent), whichever button was pressed."""
        async with self._write(guild_id) as tx:
            rows = await tx.fetch("cp_request", {"request_id": request_id, "guild_id": guild_id})
            if not rows:
                raise NotFound("That improvement request is gone.")
            request = _request(rows[0])
            await self._require_gm(
                tx, guild_id, request.campaign_id, actor_id, N_("decide improvements")
            )
            if request.expired(utc_text(now)):
                await tx.execute("cp_expire_request", {"request_id": request_id})
                rows = await tx.fetch(
                    "cp_request", {"request_id": request_id, "guild_id": guild_id}
                )
                return _request(rows[0]), None
            if request.state != "waiting":
                raise Conflict("That improvement was {state} already.", state=request.state)
            improvement = None
            if approve:
                # Priced again now: the sheet, categories or CP may have moved meanwhile.
                await tx.execute(
                    "cp_decide_request",
                    {"state": "approved", "user_id": int(actor_id), "request_id": request_id},
                )
                quote, _gm = await self._quote(
                    tx,
                    guild_id,
                    request.campaign_id,
                    actor_id,
                    request.character_id,
                    request.stat_kind,
                    request.stat_name,
                    request.level_after,
                )
                if quote.before != request.level_before:
                    raise Conflict(
                        "{stat} is at {now} now, not {before}: refuse this one and ask again.",
                        stat=request.stat_name,
                        now=quote.before,
                        before=request.level_before,
                    )
                _require_affordable(quote)
                entry = await self._spend(tx, request.campaign_id, request.user_id, quote)
                sheet = await self._character_by_id(
                    tx, guild_id, request.campaign_id, request.character_id
                )
                improvement = Improvement(quote, sheet, entry=entry)
            else:
                await tx.execute(
                    "cp_decide_request",
                    {"state": "refused", "user_id": int(actor_id), "request_id": request_id},
                )
            rows = await tx.fetch("cp_request", {"request_id": request_id, "guild_id": guild_id})
            return _request(rows[0]), improvement


async def _require_stat_room(tx: Transaction, sheet: Character, kind: str, name: str) -> None:
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


def _require_affordable(quote: Quote) -> None:
    if not quote.affordable:
        raise InvalidValue(
            "{stat} {before} -> {after} costs {cost} CP; {name} has {available} CP to spend, "
            "{missing} CP short.",
            stat=quote.stat_name,
            before=quote.before,
            after=quote.after,
            cost=quote.cost,
            name=quote.character.name,
            available=quote.totals.available,
            missing=quote.missing,
        )


def _stat(sheet: Character, kind: str, name: str) -> int | None:
    stats = sheet.skills if kind == "skill" else sheet.attributes
    wanted = name.casefold()
    return next((v for k, v in stats.items() if k.casefold() == wanted), None)


def _stat_name(sheet: Character, kind: str, name: str) -> str | None:
    stats = sheet.skills if kind == "skill" else sheet.attributes
    wanted = name.casefold()
    return next((k for k in stats if k.casefold() == wanted), None)
