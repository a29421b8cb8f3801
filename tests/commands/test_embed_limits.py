"""Every embed the bot builds stays within Discord's limits with the longest names allowed."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import discord

from cogs.help import help_embed
from cogs.history import history_line
from cogs.sheet import sheet_embed
from cogs.utils import dice_expression
from cogs.utils.embeds import (
    check_embed,
    combat_embed,
    contest_embed,
    craft_embed,
    free_roll_embed,
)
from cogs.utils.odds_chart import odds_embed, side_text
from cogs.utils.text import inert
from storage.models import RollRecord
from tests.discord_rules import EMBED_DESCRIPTION_MAX, embed_length, embed_problems
from wire.check import Modifier, Roll, resolve_check
from wire.combat import Defence, resolve_attack, resolve_defence
from wire.contest import resolve_contest
from wire.crafting import resolve_craft
from wire.dice import Die, DieSource
from wire.limits import MAX_ATTRIBUTES, MAX_SKILLS, MAX_WEAPONS, NAME_MAX, NOTES_MAX
from wire.odds import DamageRole, compute_odds
from wire.sheet import Character, Weapon


def long(prefix: str, index: int = 0) -> str:
    stem = f"{prefix} {index:02d} "
    return (stem + "x" * NAME_MAX)[:NAME_MAX]


WHO = long("Character")
MODS = (Modifier(long("Attribute"), 30), Modifier(long("Skill"), 10), Modifier("Modifier", -10))
DIE = Die(20, DieSource.ROLLED)


def assert_fits(embed: discord.Embed) -> None:
    data = embed.to_dict()
    assert embed_problems(data) == []
    assert embed_length(data) <= 6000
    for item in data.get("fields", []):
        assert item["name"].strip() and item["value"].strip()


def fullest_character() -> Character:
    return Character(
        id=1,
        campaign_id=1,
        name=WHO,
        owner_id=123456789012345678,
        attributes={long("Attribute", i): -10 for i in range(MAX_ATTRIBUTES)},
        skills={long("Skill", i): 10 for i in range(MAX_SKILLS)},
        weapons=tuple(
            Weapon(long("Weapon", i), 50, long("Attribute", i), long("Skill", i))
            for i in range(MAX_WEAPONS)
        ),
        shield=True,
        notes="n" * NOTES_MAX,
    )


def test_the_fullest_sheet_fits():
    embed = sheet_embed(fullest_character(), active=True)
    assert_fits(embed)
    data = embed.to_dict()
    assert data["title"] == f"{WHO} (active)"
    notes = next(f["value"] for f in data["fields"] if f["name"] == "Notes")
    assert notes == "n" * NOTES_MAX  # the notes limit fits a field whole


def test_check_and_craft_embeds_with_longest_names_fit():
    result = resolve_check(MODS, 30, DIE)
    assert_fits(check_embed(WHO, result, label=long("Skill")))
    craft = resolve_craft(MODS, 30, DIE, 1000)
    assert_fits(craft_embed(WHO, long("Item"), craft))


def test_combat_embeds_with_longest_names_fit():
    opponent = Roll(Die(10, DieSource.TAKE10), MODS)
    attack = resolve_attack(MODS, 50, DIE, defender=opponent, defence=Defence.PARRY)
    assert_fits(combat_embed(WHO, attack, weapon=long("Weapon"), opponent=long("Goblin")))
    defend = resolve_defence(MODS, 50, DIE, attacker=opponent, defence=Defence.BLOCK)
    assert_fits(combat_embed(WHO, defend, weapon=long("Weapon"), opponent=long("Ogre")))
    plain = resolve_attack(MODS, 50, DIE, vs=40)
    assert_fits(combat_embed(WHO, plain))


def test_contest_embed_with_longest_labels_fits():
    active = Roll(DIE, MODS)
    passive = Roll(Die(1, DieSource.TABLE), MODS)
    result = resolve_contest(active, passive)
    label = long("Stealth") + " vs " + long("Perception")
    assert_fits(contest_embed(label, long("Opponent"), result))


def test_history_lines_of_25_longest_rolls_fit_a_description():
    record = RollRecord(
        guild_id=1,
        campaign_id=1,
        channel_id=1,
        user_id=123456789012345678,
        kind="attack",
        inputs={},
        die=20,
        die_source="take10",
        total=75,
        target=60,
        success=False,
        degrees=5,
        raw_degrees=10,
        damage=55,
        hidden=True,
        character_name=WHO,
        created_at=datetime(2026, 11, 30, tzinfo=UTC),
    )
    line = history_line(record)
    assert "capped from 10" in line and "(hidden)" in line and "took 10" in line
    assert 25 * (len(line) + 1) <= EMBED_DESCRIPTION_MAX
    embed = discord.Embed(title="Recent rolls", description="\n".join([line] * 25))
    assert_fits(embed)


class HighestFaces(random.Random):
    """Every die shows its highest face: the longest numbers a roll can show."""

    def randint(self, a: int, b: int) -> int:
        return b


def test_the_longest_free_roll_fits():
    expression = "100d1000[" + "<" * 90 + "]"
    assert len(expression) == dice_expression.EXPRESSION_MAX
    rolled = dice_expression.roll(expression, HighestFaces())
    assert rolled.total == 100_000 and rolled.dice == dice_expression.MAX_DICE
    assert_fits(free_roll_embed(WHO, rolled.shown, "*" * NAME_MAX))


def test_odds_embeds_with_longest_names_fit():
    matchup = f"{side_text(MODS)} against the defender's {side_text(MODS)} (both roll)"
    for role in DamageRole:
        odds = compute_odds(0, both_roll=True, wins_ties=False, base=50, role=role)
        embed = odds_embed(
            f"Odds for {inert(WHO)}: Attack with {inert(long('Weapon'))}",
            odds,
            goal="to hit",
            matchup=matchup,
            base=50,
        )
        assert_fits(embed)
        assert len(embed.fields) == 2


def test_history_lines_of_25_longest_free_rolls_fit_a_description():
    record = RollRecord(
        guild_id=1,
        campaign_id=1,
        channel_id=1,
        user_id=123456789012345678,
        kind="roll",
        inputs={"expression": "9" * 9 + "+1d6" * 22 + "[x]", "label": long("Label")},
        die=0,
        die_source="expression",
        total=-(10**9),
        target=None,
        success=False,
        degrees=0,
        raw_degrees=0,
        hidden=True,
        character_name=WHO,
        created_at=datetime(2026, 11, 30, tzinfo=UTC),
    )
    line = history_line(record)
    assert "(hidden)" in line and "DoF" not in line
    assert 25 * (len(line) + 1) <= EMBED_DESCRIPTION_MAX
    assert_fits(discord.Embed(title="Recent rolls", description="\n".join([line] * 25)))


def test_help_fits():
    assert_fits(help_embed())
