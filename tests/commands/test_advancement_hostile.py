"""Character points on a public server with a hostile player: an NPC's CP are for the GMs' eyes,
user text shows inert, another's character is out of reach, whatever is pressed or typed."""

from __future__ import annotations

from cogs.advancement import REASON_INPUT
from tests.commands.conftest import embed_of
from tests.commands.test_advancement import setup_table
from tests.commands.test_npc_privacy import values


async def npc_table(world) -> None:
    """setup_table, and Alice's secret NPC Spy (Parry 2) with 30 CP of its own."""
    await setup_table(world)
    await world.alice.slash(
        world.channel, "character create", name="Spy", sheet="Strength 1; Parry 2", npc=True
    )


async def test_an_award_naming_an_npc_is_shown_to_the_gm_alone(world):
    await npc_table(world)
    ch = world.channel
    award = await world.alice.slash(ch, "cp award", amount=30, reason="S1", characters="Ash, Spy")
    assert award.response.ephemeral, award.response.content
    assert "**Spy**: CP earned 30" in award.response.content
    public = await world.alice.slash(ch, "cp award", amount=5, reason="S2", characters="Ash")
    assert not public.response.ephemeral  # the table sees its own awards


async def test_an_npcs_undo_is_shown_to_the_gm_alone(world):
    await npc_table(world)
    ch = world.channel
    await world.alice.slash(ch, "cp award", amount=30, reason="S1", characters="Spy")
    asked = await world.alice.slash(ch, "character improve", skill="Parry", character="Spy")
    assert asked.response.ephemeral
    await world.alice.click(asked.response, label="Spend 15 CP")
    undone = await world.alice.slash(ch, "cp undo", character="Spy")
    assert undone.response.ephemeral, undone.response.content
    assert "Parry 2 → 3" in undone.response.content, undone.response.content
    mine = await world.alice.slash(ch, "cp undo", character="Spy")  # the award, next
    assert mine.response.ephemeral


async def test_a_player_reaches_no_npcs_cp_and_no_other_players_sheet(world):
    await npc_table(world)
    ch = world.channel
    await world.alice.slash(ch, "cp award", amount=30, reason="S1", characters="Ash, Spy, Bo")
    shown = await world.bob.slash(ch, "cp show", character="Spy")
    assert shown.response.ephemeral and not shown.response.embeds, shown.response.content
    assert "Only a GM" in shown.response.content
    cost = await world.bob.slash(ch, "character cost", character="Spy")
    assert cost.response.ephemeral and not cost.response.embeds
    improve = await world.bob.slash(ch, "character improve", skill="Parry", character="Spy")
    assert improve.response.ephemeral and "Parry 2" not in improve.response.content
    species = await world.bob.slash(ch, "character species", species="Elf", character="Bo")
    assert species.response.ephemeral and "Elf" not in species.response.content
    other = await world.bob.slash(ch, "character improve", skill="Juggling", character="Bo")
    assert "Only Bo's player or a GM can change Bo" in other.response.content
    undo = await world.bob.slash(ch, "cp undo", character="Ash")
    assert "Only a GM" in undo.response.content


async def test_user_text_shows_inert_and_mentions_nothing(world):
    await setup_table(world)
    ch = world.channel
    reason = "@everyone **Session** <@1> `x`"
    award = await world.alice.slash(ch, "cp award", amount=5, reason=reason, characters="Ash")
    content = award.response.content
    assert "@everyone" not in content and "\\*\\*Session\\*\\*" in content, content
    await world.alice.slash(ch, "cp species", costs="**Elf**: 20")
    elf = await world.bob.slash(ch, "character species", species="**Elf**")
    assert "\\*\\*Elf\\*\\* (20 CP)" in elf.response.content, elf.response.content
    ledger = embed_of(await world.bob.slash(ch, "cp show"))["description"]
    assert "@everyone" not in ledger and "\\*\\*Session\\*\\*" in ledger, ledger


