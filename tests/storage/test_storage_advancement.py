"""Character points in the store: settings, awards, spends, approval, undo; on both backends."""

from __future__ import annotations

import asyncio

import pytest

from storage.errors import Conflict, InvalidValue, NotFound, PermissionDenied
from storage.models_advancement import MAX_AWARD
from storage.testing import GM, GUILD, OTHER_GUILD, OTHER_PLAYER, PLAYER
from wire.advancement import Category
from wire.errors import RulesError


@pytest.fixture
async def table(store, make_campaign, make_character):
    campaign = await make_campaign()
    await store.set_skill_categories(
        GUILD,
        campaign.id,
        GM,
        {"Parry": Category.COMBAT, "Elvish": Category.LANGUAGE, "Stealth": Category.ACTION},
    )
    ash = await make_character(
        campaign, "Ash", attributes={"Strength": 3}, skills={"Parry": 3, "Juggling": 1}
    )
    return campaign, ash


async def test_settings_are_gm_only_and_not_set_until_set(store, table) -> None:
    campaign, _ash = table
    now = await store.get_advancement(GUILD, campaign.id)
    assert not now.attribute_price.priced and now.starting_cp is None and not now.approval
    assert now.category("parry") is Category.COMBAT and now.category("Juggling") is None
    with pytest.raises(PermissionDenied, match="Only a GM of"):
        await store.set_advancement(GUILD, campaign.id, PLAYER, attribute_price=5)
    with pytest.raises(PermissionDenied):
        await store.set_skill_categories(GUILD, campaign.id, PLAYER, {"Parry": Category.ACTION})
    now = await store.set_advancement(GUILD, campaign.id, GM, attribute_price=5, starting_cp=100)
    now = await store.set_advancement(GUILD, campaign.id, GM, approval=True)
    assert (now.attribute_price.per_point, now.starting_cp, now.approval) == (5, 100, True)
    now = await store.set_advancement(GUILD, campaign.id, GM, attribute_price=None)
    assert not now.attribute_price.priced and now.starting_cp == 100
    with pytest.raises(InvalidValue, match="between 0 and 1000"):
        await store.set_advancement(GUILD, campaign.id, GM, attribute_price=5000)
    with pytest.raises(NotFound):
        await store.get_advancement(OTHER_GUILD, campaign.id)


async def test_award_spend_and_ledger_agree(store, table) -> None:
    campaign, ash = table
    with pytest.raises(PermissionDenied):
        await store.award_cp(GUILD, campaign.id, PLAYER, [ash.id], 50, "self-award")
    [(_sheet, totals)] = await store.award_cp(GUILD, campaign.id, GM, ["Ash"], 50, "Session 3")
    assert (totals.earned, totals.spent, totals.unspent) == (50, 0, 50)
    quote = await store.quote_improvement(GUILD, campaign.id, PLAYER, "Ash", "Parry", 5)
    assert (quote.before, quote.after, quote.cost, quote.affordable) == (3, 5, 45, True)
    with pytest.raises(PermissionDenied, match="Only Ash's player or a GM can change Ash"):
        await store.improve(GUILD, campaign.id, OTHER_PLAYER, "Ash", "Parry")
    done = await store.improve(GUILD, campaign.id, PLAYER, "Ash", "Parry", 5, expected_cost=45)
    assert done.character.skills["Parry"] == 5 and not done.waiting
    with pytest.raises(InvalidValue, match="costs 6 CP; Ash has 5 CP to spend, 1 CP short"):
        await store.improve(GUILD, campaign.id, PLAYER, "Ash", "Elvish", 2)
    learned = await store.improve(GUILD, campaign.id, PLAYER, "Ash", "Elvish")
    assert learned.character.skills["Elvish"] == 1  # a new skill at level 1: 2 CP
    ledger = await store.cp_ledger(GUILD, campaign.id, PLAYER, "Ash")
    assert (ledger.totals.earned, ledger.totals.spent, ledger.totals.unspent) == (50, 47, 3)
    assert [e.kind for e in ledger.entries] == ["spend", "spend", "award"]
    assert ledger.entries[2].reason == "Session 3"


