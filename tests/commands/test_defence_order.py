"""Defence buttons when things go wrong: failed edits, stale and forged presses, two presses at
once, a deleted target, and the expiry sweep's failures and backlog."""

from __future__ import annotations

import logging
from datetime import timedelta

import discord
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType

from storage.errors import Busy
from storage.models import RollState
from tests.commands.at_once import without_waiting
from tests.commands.conftest import embed_of
from tests.commands.test_combat import make_jaime, make_ser_carol

SETTLED = "This attack was already resolved or has expired."


async def attack_carol(world, face: int = 15):
    world.dice.push(face)
    return await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")


def pending_id(attack) -> int:
    custom_id = attack.response.components[0]["components"][0]["custom_id"]
    return int(custom_id.split(":")[2])


def defence_lines(history) -> list[str]:
    return [line for line in embed_of(history)["description"].splitlines() if "defend:" in line]


async def later(world, monkeypatch, minutes: int = 16) -> None:
    moment = world.bot.now() + timedelta(minutes=minutes)
    monkeypatch.setattr(world.bot, "now", lambda: moment)


def combat(world):
    return world.bot.get_cog("Combat")


async def test_a_failed_edit_after_the_defence_leaves_no_buttons(world, caplog):
    await make_jaime(world)
    await make_ser_carol(world)
    attack = await attack_carol(world)
    # The answer to the press fails, as when Discord's 3 s have passed: the defence is logged
    # already, so the message must lose its buttons another way.
    world.env.inject_error(
        "POST", "/interactions/*/callback", status=404, code=10062, message="Unknown interaction"
    )
    world.dice.push(12)
    await world.carol.click(attack.response, label="Block")
    assert attack.response.components == []
    assert "5 base + 2 DoS = 7 damage" in embed_of(attack)["description"]
    assert "through its channel" in caplog.text
    history = await world.alice.slash(world.channel, "history")
    assert len(defence_lines(history)) == 1


async def test_a_press_on_a_settled_attack_is_refused_and_takes_the_buttons_away(world):
    await make_jaime(world)
    await make_ser_carol(world)
    attack = await attack_carol(world)
    # Settled elsewhere (another press whose message update was lost, say).
    settled = await world.bot.store.settle_pending(
        world.guild.id, pending_id(attack), RollState.DEFENDED
    )
    assert settled
    late = await world.carol.click(attack.response, label="Parry")
    assert attack.response.components == []
    assert [(f.content, f.ephemeral) for f in late.followups] == [(SETTLED, True)]
    history = await world.alice.slash(world.channel, "history")
    assert defence_lines(history) == []


async def forged_press(world, actor, message, custom_id: str):
    """A press of `custom_id` arriving from `message`, which does not carry that button: what a
    modified client could send. Built by hand, since simcord only presses buttons that exist."""
    backend = world.env.backend
    stored = backend.get_message(world.channel.id, message.id)
    payload = dict(serializers.message_payload(backend, stored))
    button = {"type": 2, "style": 1, "label": "Parry", "custom_id": custom_id}
    payload["components"] = [{"type": 1, "components": [button]}]
    return await actor._dispatch_interaction(
        InteractionType.MESSAGE_COMPONENT,
        world.channel,
        {"custom_id": custom_id, "component_type": ComponentType.BUTTON},
        extra={"message": payload},
        source_message_id=stored.id,
    )


async def test_a_press_whose_attack_belongs_to_another_message_is_refused(world):
    await make_jaime(world)
    await make_ser_carol(world)
    first = await attack_carol(world)
    second = await attack_carol(world)
    forged = await forged_press(
        world, world.carol, first.response, f"wire:def:{pending_id(second)}:parry"
    )
    assert forged.ephemeral
    assert forged.response.content == "This button does not belong to this attack."
    history = await world.alice.slash(world.channel, "history")
    assert defence_lines(history) == []
    for attack in (first, second):  # both still wait, buttons and all
        assert len(attack.response.components[0]["components"]) == 3
        assert "choose a defence!" in embed_of(attack)["description"]
    world.dice.push(10)
    done = await world.carol.click(second.response, label="Parry")
    assert "damage" in embed_of(done)["description"]


