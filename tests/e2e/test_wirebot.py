"""End-to-end tests of the real WIRE bot (``bot.py``, unchanged) against the Discord stand-in.

Each test launches ``bot.py`` through ``launcher.py`` on a fresh SQLite database in tmp_path and
talks to it only as Discord would: gateway events in, REST calls out.  Dice come from the OS, so
exact numbers use ``roll:`` (a die rolled at the table); otherwise the arithmetic shown is checked.

Sizes: the load test sends 10,000 interactions and the bad-input test 2,000 payloads
(``WIRE_E2E_FULL=1``: 5,000); ``WIRE_E2E_LOAD`` / ``WIRE_E2E_FUZZ`` set them directly.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.discord_rules import command_problems

from .conftest import BotProcess, LaunchBot
from .standin import (
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_UPDATE_MESSAGE,
    DEFAULT_USER_ID,
    Callback,
    Fakecord,
)
from .wire_support import (
    REPO_ROOT,
    WIRE_BOT,
    integrity,
    log_problems,
    many_guilds,
    plain_log,
    roll_log_ids,
    run_bounded,
)

pytestmark = pytest.mark.e2e

FULL = os.environ.get("WIRE_E2E_FULL") == "1"
LOAD_COUNT = int(os.environ.get("WIRE_E2E_LOAD", 10_000))
FUZZ_COUNT = int(os.environ.get("WIRE_E2E_FUZZ", 5_000 if FULL else 2_000))
LOAD_GUILDS = 50
LOAD_USERS = 200
LOAD_IN_FLIGHT = 100

PLAYER_A = DEFAULT_USER_ID + 1
PLAYER_B = DEFAULT_USER_ID + 2
EXPECTED_COMMANDS = {
    "attack",
    "campaign",
    "character",
    "check",
    "condition",
    "contest",
    "counter",
    "cp",
    "craft",
    "defend",
    "fight",
    "gear",
    "health",
    "help",
    "history",
    "stats",
    "odds",
    "panel",
    "privacy",
    "purse",
    "r",
    "roll",
    "save",
    "session",
    "say",
    "me",
    "Edit post",  # message context menus
    "Delete post",
    "Who wrote this",
}


@pytest.fixture
async def standin(request: pytest.FixtureRequest) -> Any:
    """As conftest's, but ``@pytest.mark.parametrize("standin", [guilds], indirect=True)``
    announces other guilds (the first stays the dev guild)."""
    guilds = getattr(request, "param", None)
    fake = Fakecord(guilds=guilds) if guilds else Fakecord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


async def start_wire(
    standin: Fakecord,
    launch_bot: LaunchBot,
    db: Path,
    *,
    expect_sync: bool = True,
    timeout: float = 30.0,
) -> BotProcess:
    """Launch bot.py on ``db`` and wait for its READY (and, on a fresh database, its sync)."""
    handshakes = len(standin.handshakes)
    syncs = len(standin.synced_commands)
    bot = await launch_bot(
        WIRE_BOT, env={"WIRE_DATABASE": str(db), "PYTHONPATH": str(REPO_ROOT)}, name="wirebot"
    )
    if expect_sync:
        guild = standin.guilds[0].id
        await bot.until(standin.wait_synced(timeout, guild_id=guild, after=syncs), timeout)
    await bot.until(standin.wait_ready(timeout, after=handshakes), timeout)
    return bot


async def stop_wire(bot: BotProcess) -> None:
    """SIGTERM: exit 0 after closing the database."""
    assert await bot.terminate(timeout=20.0) == 0, bot.output()[-3000:]
    assert "Database closed." in plain_log(bot.output())


def assert_healthy(standin: Fakecord, *bots: BotProcess) -> None:
    assert standin.unknown_routes == []
    assert standin.validation_errors == []
    for bot in bots:
        assert log_problems(bot.output()) == []


def field(embed: dict[str, Any], name: str) -> str:
    for f in embed.get("fields", []):
        if f["name"] == name:
            return f["value"]
    raise AssertionError(f"no field {name!r} in {embed}")


def check_arithmetic(embed: dict[str, Any]) -> int:
    """Total shown == die shown + the modifiers shown; returns the total."""
    die = int(re.match(r"\d+", field(embed, "Die")).group())
    mods = sum(int(m) for m in re.findall(r"[+-]\d+", field(embed, "Modifiers")))
    total = int(re.search(r"\*\*(-?\d+)\*\*", field(embed, "Total")).group(1))
    assert total == die + mods, embed
    return total


async def check(standin: Fakecord, *, roll: int = 15, timeout: float = 5.0, **kw: Any) -> Callback:
    """/check attr:3 skill:5 vs:13 roll:<roll> -> the total is 8 + roll."""
    payload = standin.command_interaction(
        "check", {"attr": 3, "skill": 5, "vs": 13, "roll": roll}, **kw
    )
    cb = await standin.send_interaction(payload, timeout=timeout)
    assert cb.type == CALLBACK_CHANNEL_MESSAGE
    assert field(cb.embeds[0], "Total").startswith(f"**{8 + roll}** vs TN 13")
    return cb


def check_payload(standin: Fakecord, **kw: Any) -> dict[str, Any]:
    return standin.command_interaction("check", {"attr": 3, "skill": 5, "vs": 13}, **kw)


# ------------------------------------------------------------------------------ happy path


async def test_happy_path_commands_defence_buttons_and_restart(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    db = tmp_path / "wire.db"
    bot = await start_wire(standin, launch_bot, db)
    assert standin.handshakes[-1].kind == "identify"
    sync = standin.synced_commands[-1]
    assert (sync.scope, sync.guild_id) == ("guild", standin.guilds[0].id)
    assert command_problems(sync.payload) == []
    assert {c["name"] for c in sync.payload} == EXPECTED_COMMANDS
    assert f"Synced {len(EXPECTED_COMMANDS)} commands" in plain_log(bot.output())
    send = standin.send_interaction
    ci = standin.command_interaction

    # /check with the die given: 15 + 3 + 5 = 23 vs 13 -> 5 DoS.
    cb = await check(standin, roll=15)
    embed = cb.embeds[0]
    assert field(embed, "Die").startswith("15")
    assert "Success: 5 DoS" in embed["description"]
    assert check_arithmetic(embed) == 23
    logged = [cb.interaction_id]

    # /check with the OS's die: only the arithmetic can be checked.
    cb = await send(ci("check", {"attr": 2, "skill": 4, "vs": 15, "mod": -1}))
    assert 1 + 5 <= check_arithmetic(cb.embeds[0]) <= 20 + 5
    logged.append(cb.interaction_id)

    # /attack, the rules' example.
    cb = await send(ci("attack", {"str": 3, "skill": 5, "base": 5, "vs": 13, "roll": 15}))
    embed = cb.embeds[0]
    assert field(embed, "Total") == "**23** vs defence 13"
    assert "5 DoS" in embed["description"]
    assert "5 base + 5 DoS = 10 damage" in embed["description"]
    logged.append(cb.interaction_id)

    # /defend: 16 + 1 + 2 = 19 vs 13 -> 3 DoS for the defender, 5 - 3 = 2 damage.
    cb = await send(ci("defend", {"str": 1, "skill": 2, "base": 5, "vs": 13, "roll": 16}))
    embed = cb.embeds[0]
    assert field(embed, "Total") == "**19** vs attack 13"
    assert "5 base - 3 DoS = 2 damage" in embed["description"]
    logged.append(cb.interaction_id)

    # Characters: A with a weapon, B without.
    def char(sub: str, opts: dict[str, Any], user: int) -> dict[str, Any]:
        return ci("character", opts, subcommand=sub, user_id=user)

    cb = await send(char("create", {"name": "Aria"}, PLAYER_A))
    assert "Created **Aria**" in cb.content and cb.embeds[0]["title"] == "Aria"
    cb = await send(char("set", {"attribute": "Strength", "value": 3}, PLAYER_A))
    assert cb.ephemeral and cb.content == "Updated Aria: Strength 3."
    cb = await send(char("set", {"skill": "Swords", "value": 5}, PLAYER_A))
    assert cb.ephemeral and cb.content == "Updated Aria: Swords 5."
    weapon = {"weapon": "Sword", "base": 5, "attribute": "Strength", "skill": "Swords"}
    cb = await send(char("weapon", weapon, PLAYER_A))
    assert "wields **Sword** (base 5" in cb.content
    cb = await send(char("create", {"name": "Bram"}, PLAYER_B))
    assert "Created **Bram**" in cb.content

    # /help is ephemeral and lists the families.
    cb = await send(ci("help"))
    assert cb.ephemeral
    assert {"Rolls", "Characters"} <= {f["name"] for f in cb.embeds[0]["fields"]}

    # The defence buttons: A attacks B with the weapon from the sheet.
    async def attack_bram() -> Callback:
        cb = await send(ci("attack", {"weapon": "Sword", "target": "Bram"}, user_id=PLAYER_A))
        assert cb.type == CALLBACK_CHANNEL_MESSAGE
        assert "Bram, choose a defence!" in cb.embeds[0]["description"]
        assert field(cb.embeds[0], "Modifiers") == "Strength +3, Swords +5"
        check_arithmetic(cb.embeds[0])
        return cb

    def buttons(cb: Callback) -> dict[str, str]:
        ids = [c["custom_id"] for row in cb.components for c in row["components"]]
        assert ids and all(re.fullmatch(r"wire:def:\d+:(parry|block|dodge)", i) for i in ids)
        return {i.rsplit(":", 1)[1]: i for i in ids}

    def assert_outcome(update: Callback, attack: Callback) -> None:
        assert update.type == CALLBACK_UPDATE_MESSAGE
        assert update.message_id == attack.message_id
        embed = update.embeds[0]
        assert update.components == []
        text = embed["description"]
        base = 5
        hit = re.search(r"(\d+) base \+ (\d+) DoS = (\d+) damage", text)
        if hit:  # a hit: base + the attacker's DoS
            assert int(hit.group(1)) == base
            assert int(hit.group(1)) + int(hit.group(2)) == int(hit.group(3))
        else:  # defended: base - the defender's DoS, never below 0
            miss = re.search(r"(\d+) base - (\d+) DoS = (\d+) damage", text)
            assert miss, text
            assert int(miss.group(3)) == max(0, base - int(miss.group(2)))
        assert any(f["name"].startswith("Bram: ") for f in embed["fields"])

    attack = await attack_bram()
    choice = buttons(attack)
    assert "parry" in choice and "dodge" in choice
    wrong = await send(standin.component_interaction(choice["parry"], attack.message_id,
                                                     user_id=PLAYER_A))  # fmt: skip
    assert wrong.type == CALLBACK_CHANNEL_MESSAGE and wrong.ephemeral
    assert "Only Bram's player" in wrong.content
    right = await send(standin.component_interaction(choice["parry"], attack.message_id,
                                                     user_id=PLAYER_B))  # fmt: skip
    assert_outcome(right, attack)
    assert field(right.embeds[0], "Bram: Parry")

    # A second attack whose buttons stay unpressed across the restart.
    unpressed = await attack_bram()

    cb = await send(ci("history"))
    history = cb.embeds[0]["description"]
    assert "check: 23 vs 13, 5 DoS" in history
    assert "attack: 23 vs 13, 5 DoS, 10 damage" in history
    assert "defend: 19 vs 13, 3 DoS, 2 damage" in history
    assert "**Bram** defend:" in history
    assert_healthy(standin, bot)

    # Restart on the same database: no new sync, the sheet and the buttons survive.
    await stop_wire(bot)
    syncs = len(standin.synced_commands)
    again = await start_wire(standin, launch_bot, db, expect_sync=False)
    assert "Commands unchanged since the last sync; not syncing." in plain_log(again.output())
    await asyncio.sleep(0.3)
    assert len(standin.synced_commands) == syncs

    cb = await send(ci("character", {}, subcommand="show", user_id=PLAYER_A))
    assert cb.embeds[0]["title"] == "Aria (active)"
    assert field(cb.embeds[0], "Weapons") == "**Sword**: base 5, Strength + Swords"
    update = await send(
        standin.component_interaction(
            buttons(unpressed)["dodge"], unpressed.message_id, user_id=PLAYER_B
        )
    )
    assert_outcome(update, unpressed)
    assert field(update.embeds[0], "Bram: Dodge")
    await stop_wire(again)
    assert set(logged) <= set(roll_log_ids(db))
    assert integrity(db) == "ok"
    assert_healthy(standin, bot, again)


# ------------------------------------------------------------------------------ faults

GATEWAY_FAULTS = {
    "close-1006": (lambda s: s.close_gateway(1006), "resume"),
    "close-4000": (lambda s: s.close_gateway(4000), "resume"),
    "reconnect": (lambda s: s.send_reconnect(), "resume"),
    "invalid-session-resumable": (lambda s: s.send_invalid_session(resumable=True), "resume"),
    "invalid-session": (lambda s: s.send_invalid_session(resumable=False), "identify"),
}


async def test_gateway_faults_then_the_next_roll_is_answered(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    """One bot through every gateway fault in turn (INVALID_SESSION(false) costs discord.py's
    5 s identify delay)."""
    bot = await start_wire(standin, launch_bot, tmp_path / "wire.db")
    await check(standin)
    for name, (cause, kind) in GATEWAY_FAULTS.items():
        before = len(standin.handshakes)
        await cause(standin)
        again = await bot.until(standin.wait_ready(15.0, after=before), 16.0)
        assert again.kind == kind, name
        await check(standin, roll=(len(name) % 20) + 1)
    assert bot.returncode is None
    assert_healthy(standin, bot)


@pytest.mark.parametrize(
    ("status", "statuses"), [(429, [429, 200]), (500, [500, 200])], ids=["429", "500"]
)
async def test_callback_fault_is_retried_and_the_roll_logged_once(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path, status: int, statuses: list[int]
) -> None:
    db = tmp_path / "wire.db"
    bot = await start_wire(standin, launch_bot, db)
    fault = standin.inject_fault(status, count=1, retry_after=0.4)
    cb = await check(standin, roll=12)
    assert fault.hits == 1
    assert [r.status for r in standin.callback_attempts(cb.interaction_id)] == statuses
    after = await check(standin, roll=3)  # and the bot carries on
    await stop_wire(bot)
    ids = Counter(roll_log_ids(db))
    assert ids[cb.interaction_id] == 1
    assert ids[after.interaction_id] == 1
    assert_healthy(standin, bot)


async def test_sigkill_during_a_burst_loses_no_answered_roll(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    db = tmp_path / "wire.db"
    bot = await start_wire(standin, launch_bot, db)
    users = [DEFAULT_USER_ID + 100 + n for n in range(20)]
    futures = []
    for n in range(200):
        payload = check_payload(standin, user_id=users[n % len(users)])
        futures.append(await standin.post_interaction(payload))
    await standin.wait_for(
        lambda: sum(f.done() for f in futures) >= 50, timeout=15.0, what="50 callbacks"
    )
    bot.proc.kill()  # SIGKILL, this process only
    await bot.wait(10.0)
    assert bot.returncode == -9
    answered = {f.result().interaction_id for f in futures if f.done()}
    assert 50 <= len(answered) <= 200

    again = await start_wire(standin, launch_bot, db, expect_sync=False)
    await check(standin)
    await stop_wire(again)
    assert integrity(db) == "ok"
    logged = set(roll_log_ids(db))
    assert answered <= logged, sorted(answered - logged)[:10]
    assert log_problems(again.output()) == []


# ------------------------------------------------------------------------------ load


@pytest.mark.parametrize("standin", [many_guilds(LOAD_GUILDS)], indirect=True)
async def test_load_many_users_in_many_guilds(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    db = tmp_path / "wire.db"
    bot = await start_wire(standin, launch_bot, db)
    guilds = [g.id for g in standin.guilds]
    assert len(guilds) == LOAD_GUILDS
    await standin.wait_for(
        lambda: f"in {LOAD_GUILDS} guilds." in plain_log(bot.output()),
        timeout=10.0,
        what="READY with every guild",
    )
    rng = random.Random(1130)
    users = [(DEFAULT_USER_ID + 1000 + n, guilds[n % LOAD_GUILDS]) for n in range(LOAD_USERS)]

    def payloads():
        for _ in range(LOAD_COUNT):
            user, guild = rng.choice(users)
            # Commands are synced to the dev guild only; elsewhere the tree's global copy answers.
            yield check_payload(standin, user_id=user, guild_id=guild, require_synced=False)

    started = time.perf_counter()
    answered, missing = await run_bounded(
        standin, payloads(), in_flight=LOAD_IN_FLIGHT, timeout=15.0
    )
    elapsed = time.perf_counter() - started
    print(f"\nload: {LOAD_COUNT} interactions in {elapsed:.1f} s ({LOAD_COUNT / elapsed:.0f}/s)")
    assert missing == []
    assert len(answered) == LOAD_COUNT
    for _, cb in answered:
        assert cb.type == CALLBACK_CHANNEL_MESSAGE and cb.embeds, cb.data
    await stop_wire(bot)
    ids = roll_log_ids(db)
    assert len(ids) == LOAD_COUNT
    assert set(ids) == {int(p["id"]) for p, _ in answered}
    assert_healthy(standin, bot)


# ------------------------------------------------------------------------------ bad input

EXTREME_INTS = [2**53, -(2**53), 2**53 - 1, -(2**53) + 1, 0, -1, 1, 2**31, -(2**31), 10**15]
WEIRD_STRINGS = [
    "",
    " ",
    "x" * 6000,
    "é" * 3000,
    "🗡️" * 1500,
    "\u202e\u0000\ufeff",
    "Robert'); DROP TABLE characters;--",
    "<@1300000000000000200> @everyone",
    "NaN",
    "1e309",
    "\n\t\r",
    "Z\u0351\u0352\u0357\u0358" * 200,
]
BOGUS_CUSTOM_IDS = [
    "wire:def:999999999:parry",
    "wire:def:0:dodge",
    "wire:def:1:explode",
    "wire:def:-1:block",
    "wire:def:99999999999999999999999999999:parry",
    "wire:def::parry",
    "wire:",
    "x" * 100,
    "barebot:again",
    "",
]


def value_for(rng: random.Random, kind: int, option: dict[str, Any]) -> tuple[int, Any]:
    """A value for an option: usually of its own type (often extreme), sometimes not."""
    roll = rng.random()
    if roll < 0.15:  # a stale registration: another declared type, with a value of that type
        wrong = rng.choice([3, 4, 5])
        value = {3: rng.choice(WEIRD_STRINGS), 4: rng.choice(EXTREME_INTS), 5: True}[wrong]
        return wrong, value
    if option.get("choices") and rng.random() < 0.5:
        return kind, rng.choice(option["choices"])["value"]
    if kind == 4:
        if rng.random() < 0.5:
            return kind, rng.choice(EXTREME_INTS)
        lo, hi = option.get("min_value", -30), option.get("max_value", 30)
        return kind, rng.randint(int(lo) - 2, int(hi) + 2)
    if kind == 10:
        return kind, rng.choice([1e308, -1e308, 0.5, float(2**53)])
    if kind == 5:
        return kind, rng.random() < 0.5
    if kind == 3:
        if rng.random() < 0.5:
            return kind, rng.choice(WEIRD_STRINGS)
        return kind, rng.choice(["Aria", "Bram", "Strength", "Swords", "Sword", "Default", "x"])
    # user, channel, role, mentionable, attachment: ids without the resolved data Discord sends
    return kind, str(rng.choice([DEFAULT_USER_ID, 1, 2**63 - 1]))


def leaves(commands: list[dict[str, Any]]) -> list[tuple[str, str | None, str | None, list]]:
    """(command, group, subcommand, options) for every invocable command in a sync payload."""
    out = []
    for cmd in commands:
        if cmd.get("type", 1) != 1:
            continue  # a message context menu: `bad_payloads` aims it at a message
        opts = cmd.get("options") or []
        subs = [o for o in opts if o["type"] in (1, 2)]
        if not subs:
            out.append((cmd["name"], None, None, opts))
        for sub in subs:
            if sub["type"] == 1:
                out.append((cmd["name"], None, sub["name"], sub.get("options") or []))
            else:
                for leaf in sub.get("options") or []:
                    out.append((cmd["name"], sub["name"], leaf["name"], leaf.get("options") or []))
    return out


def bad_payloads(standin: Fakecord, count: int, seed: int, message: dict[str, Any]):
    """Seeded bad input: extreme, missing, mistyped, unknown options; unknown commands; bogus
    custom_ids.  Yields (description, payload)."""
    rng = random.Random(seed)
    targets = leaves(standin.synced_commands[-1].payload)
    users = [DEFAULT_USER_ID, PLAYER_A, PLAYER_B, DEFAULT_USER_ID + 77]
    for n in range(count):
        user = rng.choice(users)
        kind = rng.random()
        if kind < 0.04:
            name = rng.choice(["roll", "gm", "oldcheck", "x" * 32, "check2"])
            yield (
                f"unknown /{name}",
                standin.command_interaction(name, {"a": 1}, user_id=user, require_synced=False),
            )
            continue
        if kind < 0.08:
            custom_id = rng.choice(BOGUS_CUSTOM_IDS)
            yield (
                f"custom_id {custom_id[:40]!r}",
                standin.component_interaction(custom_id, message, user_id=user),
            )
            continue
        if kind < 0.11:
            menu = rng.choice(["Edit post", "Delete post", "Who wrote this"])
            yield (
                f"{menu} on a message that is no post",
                standin.message_command_interaction(menu, message, user_id=user),
            )
            continue
        name, group, sub, schema = rng.choice(targets)
        options = []
        for option in schema:
            if option["type"] not in (3, 4, 5, 10):
                # user/channel/role/attachment options come with `resolved` data from Discord;
                # without it discord.py hands the bot a bare Object: not input Discord sends.
                continue
            required = option.get("required", False)
            if required and rng.random() < 0.1:
                continue  # a missing required option
            if not required and rng.random() < 0.5:
                continue
            otype, value = value_for(rng, option["type"], option)
            options.append({"name": option["name"], "type": otype, "value": value})
        if rng.random() < 0.1:
            options.append({"name": rng.choice(["bogus", "Vs", "str "]), "type": 4, "value": 1})
        if rng.random() < 0.05 and options:
            options.append(dict(options[0]))  # the same option twice
        rng.shuffle(options)
        payload = standin.command_interaction(
            name, options, subcommand=sub, group=group, user_id=user
        )
        yield f"#{n} /{name} {group or ''} {sub or ''} {options!r:.300}", payload


async def test_bad_input_is_always_answered_without_errors(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    bot = await start_wire(standin, launch_bot, tmp_path / "wire.db")
    ci = standin.command_interaction
    # Something to aim at: two characters, one with a weapon; a message with a view.
    await standin.send_interaction(ci("character", {"name": "Aria"}, subcommand="create",
                                      user_id=PLAYER_A))  # fmt: skip
    await standin.send_interaction(ci("character", {"name": "Bram"}, subcommand="create",
                                      user_id=PLAYER_B))  # fmt: skip
    first = await check(standin)
    message = standin.messages[first.message_id]

    described: dict[str, str] = {}
    payloads = []
    for what, payload in bad_payloads(standin, FUZZ_COUNT, seed=20261130, message=message):
        described[payload["id"]] = what
        payloads.append(payload)
    started = time.perf_counter()
    _answered, missing = await run_bounded(standin, payloads, in_flight=20, timeout=8.0)
    elapsed = time.perf_counter() - started
    print(f"\nbad input: {len(payloads)} payloads in {elapsed:.1f} s")
    problems = log_problems(bot.output())
    unanswered = [described[p["id"]] for p in missing]
    short = [u[:160] for u in unanswered]
    assert short == [], f"{len(unanswered)} unanswered, e.g. {short[:12]}"
    assert problems == [], "\n".join(p[:300] for p in problems[:40])
    await check(standin)
    assert bot.returncode is None
    assert standin.unknown_routes == []
    assert standin.validation_errors == []