async def test_unpriced_and_unpriced_attributes_are_refused_by_name(store, table) -> None:
    campaign, ash = table
    await store.award_cp(GUILD, campaign.id, GM, [ash.id], 100)
    with pytest.raises(RulesError, match="Juggling has no category"):
        await store.improve(GUILD, campaign.id, PLAYER, "Ash", "Juggling")
    with pytest.raises(RulesError, match="not priced attribute points"):
        await store.improve(GUILD, campaign.id, PLAYER, "Ash", "Strength", kind="attribute")
    await store.set_advancement(GUILD, campaign.id, GM, attribute_price=10)
    done = await store.improve(GUILD, campaign.id, PLAYER, "Ash", "Strength", kind="attribute")
    assert done.character.attributes["Strength"] == 4 and done.entry.amount == -10


async def test_bounds_on_awards(store, table) -> None:
    campaign, ash = table
    with pytest.raises(InvalidValue, match="1 to 1000 CP"):
        await store.award_cp(GUILD, campaign.id, GM, [ash.id], MAX_AWARD + 1)
    with pytest.raises(InvalidValue, match="1 to 1000 CP"):
        await store.award_cp(GUILD, campaign.id, GM, [ash.id], 0)
    await store.award_cp(GUILD, campaign.id, GM, [ash.id], 10)
    with pytest.raises(InvalidValue, match="less than nothing"):
        await store.award_cp(GUILD, campaign.id, GM, [ash.id], -11, "typo")
    [(_, totals)] = await store.award_cp(GUILD, campaign.id, GM, [ash.id], -4, "typo")
    assert totals.earned == 6


async def test_undo_reverses_a_spend_and_an_award(store, table) -> None:
    campaign, ash = table
    await store.award_cp(GUILD, campaign.id, GM, [ash.id], 30, "Session 1")
    await store.improve(GUILD, campaign.id, PLAYER, "Ash", "Parry")  # 3 -> 4: 20
    with pytest.raises(PermissionDenied):
        await store.undo_last_cp(GUILD, campaign.id, PLAYER, "Ash")
    undone, sheet, totals = await store.undo_last_cp(GUILD, campaign.id, GM, "Ash")
    assert undone.kind == "spend" and sheet.skills["Parry"] == 3 and totals.unspent == 30
    undone, sheet, totals = await store.undo_last_cp(GUILD, campaign.id, GM, "Ash")
    assert undone.kind == "award" and totals.earned == 0
    with pytest.raises(NotFound, match="no CP entry left"):
        await store.undo_last_cp(GUILD, campaign.id, GM, "Ash")
    ledger = await store.cp_ledger(GUILD, campaign.id, GM, "Ash")
    assert [e.kind for e in ledger.entries] == ["undo", "undo", "spend", "award"]
    assert ledger.undone == {ledger.entries[2].id, ledger.entries[3].id}


async def test_approval_holds_the_cp_until_a_gm_decides(store, table) -> None:
    campaign, ash = table
    await store.set_advancement(GUILD, campaign.id, GM, approval=True)
    await store.award_cp(GUILD, campaign.id, GM, [ash.id], 25)
    waiting = await store.improve(GUILD, campaign.id, PLAYER, "Ash", "Parry")
    assert waiting.waiting and waiting.character.skills["Parry"] == 3
    with pytest.raises(InvalidValue, match="5 CP to spend"):
        await store.improve(GUILD, campaign.id, PLAYER, "Ash", "Stealth", 2)  # 15 > 25 - 20
    with pytest.raises(PermissionDenied):
        await store.decide_cp_request(GUILD, waiting.request_id, PLAYER, True)
    with pytest.raises(NotFound):
        await store.decide_cp_request(OTHER_GUILD, waiting.request_id, GM, True)
    request, done = await store.decide_cp_request(GUILD, waiting.request_id, GM, True)
    assert request.state == "approved" and done.character.skills["Parry"] == 4
    with pytest.raises(Conflict, match="approved already"):
        await store.decide_cp_request(GUILD, waiting.request_id, GM, False)
    refused = await store.improve(GUILD, campaign.id, PLAYER, "Ash", "Elvish")
    request, done = await store.decide_cp_request(GUILD, refused.request_id, GM, False)
    assert request.state == "refused" and done is None
    ledger = await store.cp_ledger(GUILD, campaign.id, PLAYER, "Ash")
    assert (ledger.totals.spent, ledger.totals.waiting, "Elvish" in ledger.character.skills) == (
        20,
        0,
        False,
    )


