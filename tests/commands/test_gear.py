"""Gear, purses and counters through the simulated client: who may, what the table reads,
a double press and a stranger's press on a gift, German replies."""

from __future__ import annotations

from cogs.gear_form import ITEMS_ID
from tests.commands.at_once import without_waiting
from tests.commands.conftest import embed_of, field
from tests.commands.test_combat import make_goblin, make_jaime, make_ser_carol
from tests.commands.test_sheets import modal_text


async def setup_table(world) -> None:
    """Alice (the server's owner) is the GM; Bob plays Ash, Carol plays Bo; a goblin NPC."""
    ch = world.channel
    await world.bob.slash(ch, "character create", name="Ash", sheet="Strength 2, Resolve 1")
    await world.carol.slash(ch, "character create", name="Bo", sheet="Strength 1")
    await world.alice.slash(ch, "character create", name="Goblin", sheet="Strength 1", npc=True)


async def test_items_add_up_and_the_sheet_flags_the_load(world):
    await setup_table(world)
    ch = world.channel
    added = await world.bob.slash(ch, "gear add", item="Rope", quantity=2, weight="1.5")
    assert not added.response.ephemeral
    assert added.response.content == (
        "**Ash** now has 2 × **Rope** (1.5 kg each, 3 kg). 3 kg of 6 kg carried (lift 30 kg)"
    )
    sheet = await world.bob.slash(ch, "character show")
    assert field(embed_of(sheet), "Load") == "3 kg of 6 kg carried (lift 30 kg)"
    heavy = await world.bob.slash(ch, "gear add", item="Anvil", weight="4", note="for Bo")
    assert heavy.response.content.endswith(
        "⚠ 7 kg of 6 kg carried (lift 30 kg), over the maximum load"
    )
    sheet = await world.bob.slash(ch, "character show")
    assert "over the maximum load" in field(embed_of(sheet), "Load")
    await world.bob.slash(ch, "gear add", item="Tent", weight="9", stored=True)
    listed = await world.bob.slash(ch, "gear list")
    assert listed.response.ephemeral
    lines = embed_of(listed)["description"].splitlines()
    assert lines == [
        "1 × **Anvil** (4 kg each, 4 kg): for Bo",
        "2 × **Rope** (1.5 kg each, 3 kg)",
        "1 × **Tent** (9 kg each, 9 kg), stored",
    ]
    used = await world.bob.slash(ch, "gear use", item="rope")
    assert used.response.content == "**Ash** uses one Rope; 1 left."
    gone = await world.bob.slash(ch, "gear remove", item="Anvil")
    assert gone.response.content == "**Ash** puts away 1 × Anvil; 0 left."
    missing = await world.bob.slash(ch, "gear use", item="Anvil")
    assert missing.response.ephemeral and "Ash carries no Anvil" in missing.response.content


async def test_bad_input_is_refused_naming_the_fix(world):
    await setup_table(world)
    ch = world.channel
    bad = await world.bob.slash(ch, "gear add", item="Rope", weight="heavy")
    assert bad.response.ephemeral
    assert bad.response.content == "heavy is not a weight: write kilograms, e.g. 0.5 or 2."
    await world.alice.slash(ch, "purse currency", coins="copper 10 silver 10 gold")
    coins = await world.bob.slash(ch, "purse pay", amount="3 platinum")
    assert coins.response.ephemeral and "copper, silver, gold" in coins.response.content
    bad_currency = await world.alice.slash(ch, "purse currency", coins="copper 1 silver")
    assert (
        bad_currency.response.ephemeral and "A rate is 2 to 1000" in bad_currency.response.content
    )


async def test_players_keep_to_their_own_and_npc_gear_is_the_gms(world):
    await setup_table(world)
    ch = world.channel
    other = await world.carol.slash(ch, "gear add", item="Rope", character="Ash")
    assert other.response.ephemeral
    assert other.response.content == "Only Ash's player or a GM can see or change Ash's gear."
    peek = await world.carol.slash(ch, "gear list", character="Ash")
    assert "Only Ash's player or a GM" in peek.response.content
    npc = await world.bob.slash(ch, "gear list", character="Goblin")
    assert npc.response.ephemeral and "Only a GM" in npc.response.content
    gm = await world.alice.slash(ch, "gear add", item="Rusty knife", character="Goblin")
    assert gm.response.ephemeral  # an NPC's kit is the GMs' to read
    gm_pc = await world.alice.slash(ch, "gear add", item="Letter", character="Ash")
    assert (
        not gm_pc.response.ephemeral and "**Ash** now has 1 × **Letter**" in gm_pc.response.content
    )


