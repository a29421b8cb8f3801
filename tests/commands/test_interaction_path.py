"""One path for every interaction: presses are answered, counted and logged like commands;
a waiting attack has its own state in /history; a crafting error says what it is."""

from __future__ import annotations

import logging
from datetime import timedelta

from storage.errors import Busy, PermissionDenied
from tests.commands.conftest import embed_of
from tests.commands.test_combat import make_jaime, make_ser_carol


def interaction_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "wire.interactions"]


async def test_a_refused_press_is_answered_and_logged_once_like_a_command(world, caplog):
    await make_jaime(world)
    await make_ser_carol(world)
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")
    caplog.clear()
    caplog.set_level(logging.INFO, logger="wire.interactions")
    refused = await world.bob.click(attack.response, label="Parry")
    assert refused.response.ephemeral
    [line] = interaction_lines(caplog)
    assert "command=wire:def:" in line
    assert "outcome=refused (PermissionDenied): Only Ser Carol's player or a GM" in line
    assert "time=?" not in line
    caplog.clear()
    world.dice.push(12)
    await world.carol.click(attack.response, label="Parry")
    [line] = interaction_lines(caplog)
    assert "outcome=ok" in line
    assert world.bot._in_flight == 0


async def test_a_press_is_counted_in_flight_until_it_is_answered(world, monkeypatch):
    """close() waits for in-flight work: a press must count, or the database could close
    under a defence."""
    await make_jaime(world)
    await make_ser_carol(world)
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")
    seen: list[int] = []
    combat = world.bot.get_cog("Combat")
    original = combat.resolve_defence

    async def watching(interaction, pending_id, defence):
        seen.append(world.bot._in_flight)
        await original(interaction, pending_id, defence)

    monkeypatch.setattr(combat, "resolve_defence", watching)
    world.dice.push(12)
    await world.carol.click(attack.response, label="Parry")
    assert seen == [1]
    assert world.bot._in_flight == 0


async def test_a_press_while_closing_is_refused_with_the_restart_note(world):
    await make_jaime(world)
    await make_ser_carol(world)
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")
    world.bot.closing = True
    try:
        refused = await world.carol.click(attack.response, label="Parry")
    finally:
        world.bot.closing = False
    assert refused.response.ephemeral
    assert "restarting" in refused.response.content
    assert attack.response.components  # nothing was done: the buttons still wait


async def test_history_tells_a_waiting_attack_then_its_defence(world, monkeypatch):
    await make_jaime(world)
    await make_ser_carol(world)
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")
    [line] = embed_of(await world.alice.slash(world.channel, "history"))["description"].splitlines()
    assert "attack on Ser Carol: total 23, waiting for the defence" in line
    world.dice.push(12)
    await world.carol.click(attack.response, label="Parry")
    lines = embed_of(await world.alice.slash(world.channel, "history"))["description"].splitlines()
    assert "defend: 17 vs 23" in lines[0]
    assert "attack on Ser Carol: total 23, settled by the defence roll" in lines[1]

    world.dice.push(15)
    await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")
    later = world.bot.now() + timedelta(minutes=16)
    monkeypatch.setattr(world.bot, "now", lambda: later)
    await world.bot.get_cog("Combat").sweep_expired()
    lines = embed_of(await world.alice.slash(world.channel, "history"))["description"].splitlines()
    assert "expired without a defence" in lines[0]


async def test_a_crafting_error_that_is_no_race_is_not_called_one(world, monkeypatch):
    await world.bob.slash(world.channel, "character create", name="Smith")
    await world.bob.slash(world.channel, "craft start", item="Sword")

    async def busy(*args, **kwargs):
        raise Busy("The campaign database is busy. Try again in a moment.")

    monkeypatch.setattr(world.bot.store, "apply_craft_roll", busy)
    result = await world.bob.slash(
        world.channel, "craft roll", item="Sword", vs=10, attr=1, skill=1
    )
    assert result.response.ephemeral
    assert result.response.content == "The campaign database is busy. Try again in a moment."

    async def denied(*args, **kwargs):
        raise PermissionDenied("You can only roll for your own crafting projects.")

    monkeypatch.setattr(world.bot.store, "apply_craft_roll", denied)
    result = await world.bob.slash(
        world.channel, "craft roll", item="Sword", vs=10, attr=1, skill=1
    )
    assert "landed first" not in result.response.content
    assert "your own crafting projects" in result.response.content