async def test_two_improvements_at_once_with_cp_for_one(store, table) -> None:
    campaign, ash = table
    await store.award_cp(GUILD, campaign.id, GM, [ash.id], 20)
    results = await asyncio.gather(
        store.improve(GUILD, campaign.id, PLAYER, "Ash", "Parry"),
        store.improve(GUILD, campaign.id, PLAYER, "Ash", "Stealth", 2),
        return_exceptions=True,
    )
    assert sum(isinstance(r, InvalidValue) for r in results) == 1
    ledger = await store.cp_ledger(GUILD, campaign.id, PLAYER, "Ash")
    spent = [e for e in ledger.entries if e.kind == "spend"]
    assert len(spent) == 1 and ledger.totals.unspent >= 0
    sheet = ledger.character
    raised = (sheet.skills["Parry"] == 4) + (sheet.skills.get("Stealth") == 2)
    assert raised == 1  # the sheet shows exactly the one improvement the ledger paid for


async def test_an_npc_has_no_ledger_for_players(store, table, make_character) -> None:
    campaign, _ash = table
    goblin = await make_character(campaign, "Goblin", npc=True, skills={"Parry": 1})
    with pytest.raises(PermissionDenied):
        await store.cp_ledger(GUILD, campaign.id, PLAYER, goblin.id)
    await store.award_cp(GUILD, campaign.id, GM, [goblin.id], 10, "a GM gives it one")
    done = await store.improve(GUILD, campaign.id, GM, goblin.id, "Parry")
    assert done.character.skills["Parry"] == 2


async def test_export_and_import_keep_prices_and_ledger(store, table, make_campaign) -> None:
    campaign, ash = table
    await store.set_advancement(GUILD, campaign.id, GM, attribute_price=7, starting_cp=90)
    await store.award_cp(GUILD, campaign.id, GM, [ash.id], 60, "Session 1")
    await store.improve(GUILD, campaign.id, PLAYER, "Ash", "Parry")  # 3 -> 4: 20
    await store.improve(GUILD, campaign.id, PLAYER, "Ash", "Elvish")  # 0 -> 1: 2
    await store.undo_last_cp(GUILD, campaign.id, GM, "Ash")
    document = await store.export_campaign(GUILD, campaign.id)
    assert document["version"] == 2
    assert document["campaign"]["skill_categories"]["Parry"] == "combat"
    assert [e["kind"] for e in document["ledger"]] == ["award", "spend", "spend", "undo"]
    assert document["ledger"][3]["undoes"] == 2

    other = await make_campaign("Elsewhere")
    with pytest.raises(PermissionDenied):
        await store.import_data(GUILD, other.id, PLAYER, document)
    await store.import_data(GUILD, other.id, GM, document)
    settings = await store.get_advancement(GUILD, other.id)
    assert (settings.attribute_price.per_point, settings.starting_cp) == (7, 90)
    assert settings.category("Elvish") is Category.LANGUAGE
    ledger = await store.cp_ledger(GUILD, other.id, GM, "Ash")
    assert (ledger.totals.earned, ledger.totals.spent) == (60, 20)
    assert [e.kind for e in ledger.entries] == ["undo", "spend", "spend", "award"]
    assert ledger.entries[0].undoes == ledger.entries[1].id
    assert ledger.entries[3].created_at == document["ledger"][0]["at"]
    with pytest.raises(Conflict, match="would count twice"):
        await store.import_data(GUILD, other.id, GM, document, replace=True)
    # A player's own sheet: its categories and ledger travel; the ledger needs a GM here.
    mine = await store.export_character(GUILD, campaign.id, "Ash")
    assert mine["campaign"] == {"skill_categories": {"Parry": "combat", "Elvish": "language"}}
    assert len(mine["ledger"]) == 4


