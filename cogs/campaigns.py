"""/campaign: campaigns, their GMs and settings, and which channel plays which campaign.

A server's default campaign needs no set-up (the first roll makes it); a table that runs
several campaigns creates them and binds each channel to one with /campaign use.
"""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils import autocomplete as ac
from cogs.utils.discord_limits import EMBED_DESCRIPTION_MAX, EMBED_FIELD_VALUE_MAX, EMBED_TITLE_MAX
from cogs.utils.embeds import NEUTRAL
from cogs.utils.errors import UserError
from cogs.utils.language import adopt, language_name, speak_for, table_language
from cogs.utils.options import Name, NameList
from cogs.utils.rolling import actor_of, load_roller
from cogs.utils.text import inert
from storage.errors import StorageError
from storage.models import WIRE_ATTRIBUTES, Campaign
from wire import i18n, limits
from wire.i18n import tr, trn
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot


async def campaign_names(interaction: discord.Interaction, current: str) -> ac.Choices:
    if interaction.guild_id is None:
        return []
    try:
        campaigns = await ac.store_of(interaction).list_campaigns(interaction.guild_id)
    except StorageError:
        return []
    return ac.choices(((c.name, c.name) for c in campaigns), current)


def attributes_line(campaign: Campaign) -> str:
    names = ", ".join(inert(name) for name in campaign.attributes())
    own = " " + tr("(WIRE's)") if campaign.attribute_names is None else ""
    return clip(f"{names}{own}", EMBED_FIELD_VALUE_MAX)


def gm_field(campaign: Campaign) -> str:
    """Who the GMs are: the named ones, and always the server's managers."""
    if not campaign.gm_ids:
        return tr("Everyone with Manage Server (`/campaign gm add` names more)")
    return tr(
        "{gms} and everyone with Manage Server (`/campaign gm add` names more)",
        gms=", ".join(f"<@{g}>" for g in campaign.gm_ids),
    )


AttacksPerTurn = app_commands.Range[int, limits.ATTACKS_PER_TURN.low, limits.ATTACKS_PER_TURN.high]
"""/campaign settings attacks_per_turn: 1 to 20, or 0 for any number."""


def language_choices() -> list[app_commands.Choice[str]]:
    """Each language the bot speaks, by its own name ("Deutsch"), and each user's own."""
    named = [app_commands.Choice(name=language_name(lang), value=lang) for lang in i18n.LANGUAGES]
    return [*named, app_commands.Choice(name="Each player's own", value=EACH_OWN)]


EACH_OWN = "user"
"""The language choice that unfixes it: each user reads their Discord client's language."""


def turns_line(campaign: Campaign) -> str:
    """The table's rules of a turn (wire.fight.TurnRules), as /campaign info and settings say."""
    rules = campaign.turn_rules
    count = (
        tr("any number of attacks")
        if rules.attacks_per_turn is None
        else trn("{n} attack", "{n} attacks", rules.attacks_per_turn)
    )
    elsewhere = (
        tr("attacks out of turn allowed")
        if rules.out_of_turn
        else tr("out of turn only with a reaction a GM grants")
    )
    return f"{count}; {elsewhere}"


def conditions_line(campaign: Campaign) -> str:
    """Who puts conditions on characters (on sheets and in fights), as /campaign settings says."""
    if campaign.players_conditions:
        return tr("Conditions on characters: GMs, and players on their own.")
    return tr("Conditions on characters: GMs only.")


def language_line(campaign: Campaign) -> str:
    if not campaign.language:
        return tr(
            "each player's own (their Discord language); the tracker and defence prompts, "
            "which the whole table shares, the server's: {language}",
            language=language_name(table_language()),
        )
    return language_name(i18n.language_of(campaign.language))


