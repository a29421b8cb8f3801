"""The character sheet as the bot draws it: one embed, whoever shows it.

/character show, the sheet's Edit form and the quick-play panel's Sheet button all show this
embed; it lives apart from the Characters cog so the panel can draw it without importing the
cog that puts the panel's button on the sheet.
"""

from __future__ import annotations

import discord

from cogs.utils.discord_limits import EMBED_FIELD_VALUE_MAX, EMBED_TITLE_MAX
from cogs.utils.embeds import NEUTRAL
from cogs.utils.text import inert
from cogs.utils.tracker import pool_text
from wire import i18n
from wire.health import DamageKind, Pool
from wire.i18n import tr
from wire.sheet import Character, weapon_gaps
from wire.textcheck import clip


def sheet_table(values: dict[str, int]) -> str:
    """Attributes or skills as the sheet lists them: by name, the values in bold."""
    if not values:
        return tr("none")
    lines = [
        f"{inert(name)} **{value}**"
        for name, value in sorted(values.items(), key=lambda i: i[0].casefold())
    ]
    text = ", ".join(lines)
    return clip(text, EMBED_FIELD_VALUE_MAX)


def weapons_text(character: Character) -> str:
    """Each weapon with what it is wielded with, and a warning for a stat the sheet lacks."""
    if not character.weapons:
        return tr("none")
    gaps = weapon_gaps(character)
    lines = []
    for w in character.weapons:
        line = tr(
            "**{name}**: base {base}, {attribute} + {skill}",
            name=inert(w.name),
            base=w.base,
            attribute=inert(w.attribute),
            skill=inert(w.skill),
        ) + ("" if w.damage_kind is DamageKind.LETHAL else f", {tr(w.kind)}")
        missing = [stat for weapon, stat in gaps if weapon is w]
        if missing:
            line += " ⚠ " + tr(
                "not on the sheet: {stats} (counts 0)",
                stats=", ".join(inert(stat) for stat in missing),
            )
        lines.append(line)
    return clip("\n".join(lines), EMBED_FIELD_VALUE_MAX)


def active_marks() -> tuple[str, ...]:
    """The " (active)" on a sheet's title in every language: the sheet an Edit form was opened
    from was drawn in its poster's language, not necessarily the editor's."""
    with_each = []
    for lang in i18n.LANGUAGES:
        with i18n.speaking(lang):
            with_each.append(" " + tr("(active)"))
    return tuple(with_each)


def sheet_embed(character: Character, active: bool = False) -> discord.Embed:
    """The sheet as /character show, an edit and the panel's Sheet button draw it."""
    kind = (
        tr("NPC")
        if character.is_npc
        else tr("player character of {owner}", owner=f"<@{character.owner_id}>")
    )
    embed = discord.Embed(
        title=clip(
            inert(character.name) + (" " + tr("(active)") if active else ""), EMBED_TITLE_MAX
        ),
        description=kind,
        colour=NEUTRAL,
    )
    if character.portrait:
        embed.set_thumbnail(url=character.portrait)
    embed.add_field(name=tr("Attributes"), value=sheet_table(character.attributes), inline=False)
    embed.add_field(name=tr("Skills"), value=sheet_table(character.skills), inline=False)
    embed.add_field(name=tr("Weapons"), value=weapons_text(character), inline=False)
    embed.add_field(
        name=tr("Shield"), value=tr("yes (can block)") if character.shield else tr("no")
    )
    embed.add_field(name=tr("Health"), value=sheet_health(character))
    if character.notes:
        embed.add_field(
            name=tr("Notes"),
            value=clip(inert(character.notes), EMBED_FIELD_VALUE_MAX),
            inline=False,
        )
    return embed


def sheet_health(character: Character) -> str:
    """The pools with where the maximum comes from, and the armour a table set."""
    health = character.health()
    hp_from = tr("set") if character.hp_max is not None else tr("20 + Constitution + Resolve")
    parts = [f"{pool_text(health, Pool.HP)} ({hp_from})", pool_text(health, Pool.THP)]
    if health.wp_max:
        parts.append(pool_text(health, Pool.WP))
    parts.append(tr("armour {armour}", armour=character.armour))
    return " · ".join(parts)
