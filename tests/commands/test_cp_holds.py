"""Issue #31, character points that hold: a ready sheet moves only through the ledger, the
player hears the GMs' answer, German names are priced, entries count per character, and a
stale Spend says the price is out of date. Through the simulated client."""

from __future__ import annotations

import json

from cogs.advancement import REASON_INPUT
from cogs.sheet_edit import TEXT_ID
from tests.commands.conftest import embed_of
from tests.commands.test_sheets import modal_text


async def cp_table(world, *, approval: bool = True, budget: int = 200) -> None:
    """Alice is the GM of a table with CP on (a budget, approval); Bob plays Jaime."""
    ch = world.channel
    await world.alice.slash(ch, "cp categories", skills="Parry: combat, Long swords: combat")
    await world.alice.slash(ch, "cp settings", starting_budget=budget, approval=approval)
    await world.bob.slash(
        ch, "character create", name="Jaime", sheet="Strength 3; Parry 3, Long swords 5, Juggling 1"
    )


def ledger_text(shown) -> str:
    return embed_of(shown)["description"]


async def test_a_new_sheet_is_built_freely_then_readied_within_the_budget(world):
    await cp_table(world, budget=100)
    ch = world.channel
    built = await world.bob.slash(ch, "character set", skill="Parry", value=4)
    assert built.response.content == "Updated Jaime: Parry 4."  # still being built: free
    over = await world.bob.slash(ch, "cp ready")
    assert over.response.ephemeral
    assert "worth 125 CP, 25 CP over the starting budget of 100" in over.response.content
    await world.bob.slash(ch, "character set", skill="Long swords", value=4)
    ready = await world.bob.slash(ch, "cp ready")
    assert ready.response.content.startswith("**Jaime** is ready for play (entry #1)")
    again = await world.bob.slash(ch, "cp ready")
    assert "ready for play already" in again.response.content
    await world.carol.slash(ch, "character create", name="Bo", sheet="Strength 1")
    others = await world.carol.slash(ch, "cp ready", character="Jaime")
    assert others.response.ephemeral
    assert "Only Jaime's player or a GM can change Jaime" in others.response.content
    shown = ledger_text(await world.bob.slash(ch, "cp show"))
    assert f"ready for play **+0 CP** · by <@{world.bob.id}>" in shown, shown


async def test_a_ready_sheets_raise_by_set_is_an_improvement_and_a_lowering_is_refused(world):
    """Issue #31's walk-around: `/character set skill:Long swords value:10` by the player of a
    ready character answered "Updated Jaime: Long swords 10", 200 CP for nothing."""
    await cp_table(world)
    ch = world.channel
    await world.alice.slash(ch, "cp ready", character="Jaime")
    await world.alice.slash(ch, "cp award", amount=250, reason="S1", characters="Jaime")
    asked = await world.bob.slash(ch, "character set", skill="Long swords", value=10)
    assert asked.response.ephemeral
    assert asked.response.content == (
        "**Jaime**: Long swords 5 → 10 costs **200 CP** (250 CP to spend). "
        "A GM approves it before it counts."
    )
    sheet = embed_of(await world.bob.slash(ch, "character show"))
    assert "Long swords **5**" in str(sheet)
    done = await world.bob.click(asked.response, label="Spend 200 CP")
    assert "waits for a GM" in done.response.content
    lower = await world.bob.slash(ch, "character set", skill="Parry", value=2)
    assert lower.response.ephemeral
    assert "Parry 3 → 2 (worth 15 CP less; no CP come back)" in lower.response.content
    assert "A GM lowers one with /cp correct" in lower.response.content
    free = await world.bob.slash(ch, "character set", skill="Juggling", value=4)
    assert free.response.content == "Updated Jaime: Juggling 4."  # unpriced: the table's own


