"""In-character posts through the real bot.py and the Discord stand-in: what a /say costs.

    .venv/bin/python -m bench.bench_say [--count 400] [--in-flight 20] [--rounds 2]
        [--scene 30]

1. `/check attr:3 skill:5 vs:13` and `/say text:...` in turn (A B A B, --rounds each), on one
   bot process and database: 20 players with an active character each, in 10 channels; the
   stand-in's webhook limit raised out of the way, so the bot's own work shows. For /check the
   latency is INTERACTION_CREATE -> callback; for /say it is INTERACTION_CREATE -> the post
   executed through the channel's webhook (after its defer, before its private answer). Also
   the CPU milliseconds an interaction cost the bot's process.
2. A busy scene at Discord's own rate (5 executes a webhook per 2 s): --scene posts sent at once
   in one channel; the seconds until the last appears, whether they appear in the order sent,
   and how many 429s the stand-in had to give (the bot keeps to the X-RateLimit headers).

Everything runs on 127.0.0.1; bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import psutil

from bench.bench_e2e import cpu_seconds, launch, percentile, stop
from tests.e2e.standin import (
    DEFAULT_CHANNEL_ID,
    DEFAULT_GUILD_ID,
    DEFAULT_USER_ID,
    ChannelSpec,
    Fakecord,
    GuildSpec,
)
from tests.e2e.wire_support import WIRE_BOT, run_bounded

PLAYERS = [DEFAULT_USER_ID + 1 + n for n in range(20)]
CHANNELS = [DEFAULT_CHANNEL_ID] + [DEFAULT_CHANNEL_ID + 100 + n for n in range(9)]
GUILDS = [
    GuildSpec(
        id=DEFAULT_GUILD_ID,
        name="Bench",
        channels=[ChannelSpec(c, f"scene-{n}") for n, c in enumerate(CHANNELS)],
    )
]


def channel_of(user: int) -> int:
    return CHANNELS[PLAYERS.index(user) % len(CHANNELS)]


async def setup(standin: Fakecord) -> None:
    for user in PLAYERS:
        payload = standin.command_interaction(
            "character", {"name": f"Hero {user % 1000}"}, subcommand="create", user_id=user
        )
        await standin.send_interaction(payload, timeout=15)


async def checks(standin: Fakecord, count: int, in_flight: int, bot: psutil.Process) -> dict:
    payloads = (
        standin.command_interaction(
            "check",
            {"attr": 3, "skill": 5, "vs": 13},
            user_id=PLAYERS[n % len(PLAYERS)],
            channel_id=channel_of(PLAYERS[n % len(PLAYERS)]),
        )
        for n in range(count)
    )
    cpu, started = cpu_seconds(bot), time.perf_counter()
    answered, missing = await run_bounded(standin, payloads, in_flight=in_flight, timeout=15)
    elapsed = time.perf_counter() - started
    latencies = [cb.latency * 1000 for _, cb in answered]
    return {
        "rate": len(answered) / elapsed,
        "p50": statistics.median(latencies),
        "p99": percentile(latencies, 0.99),
        "missing": len(missing),
        "bot_cpu": (cpu_seconds(bot) - cpu) * 1000 / count,
    }


async def says(
    standin: Fakecord, count: int, in_flight: int, bot: psutil.Process, tag: str
) -> dict:
    sent: dict[str, float] = {}

    def payloads():
        for n in range(count):
            user = PLAYERS[n % len(PLAYERS)]
            text = f"{tag} {n}"
            payload = standin.command_interaction(
                "say", {"text": text}, user_id=user, channel_id=channel_of(user)
            )
            sent[text] = time.perf_counter()
            yield payload

    before = len(standin.message_events)
    cpu, started = cpu_seconds(bot), time.perf_counter()
    await run_bounded(standin, payloads(), in_flight=in_flight, timeout=15)

    def posted() -> list:
        return [
            e
            for e in standin.message_events[before:]
            if e.kind == "webhook_post" and (e.content or "").startswith(f"{tag} ")
        ]

    await standin.wait_for(lambda: len(posted()) >= count, 60.0, "every post")
    # Each answer's follow-up comes after its post: wait for those too, for the CPU figure.
    await standin.wait_for(
        lambda: sum(e.kind == "followup" for e in standin.message_events[before:]) >= count,
        60.0,
        "every answer",
    )
    elapsed = time.perf_counter() - started
    posts = posted()
    latencies = [(e.at - sent[e.content]) * 1000 for e in posts]
    return {
        "rate": len(posts) / elapsed,
        "p50": statistics.median(latencies),
        "p99": percentile(latencies, 0.99),
        "missing": count - len({e.content for e in posts}),
        "bot_cpu": (cpu_seconds(bot) - cpu) * 1000 / count,
    }


async def scene(standin: Fakecord, posts: int) -> dict:
    """`posts` at once in one channel, at Discord's webhook rate."""
    standin.webhook_rate, standin.webhook_window = 5, 2.0
    await asyncio.sleep(standin.webhook_window)  # the earlier runs' calls out of the window
    before = len(standin.message_events)
    limited = sum(r.status == 429 for r in standin.requests if r.kind == "webhook_execute")
    started = time.perf_counter()
    for n in range(posts):
        payload = standin.command_interaction(
            "say", {"text": f"scene {n}"}, user_id=PLAYERS[0], channel_id=DEFAULT_CHANNEL_ID
        )
        await standin.post_interaction(payload)

    def shown() -> list[str]:
        return [
            e.content or ""
            for e in standin.message_events[before:]
            if e.kind == "webhook_post" and (e.content or "").startswith("scene ")
        ]

    await standin.wait_for(lambda: len(shown()) >= posts, 30.0 + posts, "the scene")
    return {
        "seconds": time.perf_counter() - started,
        "in_order": shown() == [f"scene {n}" for n in range(posts)],
        "doubled": len(shown()) - len(set(shown())),
        "429s": sum(r.status == 429 for r in standin.requests if r.kind == "webhook_execute")
        - limited,
    }


