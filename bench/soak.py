"""A long night at the tables: bot.py through the Discord stand-in for N interactions of a
realistic mix, on SQLite or PostgreSQL, looking for what only shows after hours.

    nice -n 10 .venv/bin/python -m bench.soak [--count 20000] [--tables 8] [--postgresql]

Each table is a guild with a GM and two players playing through their evening in turn: checks
(with Roll again presses and double clicks on them), attacks answered with defence presses
(double clicks too: two defences pressed at once, one wins), fights with turns and blows, sheet
edits, history, healing and character imports. The tables play side by side, so several
interactions are in flight at any time.

Printed at the end: interactions, errors (a bug's apology answered, or an ERROR or traceback in
the bot's log), unanswered (no callback within 10 s), the roll log against what was answered
(every interaction answered with a roll has its row, and no other has one), the bot's resident
memory after the first 2,000 interactions and at the end, and the time it took. Exit status 1
when any of those is wrong, or memory grew by more than 10 MB after the first 2,000.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

try:
    import psutil
except ImportError:  # the tests' install (tests/e2e/test_soak.py) has no psutil: no memory figures
    psutil = None  # type: ignore[assignment]

from bench.bench_e2e import launch, stop
from bench.bench_storage import OUT
from cogs.utils.errors import BUG_MESSAGE
from storage.pg_testing import throwaway_cluster
from storage.postgres_schema import prepare_postgres
from tests.e2e.standin import (
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_UPDATE_MESSAGE,
    DEFAULT_USER_ID,
    MANAGER_PERMISSIONS,
    Callback,
    Fakecord,
    FakecordError,
)
from tests.e2e.test_import_stall import OPTION_ATTACHMENT, serve_files
from tests.e2e.wire_support import WIRE_BOT, log_problems, many_guilds, plain_log

GM = DEFAULT_USER_ID
PLAYERS = (1, 2)
"""Each table's two players, as offsets from its own first user id."""
WARM_UP = 2_000
"""Interactions after which resident memory is first read: the caches are full by then."""
RSS_GROWTH_MAX = 10 * 1024 * 1024
ANSWER_TIMEOUT_S = 10.0
ROLLS = frozenset({"check", "again", "attack", "defend", "fight attack"})
"""The kinds of interaction that log a roll when they are answered with one."""
AGAIN = re.compile(r"wire:again:\d+")
DEFENCE = re.compile(r"wire:def:\d+:(parry|block|dodge)")
IMPORTED = json.dumps(
    {
        "format": "wire-bot",
        "version": 1,
        "kind": "character",
        "character": {
            "name": "Cora",
            "attributes": {"Strength": 2, "Reaction": 3},
            "skills": {"Bows": 4, "Dodge": 3},
            "weapons": [{"name": "Bow", "base": 4, "attribute": "Reaction", "skill": "Bows"}],
            "notes": "Imported again and again.",
        },
    }
).encode()


@dataclass
class Tally:
    """What the soak saw."""

    target: int
    sent: int = 0
    unanswered: int = 0
    late: set[int] = field(default_factory=set)
    """Unanswered ones the bot did answer, after Discord's 3 s (a starved machine, most likely:
    the stand-in refuses a late answer as Discord does): a roll among them may be logged."""
    bugs: list[str] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    rolled: dict[int, str] = field(default_factory=dict)
    """Interactions answered with a roll, and their kind: each must have its row in the roll
    log."""
    rss_warm: int | None = None
    rss_every: list[int] = field(default_factory=list)
    """Resident memory at each further 2,000 interactions: a leak climbs, a cache levels off."""
    bot: psutil.Process | None = None

    @property
    def done(self) -> bool:
        return self.sent >= self.target


def buttons(callback: Callback, pattern: re.Pattern[str]) -> list[str]:
    return [
        c["custom_id"]
        for row in callback.components
        for c in row.get("components", [])
        if pattern.fullmatch(c.get("custom_id", ""))
    ]


def is_roll(kind: str, callback: Callback) -> bool:
    """Whether the answer is a roll (which must be in the log): a public result, or the attack
    message updated with the defence (a second press only takes the buttons away)."""
    if kind == "defend":
        return callback.type == CALLBACK_UPDATE_MESSAGE and bool(callback.embeds)
    return (
        callback.type == CALLBACK_CHANNEL_MESSAGE
        and not callback.ephemeral
        and bool(callback.embeds)
    )


