"""The second evening's seams (issue 31): an NPC sheet attacked by its own name while its copies
fight, a heal that heals nothing, the GMs-only refusal said once, the panel's own refusal, an
emote that is done rather than said, a sheet made with its stats, and defence odds that say a
defence skill is missing. Each in English and, where the text changed, in German."""

from __future__ import annotations

from tests.commands.conftest import embed_of, field
from tests.commands.test_fights import any_attacks, fight_table, line_of, lines, tracker


async def test_an_attack_on_the_sheet_whose_copies_fight_is_refused_naming_them(
    world, client_languages
):
    """It answered "all 5 damage gets through" with Roll again and applied it nowhere."""
    await fight_table(world)
    world.dice.push(15)
    refused = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin")
    assert refused.response.ephemeral and not refused.response.embeds
    assert refused.response.content == (
        "Goblin fights here as **Goblin 1**, **Goblin 2**, **Goblin 3**: attack one of them by "
        "its name, and its damage counts on that one."
    )
    assert [line.rsplit("· ", 1)[1] for line in lines(tracker(world)) if "Goblin" in line] == [
        "unhurt",
        "unhurt",
        "unhurt",
    ]
    client_languages.set(world.bob, "de")
    german = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="goblin")
    assert german.response.content.startswith(
        "Goblin kämpft hier als **Goblin 1**, **Goblin 2**, **Goblin 3**: "
    )


async def test_with_one_copy_standing_the_sheets_name_hits_that_copy(world):
    await fight_table(world)
    await any_attacks(world)
    for copy in ("Goblin 1", "Goblin 3"):
        await world.alice.slash(world.channel, "health damage", target=copy, amount=30)
    world.dice.push(15)  # Jaime 23 against take 10 + 3 = 13: 10 damage
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin")
    embed = embed_of(attack)
    assert embed["title"] == "Jaime: Attack with Long sword on Goblin 2"
    assert field(embed, "Health") == "Goblin 2 is wounded."
    assert line_of(world, "Goblin 2").endswith("· wounded")
    await world.alice.slash(world.channel, "health damage", target="Goblin 2", amount=30)
    down = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin")
    assert down.response.ephemeral
    assert down.response.content.startswith(
        "Goblin fights here as **Goblin 1**, **Goblin 2**, **Goblin 3**, all down already"
    )


async def test_the_targets_offered_in_a_fight_are_the_copies_not_their_sheet(world):
    await fight_table(world)
    # The goblin shows itself with a public roll, so players are offered it as a target.
    world.dice.push(10)
    await world.alice.slash(world.channel, "check", npc="Goblin 2", attr=1, skill=2, vs=10)
    for who in (world.bob, world.alice):
        offered = await who.autocomplete(world.channel, "attack", "target", "gob")
        assert [c["value"] for c in offered] == ["Goblin 1", "Goblin 2", "Goblin 3"], who
    await world.alice.slash(world.channel, "fight end")
    offered = await world.bob.autocomplete(world.channel, "attack", "target", "gob")
    assert [c["value"] for c in offered] == ["Goblin"]


async def test_a_heal_at_full_health_says_nothing_was_healed(world, client_languages):
    """It read "Jaime: HP 20 → 20", as if a heal of 0 had been applied."""
    await fight_table(world)
    full = await world.bob.slash(world.channel, "health heal", target="Jaime", amount=5)
    assert full.response.content == "Jaime has full HP already (20 of 20): nothing was healed."
    gm = await world.alice.slash(world.channel, "health heal", target="Goblin 1", amount=5)
    assert gm.response.content == "Goblin 1 has full HP already (21 of 21): nothing was healed."
    await world.bob.slash(world.channel, "health damage", target="Jaime", amount=4)
    healed = await world.bob.slash(world.channel, "health heal", target="Jaime", amount=9)
    assert healed.response.content == "Jaime: HP 16 → 20"  # a heal that heals still reads so
    client_languages.set(world.bob, "de")
    german = await world.bob.slash(world.channel, "health heal", target="Jaime", amount=5)
    assert german.response.content == (
        "Jaime hat schon volle LP (20 von 20): Es wurde nichts geheilt."
    )


EXPLAINED = (
    "Its GMs are no one yet but everyone with Manage Server; a GM makes others GMs with "
    "`/campaign gm add`."
)


