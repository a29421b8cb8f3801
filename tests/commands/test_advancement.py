"""Character points through the simulated client: prices, awards, spending, approval, undo."""

from __future__ import annotations

from cogs.advancement import REASON_INPUT
from cogs.sheet_edit import TEXT_ID
from tests.commands.conftest import embed_of, field
from tests.commands.test_sheets import modal_text


async def setup_table(world, *, approval: bool = False) -> None:
    """Alice (the server's owner) is the GM; Bob plays Ash, Carol plays Bo."""
    ch = world.channel
    await world.alice.slash(ch, "cp categories", skills="Parry: combat, Elvish: language")
    if approval:
        await world.alice.slash(ch, "cp settings", approval=True)
    await world.bob.slash(ch, "character create", name="Ash", sheet="Strength 3; Parry 3")
    await world.carol.slash(ch, "character create", name="Bo", sheet="Strength 1; Juggling 2")


async def test_gm_sets_categories_and_settings_players_may_not(world):
    ch = world.channel
    refused = await world.bob.slash(ch, "cp categories", skills="Parry: combat")
    assert refused.response.ephemeral and "Only a GM" in refused.response.content
    done = await world.alice.slash(ch, "cp categories", skills="Parry: combat, Elvish: Sprache")
    assert done.response.content == "Skill categories of Default: Elvish: language, Parry: combat"
    bad = await world.alice.slash(ch, "cp categories", skills="Parry: magic")
    assert "combat, action, knowledge or language" in bad.response.content
    shown = await world.alice.slash(ch, "cp settings")
    assert "attribute point: not priced" in shown.response.content
    shown = await world.alice.slash(ch, "cp settings", attribute_price=5, starting_budget=40)
    assert "attribute point: 5 CP" in shown.response.content
    assert "starting budget: 40 CP" in shown.response.content
    refused = await world.bob.slash(ch, "cp settings", approval=True)
    assert "Only a GM" in refused.response.content


async def test_award_improve_confirm_and_ledger(world):
    await setup_table(world)
    ch = world.channel
    refused = await world.bob.slash(ch, "cp award", amount=50, reason="me", characters="Ash")
    assert "Only a GM" in refused.response.content
    award = await world.alice.slash(
        ch, "cp award", amount=50, reason="Session 3: the warrens", characters="Ash, Bo"
    )
    lines = award.response.content.splitlines()
    assert lines[0] == "+50 CP: Session 3: the warrens"
    assert "**Ash**: CP earned 50, spent 0, unspent 50" in lines[1]
    asked = await world.bob.slash(ch, "character improve", skill="Parry", to=5)
    assert asked.response.ephemeral
    assert asked.response.content == "**Ash**: Parry 3 → 5 costs **45 CP** (50 CP to spend)."
    done = await world.bob.click(asked.response, label="Spend 45 CP")
    assert done.response.content == "Done: **Ash** Parry 3 → 5 for 45 CP."
    short = await world.bob.slash(ch, "character improve", skill="Parry")
    assert short.response.ephemeral
    assert "costs 30 CP; Ash has 5 CP to spend, 25 CP short" in short.response.content
    unpriced = await world.carol.slash(ch, "character improve", skill="Juggling")
    assert "Juggling has no category" in unpriced.response.content
    other = await world.carol.slash(ch, "character improve", skill="Parry", character="Ash")
    assert "Only Ash's player or a GM can change Ash" in other.response.content
    ledger = await world.bob.slash(ch, "cp show")
    text = embed_of(ledger)["description"]
    assert text.splitlines()[0] == "CP earned 50, spent 45, unspent 5"
    assert "spent **-45 CP** Parry 3 → 5" in text and "Session 3: the warrens" in text
    # who made each entry: the GM's award, the player's spend
    assert f"Session 3: the warrens · by <@{world.alice.id}>" in text, text
    assert f"Parry 3 → 5 · by <@{world.bob.id}>" in text, text