class Table:
    """One guild's evening: a GM, two players and a goblin, through the stand-in."""

    def __init__(self, soak: Soak, guild_id: int, rng: random.Random, number: int) -> None:
        self.soak, self.guild_id, self.rng = soak, guild_id, rng
        self.standin = soak.standin
        self.players = tuple(GM + 100 * (number + 1) + k for k in PLAYERS)
        """Players of their own: one user's import in flight at a time is the bot's rule."""

    # ---- sending --------------------------------------------------------------------------
    def command(self, name: str, options: Any = None, *, by: int = GM, sub: str | None = None,
                **more: Any) -> dict[str, Any]:  # fmt: skip
        perms = {"permissions": MANAGER_PERMISSIONS} if by == GM else {}
        return self.standin.command_interaction(
            name, options or {}, subcommand=sub, user_id=by, guild_id=self.guild_id,
            require_synced=False, **perms, **more,
        )  # fmt: skip

    def press(self, custom_id: str, message_id: int, *, by: int) -> dict[str, Any]:
        perms = {"permissions": MANAGER_PERMISSIONS} if by == GM else {}
        return self.standin.component_interaction(
            custom_id, message_id, user_id=by, guild_id=self.guild_id, **perms
        )

    async def send(self, kind: str, payload: dict[str, Any]) -> Callback | None:
        return await self.soak.send(kind, payload)

    async def at_once(self, kind: str, *payloads: dict[str, Any]) -> list[Callback | None]:
        """A double click: the payloads sent together."""
        return list(await asyncio.gather(*(self.send(kind, p) for p in payloads)))

    # ---- the evening ----------------------------------------------------------------------
    async def set_up(self) -> None:
        c = self.command
        sheets = (
            (self.players[0], "Aria", {"Strength": 3, "Reaction": 2, "Constitution": 1},
             {"Swords": 5, "Parry": 2}, ("Sword", 5, "Swords")),
            (self.players[1], "Bram", {"Strength": 2, "Reaction": 1, "Constitution": 2},
             {"Brawl": 4, "Dodge": 3}, ("Cudgel", 4, "Brawl")),
            (GM, "Goblin", {"Strength": 1, "Constitution": -8}, {"Parry": 2, "Spears": 3},
             ("Spear", 7, "Spears")),
        )  # fmt: skip
        for by, name, attributes, skills, (weapon, base, skill) in sheets:
            npc = {"npc": True} if by == GM else {}
            target = {"name": name} if by == GM else {}
            await self.send("sheet", c("character", {"name": name, **npc}, by=by, sub="create"))
            for kind, stats in (("attribute", attributes), ("skill", skills)):
                for stat, value in stats.items():
                    options = {**target, kind: stat, "value": value}
                    await self.send("sheet", c("character", options, by=by, sub="set"))
            arms = {**target, "weapon": weapon, "base": base, "attribute": "Strength"}
            await self.send("sheet", c("character", {**arms, "skill": skill}, by=by, sub="weapon"))

    async def play(self) -> None:
        actions: list[tuple[float, Callable[[], Awaitable[None]]]] = [
            (30, self.check),
            (16, self.attack),
            (5, self.fight),
            (14, self.edit_sheet),
            (10, self.history),
            (4, self.import_sheet),
            (6, self.show),
            (5, self.heal),
        ]
        weights = [w for w, _ in actions]
        while not self.soak.tally.done:
            action = self.rng.choices([a for _, a in actions], weights)[0]
            await action()

    async def check(self) -> None:
        by = self.rng.choice(self.players)
        options = {"attr": self.rng.randint(-2, 5), "skill": self.rng.randint(0, 8), "vs": 13}
        cb = await self.send("check", self.command("check", options, by=by))
        again = buttons(cb, AGAIN) if cb else []
        if not again:
            return
        chance = self.rng.random()
        if chance < 0.3:
            await self.send("again", self.press(again[0], cb.message_id, by=by))
        elif chance < 0.4:  # a double click: two rolls, each answered and logged
            press = self.press(again[0], cb.message_id, by=by)
            await self.at_once("again", press, self.press(again[0], cb.message_id, by=by))

    async def attack(self) -> None:
        by, target = self.rng.sample(self.players, 2)
        weapon, name = ("Sword", "Bram") if by == self.players[0] else ("Cudgel", "Aria")
        cb = await self.send("attack", self.command("attack", {"weapon": weapon, "target": name},
                                                    by=by))  # fmt: skip
        choices = buttons(cb, DEFENCE) if cb else []
        if not choices:
            return
        if self.rng.random() < 0.2 and len(choices) > 1:  # two defences at once: one wins
            first, second = self.rng.sample(choices, 2)
            await self.at_once("defend", self.press(first, cb.message_id, by=target),
                               self.press(second, cb.message_id, by=target))  # fmt: skip
        elif self.rng.random() < 0.9:  # else it waits, as some attacks do all night
            await self.send("defend", self.press(self.rng.choice(choices), cb.message_id,
                                                 by=target))  # fmt: skip

    async def fight(self) -> None:
        c = self.command
        started = await self.send("fight", c("fight", {"name": "Ambush"}, sub="start"))
        if started is None or started.ephemeral:
            return
        for by in self.players:
            await self.send("fight", c("fight", {"initiative": self.rng.randint(1, 20)}, by=by,
                                       sub="join"))  # fmt: skip
        await self.send("fight", c("fight", {"npc": "Goblin", "count": 2, "initiative": 8},
                                   sub="add"))  # fmt: skip
        for _ in range(self.rng.randint(3, 8)):
            await self.send("fight", c("fight", sub="next"))
            by = self.rng.choice(self.players)
            weapon = "Sword" if by == self.players[0] else "Cudgel"
            goblin = f"Goblin {self.rng.randint(1, 2)}"
            await self.send("fight attack", c("attack", {"weapon": weapon, "target": goblin},
                                              by=by))  # fmt: skip
        await self.send("fight", c("fight", sub="end"))

    async def edit_sheet(self) -> None:
        by = self.rng.choice(self.players)
        skill = "Swords" if by == self.players[0] else "Brawl"
        options = {"skill": skill, "value": self.rng.randint(3, 8)}
        await self.send("sheet", self.command("character", options, by=by, sub="set"))

    async def history(self) -> None:
        await self.send("history", self.command("history", by=self.rng.choice((GM, *self.players))))

    async def show(self) -> None:
        await self.send(
            "sheet", self.command("character", by=self.rng.choice(self.players), sub="show")
        )

    async def heal(self) -> None:
        for name in ("Aria", "Bram"):
            options = {"target": name, "amount": 40}
            await self.send("health", self.command("health", options, sub="heal"))

    async def import_sheet(self) -> None:
        attachment = str(self.standin.snowflake())
        url = f"{self.soak.files_url}/cora.json"
        resolved = {"attachments": {attachment: {
            "id": attachment, "filename": "cora.json", "size": len(IMPORTED), "url": url,
            "proxy_url": url, "content_type": "application/json"}}}  # fmt: skip
        options = [
            {"name": "file", "type": OPTION_ATTACHMENT, "value": attachment},
            {"name": "replace", "type": 5, "value": True},
        ]
        payload = self.command("character", options, by=self.players[0], sub="import",
                               resolved=resolved)  # fmt: skip
        await self.send("import", payload)


