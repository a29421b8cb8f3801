"""In character through the simulated client: portraits, /say and /me, the posts' context menus.

A scene of three speakers: Bob (Jaime) and Carol (Ser Carol) are players, Alice is the GM and
speaks as two NPCs, one of them named Discordia (Discord refuses "discord" in a webhook name).
"""

from __future__ import annotations

import discord
import pytest

from tests.commands.conftest import World, embed_of, raw_slash

JAIME = "https://example.com/art/jaime.png"
GOBLIN = "https://img.example.org/goblin.webp"


async def _scene(world: World) -> None:
    w = world
    await w.bob.slash(w.channel, "character create", name="Jaime")
    await w.carol.slash(w.channel, "character create", name="Ser Carol")
    await w.alice.slash(w.channel, "character create", name="Goblin", npc=True)
    await w.alice.slash(w.channel, "character create", name="Discordia", npc=True)
    r = await w.bob.slash(w.channel, "character portrait", url=JAIME)
    assert r.response.ephemeral and "portrait is set" in r.response.content
    await w.alice.slash(w.channel, "character portrait", url=GOBLIN, name="Goblin")


def _posts(world: World, channel=None) -> list[discord.Message]:
    """The channel's in-character posts (webhook messages), oldest first."""
    shown = (channel or world.channel).history()
    return [m for m in sorted(shown, key=lambda m: m.id) if m.webhook_id is not None]


def _webhook_requests(world: World, method: str, fragment: str) -> list:
    """Requests to the channels' webhooks (not the interaction follow-ups, also /webhooks/)."""
    app = f"/webhooks/{world.bot.application_id}/"
    return [
        r
        for r in world.env.http_requests
        if r.method == method and fragment in r.path and not r.path.startswith(app)
    ]


async def test_portraits_are_checked_on_arrival_and_shown_on_the_sheet(world):
    w = world
    await w.bob.slash(w.channel, "character create", name="Jaime")
    for bad, words in (
        ("http://example.com/a.png", "is not an https link"),
        ("https://user:secret@example.com/a.png", "user name or password"),
        ("https://example.com/a.png?token=abc", "credential (token=)"),
        ("not a link", "contains a space"),
    ):
        r = await w.bob.slash(w.channel, "character portrait", url=bad)
        assert r.response.ephemeral and words in r.response.content, (bad, r.response.content)
    # Past Discord's max_length, as a modified client could send it.
    r = await raw_slash(w.bob, w.channel, "character portrait", url="https://" + "a" * 600)
    assert r.response.ephemeral and "characters long" in r.response.content
    r = await w.bob.slash(w.channel, "character show")
    assert "thumbnail" not in embed_of(r)
    r = await w.bob.slash(
        w.channel,
        "character portrait",
        url="https://cdn.discordapp.com/attachments/1/2/jaime.png?ex=1&is=2&hm=3",
    )
    assert "expire after about a day" in r.response.content
    await w.bob.slash(w.channel, "character portrait", url=JAIME)
    r = await w.bob.slash(w.channel, "character show")
    assert embed_of(r)["thumbnail"]["url"] == JAIME
    r = await w.carol.slash(w.channel, "character portrait", url=JAIME, name="Jaime")
    assert r.response.ephemeral
    assert "Only Jaime's player or a GM can change Jaime" in r.response.content
    r = await w.bob.slash(w.channel, "character portrait", remove=True)
    assert "Removed" in r.response.content
    r = await w.bob.slash(w.channel, "character show")
    assert "thumbnail" not in embed_of(r)


async def test_a_portrait_is_the_author_icon_of_rolls_and_travels_in_exports(world):
    w = world
    await w.bob.slash(w.channel, "character create", name="Jaime", sheet="Strength 3; Melee 2")
    await w.bob.slash(w.channel, "character portrait", url=JAIME)
    w.dice.push(12)
    r = await w.bob.slash(w.channel, "check", attr_name="Strength", skill_name="Melee", vs=10)
    assert embed_of(r)["author"] == {"name": "Jaime", "icon_url": JAIME}
    r = await w.bob.slash(w.channel, "character export")
    raw = r.response.message.attachments[0]
    data = __import__("json").loads(await raw.read())
    assert data["version"] == 1 and data["character"]["portrait"] == JAIME


