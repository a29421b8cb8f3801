"""The bot under a simulated Discord (simcord), on a real SQLite file in a temporary folder.

Dice are scripted: `dice.push(15, 10)` makes the next rolls 15 then 10, so every test can assert
exact totals, degrees and damage; unscripted rolls come from a seeded generator. See
tests/SIMCORD.md for what simcord does and does not check.
"""

from __future__ import annotations

import logging
import random
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import simcord
from simcord import interactions as sc_interactions
from simcord.enums import InteractionType

from bot import WireBot
from cogs.utils.config import Config
from cogs.utils.tree import describe_error
from tests.commands.locales import ClientLanguages
from tests.discord_rules import autocomplete_problems

SEED = 20261130


class ScriptedDice(random.Random):
    """A d20 whose next faces a test can script; otherwise a seeded generator."""

    def __init__(self) -> None:
        super().__init__(SEED)
        self.script: deque[int] = deque()

    def push(self, *faces: int) -> None:
        self.script.extend(faces)

    def randint(self, a: int, b: int) -> int:
        if self.script:
            face = self.script.popleft()
            assert a <= face <= b, f"scripted face {face} outside {a}..{b}"
            return face
        return super().randint(a, b)


@pytest.fixture
def dice() -> ScriptedDice:
    return ScriptedDice()


@pytest.fixture
def client_languages(monkeypatch: pytest.MonkeyPatch) -> ClientLanguages:
    """Set a simulated user's Discord language: `client_languages.set(world.bob, "de")`."""
    return ClientLanguages(monkeypatch)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "wire.db"


def make_bot(db_path: Path, dice: random.Random | None = None) -> WireBot:
    """A bot as `python bot.py` builds it, on the given database and dice."""
    bot = WireBot(Config(token="simcord", database=db_path), rng=dice, background_tasks=False)
    # simcord has no rate limits: a tracker edit follows each change without the gap (the
    # pace itself is tested in tests/commands/test_tracker_pace.py and tests/e2e/test_fight.py).
    bot.tracker_pace.gap = 0.0
    return bot


def bugs_among(errors: list[BaseException]) -> list[BaseException]:
    """Errors the bot raised that are bugs, not a user's bad input answered ephemerally."""
    return [e for e in errors if describe_error(e)[1]]


@dataclass
class World:
    """A server with a channel and three members: Alice owns the server (so she is a GM of
    every campaign); Bob and Carol are players without server rights."""

    env: Any
    guild: Any
    channel: Any
    alice: Any
    bob: Any
    carol: Any
    dice: ScriptedDice
    db_path: Path

    @property
    def bot(self) -> WireBot:
        return self.env.bot

    async def restart(self) -> WireBot:
        """A new bot process over the same database and the same simulated Discord."""
        old = self.env.bot
        bot = make_bot(self.db_path, self.dice)
        await self.env.restart_bot(bot)
        await old.store.close()
        return bot


@pytest.fixture
async def world(
    dice: ScriptedDice, db_path: Path, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[World]:
    """The simulated Discord with our bot; at the end, no bug may have been raised or logged.

    simcord fails a test on any exception the bot raised; ours raise UserError for bad input on
    purpose (the tree answers it), so the check here keeps only the real bugs, by the bot's own
    classification, and also catches errors the bot logged (a button callback's, for one).
    """
    env = simcord.Env(make_bot(db_path, dice), check_errors=False)
    await env.start()
    try:
        yield await _populate(env, dice, db_path)
    finally:
        await env.shutdown()
        await env.bot.store.close()
    assert bugs_among(env.errors) == []
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert logged == [], [r.getMessage() for r in logged]


async def _populate(env: Any, dice: ScriptedDice, db_path: Path) -> World:
    owner = env.create_user("alice")
    guild = env.create_guild("Table", owner=owner)
    channel = guild.create_text_channel("game")
    alice = guild.add_member(owner)
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    world = World(env, guild, channel, alice, bob, carol, dice, db_path)
    # Alice owns the server, so she is a GM of every campaign in it.
    await alice.slash(channel, "campaign info")
    return world


async def raw_slash(actor: Any, channel: Any, path: str, **raw: Any) -> Any:
    """Invoke a synced command with option values sent as they are, unchecked.

    Discord's client enforces min/max, but discord.py does not check what arrives, so the bot
    must; this reaches the bot the way a modified client or a stale registration would.
    """
    name, *subpath = path.split()
    root = actor._env.backend.find_command(name, actor.guild.id)
    leaf, nesting = sc_interactions.walk_to_subcommand(root, subpath)
    types = {o["name"]: o["type"] for o in leaf.get("options") or []}
    leaf_options = [{"name": k, "type": types.get(k, 4), "value": v} for k, v in raw.items()]
    data = {
        "id": root["id"],
        "name": root["name"],
        "type": 1,
        "options": sc_interactions.nest_options(root, nesting, leaf_options),
    }
    return await actor._dispatch_interaction(InteractionType.APPLICATION_COMMAND, channel, data)


def embed_of(result: Any) -> dict[str, Any]:
    """The first embed of a reply, as Discord's JSON: of its response, or (a pick from a target
    menu, whose response takes the menu's select away) of its first follow-up with one."""
    shown = [result.response, *result.followups]
    return next(m for m in shown if m.embeds).embeds[0].to_dict()


def field(embed: dict[str, Any], name: str) -> str:
    return next(f["value"] for f in embed.get("fields", []) if f["name"] == name)


async def offered(
    user: Any, channel: Any, command: str, option: str, typed: str = "", **options: Any
) -> list[tuple[str, str]]:
    """What an autocomplete offers `user` as (shown, value) pairs, once its answer keeps to
    Discord's limits; `options` are the command's options already filled in."""
    found = await user.autocomplete(channel, command, option, typed, **options)
    assert autocomplete_problems(found) == []
    return [(c["name"], c["value"]) for c in found]
