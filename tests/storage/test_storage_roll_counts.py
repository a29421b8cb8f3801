"""The roll counts /stats reads at scale (storage/migrations/0025_roll_counts.sql) stay equal to
a recount of the log after any sequence of rolls, forgets, retention passes and a campaign's
deletion, on both backends; and statistics read from them equal those read roll by roll.

The sequences are random but seeded (each seed one sequence, the same on every run); the
recount is written here in plain SQL, apart from the migration's own definition of a count.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import asyncpg
import pytest

from storage import schema
from storage.models import RollState, SettledAttack
from storage.postgres import PostgresStore
from storage.postgres_schema import postgres_migrations, prepare_postgres
from storage.rules_stats import StatsScope
from storage.schema import migrations, prepare_database
from storage.sql.postgres import positional
from storage.testing import GM, GUILD, OTHER_PLAYER, PLAYER, roll_record
from wire.degrees import degrees_of
from wire.stats import summarise

START = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)
USERS = (PLAYER, OTHER_PLAYER, GM)
KINDS = ("check", "attack", "defend", "contest", "roll")
SOURCES = ("rolled", "rolled", "table", "take10", "expression")
KEY = "campaign_id, day, user_id, character_id, hidden, kind, die_source, die, edge, settled, "
KEY += "success, degrees"
_ENTRIES = """
SELECT campaign_id, {day} AS day, user_id, coalesce(character_id, 0) AS character_id, hidden,
       kind, die_source,
       CASE WHEN die = 1 THEN 1 WHEN die = 20 THEN 20 WHEN die > 1 AND die < 20 THEN 2 ELSE 0 END
           AS die,
       CASE WHEN target IS NULL THEN 0 ELSE total - die - target END AS edge,
       CASE WHEN target IS NULL THEN 0 ELSE 1 END AS settled, success, degrees,
       CASE WHEN damage IS NULL THEN 0 ELSE damage END AS damage
  FROM roll_log"""
RECOUNT = f"""
SELECT {KEY}, count(*), sum(damage)
  FROM ({_ENTRIES.format(day="substr(created_at, 1, 10)")}
        UNION ALL {_ENTRIES.format(day="'*'")}) AS e
 GROUP BY {KEY} ORDER BY {KEY}"""
COUNTS = f"SELECT {KEY}, rolls, damage FROM roll_counts ORDER BY {KEY}"


async def _count_from(store, rolls: int, check_every: int = 1) -> None:
    """SQLite counts a campaign's rolls once its log holds `rolls`, as one roll in
    `check_every` finds (migrations 0028_roll_counts_where_they_pay and 0029); 1 makes the
    roll that reaches the size find it. PostgreSQL counts every campaign's, so there it changes
    nothing."""
    if isinstance(store, PostgresStore):
        return
    _statement(
        store,
        "test_count_from",
        "UPDATE roll_counting SET count_from = :rolls, check_every = :check_every",
    )
    await store.backend.query(
        "test_count_from", {"rolls": rolls, "check_every": check_every}, write=True
    )


def _statement(store, name: str, sql: str) -> None:
    """A statement of this test's own on the store's backend."""
    store.backend.sql[name] = positional(sql) if isinstance(store, PostgresStore) else sql


async def _same(store) -> None:
    counted = await store.backend.query("test_counts")
    recounted = await store.backend.query("test_recount")
    assert [tuple(map(_plain, row)) for row in counted] == [
        tuple(map(_plain, row)) for row in recounted
    ]


def _plain(value):
    return value if isinstance(value, str) else int(value)


def _random_roll(rng: random.Random, campaign, characters):
    die = rng.choice((rng.randint(1, 20), 1, 20, 0, 10))
    modifiers = rng.randint(-3, 12)
    target = rng.choice((None, rng.randint(5, 25)))
    total = die + modifiers
    success = target is not None and total >= target
    degrees = 0 if target is None else min(abs(total - target) // 2, 5)
    return roll_record(
        campaign,
        user_id=rng.choice(USERS),
        character=rng.choice(characters),
        kind=rng.choice(KINDS),
        die=die,
        die_source=rng.choice(SOURCES),
        total=total,
        target=target,
        success=success,
        degrees=degrees,
        damage=rng.choice((None, rng.randint(0, 9))),
        hidden=rng.random() < 0.2,
        created_at=START + timedelta(minutes=rng.randint(0, 4 * 24 * 60)),
    )


async def _settled_attack(store, rng: random.Random, campaign, characters) -> None:
    """An attack waiting for its defence (no target), then settled by a defence roll (its
    target and result written then) or left to expire."""
    pending = await store.create_pending(
        GUILD, campaign.id, "attack", {}, START + timedelta(days=30)
    )
    waiting = _random_roll(rng, campaign, characters)
    waiting = replace(
        waiting, kind="attack", target=None, state=RollState.WAITING, pending_id=pending.id
    )
    await store.log_roll(waiting)
    if rng.random() < 0.3:
        await store.settle_pending(GUILD, pending.id, RollState.EXPIRED)
        return
    defence = replace(_random_roll(rng, campaign, characters), kind="defend")
    target = defence.total
    attacker = degrees_of(waiting.total, target)
    settled = SettledAttack(target, attacker.success, attacker.capped, attacker.raw)
    await store.settle_pending(GUILD, pending.id, RollState.DEFENDED, defence, settled)


def _figures(stats):
    luck = stats.luck
    return (
        stats.rolls,
        stats.by_kind,
        stats.successes,
        stats.failures,
        stats.degrees,
        stats.natural_1s,
        stats.natural_20s,
        stats.damage_dealt,
        stats.damage_taken,
        stats.take10s,
        None if luck is None else (luck.rolls, round(luck.mean, 12), round(luck.better_than, 9)),
    )


async def _stats_agree(store, campaign_id: int, scope: StatsScope, viewer: int, gm: bool):
    """The counts' answer (limit 0: never roll by roll) equals the log's, roll by roll."""
    counted = await store.stats_rolls(GUILD, campaign_id, scope, viewer_id=viewer, gm=gm, limit=0)
    logged = await store.stats_rolls(
        GUILD, campaign_id, scope, viewer_id=viewer, gm=gm, limit=10_000, group=False
    )
    assert counted.grouped or not logged.rolls
    assert _figures(summarise(counted.rolls, ordered=False)) == _figures(summarise(logged.rolls))


@pytest.mark.parametrize("seed", range(3))
async def test_counts_equal_a_recount_after_any_sequence(
    store, make_campaign, make_character, seed: int
) -> None:
    rng = random.Random(seed)
    _statement(store, "test_counts", COUNTS)
    _statement(store, "test_recount", RECOUNT)
    await _count_from(store, 0)  # SQLite: every campaign counted from its first roll
    campaigns = [await make_campaign(), await make_campaign()]
    characters = {}
    for campaign in campaigns:
        ash = await make_character(campaign, "Ash")
        goblin = await make_character(campaign, "Goblin", npc=True)
        characters[campaign.id] = (ash, goblin, None)
    for step in range(60):
        campaign = rng.choice(campaigns)
        action = rng.random()
        if action < 0.7:
            await store.log_roll(_random_roll(rng, campaign, characters[campaign.id]))
        elif action < 0.8:
            await _settled_attack(store, rng, campaign, characters[campaign.id])
        elif action < 0.85:
            await store.delete_user_data(rng.choice(USERS))
        else:
            before = START + timedelta(minutes=rng.randint(0, 3 * 24 * 60))
            await store.delete_old_rolls(before, batch=rng.randint(1, 10))
        if step % 10 == 9:
            await _same(store)
    await _same(store)
    for campaign in campaigns:
        for viewer, gm in ((GM, True), (PLAYER, False), (OTHER_PLAYER, False)):
            ash = characters[campaign.id][0]
            for scope in (
                StatsScope(),
                StatsScope(user_id=PLAYER),
                StatsScope(character_id=ash.id),
                StatsScope(since=START + timedelta(days=2)),
            ):
                await _stats_agree(store, campaign.id, scope, viewer, gm)
    # A campaign deleted (its rolls by the cascade): its counts go with it.
    _statement(store, "test_delete_campaign", "DELETE FROM campaigns WHERE id = :campaign_id")
    await store.backend.query("test_delete_campaign", {"campaign_id": campaigns[0].id}, write=True)
    await _same(store)


# ---- the migration counts the rolls logged before it

_OLD_ROLLS = [
    # user, character, kind, die, source, total, target, success, degrees, damage, hidden, when
    (PLAYER, None, "check", 20, "rolled", 25, 15, 1, 5, None, 0, "2026-11-28T10:00:00Z"),
    (PLAYER, None, "check", 20, "rolled", 25, 15, 1, 5, None, 0, "2026-11-28T11:00:00Z"),
    (PLAYER, 7, "attack", 1, "rolled", 6, None, 0, 0, 4, 1, "2026-11-29T10:00:00Z"),
    (GM, 8, "defend", 10, "take10", 14, 12, 1, 1, 3, 0, "2026-11-30T10:00:00Z"),
]
_OLD_COLUMNS = (
    "guild_id, campaign_id, channel_id, user_id, character_id, kind, die, die_source, total, "
    "target, success, degrees, raw_degrees, damage, hidden, created_at"
)


def _old_rows():
    """Each old roll's values in _OLD_COLUMNS' order (raw degrees as the degrees)."""
    for user, character, kind, die, source, total, target, ok, deg, dmg, hidden, when in _OLD_ROLLS:
        yield (GUILD, 1, 5, user, character, kind, die, source, total, target, ok, deg, deg, dmg,
               hidden, when)  # fmt: skip


def _counts_version(versions) -> int:
    return next(m.version for m in versions if m.name == "roll_counts")


def _where_they_pay(versions) -> int:
    return next(m.version for m in versions if m.name == "roll_counts_where_they_pay")


async def test_the_migration_counts_the_rolls_before_it_on_sqlite(tmp_path) -> None:
    path = tmp_path / "old.db"
    prepare_database(path, target=_counts_version(migrations()) - 1)
    conn = schema.connect(path)
    conn.execute("BEGIN")
    conn.execute(
        "INSERT INTO campaigns (id, guild_id, name, name_key, is_default) "
        "VALUES (1, ?, 'Saga', 'saga', 1)",
        (GUILD,),
    )
    for values in _old_rows():
        conn.execute(
            f"INSERT INTO roll_log ({_OLD_COLUMNS}) VALUES ({', '.join('?' * 16)})", values
        )
    conn.execute("COMMIT")
    conn.close()
    prepare_database(path, target=_where_they_pay(migrations()) - 1)
    conn = schema.connect(path)
    try:
        counted = conn.execute(COUNTS).fetchall()
        assert counted == conn.execute(RECOUNT).fetchall()
        assert len(counted) == 6  # three alike keys a day and all time: the two 20s as one
    finally:
        conn.close()


async def test_the_migration_counts_the_rolls_before_it_on_postgresql(
    postgres_empty_database: str,
) -> None:
    await prepare_postgres(
        postgres_empty_database, target=_counts_version(postgres_migrations()) - 1
    )
    conn = await asyncpg.connect(postgres_empty_database)
    try:
        await conn.execute(
            "INSERT INTO campaigns (id, guild_id, name, name_key, is_default) "
            "VALUES (1, $1, 'Saga', 'saga', 1)",
            GUILD,
        )
        places = ", ".join(f"${n}" for n in range(1, 17))
        for values in _old_rows():
            await conn.execute(f"INSERT INTO roll_log ({_OLD_COLUMNS}) VALUES ({places})", *values)
        await prepare_postgres(conn)
        counted = [tuple(r) for r in await conn.fetch(COUNTS)]
        recounted = [tuple(r) for r in await conn.fetch(RECOUNT)]
        assert counted == recounted and len(counted) == 6
    finally:
        await conn.close()


# ---- SQLite counts a campaign once its log is long enough to pay (0028_roll_counts_where_they_pay)

COUNTED = "SELECT campaign_id FROM roll_counted ORDER BY campaign_id"
CROSSING = 10


async def _rolls_agree(store, campaign_id: int) -> None:
    """The campaign's whole-day statistics, read the way /stats reads them (limit 0: from the
    counts where there are any), equal its log's roll by roll, for a GM and a player."""
    for viewer, gm in ((GM, True), (PLAYER, False)):
        await _stats_agree(store, campaign_id, StatsScope(), viewer, gm)