async def test_a_version_1_file_still_imports(store, table) -> None:
    campaign, _ash = table
    old = {
        "format": "wire-bot",
        "version": 1,
        "kind": "character",
        "character": {"name": "Old", "skills": {"Parry": 2}},
    }
    [sheet] = await store.import_data(GUILD, campaign.id, PLAYER, old)
    assert sheet.skills == {"Parry": 2}
    with_ledger = {**old, "ledger": []}
    from storage.errors import ImportRejected

    with pytest.raises(ImportRejected, match="ledger: unknown field"):
        await store.import_data(GUILD, campaign.id, PLAYER, with_ledger)


async def test_forgetting_a_gm_scrubs_their_id_from_other_players_ledgers(store, table) -> None:
    """/privacy forget-me: the GM's awards and approvals on Ash stay (Ash's sums must not
    change), but no longer name the GM; Ash's player's own spend still names them."""
    campaign, ash = table
    await store.set_advancement(GUILD, campaign.id, GM, approval=True)
    await store.award_cp(GUILD, campaign.id, GM, [ash.id], 30, "Session 1")
    waiting = await store.improve(GUILD, campaign.id, PLAYER, "Ash", "Parry")
    await store.decide_cp_request(GUILD, waiting.request_id, GM, True)
    before = await store.cp_ledger(GUILD, campaign.id, PLAYER, "Ash")
    counts = await store.delete_user_data(GM)
    assert counts["CP entries made anonymous"] == 1
    assert counts["CP requests made anonymous"] == 1
    after = await store.cp_ledger(GUILD, campaign.id, PLAYER, "Ash")
    assert after.totals == before.totals
    assert [(e.kind, e.user_id) for e in after.entries] == [("spend", PLAYER), ("award", 0)]
    request = await store.get_cp_request(GUILD, waiting.request_id)
    assert (request.user_id, request.decided_by, request.state) == (PLAYER, None, "approved")
    _prices, ledger = await store.advancement_for_export(GUILD, campaign.id)
    assert GM not in {e.user_id for e in ledger}
    # The player forgotten: their character's ledger goes with the character.
    await store.delete_user_data(PLAYER)
    assert (await store.advancement_for_export(GUILD, campaign.id))[1] == []


async def test_a_sheets_categories_a_gms_set_a_players_must_agree(store, table) -> None:
    campaign, _ash = table
    await store.create_character(
        GUILD, campaign.id, GM, "Vex", skills={"Runes": 1}, categories={"Runes": Category.KNOWLEDGE}
    )
    assert (await store.get_advancement(GUILD, campaign.id)).category("runes") is (
        Category.KNOWLEDGE
    )
    await store.create_character(
        GUILD, campaign.id, PLAYER, "Ok", skills={"Parry": 1}, categories={"parry": Category.COMBAT}
    )
    with pytest.raises(PermissionDenied, match="Only a GM gives a skill its category"):
        await store.create_character(
            GUILD,
            campaign.id,
            PLAYER,
            "New",
            skills={"Hex": 1},
            categories={"Hex": Category.LANGUAGE},
        )
    with pytest.raises(PermissionDenied, match="has the category combat"):
        await store.replace_stats(
            GUILD, campaign.id, PLAYER, "Ash", {}, {"Parry": 9}, {"Parry": Category.LANGUAGE}
        )
    # Nothing of a refused sheet was written.
    assert (await store.get_character(GUILD, campaign.id, "Ash")).skills["Parry"] == 3
    assert not [n for n in await store.campaign_skill_names(GUILD, campaign.id) if n == "Hex"]
    names = await store.campaign_skill_names(GUILD, campaign.id)
    assert names == ["Juggling", "Parry", "Runes"]