async def test_sheet_shows_worth_and_cost_itemises(world):
    await setup_table(world)
    ch = world.channel
    await world.alice.slash(ch, "cp settings", starting_budget=20)
    sheet = await world.bob.slash(ch, "character show")
    value = field(embed_of(sheet), "Character points")
    assert value.splitlines()[0] == "Sheet: 30 CP: skills 30, attributes not priced"
    assert "CP earned 0, spent 0, unspent 0" in value
    assert "Over the starting budget of 20 CP by 10 CP" in value
    cost = await world.carol.slash(ch, "character cost")
    lines = embed_of(cost)["description"].splitlines()
    assert lines[0] == "Juggling 2: unpriced (no category set)"
    assert "Attributes (1 point): not priced" in lines[1]
    assert lines[2] == "Sheet: 0 CP: skills 0, attributes not priced (unpriced: Juggling)"


async def test_approval_buttons_survive_a_restart(world):
    await setup_table(world, approval=True)
    ch = world.channel
    await world.alice.slash(ch, "cp award", amount=40, reason="Session 1", characters="Ash")
    asked = await world.bob.slash(ch, "character improve", skill="Parry")
    assert "A GM approves it before it counts." in asked.response.content
    done = await world.bob.click(asked.response, label="Spend 20 CP")
    assert "waits for a GM" in done.response.content
    request = ch.last_message
    assert request.content.startswith(
        f"GMs: <@{world.bob.id}> asks to raise **Ash**'s Parry 3 → 4 for 20 CP (open until <t:"
    )
    second = await world.bob.slash(ch, "character improve", skill="Elvish")
    await world.bob.click(second.response, label="Spend 2 CP")
    refusal = ch.last_message
    await world.restart()
    refused = await world.bob.click(request, label="Approve")
    assert refused.response.ephemeral and "Only a GM" in refused.response.content
    approved = await world.alice.click(request, label="Approve")
    assert approved.response.content.startswith(f"Approved by <@{world.alice.id}>:")
    assert "**Ash** Parry 3 → 4 for 20 CP" in approved.response.content
    form = await world.alice.click(refusal, label="Refuse")
    no = await world.alice.submit_modal(form, {REASON_INPUT: ""})
    assert "nothing was spent" in no.response.content
    ledger = embed_of(await world.bob.slash(ch, "cp show"))["description"]
    assert ledger.splitlines()[0] == "CP earned 40, spent 20, unspent 20"


async def test_award_to_active_characters_and_undo(world):
    await setup_table(world)
    ch = world.channel
    award = await world.alice.slash(
        ch, "cp award", amount=10, reason="Session 2", everyone="active"
    )
    assert "**Ash**" in award.response.content and "**Bo**" in award.response.content
    asked = await world.bob.slash(ch, "character improve", skill="Elvish", to=2)
    await world.bob.click(asked.response, label="Spend 6 CP")
    refused = await world.bob.slash(ch, "cp undo", character="Ash")
    assert "Only a GM" in refused.response.content
    undone = await world.alice.slash(ch, "cp undo", character="Ash")
    assert "Undone:" in undone.response.content and "Elvish 0 → 2" in undone.response.content
    sheet = await world.bob.slash(ch, "character show")
    assert "Elvish" in str(embed_of(sheet))  # kept at 0: the skill was learned and given back
    ledger = embed_of(await world.bob.slash(ch, "cp show"))["description"]
    assert ledger.splitlines()[0] == "CP earned 10, spent 0, unspent 10"
    nofight = await world.alice.slash(ch, "cp award", amount=5, reason="x", everyone="fight")
    assert "No fight is running" in nofight.response.content


async def test_german_replies(world, client_languages):
    await setup_table(world)
    client_languages.set(world.bob, "de")
    await world.alice.slash(world.channel, "cp award", amount=50, reason="S1", characters="Ash")
    asked = await world.bob.slash(world.channel, "character improve", skill="Parry")
    assert "kostet **20 CP**" in asked.response.content


