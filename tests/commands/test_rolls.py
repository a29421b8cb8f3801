"""/check, /attack with raw numbers, /defend and /contest, as a player sees them in Discord."""

from __future__ import annotations

import aiosqlite

from tests.commands.conftest import embed_of, field, raw_slash

GREEN, RED = 0x2ECC71, 0xE74C3C


async def logged_rolls(world) -> list[tuple]:
    async with aiosqlite.connect(world.db_path) as db:
        cursor = await db.execute(
            "SELECT kind, die, die_source, total, target, degrees, raw_degrees, damage, hidden "
            "FROM roll_log ORDER BY id"
        )
        return list(await cursor.fetchall())


async def test_attack_from_the_rules_text(world):
    """/attack str:3 skill:5 base:5 vs:13 with a 15: 23 against 13, 5 DoS and 10 damage."""
    world.dice.push(15)
    result = await world.bob.slash(world.channel, "attack", str=3, skill=5, base=5, vs=13)
    embed = embed_of(result)
    assert not result.response.ephemeral
    assert embed["color"] == GREEN
    assert "Hit: 5 DoS" in embed["description"]
    assert "5 base + 5 DoS = 10 damage" in embed["description"]
    assert field(embed, "Die") == "15"
    assert field(embed, "Total") == "**23** vs defence 13"
    assert "80% to hit" in embed["footer"]["text"]
    assert await logged_rolls(world) == [("attack", 15, "rolled", 23, 13, 5, 5, 10, 0)]


async def test_check_success_and_failure_colours_and_degrees(world):
    world.dice.push(12, 2)
    hit = embed_of(await world.bob.slash(world.channel, "check", attr=2, skill=3, vs=13))
    assert hit["color"] == GREEN and "Success: 2 DoS" in hit["description"]
    miss = embed_of(await world.bob.slash(world.channel, "check", attr=2, skill=3, vs=13))
    assert miss["color"] == RED and "Failure: 3 DoF" in miss["description"]


async def test_check_meeting_the_target_is_success_with_0_dos(world):
    embed = embed_of(
        await world.bob.slash(world.channel, "check", attr=1, skill=2, vs=13, take10=True)
    )
    assert "Success: 0 DoS" in embed["description"]
    assert field(embed, "Die") == "take 10"


async def test_cap_is_shown_with_the_raw_figure(world):
    embed = embed_of(
        await world.bob.slash(world.channel, "check", attr=10, skill=10, vs=10, roll=20)
    )
    assert "Success: 5 DoS (capped from 15)" in embed["description"]
    assert field(embed, "Die") == "20 (rolled at the table)"


async def test_defend_shows_how_much_gets_through(world):
    """The goblin parries with 3 DoS: only 2 of the 5 base damage get through."""
    world.dice.push(16)
    embed = embed_of(await world.bob.slash(world.channel, "defend", str=1, skill=2, base=5, vs=13))
    assert embed["color"] == GREEN
    assert "Defended: 3 DoS, 2 of 5 damage gets through" in embed["description"]
    assert "5 base - 3 DoS = 2 damage" in embed["description"]


async def test_roll_and_take10_together_is_refused(world):
    result = await world.bob.slash(
        world.channel, "check", attr=1, skill=1, vs=10, roll=5, take10=True
    )
    assert result.response.ephemeral
    assert "not both" in result.response.content
    assert await logged_rolls(world) == []


async def test_out_of_range_values_are_refused_by_the_bot(world):
    """discord.py does not enforce min/max on what arrives; the bot checks the same ranges."""
    result = await raw_slash(world.bob, world.channel, "check", attr=3, skill=55, vs=13)
    assert result.response.ephemeral
    assert "between 0 and 10" in result.response.content
    result = await raw_slash(world.bob, world.channel, "check", attr=3, skill=5, vs=13, roll=21)
    assert "between 1 and 20" in result.response.content
    assert await logged_rolls(world) == []


async def test_attack_without_numbers_or_weapon_names_what_is_missing(world):
    result = await world.bob.slash(world.channel, "attack", str=3, vs=13)
    assert result.response.ephemeral
    assert "Missing skill, base" in result.response.content


async def test_sheet_check_without_a_character_says_how_to_make_one(world):
    result = await world.bob.slash(world.channel, "check", attr_name="Strength", skill=2, vs=10)
    assert result.response.ephemeral
    assert "/character create" in result.response.content


async def test_contest_shows_both_totals_and_the_winner(world):
    world.dice.push(14, 6)
    embed = embed_of(
        await world.bob.slash(
            world.channel,
            "contest",
            attr=2,
            skill=4,
            opp_attr=1,
            opp_skill=3,
            label="Stealth vs Perception",
        )
    )
    assert embed["title"].startswith("Stealth vs Perception")
    values = [f["value"] for f in embed["fields"]]
    assert values == ["d20 14 + 2 Attribute + 4 Skill = 20", "d20 6 + 1 Attribute + 3 Skill = 10"]
    assert "wins with 5 DoS" in embed["description"]


async def test_hidden_roll_roller_sees_it_channel_sees_a_line(world):
    world.dice.push(15)
    result = await world.bob.slash(
        world.channel, "attack", str=3, skill=5, base=5, vs=13, private=True
    )
    assert result.response.ephemeral
    assert "10 damage" in embed_of(result)["description"]
    public = [m for m in world.channel.history() if not m.embeds]
    assert any("hidden attack" in m.content for m in public)
    assert all("10 damage" not in str(m.embeds) for m in world.channel.history(viewer=world.carol))
    rows = await logged_rolls(world)
    assert rows[-1][-1] == 1  # logged as hidden


async def test_every_roll_is_logged_before_the_answer_once(world):
    for face in (3, 9, 17):
        world.dice.push(face)
        await world.bob.slash(world.channel, "check", attr=1, skill=1, vs=10)
    assert [row[1] for row in await logged_rolls(world)] == [3, 9, 17]


async def test_a_skill_missing_from_the_sheet_is_untrained_everywhere(world):
    """WIRE skills go 0 to 10; an untrained skill is 0 in checks, contests, defences and
    weapons alike, and the reply says it is not on the sheet."""
    await world.bob.slash(world.channel, "character create", name="Cora")
    await world.bob.slash(world.channel, "character set", attribute="Wits", value=2)
    world.dice.push(10)
    result = await world.bob.slash(
        world.channel, "check", vs=10, attr_name="Wits", skill_name="Perception"
    )
    assert not result.response.ephemeral
    embed = embed_of(result)
    assert field(embed, "Modifiers") == "Wits +2, Perception (not on the sheet) +0"
    assert field(embed, "Total") == "**12** vs TN 10"
    world.dice.push(10, 10)
    contest = embed_of(
        await world.bob.slash(world.channel, "contest", attr_name="Wits", skill_name="Stealth",
                              opp_attr=1, opp_skill=1)
    )  # fmt: skip
    assert "Stealth (not on the sheet)" in str(contest)
