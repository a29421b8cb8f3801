"""/history: the campaign's recent rolls, newest first; hidden rolls only for the GMs."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from tests.commands.conftest import embed_of


async def check(world, actor, face: int, *, vs: int = 10, private: bool = False) -> None:
    world.dice.push(face)
    await actor.slash(world.channel, "check", attr=1, skill=1, vs=vs, private=private)


def lines_of(result) -> list[str]:
    return embed_of(result)["description"].splitlines()


async def test_empty_history(world):
    result = await world.bob.slash(world.channel, "history")
    assert embed_of(result)["description"] == "No rolls yet."


async def test_newest_first_and_count(world):
    for face in (3, 9, 17):
        await check(world, world.bob, face)
    result = await world.carol.slash(world.channel, "history")
    assert result.response.ephemeral  # private unless public:true
    lines = lines_of(result)
    assert len(lines) == 3
    assert [line.split("check: ")[1].split(" ")[0] for line in lines] == ["19", "11", "5"]
    assert "19 vs 10, 4 DoS" in lines[0]
    assert "5 vs 10, 2 DoF" in lines[2]
    two = lines_of(await world.carol.slash(world.channel, "history", count=2))
    assert two == lines[:2]


async def test_user_filter(world):
    await check(world, world.bob, 3)
    await check(world, world.carol, 17)
    result = await world.alice.slash(world.channel, "history", user=world.carol)
    embed = embed_of(result)
    assert embed["title"].endswith("by carol")
    (line,) = embed["description"].splitlines()
    assert f"<@{world.carol.id}>" in line and "19 vs 10" in line


async def test_hidden_rolls_only_for_the_gm_and_then_ephemeral(world):
    await check(world, world.bob, 3)
    await check(world, world.bob, 17, private=True)
    player = await world.carol.slash(world.channel, "history", public=True)
    assert not player.response.ephemeral
    lines = lines_of(player)
    assert len(lines) == 1 and "(hidden)" not in lines[0] and "5 vs 10" in lines[0]
    roller = await world.bob.slash(world.channel, "history")
    assert len(lines_of(roller)) == 1

    gm = await world.alice.slash(world.channel, "history")
    assert gm.response.ephemeral
    lines = lines_of(gm)
    assert len(lines) == 2
    assert "19 vs 10" in lines[0] and lines[0].endswith("(hidden)")
    assert all("19 vs 10" not in str(m.embeds) for m in world.channel.history(viewer=world.carol))


async def test_a_gm_posting_history_to_the_channel_shows_no_hidden_roll(world):
    await check(world, world.bob, 3)
    await check(world, world.bob, 17, private=True)
    posted = await world.alice.slash(world.channel, "history", public=True)
    assert not posted.response.ephemeral
    assert len(lines_of(posted)) == 1 and "19 vs 10" not in lines_of(posted)[0]


async def test_the_retention_job_takes_rolls_past_the_hosts_days_out_of_history(world, monkeypatch):
    for face in (3, 9, 17):
        await check(world, world.bob, face)
    job = world.bot.get_cog("RollRetention")
    assert await job.prune() == 0  # no WIRE_ROLL_LOG_DAYS: every roll is kept
    world.bot.config = replace(world.bot.config, roll_log_days=30)
    later = world.bot.now() + timedelta(days=29)
    monkeypatch.setattr(world.bot, "now", lambda: later)
    assert await job.prune() == 0  # 29 days old: kept
    assert len(lines_of(await world.carol.slash(world.channel, "history"))) == 3
    later += timedelta(days=2)
    assert await job.prune() == 3
    result = await world.carol.slash(world.channel, "history")
    assert embed_of(result)["description"] == "No rolls yet."
