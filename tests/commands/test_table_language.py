"""A shared message keeps one language: the table's (the campaign's fixed one, else the server's
preferred locale), whoever's interaction writes it; what one person reads speaks theirs.

The evening of issue 20: an English GM (Alice) and a German player (Bob) at one table. Before,
the tracker was rebuilt in the language of whoever last changed the fight, so it flipped between
"round 1" and "Runde 1", its button between "Next turn" and "Nächster Zug".
"""

from __future__ import annotations

from tests.commands.conftest import embed_of
from tests.commands.test_combat import make_jaime
from tests.commands.test_fights import fight_table, tracker


def button_labels(message) -> list[str]:
    """The labels of a reply's buttons (JSON rows) or of a channel message's (action rows)."""
    labels = []
    for row in message.components:
        if isinstance(row, dict):
            labels += [c["label"] for c in row["components"]]
        else:
            labels += [c.label for c in row.children]
    return labels


async def test_the_tracker_keeps_the_servers_language_over_everyones_edits(world, client_languages):
    client_languages.set(world.bob, "de")  # Alice and Carol stay English, and the server
    await fight_table(world)  # Bob's join and Alice's add both edit the tracker
    shown = tracker(world)
    assert shown.embeds[0].title == "⚔️ Ambush: round 1"
    assert button_labels(shown) == ["Next turn"]
    await world.alice.click(shown, label="Next turn")  # Ser Carol
    turn = await world.carol.click(tracker(world), label="Next turn")  # Jaime, Bob's
    assert "**Jaime**" in turn.followups[0].content
    assert "'s turn" in turn.followups[0].content
    pressed = await world.bob.click(tracker(world), label="Next turn")  # Bob's own press
    assert pressed.followups[0].content.startswith("Round 1: **Goblin 1**'s turn")
    shown = tracker(world)
    assert shown.embeds[0].title == "⚔️ Ambush: round 1"
    assert shown.embeds[0].footer.text.startswith("Next turn:")
    assert button_labels(shown) == ["Next turn"]
    # What Bob alone reads is his: a refusal of the fight's GM-only action.
    refused = await world.bob.slash(world.channel, "fight add", npc="Goblin")
    assert refused.response.ephemeral
    assert refused.response.content.startswith("Nur ein Chronist")


async def test_a_german_server_gets_a_german_tracker_from_an_english_gm(world, client_languages):
    client_languages.server = "de"
    client_languages.set(world.bob, "de")
    await fight_table(world)
    shown = tracker(world)
    assert shown.embeds[0].title == "⚔️ Ambush: Runde 1"
    assert button_labels(shown) == ["Nächster Zug"]
    turn = await world.alice.slash(world.channel, "fight next")  # Alice's client is English
    assert "ist dran" in turn.response.content
    assert button_labels(tracker(world)) == ["Nächster Zug"]
    ended = await world.alice.slash(world.channel, "fight end")
    assert embed_of(ended)["title"].startswith("⚔️ Ambush: vorbei nach")
    # Alice's own refusals stay English.
    refused = await world.alice.slash(world.channel, "fight next")
    assert refused.response.content.startswith("No fight is running")
    # And she is told why the tracker is not in her language, and how to change that.
    again = await world.alice.slash(world.channel, "fight start", name="Rematch")
    assert embed_of(again)["title"] == "⚔️ Rematch: Runde 1"
    assert again.followups[0].ephemeral
    assert "the table's language, Deutsch" in again.followups[0].content


async def test_the_defence_prompt_for_a_german_player_is_the_tables(world, client_languages):
    """An English GM's attack on a German player's character, on a German server: the prompt,
    its buttons and the outcome speak German; the GM's own mistakes are answered in English."""
    client_languages.server = "de"
    client_languages.set(world.bob, "de")
    await make_jaime(world)
    alice, channel = world.alice, world.channel
    await alice.slash(channel, "character create", name="Orc", npc=True)
    await alice.slash(channel, "character set", name="Orc", attribute="Strength", value=2)
    await alice.slash(
        channel,
        "character weapon",
        name="Orc",
        weapon="Axe",
        base=5,
        attribute="Strength",
        skill="Axes",
    )
    world.dice.push(15)
    attack = await alice.slash(channel, "attack", npc="Orc", weapon="Axe", target="Jaime")
    waiting = embed_of(attack)
    assert waiting["title"] == "Orc: Angriff mit Axe auf Jaime"
    assert "wähle eine Abwehr" in waiting["description"]
    assert button_labels(attack.response) == ["Parieren", "Ausweichen"]
    stray = await world.carol.click(attack.response, label="Parieren")  # English, not hers
    assert stray.response.ephemeral
    assert stray.response.content.startswith("Only Jaime's player or a GM")
    world.dice.push(2)
    done = await world.bob.click(attack.response, label="Ausweichen")
    settled = embed_of(done)
    assert settled["title"] == "Orc: Angriff mit Axe auf Jaime"
    assert "Schaden" in settled["description"], settled


async def test_the_settings_say_which_language_the_shared_messages_speak(world, client_languages):
    client_languages.server = "de"
    reply = await world.alice.slash(world.channel, "campaign settings", language="de")
    assert "Sprache: Deutsch. " in reply.response.content  # fixed: everything in it
    reply = await world.alice.slash(world.channel, "campaign settings", language="user")
    assert (
        "Language: each player's own (their Discord language); the tracker and defence "
        "prompts, which the whole table shares, the server's: Deutsch. "
    ) in reply.response.content
