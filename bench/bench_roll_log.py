"""Roll-log growth: bytes per logged roll, measured on a database the real bot wrote.

    .venv/bin/python -m bench.bench_roll_log [--rolls 3000] [--guilds 10] [--keep DIR]

docs/scaling.md turns rolls per year into disk from this figure. A row's size depends on what
the cogs put in it (the inputs JSON, the character's name, ids of 18 to 19 digits) and on the
four indexes over it, so it is measured, not computed from the schema: bot.py runs against the
Discord stand-in on a fresh SQLite file, players in several guilds create a character with a
weapon, a GM adds a goblin NPC, and then the players send a mix of roll commands (sheet checks,
number checks, weapon attacks on the goblin, defences, contests). After a clean stop, SQLite's
`dbstat` table gives the pages of `roll_log` and of each of its indexes.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.bench_e2e import launch, stop
from tests.e2e.standin import DEFAULT_USER_ID, MANAGER_PERMISSIONS, Fakecord
from tests.e2e.wire_support import WIRE_BOT, many_guilds, run_bounded

PLAYERS_PER_GUILD = 4
GM = DEFAULT_USER_ID + 999


async def set_up(standin: Fakecord, players: list[tuple[int, int]]) -> None:
    """A sheet with a weapon for every player, a goblin with Parry in every guild."""

    async def send(name: str, options: dict[str, Any], sub: str, guild: int, user: int, **kw: Any):
        payload = standin.command_interaction(
            name, options, subcommand=sub, guild_id=guild, user_id=user, require_synced=False, **kw
        )
        return await standin.send_interaction(payload, timeout=15.0)

    for guild, user in players:
        await send("character", {"name": f"Hero {user % 1000}"}, "create", guild, user)
        await send("character", {"attribute": "Strength", "value": 3}, "set", guild, user)
        await send("character", {"skill": "Long swords", "value": 5}, "set", guild, user)
        await send(
            "character",
            {"weapon": "Long sword", "base": 5, "attribute": "Strength", "skill": "Long swords"},
            "weapon",
            guild,
            user,
        )
    for guild in sorted({g for g, _ in players}):
        gm = {"permissions": MANAGER_PERMISSIONS}
        await send("character", {"name": "Goblin", "npc": True}, "create", guild, GM, **gm)
        await send(
            "character", {"name": "Goblin", "skill": "Parry", "value": 2}, "set", guild, GM, **gm
        )


def roll_commands(
    standin: Fakecord, players: list[tuple[int, int]], count: int, seed: int
) -> Iterator[dict[str, Any]]:
    """A table's evening: mostly checks from the sheet, then attacks, plain checks, the rest."""
    rng = random.Random(seed)
    mix: list[tuple[float, str, dict[str, Any]]] = [
        (0.35, "check", {"attr_name": "Strength", "skill_name": "Long swords", "vs": 15}),
        (0.25, "attack", {"weapon": "Long sword", "target": "Goblin"}),
        (0.20, "check", {"attr": 3, "skill": 2, "vs": 13, "label": "Climbing the wall"}),
        (0.10, "defend", {"str": 1, "skill": 2, "base": 5, "vs": 13}),
        (0.10, "contest", {"attr": 2, "skill": 4, "opp_attr": 1, "opp_skill": 3}),
    ]
    weights = [share for share, _, _ in mix]
    for _ in range(count):
        guild, user = rng.choice(players)
        _, name, options = rng.choices(mix, weights)[0]
        yield standin.command_interaction(
            name, options, guild_id=guild, user_id=user, require_synced=False
        )


def measure(db: Path) -> dict[str, Any]:
    """Rows, and the bytes of roll_log and of its indexes, from SQLite's dbstat table."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT count(*) FROM roll_log").fetchone()[0]
        inputs = conn.execute("SELECT avg(length(inputs)) FROM roll_log").fetchone()[0]
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = dict(
            conn.execute(
                "SELECT name, sum(pgsize) FROM dbstat WHERE name = 'roll_log' OR name IN "
                "(SELECT name FROM sqlite_schema WHERE tbl_name = 'roll_log' AND type = 'index') "
                "GROUP BY name"
            ).fetchall()
        )
        payload = conn.execute(
            "SELECT sum(payload) FROM dbstat WHERE name = 'roll_log'"
        ).fetchone()[0]
    finally:
        conn.close()
    return {
        "rows": rows,
        "inputs": inputs or 0.0,
        "page_size": page_size,
        "pages": pages,
        "payload": payload or 0,
        "file": db.stat().st_size,
    }


async def run(rolls: int, guild_count: int, work: Path) -> tuple[dict[str, Any], int]:
    guilds = many_guilds(guild_count)
    players = [
        (g.id, DEFAULT_USER_ID + 10 * n + k)
        for n, g in enumerate(guilds)
        for k in range(PLAYERS_PER_GUILD)
    ]
    db = work / "wire.db"
    async with Fakecord(guilds=guilds) as standin:
        proc = await launch(standin, WIRE_BOT, db, work / "wirebot.log")
        await standin.wait_ready(60.0)
        await standin.wait_synced(60.0, guild_id=guilds[0].id)
        await set_up(standin, players)
        answered, missing = await run_bounded(
            standin, roll_commands(standin, players, rolls, 1130), in_flight=20, timeout=15.0
        )
        code = await stop(proc)
    if missing or code != 0:
        raise SystemExit(f"{len(missing)} rolls unanswered, bot exit {code}; see {work}")
    return measure(db), len(answered)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_roll_log", description=__doc__)
    parser.add_argument("--rolls", type=int, default=3000, help="roll commands to send")
    parser.add_argument("--guilds", type=int, default=10)
    parser.add_argument("--keep", type=Path, help="write the database here and keep it")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="wire-bench-rolllog-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        found, answered = asyncio.run(run(args.rolls, args.guilds, work))
    rows = found["rows"]
    table = found["pages"].pop("roll_log")
    indexes = sum(found["pages"].values())
    print(f"\nRoll log written by bot.py: {answered} roll commands -> {rows} rows, "
          f"page size {found['page_size']}")  # fmt: skip
    print(f"{'':<34}{'bytes':>12}{'per row':>10}")
    print(f"{'row payload (dbstat)':<34}{found['payload']:>12}{found['payload'] / rows:>10.0f}")
    print(f"{'  of which inputs JSON (avg)':<34}{'':>12}{found['inputs']:>10.0f}")
    print(f"{'roll_log table pages':<34}{table:>12}{table / rows:>10.0f}")
    for name, size in sorted(found["pages"].items()):
        print(f"{'  index ' + name:<34}{size:>12}{size / rows:>10.0f}")
    print(f"{'table + indexes':<34}{table + indexes:>12}{(table + indexes) / rows:>10.0f}")
    print(f"{'whole file (sheets and all)':<34}{found['file']:>12}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
