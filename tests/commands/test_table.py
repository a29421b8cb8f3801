"""/roll (free dice expressions) and /odds (the chances before acting), as the table sees them."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import aiosqlite

from cogs.utils.odds_chart import exact_percent
from tests.commands.conftest import embed_of, field, raw_slash
from wire.odds import DamageRole, compute_odds

EXAMPLE = "Try `2d6+3`"


async def logged(world) -> list[tuple]:
    async with aiosqlite.connect(world.db_path) as db:
        cursor = await db.execute(
            "SELECT kind, die, die_source, total, target, success, degrees, hidden, inputs "
            "FROM roll_log ORDER BY id"
        )
        return [(*row[:-1], json.loads(row[-1])) for row in await cursor.fetchall()]


# ---- /roll -----------------------------------------------------------------------------------


async def test_roll_shows_each_die_the_dropped_one_struck_and_logs_it(world):
    world.dice.push(1, 4, 5, 6)
    result = await world.bob.slash(world.channel, "roll", expression="4d6kh3+3")
    assert not result.response.ephemeral
    embed = embed_of(result)
    assert embed["title"] == "bob: Roll"
    assert embed["description"] == "4d6kh3 (~~1~~, 4, 5, 6) + 3 = **18**"
    assert await logged(world) == [
        (
            "roll",
            0,
            "expression",
            18,
            None,
            0,
            0,
            0,
            {"expression": "4d6kh3+3", "dice": "4d6kh3 (~~1~~, 4, 5, 6) + 3 = 18"},
        )
    ]


async def test_roll_as_the_active_character_with_a_label(world):
    await world.bob.slash(world.channel, "character create", name="Jaime")
    world.dice.push(73)
    result = await world.bob.slash(
        world.channel, "roll", expression=" D100 ", label="Random encounter"
    )
    embed = embed_of(result)
    assert embed["title"] == "Jaime: Random encounter"
    assert embed["description"] == "1d100 (73) = **73**"
    (row,) = await logged(world)
    assert row[-1] == {"expression": "d100", "label": "Random encounter", "dice": "1d100 (73) = 73"}


async def test_rerolls_explosions_and_sets(world):
    world.dice.push(1, 5, 4, 6, 6, 2, 3, 8)
    reroll = embed_of(await world.bob.slash(world.channel, "roll", expression="2d6rr1"))
    # The first die's 1 is rerolled into a 4, shown beside it: then the second die's 5.
    assert reroll["description"] == "2d6rr1 (~~1~~, 4, 5) = **9**"
    explode = embed_of(await world.bob.slash(world.channel, "roll", expression="1d6e6"))
    assert explode["description"] == "1d6e6 (6!, 6!, 2) = **14**"
    best = embed_of(await world.bob.slash(world.channel, "roll", expression="(1d6, 1d8)kh1"))
    assert best["description"] == "(~~1d6 (3)~~, 1d8 (8))kh1 = **8**"


async def test_user_text_in_a_roll_is_inert(world):
    world.dice.push(4)
    result = await world.bob.slash(
        world.channel,
        "roll",
        expression="1d6[**fire** <@1> @everyone]*2",
        label="[Free Nitro](https://example.com)",
    )
    embed = embed_of(result)
    assert embed["title"] == r"bob: \[Free Nitro](https://example.com)"
    assert embed["description"].startswith(r"1d6 (4) \[\*\*fire\*\* \<@1> @")
    assert "@everyone" not in embed["description"]  # a zero-width space breaks the mention
    assert embed["description"].endswith(r"] \* 2 = **8**")


async def test_hidden_roll_reaches_only_the_roller_and_the_gms(world):
    world.dice.push(2, 3)
    result = await world.bob.slash(world.channel, "roll", expression="2d4", private=True)
    assert result.response.ephemeral
    assert embed_of(result)["description"] == "2d4 (2, 3) = **5**"
    public = world.channel.history()
    assert [m.content for m in public] == ["🎲 bob made a hidden roll. The GMs have the result."]
    (dm,) = world.alice.user.dm_channel.history()
    assert dm.embeds[0].to_dict()["description"] == "2d4 (2, 3) = **5**"
    assert [row[7] for row in await logged(world)] == [1]


async def test_history_shows_a_roll_by_its_expression_and_total(world):
    world.dice.push(1, 4, 5, 6)
    await world.bob.slash(world.channel, "roll", expression="4d6kh3+3", label="Stats")
    world.dice.push(15)
    await world.bob.slash(world.channel, "check", attr=1, skill=1, vs=10)
    lines = embed_of(await world.carol.slash(world.channel, "history"))["description"]
    newest, oldest = lines.splitlines()
    assert oldest.endswith(f"**<@{world.bob.id}>** roll `4d6kh3+3`: 18")
    assert "DoS" not in oldest and "DoF" not in oldest
    assert "check: 17 vs 10, 3 DoS" in newest


async def test_unscripted_rolls_come_from_the_bots_generator(world):
    """Nothing rolls from the random module's own generator: the bot's rng is the only source."""
    world.dice.push(*([3] * 100))
    result = await world.bob.slash(world.channel, "roll", expression="100d6")
    assert embed_of(result)["description"].endswith("= **300**")
    assert not world.dice.script


async def refused(world, expression: str) -> str:
    result = await raw_slash(world.bob, world.channel, "roll", expression=expression)
    assert result.response.ephemeral
    assert not result.response.embeds
    return result.response.content


async def test_bad_expressions_are_refused_naming_the_problem_with_an_example(world):
    cases = {
        "fireball": "`fireball` is not a dice expression: unexpected `fireball` at character 1.",
        "2d6+": "`2d6+` is not a dice expression: it ends too early.",
        "101d6": "That is 101 dice; at most 100 can be rolled at once.",
        "50d6+51d4": "That is 101 dice",
        "1d1001": "A die has 1 to 1000 sides, not 1001.",
        "1d0": "A die has 1 to 1000 sides, not 0.",
        "d%": "roll `d100` for a percentage",
        "1d1e1": "Rerolls and explosions went past 100 dice",
        "1/0": "`1/0` cannot be rolled: Cannot divide by zero.",
        "9" * 20: "The total is too large to show",
    }
    for expression, says in cases.items():
        message = await refused(world, expression)
        assert says in message, (expression, message)
        assert EXAMPLE in message
    assert await logged(world) == []


async def test_overlong_and_invisible_text_is_refused_before_parsing(world):
    long = await refused(world, "1d6+" * 30)
    assert "expression" in long and "the limit is 100" in long
    hidden = await refused(world, "1d6\u202e+2")
    assert "direction-changing" in hidden
    assert await logged(world) == []


# ---- /odds -----------------------------------------------------------------------------------


def chart_rows(value: str) -> dict[str, str]:
    """A chart field's lines as {label: percentage}, checking each line has a bar."""
    assert value.startswith("```\n") and value.endswith("\n```")
    rows = {}
    for line in value[4:-4].splitlines():
        match = re.fullmatch(r" *(\d+ (?:DoS|DoF|damage)) +([█▏▎▍▌▋▊▉]+░*) +([\d.]+%)", line)
        assert match, line
        rows[match[1]] = match[3]
    return rows


