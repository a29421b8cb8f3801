"""What conditions cost a roll: `python -m bench.bench_conditions [--rounds N] [--reps N]`.

Two parts, each with 0 and with 10 active conditions on the roller (the most a combatant may
carry), printed side by side as medians of call-by-call timings:

- the rules core: an attack's modifiers with the attacker's conditions added
  (`wire.conditions.with_conditions`) and resolved, and the defence the defender's conditions
  change; the ten conditions are a mix of targets, so half apply and half are passed over;
- the store: loading the running fight a roll reads (`running_fight`, on a SQLite file in a
  temporary folder), five combatants, each with 0 or with 10 conditions;
- a character's own conditions outside a fight (`/condition add`), read with the sheet by the
  one read every roll makes (`roller_context`): as a roll pays it (the read cache warm, the
  row turned into a sheet each time) and its SELECT uncached, for a sheet with 0 and with 10;
  and beneath the table, that SELECT for a sheet with none without the conditions column and
  with it, taken in turn call by call (what the column costs a roll of a character that has
  none when the read cache misses; a warm cache runs no SQL at all).

Then what almost every roll pays: asking a channel with no fight, as `running_fight` does now
(a cached read) and as it did before (the same statement in a read transaction of its own),
side by side.

Figures, not assertions (the machine is shared): compare the two columns of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from wire.check import Roll, stat_line
from wire.combat import resolve_attack
from wire.conditions import MAX_CONDITIONS, Effect, RollFor, Target, with_conditions
from wire.dice import Die, DieSource, obtain_die

TARGETS = (Target.ATTACK, Target.DEFENCE, Target.CHECK, Target.PARRY, Target.ALL)


def conditions(count: int) -> tuple[Effect, ...]:
    return tuple(
        Effect(n + 1, f"Condition {n + 1}", 3, (n % 5) - 2, TARGETS[n % len(TARGETS)])
        for n in range(count)
    )


def _median_us(samples: Sequence[int]) -> float:
    return statistics.median(samples) / 1000


def time_calls(call: Callable[[], object], rounds: int, reps: int) -> float:
    """The median of `rounds` x `reps` calls, in µs, the garbage collector off."""
    samples: list[int] = []
    gc.disable()
    try:
        for _ in range(rounds):
            for _ in range(reps):
                start = time.perf_counter_ns()
                call()
                samples.append(time.perf_counter_ns() - start)
    finally:
        gc.enable()
    return _median_us(samples)


def interleaved(calls: dict[str, Callable[[], object]], count: int) -> dict[str, float]:
    """Each call's median in µs, the calls taken in turn sample by sample (so a shared
    machine's drift falls on all of them alike), the garbage collector off."""
    samples: dict[str, list[int]] = {name: [] for name in calls}
    gc.disable()
    try:
        for _ in range(count):
            for name, call in calls.items():
                start = time.perf_counter_ns()
                call()
                samples[name].append(time.perf_counter_ns() - start)
    finally:
        gc.enable()
    return {name: _median_us(taken) for name, taken in samples.items()}


def wire_rows(rounds: int, reps: int) -> list[tuple[str, float, float]]:
    rng = random.Random(7)
    jaime = stat_line(3, 5, attribute_label="Strength", skill_label="Long swords")
    goblin = stat_line(1, 2, attribute_label="Strength", skill_label="Parry")

    def attack(effects: tuple[Effect, ...]) -> Callable[[], object]:
        def call() -> object:
            mods = with_conditions(jaime, effects, RollFor.attack())
            defence = Roll(Die(10, DieSource.TAKE10), with_conditions(goblin, effects, PARRY))
            return resolve_attack(mods, 5, obtain_die(rng=rng), defender=defence)

        return call

    none, ten = conditions(0), conditions(MAX_CONDITIONS)
    return [
        (
            "attack + defence (wire)",
            time_calls(attack(none), rounds, reps),
            time_calls(attack(ten), rounds, reps),
        )
    ]


PARRY = RollFor.defence("parry")


async def _store_row(
    rounds: int, reps: int
) -> tuple[tuple[str, float, float], tuple[float, float]]:
    from storage import open_store
    from storage.models import Actor, NewCombatant
    from wire.initiative import Initiative

    gm, guild, channel = 1, 10, 20
    with tempfile.TemporaryDirectory() as folder:
        store = await open_store(Path(folder) / "bench.db")
        try:
            campaign = await store.create_campaign(guild, "Bench", Actor(gm, manages_guild=True))
            goblin = await store.create_character(guild, campaign.id, gm, "Goblin", is_npc=True)
            figures = []
            for count, name in ((0, "Plain"), (MAX_CONDITIONS, "Loaded")):
                channel += 1
                fight = await store.start_fight(guild, campaign.id, channel, gm, name)
                entries = [
                    NewCombatant(
                        f"Goblin {n}", goblin.id, None, True,
                        Initiative(Die(10, DieSource.TABLE), 0, 0), (21, 21, 0),
                    )
                    for n in range(1, 6)
                ]  # fmt: skip
                fight = await store.add_combatants(guild, fight.id, gm, entries)
                for member in fight.combatants:
                    for effect in conditions(count):
                        await store.add_effect(
                            guild, fight.id, gm, member.id, effect.name, effect.rounds_left,
                            modifier=effect.modifier, applies_to=effect.applies_to,
                        )  # fmt: skip
                figures.append(await _time_async(
                    lambda c=channel: store.running_fight(guild, c), rounds, reps
                ))  # fmt: skip
            no_fight = await _no_fight_row(store, guild, channel + 1, rounds, reps)
        finally:
            await store.close()
    return ("running_fight, 5 combatants (SQLite)", figures[0], figures[1]), no_fight