async def test_categories_are_offered_by_autocomplete_in_the_readers_language(
    world, client_languages
):
    await setup_table(world)
    ch = world.channel
    names = await world.alice.autocomplete(ch, "cp categories", "skills", "Jug")
    # Juggling has no category yet: offered with each; a category already set says so.
    assert [c["value"] for c in names] == [
        "Juggling: combat",
        "Juggling: action",
        "Juggling: knowledge",
        "Juggling: language",
    ]
    later = await world.alice.autocomplete(ch, "cp categories", "skills", "Juggling: action, par")
    assert later == [{"name": "Parry: combat (as now)", "value": "Juggling: action, Parry: combat"}]
    client_languages.set(world.alice, "de")
    german = await world.alice.autocomplete(ch, "cp categories", "skills", "Parry: K")
    assert german == [{"name": "Parry: Kampf", "value": "Parry: Kampf"}]
    skills = await world.bob.autocomplete(ch, "character improve", "skill", "")
    assert [c["name"] for c in skills] == ["Parry (3, combat)", "Elvish (new, language)"]
    client_languages.set(world.carol, "de")
    hers = await world.carol.autocomplete(ch, "character improve", "skill", "")
    assert hers[0]["name"] == "Juggling (2, ohne Preis)"


async def test_sheet_text_and_edit_form_carry_categories(world):
    ch = world.channel
    made = await world.alice.slash(
        ch, "character create", name="Vex", sheet="Strength 2; Dodge 2 (action), Runes 1 (Wissen)"
    )
    assert made.response.embeds
    listed = await world.alice.slash(ch, "cp categories")
    assert listed.response.content == "Skill categories of Default: Dodge: action, Runes: knowledge"
    # A player may write the campaign's own category, but not give or change one.
    same = await world.bob.slash(ch, "character create", name="Ash", sheet="; Dodge 1 (action)")
    assert same.response.embeds
    new = await world.bob.slash(ch, "character create", name="Ash2", sheet="; Juggling 1 (action)")
    assert new.response.ephemeral and "Only a GM gives a skill its category" in (
        new.response.content
    )
    other = await world.bob.slash(ch, "character create", name="Ash3", sheet="; Dodge 1 (combat)")
    assert "Dodge has the category action in this campaign, not combat" in other.response.content
    bad = await world.bob.slash(ch, "character create", name="Ash4", sheet="Str 1 (combat)")
    assert "only skills have a category" in bad.response.content
    form = await world.bob.click(same.response, label="Edit")
    assert modal_text(form)["value"] == "; Dodge 1 (action)"
    kept = await world.bob.submit_modal(form, {TEXT_ID: "; Dodge 1 (action)"})
    assert kept.followups[0].content == "Ash's sheet is unchanged."
    # The GM's form gives a new skill its category.
    form = await world.alice.click(made.response, label="Edit")
    assert modal_text(form)["value"] == "Strength 2; Dodge 2 (action), Runes 1 (knowledge)"
    await world.alice.submit_modal(form, {TEXT_ID: "Strength 2; Dodge 2, Juggling 1 (Kampf)"})
    listed = await world.alice.slash(ch, "cp categories")
    assert "Juggling: combat" in listed.response.content


async def test_a_waiting_improvement_expires_after_seven_days(world, monkeypatch):
    """Past its expiry (said when asked) a request's buttons close it with a note: nothing
    spent, the held CP free again; after a restart too."""
    from datetime import timedelta

    await setup_table(world, approval=True)
    ch = world.channel
    await world.alice.slash(ch, "cp award", amount=20, reason="Session 1", characters="Ash")
    asked = await world.bob.slash(ch, "character improve", skill="Parry")
    done = await world.bob.click(asked.response, label="Spend 20 CP")
    assert "waits for a GM, at most 7 days" in done.response.content
    request = ch.last_message
    held = embed_of(await world.bob.slash(ch, "cp show"))["description"]
    assert "(20 held by waiting improvements)" in held
    later = world.bot.now() + timedelta(days=7, minutes=1)
    await world.restart()
    monkeypatch.setattr(world.bot, "now", lambda: later)
    closed = await world.alice.click(request, label="Approve")
    assert closed.response.content == (
        "Expired: Parry 3 → 4 (20 CP) waited 7 days for a GM, so it is closed and nothing was "
        "spent. Ask again with /character improve."
    )
    assert closed.response.components == []
    ledger = embed_of(await world.bob.slash(ch, "cp show"))["description"]
    assert ledger.splitlines()[0] == "CP earned 20, spent 0, unspent 20"
    sheet = await world.bob.slash(ch, "character show")
    assert "Parry **3**" in str(embed_of(sheet))