class Soak:
    def __init__(self, standin: Fakecord, tally: Tally, files_url: str) -> None:
        self.standin, self.tally, self.files_url = standin, tally, files_url

    async def send(self, kind: str, payload: dict[str, Any]) -> Callback | None:
        tally = self.tally
        tally.sent += 1
        tally.kinds[kind] += 1
        try:
            callback = await self.standin.send_interaction(payload, timeout=ANSWER_TIMEOUT_S)
        except FakecordError:
            tally.unanswered += 1
            if self.standin.callback_attempts(int(payload["id"])):
                tally.late.add(int(payload["id"]))
            return None
        if BUG_MESSAGE in (callback.content or ""):
            tally.bugs.append(f"{kind}: {callback.content}")
        elif kind in ROLLS and is_roll(kind, callback):
            tally.rolled[int(payload["id"])] = kind
        if tally.bot is not None and tally.sent >= WARM_UP * (len(tally.rss_every) + 1):
            tally.rss_every.append(tally.bot.memory_info().rss)
            if tally.rss_warm is None:
                tally.rss_warm = tally.rss_every[0]
        return callback


def logged_sqlite(db: Path) -> set[int]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT interaction_id FROM roll_log WHERE interaction_id IS NOT NULL")
        return {row[0] for row in rows}
    finally:
        conn.close()


async def logged_postgres(dsn: str) -> set[int]:
    conn = await asyncpg.connect(dsn)
    try:
        rows = await conn.fetch(
            "SELECT interaction_id FROM roll_log WHERE interaction_id IS NOT NULL"
        )
        return {row[0] for row in rows}
    finally:
        await conn.close()


@dataclass
class Report:
    backend: str
    interactions: int
    errors: int
    unanswered: int
    late: int
    rolls_answered: int
    rolls_logged: int
    roll_log_equal: bool
    rss_warm_mb: float
    rss_end_mb: float
    rss_every_mb: list[float]
    seconds: float
    kinds: dict[str, int]
    problems: list[str]

    @property
    def ok(self) -> bool:
        grown = (self.rss_end_mb - self.rss_warm_mb) * 1024 * 1024
        return (
            not self.errors
            and not self.unanswered
            and self.roll_log_equal
            and grown <= RSS_GROWTH_MAX
        )

    def lines(self) -> list[str]:
        return [
            f"backend:       {self.backend}",
            f"interactions:  {self.interactions:,} ({', '.join(f'{k} {v:,}' for k, v in sorted(self.kinds.items()))})",  # noqa: E501
            f"errors:        {self.errors}",
            f"unanswered:    {self.unanswered} ({self.late} of them answered after the 3 s)",
            f"roll log:      {self.rolls_logged:,} rows for {self.rolls_answered:,} rolls answered"
            f" ({'equal' if self.roll_log_equal else 'NOT EQUAL'})",
            f"RSS at {WARM_UP:,}:  {self.rss_warm_mb:.1f} MB",
            f"RSS at end:    {self.rss_end_mb:.1f} MB "
            f"({self.rss_end_mb - self.rss_warm_mb:+.1f} MB)",
            "RSS every 2,000: " + ", ".join(f"{mb:.1f}" for mb in self.rss_every_mb) + " MB",
            f"time:          {self.seconds:.0f} s ({self.interactions / self.seconds:.0f}/s)",
            *(f"problem:       {p}" for p in self.problems[:10]),
        ]


