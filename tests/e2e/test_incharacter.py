"""In character through the real bot.py: a scene in a channel and a thread, with portraits.

Three speakers (Aria and Bram are players, the GM speaks as two NPCs, one named Discordia)
post through the channel's webhook, which the stand-in keeps as Discord does
(tests/e2e/fakecord/webhooks.py): made on first use, executed with ``wait=true`` and
``thread_id``, rate limited (5 a webhook per 2 s: a burst waits its turn, none lost, none
doubled, in order), deleted under the bot (404: made again) and found again after a restart.
Then "Who wrote this", an edit, a delete, and a channel without Manage Webhooks (the embed form,
and the GM told once by direct message); the answers in English and in German.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from .conftest import LaunchBot
from .standin import (
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    DEFAULT_CHANNEL_ID,
    DEFAULT_GM_CHANNEL_ID,
    DEFAULT_GUILD_ID,
    DEFAULT_USER_ID,
    MANAGER_PERMISSIONS,
    Callback,
    ChannelSpec,
    Fakecord,
    GuildSpec,
    MessageEvent,
)
from .test_wirebot import assert_healthy, start_wire, stop_wire

pytestmark = pytest.mark.e2e

GM = DEFAULT_USER_ID
ARIA = DEFAULT_USER_ID + 1
BRAM = DEFAULT_USER_ID + 2
PLAY = DEFAULT_CHANNEL_ID
THREAD = DEFAULT_CHANNEL_ID + 10
QUIET = DEFAULT_CHANNEL_ID + 20
ART = "https://www.worldanvil.com/uploads/images/aria.png"
GOBLIN_ART = "https://img.example.org/goblin.webp"
WAIT = 10.0
SCENE_GUILDS = [
    GuildSpec(
        id=DEFAULT_GUILD_ID,
        name="Fakecord Test Guild",
        channels=[
            ChannelSpec(PLAY, "general"),
            ChannelSpec(DEFAULT_GM_CHANNEL_ID, "gm"),
            ChannelSpec(THREAD, "the-gate", type=11, parent_id=PLAY),
            ChannelSpec(QUIET, "quiet"),
        ],
    )
]


class Scene:
    def __init__(self, standin: Fakecord) -> None:
        self.standin = standin

    def _perms(self, by: int) -> dict[str, Any]:
        return {"permissions": MANAGER_PERMISSIONS} if by == GM else {}

    async def command(
        self,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        by: int,
        sub: str | None = None,
        channel: int = PLAY,
        locale: str = "en-US",
    ) -> Callback:
        payload = self.standin.command_interaction(
            name,
            options or {},
            subcommand=sub,
            user_id=by,
            channel_id=channel,
            locale=locale,
            **self._perms(by),
        )
        return await self.standin.send_interaction(payload, timeout=WAIT)

    async def answer(self, cb: Callback) -> str:
        """What an interaction said: its message, or (deferred) its first follow-up."""
        if cb.type != CALLBACK_DEFERRED_CHANNEL_MESSAGE:
            return cb.content or ""
        assert cb.ephemeral, cb.data
        event = await self.standin.wait_message_event(
            "followup", predicate=lambda e: e.token == cb.token, timeout=WAIT
        )
        return event.content or ""

    async def say(self, text: str, *, by: int, channel: int = PLAY, **options: Any) -> str:
        cb = await self.command("say", {"text": text, **options}, by=by, channel=channel)
        return await self.answer(cb)

    async def menu(self, name: str, message: Any, *, by: int, locale: str = "en-US") -> Callback:
        payload = self.standin.message_command_interaction(
            name, message, user_id=by, locale=locale, **self._perms(by)
        )
        return await self.standin.send_interaction(payload, timeout=WAIT)

    def posts(self, channel: int = PLAY) -> list[MessageEvent]:
        return [
            e
            for e in self.standin.message_events
            if e.kind == "webhook_post" and e.channel_id == channel
        ]

    def requests(self, kind: str) -> list:
        return [r for r in self.standin.requests if r.kind == kind]


@pytest.mark.parametrize("standin", [{"guilds": SCENE_GUILDS}], indirect=True)
async def test_a_scene_in_character(standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path):
    db = tmp_path / "wire.db"
    bot = await start_wire(standin, launch_bot, db)
    scene = Scene(standin)
    standin.deny_manage_webhooks.add(QUIET)

    # ---- sheets and portraits
    await scene.command("character", {"name": "Aria"}, by=ARIA, sub="create")
    await scene.command("character", {"name": "Bram"}, by=BRAM, sub="create")
    for npc in ("Goblin", "Discordia"):
        await scene.command("character", {"name": npc, "npc": True}, by=GM, sub="create")
    cb = await scene.command("character", {"url": "http://x.org/a.png"}, by=ARIA, sub="portrait")
    assert cb.ephemeral and "is not an https link" in cb.content
    cb = await scene.command(
        "character",
        {"url": "https://cdn.discordapp.com/attachments/1/2/a.png"},
        by=ARIA,
        sub="portrait",
        locale="de",
    )
    assert cb.ephemeral and "verfällt nach etwa einem Tag" in cb.content
    cb = await scene.command("character", {"url": ART}, by=ARIA, sub="portrait")
    assert "portrait is set" in cb.content
    await scene.command("character", {"url": GOBLIN_ART, "name": "Goblin"}, by=GM, sub="portrait")
    cb = await scene.command("character", {}, by=ARIA, sub="show")
    assert cb.embeds[0]["thumbnail"]["url"] == ART

    # ---- the scene: three speakers, the GM as two NPCs, and a thread
    assert await scene.say("Hold the gate! @everyone", by=ARIA) == "Said as **Aria**."
    assert await scene.say("Never.", by=BRAM) == "Said as **Bram**."
    assert await scene.say("snarls", by=GM, emote=True, **{"as": "Goblin"}) == (
        "Done as **Goblin**."
    )
    cb = await scene.command(
        "say", {"text": "We meet again.", "as": "Discordia"}, by=GM, locale="de"
    )
    assert await scene.answer(cb) == "Als **Discordia** gesagt."
    assert await scene.say("In the gatehouse.", by=ARIA, channel=THREAD) == "Said as **Aria**."
    posts = scene.posts()
    assert [(p.message["author"]["username"], p.content) for p in posts] == [
        ("Aria", "Hold the gate! @everyone"),
        ("Bram", "Never."),
        ("Goblin", "*Goblin snarls*"),
        ("Discоrdia", "We meet again."),  # a Cyrillic о: Discord refuses "discord"
    ]
    assert [p.body.get("avatar_url") for p in posts] == [ART, None, GOBLIN_ART, None]
    assert all(p.body["allowed_mentions"] == {"parse": []} for p in posts)
    [in_thread] = scene.posts(THREAD)
    assert in_thread.content == "In the gatehouse."
    executes = scene.requests("webhook_execute")
    assert executes[-1].query["thread_id"] == str(THREAD)
    assert all(r.query["wait"] in ("1", "true") for r in executes)
    assert len(scene.requests("webhook_create")) == 1
    assert len(standin.channel_webhooks(PLAY)) == 1

    # ---- a busy scene: 12 posts sent at once wait their turn, in order, none lost or doubled
    futures = []
    for n in range(12):
        payload = standin.command_interaction(
            "say", {"text": f"line {n}"}, user_id=BRAM, channel_id=PLAY
        )
        futures.append(await standin.post_interaction(payload))
    answers = [await scene.answer(await asyncio.wait_for(f, WAIT)) for f in futures]
    await standin.wait_for(lambda: len(scene.posts()) == 16, 20.0, "the burst's posts")
    assert answers == ["Said as **Bram**."] * 12
    assert [p.content for p in scene.posts()[4:]] == [f"line {n}" for n in range(12)]
    # The bot kept to the webhook's bucket as its X-RateLimit headers said: never more than
    # 5 executes in 2 seconds, so the stand-in never had to refuse one.
    sent = [r.at for r in scene.requests("webhook_execute") if r.status == 200]
    window = standin.webhook_window * 0.95
    assert all(b - a >= window for a, b in zip(sent, sent[standin.webhook_rate :], strict=False))
    # 429s all the same (Discord's answer with retry_after) are waited out, the post made once:
    # six in a row, one more than discord.py's own five tries, which the bot waits out again.
    standin.inject_fault(429, count=6, kinds=("webhook_execute",), retry_after=0.2)
    assert await scene.say("after the wait", by=ARIA) == "Said as **Aria**."
    assert [r.status for r in scene.requests("webhook_execute")[-7:]] == [429] * 6 + [200]
    assert [p.content for p in scene.posts()].count("after the wait") == 1
    # Discord refusing the post (a locked thread: 403) is answered; nothing is recorded.
    standin.inject_fault(403, kinds=("webhook_execute",))
    cb = await scene.command("say", {"text": "refused"}, by=ARIA)
    assert (await scene.answer(cb)).startswith("Discord refused the post here")
    assert "refused" not in [p.content for p in scene.posts()]

    # ---- who wrote this, an edit, a delete
    first = scene.posts()[0]
    cb = await scene.menu("Who wrote this", first.message_id, by=BRAM)
    assert cb.ephemeral and f"<@{ARIA}>" in cb.content and "**Aria**" in cb.content
    cb = await scene.menu("Who wrote this", first.message_id, by=BRAM, locale="de")
    assert f"wird von <@{ARIA}> gespielt" in cb.content
    cb = await scene.menu("Edit post", first.message_id, by=BRAM)
    assert cb.ephemeral and "Only its author" in cb.content
    cb = await scene.menu("Edit post", first.message_id, by=ARIA)
    assert cb.type == 9, cb.data  # the form
    form = cb.data["custom_id"]
    submit = standin.modal_submit_interaction(
        form, {"wire:sheet:text": "Hold the gate, @here!"}, user_id=ARIA, channel_id=PLAY
    )
    assert await scene.answer(await standin.send_interaction(submit, timeout=WAIT)) == "Edited."
    edit = await standin.wait_message_event("webhook_post_edit", timeout=WAIT)
    assert edit.message_id == first.message_id and edit.content == "Hold the gate, @here!"
    assert edit.body["allowed_mentions"] == {"parse": []}
    bram = scene.posts()[1]
    cb = await scene.menu("Delete post", bram.message_id, by=ARIA)
    assert cb.ephemeral and "Only its author or a GM" in cb.content
    cb = await scene.menu("Delete post", bram.message_id, by=GM)
    assert await scene.answer(cb) == "Deleted."
    assert bram.message_id not in standin.messages
    cb = await scene.menu("Who wrote this", bram.message, by=ARIA)  # as a client still shows it
    assert "not an in-character post" in cb.content

    # ---- the webhook deleted under the bot: made again once, the post not lost
    [hook] = standin.channel_webhooks(PLAY)
    standin.delete_webhook(int(hook["id"]))
    assert await scene.say("still here", by=ARIA) == "Said as **Aria**."
    assert scene.posts()[-1].content == "still here"
    [again] = standin.channel_webhooks(PLAY)
    assert again["id"] != hook["id"] and len(scene.requests("webhook_create")) == 2

    # ---- after a restart the webhook is found again, not made anew
    await stop_wire(bot)
    bot = await start_wire(standin, launch_bot, db, expect_sync=False)
    assert await scene.say("after the restart", by=BRAM) == "Said as **Bram**."
    assert scene.posts()[-1].content == "after the restart"
    assert standin.channel_webhooks(PLAY) == [again]
    assert len(scene.requests("webhook_create")) == 2

    # ---- without Manage Webhooks: the embed form, and the GM told once (here by DM)
    assert await scene.say("Anyone?", by=ARIA, channel=QUIET) == "Said as **Aria**."
    [shown] = [e for e in standin.channel_messages if e.channel_id == QUIET]
    assert shown.embeds[0]["author"] == {"name": "Aria", "icon_url": ART}
    assert shown.embeds[0]["description"] == "Anyone?"
    assert shown.body["allowed_mentions"] == {"parse": []}
    notes = [e for e in standin.channel_messages if e.channel_id in standin.dm_channels]
    assert len(notes) == 1 and "Manage Webhooks" in notes[0].content
    assert await scene.say("Hello?", by=ARIA, channel=QUIET) == "Said as **Aria**."
    notes = [e for e in standin.channel_messages if e.channel_id in standin.dm_channels]
    assert len(notes) == 1
    cb = await scene.menu("Who wrote this", shown.message_id, by=BRAM)
    assert f"<@{ARIA}>" in cb.content

    # ---- a channel with Discord's 15 webhooks already (someone else's): the embed form too
    for n in range(15):
        standin.webhooks[n + 1] = {
            "id": str(n + 1),
            "type": 1,
            "channel_id": str(DEFAULT_GM_CHANNEL_ID),
            "user": standin.user_payload(GM),
            "name": f"other {n}",
            "token": f"t{n}",
        }
    assert await scene.say("Crowded.", by=ARIA, channel=DEFAULT_GM_CHANNEL_ID) == (
        "Said as **Aria**."
    )
    [crowded] = [e for e in standin.channel_messages if e.channel_id == DEFAULT_GM_CHANNEL_ID]
    assert crowded.embeds[0]["description"] == "Crowded."
    assert scene.requests("webhook_create")[-1].status == 400

    await stop_wire(bot)
    assert_healthy(standin, bot)