async def test_who_the_gms_are_is_said_on_the_first_gm_only_refusal_only(world, client_languages):
    """Every GMs-only refusal ended with the same sentence on the GMs; now the first says it,
    the later ones name what was refused and where the GMs are listed."""
    await fight_table(world)
    bob, channel = world.bob, world.channel
    first = await bob.slash(channel, "cp award", amount=5, reason="loot", characters="Jaime")
    assert first.response.ephemeral
    assert first.response.content == f"Only a GM of Default can award CP. {EXPLAINED}"
    refusals = [
        (await bob.slash(channel, "panel", npc="Goblin")).response,
        (await bob.slash(channel, "say", text="Grr", **{"as": "Goblin"})).response,
        (await bob.slash(channel, "health damage", target="Goblin 1", amount=5)).response,
    ]
    assert [r.content for r in refusals] == [
        "Only a GM of Default can open an NPC's panel (`/campaign info` names its GMs).",
        "Only a GM of Default can speak as an NPC (`/campaign info` names its GMs).",
        "Only a GM of Default can change Goblin 1's health (`/campaign info` names its GMs).",
    ]
    assert all(r.ephemeral for r in refusals)
    # Another user meets it the first time in full, in their language.
    client_languages.set(world.carol, "de")
    carol = await world.carol.slash(channel, "panel", npc="Goblin 2")
    assert carol.response.content.startswith(
        "Nur ein Chronist von Default kann die Schnellaktionen eines NSC öffnen. Ihre Chronisten "
        "sind "
        "bisher niemand"
    )
    again = await world.carol.slash(channel, "say", text="Grr", **{"as": "Goblin"})
    assert again.response.content == (
        "Nur ein Chronist von Default kann als NSC sprechen (`/kampagne info` nennt ihre "
        "Chronisten)."
    )
    info = embed_of(await world.carol.slash(channel, "campaign info"))
    assert field(info, "Chronisten") == (
        "Alle mit „Server verwalten“ (`/kampagne chronist hinzufügen` nennt weitere)"
    )


async def test_a_players_panel_of_an_npc_is_refused_as_the_panel(world):
    """It said "... can roll as an NPC" for opening a panel."""
    await fight_table(world)
    refused = await world.bob.slash(world.channel, "panel", npc="Goblin")
    assert refused.response.ephemeral
    assert refused.response.content.startswith("Only a GM of Default can open an NPC's panel.")
    saved = await world.bob.slash(world.channel, "save", npc="Goblin")
    assert saved.response.content.startswith(
        "Only a GM of Default can list or change an NPC's saved rolls"
    )


async def test_an_emote_is_done_not_said(world, client_languages):
    await fight_table(world)
    done = await world.bob.slash(world.channel, "me", text="nods")
    assert done.response.content == "Done as **Jaime**."
    said = await world.bob.slash(world.channel, "say", text="Aye.")
    assert said.response.content == "Said as **Jaime**."
    client_languages.set(world.bob, "de")
    german = await world.bob.slash(world.channel, "me", text="nickt")
    assert german.response.content == "Als **Jaime** getan."
    german = await world.bob.slash(world.channel, "say", text="Ja.")
    assert german.response.content == "Als **Jaime** gesagt."


async def test_a_sheet_made_with_its_stats_is_not_told_to_add_them(world, client_languages):
    full = "Strength 3, Reaction 2; Axes 4, Parry 3"
    npc = await world.alice.slash(
        world.channel, "character create", name="Orc", npc=True, sheet=full
    )
    assert npc.response.content == (
        "Created NPC **Orc** in Default. Add weapons with `/character weapon`; **Edit** below "
        "changes its stats."
    )
    bare = await world.alice.slash(world.channel, "character create", name="Imp", npc=True)
    assert "Add stats with **Edit** below" in bare.response.content
    client_languages.set(world.bob, "de")
    mine = await world.bob.slash(world.channel, "character create", name="Ash", sheet=full)
    assert mine.response.content == (
        "**Ash** in Default erstellt. Waffen mit `/charakter waffe`; **Bearbeiten** unten "
        "ändert seine Werte."
    )


async def test_defence_odds_say_a_missing_defence_skill_counts_0(world, client_languages):
    """Jaime has no Dodge, Parry nor Reaction: "Dodge (d20 +0)" read as a trained dodge."""
    await fight_table(world)
    panel = await world.bob.slash(world.channel, "panel")
    odds = (await world.bob.click(panel.response, label="Defence odds")).response.content
    assert odds.splitlines()[-4:] == [
        "Parry is not on Jaime's sheet, so it counts 0.",
        "Reaction is not on Jaime's sheet, so it counts 0.",
        "Dodge is not on Jaime's sheet, so it counts 0.",
        "Add a stat with /character set (a skill at 0 is untrained).",
    ]
    assert "Strength is not" not in odds  # Strength 3 is on the sheet
    await world.alice.slash(world.channel, "fight end")
    client_languages.set(world.bob, "de")
    panel = await world.bob.slash(world.channel, "panel")
    odds = (await world.bob.click(panel.response, label="Abwehrchancen")).response.content
    assert "Ausweichen steht nicht auf dem Bogen von Jaime und zählt deshalb 0." in odds
