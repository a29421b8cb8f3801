"""/privacy: what is stored, and forgetting a user everywhere after a confirmation."""

from __future__ import annotations

from tests.commands.conftest import embed_of


async def test_forget_me_asks_first_then_deletes_everything_in_every_server(world):
    bob, channel = world.bob, world.channel
    await bob.slash(channel, "character create", name="Jaime")
    world.dice.push(12)
    await bob.slash(channel, "check", attr=1, skill=1, vs=10)
    other = world.env.create_guild("Other table")
    hall = other.create_text_channel("hall")
    bob_there = other.add_member(bob.user)
    await bob_there.slash(hall, "character create", name="Jaime the Second")
    await world.alice.slash(channel, "campaign gm add", user=bob)

    ask = await bob.slash(channel, "privacy forget-me")
    assert ask.response.ephemeral and "every** server" in ask.response.content
    assert (await bob.slash(channel, "character show", name="Jaime")).response.embeds

    done = await bob.click(ask.response, label="Delete all my data")
    assert done.response.content.startswith("Done: the bot forgot you in every server")
    assert "2 characters" in done.response.content and "1 GM roles" in done.response.content
    gone = await bob.slash(channel, "character show", name="Jaime")
    assert gone.response.ephemeral and "No character named" in gone.response.content
    assert "Jaime" not in str(embed_of(await bob_there.slash(hall, "character list")))
    history = embed_of(await world.alice.slash(channel, "history"))
    assert history["description"] == "No rolls yet."
    info = embed_of(await bob.slash(channel, "campaign info"))
    assert f"<@{bob.id}>" not in str(info)


async def test_forget_me_cancelled_keeps_everything(world):
    await world.bob.slash(world.channel, "character create", name="Jaime")
    ask = await world.bob.slash(world.channel, "privacy forget-me")
    kept = await world.bob.click(ask.response, label="Cancel")
    assert kept.response.content == "Nothing was deleted."
    assert (await world.bob.slash(world.channel, "character show")).response.embeds


async def test_privacy_info_says_what_is_kept_and_how_to_delete_it(world):
    result = await world.carol.slash(world.channel, "privacy info")
    assert result.response.ephemeral
    text = embed_of(result)["description"]
    assert "/privacy forget-me" in text and "until you delete them" in text


async def test_forget_me_keeps_others_cp_ledgers_without_the_gms_name(world):
    """A GM who awarded CP forgets themselves: the players' ledgers keep the award (and so
    their CP), and the reply says how many entries lost the GM's name."""
    ch = world.channel
    await world.alice.slash(ch, "campaign gm add", user=world.bob)
    await world.carol.slash(ch, "character create", name="Bo", sheet="Strength 1")
    await world.bob.slash(ch, "cp award", amount=12, reason="Session 1", characters="Bo")
    ask = await world.bob.slash(ch, "privacy forget-me")
    done = await world.bob.click(ask.response, label="Delete all my data")
    assert "1 CP entries made anonymous" in done.response.content
    ledger = embed_of(await world.carol.slash(ch, "cp show"))["description"]
    assert ledger.splitlines()[0] == "CP earned 12, spent 0, unspent 12"
    assert "Session 1" in ledger
    assert "by a forgotten user" in ledger and str(world.bob.id) not in ledger, ledger


async def test_forget_me_of_a_gm_keeps_their_npcs_for_the_campaign_without_their_id(
    world, client_languages
):
    """NPCs belong to the campaign: a GM who forgets themselves leaves them to the other GMs,
    who still show and change them; the reply says how many (in German too)."""
    ch = world.channel
    await world.alice.slash(ch, "campaign gm add", user=world.bob)
    await world.bob.slash(ch, "character create", name="Goblin", sheet="Strength 2", npc=True)
    client_languages.set(world.bob, "de")
    ask = await world.bob.slash(ch, "privacy forget-me")
    done = await world.bob.click(ask.response, label="Alle meine Daten löschen")
    assert "1 NSC für ihre Kampagnen behalten, ohne deine ID" in done.response.content, (
        done.response.content
    )
    campaign = await world.bot.store.campaign_for_channel(
        world.guild.id, world.channel.id, world.alice.id
    )
    goblin = await world.bot.store.get_character(world.guild.id, campaign.id, "Goblin")
    assert goblin.owner_id == 0
    shown = await world.alice.slash(ch, "character show", name="Goblin")
    assert "Goblin" in str(embed_of(shown)) and str(world.bob.id) not in str(embed_of(shown))
    await world.alice.slash(ch, "character set", name="Goblin", attribute="Strength", value=3)
    again = await world.alice.slash(ch, "character show", name="Goblin")
    assert "Strength **3**" in str(embed_of(again))