def expected_outcomes(odds) -> dict[str, str]:
    return {
        f"{o.degrees} {'DoS' if o.success else 'DoF'}": exact_percent(p)
        for o, p in odds.outcomes.items()
    }


async def test_jaimes_attack_odds_match_the_rules_example(world):
    """The rules' example: Jaime (+8) against the goblin's take-10 13 hits 80% of the time."""
    result = await world.bob.slash(world.channel, "odds attack", str=3, skill=5, base=5, vs=13)
    assert result.response.ephemeral
    embed = embed_of(result)
    assert embed["title"] == "Odds for bob: Attack"
    assert embed["description"].splitlines() == [
        "**80% to hit**",
        "d20 + 3 Strength + 5 Skill against the defender's 13",
    ]
    outcomes = chart_rows(field(embed, "Each result"))
    assert list(outcomes.items()) == [
        ("5 DoS", "30%"),
        ("4 DoS", "10%"),
        ("3 DoS", "10%"),
        ("2 DoS", "10%"),
        ("1 DoS", "10%"),
        ("0 DoS", "10%"),
        ("0 DoF", "5%"),
        ("1 DoF", "10%"),
        ("2 DoF", "5%"),
    ]
    core = compute_odds(8 - 13, base=5, role=DamageRole.ATTACKER)
    assert outcomes == expected_outcomes(core)
    damage_field = next(f for f in embed["fields"] if f["name"].startswith("Damage"))
    assert damage_field["name"] == "Damage that gets through (base 5; 7.30 on average)"
    damage = chart_rows(damage_field["value"])
    assert damage == {f"{d} damage": exact_percent(p) for d, p in core.damage.items()}
    assert list(damage) == [f"{d} damage" for d in range(10, 2, -1)]
    assert damage["5 damage"] == "15%"
    assert "20 equally likely rolls" in embed["footer"]["text"]


