"""The bot in German: Jaime's attack on the goblin (the rules text's example) answered in German
for a German client, in English for an English one, and a campaign's language over both."""

from __future__ import annotations

from tests.commands.conftest import embed_of, field
from tests.commands.test_combat import make_goblin, make_jaime
from tests.discord_rules import embed_problems


async def jaimes_attack(world) -> dict:
    world.dice.push(15)
    reply = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin")
    return embed_of(reply)


async def test_a_german_client_reads_the_attack_in_german(world, client_languages):
    await make_jaime(world)
    await make_goblin(world)
    client_languages.set(world.bob, "de")
    embed = await jaimes_attack(world)
    assert embed["title"] == "Jaime: Angriff mit Long sword auf Goblin"
    assert "Treffer: 5 EG, 10 Schaden" in embed["description"]
    assert "5 Grundschaden + 5 EG = 10 Schaden" in embed["description"]
    assert field(embed, "Summe") == "**23** gegen Abwehr 13"
    assert field(embed, "Goblin: Parieren") == "**13**"


async def test_the_readme_attack_in_german_with_the_german_percent(world, client_languages):
    client_languages.set(world.bob, "de")
    world.dice.push(15)
    reply = await world.bob.slash(world.channel, "attack", str=3, skill=5, base=5, vs=13)
    embed = embed_of(reply)
    assert "Treffer: 5 EG, 10 Schaden" in embed["description"]
    assert field(embed, "Modifikatoren") == "Stärke +3, Skill +5"
    assert embed["footer"]["text"] == "80\xa0% Trefferchance vor dem Wurf"


async def test_an_english_client_reads_it_in_english(world, client_languages):
    await make_jaime(world)
    await make_goblin(world)
    client_languages.set(world.bob, "en-GB")
    embed = await jaimes_attack(world)
    assert embed["title"] == "Jaime: Attack with Long sword on Goblin"
    assert "Hit: 5 DoS, 10 damage" in embed["description"]
    assert field(embed, "Total") == "**23** vs defence 13"


async def test_a_language_the_bot_lacks_falls_back_to_english(world, client_languages):
    await make_jaime(world)
    await make_goblin(world)
    client_languages.set(world.bob, "fr")
    embed = await jaimes_attack(world)
    assert "Hit: 5 DoS, 10 damage" in embed["description"]


async def test_errors_speak_the_clients_language(world, client_languages):
    client_languages.set(world.bob, "de")
    reply = await world.bob.slash(world.channel, "attack", vs=13)
    assert reply.response.ephemeral
    assert reply.response.content.startswith("Es fehlt stä, skill, basis: gib stä, skill")


async def test_a_campaigns_language_wins_over_the_clients(world, client_languages):
    await make_jaime(world)
    await make_goblin(world)
    client_languages.set(world.alice, "de")
    reply = await world.alice.slash(world.channel, "campaign settings", language="de")
    assert "Sprache: Deutsch" in reply.response.content
    embed = await jaimes_attack(world)  # Bob's client is English
    assert embed["title"] == "Jaime: Angriff mit Long sword auf Goblin"
    reply = await world.alice.slash(world.channel, "campaign settings", language="en")
    assert "Language: English" in reply.response.content  # Alice's client is German
    client_languages.set(world.bob, "de")
    embed = await jaimes_attack(world)
    assert embed["title"] == "Jaime: Attack with Long sword on Goblin"
    await world.alice.slash(world.channel, "campaign settings", language="user")
    embed = await jaimes_attack(world)
    assert embed["title"] == "Jaime: Angriff mit Long sword auf Goblin"


async def test_only_gms_fix_the_language(world, client_languages):
    client_languages.set(world.bob, "de")
    reply = await world.bob.slash(world.channel, "campaign settings", language="en")
    assert reply.response.ephemeral
    assert reply.response.content.startswith("Nur ein Chronist von Default kann")


async def test_a_fight_in_german_tracker_and_turns(world, client_languages):
    from tests.commands.test_fights import fight_table, lines, tracker

    client_languages.server = "de"  # a German server: the tracker is the table's, in its language
    for member in (world.alice, world.bob, world.carol):
        client_languages.set(member, "de")
    await fight_table(world)
    shown = tracker(world).embeds[0]
    assert shown.title == "⚔️ Ambush: Runde 1"
    assert "Goblin 1** · unverletzt" in "\n".join(lines(tracker(world)))
    assert shown.footer.text == "Nächster Zug: wer den aktuellen Kämpfer spielt, oder ein Chronist."
    assert embed_problems(shown.to_dict()) == []
    turn = await world.alice.slash(world.channel, "fight next")
    assert "ist dran" in turn.response.content


async def test_help_in_german_fits_discord(world, client_languages):
    client_languages.set(world.bob, "de")
    embed = embed_of(await world.bob.slash(world.channel, "help"))
    assert embed["title"] == "WIRE-Bot"
    assert [f["name"] for f in embed["fields"]][-1] == "Die Regeln in Kürze"
    assert "Mindestwurf (MW)" in embed["fields"][-1]["value"]
    assert embed_problems(embed) == []