async def test_a_player_reads_no_category_of_a_skill_only_npcs_have(store, table) -> None:
    campaign, _ash = table
    await store.create_character(
        GUILD,
        campaign.id,
        GM,
        "Lich",
        is_npc=True,
        skills={"Necromancy": 5, "Parry": 2},
        categories={"Necromancy": Category.KNOWLEDGE, "Parry": Category.COMBAT},
    )
    await store.set_skill_categories(GUILD, campaign.id, GM, {"Riding": Category.ACTION})
    gm = await store.categories_shown(GUILD, campaign.id, GM)
    every = ["Elvish", "Necromancy", "Parry", "Riding", "Stealth"]
    assert sorted(gm) == every
    # Parry is on Ash's sheet too; Riding and the rest on no sheet yet (to learn): they stay.
    shown = await store.categories_shown(GUILD, campaign.id, PLAYER)
    assert sorted(shown) == ["Elvish", "Parry", "Riding", "Stealth"]
    await store.create_character(GUILD, campaign.id, PLAYER, "Mage", skills={"necromancy": 1})
    assert sorted(await store.categories_shown(GUILD, campaign.id, PLAYER)) == every


async def test_a_waiting_request_expires_and_frees_its_cp(store, table) -> None:
    from datetime import UTC, datetime, timedelta

    campaign, ash = table
    await store.set_advancement(GUILD, campaign.id, GM, approval=True)
    await store.award_cp(GUILD, campaign.id, GM, [ash.id], 20)
    past = datetime.now(UTC) - timedelta(days=8)
    old = await store.improve(GUILD, campaign.id, PLAYER, "Ash", "Parry", now=past)
    # Its CP are free at once: a new request can hold them.
    ledger = await store.cp_ledger(GUILD, campaign.id, PLAYER, "Ash")
    assert ledger.totals.waiting == 0
    fresh = await store.improve(GUILD, campaign.id, PLAYER, "Ash", "Parry")
    with pytest.raises(PermissionDenied):
        await store.decide_cp_request(GUILD, old.request_id, PLAYER, True)
    request, done = await store.decide_cp_request(GUILD, old.request_id, GM, True)
    assert (request.state, done) == ("expired", None)
    assert request.expires_at < datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S")
    with pytest.raises(Conflict, match="expired already"):
        await store.decide_cp_request(GUILD, old.request_id, GM, True)
    request, done = await store.decide_cp_request(GUILD, fresh.request_id, GM, True)
    assert request.state == "approved" and done.character.skills["Parry"] == 4


