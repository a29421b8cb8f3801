"""Option types for slash commands, with the rules core's ranges as Discord min/max.

Discord's client refuses out-of-range numbers before they are sent; discord.py does not check what
arrives, so the commands check the same ranges again through `wire.limits`.
"""

from __future__ import annotations

from discord import app_commands

from storage.models import NAME_MAX
from wire import limits
from wire.combat import Defence

Attr = app_commands.Range[int, limits.ATTRIBUTE.low, limits.ATTRIBUTE.high]
Skill = app_commands.Range[int, limits.SKILL.low, limits.SKILL.high]
Mod = app_commands.Range[int, limits.MODIFIER.low, limits.MODIFIER.high]
Target = app_commands.Range[int, limits.TARGET.low, limits.TARGET.high]
Base = app_commands.Range[int, limits.BASE.low, limits.BASE.high]
DieFace = app_commands.Range[int, limits.DIE.low, limits.DIE.high]
Quality = app_commands.Range[int, limits.QUALITY.low, limits.QUALITY.high]
Name = app_commands.Range[str, 1, NAME_MAX]

ROLL_DESCRIPTIONS = {
    "mod": "A situational modifier added to the total (default 0)",
    "roll": "A d20 you rolled at the table (1-20) instead of the bot rolling",
    "take10": "Take 10 instead of rolling (the average roll)",
    "private": "Hidden roll: you and the GMs see the result, the channel only that you rolled",
    "npc": "GMs: roll as this NPC instead of your active character",
}

DEFENCE_CHOICES = [app_commands.Choice(name=d.value.capitalize(), value=d.value) for d in Defence]