async def test_approval_goes_to_the_campaigns_gm_channel(world):
    await setup_table(world, approval=True)
    ch = world.channel
    gm_room = world.guild.create_text_channel("gm-room")
    await world.alice.slash(ch, "campaign settings", gm_channel=gm_room)
    await world.alice.slash(ch, "cp award", amount=20, reason="Session 1", characters="Ash")
    asked = await world.bob.slash(ch, "character improve", skill="Parry")
    done = await world.bob.click(asked.response, label="Spend 20 CP")
    assert done.response.content.endswith(f"The GMs were asked in <#{gm_room.id}>.")
    (request,) = gm_room.history()
    assert "asks to raise **Ash**'s Parry 3 → 4" in request.content
    assert not any("asks to raise" in (m.content or "") for m in ch.history())
    approved = await world.alice.click(request, label="Approve")
    assert "**Ash** Parry 3 → 4 for 20 CP" in approved.response.content


async def test_cp_show_pages_through_a_long_ledger_after_a_restart_too(world):
    from tests.discord_rules import embed_problems

    await setup_table(world)
    ch = world.channel
    hostile = "*" * 64  # a reason at its longest, all markdown: shown inert, in limits
    for n in range(1, 24):
        reason = hostile if n % 2 else f"Session {n}"
        await world.alice.slash(ch, "cp award", amount=n, reason=reason, characters="Ash")
    shown = await world.bob.slash(ch, "cp show")
    first = embed_of(shown)
    assert embed_problems(first) == []
    lines = first["description"].splitlines()
    assert lines[0] == "CP earned 276, spent 0, unspent 276"
    assert len(lines) == 11 and "**+23 CP**" in lines[1] and "**+14 CP**" in lines[10]
    assert first["footer"]["text"] == "Page 1 of 3, newest first (23 entries)"
    newer = next(c for row in shown.response.components for c in row["components"])
    assert newer["label"] == "Newer" and newer.get("disabled")
    await world.restart()
    second = await world.bob.click(shown.response, label="Older")
    page = embed_of(second)
    assert page["footer"]["text"] == "Page 2 of 3, newest first (23 entries)"
    assert page["description"].splitlines()[0] == "CP earned 276, spent 0, unspent 276"
    assert "**+13 CP**" in page["description"] and "**+14 CP**" not in page["description"]
    last = embed_of(await world.bob.click(second.response, label="Older"))
    assert last["footer"]["text"].startswith("Page 3 of 3")
    assert last["description"].splitlines()[-1].startswith("`#")
    assert "**+1 CP**" in last["description"]
    back = embed_of(await world.bob.click(second.response, label="Newer"))
    assert back["footer"]["text"].startswith("Page 2 of 3")
    third = embed_of(await world.bob.slash(ch, "cp show", page=3))
    assert third["footer"]["text"].startswith("Page 3 of 3")
    past = embed_of(await world.bob.slash(ch, "cp show", page=99))
    assert past["footer"]["text"].startswith("Page 3 of 3")