async def test_a_prepared_npcs_name_is_offered_to_gms_alone(world):
    """Issue 20's rule for targets holds where a ledger or a sheet is opened: a player is
    offered player characters only, so the list gives no prepared NPC away."""
    await npc_table(world)
    ch = world.channel
    for command in ("cp show", "character cost", "character show"):
        option = "name" if command == "character show" else "character"
        offered = values(await world.bob.autocomplete(ch, command, option, ""))
        assert "Spy" not in offered and "Ash" in offered and "Bo" in offered, (command, offered)
        assert "Spy" in values(await world.alice.autocomplete(ch, command, option, ""))


async def test_a_skill_only_npcs_have_stays_out_of_the_players_category_lists(world):
    """A GM's NPC sheet text gives the campaign its categories (`Necromancy 5 (knowledge)`):
    the price is the campaign's, but a skill no player character has tells what the GM's NPCs
    can do, so a player's lists leave it out; a skill no sheet has yet stays in (to learn)."""
    await setup_table(world)
    ch = world.channel
    await world.alice.slash(
        ch, "character create", name="Lich", sheet="Strength 1; Necromancy 5 (knowledge)", npc=True
    )
    await world.alice.slash(ch, "cp categories", skills="Riding: action")
    theirs = (await world.bob.slash(ch, "cp categories")).response.content
    assert "Necromancy" not in theirs and "Riding: action" in theirs, theirs
    assert "Parry: combat" in theirs
    gms = (await world.alice.slash(ch, "cp categories")).response.content
    assert "Necromancy: knowledge" in gms, gms
    offered = values(await world.bob.autocomplete(ch, "character improve", "skill", ""))
    assert "Necromancy" not in offered and "Riding" in offered, offered
    listed = values(await world.bob.autocomplete(ch, "cp categories", "skills", "Nec"))
    assert listed == [], listed
    assert values(await world.alice.autocomplete(ch, "cp categories", "skills", "Nec")) != []


async def test_a_player_cannot_flood_the_gms_with_requests(world, client_languages):
    """With approval on each request posts a message for the GMs: one waits per skill, and a
    character has at most MAX_WAITING at once (a hundred CP were fifty Elvish 0 → 1 posts)."""
    from storage.models_advancement import MAX_WAITING

    await setup_table(world, approval=True)
    ch = world.channel
    await world.alice.slash(ch, "cp categories", skills="A: language, B: language, C: language")
    await world.alice.slash(ch, "cp categories", skills="D: language, E: language, F: language")
    await world.alice.slash(ch, "cp award", amount=100, reason="S1", characters="Ash")
    first = await world.bob.slash(ch, "character improve", skill="Elvish")
    await world.bob.click(first.response, label="Spend 2 CP")

    def posts() -> list:
        return [m for m in ch.history() if (m.content or "").startswith("GMs:")]

    assert len(posts()) == 1
    again = await world.bob.slash(ch, "character improve", skill="Elvish")
    assert again.response.ephemeral and "already waits" in again.response.content, (
        again.response.content
    )
    assert not again.response.components
    for skill in "ABCDEF"[: MAX_WAITING - 1]:
        asked = await world.bob.slash(ch, "character improve", skill=skill)
        await world.bob.click(asked.response, label="Spend 2 CP")
    assert len(posts()) == MAX_WAITING
    full = await world.bob.slash(ch, "character improve", skill="F")
    assert full.response.ephemeral and f"{MAX_WAITING} improvements" in full.response.content
    client_languages.set(world.bob, "de")
    voll = await world.bob.slash(ch, "character improve", skill="A")
    assert voll.response.content.startswith(
        "A von Ash wartet schon auf die Entscheidung eines Chronisten"
    ), voll.response.content
    client_languages.set(world.bob, "en-US")
    # A GM's decision frees the place.
    request = next(m for m in posts() if "Elvish 0 → 1" in m.content)
    form = await world.alice.click(request, label="Refuse")
    await world.alice.submit_modal(form, {REASON_INPUT: ""})
    asked = await world.bob.slash(ch, "character improve", skill="Elvish")
    assert "costs **2 CP**" in asked.response.content, asked.response.content