async def test_a_scene_of_three_speakers_in_order_and_without_pings(world):
    w = world
    await _scene(w)
    before = max(m.id for m in w.channel.history())  # the sheets /character create posted
    lines = [
        (w.bob, {"text": f"Hold the gate! @everyone <@{w.carol.id}>"}),
        (w.carol, {"text": "**Never**", "emote": False}),
        (w.alice, {"text": "snarls", "as": "Goblin", "emote": True}),
        (w.alice, {"text": "We meet again.", "as": "Discordia"}),
    ]
    for speaker, options in lines:
        r = await speaker.slash(w.channel, "say", **options)
        done = "Done as" if options.get("emote") else "Said as"  # an action is not speech
        assert r.response.ephemeral and r.response.content.startswith(done), options
    await w.bob.slash(w.channel, "me", text="draws his sword")
    posts = _posts(w)
    assert [(p.author.name, p.content) for p in posts] == [
        ("Jaime", f"Hold the gate! @everyone <@{w.carol.id}>"),
        ("Ser Carol", "**Never**"),
        ("Goblin", "*Goblin snarls*"),
        ("Discоrdia", "We meet again."),  # a Cyrillic о: Discord refuses "discord"
        ("Jaime", "*Jaime draws his sword*"),
    ]
    executes = _webhook_requests(w, "POST", "/webhooks/")
    assert len(executes) == 5
    assert [r.json.get("avatar_url") for r in executes] == [JAIME, None, GOBLIN, None, JAIME]
    assert all(r.json["allowed_mentions"] == {"parse": []} for r in executes)
    assert len(_webhook_requests(w, "POST", f"/channels/{w.channel.id}/webhooks")) == 1
    # The channel shows only the characters' words: the commands' answers are private.
    assert [m for m in w.channel.history() if m.webhook_id is None and m.id > before] == []


async def test_players_speak_only_as_their_own_and_gms_as_npcs(world):
    w = world
    await _scene(w)
    r = await w.bob.slash(w.channel, "say", text="Hi", **{"as": "Ser Carol"})
    assert r.response.ephemeral and "another player's character" in r.response.content
    r = await w.bob.slash(w.channel, "say", text="Hi", **{"as": "Goblin"})
    assert r.response.ephemeral and "GM" in r.response.content
    r = await w.alice.slash(w.channel, "say", text="Hi")  # the GM has no character of her own
    assert r.response.ephemeral and "add as:<name> to speak as an NPC" in r.response.content
    r = await w.bob.slash(w.channel, "say", text="bad\u202etext")
    assert r.response.ephemeral and "U+202E" in r.response.content
    assert _posts(w) == []


async def test_who_wrote_this_edit_and_delete(world):
    w = world
    await _scene(w)
    await w.bob.slash(w.channel, "say", text="I stand watch.")
    await w.carol.slash(w.channel, "say", text="I sleep.")
    jaime, carol = _posts(w)
    r = await w.carol.context_menu(w.channel, "Who wrote this", jaime)
    assert r.response.ephemeral and f"<@{w.bob.id}>" in r.response.content
    assert "Jaime" in r.response.content
    # Only its author edits it.
    r = await w.carol.context_menu(w.channel, "Edit post", jaime)
    assert r.response.ephemeral and "Only its author" in r.response.content
    shown = await w.bob.context_menu(w.channel, "Edit post", jaime)
    done = await w.bob.submit_modal(shown, {"wire:sheet:text": "I stand watch, @here."})
    assert done.response.content == "Edited."
    assert _posts(w)[0].content == "I stand watch, @here."
    edits = _webhook_requests(w, "PATCH", f"/messages/{jaime.id}")
    assert edits and edits[-1].json["allowed_mentions"] == {"parse": []}
    # Its author or a GM deletes it; another player may not.
    r = await w.bob.context_menu(w.channel, "Delete post", carol)
    assert r.response.ephemeral and "Only its author or a GM" in r.response.content
    r = await w.alice.context_menu(w.channel, "Delete post", carol)
    assert r.response.content == "Deleted."
    assert [p.content for p in _posts(w)] == ["I stand watch, @here."]
    r = await w.alice.context_menu(w.channel, "Who wrote this", jaime)
    assert "Jaime" in r.response.content
    # A message that is no post of the bot's.
    r = await w.bob.slash(w.channel, "character show")
    r = await w.carol.context_menu(w.channel, "Who wrote this", r.response.message)
    assert r.response.ephemeral and "not an in-character post" in r.response.content


async def test_a_deleted_webhook_is_made_again_and_a_restart_finds_it(world):
    w = world
    await _scene(w)
    await w.bob.slash(w.channel, "say", text="one")
    backend = w.env.backend
    [hook] = [h for h in backend.webhooks.values() if h.channel_id == w.channel.id]
    backend.delete_webhook(hook.id)
    r = await w.bob.slash(w.channel, "say", text="two")
    assert r.response.content.startswith("Said as")
    assert [p.content for p in _posts(w)] == ["one", "two"]
    [again] = [h for h in backend.webhooks.values() if h.channel_id == w.channel.id]
    assert again.id != hook.id
    await w.restart()
    await w.carol.slash(w.channel, "say", text="three")
    assert [h.id for h in backend.webhooks.values() if h.channel_id == w.channel.id] == [again.id]
    assert [p.content for p in _posts(w)] == ["one", "two", "three"]