async def test_a_gms_change_of_a_ready_sheet_is_a_ledger_entry_with_why(world):
    await cp_table(world)
    ch = world.channel
    await world.bob.slash(ch, "cp ready")
    refused = await world.alice.slash(ch, "character set", name="Jaime", skill="Parry", value=5)
    assert refused.response.ephemeral
    assert "/cp correct character:Jaime skill:Parry value:5 reason:" in refused.response.content
    player = await world.bob.slash(
        ch, "cp correct", character="Jaime", skill="Parry", value=5, reason="mine"
    )
    assert "Only a GM" in player.response.content
    done = await world.alice.slash(
        ch, "cp correct", character="Jaime", skill="Parry", value=5, reason="Trained all winter"
    )
    assert done.response.content == (
        f"Corrected by <@{world.alice.id}> (entry #2): **Jaime** Parry 3 → 5: Trained all "
        "winter. Worth 45 CP, given by the GM: no CP were spent."
    )
    lowered = await world.alice.slash(
        ch, "cp correct", character="Jaime", skill="Parry", value=4, reason="Wounded hand"
    )
    assert "The sheet is worth 25 CP less; no CP come back" in lowered.response.content
    shown = ledger_text(await world.bob.slash(ch, "cp show"))
    assert "corrected **+0 CP** Parry 3 → 5 · Trained all winter" in shown, shown
    assert "corrected **+0 CP** Parry 5 → 4 · Wounded hand" in shown, shown
    undone = await world.alice.slash(ch, "cp undo", character="Jaime")
    assert "Parry 5 → 4" in undone.response.content
    sheet = embed_of(await world.bob.slash(ch, "character show"))
    assert "Parry **5**" in str(sheet)


async def test_the_edit_form_and_an_import_of_a_ready_sheet_are_held(world):
    await cp_table(world)
    ch = world.channel
    shown = await world.bob.slash(ch, "character show")
    exported = await world.bob.slash(ch, "character export")
    raw = await exported.response.attachments[0].read()
    await world.bob.slash(ch, "cp ready")
    form = await world.bob.click(shown.response, label="Edit")
    assert "Long swords 5" in modal_text(form)["value"]
    edited = await world.bob.submit_modal(
        form, {TEXT_ID: "Strength 3; Parry 3, Long swords 10, Juggling 1"}
    )
    assert edited.response.ephemeral
    assert "Long swords 5 → 10 (200 CP)" in edited.response.content, edited.response.content
    assert "/character improve skill:Long swords to:10" in edited.response.content
    again = await world.bob.click(edited.response, label="Fix it")  # what was typed, kept
    assert modal_text(again)["value"] == "Strength 3; Parry 3, Long swords 10, Juggling 1"
    data = json.loads(raw)
    data["character"]["skills"]["Long swords"] = 10
    imported = await world.bob.slash(
        ch, "character import", file=("Jaime.json", json.dumps(data).encode()), replace=True
    )
    assert imported.response.ephemeral
    assert "Long swords 5 → 10 (200 CP)" in imported.response.content, imported.response.content
    sheet = embed_of(await world.bob.slash(ch, "character show"))
    assert "Long swords **5**" in str(sheet)


async def test_without_cp_and_for_npcs_editing_stays_free(world):
    ch = world.channel
    await world.alice.slash(ch, "cp categories", skills="Parry: combat")
    await world.bob.slash(ch, "character create", name="Jaime", sheet="Strength 3; Parry 3")
    await world.alice.slash(ch, "cp ready", character="Jaime")
    free = await world.bob.slash(ch, "character set", skill="Parry", value=9)
    assert free.response.content == "Updated Jaime: Parry 9."  # no budget, no approval: no CP
    await world.alice.slash(ch, "cp settings", starting_budget=100)
    held = await world.bob.slash(ch, "character set", skill="Parry", value=10)
    assert held.response.content.startswith("Parry 9 → 10 costs 50 CP; Jaime has 0 CP")
    await world.alice.slash(ch, "character create", name="Goblin", npc=True, sheet="; Parry 2")
    npc = await world.alice.slash(ch, "character set", name="Goblin", skill="Parry", value=6)
    assert npc.response.content == "Updated Goblin: Parry 6."