async def test_species_costs_count_into_the_worth_and_travel_in_exports(
    store, table, make_campaign
) -> None:
    campaign, _ash = table
    with pytest.raises(PermissionDenied):
        await store.set_species_costs(GUILD, campaign.id, PLAYER, {"Elf": 20})
    with pytest.raises(InvalidValue, match="0 to 10000 CP"):
        await store.set_species_costs(GUILD, campaign.id, GM, {"Elf": 20_000})
    await store.set_species_costs(GUILD, campaign.id, GM, {"Elf": 20, "Human": 0})
    with pytest.raises(PermissionDenied):
        await store.set_character_species(GUILD, campaign.id, OTHER_PLAYER, "Ash", "Elf")
    sheet, advancement = await store.set_character_species(GUILD, campaign.id, PLAYER, "Ash", "elf")
    worth = advancement.worth(sheet)
    assert (worth.species.name, worth.species.cost, worth.total) == ("Elf", 20, 30 + 20)
    # A species the list lacks: named, not priced, adds nothing.
    await store.set_species_costs(GUILD, campaign.id, GM, {"Elf": None})
    advancement = await store.get_advancement(GUILD, campaign.id)
    worth = advancement.worth(sheet)
    assert (worth.species.cost, worth.total, worth.complete) == (None, 30, False)
    await store.set_species_costs(GUILD, campaign.id, GM, {"Elf": 20})

    document = await store.export_campaign(GUILD, campaign.id)
    assert document["campaign"]["species_costs"] == {"Elf": 20, "Human": 0}
    assert document["campaign"]["character_species"] == {"Ash": "Elf"}
    mine = await store.export_character(GUILD, campaign.id, "Ash")
    assert mine["campaign"]["species_costs"] == {"Elf": 20}
    assert mine["campaign"]["character_species"] == {"Ash": "Elf"}
    other = await make_campaign("Elsewhere")
    [copied] = await store.import_data(GUILD, other.id, GM, document)
    there = await store.get_advancement(GUILD, other.id)
    assert there.species == {"Elf": 20, "Human": 0}
    assert there.worth(copied).species.cost == 20
    # A player's own sheet keeps its species; only a GM's import prices one.
    third = await make_campaign("Third")
    [theirs] = await store.import_data(GUILD, third.id, PLAYER, mine)
    prices = await store.get_advancement(GUILD, third.id)
    assert prices.species == {} and prices.worth(theirs).species.name == "Elf"
    sheet, advancement = await store.set_character_species(GUILD, campaign.id, GM, "Ash", None)
    assert advancement.worth(sheet).species is None


async def test_the_sweep_finds_expired_requests_with_a_message_of_its_shards_once(
    store, make_campaign, make_character
) -> None:
    """An expired waiting request whose message is known is found by the process of its
    server's shard and closed once; one filed before messages were kept (none noted) and a
    fresh one are left for their buttons."""
    from datetime import UTC, datetime, timedelta

    from storage.models import Shards

    step = 1 << 22  # guild ids this far apart land on consecutive shards
    guilds = [5 * 2 * step + n * step + 7 for n in range(2)]
    past = datetime.now(UTC) - timedelta(days=8)
    ids = {}
    for n, guild in enumerate(guilds):
        campaign = await make_campaign(guild_id=guild)
        await store.set_skill_categories(guild, campaign.id, GM, {"Parry": Category.COMBAT})
        await store.set_advancement(guild, campaign.id, GM, approval=True)
        ash = await make_character(campaign, "Ash", skills={"Parry": 3})
        await store.award_cp(guild, campaign.id, GM, [ash.id], 100)
        old = await store.improve(guild, campaign.id, PLAYER, "Ash", "Parry", now=past)
        await store.cp_request_posted(guild, old.request_id, 300 + n, 400 + n, "de")
        unposted = await store.improve(guild, campaign.id, PLAYER, "Ash", "Parry", 5, now=past)
        fresh = await store.improve(guild, campaign.id, PLAYER, "Ash", "Parry", 6)
        await store.cp_request_posted(guild, fresh.request_id, 300 + n, 500 + n, "en")
        ids[guild] = (old.request_id, unposted.request_id)
    now = datetime.now(UTC)
    # Another guild's id names no request of this one.
    await store.cp_request_posted(guilds[1], ids[guilds[0]][1], 1, 2, "en")

    async def swept(shards: Shards | None) -> list[tuple[int, int]]:
        return [(g, r.id) for g, r in await store.expired_cp_requests(now, 50, shards)]

    assert await swept(None) == [(g, ids[g][0]) for g in guilds]
    assert await swept(Shards(2, (1,))) == [(guilds[1], ids[guilds[1]][0])]
    ((guild, request),) = await store.expired_cp_requests(now, 50, Shards(2, (0,)))
    assert (guild, request.channel_id, request.message_id, request.language) == (
        guilds[0],
        300,
        400,
        "de",
    )
    assert not await store.sweep_cp_request(guilds[1], request.id, now)  # not that guild's
    assert await store.sweep_cp_request(guild, request.id, now)
    assert not await store.sweep_cp_request(guild, request.id, now)  # once
    assert (await store.get_cp_request(guild, request.id)).state == "expired"
    assert await swept(None) == [(guilds[1], ids[guilds[1]][0])]
    # Filed before, and never posted: still waiting, closed by a press as before.
    unposted = await store.get_cp_request(guild, ids[guild][1])
    assert (unposted.state, unposted.message_id) == ("waiting", None)
    closed, _ = await store.decide_cp_request(guild, unposted.id, GM, True)
    assert closed.state == "expired"


