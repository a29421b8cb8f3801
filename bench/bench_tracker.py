"""Tracker benchmark: a busy fight's tracker edits against Discord's per-channel edit limit.

    .venv/bin/python -m bench.bench_tracker [--seconds 60] [--rate 5] [--goblins 18]
        [--drain 30] [--tree DIR]

bot.py runs on a fresh database against the stand-in, which limits edits of a channel's
messages as Discord does (5 per 5 s, X-RateLimit-* headers, 429 past it; tests/e2e/fakecord/
limits.py). The fight of bench_fight (two players, `--goblins` goblins of 999 HP, NPC health
shown as numbers) then takes `--rate` attacks a second for `--seconds`, sent on a fixed clock
whether or not the earlier ones were answered. Printed, per bot:

* the tracker's edits a second over the run, and the most in any 5 s;
* 429s the bot received;
* for every attack that did damage, the delay from its answer (the damage is stored before
  the answer) to the first tracker edit that shows that goblin's health at or below it: p50,
  p99, max, and how many were not shown within `--drain` s after the last answer;
* whether the last tracker equals the database.

--tree DIR runs another checkout's bot.py first (e.g. the code before a change, `git worktree
add DIR <commit>`), against the same stand-in code, so both are measured in one run.
Everything on 127.0.0.1, bounded by --seconds and --drain.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_e2e import launch, percentile, stop, with_path
from bench.bench_fight import PLAYERS, WEAPON, Session, set_up
from tests.e2e.standin import Callback, Fakecord, MessageEvent
from tests.e2e.wire_support import WIRE_BOT

HEALTH = re.compile(r"^(?P<name>Goblin \d+): HP (?P<before>-?\d+) → (?P<after>-?\d+)")
LINE = re.compile(r"\*\*(?P<name>Goblin \d+)\*\* · HP (?P<hp>-?\d+)/")
WINDOW = 5.0


def shown_health(event: MessageEvent) -> dict[str, int]:
    """Each goblin's HP on a tracker edit."""
    description = event.embeds[0].get("description", "") if event.embeds else ""
    return {m["name"]: int(m["hp"]) for m in LINE.finditer(description)}


def change_of(cb: Callback) -> tuple[str, int] | None:
    """The goblin an attack damaged and its HP after, from the answer's Health field."""
    embed = cb.embeds[0] if cb.embeds else {}
    for f in embed.get("fields", []):
        if f["name"] == "Health" and (m := HEALTH.match(f["value"])):
            return m["name"], int(m["after"])
    return None


def tracker_of(standin: Fakecord) -> int:
    """The tracker message: the bot's message whose embed title starts with the swords."""
    for mid, message in standin.messages.items():
        embeds = message.get("embeds") or []
        if embeds and embeds[0].get("title", "").startswith("⚔️ Benchmark"):
            return mid
    raise SystemExit("no tracker message")


async def fire(standin: Fakecord, session: Session, count: int, rate: float, goblins: int):
    """`count` attacks, one every 1/rate s on a fixed clock; (answers, missing)."""
    users = list(PLAYERS)
    started = time.perf_counter()
    futures = []
    for n in range(count):
        due = started + n / rate
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        options = {"weapon": WEAPON, "target": f"Goblin {n % goblins + 1}", "roll": n % 20 + 1}
        payload = session.payload("attack", options, by=users[n % len(users)])
        futures.append(await standin.post_interaction(payload))
    done, pending = await asyncio.wait(futures, timeout=15.0)
    return [f.result() for f in done], len(pending)