async def test_species_costs_count_into_the_sheets_worth(world, client_languages):
    await setup_table(world)
    ch = world.channel
    refused = await world.bob.slash(ch, "cp species", costs="Elf: 0")
    assert "Only a GM" in refused.response.content
    empty = await world.alice.slash(ch, "cp species")
    assert "No species has a cost here" in empty.response.content
    bad = await world.alice.slash(ch, "cp species", costs="Elf: lots")
    assert "lots is not a number of CP" in bad.response.content
    for typo in ("--5", "²"):
        bad = await world.alice.slash(ch, "cp species", costs=f"Elf: {typo}")
        assert f"{typo} is not a number of CP" in bad.response.content
    listed = await world.alice.slash(ch, "cp species", costs="Human: 0, Elf: 20")
    assert listed.response.content.startswith("Species costs of Default: Elf: 20 CP, Human: 0 CP.")
    offered = await world.bob.autocomplete(ch, "character species", "species", "")
    assert [c["name"] for c in offered] == ["Elf (20 CP)", "Human (0 CP)"]
    named = await world.bob.slash(ch, "character species", species="elf")
    assert named.response.content == (
        "**Ash**'s species: Elf (20 CP). Sheet: 50 CP: skills 30, attributes not priced, "
        "species 20 (Elf)"
    )
    sheet = field(embed_of(await world.bob.slash(ch, "character show")), "Character points")
    assert sheet.splitlines()[0].endswith(", species 20 (Elf)")
    cost = embed_of(await world.bob.slash(ch, "character cost"))["description"].splitlines()
    assert "Species Elf: 20 CP" in cost
    other = await world.carol.slash(ch, "character species", species="Elf", character="Ash")
    assert other.response.ephemeral  # not her sheet
    unknown = await world.carol.slash(ch, "character species", species="Troll")
    assert "Troll, not priced by the table" in unknown.response.content
    assert "species Troll not priced" in unknown.response.content
    client_languages.set(world.bob, "de")
    german = await world.bob.slash(ch, "character cost")
    assert "Spezies Elf: 20 CP" in embed_of(german)["description"]
    cleared = await world.bob.slash(ch, "character species", species="none")
    assert "nennt jetzt keine Spezies" in cleared.response.content


async def test_the_sheet_keeps_its_worth_through_an_edit(world):
    """The sheet redrawn after its Edit form still says what it is worth, at the new stats."""
    await setup_table(world)
    ch = world.channel
    sheet = await world.bob.slash(ch, "character show")
    assert field(embed_of(sheet), "Character points").startswith("Sheet: 30 CP: skills 30")
    form = await world.bob.click(sheet.response, label="Edit")
    await world.bob.submit_modal(form, {TEXT_ID: "Strength 3; Parry 4"})
    value = field(sheet.response.embeds[0].to_dict(), "Character points")
    assert value.splitlines()[0] == "Sheet: 50 CP: skills 50, attributes not priced"


async def test_help_names_every_cp_command_in_the_readers_words(world, client_languages):
    """The Character points topic names each command it covers, short, in both languages."""
    expected = {
        "en-US": ["/cp categories", "/cp settings", "/cp species", "/cp award", "/cp undo",
                  "/cp show", "/character improve", "/character species", "/character cost",
                  "Parry 3 (combat)", "7 days", "/cp ready", "/cp correct"],
        "de": ["/cp kategorien", "/cp einstellungen", "/cp spezies", "/cp vergeben",
               "/cp rückgängig", "/cp zeigen", "/charakter steigern", "/charakter spezies",
               "/charakter kosten", "Parieren 3 (Kampf)", "7 Tagen", "/cp bereit",
               "/cp berichtigen"],
    }  # fmt: skip
    for locale, names in expected.items():
        client_languages.set(world.bob, locale)
        text = embed_of(await world.bob.slash(world.channel, "help", topic="cp"))["description"]
        assert [n for n in names if n not in text] == [], (locale, text)
        assert len(text) <= 2000