async def test_a_ready_sheet_moves_its_priced_stats_only_through_the_ledger(
    store, table, make_character
) -> None:
    """Issue #31: with CP on (a budget), a ready character's priced stats refuse every way
    around the ledger (set, adjust, remove, replace); unpriced ones and NPCs stay free, and a
    GM's correction is an entry with its reason."""
    from storage.errors import LedgerHolds

    campaign, ash = table
    await store.set_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "Parry", 5)  # building
    await store.set_advancement(GUILD, campaign.id, GM, starting_cp=50)
    with pytest.raises(InvalidValue, match="worth 75 CP, 25 CP over"):
        await store.ready_for_play(GUILD, campaign.id, PLAYER, "Ash")
    ready = await store.ready_for_play(GUILD, campaign.id, GM, "Ash")
    assert (ready[2].kind, ready[2].number) == ("ready", 1)
    attempts = [
        store.set_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "parry", 6),
        store.adjust_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "Parry", -1),
        store.remove_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "Parry"),
        store.replace_stats(GUILD, campaign.id, GM, ash.id, {"Strength": 3}, {"Elvish": 2}),
    ]
    for attempt in attempts:
        with pytest.raises(LedgerHolds) as held:
            await attempt
        assert held.value.moves, held.value
    await store.set_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "Juggling", 4)  # unpriced
    await make_character(campaign, "Goblin", npc=True, owner_id=GM, skills={"Parry": 1})
    await store.set_stat(GUILD, campaign.id, GM, "Goblin", "skill", "Parry", 8)  # an NPC
    sheet, entry, move = await store.correct_stat(
        GUILD, campaign.id, GM, "Ash", "skill", "parry", 3, "Lost a finger"
    )
    assert sheet.skills["Parry"] == 3 and (entry.kind, entry.number) == ("correct", 2)
    assert (entry.level_before, entry.level_after, entry.reason) == (5, 3, "Lost a finger")
    assert move is not None and move.worth == -45
    with pytest.raises(PermissionDenied):
        await store.correct_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "Parry", 9, "x")
    with pytest.raises(InvalidValue, match="Say why"):
        await store.correct_stat(GUILD, campaign.id, GM, "Ash", "skill", "Parry", 9, "")
    # Exported and imported elsewhere, the ready mark and the correction travel in the ledger.
    document = await store.export_campaign(GUILD, campaign.id)
    assert [e["kind"] for e in document["ledger"]] == ["ready", "correct"]
    undone = await store.undo_last_cp(GUILD, campaign.id, GM, "Ash")
    assert undone[1].skills["Parry"] == 5
    await store.undo_last_cp(GUILD, campaign.id, GM, "Ash")  # not ready: free to build again
    await store.set_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "Parry", 6)


async def test_ledger_entries_are_numbered_per_character(store, table, make_character) -> None:
    campaign, ash = table
    bo = await make_character(campaign, "Bo", skills={"Parry": 1})
    await store.award_cp(GUILD, campaign.id, GM, [ash.id, bo.id], 10)
    await store.award_cp(GUILD, campaign.id, GM, [bo.id, ash.id], 5)
    for name in ("Ash", "Bo"):
        ledger = await store.cp_ledger(GUILD, campaign.id, GM, name)
        assert [e.number for e in ledger.entries] == [2, 1], name