async def run_one(bot: Path, env: dict[str, str], args: argparse.Namespace, work: Path) -> dict:
    db = work / f"tracker-{len(list(work.iterdir()))}.db"
    async with Fakecord() as standin:
        proc = await launch(standin, bot, db, work / f"{db.stem}.log", **env)
        try:
            await standin.wait_synced(60.0, guild_id=standin.guilds[0].id)
            await standin.wait_ready(60.0)
            session = Session(standin)
            await set_up(session, args.goblins)
            await session.send("campaign", {"npc_health": True}, sub="settings")
            tracker = tracker_of(standin)
            await asyncio.sleep(2 * WINDOW)  # the set-up's edits out of the way
            first = len(standin.message_events)
            requests = len(standin.requests)
            started = time.perf_counter()
            answers, missing = await fire(
                standin, session, int(args.seconds * args.rate), args.rate, args.goblins
            )
            fired = time.perf_counter()
            changes = [(c, cb.received_at) for cb in answers if (c := change_of(cb))]
            if not changes:
                raise SystemExit("no attack did damage")
            final = {name: hp for (name, hp), _ in sorted(changes, key=lambda x: x[1])}

            def caught_up() -> bool:
                edits = [e for e in standin.message_events[first:] if e.message_id == tracker]
                shown = shown_health(edits[-1]) if edits else {}
                return all(shown.get(n, 10**6) <= hp for n, hp in final.items())

            with contextlib.suppress(AssertionError):  # not caught up: counted as unseen
                await standin.wait_for(caught_up, args.drain, "the tracker catching up")
            await asyncio.sleep(2.0)
        finally:
            exit_code = await stop(proc)
        edits = [
            e
            for e in standin.message_events[first:]
            if e.kind == "channel_edit" and e.message_id == tracker
        ]
        refused = sum(1 for r in standin.requests[requests:] if r.status == 429)
    delays, unseen = [], 0
    for (name, hp), at in changes:
        seen = next((e.at for e in edits if e.at >= at and shown_health(e).get(name, hp + 1) <= hp),
                    None)  # fmt: skip
        if seen is None:
            unseen += 1
        else:
            delays.append((seen - at) * 1000)
    times = [e.at for e in edits]
    busiest = max((sum(1 for t in times if s <= t < s + WINDOW) for s in times), default=0)
    span = (times[-1] - started) if times else 0.0
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        stored = dict(
            conn.execute("SELECT name, hp_max - hp_lost FROM combatants WHERE is_npc = 1")
        )
    finally:
        conn.close()
    last = shown_health(edits[-1]) if edits else {}
    return {
        "attacks": len(answers),
        "missing": missing,
        "fire_s": fired - started,
        "changes": len(changes),
        "edits": len(edits),
        "per_s": len(edits) / span if span else 0.0,
        "busiest": busiest,
        "refused": refused,
        "delays": delays,
        "unseen": unseen,
        "final": all(last.get(name) == hp for name, hp in stored.items()),
        "exit": exit_code,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_tracker", description=__doc__)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long attacks land")
    parser.add_argument("--rate", type=float, default=5.0, help="attacks a second")
    parser.add_argument("--goblins", type=int, default=18, help="goblin copies (1-20)")
    parser.add_argument("--drain", type=float, default=30.0, help="s to wait for the tracker")
    parser.add_argument("--tree", type=Path, help="another checkout's bot.py, run first")
    args = parser.parse_args(argv)
    if not 1 <= args.goblins <= 20 or not 0 < args.seconds <= 600 or not 0 < args.rate <= 50:
        parser.error("--goblins 1-20, --seconds up to 600, --rate up to 50")
    subjects = [("bot.py", WIRE_BOT, {})]
    if args.tree is not None:
        tree = args.tree.resolve()
        subjects.insert(0, (f"bot.py, {tree.name}", tree / "bot.py", with_path(tree)))
    with tempfile.TemporaryDirectory(prefix="wire-bench-tracker-") as tmp:
        rows = [(name, asyncio.run(run_one(bot, env, args, Path(tmp)))) for name, bot, env in
                subjects]  # fmt: skip
    print(f"\nA fight of {args.goblins + len(PLAYERS)} combatants, {args.rate:g} attacks a second "
          f"for {args.seconds:g} s, the stand-in limiting a channel's edits to 5 per 5 s; "
          f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")  # fmt: skip
    print(f"{'bot':<28}{'attacks':>8}{'edits':>7}{'edits/s':>9}{'max/5s':>8}{'429s':>6}"
          f"{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'unseen':>8}{'final=db':>10}")  # fmt: skip
    for name, r in rows:
        d = r["delays"] or [float("nan")]
        print(f"{name:<28}{r['attacks']:>8}{r['edits']:>7}{r['per_s']:>9.2f}{r['busiest']:>8}"
              f"{r['refused']:>6}{percentile(d, 0.5):>9.0f}{percentile(d, 0.99):>9.0f}"
              f"{max(d):>9.0f}{r['unseen']:>8}{r['final']!s:>10}")  # fmt: skip
    for name, r in rows:
        print(f"{name}: {r['changes']} attacks did damage; unanswered {r['missing']}; attacks "
              f"sent over {r['fire_s']:.1f} s; exit code on SIGTERM {r['exit']}")  # fmt: skip
    print(
        f"(delay: from an attack's answer to the first tracker edit showing its damage; "
        f"unseen: not shown within --drain {args.drain:g} s of the last answer)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