async def test_the_gms_request_speaks_the_tables_language_not_the_players(world, client_languages):
    """A German player at an English table: the GMs' request, its buttons and the decision
    written into it are English; the player's own reply is German. And the reverse: a German
    server's table reads German whoever asks or presses."""
    await setup_table(world, approval=True)
    ch = world.channel
    await world.alice.slash(ch, "cp award", amount=40, reason="S1", characters="Ash")
    client_languages.set(world.bob, "de")
    asked = await world.bob.slash(ch, "character improve", skill="Parry")
    done = await world.bob.click(asked.response, label="20 CP ausgeben")
    assert "wartet auf einen Chronisten" in done.response.content, done.response.content
    request = ch.last_message
    assert request.content.startswith(f"GMs: <@{world.bob.id}> asks to raise **Ash**'s Parry")
    assert [b.label for row in request.components for b in row.children] == [
        "Approve",
        "Refuse",
    ]
    client_languages.set(world.alice, "de")  # a German GM's press keeps the table's English
    form = await world.alice.click(request, label="Refuse")
    refused = await world.alice.submit_modal(form, {REASON_INPUT: ""})
    assert refused.response.content.startswith(f"Refused by <@{world.alice.id}>: Parry 3 → 4")

    client_languages.server = "de"  # a German server; the players' clients English
    client_languages.set(world.bob, "en-US")
    client_languages.set(world.alice, "en-US")
    asked = await world.bob.slash(ch, "character improve", skill="Parry")
    done = await world.bob.click(asked.response, label="Spend 20 CP")
    assert "waits for a GM" in done.response.content
    request = ch.last_message
    assert request.content.startswith(f"Chronisten: <@{world.bob.id}> möchte bei **Ash** Parry")
    client_languages.server = None  # the server turns English: the message keeps its German
    approved = await world.alice.click(request, label="Genehmigen")
    assert approved.response.content.startswith(f"Genehmigt von <@{world.alice.id}>:")


async def test_the_sweep_closes_an_expired_request_once_in_its_tables_language(
    world, monkeypatch, client_languages
):
    """Nobody presses for 7 days: the sweep edits the GMs' message to "Expired", buttons gone,
    in the language it was posted in (a German table's, though the server says English by
    then), once; nothing is spent."""
    from datetime import timedelta

    await setup_table(world, approval=True)
    ch = world.channel
    gm_room = world.guild.create_text_channel("gm-room")
    await world.alice.slash(ch, "campaign settings", gm_channel=gm_room)
    await world.alice.slash(ch, "cp award", amount=40, reason="S1", characters="Ash, Bo")
    asked = await world.bob.slash(ch, "character improve", skill="Parry")
    await world.bob.click(asked.response, label="Spend 20 CP")
    (english,) = gm_room.history()
    client_languages.server = "de"
    asked = await world.carol.slash(ch, "character improve", skill="Elvish")
    await world.carol.click(asked.response, label="Spend 2 CP")
    german = gm_room.last_message
    assert german.content.startswith("Chronisten:")
    client_languages.server = None
    sweep = world.bot.get_cog("CharacterPoints")
    assert await sweep.sweep_expired() == 0  # not yet
    later = world.bot.now() + timedelta(days=7, minutes=1)
    await world.restart()
    monkeypatch.setattr(world.bot, "now", lambda: later)
    sweep = world.bot.get_cog("CharacterPoints")
    assert await sweep.sweep_expired() == 2
    english, german = gm_room.history()
    assert english.content == (
        "Expired: Parry 3 → 4 (20 CP) waited 7 days for a GM, so it is closed and nothing was "
        "spent. Ask again with /character improve."
    )
    assert german.content.startswith("Abgelaufen: Elvish 0 → 1 (2 CP)")
    assert english.components == [] and german.components == []
    assert await sweep.sweep_expired() == 0  # once
    ledger = embed_of(await world.bob.slash(ch, "cp show"))["description"]
    assert ledger.splitlines()[0] == "CP earned 40, spent 0, unspent 40"


async def test_the_sweep_closes_a_request_posted_where_it_was_asked(world, monkeypatch):
    """Without a GM channel the request is the command's follow-up: the sweep finds it too."""
    from datetime import timedelta

    await setup_table(world, approval=True)
    ch = world.channel
    await world.alice.slash(ch, "cp award", amount=20, reason="S1", characters="Ash")
    asked = await world.bob.slash(ch, "character improve", skill="Parry")
    await world.bob.click(asked.response, label="Spend 20 CP")
    request = ch.last_message
    assert "asks to raise" in request.content
    later = world.bot.now() + timedelta(days=7, minutes=1)
    monkeypatch.setattr(world.bot, "now", lambda: later)
    assert await world.bot.get_cog("CharacterPoints").sweep_expired() == 1
    closed = next(m for m in ch.history() if m.id == request.id)
    assert closed.content.startswith("Expired: Parry 3 → 4 (20 CP)") and closed.components == []
