"""A bare discord.py bot whose `/check` and `/attack` have the WIRE bot's options and answer with
an answer of the same shape: the benchmark's second baseline (`python -m bench.bench_e2e`,
`--command attack` for the attack).

tests/e2e/barebot.py answers `/ping` with a constant embed: the floor discord.py itself sets.
Against it, the WIRE bot's ratio also counts what any bot of that shape pays in discord.py: eleven
options to parse and range-check, an embed with three fields and a footer to build and
serialise, and a persistent button (a DynamicItem, as WIRE's Roll again) to attach. This bot
pays exactly that, and nothing of ours: no database, no translation, no rules (the die is
rolled and the total added here, in two lines). So bot.py / this bot is the cost of WIRE's own
work per interaction, and bot.py / barebot the cost over discord.py's floor.

Environment as barebot's: DISCORD_TOKEN, WIRE_DEV_GUILD; SIGTERM closes it cleanly.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import random
import re
import signal
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger("shaped_barebot")

AGAIN = re.compile(r"bare:again:(?P<roll>[0-9]+)")
# The ranges of WIRE's own options (wire/limits.py), written out: this bot imports none of ours.
Attr = app_commands.Range[int, -10, 30]
Skill = app_commands.Range[int, 0, 10]
Mod = app_commands.Range[int, -50, 50]
Target = app_commands.Range[int, -60, 150]
Base = app_commands.Range[int, 0, 30]
DieFace = app_commands.Range[int, 1, 20]
Name = app_commands.Range[str, 1, 64]


class AgainButton(discord.ui.DynamicItem[discord.ui.Button], template=AGAIN.pattern):
    """A persistent button naming the roll it repeats, as WIRE's Roll again does."""

    def __init__(self, roll_id: int) -> None:
        super().__init__(discord.ui.Button(label="Roll again", custom_id=f"bare:again:{roll_id}"))
        self.roll_id = roll_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> AgainButton:
        return cls(int(match["roll"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Again.", ephemeral=True)


def answer(who: str, label: str, die: int, modifier: int, vs: int) -> discord.Embed:
    """The shape of WIRE's check answer: title, outcome, Die / Modifiers / Total, a footer."""
    total = die + modifier
    success = total >= vs
    degrees = abs(total - vs) // 3
    outcome = f"Success: {degrees} DoS" if success else f"Failure: {degrees + 1} DoF"
    embed = discord.Embed(
        title=f"{who}: {label}",
        description=f"**{outcome}**",
        colour=0x2ECC71 if success else 0xE74C3C,
    )
    embed.add_field(name="Die", value=f"d20 **{die}**")
    embed.add_field(name="Modifiers", value=f"{modifier:+d}")
    embed.add_field(name="Total", value=f"**{total}** vs TN {vs}")
    chance = min(100, max(0, (21 - vs + modifier) * 5))
    embed.set_footer(text=f"{chance}% to succeed before the roll")
    return embed


def attack_answer(who: str, die: int, modifier: int, base: int, vs: int) -> discord.Embed:
    """The shape of WIRE's attack answer: a check's, with the damage line under the outcome."""
    embed = answer(who, "Attack", die, modifier, vs)
    total = die + modifier
    degrees = abs(total - vs) // 3
    damage = base + degrees if total >= vs else 0
    embed.description = f"{embed.description}\n{base} base + {degrees} DoS = {damage} damage"
    embed.set_field_at(2, name="Total", value=f"**{total}** vs defence {vs}")
    return embed


DEFENCES = [app_commands.Choice(name=n, value=n.casefold()) for n in ("Parry", "Block", "Dodge")]


class ShapedBareBot(discord.Client):
    def __init__(self, dev_guild: int | None) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.tree = app_commands.CommandTree(self)
        self.dev_guild = dev_guild
        self.rng = random.SystemRandom()
        self.rolls = itertools.count(1)

        @self.tree.command(name="check", description="A check against a target number")
        @app_commands.guild_only()
        async def check(
            interaction: discord.Interaction,
            vs: Target,
            attr: Attr | None = None,
            skill: Skill | None = None,
            attr_name: Name | None = None,
            skill_name: Name | None = None,
            mod: Mod = 0,
            roll: DieFace | None = None,
            take10: bool = False,
            private: bool = False,
            npc: Name | None = None,
            label: Name | None = None,
        ) -> None:
            die = 10 if take10 else roll or self.rng.randint(1, 20)
            modifier = (attr or 0) + (skill or 0) + mod
            view = discord.ui.View(timeout=None)
            view.add_item(AgainButton(next(self.rolls)))
            await interaction.response.send_message(
                embed=answer(interaction.user.name, label or "Check", die, modifier, vs),
                view=view,
                ephemeral=private,
            )

        @self.tree.command(name="attack", description="Attack against the defender's total")
        @app_commands.guild_only()
        @app_commands.rename(strength="str")
        @app_commands.choices(defence=DEFENCES)
        async def attack(
            interaction: discord.Interaction,
            strength: Attr | None = None,
            skill: Skill | None = None,
            base: Base | None = None,
            vs: Target | None = None,
            weapon: Name | None = None,
            target: Name | None = None,
            defence: app_commands.Choice[str] | None = None,
            mod: Mod = 0,
            roll: DieFace | None = None,
            take10: bool = False,
            private: bool = False,
            npc: Name | None = None,
        ) -> None:
            die = 10 if take10 else roll or self.rng.randint(1, 20)
            modifier = (strength or 0) + (skill or 0) + mod
            view = discord.ui.View(timeout=None)
            view.add_item(AgainButton(next(self.rolls)))
            await interaction.response.send_message(
                embed=attack_answer(interaction.user.name, die, modifier, base or 0, vs or 10),
                view=view,
                ephemeral=private,
            )

    async def setup_hook(self) -> None:
        self.add_dynamic_items(AgainButton)
        if self.dev_guild is not None:
            guild = discord.Object(id=self.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()


async def run(token: str, dev_guild: int | None) -> None:
    bot = ShapedBareBot(dev_guild)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        await bot.start(token)


def main() -> None:
    formatter = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    level = getattr(logging, os.environ.get("LOG_LEVEL", "INFO").upper(), logging.INFO)
    discord.utils.setup_logging(level=level, formatter=formatter)
    token = os.environ.get("DISCORD_TOKEN", "")
    if not token:
        raise SystemExit("shaped_barebot: DISCORD_TOKEN is not set")
    guild = os.environ.get("WIRE_DEV_GUILD", "").strip()
    asyncio.run(run(token, int(guild) if guild else None))


if __name__ == "__main__":
    main()
