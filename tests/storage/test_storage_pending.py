"""Pending attacks: a typed, versioned payload, settled once with its roll-log states."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from storage.errors import InvalidValue
from storage.models import PendingAttack, RollState, Shards, StoredRoll
from storage.sqlite import SqliteStore
from storage.testing import GUILD, OTHER_GUILD, roll_record

ATTACK = PendingAttack(
    attacker="Jaime",
    attacker_user=11,
    attacker_character=5,
    weapon="Long sword",
    base=5,
    attack=StoredRoll(15, "rolled", (("Strength", 3), ("Long swords", 5))),
    target="Goblin",
    target_id=6,
    target_owner=12,
    channel_id=13,
)


def test_a_pending_attack_reads_back_as_itself() -> None:
    payload = ATTACK.to_payload()
    assert payload["v"] == PendingAttack.VERSION
    assert PendingAttack.from_payload(payload) == ATTACK
    assert ATTACK.attack.total == 23


@pytest.mark.parametrize(
    "damage",
    [
        {"v": 2},  # a newer bot's payload
        {"base": "5"},  # a number as text
        {"target_owner": True},  # true/false is not an id
        {"attack": {"face": 15, "source": "rolled"}},  # modifiers missing
        {"attack": {"face": 15, "source": "rolled", "modifiers": [["Strength"]]}},
    ],
)
def test_a_damaged_or_foreign_payload_is_refused_with_a_message(damage: dict) -> None:
    payload = ATTACK.to_payload() | damage
    with pytest.raises(InvalidValue, match="cannot be read"):
        PendingAttack.from_payload(payload)
    missing = ATTACK.to_payload()
    del missing["target_id"]
    with pytest.raises(InvalidValue):
        PendingAttack.from_payload(missing)


async def _waiting_attack(store: SqliteStore, campaign, interaction_id: int) -> int:
    pending = await store.create_pending(
        GUILD, campaign.id, "attack", ATTACK.to_payload(), datetime.now(UTC) + timedelta(minutes=5)
    )
    await store.log_roll(
        roll_record(
            campaign,
            kind="attack",
            state=RollState.WAITING,
            pending_id=pending.id,
            interaction_id=interaction_id,
        )
    )
    return pending.id


async def test_a_defence_settles_its_attack_and_logs_itself_in_one_step(
    store: SqliteStore, make_campaign
) -> None:
    campaign = await make_campaign()
    pending_id = await _waiting_attack(store, campaign, 1)
    [attack] = await store.recent_rolls(GUILD, campaign.id)
    assert attack.state is RollState.WAITING and attack.pending_id == pending_id

    defence = roll_record(campaign, kind="defend", interaction_id=2)
    outcomes = await asyncio.gather(
        *(store.settle_pending(GUILD, pending_id, RollState.DEFENDED, defence) for _ in range(4))
    )
    assert sorted(outcomes) == [False, False, False, True]
    newest, oldest = await store.recent_rolls(GUILD, campaign.id)
    assert (newest.kind, oldest.state) == ("defend", RollState.DEFENDED)
    assert await store.get_pending(GUILD, pending_id) is None


async def test_expiry_settles_without_a_roll_and_another_guild_cannot_settle(
    store: SqliteStore, make_campaign
) -> None:
    campaign = await make_campaign()
    pending_id = await _waiting_attack(store, campaign, 1)
    assert not await store.settle_pending(OTHER_GUILD, pending_id, RollState.EXPIRED)
    assert await store.settle_pending(GUILD, pending_id, RollState.EXPIRED)
    [attack] = await store.recent_rolls(GUILD, campaign.id)
    assert attack.state is RollState.EXPIRED


async def test_a_defence_that_cannot_be_logged_leaves_the_attack_waiting(
    store: SqliteStore, make_campaign
) -> None:
    """Nothing half-written: the claim, the log line and the state change go together."""
    campaign = await make_campaign()
    pending_id = await _waiting_attack(store, campaign, 1)
    await store.log_roll(roll_record(campaign, interaction_id=3))
    other = await make_campaign()
    clash = roll_record(other, kind="defend", interaction_id=3)  # logged for another campaign
    with pytest.raises(InvalidValue):
        await store.settle_pending(GUILD, pending_id, RollState.DEFENDED, clash)
    assert await store.get_pending(GUILD, pending_id) is not None
    rolls = await store.recent_rolls(GUILD, campaign.id)
    assert [r.state for r in rolls if r.kind == "attack"] == [RollState.WAITING]


async def test_the_expiry_sweep_of_a_process_reads_only_its_own_shards_servers(
    store: SqliteStore, make_campaign
) -> None:
    """Guilds on shards 0, 1 and 2 of 3, an expired attack in each: the process with shards 0
    and 2 reads theirs, the one with shard 1 its own, a process with every shard all three."""
    step = 1 << 22  # guild ids this far apart land on consecutive shards
    guilds = [7 * 3 * step + n * step + 5 for n in range(3)]
    assert [Shards(3, (n,)).owns(g) for n, g in enumerate(guilds)] == [True] * 3
    expired = datetime.now(UTC) - timedelta(minutes=1)
    ids = {}
    for guild in guilds:
        campaign = await make_campaign(guild_id=guild)
        pending = await store.create_pending(guild, campaign.id, "attack", ATTACK.to_payload(),
                                             expired)  # fmt: skip
        ids[guild] = pending.id
    now = datetime.now(UTC)

    async def swept(shards: Shards | None) -> set[int]:
        return {p.guild_id for p in await store.expired_pending(now, 50, shards)}

    assert await swept(Shards(3, (0, 2))) == {guilds[0], guilds[2]}
    assert await swept(Shards(3, (1,))) == {guilds[1]}
    assert await swept(None) == set(guilds)
    assert await swept(Shards(3, (0, 1, 2))) == set(guilds)