async def test_the_player_is_told_the_answer_where_they_asked_in_their_language(
    world, client_languages
):
    await cp_table(world)
    ch = world.channel
    gm_room = world.guild.create_text_channel("gm-room")
    await world.alice.slash(ch, "campaign settings", gm_channel=gm_room)
    await world.alice.slash(ch, "cp award", amount=100, reason="S1", characters="Jaime")
    asked = await world.bob.slash(ch, "character improve", skill="Parry")
    await world.bob.click(asked.response, label="Spend 20 CP")
    (request,) = gm_room.history()
    await world.alice.click(request, label="Approve")
    told = ch.last_message
    assert told.content == (
        f"<@{world.bob.id}> The GMs approved it: **Jaime**'s Parry is 4 now (from 3) for 20 CP; "
        "80 CP left to spend."
    )
    client_languages.set(world.bob, "de")
    asked = await world.bob.slash(ch, "character improve", skill="Parry")
    await world.bob.click(asked.response, label="25 CP ausgeben")
    request = gm_room.history()[-1]
    player = await world.bob.click(request, label="Refuse")
    assert player.response.ephemeral and "Nur ein Chronist" in player.response.content
    form = await world.alice.click(request, label="Refuse")
    refused = await world.alice.submit_modal(form, {REASON_INPUT: "Not before the *duel*"})
    assert refused.response.content == (
        f"Refused by <@{world.alice.id}>: Parry 4 → 5 (25 CP); nothing was spent. Why: Not "
        "before the \\*duel\\*"
    ), refused.response.content
    told = ch.last_message
    assert told.content == (
        f"<@{world.bob.id}> Die Chronisten haben deine Anfrage Parry 4 → 5 (25 CP) abgelehnt; "
        "nichts wurde ausgegeben. Warum: Not before the \\*duel\\*"
    ), told.content


async def test_the_player_is_told_when_the_sweep_closes_the_request(world, monkeypatch):
    from datetime import timedelta

    await cp_table(world)
    ch = world.channel
    await world.alice.slash(ch, "cp award", amount=100, reason="S1", characters="Jaime")
    asked = await world.bob.slash(ch, "character improve", skill="Parry")
    await world.bob.click(asked.response, label="Spend 20 CP")
    later = world.bot.now() + timedelta(days=7, minutes=1)
    monkeypatch.setattr(world.bot, "now", lambda: later)
    cog = world.bot.get_cog("CharacterPoints")
    assert await cog.sweep_expired() == 1
    await world.env.settle()
    told = ch.last_message
    assert told.content.startswith(f"<@{world.bob.id}> Your request Parry 3 → 4 (20 CP) waited")


async def test_a_german_name_is_priced_as_a_roll_reads_it(world):
    """Issue #31: `/character improve` of "Stärke" was refused ("no attribute named 'Stärke'")
    while a roll read the same sheet's Strength."""
    await cp_table(world, approval=False)
    ch = world.channel
    await world.alice.slash(ch, "cp settings", attribute_price=10)
    await world.alice.slash(ch, "cp award", amount=100, reason="S1", characters="Jaime")
    german = await world.bob.slash(ch, "character improve", skill="Stärke", attribute=True)
    assert german.response.content == "**Jaime**: Strength 3 → 4 costs **10 CP** (100 CP to spend)."
    parry = await world.bob.slash(ch, "character improve", skill="Parieren")
    assert parry.response.content.startswith("**Jaime**: Parry 3 → 4 costs **20 CP**")


async def test_ledger_entries_are_numbered_per_character(world):
    """Issue #31: one character's list read #1, #3, #4 (the campaign's numbers)."""
    await cp_table(world, approval=False)
    ch = world.channel
    await world.carol.slash(ch, "character create", name="Bo", sheet="Strength 1; Parry 1")
    await world.alice.slash(ch, "cp award", amount=50, reason="S1", characters="Jaime, Bo")
    await world.alice.slash(ch, "cp award", amount=5, reason="S2", characters="Bo, Jaime")
    lines = ledger_text(await world.bob.slash(ch, "cp show")).splitlines()[1:]
    assert [line.split()[0] for line in lines] == ["`#2`", "`#1`"], lines
    lines = ledger_text(await world.carol.slash(ch, "cp show")).splitlines()[1:]
    assert [line.split()[0] for line in lines] == ["`#2`", "`#1`"], lines


async def test_a_stale_spend_button_says_the_price_is_out_of_date(world):
    """Issue #31: a second Spend of the same step answered "Strength is at 4 already: CP only
    raise it"; it says the price is out of date and shows the new one."""
    await cp_table(world, approval=False)
    ch = world.channel
    await world.alice.slash(ch, "cp award", amount=100, reason="S1", characters="Jaime")
    first = await world.bob.slash(ch, "character improve", skill="Parry")
    second = await world.bob.slash(ch, "character improve", skill="Parry")
    await world.bob.click(first.response, label="Spend 20 CP")
    stale = await world.bob.click(second.response, label="Spend 20 CP")
    assert stale.response.content == (
        "That price is out of date: Parry is at 4 now, and 4 → 5 costs 25 CP. "
        "Ask again with /character improve."
    ), stale.response.content