async def test_a_purse_in_the_campaigns_coins_with_a_ledger_the_gm_undoes(world):
    await setup_table(world)
    ch = world.channel
    cur = await world.alice.slash(ch, "purse currency", coins="copper 10 silver 10 gold")
    assert cur.response.content == (
        "Currency of Default: 10 copper = 1 silver, 10 silver = 1 gold; "
        "gifts wait for the receiver's Accept."
    )
    got = await world.bob.slash(ch, "purse receive", amount="3 gold 4 silver", reason="loot")
    assert got.response.content == (
        "**Ash**: received 3 gold 4 silver; the purse holds 3 gold 4 silver. (loot)"
    )
    short = await world.bob.slash(ch, "purse pay", amount="5 gold")
    assert short.response.ephemeral
    assert short.response.content == "Ash has not that much money: nothing changed."
    paid = await world.bob.slash(ch, "purse pay", amount="45", reason="rope")
    assert paid.response.content.startswith(
        "**Ash**: paid 4 silver 5 copper; the purse holds 2 gold 9 silver 5 copper."
    )
    refused = await world.bob.slash(
        ch, "purse grant", character="Ash", amount="9 gold", reason="me"
    )
    assert refused.response.ephemeral and "Only a GM" in refused.response.content
    await world.alice.slash(ch, "purse grant", character="Ash", amount="1 gold", reason="reward")
    undo_refused = await world.bob.slash(ch, "purse undo", character="Ash")
    assert "Only a GM" in undo_refused.response.content
    undone = await world.alice.slash(ch, "purse undo", character="Ash")
    assert undone.response.content == (
        "**Ash**: undone 1 gold; the purse holds 2 gold 9 silver 5 copper."
    )
    ledger = await world.bob.slash(ch, "purse show")
    lines = embed_of(ledger)["description"].splitlines()
    assert lines[0] == "Holds 2 gold 9 silver 5 copper"
    assert lines[1] == f"undone **−1 gold**: reward · by <@{world.alice.id}>"
    assert lines[2] == f"~~granted **+1 gold**: reward · by <@{world.alice.id}>~~"
    assert lines[3] == f"paid **−4 silver 5 copper**: rope · by <@{world.bob.id}>"


async def test_a_give_waits_for_the_receiver_acts_once_and_strangers_are_refused(world):
    await setup_table(world)
    ch = world.channel
    await world.bob.slash(ch, "gear add", item="Arrow", quantity=3, weight="0.05")
    offer = await world.bob.slash(ch, "gear give", item="Arrow", receiver="Bo", quantity=2)
    assert not offer.response.ephemeral
    assert offer.response.content == (
        f"**Ash** offers **Bo** 2 × Arrow. <@{world.carol.id}>, accept or refuse below; "
        "nothing moves until you do."
    )
    stranger = await world.alice.click(offer.response, label="Accept")
    assert stranger.response.ephemeral
    assert stranger.response.content == "Only Bo's player can answer this gift."
    giver = await world.bob.click(offer.response, label="Accept")
    assert "Only Bo's player" in giver.response.content
    first = await without_waiting(
        world.env, lambda: world.carol.click(offer.response, label="Accept")
    )
    second = await world.carol.click(offer.response, label="Accept")
    answers = sorted(
        [first.response.content, second.response.content], key=lambda t: t.startswith("That")
    )
    assert answers == [
        f"Accepted by <@{world.carol.id}>: 2 × Arrow changed hands.",
        "That gift was answered already: nothing changed.",
    ]
    assert offer.response.components == []
    bo = await world.carol.slash(ch, "gear list")
    assert embed_of(bo)["description"] == "2 × **Arrow** (0.05 kg each, 0.1 kg)"
    ash = await world.bob.slash(ch, "gear list")
    assert embed_of(ash)["description"] == "1 × **Arrow** (0.05 kg each, 0.05 kg)"


async def test_money_given_at_once_when_the_table_says_so(world):
    await setup_table(world)
    ch = world.channel
    await world.alice.slash(ch, "purse grant", character="Ash", amount="30", reason="pay day")
    await world.alice.slash(ch, "purse currency", gifts_at_once=True)
    given = await world.bob.slash(ch, "purse give", receiver="Bo", amount="10")
    assert given.response.content == "**Ash** gives **Bo** 10 coin."
    assert given.response.components == []
    bo = await world.carol.slash(ch, "purse show")
    assert embed_of(bo)["description"].splitlines()[0] == "Holds 10 coin"


