"""Seams found playing a quick-play evening through the stand-in (tests/e2e/test_quick_evening.py):
where quick play meets fights, /history, /help and German, each held by a test here."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

from cogs.sheet_edit import TEXT_ID
from cogs.utils.save_button import NAME_INPUT
from tests.commands.conftest import embed_of
from tests.commands.test_combat import make_jaime
from tests.commands.test_fights import fight_table, line_of
from tests.commands.test_quickplay import goblins_turn

CATALOGUE = Path(__file__).resolve().parents[2] / "wire/locales/de/LC_MESSAGES/wire.po"


def history_lines(result) -> list[str]:
    return embed_of(result)["description"].splitlines()


async def test_history_names_the_copy_that_attacked_as_the_roll_did(world):
    """The GM attacks as Goblin 1 (picked from the offered opponents, and typed): the roll's
    title names Goblin 1, and so does /history, not the sheet "Goblin" behind the copies."""
    await goblins_turn(world)
    alice, channel = world.alice, world.channel
    offered = await alice.slash(channel, "attack", npc="Goblin 1", str=1, skill=2, base=3)
    world.dice.push(20)
    hit = await alice.select(offered.response, ["Goblin 3"])
    assert embed_of(hit)["title"].startswith("Goblin 1")
    world.dice.push(20)
    await alice.slash(channel, "attack", npc="Goblin 2", str=1, skill=2, base=3, target="Jaime")
    lines = history_lines(await world.bob.slash(channel, "history"))
    assert "**Goblin 2** attack on Jaime" in lines[0], lines
    assert any("**Goblin 1** attack: 23 vs 13" in line for line in lines), lines
    assert not any("**Goblin** attack" in line for line in lines), lines


async def test_a_stranger_s_press_on_a_ping_is_refused_in_plain_german(world, client_languages):
    """Carol (German) presses Bob's Jaime's weapon on the public ping: refused in German that
    fits any character ("nur wer Jaime spielt", not "nur dessen Spieler" for every name)."""
    await fight_table(world)
    alice, carol, channel = world.alice, world.carol, world.channel
    await alice.slash(channel, "fight next")  # Ser Carol's turn
    ping = (await carol.slash(channel, "fight next")).response  # Jaime's: Bob is pinged
    client_languages.set(carol, "de")
    stranger = await carol.click(ping, label="⚔️ Long sword")
    assert stranger.response.ephemeral
    assert stranger.response.content == (
        "Das sind die Schnellaktionen von Jaime: nur wer Jaime spielt, kann sie nutzen. "
        "/aktionen zeigt deine eigenen."
    )


async def test_a_contest_without_an_opponent_refuses_sheet_names_in_german(world, client_languages):
    client_languages.set(world.bob, "de")
    await make_jaime(world)
    refused = await world.bob.slash(
        world.channel, "contest", attr_name="Strength", skill=1, opp_attr_name="Strength"
    )
    assert refused.response.ephemeral
    assert refused.response.content == "Nenne den Gegner, um Namen von seinem Bogen zu nutzen."


async def test_a_gm_s_saved_roll_as_a_copy_rolls_as_that_copy(world):
    """/r name:heave npc:Goblin 1 in the fight rolls as Goblin 1 (as /attack npc:Goblin 1 does),
    and the Save form names the sheet the roll is saved to, which all the copies share."""
    await goblins_turn(world)
    alice, channel = world.alice, world.channel
    world.dice.push(10)
    check = await alice.slash(
        channel, "check", npc="Goblin 1", attr_name="Strength", skill=2, vs=10
    )
    assert embed_of(check)["title"].startswith("Goblin 1")
    form = await alice.click(check.response, label="Save")
    assert form.modal["title"] == "Save a roll of Goblin"
    saved = await alice.submit_modal(form, {NAME_INPUT: "heave"})
    assert saved.response.content.startswith("Saved for Goblin as **heave**.")
    world.dice.push(10)
    again = await alice.slash(channel, "r", name="heave", npc="Goblin 1")
    assert embed_of(again)["title"].startswith("Goblin 1:"), embed_of(again)["title"]
    world.dice.push(10)
    sheet = await alice.slash(channel, "r", name="heave", npc="Goblin")
    assert embed_of(sheet)["title"].startswith("Goblin:"), embed_of(sheet)["title"]
    lines = history_lines(await world.bob.slash(channel, "history", count=3))
    assert [line.split("**")[1] for line in lines] == ["Goblin", "Goblin 1", "Goblin 1"]


async def test_the_tracker_shows_a_sheet_changed_in_the_middle_of_the_fight(world):
    """Jaime's Constitution raised with the sheet's Edit form, then with /character set, while
    the fight runs: the tracker's health line follows each (it read the old maximum until the
    next turn, while /fight show already had the new one)."""
    await fight_table(world)
    bob, channel = world.bob, world.channel
    assert line_of(world, "Jaime").endswith("· HP 20/20")
    sheet = await bob.slash(channel, "character show")
    form = await bob.click(sheet.response, label="Edit")
    await bob.submit_modal(form, {TEXT_ID: "Strength 3, Constitution 6; Long swords 5"})
    assert line_of(world, "Jaime").endswith("· HP 26/26"), line_of(world, "Jaime")
    await bob.slash(channel, "character set", attribute="Constitution", value=2)
    assert line_of(world, "Jaime").endswith("· HP 22/22"), line_of(world, "Jaime")
    await bob.slash(channel, "character health", hp=30)
    assert line_of(world, "Jaime").endswith("· HP 30/30"), line_of(world, "Jaime")
    await bob.slash(channel, "character health", hp=0)  # back to 20 + Constitution
    assert line_of(world, "Jaime").endswith("· HP 22/22"), line_of(world, "Jaime")
    await bob.slash(channel, "character remove", attribute="Constitution")
    assert line_of(world, "Jaime").endswith("· HP 20/20"), line_of(world, "Jaime")


CLI_SOURCES = ("wire/cli.py", "wire/cost_cli.py", "wire/sheet_file.py")
"""The command-line tools' messages: there `/character export` is the bot's name in a note."""


def test_german_replies_name_commands_and_options_as_a_german_client_shows_them():
    """A German client lists /angriff ziel:, not /angriff target: (Discord shows the localised
    names only), so a German reply that tells the reader what to type uses those."""
    catalogue = read_po(CATALOGUE.open("rb"))
    names = {m.id: m.string for m in catalogue if m.context == "name" and m.string}
    english_only = {word for word, german in names.items() if german != word} - set(names.values())
    wrong = []
    for message in catalogue:
        if not message.id or message.context == "name":
            continue
        if message.locations and all(path in CLI_SOURCES for path, _ in message.locations):
            continue
        text = message.string if isinstance(message.string, str) else " ".join(message.string)
        typed = re.findall(r"(?<![\w/.-])([a-z_]+):(?!//)", text) + re.findall(
            r"/([a-z_]+)\b", text
        )
        wrong += [(word, text) for word in typed if word in english_only]
    assert wrong == []


async def test_a_german_sheet_stays_marked_active_through_its_edit_form(world, client_languages):
    """The Edit form redraws the sheet it was opened from: a German sheet's "(aktiv)" stays (it
    was read as the English " (active)" only), and so do its Bearbeiten and Aktionen buttons."""
    client_languages.set(world.bob, "de")
    await make_jaime(world)
    sheet = await world.bob.slash(world.channel, "character show")
    assert embed_of(sheet)["title"] == "Jaime (aktiv)"
    form = await world.bob.click(sheet.response, label="Bearbeiten")
    await world.bob.submit_modal(form, {TEXT_ID: "Stärke 4; Long swords 5"})
    redrawn = embed_of(sheet)  # the sheet message, as the form's answer edited it
    assert redrawn["title"] == "Jaime (aktiv)", redrawn["title"]
    assert "Stärke **4**" in redrawn["fields"][0]["value"], redrawn["fields"]
    labels = [c["label"] for row in sheet.response.components for c in row["components"]]
    assert labels == ["Bearbeiten", "Aktionen"]


async def test_a_turn_ping_past_many_downed_combatants_keeps_to_2000_characters(world):
    """20 goblin copies, markdown in their names (shown inert, so twice as long): the GM's
    "Added ..." and the ping that skips them all once they are down stay within Discord's 2,000
    characters for a message (both went over: Discord refused them, and the GM read "Something
    went wrong" though the copies were added and the turn had passed)."""
    alice, bob, channel = world.alice, world.bob, world.channel
    await make_jaime(world)
    name = "Gob" + "*_" * 29
    await alice.slash(channel, "fight start", name="Ambush")
    world.dice.push(15)
    await bob.slash(channel, "fight join")
    await alice.slash(channel, "character create", name=name, npc=True)
    world.dice.push(2)
    added = (await alice.slash(channel, "fight add", npc=name, count=20)).response.content
    shown = name.replace("*", "\\*").replace("_", "\\_")
    assert added == f"Added **{shown} 1** … **{shown} 20** to **Ambush** at initiative 2."
    for n in range(1, 21):
        await alice.slash(channel, "health damage", target=f"{name} {n}", amount=60)
    await alice.slash(channel, "fight next")  # Jaime's turn
    ping = await alice.slash(channel, "fight next")  # everyone else is down: Jaime again
    content = ping.response.content
    assert content.startswith("Round 2 begins: **Jaime**"), content[:80]
    assert "Skipped, being down: **Gob\\*\\_" in content, content[:200]
    assert len(content) <= 2000, len(content)


async def test_a_copy_s_defence_odds_name_that_copy(world):
    """/panel npc:Goblin 1's Defence odds name Goblin 1, as the panel does (they named the sheet,
    "Goblin"), after a restart too; the sheet's own panel still names the sheet."""
    await goblins_turn(world)
    alice, channel = world.alice, world.channel
    panel = await alice.slash(channel, "panel", npc="Goblin 1")
    assert panel.response.content.startswith("**Goblin 1**: quick actions")
    await world.restart()
    odds = (await alice.click(panel.response, label="Defence odds")).response.content
    assert odds.startswith("**Goblin 1**: the odds of each defence against each attacker"), odds
    assert "Goblin 1 takes 10 to defend, as this table's NPCs do." in odds, odds
    sheet = await alice.slash(channel, "panel", npc="Goblin")
    odds = (await alice.click(sheet.response, label="Defence odds")).response.content
    assert odds.startswith("**Goblin**: the odds"), odds
