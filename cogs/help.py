"""/help: the commands with examples, and the rules in brief with the rules text's examples.

All of it in one embed was over 4,400 characters (more in German): a wall nobody reads. So /help
alone gives an overview, each topic's commands and the rules in brief, and `topic:` shows one
topic's commands with examples; each reply is a short read within Discord's limits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils.embeds import NEUTRAL
from wire.i18n import N_, tr, trc

if TYPE_CHECKING:
    from bot import WireBot

FIRST_STEPS = N_("First steps for a new table")

COMMANDS = {
    FIRST_STEPS: N_(
        "For the GM, once the bot is in the server:\n"
        "1. Members with Manage Server are GMs of every campaign; `/campaign gm add user:@Ann` "
        "makes another. Every channel plays the server's default campaign until a GM binds it "
        "to another: `/campaign create name:Dragonfall` or `/campaign use`.\n"
        "2. Each player makes a character and its weapon: `/character create name:Jaime "
        "sheet:Strength 3, Reaction 2; Long swords 5, Parry 3`, then `/character weapon "
        "weapon:Long sword base:5 attribute:Strength skill:Long swords`.\n"
        "3. The GM makes the NPCs: `/character create name:Goblin npc:true sheet:Strength 1; "
        "Parry 2` (only GMs see the sheet), or loads a prepared file with `/character import`.\n"
        "4. Roll: `/attack target:Goblin`, `/check attr_name:Strength skill_name:Climbing "
        "vs:15`.\n"
        "5. The GM prices character points: `/cp categories skills:Parry: combat`, "
        "`/cp settings starting_budget:100`."
    ),
    N_("Rolls"): N_(
        "`/check attr:3 skill:5 vs:13` a check against a target number\n"
        "`/check attr_name:Strength skill_name:Climbing vs:15` the same from your sheet\n"
        "`/attack str:3 skill:5 base:5 vs:13` an attack against the defender's total\n"
        "`/attack weapon:Long sword target:Goblin` from your sheet: an NPC defends at once, "
        "a player gets Parry/Dodge/Block buttons\n"
        "`/defend str:1 skill:2 base:5 vs:17` how much of an attack gets through\n"
        "`/contest attr:2 skill:4 opp_attr:1 opp_skill:3` both sides roll, the higher wins\n"
        "Every roll takes `mod`, `roll` (a die rolled at the table), `take10` and `private` "
        "(only you and the GMs see it); GMs add `npc` to roll as an NPC. **Roll again** "
        "repeats a roll with a fresh die."
    ),
    N_("At the table"): N_(
        "`/roll expression:4d6kh3+3` dice outside the rules: each die shown, dropped ones struck "
        "(`2d20kl1`, `3d6rr1`, `d100`; `label`, `private`)\n"
        "`/odds attack str:3 skill:5 base:5 vs:13` before you act: the exact chance of each "
        "result and of the damage, only to you (`public:true` shows it). Also `/odds check`, "
        "`/odds defend`, `/odds contest`; `opp_bonus` for an opponent who rolls too"
    ),
    N_("Crafting"): N_(
        "`/craft start item:Sword` · `/craft roll item:Sword vs:15 attr:2 skill:4` · "
        "`/craft show` · `/craft finish item:Sword`"
    ),
    N_("Characters"): N_(
        "`/character create name:Jaime sheet:Strength 3, Reaction 2; Long swords 5, Parry 3` "
        "attributes before the `;`, skills after · **Edit** under a sheet changes them all at "
        "once · `/character weapon weapon:Long sword base:5 attribute:Strength "
        "skill:Long swords` · `/character set attribute:Strength value:3` · "
        "`/character show` · `/character list` · `/character use` · `/character remove` · "
        "`/character delete` · `/character export` · `/character import`. Changes answer only "
        'you. A name close to a known one gets "did you mean...?"; `new:true` keeps it.'
    ),
    N_("Character points"): N_(
        "GMs: `/cp categories skills:Parry: combat, Elvish: language` prices skills by WIRE's "
        "tables · `/cp settings starting_budget:100 attribute_price:10 approval:true` · "
        "`/cp species costs:Human: 0, Elf: 20` · "
        "`/cp award amount:10 reason:Session 3 everyone:active characters` · `/cp undo "
        "character:Jaime`; a GM's sheet text names categories too: `Parry 3 (combat)`. "
        "Players: `/character improve skill:Parry` shows the price, then **Spend** (with "
        "approval on, a GM's **Approve** within 7 days) · `/cp show` the ledger, a page at a "
        "time · `/character species` · `/character cost` what a sheet is worth · `/cp ready` "
        "once it is built: then its priced stats move only through the ledger (GMs: `/cp "
        "correct character:Jaime skill:Parry value:4 reason:…`)."
    ),
    N_("In character"): N_(
        "`/say text:Hold the gate!` speaks as your character, under its name and portrait "
        "(`as:` another of yours, GMs any NPC; `emote:true` an action) · `/me text:draws his "
        "sword` · `/character portrait url:https://…`. On a post, Apps: **Edit post**, "
        "**Delete post**, **Who wrote this**."
    ),
    N_("Campaigns"): N_(
        "`/campaign create name:Dragonfall` · `/campaign use name:Dragonfall` binds this channel · "
        "`/campaign info` · `/campaign settings npc_take10:false gm_channel:#gm` · "
        "`/campaign attributes names:Strength, Reaction, Charisma` (GMs; `reset:true`) · "
        "`/campaign gm add user:@Ann`. A server's default campaign needs no set-up.\n"
        "`/history` the campaign's recent rolls · `/stats table:true` how the dice treated you "
        "or the table against the exact odds, with a chart"
    ),
    N_("Fights"): N_(
        "GM: `/fight start name:Ambush` posts the tracker; players `/fight join`; "
        "`/fight add npc:Goblin count:3` adds Goblin 1-3. **Next turn** or `/fight next` moves "
        "on. `/attack weapon:Long sword target:Goblin 2` applies the damage. A player attacks "
        "on their own turn, once (`/campaign settings attacks_per_turn:` 0: any; "
        "`out_of_turn:true`); a GM grants one out of turn with `/fight reaction`. Defences, "
        "checks and `/roll` are never limited. `/fight effect combatant:Goblin 2 name:Prone "
        "modifier:-2 applies_to:All defences rounds:2` changes the rolls it names "
        "(`/fight cure` ends it; `/condition save` names the table's own) · `/fight show` · "
        "`/fight remove` · `/fight end`. `/health damage|heal|set` · `/health undo` (GMs) · "
        "`/character health`."
    ),
    N_("Quick play"): N_(
        "**Save** under a roll (or `/save name:climb`) keeps it; `/r name:climb mod:2` rolls it "
        "again from the sheet as it is now; `/save` lists, renames and deletes them. `/panel` "
        "(or **Panel** under your sheet in `/character show`): your character's buttons, for "
        "you alone: a weapon, then the target, rolls the attack; **Defence odds** against those "
        "in the fight. On your turn in a fight the ping carries the same buttons and **End "
        "turn**."
    ),
    N_("Gear and money"): N_(
        "`/gear add item:Rope quantity:2 weight:1.5` · `/gear list`: items, the load against "
        "(Strength + Resolve) x 2 kg (flagged when over, never penalised), purse and counters · "
        "`/gear use` · `/gear give item:Arrow receiver:Bo` (Bo's player accepts) · "
        "`/purse pay amount:3 silver` · `/purse receive` · `/purse give` · `/purse show` the "
        "ledger · `/counter add name:Arrows maximum:20 weapon:Longbow`: each attack spends one "
        "· `/counter use` · `/counter set`. GMs: `/purse currency coins:copper 10 silver 10 "
        "gold` · `/purse grant` · `/purse take` · `/purse undo` · `/counter reset`."
    ),
    N_("Sessions"): N_(
        "GMs: `/session plan title:Warrens date:2026-12-05 time:19:30 zone:Europe/Berlin` "
        "(a server event too) · `/session move` · `/session cancel` · `/session start` · "
        "`/session end` drafts the recap, posted in a thread with **Award CP** · "
        "`/session settings reminder:15 ping:true`. Players: **Coming** / **Maybe** / **Not "
        "coming** under its post (or **Interested** on the event) · `/session next` in your own "
        "time zone · `/session list` · `/history session:`."
    ),
    N_("GMs and privacy"): N_(
        "Members with Manage Server are GMs of every campaign; `/campaign gm add` makes others "
        "GMs. NPC sheets are for GMs only; the table sees an NPC's totals unless "
        "`/campaign settings npc_modifiers:true`. `/privacy info` says what the bot keeps; "
        "`/privacy forget-me` deletes all of it."
    ),
}

RULES = N_(
    "**Check:** d20 + attribute + skill (+ modifier) against a target number (TN). "
    "Meeting the TN succeeds.\n"
    "**Degrees:** one per full two points: DoS = (total - TN) / 2 on a success, "
    "DoF = (TN - total) / 2 on a failure, rounded down. Never more than 5 applied.\n"
    "**Combat** is opposed: each attacker DoS adds 1 to the weapon's base damage, each "
    "defender DoS takes 1 away (never below 0). Block needs a shield. A tie goes to the attacker "
    "with 0 DoS.\n"
    "**Example:** Jaime (Strength 3, long swords 5) rolls 15: 23. The goblin takes 10: "
    "10 + 1 + 2 = 13. 23 - 13 = 10, so 5 DoS: 5 base + 5 DoS = 10 damage. Next round the goblin "
    "parries with 3 DoS: 5 base - 3 DoS = 2 damage.\n"
    "**Crafting:** each DoS raises the item's quality by 1, each DoF lowers it by 1."
)


TOPICS = {
    "start": (FIRST_STEPS, ("character create", "character weapon")),
    "rolls": (N_("Rolls"), ("check", "attack", "defend", "contest")),
    "table": (N_("At the table"), ("roll", "odds")),
    "crafting": (N_("Crafting"), ("craft",)),
    "characters": (N_("Characters"), ("character",)),
    "cp": (N_("Character points"), ("cp", "character improve")),
    "incharacter": (N_("In character"), ("say", "me", "character portrait")),
    "campaigns": (N_("Campaigns"), ("campaign", "history", "stats")),
    "fights": (N_("Fights"), ("fight", "health", "condition")),
    "quick": (N_("Quick play"), ("panel", "save", "r")),
    "gear": (N_("Gear and money"), ("gear", "purse", "counter")),
    "sessions": (N_("Sessions"), ("session",)),
    "privacy": (N_("GMs and privacy"), ("privacy",)),
}
"""Each topic's choice value, its title (a key of COMMANDS) and the commands it covers."""
RULES_TOPIC = "rules"
RULES_TITLE = N_("The rules in brief")
TOPIC_CHOICES = [
    app_commands.Choice(name=title, value=value) for value, (title, _) in TOPICS.items()
] + [app_commands.Choice(name=RULES_TITLE, value=RULES_TOPIC)]