async def test_two_presses_at_once_resolve_the_attack_once(world):
    await make_jaime(world)
    await make_ser_carol(world)
    attack = await attack_carol(world)
    world.dice.push(10, 11)
    player = await without_waiting(
        world.env, lambda: world.carol.click(attack.response, label="Parry")
    )
    gm = await world.alice.click(attack.response, label="Dodge")
    history = await world.alice.slash(world.channel, "history")
    assert len(defence_lines(history)) == 1
    assert attack.response.components == []
    assert "damage" in embed_of(attack)["description"]
    # Both presses read the attack and rolled; the database let one of them settle it.
    notes = [f.content for press in (player, gm) for f in press.followups]
    assert notes == ["This attack was already resolved."]


async def test_a_press_for_a_deleted_target_closes_the_attack(world):
    await make_jaime(world)
    await make_ser_carol(world)
    attack = await attack_carol(world)
    waiting = pending_id(attack)
    campaign = await world.bot.store.campaign_for_channel(
        world.guild.id, world.channel.id, world.alice.id
    )
    await world.bot.store.delete_character(world.guild.id, campaign.id, world.carol.id, "Ser Carol")
    press = await world.alice.click(attack.response, label="Parry")
    assert attack.response.components == []
    embed = embed_of(attack)
    assert "(expired)" in embed["title"]
    assert "Ser Carol no longer exists" in embed["description"]
    assert [f.ephemeral for f in press.followups] == [True]
    assert "no longer exists" in press.followups[0].content
    assert await world.bot.store.get_pending(world.guild.id, waiting) is None


# ---- the expiry sweep ----------------------------------------------------------------------


async def test_one_sweep_closes_every_expired_attack(world, monkeypatch):
    await make_jaime(world)
    await make_ser_carol(world)
    attacks = [await attack_carol(world) for _ in range(60)]
    await later(world, monkeypatch)
    assert await combat(world).sweep_expired() == 60
    assert await world.bot.store.expired_pending(world.bot.now(), 100) == []
    for attack in attacks:
        assert attack.response.components == []
        assert "(expired)" in embed_of(attack)["title"]


async def test_the_sweep_goes_on_after_an_edit_fails_with_an_unexpected_error(
    world, monkeypatch, caplog
):
    await make_jaime(world)
    await make_ser_carol(world)
    broken, fine = await attack_carol(world), await attack_carol(world)
    edit = discord.PartialMessage.edit
    calls = []

    async def edit_failing_once(self, **fields):
        calls.append(self.id)
        if len(calls) == 1:
            raise RuntimeError("not a network error")
        return await edit(self, **fields)

    monkeypatch.setattr(discord.PartialMessage, "edit", edit_failing_once)
    await later(world, monkeypatch)
    await combat(world).expire_attacks()  # the tasks.loop body: it must not raise
    assert calls == [broken.response.id, fine.response.id]
    assert await world.bot.store.expired_pending(world.bot.now(), 100) == []
    assert fine.response.components == []
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == [
        f"Expiry sweep: attack {pending_id(broken)} closed, its message not"
    ]
    caplog.clear()
    # The message that kept its buttons loses them at the next press.
    late = await world.carol.click(broken.response, label="Parry")
    assert broken.response.components == []
    assert [f.content for f in late.followups] == [SETTLED]


async def test_the_sweep_goes_on_after_the_database_is_busy(world, monkeypatch, caplog):
    await make_jaime(world)
    await make_ser_carol(world)
    first, second = await attack_carol(world), await attack_carol(world)
    store = world.bot.store
    settle, read = store.settle_pending, store.expired_pending
    busy = {"settle": 1, "read": 0}

    async def settle_busy_once(*args, **kwargs):
        if busy["settle"]:
            busy["settle"] -= 1
            raise Busy("The campaign database is busy. Try again in a moment.")
        return await settle(*args, **kwargs)

    async def read_busy_once(*args, **kwargs):
        if busy["read"]:
            busy["read"] -= 1
            raise Busy("The campaign database is busy. Try again in a moment.")
        return await read(*args, **kwargs)

    monkeypatch.setattr(store, "settle_pending", settle_busy_once)
    monkeypatch.setattr(store, "expired_pending", read_busy_once)
    await later(world, monkeypatch)
    sweep = combat(world)
    assert await sweep.sweep_expired() == 1  # the first was busy, the second closed
    assert second.response.components == []
    assert len(first.response.components[0]["components"]) == 3
    busy["read"] = 1
    assert await sweep.sweep_expired() == 0  # cannot even read: tries again next time
    assert await sweep.sweep_expired() == 1
    assert first.response.components == []
    assert await store.expired_pending(world.bot.now(), 100) == []
    assert "database is busy" in caplog.text
