"""Portraits and the in-character post record, on each backend; the portrait's checks and its
place in exports (format version 1: older files import unchanged)."""

from __future__ import annotations

import pytest

from storage.errors import InvalidValue, NotFound, PermissionDenied
from storage.portraits import clean_portrait, is_discord_attachment, portrait_problem
from storage.rules_incharacter import NewPost
from storage.testing import GM, GUILD, OTHER_GUILD, OTHER_PLAYER, PLAYER
from storage.transfer import character_data, parse_import

ART = "https://www.worldanvil.com/uploads/images/jaime.png"


@pytest.mark.parametrize(
    "link, wrong",
    [
        ("http://example.com/a.png", "is not an https link"),
        ("ftp://example.com/a.png", "is not an https link"),
        ("https:///a.png", "is not an https link"),
        ("javascript:alert(1)", "is not an https link"),
        ("https://me:pw@example.com/a.png", "holds a user name or password"),
        ("https://me@example.com/a.png", "holds a user name or password"),
        ("https://example.com/a.png?X-Amz-Credential=AKIA", "credential (x-amz-credential=)"),
        ("https://example.com/a.png?size=2&access_token=s3cr3t", "credential (access_token=)"),
        ("https://example.com/a b.png", "contains a space"),
        ("https://example.com/\u202egnp.png", "direction-changing"),
        ("https://example.com:99999/a.png", "is not a link"),
        ("https://" + "a" * 510, "characters long"),
        ("", "is empty"),
        (7, "expected text"),
    ],
)
def test_a_portrait_link_is_refused_with_its_reason(link: object, wrong: str) -> None:
    problem = portrait_problem(link)
    assert problem is not None and wrong in problem.what, (link, problem)
    with pytest.raises(InvalidValue):
        clean_portrait(link)


def test_a_good_link_passes_and_a_discord_attachment_is_flagged() -> None:
    assert clean_portrait(f"  {ART} ").url == ART
    assert not clean_portrait(ART).expires
    discord = "https://cdn.discordapp.com/attachments/1/2/a.png?ex=6&is=6&hm=ab"
    assert clean_portrait(discord).expires and is_discord_attachment(discord)
    assert not is_discord_attachment("https://cdn.discordapp.com/avatars/1/a.png")
    assert clean_portrait("https://media.discordapp.net/attachments/1/2/a.png").expires


async def test_portraits_are_their_players_and_gms_to_set(store, make_campaign, make_character):
    campaign = await make_campaign()
    await make_character(campaign, "Jaime")
    npc = await make_character(campaign, "Goblin", npc=True)
    character, portrait = await store.set_portrait(GUILD, campaign.id, PLAYER, "Jaime", ART)
    assert character.portrait == ART and portrait is not None and not portrait.expires
    assert (await store.get_character(GUILD, campaign.id, "jaime")).portrait == ART
    with pytest.raises(PermissionDenied):
        await store.set_portrait(GUILD, campaign.id, OTHER_PLAYER, "Jaime", None)
    with pytest.raises(PermissionDenied):
        await store.set_portrait(GUILD, campaign.id, PLAYER, "Goblin", ART)
    character, _ = await store.set_portrait(GUILD, campaign.id, GM, "Goblin", ART)
    assert character.id == npc.id and character.portrait == ART
    with pytest.raises(InvalidValue):
        await store.set_portrait(GUILD, campaign.id, PLAYER, "Jaime", "http://x.org/a.png")
    assert (await store.get_character(GUILD, campaign.id, "Jaime")).portrait == ART
    character, portrait = await store.set_portrait(GUILD, campaign.id, PLAYER, "Jaime", None)
    assert character.portrait is None and portrait is None
    with pytest.raises(NotFound):
        await store.set_portrait(OTHER_GUILD, campaign.id, GM, "Goblin", ART)


async def test_the_post_record_is_scoped_forgotten_and_outlives_its_character(
    store, make_campaign, make_character
):
    campaign = await make_campaign()
    jaime = await make_character(campaign, "Jaime")
    post = NewPost(
        message_id=9001,
        guild_id=GUILD,
        campaign_id=campaign.id,
        channel_id=77,
        character_id=jaime.id,
        character_name="Jaime",
        author_id=PLAYER,
        emote=True,
        thread_id=78,
        webhook_id=555,
    )
    await store.record_post(post)
    await store.record_post(post)  # recorded twice: kept once
    found = await store.get_post(GUILD, 9001)
    assert found is not None and found.author_id == PLAYER and found.emote
    assert (found.channel_id, found.thread_id, found.webhook_id) == (77, 78, 555)
    assert found.via_webhook and found.character_id == jaime.id
    assert await store.get_post(OTHER_GUILD, 9001) is None
    # A campaign of another guild: nothing is recorded.
    await store.record_post(NewPost(9002, OTHER_GUILD, campaign.id, 77, None, "X", PLAYER))
    assert await store.get_post(OTHER_GUILD, 9002) is None
    await store.delete_character(GUILD, campaign.id, PLAYER, "Jaime")
    found = await store.get_post(GUILD, 9001)
    assert found is not None and found.character_id is None and found.character_name == "Jaime"
    await store.record_post(NewPost(9003, GUILD, campaign.id, 77, None, "Goblin", GM))
    counts = await store.delete_user_data(PLAYER)
    assert counts["in-character post records"] == 1
    assert await store.get_post(GUILD, 9001) is None
    assert await store.get_post(GUILD, 9003) is not None
    assert await store.forget_post(GUILD, 9003) and not await store.forget_post(GUILD, 9003)


def test_exports_carry_the_portrait_only_when_set_and_imports_check_it() -> None:
    from storage.models import Character

    plain = character_data(Character("Ash"))
    assert "portrait" not in plain  # a sheet without one exports as before
    assert character_data(Character("Ash", portrait=ART))["portrait"] == ART
    document = {"format": "wire-bot", "version": 1, "kind": "character"}
    old = parse_import({**document, "character": {"name": "Ash"}})  # a file from before
    assert old.characters[0].portrait is None
    new = parse_import({**document, "character": {"name": "Ash", "portrait": ART}})
    assert new.characters[0].portrait == ART
    from storage.errors import ImportRejected

    with pytest.raises(ImportRejected) as refused:
        parse_import({**document, "character": {"name": "Ash", "portrait": "http://x/a"}})
    assert "character.portrait: is not an https link" in str(refused.value)


async def test_an_import_brings_portraits_and_a_replace_takes_the_files(
    store, make_campaign, make_character
):
    campaign = await make_campaign()
    await make_character(campaign, "Ash")
    await store.set_portrait(GUILD, campaign.id, PLAYER, "Ash", ART)
    document = {"format": "wire-bot", "version": 1, "kind": "campaign"}
    other = "https://example.org/bash.png"
    await store.import_data(
        GUILD,
        campaign.id,
        GM,
        {**document, "characters": [{"name": "Ash"}, {"name": "Bash", "portrait": other}]},
        replace=True,
    )
    assert (await store.get_character(GUILD, campaign.id, "Ash")).portrait is None
    assert (await store.get_character(GUILD, campaign.id, "Bash")).portrait == other
    exported = await store.export_campaign(GUILD, campaign.id)
    assert [c.get("portrait") for c in exported["characters"]] == [None, other]
