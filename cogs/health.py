"""/health: damage, healing and set values by hand, for what the rolls do not apply themselves.

A combatant of this channel's fight (its pools for the fight) or a character's sheet (kept
between fights); an attack in a fight applies its own damage (cogs/combat.py). The pools'
math (armour, what is down) is wire/health.py; who may change what, the store's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils import autocomplete as ac
from cogs.utils.options import Name
from cogs.utils.rolling import channel_fight, load_roller
from cogs.utils.text import inert
from cogs.utils.tracker import health_line, pool_name, refresh_tracker
from storage.models import HealthTarget
from wire import limits
from wire.health import Pool
from wire.i18n import tr

if TYPE_CHECKING:
    from bot import WireBot


Amount = app_commands.Range[int, limits.HEALTH.low, limits.HEALTH.high]
T = TypeVar("T")


POOL_CHOICES = [
    app_commands.Choice(name="HP (lethal)", value="hp"),
    app_commands.Choice(name="THP (non-lethal)", value="thp"),
    app_commands.Choice(name="WP (mental)", value="wp"),
]


def health_options(amount: str) -> Callable[[T], T]:
    """The options /health damage, heal and set share: who, how much, which pool."""

    def apply(func: T) -> T:
        func = app_commands.autocomplete(target=ac.combatants_or_characters)(func)
        func = app_commands.choices(pool=POOL_CHOICES)(func)
        func = app_commands.describe(
            target="A combatant of this channel's fight, or a character",
            amount=amount,
            pool="Which pool (default HP)",
        )(func)
        return app_commands.guild_only()(func)

    return apply


class Health(commands.GroupCog, group_name="health"):
    """Damage, healing and setting health by hand, and undoing the last change."""

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot
        super().__init__()

    async def _change(
        self,
        interaction: discord.Interaction,
        op: str,
        target: str,
        amount: int,
        pool: app_commands.Choice[str] | None,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        store = self.bot.store
        fight = await channel_fight(self.bot, roller)
        member = fight.find(target) if fight is not None else None
        if member is not None:
            where = HealthTarget(combatant_id=member.id)
        else:
            sheet = await store.get_character(roller.guild_id, roller.campaign.id, target)
            where = HealthTarget(character_id=sheet.id)
        chosen = Pool(pool.value) if pool else None
        entry = await store.change_health(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            where,
            op,
            amount,
            pool=chosen,
            interaction_id=interaction.id,
        )
        campaign = roller.campaign
        secret = entry.is_npc and not campaign.show_npc_health
        await interaction.response.send_message(health_line(entry, numbers=True), ephemeral=secret)
        if secret:  # the table learns how it looks, not the numbers
            await interaction.followup.send(health_line(entry, numbers=False))
        if fight is not None:
            await refresh_tracker(self.bot, fight.guild_id, fight.id, campaign)

    @app_commands.command(name="damage", description="Take health off a combatant or character")
    @health_options(amount="How much")
    async def damage(
        self,
        interaction: discord.Interaction,
        target: Name,
        amount: Amount,
        pool: app_commands.Choice[str] | None = None,
    ) -> None:
        await self._change(interaction, "damage", target, amount, pool)

    @app_commands.command(name="heal", description="Give health back, up to the maximum")
    @health_options(amount="How much")
    async def heal(
        self,
        interaction: discord.Interaction,
        target: Name,
        amount: Amount,
        pool: app_commands.Choice[str] | None = None,
    ) -> None:
        await self._change(interaction, "heal", target, amount, pool)

    @app_commands.command(name="set", description="Set a pool to a value (at most its maximum)")
    @health_options(amount="The new value")
    async def set_(
        self,
        interaction: discord.Interaction,
        target: Name,
        amount: Amount,
        pool: app_commands.Choice[str] | None = None,
    ) -> None:
        await self._change(interaction, "set", target, amount, pool)

    @app_commands.command(name="undo", description="GMs: undo the last change of health")
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction) -> None:
        roller = await load_roller(self.bot, interaction)
        entry = await self.bot.store.undo_health(
            roller.guild_id, roller.campaign.id, roller.user_id
        )
        change = entry.change
        await interaction.response.send_message(
            tr(
                "Undone: {name} {pool} {before} → {after} is back at {before}.",
                name=inert(entry.target_name),
                pool=pool_name(change.pool),
                before=change.before,
                after=change.after,
            ),
            ephemeral=entry.is_npc and not roller.campaign.show_npc_health,
        )
        fight = await channel_fight(self.bot, roller)
        if fight is not None:
            await refresh_tracker(self.bot, fight.guild_id, fight.id, roller.campaign)


async def setup(bot: WireBot) -> None:
    await bot.add_cog(Health(bot))
