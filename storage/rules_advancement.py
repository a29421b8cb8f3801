"""Character points, the table's settings: skill categories, species prices, the attribute
price, the starting budget and approval. A part of `RuleStore` (storage/rules.py), kept in its
own module beside the ledger (storage/rules_ledger.py) and spending (storage/rules_spending.py).

The same rules as the rest of the store: each operation is one transaction, and each write's
is one no other write of the guild interleaves with (on SQLite and PostgreSQL alike:
storage/backend.py's `write`). The prices come from `wire.advancement` and `wire.pricing`;
nothing here decides a number.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from storage.backend import Transaction
from storage.errors import (
    InvalidValue,
    PermissionDenied,
)
from storage.models_advancement import (
    MAX_SKILL_CATEGORIES,
    MAX_SPECIES,
    REASON_MAX,
    REQUEST_DAYS,
    SPECIES_COST_MAX,
    Advancement,
)
from storage.validation import clean_name
from wire.advancement import ATTRIBUTE_PRICE_MAX, AttributePrice, Category
from wire.i18n import N_
from wire.sheet import Character
from wire.textcheck import normal_text, text_problem

KEEP: Any = object()
"""A setting left as it is (None means "clear it")."""
STARTING_CP_MAX = 100_000
REQUEST_LIFE = timedelta(days=REQUEST_DAYS)


if TYPE_CHECKING:
    from storage.models import Campaign
    from storage.rules_needs import AdvancementNeeds as _Needs
else:
    _Needs = object


def clean_reason(reason: str) -> str:
    problem = text_problem(reason, REASON_MAX, empty_ok=True)
    if problem:
        raise InvalidValue("The reason {problem}. {fix}", problem=problem, fix=problem.fix)
    return normal_text(reason)


class RuleAdvancement(_Needs):
    """The CP settings methods of `RuleStore`."""

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
        campaign: Campaign,
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