async def test_a_refused_gift_moves_nothing(world):
    await setup_table(world)
    ch = world.channel
    await world.alice.slash(ch, "purse grant", character="Ash", amount="30", reason="pay day")
    offer = await world.bob.slash(ch, "purse give", receiver="Bo", amount="10")
    refused = await world.carol.click(offer.response, label="Refuse")
    assert (
        refused.response.content == f"Refused by <@{world.carol.id}>: 10 coin stays where it was."
    )
    bo = await world.carol.slash(ch, "purse show")
    assert embed_of(bo)["description"].splitlines()[0] == "Holds 0 coin"


async def test_counters_spend_refuse_at_zero_and_fill_at_a_fights_end(world):
    await setup_table(world)
    ch = world.channel
    added = await world.bob.slash(
        ch, "counter add", name="Arrows", maximum=20, value=1, reset="fight"
    )
    assert added.response.content == "**Ash**: Arrows 1/20 (at a fight's end)"
    used = await world.bob.slash(ch, "counter use", name="arrows")
    assert used.response.content == "**Ash**: Arrows 0/20 (was 1)"
    empty = await world.bob.slash(ch, "counter use", name="Arrows")
    assert empty.response.ephemeral
    assert empty.response.content == "Arrows is at 0: there is not 1 to spend."
    over = await world.bob.slash(ch, "counter set", name="Arrows", value=21)
    assert over.response.ephemeral and "0 to its maximum 20" in over.response.content
    other = await world.carol.slash(ch, "counter use", name="Arrows", character="Ash")
    assert "Only Ash's player or a GM" in other.response.content
    await world.alice.slash(ch, "fight start", name="Ambush")
    await world.bob.slash(ch, "fight join", initiative=12)
    await world.alice.slash(ch, "fight end")
    listed = await world.bob.slash(ch, "gear list")
    assert field(embed_of(listed), "Counters") == "Arrows 20/20 (at a fight's end)"
    refused = await world.bob.slash(ch, "counter reset", session=True)
    assert "Only a GM" in refused.response.content
    none = await world.alice.slash(ch, "counter reset")
    assert none.response.ephemeral and "session:True" in none.response.content


async def test_german_replies(world, client_languages):
    await setup_table(world)
    ch = world.channel
    client_languages.set(world.bob, "de")
    added = await world.bob.slash(ch, "gear add", item="Seil", quantity=2, weight="1,5")
    assert added.response.content == (
        "**Ash** hat jetzt 2 × **Seil** (je 1,5 kg, 3 kg). 3 kg von 6 kg getragen (heben 30 kg)"
    )
    await world.alice.slash(ch, "purse currency", coins="Heller 12 Groschen 20 Taler")
    got = await world.bob.slash(ch, "purse receive", amount="1 Taler 2 Groschen")
    assert got.response.content == (
        "**Ash**: erhalten 1 Taler 2 Groschen; der Geldbeutel enthält 1 Taler 2 Groschen."
    )
    short = await world.bob.slash(ch, "purse pay", amount="2 Taler")
    assert short.response.content == "Ash hat nicht so viel Geld: nichts hat sich geändert."
    listed = await world.bob.slash(ch, "gear list")
    embed = embed_of(listed)
    assert embed["title"] == "Ausrüstung von Ash"
    assert field(embed, "Geldbeutel") == "1 Taler 2 Groschen"
    other = await world.bob.slash(ch, "gear list", character="Goblin")
    assert "Nur ein Chronist" in other.response.content


async def test_arrows_run_out_an_attack_is_refused_at_zero_and_a_defence_never_spends(world):
    await make_jaime(world)
    await make_goblin(world)
    await make_ser_carol(world)
    ch = world.channel
    await world.bob.slash(
        ch, "counter add", name="Arrows", maximum=20, value=1, weapon="Long sword"
    )
    world.dice.push(15)
    shot = await world.bob.slash(ch, "attack", weapon="Long sword", target="Goblin")
    assert "Hit: 5 DoS" in embed_of(shot)["description"]
    assert [(f.content, f.ephemeral) for f in shot.followups] == [("Arrows 0/20 left.", True)]
    world.dice.push(15)
    empty = await world.bob.slash(ch, "attack", weapon="Long sword", target="Goblin")
    assert empty.response.ephemeral
    assert empty.response.content == (
        "Long sword has no Arrows left (0/20): nothing was rolled. Refill it (/counter set) "
        "or attack with another weapon."
    )
    # A refused attack (a player picking an NPC's defence) spends nothing either.
    await world.bob.slash(ch, "counter set", name="Arrows", value=1)
    refused = await world.bob.slash(
        ch, "attack", weapon="Long sword", target="Goblin", defence="parry"
    )
    assert "Only a GM chooses" in refused.response.content
    # Ser Carol defends: no counter of hers, and Jaime's arrows stay as they are.
    world.dice.push(15, 10)
    waiting = await world.bob.slash(ch, "attack", weapon="Long sword", target="Ser Carol")
    await world.carol.click(waiting.response, label="Parry")
    listed = await world.bob.slash(ch, "gear list")
    assert field(embed_of(listed), "Counters") == "Arrows 0/20 (on a GM's word)"