async def test_without_manage_webhooks_the_words_come_as_an_embed_and_the_gm_is_told_once(world):
    w = world
    await _scene(w)
    bot_user = w.env.bot.user
    quiet = w.guild.create_text_channel(
        "quiet", overwrites={bot_user: discord.PermissionOverwrite(manage_webhooks=False)}
    )
    await w.alice.slash(quiet, "campaign use", name=(await _campaign(w)))
    r = await w.bob.slash(quiet, "say", text="Anyone here?")
    assert r.response.ephemeral and "Manage Webhooks" not in r.response.content
    shown = [m for m in quiet.history() if m.embeds]
    assert len(shown) == 1 and shown[0].webhook_id is None
    embed = shown[0].embeds[0].to_dict()
    assert embed["author"] == {"name": "Jaime", "icon_url": JAIME}
    assert embed["description"] == "Anyone here?"
    # Bob is no GM: the GMs get the note privately (here the owner, by direct message), once.
    (note,) = w.alice.user.dm_channel.history()
    assert "Manage Webhooks" in note.content
    r = await w.alice.slash(quiet, "say", text="Welcome.", **{"as": "Goblin"})
    assert "Manage Webhooks" not in r.response.content
    # In another such channel, a GM who speaks first reads it in the answer, once.
    other = w.guild.create_text_channel(
        "other", overwrites={bot_user: discord.PermissionOverwrite(manage_webhooks=False)}
    )
    await w.alice.slash(other, "campaign use", name=(await _campaign(w)))
    r = await w.alice.slash(other, "say", text="Welcome.", **{"as": "Goblin"})
    assert "Manage Webhooks" in r.response.content
    r = await w.alice.slash(other, "say", text="Again.", **{"as": "Goblin"})
    assert "Manage Webhooks" not in r.response.content
    post = next(m for m in quiet.history() if m.embeds)
    r = await w.carol.context_menu(quiet, "Who wrote this", post)
    assert f"<@{w.bob.id}>" in r.response.content


async def _campaign(world: World) -> str:
    campaign = await world.bot.store.campaign_for_channel(
        world.guild.id, world.channel.id, world.alice.id
    )
    return campaign.name


async def test_forget_me_deletes_the_post_records(world):
    w = world
    await _scene(w)
    await w.bob.slash(w.channel, "say", text="I was here.")
    [post] = _posts(w)
    r = await w.bob.slash(w.channel, "privacy info")
    assert "in-character post" in r.response.embeds[0].description
    r = await w.bob.slash(w.channel, "privacy forget-me")
    done = await w.bob.click(r.response, label="Delete all my data")
    assert "1 in-character post records" in done.response.content
    r = await w.carol.context_menu(w.channel, "Who wrote this", post)
    assert "not an in-character post" in r.response.content


@pytest.mark.parametrize("text", ["x" * 1995])
async def test_an_emote_past_2000_characters_is_refused(world, text):
    w = world
    await _scene(w)
    r = await w.bob.slash(w.channel, "me", text=text)
    assert r.response.ephemeral and "over Discord's 2,000" in r.response.content
    assert _posts(w) == []


async def test_the_tracker_shows_the_current_combatants_portrait(world):
    from tests.commands.test_fights import fight_table, tracker

    w = world
    await fight_table(w)  # Ser Carol (18), Jaime (15), three goblin copies (12)
    await w.bob.slash(w.channel, "character portrait", url=JAIME)
    await w.alice.slash(w.channel, "character portrait", url=GOBLIN, name="Goblin")
    await w.alice.slash(w.channel, "fight next")  # Ser Carol: no portrait
    assert tracker(w).embeds[0].thumbnail.url is None
    await w.carol.slash(w.channel, "fight next")  # Jaime's turn
    await w.env.advance_time(1)
    assert tracker(w).embeds[0].thumbnail.url == JAIME
    await w.bob.slash(w.channel, "fight next")  # Goblin 1: the NPC sheet's portrait
    await w.env.advance_time(1)
    assert tracker(w).embeds[0].thumbnail.url == GOBLIN


async def test_in_character_in_german(world, client_languages):
    w = world
    await _scene(w)
    client_languages.set(w.bob, "de")
    r = await w.bob.slash(w.channel, "character portrait", url="http://example.com/a.png")
    assert r.response.content.startswith("Der Porträt-Link ist kein https-Link.")
    r = await w.bob.slash(w.channel, "say", text="Haltet das Tor!")
    assert r.response.content == "Als **Jaime** gesagt."
    [post] = _posts(w)
    r = await w.bob.context_menu(w.channel, "Who wrote this", post)
    assert r.response.content.startswith("**Jaime** (")
    assert f"wird von <@{w.bob.id}> gespielt" in r.response.content
    r = await w.bob.context_menu(w.channel, "Delete post", post)
    assert r.response.content == "Gelöscht."
    r = await w.bob.slash(w.channel, "say", text="Hallo", **{"as": "Ser Carol"})
    assert "Charakter einer anderen Person" in r.response.content


async def test_the_post_menus_are_message_commands_as_discord_registers_them(world):
    from tests.discord_rules import MESSAGE, command_problems

    payload = await world.bot.command_payload()
    assert command_problems(payload) == []
    menus = {c["name"]: c for c in payload if c.get("type") == MESSAGE}
    assert sorted(menus) == ["Delete post", "Edit post", "Who wrote this"]
    for menu in menus.values():
        assert menu.get("description", "") == "" and not menu.get("options")
        assert menu["name_localizations"]["de"] in {
            "Beitrag löschen",
            "Beitrag bearbeiten",
            "Wer schrieb das",
        }
        assert menu["dm_permission"] is False  # servers only