async def soak(
    database: str | Path,
    count: int,
    tables: int,
    work: Path,
    seed: int = 2512,
    log: Path | None = None,
) -> Report:
    """Run bot.py on `database` (a SQLite path or a postgresql:// URL) for `count`
    interactions over `tables` tables; what it saw."""
    guilds = many_guilds(tables)
    rng = random.Random(seed)
    runner, files_url = await serve_files({"cora.json": IMPORTED})
    standin = Fakecord(guilds=guilds)
    await standin.start()
    log = log or work / "soak-bot.log"
    proc = None
    try:
        proc = await launch(standin, WIRE_BOT, database, log)  # type: ignore[arg-type]
        await standin.wait_ready(60.0)
        await standin.wait_synced(60.0, guild_id=guilds[0].id)
        tally = Tally(target=count, bot=psutil.Process(proc.pid) if psutil else None)
        runner_soak = Soak(standin, tally, files_url)
        started = time.monotonic()
        players = [
            Table(runner_soak, g.id, random.Random(rng.random()), n) for n, g in enumerate(guilds)
        ]
        for table in players:
            await table.set_up()
        await asyncio.gather(*(table.play() for table in players))
        seconds = time.monotonic() - started
        rss_end = tally.bot.memory_info().rss if tally.bot else 0
        exit_code = await stop(proc)
    finally:
        if proc is not None:
            await stop(proc)
        await standin.stop()
        await runner.cleanup()
    output = plain_log(log.read_text(errors="replace"))
    problems = log_problems(output) + tally.bugs
    if exit_code != 0:
        problems.append(f"bot.py exited with {exit_code}")
    errors = sum(1 for line in problems if "Traceback" not in line)  # one per error, not line
    if isinstance(database, str):
        logged = await logged_postgres(database)
    else:
        logged = logged_sqlite(database)
    missing, extra = set(tally.rolled) - logged, logged - set(tally.rolled)
    late_rows = len(extra & tally.late)
    if missing or extra:
        kinds = Counter(tally.rolled[i] for i in missing)
        problems.append(
            f"roll log: {len(missing)} answered rolls missing ({dict(kinds)}), {len(extra)} "
            f"extra ({late_rows} of them rolls answered after the 3 s)"
        )
    return Report(
        backend="postgresql" if isinstance(database, str) else "sqlite",
        interactions=tally.sent,
        errors=errors,
        unanswered=tally.unanswered,
        late=len(tally.late),
        rolls_answered=len(tally.rolled),
        rolls_logged=len(logged),
        roll_log_equal=not (missing or extra),
        rss_warm_mb=(tally.rss_warm or 0) / 2**20,
        rss_end_mb=rss_end / 2**20,
        rss_every_mb=[rss / 2**20 for rss in tally.rss_every],
        seconds=seconds,
        kinds=dict(tally.kinds),
        problems=problems,
    )


async def soak_postgres(count: int, tables: int, work: Path, log: Path) -> Report:
    with throwaway_cluster() as cluster:
        dsn = await asyncio.to_thread(cluster.create_database, "wire_soak")
        await prepare_postgres(dsn)
        return await soak(dsn, count, tables, work, log=log)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__)
    parser.add_argument("--count", type=int, default=20_000, help="interactions in all")
    parser.add_argument("--tables", type=int, default=8, help="guilds playing side by side")
    parser.add_argument("--postgresql", action="store_true", help="on a throwaway PostgreSQL")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    log = OUT / f"soak-{'postgresql' if args.postgresql else 'sqlite'}.log"
    with tempfile.TemporaryDirectory(prefix="wire-soak-") as folder:
        work = Path(folder)
        if args.postgresql:
            report = asyncio.run(soak_postgres(args.count, args.tables, work, log))
        else:
            report = asyncio.run(soak(work / "wire.db", args.count, args.tables, work, log=log))
    print("\n".join(report.lines()))
    print(f"the bot's log:  {log}")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
