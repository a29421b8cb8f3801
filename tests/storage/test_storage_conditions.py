"""A campaign's named conditions in the store: GMs only, one per name, scoped, both backends."""

from __future__ import annotations

import pytest

from storage.errors import InvalidValue, NotFound, PermissionDenied
from storage.rules_conditions import MAX_PRESETS
from storage.sqlite import SqliteStore
from storage.testing import GM, GUILD, OTHER_GUILD, PLAYER
from wire.conditions import Effect, Target, Timing
from wire.errors import RulesError


def prone(**changes) -> Effect:
    fields = {"modifier": -2, "applies_to": Target.DEFENCE, **changes}
    return Effect(0, fields.pop("name", "Prone"), fields.pop("rounds", 2), **fields)


async def test_a_gm_names_replaces_and_deletes_a_condition(store: SqliteStore, make_campaign):
    campaign = await make_campaign()
    kept, replaced = await store.save_condition_preset(GUILD, campaign.id, GM, prone())
    assert not replaced and (kept.name, kept.modifier, kept.rounds_left) == ("Prone", -2, 2)
    kept, replaced = await store.save_condition_preset(
        GUILD, campaign.id, GM, prone(name="PRONE", modifier=-3, timing=Timing.START)
    )
    assert replaced and (kept.name, kept.modifier, kept.timing) == ("PRONE", -3, Timing.START)
    assert [p.name for p in await store.condition_presets(GUILD, campaign.id)] == ["PRONE"]
    assert (await store.find_condition_preset(GUILD, campaign.id, "prone")).modifier == -3
    assert await store.find_condition_preset(OTHER_GUILD, campaign.id, "prone") is None
    with pytest.raises(PermissionDenied):
        await store.save_condition_preset(GUILD, campaign.id, PLAYER, prone(name="Blessed"))
    with pytest.raises(PermissionDenied):
        await store.delete_condition_preset(GUILD, campaign.id, PLAYER, "Prone")
    gone = await store.delete_condition_preset(GUILD, campaign.id, GM, "prone")
    assert gone.name == "PRONE" and await store.condition_presets(GUILD, campaign.id) == []
    with pytest.raises(NotFound):
        await store.delete_condition_preset(GUILD, campaign.id, GM, "Prone")


async def test_named_conditions_hold_their_limits(store: SqliteStore, make_campaign):
    campaign = await make_campaign()
    with pytest.raises(RulesError):
        await store.save_condition_preset(GUILD, campaign.id, GM, prone(modifier=-11))
    with pytest.raises(InvalidValue):
        await store.save_condition_preset(GUILD, campaign.id, GM, prone(hidden=True))
    for n in range(MAX_PRESETS):
        await store.save_condition_preset(GUILD, campaign.id, GM, prone(name=f"C{n}"))
    with pytest.raises(InvalidValue, match="at most 25"):
        await store.save_condition_preset(GUILD, campaign.id, GM, prone(name="One more"))