async def _no_fight_row(
    store: Any, guild: int, channel: int, rounds: int, reps: int
) -> tuple[float, float]:
    """A channel without a fight: `running_fight` now, and its statement in a transaction."""
    where = {"guild_id": guild, "channel_id": channel}

    async def in_transaction() -> object:
        async with store._read() as tx:
            return await tx.fetch("running_fight_of_channel", where)

    cached = await _time_async(lambda: store.running_fight(guild, channel), rounds, reps)
    return cached, await _time_async(in_transaction, rounds, reps)


async def _sheet_rows(rounds: int, reps: int) -> tuple[list[tuple[str, float, float]], str]:
    import sqlite3

    from storage import open_store
    from storage.models import Actor
    from storage.sql.sqlite import DIALECT, STATEMENTS

    gm, guild, channel, plain_user, loaded_user = 1, 10, 20, 2, 3
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        store = await open_store(path)
        try:
            campaign = await store.create_campaign(guild, "Bench", Actor(gm, manages_guild=True))
            await store.bind_channel(guild, channel, campaign.id, gm)
            for user, name in ((plain_user, "Plain"), (loaded_user, "Loaded")):
                await store.create_character(
                    guild, campaign.id, gm, name, owner_id=user,
                    attributes={"Strength": 3}, skills={"Long swords": 5},
                )  # fmt: skip
                await store.set_active_character(guild, campaign.id, user, name)
            for effect in conditions(MAX_CONDITIONS):
                await store.add_sheet_condition(guild, campaign.id, gm, "Loaded", effect)

            def params(user: int) -> dict[str, int]:
                return {"guild_id": guild, "channel_id": channel, "user_id": user}

            def cached(user: int) -> Callable[[], Awaitable[object]]:
                return lambda: store.roller_context(guild, channel, user)

            def uncached(user: int) -> Callable[[], Awaitable[object]]:
                return lambda: store.backend.query("roller_context", params(user))

            rows = [
                (
                    "a roll's sheet read, cache warm",
                    await _time_async(cached(plain_user), rounds, reps),
                    await _time_async(cached(loaded_user), rounds, reps),
                ),
                (
                    "its SELECT, uncached (SQLite)",
                    await _time_async(uncached(plain_user), rounds, reps),
                    await _time_async(uncached(loaded_user), rounds, reps),
                ),
            ]
        finally:
            await store.close()
        with_column = STATEMENTS["roller_context"]
        without_column = with_column.replace(f", {DIALECT.conditions}", "")
        assert without_column != with_column
        conn = sqlite3.connect(path)
        try:
            figures = interleaved(
                {
                    "without": lambda: conn.execute(without_column, params(plain_user)).fetchall(),
                    "with": lambda: conn.execute(with_column, params(plain_user)).fetchall(),
                },
                rounds * reps * 4,
            )
        finally:
            conn.close()
    note = (
        f"the sheet SELECT of a character with no conditions: {figures['without']:.1f} µs "
        f"without the conditions column, {figures['with']:.1f} µs with it "
        f"(ratio {figures['with'] / figures['without']:.2f})"
    )
    return rows, note


async def _time_async(call: Callable[[], Awaitable[object]], rounds: int, reps: int) -> float:
    samples: list[int] = []
    for _ in range(rounds):
        for _ in range(reps):
            start = time.perf_counter_ns()
            await call()
            samples.append(time.perf_counter_ns() - start)
    return _median_us(samples)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--reps", type=int, default=2000)
    args = parser.parse_args(argv)
    rows = wire_rows(args.rounds, args.reps)
    store_row, (cached, transaction) = asyncio.run(_store_row(args.rounds, max(1, args.reps // 20)))
    rows.append(store_row)
    sheet_rows, note = asyncio.run(_sheet_rows(args.rounds, max(1, args.reps // 4)))
    rows += sheet_rows
    width = max(len(name) for name, _, _ in rows)
    print(f"{'median per call':<{width}}  {'0 conditions':>14}  {'10 conditions':>14}")
    for name, none, ten in rows:
        print(f"{name:<{width}}  {none:>11.1f} µs  {ten:>11.1f} µs")
    print(
        f"\nA channel with no fight (SQLite): running_fight {cached:.1f} µs (a cached read); "
        f"the same question in a read transaction (before) {transaction:.1f} µs; "
        f"ratio {transaction / cached:.1f}"
    )
    print(note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
