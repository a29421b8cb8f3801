"""Option types for slash commands: the rules core's ranges as Discord min/max, and free text.

Discord's client refuses out-of-range numbers and over-long text before they are sent; discord.py
checks neither on arrival, so the commands check the same ranges again through `wire.limits`, and
every free-text option (`Name`, `Notes`) is checked by `FreeText` before the command runs.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from cogs.utils.dice_expression import EXPRESSION_MAX
from cogs.utils.errors import UserError
from wire import limits
from wire.combat import Defence
from wire.i18n import tr, trc
from wire.limits import MAX_ATTRIBUTES, NAME_MAX, NOTES_MAX
from wire.sheet_text import SHEET_TEXT_MAX
from wire.textcheck import normal_text, text_problem

_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,9}")


def whole_number(text: str) -> int | None:
    """A whole number typed into a form or a list ("10", "-5"), else None. Not `str.isdigit`:
    that takes "²" and "５", and with `lstrip("-")` also "--5", all of which `int` refuses."""
    text = text.strip()
    return int(text) if _WHOLE_NUMBER.fullmatch(text) else None


class TextRejected(UserError, app_commands.AppCommandError):
    """Free text refused on arrival; the message names the option, the problem and the fix.

    An AppCommandError, so discord.py passes it from the transformer to the tree's error handler
    as it is; a UserError, so the handler answers it ephemerally as the user's to fix.
    """


class FreeText(app_commands.Transformer):
    """A text option checked on arrival, before anything is rolled, shown or stored.

    The text is NFC-normalised and stripped of surrounding whitespace; it is refused (naming the
    option) if it is empty or only spaces, longer than the store's limit, or holds a control or
    format character: line breaks, zero-width spaces and joiners, direction overrides (U+202E).
    The same rules and words as the store's (`storage.validation.text_problem`). The limits are
    also registered with Discord as min_length/max_length, which an honest client enforces.
    """

    def __init__(self, limit: int, *, shortest: int = 1) -> None:
        self.limit = limit
        self.shortest = shortest

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def min_value(self) -> int:
        return self.shortest

    @property
    def max_value(self) -> int:
        return self.limit

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> str:
        if not isinstance(value, str):
            raise app_commands.TransformerError(value, self.type, self)
        problem = text_problem(value, self.limit, empty_ok=self.shortest == 0)
        if problem:
            raise TextRejected(f"{option_name(interaction, value)}: {problem.what}. {problem.fix}")
        return normal_text(value)


def option_name(interaction: discord.Interaction, value: str) -> str:
    """The name of the option that arrived with `value` (as the user sees it, in their language).

    A transformer is not told which option it transforms; options are transformed in order and
    the first refusal stops the command, so the first option holding that very text is it.
    """
    name = next((name for name, given in interaction.namespace if given == value), None)
    return tr("text") if name is None else trc("name", name)


Attr = app_commands.Range[int, limits.ATTRIBUTE.low, limits.ATTRIBUTE.high]
Skill = app_commands.Range[int, limits.SKILL.low, limits.SKILL.high]
Mod = app_commands.Range[int, limits.MODIFIER.low, limits.MODIFIER.high]
Target = app_commands.Range[int, limits.TARGET.low, limits.TARGET.high]
Base = app_commands.Range[int, limits.BASE.low, limits.BASE.high]
DieFace = app_commands.Range[int, limits.DIE.low, limits.DIE.high]
Quality = app_commands.Range[int, limits.QUALITY.low, limits.QUALITY.high]
Bonus = app_commands.Range[int, limits.BONUS.low, limits.BONUS.high]
Name = app_commands.Transform[str, FreeText(NAME_MAX)]
"""Any name, label or other one-line text: 1 to NAME_MAX characters."""
Notes = app_commands.Transform[str, FreeText(NOTES_MAX, shortest=0)]
"""A character's notes: up to NOTES_MAX characters (empty clears them)."""
DiceText = app_commands.Transform[str, FreeText(EXPRESSION_MAX)]
"""A free dice expression for /roll (the dice module checks the rest)."""
SheetText = app_commands.Transform[str, FreeText(SHEET_TEXT_MAX)]
"""A whole sheet's attributes and skills as text (wire/sheet_text.py); each name in it is
checked again when the text is read."""
NAME_LIST_MAX = MAX_ATTRIBUTES * (NAME_MAX + 2)
NameList = app_commands.Transform[str, FreeText(NAME_LIST_MAX)]
"""Names with commas between: room for the most a list holds, each as long as a name may be."""

ROLL_DESCRIPTIONS = {
    "mod": "A situational modifier added to the total (default 0)",
    "roll": "A d20 you rolled at the table (1-20) instead of the bot rolling",
    "take10": "Take 10 instead of rolling (the average roll)",
    "private": "Hidden roll: you and the GMs see the result, the channel only that you rolled",
    "npc": "GMs: roll as this NPC instead of your active character",
}

DEFENCE_CHOICES = [app_commands.Choice(name=d.value.capitalize(), value=d.value) for d in Defence]

ATTACK_DESCRIPTIONS = {
    "strength": "Your attribute for the weapon (e.g. Strength), as a number",
    "skill": "Your weapon skill, as a number (0-10)",
    "base": "The weapon's base damage",
}
"""The numbers an attack is made of: /attack and /odds attack describe them alike."""
DEFENCE_DESCRIPTIONS = {
    "base": "The incoming weapon's base damage",
    "strength": "Your attribute for the defence (Strength for a parry), as a number",
    "skill": "Your defence skill (parry, block or dodge), as a number (0-10)",
}
"""The numbers a defence is made of: /defend and /odds defend describe them alike."""
