"""Fight benchmark: the real WIRE bot running a 20-combatant fight against the Discord stand-in.

    .venv/bin/python -m bench.bench_fight [--count 300] [--goblins 18] [--in-flight 4]

bot.py runs on a fresh database (through tests/e2e/launcher.py, everything on 127.0.0.1). A GM
starts a fight, two players join, the GM adds `--goblins` copies of a goblin (20 combatants by
default) and begins it. Then, after a warm-up:

1. `--count` `/fight next` from the GM, one at a time: the latency from INTERACTION_CREATE sent
   to the callback received, and to the tracker's edit (its PATCH, sent after the answer)
   received by the stand-in;
2. `--count` `/attack weapon:... target:Goblin k roll:...` from the two players, `--in-flight`
   at a time, each applying its damage to that goblin and editing the tracker: the latency to
   the callback.

Figures, not assertions; the last line compares the damage the embeds showed with the database.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.bench_e2e import launch, percentile, stop
from tests.e2e.standin import (
    DEFAULT_USER_ID,
    MANAGER_PERMISSIONS,
    Callback,
    Fakecord,
    MessageEvent,
)
from tests.e2e.wire_support import WIRE_BOT, run_bounded

GM = DEFAULT_USER_ID
PLAYERS = {DEFAULT_USER_ID + 1: "Aria", DEFAULT_USER_ID + 2: "Bram"}
WEAPON = "Sword"
WARM_UP = 20
TIMEOUT = 15.0
"""Seconds any one interaction (or tracker edit) may take before it counts as missing."""


class Session:
    """Commands as the GM or a player, through the stand-in."""

    def __init__(self, standin: Fakecord) -> None:
        self.standin = standin

    def payload(self, name: str, options: dict[str, Any], *, by: int, sub: str | None = None):
        perms = {"permissions": MANAGER_PERMISSIONS} if by == GM else {}
        return self.standin.command_interaction(name, options, subcommand=sub, user_id=by, **perms)

    async def send(
        self,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        by: int = GM,
        sub: str | None,
        private: bool = False,
    ) -> Callback:
        """`private`: the answer is ephemeral on success too (a sheet's change)."""
        cb = await self.standin.send_interaction(
            self.payload(name, options or {}, by=by, sub=sub), timeout=TIMEOUT
        )
        if cb.ephemeral and by != GM and not private:
            raise SystemExit(f"/{name} {sub or ''} was refused: {cb.content}")
        return cb


async def set_up(session: Session, goblins: int) -> None:
    """Two players with sword-wielding characters, a goblin NPC with 999 HP (so the attacks
    never run out of goblin), the fight begun with everyone in it."""
    s = session.send
    for user, name in PLAYERS.items():
        await s("character", {"name": name}, by=user, sub="create")
        await s("character", {"attribute": "Strength", "value": 3}, by=user, sub="set",
                private=True)  # fmt: skip
        await s("character", {"skill": "Swords", "value": 5}, by=user, sub="set", private=True)
        await s("character", {"weapon": WEAPON, "base": 5, "attribute": "Strength",
                              "skill": "Swords"}, by=user, sub="weapon", private=True)  # fmt: skip
    await s("character", {"name": "Goblin", "npc": True}, sub="create")
    await s("character", {"name": "Goblin", "skill": "Parry", "value": 2}, sub="set")
    await s("character", {"name": "Goblin", "hp": 999}, sub="health")
    # The players attack while the GM moves the turns on: the table allows any number of
    # attacks at any time (docs/rules.md, "Turns that hold"), so none is refused.
    await s("campaign", {"attacks_per_turn": 0, "out_of_turn": True}, sub="settings")
    started = await s("fight", {"name": "Benchmark"}, sub="start")
    if started.message_id is None or not started.components:
        raise SystemExit(f"/fight start posted no tracker: {started.data}")
    for n, user in enumerate(PLAYERS):
        await s("fight", {"initiative": 15 - n}, by=user, sub="join")
    added = await s("fight", {"npc": "Goblin", "count": goblins, "initiative": 5}, sub="add")
    if "Added" not in (added.content or ""):
        raise SystemExit(f"/fight add failed: {added.content}")
    begun = await s("fight", sub="next")
    if not (begun.content or "").startswith("Round 1"):
        raise SystemExit(f"/fight next did not begin the fight: {begun.content}")


def summary(samples: list[float]) -> dict[str, float]:
    ms = [s * 1000 for s in samples]
    if not ms:
        return {"count": 0, "mean": 0.0, "p50": 0.0, "p99": 0.0}
    return {
        "count": len(ms),
        "mean": statistics.fmean(ms),
        "p50": statistics.median(ms),
        "p99": percentile(ms, 0.99),
    }


TURN = re.compile(r"^Round (?P<round>\d+)(?: begins)?: \*\*(?P<name>[^*]+)\*\*")


def shows_turn(event: MessageEvent, round_number: str, name: str) -> bool:
    """Whether a tracker edit shows round `round_number` with `name`'s turn."""
    embeds = event.embeds
    if not embeds or not embeds[0].get("title", "").endswith(f": round {round_number}"):
        return False
    lines = embeds[0].get("description", "").splitlines()
    return any(line.startswith("▶") and f"**{name}**" in line for line in lines)


async def next_turns(session: Session, count: int) -> tuple[list[float], list[float], int]:
    """`count` /fight next, one after another: callback and tracker-edit latencies, missing.

    The edit counted is the one showing the turn the answer announced (an edit from an earlier
    interaction can land meanwhile)."""
    standin = session.standin
    answered: list[float] = []
    edited: list[float] = []
    missing = 0
    for _ in range(count):
        payload = session.payload("fight", {}, by=GM, sub="next")
        try:
            cb = await standin.send_interaction(payload, timeout=TIMEOUT)
            turn = TURN.match(cb.content or "")
            if turn is None:
                raise SystemExit(f"/fight next answered {cb.content!r}")
            event = await standin.wait_message_event(
                "channel_edit",
                predicate=lambda e, t=turn: shows_turn(e, t["round"], t["name"]),
                timeout=TIMEOUT,
            )
        except AssertionError:
            missing += 1
            continue
        answered.append(cb.latency)
        edited.append(event.at - cb.sent_at)
    return answered, edited, missing


def attack_payloads(session: Session, count: int, goblins: int) -> Iterator[dict[str, Any]]:
    users = list(PLAYERS)
    for n in range(count):
        options = {"weapon": WEAPON, "target": f"Goblin {n % goblins + 1}", "roll": n % 20 + 1}
        yield session.payload("attack", options, by=users[n % len(users)])


def damage_shown(cb: Callback) -> int:
    """The damage an attack's embed says was applied (its Health field is there when any was)."""
    embed = cb.embeds[0] if cb.embeds else {}
    if not any(f["name"] == "Health" for f in embed.get("fields", [])):
        return 0
    return int(embed["description"].rsplit("= ", 1)[1].split(" damage")[0])


async def run(count: int, goblins: int, in_flight: int, work: Path) -> dict[str, Any]:
    db = work / "fight.db"
    async with Fakecord() as standin:
        proc = await launch(standin, WIRE_BOT, db, work / "wirebot.log")
        try:
            await standin.wait_synced(60.0, guild_id=standin.guilds[0].id)
            await standin.wait_ready(60.0)
            session = Session(standin)
            await set_up(session, goblins)
            # Warm-up: both paths once over (the bot's caches, SQLite's pages).
            await next_turns(session, WARM_UP)
            warm, _ = await run_bounded(
                standin, attack_payloads(session, WARM_UP, goblins), in_flight=in_flight
            )
            started = time.perf_counter()
            answered, edited, next_missing = await next_turns(session, count)
            next_seconds = time.perf_counter() - started
            started = time.perf_counter()
            attacks, attack_missing = await run_bounded(
                standin,
                attack_payloads(session, count, goblins),
                in_flight=in_flight,
                timeout=TIMEOUT,
            )
            attack_seconds = time.perf_counter() - started
            shown = sum(damage_shown(cb) for _, cb in warm + attacks)
            await asyncio.sleep(0.5)  # the last tracker edits
        finally:
            exit_code = await stop(proc)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        lost = conn.execute(
            "SELECT coalesce(sum(before - after), 0) FROM health_log WHERE reason = 'attack'"
        ).fetchone()[0]
    finally:
        conn.close()
    return {
        "next": summary(answered),
        "edit": summary(edited),
        "attack": summary([cb.latency for _, cb in attacks]),
        "next_missing": next_missing,
        "attack_missing": len(attack_missing),
        "next_rate": len(answered) / next_seconds if next_seconds else 0.0,
        "attack_rate": len(attacks) / attack_seconds if attack_seconds else 0.0,
        "shown": shown,
        "lost": lost,
        "exit": exit_code,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_fight", description=__doc__)
    parser.add_argument("--count", type=int, default=300, help="/fight next and /attack each")
    parser.add_argument("--goblins", type=int, default=18, help="goblin copies (1-20)")
    parser.add_argument("--in-flight", type=int, default=4, help="attacks in flight at once")
    args = parser.parse_args(argv)
    if not 1 <= args.goblins <= 20:
        parser.error("--goblins must be 1-20 (/fight add's count)")
    with tempfile.TemporaryDirectory(prefix="wire-bench-fight-") as tmp:
        r = asyncio.run(run(args.count, args.goblins, args.in_flight, Path(tmp)))
    combatants = args.goblins + len(PLAYERS)
    print(f"\nA fight of {combatants} combatants ({len(PLAYERS)} PCs + {args.goblins} goblins), "
          f"bot.py against the stand-in, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs")  # fmt: skip
    rows: list[tuple[str, dict[str, float], int, float]] = [
        ("/fight next -> callback", r["next"], r["next_missing"], r["next_rate"]),
        ("/fight next -> tracker edited", r["edit"], r["next_missing"], r["next_rate"]),
        (f"/attack ({args.in_flight} in flight) -> callback", r["attack"], r["attack_missing"],
         r["attack_rate"]),
    ]  # fmt: skip
    print(f"{'interaction':<36}{'count':>7}{'mean ms':>10}{'p50 ms':>9}{'p99 ms':>9}"
          f"{'missing':>9}{'per s':>8}")  # fmt: skip
    for name, s, missing, rate in rows:
        print(f"{name:<36}{s['count']:>7}{s['mean']:>10.1f}{s['p50']:>9.1f}{s['p99']:>9.1f}"
              f"{missing:>9}{rate:>8.0f}")  # fmt: skip
    agree = "the same" if r["shown"] == r["lost"] else f"DIFFERENT: {r['lost']}"
    print(f"damage shown in the attacks' embeds (warm-up included): {r['shown']}; "
          f"taken off the goblins in the database: {agree}; "
          f"bot.py exit code on SIGTERM: {r['exit']}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