async def _same_counted(store) -> None:
    """The counts equal a recount of the counted campaigns' rolls."""
    recount = RECOUNT.replace(
        ") AS e", ") AS e WHERE campaign_id IN (SELECT campaign_id FROM roll_counted)"
    )
    _statement(store, "test_recount_counted", recount)
    counted = await store.backend.query("test_counts")
    recounted = await store.backend.query("test_recount_counted")
    assert counted == recounted


async def _crossing_setup(store, make_campaign, make_character):
    """Two campaigns with a sheet each, and the statements the crossing tests read."""
    _statement(store, "test_counted", COUNTED)
    _statement(store, "test_counts", COUNTS)
    _statement(
        store,
        "test_campaign_counts",
        "SELECT count(*) FROM roll_counts WHERE campaign_id = :campaign_id",
    )
    big, small = await make_campaign(), await make_campaign()
    sheets = {c.id: (await make_character(c, "Ash"), None) for c in (big, small)}

    async def counts_of(campaign) -> int:
        [(rows,)] = await store.backend.query("test_campaign_counts", {"campaign_id": campaign.id})
        return rows

    return big, small, sheets, counts_of


@pytest.mark.sqlite_only  # PostgreSQL counts every campaign
async def test_a_campaign_is_counted_from_the_roll_that_makes_its_log_long(
    store, make_campaign, make_character
) -> None:
    """Below the size no counts are kept (its /stats reads the log); the roll that reaches it
    counts the whole log at once, that roll too but once; from then on each roll as it comes,
    and deletions uncount. Another campaign below the size stays uncounted all along."""
    rng = random.Random(7)
    await _count_from(store, CROSSING)
    big, small, sheets, counts_of = await _crossing_setup(store, make_campaign, make_character)
    for _ in range(CROSSING - 1):
        await store.log_roll(_random_roll(rng, big, sheets[big.id]))
    await store.log_roll(_random_roll(rng, small, sheets[small.id]))
    assert await store.backend.query("test_counted") == []
    assert await counts_of(big) == 0
    await _rolls_agree(store, big.id)  # from the log
    await store.log_roll(_random_roll(rng, big, sheets[big.id]))  # the crossing
    assert await store.backend.query("test_counted") == [(big.id,)]
    assert await counts_of(big) > 0
    await _same_counted(store)
    for step in range(30):
        campaign = big if step % 10 else small  # the small one: 4 rolls in all
        await store.log_roll(_random_roll(rng, campaign, sheets[campaign.id]))
        if step % 10 == 9:
            await store.delete_user_data(rng.choice(USERS))  # uncounts the big one's
        await _same_counted(store)
    assert await store.backend.query("test_counted") == [(big.id,)]
    assert await counts_of(small) == 0
    await _rolls_agree(store, big.id)  # from the counts
    await _rolls_agree(store, small.id)  # from the log