async def test_help_has_a_gear_topic_in_both_languages(world, client_languages):
    topic = embed_of(await world.bob.slash(world.channel, "help", topic="gear"))
    assert topic["title"] == "Gear and money"
    assert "`/purse currency coins:copper 10 silver 10 gold`" in topic["description"]
    client_languages.set(world.bob, "de")
    topic = embed_of(await world.bob.slash(world.channel, "help", topic="gear"))
    assert topic["title"] == "Ausrüstung und Geld"
    assert "`/ausrüstung geben gegenstand:Pfeil empfänger:Bo`" in topic["description"]
    assert "(Stärke + Entschlossenheit) x 2 kg" in topic["description"]


async def test_a_players_autocomplete_offers_no_npc_to_give_to(world):
    await setup_table(world)
    offered = await world.bob.autocomplete(world.channel, "gear give", "receiver", "")
    assert [c["value"] for c in offered] == ["Ash", "Bo"]
    gm = await world.alice.autocomplete(world.channel, "purse grant", "character", "")
    assert "Goblin" in [c["value"] for c in gm]
    player = await world.bob.autocomplete(world.channel, "purse grant", "character", "")
    assert "Goblin" not in [c["value"] for c in player]


async def test_a_gm_takes_money_resets_counters_and_a_player_removes_one(world):
    await setup_table(world)
    ch = world.channel
    await world.alice.slash(ch, "purse grant", character="Bo", amount="20", reason="loot")
    fine = await world.alice.slash(ch, "purse take", character="Bo", amount="5", reason="a fine")
    assert fine.response.content == "**Bo**: taken 5 coin; the purse holds 15 coin. (a fine)"
    refused = await world.carol.slash(ch, "purse take", character="Bo", amount="5", reason="x")
    assert "Only a GM" in refused.response.content
    await world.carol.slash(ch, "counter add", name="Luck", maximum=3, value=0, reset="session")
    await world.carol.slash(ch, "counter add", name="Torches", maximum=5, value=1)
    filled = await world.alice.slash(ch, "counter reset", character="Bo", name="Torches")
    assert filled.response.content == "Filled 1 counters."
    session = await world.alice.slash(ch, "counter reset", session=True)
    assert session.response.content == "Filled 1 counters."
    listed = await world.carol.slash(ch, "gear list")
    assert field(embed_of(listed), "Counters") == (
        "Luck 3/3 (at a session's end)\nTorches 5/5 (on a GM's word)"
    )
    gone = await world.carol.slash(ch, "counter remove", name="luck")
    assert gone.response.content == "**Bo** no longer counts Luck."
    stranger = await world.bob.slash(ch, "counter remove", name="Torches", character="Bo")
    assert stranger.response.ephemeral and "Only Bo's player or a GM" in stranger.response.content


def form_items(shown) -> dict:
    """The items input of the form a press opened."""
    return modal_text(shown, ITEMS_ID)


async def test_the_gear_form_changes_all_items_at_once(world, client_languages):
    await setup_table(world)
    ch = world.channel
    await world.bob.slash(ch, "gear add", item="Rope", quantity=2, weight="1.5", note="hemp")
    listed = await world.bob.slash(ch, "gear list")
    form = await world.bob.click(listed.response, label="Edit")
    assert form_items(form)["value"] == "2 x Rope; 1.5 kg: hemp"
    done = await world.bob.submit_modal(
        form, {ITEMS_ID: "1 x Rope; 1.5 kg: hemp\nTent; 9 kg; stored\n3 x Arrow; 0.05"}
    )
    assert done.response.ephemeral
    assert done.response.content == (
        "**Ash** now has 3 items. 1.65 kg of 6 kg carried (lift 30 kg)"
    )
    again = await world.bob.click(listed.response, label="Edit")
    bad = await world.bob.submit_modal(again, {ITEMS_ID: "Rope; heavy"})
    assert bad.response.ephemeral
    assert bad.response.content.startswith("Line 1: heavy is not a weight")
    kept = await world.bob.slash(ch, "gear list")
    assert len(embed_of(kept)["description"].splitlines()) == 3  # the bad form changed nothing
    client_languages.set(world.bob, "de")
    kept = await world.bob.slash(ch, "gear list")
    german = await world.bob.click(kept.response, label="Bearbeiten")
    assert form_items(german)["value"] == (
        "3 x Arrow; 0,05 kg\n1 x Rope; 1,5 kg: hemp\n1 x Tent; 9 kg; eingelagert"
    )