async def test_the_german_sheet_and_its_buttons(world, client_languages):
    client_languages.set(world.bob, "de")
    await make_jaime(world)
    reply = await world.bob.slash(world.channel, "character show")
    embed = embed_of(reply)
    assert embed["title"] == "Jaime (aktiv)"
    assert field(embed, "Waffen").startswith("**Long sword**: Grundschaden 5, Strength + Long")
    labels = [c["label"] for row in reply.response.components for c in row["components"]]
    assert labels == ["Bearbeiten", "Aktionen"]
    assert embed_problems(embed) == []


async def test_the_stores_refusals_speak_german(world, client_languages):
    client_languages.set(world.bob, "de")
    reply = await world.bob.slash(world.channel, "character show", name="Nobody")
    assert reply.response.ephemeral
    assert reply.response.content == (
        "Kein Charakter namens 'Nobody' in dieser Kampagne. /charakter liste zeigt sie."
    )
    english = await world.carol.slash(world.channel, "character show", name="Nobody")
    assert english.response.content == (
        "No character named 'Nobody' in this campaign. /character list shows them."
    )


async def test_an_attack_on_a_player_stays_in_the_tables_language(world, client_languages):
    from tests.commands.test_combat import make_ser_carol

    await make_jaime(world)
    await make_ser_carol(world)
    client_languages.server = "de"
    client_languages.set(world.bob, "de")  # Carol's client stays English
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")
    waiting = embed_of(attack)
    assert waiting["title"] == "Jaime: Angriff mit Long sword auf Ser Carol"
    labels = [c["label"] for row in attack.response.components for c in row["components"]]
    assert labels == ["Parieren", "Blocken", "Ausweichen"]
    world.dice.push(19)  # 19 + 2 + 3 = 24 against 23: parried with 0 DoS
    done = await world.carol.click(attack.response, label="Parieren")
    assert "5 Grundschaden - 0 EG = 5 Schaden" in embed_of(done)["description"]


async def test_a_refused_option_names_the_german_option(world, client_languages):
    client_languages.set(world.bob, "de")
    reply = await world.bob.slash(world.channel, "character create", name="   ")
    assert reply.response.ephemeral
    assert reply.response.content == ("name: besteht nur aus Leerzeichen. Tippe sichtbaren Text.")
    reply = await world.bob.slash(
        world.channel, "check", attr=1, skill=1, vs=10, label="Klettern\u200b!"
    )
    assert reply.response.content == (
        "bezeichnung: enthält ein unsichtbares oder richtungsänderndes Zeichen (U+200B). "
        "Tippe ihn noch einmal ohne dieses Zeichen."
    )


def _flawed_campaign_file() -> bytes:
    """A campaign file with twelve problems: ten shown, "(and 2 more)"."""
    sheet = (
        '{"name": "Ash", "attributes": {"Strength": 31, "Wits": ' + "9" * 5000 + "}, "
        '"weapons": [{"name": "Sabre", "base": 4, "attribute": "Strength"}], '
        '"skils": {}, "colour": 1, "mood": 2, "hat": 3, "boots": 4, "cloak": 5, "ring": 6}'
    )
    twin = '{"name": "ash", "shield": "yes"}'
    return (
        '{"format": "wire-bot", "version": 1, "kind": "campaign", '
        '"characters": [' + sheet + ", " + twin + "]}"
    ).encode()


async def test_an_imports_problems_speak_the_clients_language(world, client_languages):
    client_languages.set(world.alice, "de")
    reply = await world.alice.slash(
        world.channel, "character import", file=("flawed.json", _flawed_campaign_file())
    )
    assert reply.response.ephemeral
    german = reply.response.content
    assert german.startswith("Import abgelehnt, nichts wurde gespeichert: ")
    for shown in (
        "characters\\[0].skils: unbekanntes Feld",
        "characters\\[0].attributes.Strength: 31 ist über dem Maximum 30",
        "characters\\[0].attributes.Wits: die Zahl hat 5.000 Stellen; Werte gehen von -10 bis 30",
        "characters\\[0].weapons\\[0].skill: fehlt",
    ):
        assert shown in german, german
    assert german.endswith("(und 2 weitere)")
    listing = embed_of(await world.alice.slash(world.channel, "character list"))
    assert "Ash" not in listing["description"]

    client_languages.set(world.alice, "en-US")
    reply = await world.alice.slash(
        world.channel, "character import", file=("flawed.json", _flawed_campaign_file())
    )
    english = reply.response.content
    assert english.startswith("Import rejected, nothing was written: ")
    assert "characters\\[0].attributes.Strength: 31 is above the maximum 30" in english
    assert "the number has 5,000 digits; values go from -10 to 30" in english
    assert english.endswith("(and 2 more)")


async def test_the_effects_refusal_names_its_combatant_in_german(world, client_languages):
    from tests.commands.test_fights import fight_table

    await fight_table(world)
    client_languages.set(world.bob, "de")
    refused = await world.bob.slash(
        world.channel, "fight effect", combatant="Goblin 1", name="Bleeding"
    )
    assert refused.response.ephemeral
    assert refused.response.content.startswith(
        "Nur ein Chronist von Default kann den NSC Goblin 1 ändern oder für diesen NSC handeln."
    )
    own = await world.bob.slash(world.channel, "fight effect", combatant="Jaime", name="Wach")
    assert own.response.ephemeral
    assert own.response.content.startswith(
        "Nur ein Chronist von Default kann Zustände auf Charaktere legen (ein Chronist erlaubt "
        "es Spielern für ihre eigenen mit /kampagne einstellungen spieler_zustände:true)"
    )