@pytest.mark.sqlite_only
async def test_a_campaign_found_long_late_counts_every_roll_once(
    store, make_campaign, make_character
) -> None:
    """The crossing is looked for by one roll in `check_every`: rolls logged past the size
    before one looks are in the whole log's count that roll makes, each once, and the rolls
    after it are counted as they come. (A `check_every` no random number meets in this test
    stands for the rolls that do not look.)"""
    rng = random.Random(11)
    await _count_from(store, CROSSING, check_every=2**62)
    big, _small, sheets, counts_of = await _crossing_setup(store, make_campaign, make_character)
    for _ in range(CROSSING + 7):
        await store.log_roll(_random_roll(rng, big, sheets[big.id]))
    assert await store.backend.query("test_counted") == []
    assert await counts_of(big) == 0
    await _count_from(store, CROSSING, check_every=1)
    await store.log_roll(_random_roll(rng, big, sheets[big.id]))  # this one looks
    assert await store.backend.query("test_counted") == [(big.id,)]
    await _same_counted(store)
    await _count_from(store, CROSSING, check_every=2**62)  # counted: every roll, looking or not
    for _ in range(5):
        await store.log_roll(_random_roll(rng, big, sheets[big.id]))
    await _same_counted(store)
    await _rolls_agree(store, big.id)