async def run(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        standin = Fakecord(guilds=GUILDS, ack_deadline=None)
        await standin.start()
        proc = None
        try:
            standin.webhook_rate = 10**9  # out of the way: the bot's own work shows
            proc = await launch(standin, WIRE_BOT, work / "wire.db", work / "bot.log")
            await standin.wait_synced(60.0, guild_id=DEFAULT_GUILD_ID)
            await standin.wait_ready(60.0)
            bot = psutil.Process(proc.pid)
            await setup(standin)
            await says(standin, 50, args.in_flight, bot, "warm")  # webhooks made, code warm
            await checks(standin, 50, args.in_flight, bot)
            rows: dict[str, list[dict]] = {"/check": [], "/say": []}
            for n in range(args.rounds):
                rows["/check"].append(await checks(standin, args.count, args.in_flight, bot))
                rows["/say"].append(await says(standin, args.count, args.in_flight, bot, f"r{n}"))
            print(f"{args.count} interactions a run, {args.in_flight} in flight, A B A B:")
            print(f"{'':8} {'per s':>8} {'p50 ms':>8} {'p99 ms':>8} {'bot CPU ms':>11} missing")
            for n in range(args.rounds):  # in the order they ran
                for name in rows:
                    row = rows[name][n]
                    print(
                        f"{name:8} {row['rate']:8.0f} {row['p50']:8.1f} {row['p99']:8.1f} "
                        f"{row['bot_cpu']:11.2f} {row['missing']:>7}"
                    )
            check_cpu = statistics.median(r["bot_cpu"] for r in rows["/check"])
            say_cpu = statistics.median(r["bot_cpu"] for r in rows["/say"])
            print(f"median bot CPU a /say / a /check: {say_cpu / check_cpu:.2f}")
            found = await scene(standin, args.scene)
            print(
                f"a scene of {args.scene} posts at once, one channel, 5 a webhook per 2 s: "
                f"{found['seconds']:.1f} s to the last; in order: {found['in_order']}; "
                f"doubled: {found['doubled']}; 429s: {found['429s']}"
            )
        finally:
            if proc is not None:
                await stop(proc)
            await standin.stop()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_say", description=__doc__)
    parser.add_argument("--count", type=int, default=400, help="interactions per run")
    parser.add_argument("--in-flight", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--scene", type=int, default=30, help="posts of the busy scene")
    args = parser.parse_args(argv)
    if not 1 <= args.count <= 5000 or not 1 <= args.scene <= 200 or not 1 <= args.rounds <= 5:
        parser.error("--count 1-5000, --scene 1-200, --rounds 1-5")
    return asyncio.run(run(args))


if __name__ == "__main__":
    raise SystemExit(main())