async def test_bars_are_scaled_to_the_likeliest_result(world):
    result = await world.bob.slash(world.channel, "odds check", attr=3, skill=5, vs=13)
    lines = field(embed_of(result), "Each result")[4:-4].splitlines()
    bars = {line.split()[0] + " " + line.split()[1]: line.split()[2] for line in lines}
    assert bars["5 DoS"] == "█" * 16  # 30%, the likeliest
    assert bars["1 DoS"] == "█████▍░░░░░░░░░░"  # 10% is a third of it: 5 and 3/8 cells
    assert bars["2 DoF"] == "██▋░░░░░░░░░░░░░"  # 5%
    assert "**80% to succeed**" in embed_of(result)["description"]


async def test_both_sides_rolling_gives_exact_odds_over_400_pairs(world):
    """Jaime (+8) against the goblin (+3) rolling its parry: 295 of 400 pairs hit, 73.75%."""
    result = await world.bob.slash(
        world.channel, "odds attack", str=3, skill=5, base=5, opp_bonus=3, public=True
    )
    assert not result.response.ephemeral
    embed = embed_of(result)
    assert embed["description"].splitlines() == [
        "**73.75% to hit**",
        "d20 + 3 Strength + 5 Skill against the defender's d20 + 3 (both roll)",
    ]
    core = compute_odds(5, both_roll=True, base=5, role=DamageRole.ATTACKER)
    assert core.chance == Fraction(295, 400)
    assert chart_rows(field(embed, "Each result")) == expected_outcomes(core)
    damage_field = next(f for f in embed["fields"] if f["name"].startswith("Damage"))
    damage = chart_rows(damage_field["value"])
    assert damage["0 damage"] == "3.75%"  # 15 pairs of 400 (docs/rules.md)
    assert damage["10 damage"] == "30%"  # 120 pairs
    assert "400 equally likely pairs" in embed["footer"]["text"]


async def test_defence_odds_the_goblin_against_23_never_defends(world):
    result = await world.bob.slash(world.channel, "odds defend", str=1, skill=2, base=5, vs=23)
    embed = embed_of(result)
    assert embed["title"] == "Odds for bob: Defence"
    assert embed["description"].startswith("**0% to defend**")
    assert set(chart_rows(field(embed, "Each result"))) <= {f"{d} DoF" for d in range(6)}
    damage_field = next(f for f in embed["fields"] if f["name"].startswith("Damage"))
    assert chart_rows(damage_field["value"])["10 damage"] == "50%"  # faces 1-10


async def test_contest_odds_equal_bonuses(world):
    result = await world.bob.slash(
        world.channel, "odds contest", attr=2, skill=3, opp_attr=1, opp_skill=4
    )
    embed = embed_of(result)
    assert embed["description"].startswith("**52.5% to win**")
    assert len(embed["fields"]) == 1  # no damage outside combat


async def test_odds_from_the_sheet(world):
    bob, channel = world.bob, world.channel
    await bob.slash(channel, "character create", name="Jaime")
    await bob.slash(channel, "character set", attribute="Strength", value=3)
    await bob.slash(channel, "character set", skill="Long swords", value=5)
    await bob.slash(
        channel,
        "character weapon",
        weapon="Long sword",
        base=5,
        attribute="Strength",
        skill="Long swords",
    )
    embed = embed_of(await bob.slash(channel, "odds attack", weapon="Long sword", vs=13))
    assert embed["title"] == "Odds for Jaime: Attack with Long sword"
    assert embed["description"].startswith("**80% to hit**\nd20 + 3 Strength + 5 Long swords")
    check = embed_of(
        await bob.slash(channel, "odds check", attr_name="strength", skill_name="long swords", vs=9)
    )
    assert check["description"].startswith("**100% to succeed**")


async def test_odds_roll_and_log_nothing(world):
    await world.bob.slash(world.channel, "odds check", attr=3, skill=5, vs=13)
    await world.bob.slash(world.channel, "odds attack", str=3, skill=5, base=5, vs=13)
    assert await logged(world) == []
    assert world.channel.history() == []


async def test_odds_refuse_unclear_or_out_of_range_input(world):
    both = await world.bob.slash(
        world.channel, "odds attack", str=3, skill=5, base=5, vs=13, opp_bonus=3
    )
    assert both.response.ephemeral and "opp_bonus" in both.response.content
    neither = await world.bob.slash(world.channel, "odds defend", str=3, skill=5, base=5)
    assert neither.response.ephemeral and "vs" in neither.response.content
    missing = await world.bob.slash(world.channel, "odds attack", str=3, vs=13)
    assert "Missing skill, base" in missing.response.content
    wild = await raw_slash(
        world.bob, world.channel, "odds attack", str=3, skill=5, base=5, opp_bonus=500
    )
    assert wild.response.ephemeral and "between -60 and 90" in wild.response.content
    far = await raw_slash(world.bob, world.channel, "odds check", attr=3, skill=5, vs=1000)
    assert far.response.ephemeral and "between -60 and 150" in far.response.content