def test_the_migration_keeps_the_counts_of_long_logs_only(tmp_path) -> None:
    """A campaign of 5,000 rolls or more keeps its counts; one of fewer loses them (its /stats
    reads its log until it reaches 5,000)."""
    path = tmp_path / "old.db"
    prepare_database(path, target=_where_they_pay(migrations()) - 1)
    conn = schema.connect(path)
    conn.execute("BEGIN")
    for campaign in (1, 2):
        conn.execute(
            "INSERT INTO campaigns (id, guild_id, name, name_key, is_default) "
            "VALUES (?, ?, ?, ?, 0)",
            (campaign, GUILD, f"Saga {campaign}", f"saga {campaign}"),
        )
    insert = f"INSERT INTO roll_log ({_OLD_COLUMNS}) VALUES ({', '.join('?' * 16)})"
    conn.executemany(insert, [next(_old_rows())] * 5000)
    conn.executemany(insert, [(GUILD, 2, *row[2:]) for row in _old_rows()])
    conn.execute("COMMIT")
    conn.close()
    prepare_database(path)
    conn = schema.connect(path)
    try:
        assert conn.execute(COUNTED).fetchall() == [(1,)]
        counted = conn.execute(COUNTS).fetchall()
        assert counted == [row for row in conn.execute(RECOUNT).fetchall() if row[0] == 1]
        assert sum(row[-2] for row in counted if row[1] == "*") == 5000
        assert conn.execute("SELECT count_from, check_every FROM roll_counting").fetchone() == (
            5000,
            1024,  # 0029's 128, raised by 0030
        )
    finally:
        conn.close()