class Campaigns(commands.GroupCog, group_name="campaign"):
    """Campaigns: create, use in this channel, info, settings, GMs, export."""

    gm = app_commands.Group(name="gm", description="Add or remove a GM of this channel's campaign")

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="create", description="Create a campaign and play it in this channel"
    )
    @app_commands.guild_only()
    @app_commands.describe(name="The campaign's name (unique in this server)")
    async def create(self, interaction: discord.Interaction, name: Name) -> None:
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None:
            raise UserError(tr("Campaigns live in a server."))
        store = self.bot.store
        actor = actor_of(interaction)
        playing = await store.campaign_for_channel(guild_id, channel_id, actor)
        campaign = await store.create_campaign(guild_id, name, actor)
        if not playing.is_default:
            # Creating never takes a channel another campaign plays in.
            await interaction.response.send_message(
                tr(
                    "Created **{campaign}** with you as its GM. This channel keeps playing "
                    "**{playing}**; play the new one in another channel with `/campaign use`.",
                    campaign=inert(campaign.name),
                    playing=inert(playing.name),
                )
            )
            return
        await store.bind_channel(guild_id, channel_id, campaign.id, actor)
        await interaction.response.send_message(
            tr(
                "Created **{campaign}** with you as its GM; this channel now plays it. Bind "
                "other channels with `/campaign use`.",
                campaign=inert(campaign.name),
            )
        )

    @app_commands.command(name="use", description="Play a campaign in this channel (its GMs only)")
    @app_commands.guild_only()
    @app_commands.describe(name="The campaign")
    @app_commands.autocomplete(name=campaign_names)
    async def use(self, interaction: discord.Interaction, name: Name) -> None:
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None:
            raise UserError(tr("Campaigns live in a server."))
        store = self.bot.store
        campaign = await store.get_campaign(guild_id, name)
        campaign = await store.bind_channel(
            guild_id, channel_id, campaign.id, actor_of(interaction)
        )
        await interaction.response.send_message(
            tr("This channel now plays **{campaign}**.", campaign=inert(campaign.name))
        )

    @app_commands.command(name="list", description="The campaigns in this server")
    @app_commands.guild_only()
    async def list_(self, interaction: discord.Interaction) -> None:
        roller = await load_roller(self.bot, interaction)
        campaigns = await self.bot.store.list_campaigns(roller.guild_id)
        lines = [
            f"**{inert(c.name)}**"
            + (" ← " + tr("this channel") if c.id == roller.campaign.id else "")
            for c in campaigns
        ]
        embed = discord.Embed(
            title=tr("Campaigns"),
            description=clip("\n".join(lines), EMBED_DESCRIPTION_MAX),
            colour=NEUTRAL,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="info", description="This channel's campaign: GMs and settings")
    @app_commands.guild_only()
    async def info(self, interaction: discord.Interaction) -> None:
        roller = await load_roller(self.bot, interaction)
        campaign = roller.campaign
        embed = discord.Embed(title=clip(inert(campaign.name), EMBED_TITLE_MAX), colour=NEUTRAL)
        if campaign.is_default:
            embed.description = tr("This server's default campaign.")
        embed.add_field(
            name=tr("GMs"),
            value=clip(gm_field(campaign), EMBED_FIELD_VALUE_MAX),
        )
        embed.add_field(
            name=tr("NPC defences"), value=tr("take 10") if campaign.npc_take10 else tr("rolled")
        )
        embed.add_field(
            name=tr("NPC rolls show"),
            value=tr("dice and modifiers") if campaign.show_npc_modifiers else tr("totals only"),
        )
        embed.add_field(
            name=tr("Hidden rolls go to"),
            value=f"<#{campaign.gm_channel_id}>" if campaign.gm_channel_id else tr("the GMs' DMs"),
        )
        embed.add_field(name=tr("Language"), value=language_line(campaign))
        embed.add_field(name=tr("In a fight's turn"), value=turns_line(campaign))
        embed.add_field(name=tr("Attributes"), value=attributes_line(campaign), inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(
        name="attributes", description="The campaign's attribute names: show them, or set (GMs)"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        names="GMs: the attribute names, commas between, e.g. Strength, Reaction, Charisma",
        reset=f"GMs: back to WIRE's own ({', '.join(WIRE_ATTRIBUTES)})",
    )
    async def attributes(
        self, interaction: discord.Interaction, names: NameList | None = None, reset: bool = False
    ) -> None:
        if names and reset:
            raise UserError(tr("Give names or reset, not both."))
        roller = await load_roller(self.bot, interaction)
        campaign = roller.campaign
        if names or reset:
            listed = None if reset else [n.strip() for n in names.split(",") if n.strip()]
            campaign = await self.bot.store.set_attribute_names(
                roller.guild_id, campaign.id, roller.user_id, listed
            )
        await interaction.response.send_message(
            tr(
                "**{campaign}**'s attributes: {attributes}. Autocomplete offers them, and a new "
                "attribute close to one of them is refused as a likely typo (`new:true` adds it "
                "anyway).",
                campaign=inert(campaign.name),
                attributes=attributes_line(campaign),
            ),
            ephemeral=True,
        )

    @app_commands.command(name="settings", description="Change this campaign's settings (GMs)")
    @app_commands.guild_only()
    @app_commands.describe(
        npc_take10="NPC defences take 10 (on) or are rolled (off)",
        gm_channel="Where hidden rolls are shown to the GMs",
        clear_gm_channel="Send hidden rolls to the GMs' DMs again",
        npc_modifiers="Show NPCs' dice and modifiers to the table (off: their totals only)",
        npc_health="Show NPCs' health as numbers to the table (off: unhurt, wounded...)",
        language="The language of every reply in this campaign (default: each player's own)",
        attacks_per_turn="Attacks a combatant makes in its own turn (default 1; 0: any number)",
        out_of_turn="Let players attack in another's turn (default off: only with a reaction)",
        players_conditions="Let players put conditions on their own characters (default off)",
    )
    @app_commands.choices(language=language_choices())
    async def settings(
        self,
        interaction: discord.Interaction,
        npc_take10: bool | None = None,
        gm_channel: discord.TextChannel | None = None,
        clear_gm_channel: bool = False,
        npc_modifiers: bool | None = None,
        npc_health: bool | None = None,
        language: app_commands.Choice[str] | None = None,
        attacks_per_turn: AttacksPerTurn | None = None,
        out_of_turn: bool | None = None,
        players_conditions: bool | None = None,
    ) -> None:
        given = (
            npc_take10,
            gm_channel,
            npc_modifiers,
            npc_health,
            language,
            attacks_per_turn,
            out_of_turn,
            players_conditions,
        )
        if all(value is None for value in given) and not clear_gm_channel:
            raise UserError(
                tr(
                    "Nothing to change: give npc_take10, gm_channel, clear_gm_channel, "
                    "npc_modifiers, npc_health, language, attacks_per_turn, out_of_turn or "
                    "players_conditions."
                )
            )
        if gm_channel is not None and clear_gm_channel:
            raise UserError(tr("Give gm_channel or clear_gm_channel, not both."))
        roller = await load_roller(self.bot, interaction)
        campaign = await self.bot.store.update_campaign(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            npc_take10=npc_take10,
            gm_channel_id=gm_channel.id if gm_channel else None,
            clear_gm_channel=clear_gm_channel,
            show_npc_modifiers=npc_modifiers,
            show_npc_health=npc_health,
            language=None if language is None else _stored_language(language.value),
            attacks_per_turn=attacks_per_turn,
            out_of_turn_attacks=out_of_turn,
            players_conditions=players_conditions,
        )
        speak_for(interaction)  # the languages as they are from now on
        adopt(campaign)
        where = f"<#{campaign.gm_channel_id}>" if campaign.gm_channel_id else tr("the GMs' DMs")
        await interaction.response.send_message(
            tr(
                "**{campaign}**: NPC defences {defences}; hidden rolls go to {where}; the table "
                "sees NPCs' {shown}, and their health {health}. Language: {language}.",
                campaign=inert(campaign.name),
                defences=tr("take 10") if campaign.npc_take10 else tr("are rolled"),
                where=where,
                shown=tr("dice and modifiers")
                if campaign.show_npc_modifiers
                else tr("totals only"),
                health=tr("as numbers")
                if campaign.show_npc_health
                else tr("as unhurt, wounded or down"),
                language=language_line(campaign),
            )
            + " "
            + tr("In a fight's turn: {turns}.", turns=turns_line(campaign))
            + " "
            + conditions_line(campaign),
            ephemeral=True,
        )

    @gm.command(name="add", description="Make someone a GM of this channel's campaign (GMs)")
    @app_commands.guild_only()
    @app_commands.describe(user="The new GM")
    async def gm_add(self, interaction: discord.Interaction, user: discord.User) -> None:
        roller = await load_roller(self.bot, interaction)
        campaign = await self.bot.store.add_gm(
            roller.guild_id, roller.campaign.id, roller.user_id, user.id
        )
        await interaction.response.send_message(
            tr(
                "{user} is now a GM of **{campaign}**.",
                user=user.mention,
                campaign=inert(campaign.name),
            )
        )

    @gm.command(name="remove", description="Remove a GM of this channel's campaign (GMs)")
    @app_commands.guild_only()
    @app_commands.describe(user="The GM to remove")
    async def gm_remove(self, interaction: discord.Interaction, user: discord.User) -> None:
        roller = await load_roller(self.bot, interaction)
        if roller.campaign.is_gm(roller.user_id) and not roller.campaign.is_gm(user.id):
            raise UserError(
                tr(
                    "{user} is not a GM of **{campaign}** (everyone with Manage Server always "
                    "is, and cannot be removed).",
                    user=user.mention,
                    campaign=inert(roller.campaign.name),
                )
            )
        campaign = await self.bot.store.remove_gm(
            roller.guild_id, roller.campaign.id, roller.user_id, user.id
        )
        await interaction.response.send_message(
            tr(
                "{user} is no longer a GM of **{campaign}**.",
                user=user.mention,
                campaign=inert(campaign.name),
            )
        )

    @app_commands.command(name="export", description="Export the campaign's sheets as JSON (GMs)")
    @app_commands.guild_only()
    async def export(self, interaction: discord.Interaction) -> None:
        roller = await load_roller(self.bot, interaction)
        if not roller.campaign.is_gm(roller.user_id):
            raise UserError(
                tr("Only a GM of {campaign} can export it.", campaign=inert(roller.campaign.name))
            )
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await self.bot.store.export_campaign(roller.guild_id, roller.campaign.id)
        raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
        await interaction.followup.send(
            tr(
                "{campaign}: import it anywhere with `/character import`.",
                campaign=inert(roller.campaign.name),
            ),
            file=discord.File(io.BytesIO(raw), filename="campaign.json"),
            ephemeral=True,
        )


async def setup(bot: WireBot) -> None:
    await bot.add_cog(Campaigns(bot))


def _stored_language(choice: str) -> str:
    """What the store keeps for a language choice: its code, or "" for each player's own."""
    return "" if choice == EACH_OWN else choice