def help_embed(topic: str | None = None) -> discord.Embed:
    """The overview (each topic's commands and the rules in brief), or one topic in full."""
    if topic == RULES_TOPIC:
        return discord.Embed(title=tr(RULES_TITLE), description=tr(RULES), colour=NEUTRAL)
    if topic in TOPICS:
        title = TOPICS[topic][0]
        return discord.Embed(title=tr(title), description=tr(COMMANDS[title]), colour=NEUTRAL)
    embed = discord.Embed(
        title=tr("WIRE bot"),
        description=tr("Rolls for WIRE: degrees of success, damage and the odds before the roll."),
        colour=NEUTRAL,
    )
    for title, commands_shown in TOPICS.values():
        more = tr("examples: {command}", command=topic_command(title))
        shown = " ".join(command_name(path) for path in commands_shown)
        embed.add_field(name=tr(title), value=f"{shown} · {more}", inline=False)
    embed.add_field(name=tr(RULES_TITLE), value=tr(RULES), inline=False)
    return embed


def command_name(path: str) -> str:
    """`/character improve` as the reader's client lists it (`/charakter steigern`): a German
    client offers only the German names, so the overview names those."""
    return "`/" + " ".join(trc("name", word) for word in path.split()) + "`"


def topic_command(title: str) -> str:
    """`/help topic:Fights` as the reader's client shows it (`/hilfe thema:Kämpfe`)."""
    return f"`/{trc('name', 'help')} {trc('name', 'topic')}:{trc('choice', title)}`"


class Help(commands.Cog):
    def __init__(self, bot: WireBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="The WIRE bot's commands and the rules in brief")
    @app_commands.describe(topic="One topic's commands with examples (default: an overview)")
    @app_commands.choices(topic=TOPIC_CHOICES)
    async def help(
        self, interaction: discord.Interaction, topic: app_commands.Choice[str] | None = None
    ) -> None:
        await interaction.response.send_message(
            embed=help_embed(topic.value if topic else None), ephemeral=True
        )


async def setup(bot: WireBot) -> None:
    await bot.add_cog(Help(bot))
