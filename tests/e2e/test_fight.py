"""Fights through the real bot.py.

The dice are fixed with ``roll:`` and NPCs defend by taking 10, so every attack on a goblin has
a known result; a player character's defence is the bot's own d20, so those checks go by the
numbers the bot shows (the damage in the embed is what the health line and the tracker show).

The tracker is one message the bot keeps editing: through ``PATCH /channels/.../messages/...``
after a command, through the interaction's UPDATE_MESSAGE when its Next turn button is pressed.
A PATCH goes out after the command's answer, so the tests wait for the tracker to show a change
rather than reading it at once.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from .conftest import LaunchBot
from .standin import (
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_UPDATE_MESSAGE,
    DEFAULT_USER_ID,
    MANAGER_PERMISSIONS,
    Callback,
    Fakecord,
    FaultRequest,
)
from .test_wirebot import assert_healthy, start_wire, stop_wire
from .wire_support import plain_log

pytestmark = pytest.mark.e2e

GM = DEFAULT_USER_ID  # Manage Server: a GM of every campaign
PLAYER_A = DEFAULT_USER_ID + 1  # Aria
PLAYER_B = DEFAULT_USER_ID + 2  # Bram
WAIT = 5.0
NEXT_ID = re.compile(r"wire:fight:(\d+):(\d+):next")
DAMAGE = re.compile(r"= (\d+) damage")
HEALTH_LINE = re.compile(r"^(?P<name>.+): (?P<pool>HP|THP|WP) (?P<a>-?\d+) → (?P<b>-?\d+)")


def rows(db: Path, sql: str, params: tuple = ()) -> list[tuple]:
    """Read the bot's database through a read-only connection."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return list(conn.execute(sql, params))
    finally:
        conn.close()


def damage_of(embed: dict[str, Any]) -> int:
    found = DAMAGE.search(embed["description"])
    assert found, embed
    return int(found[1])


class Table:
    """The GM and two players at one table, talking to the bot through the stand-in."""

    def __init__(self, standin: Fakecord) -> None:
        self.standin = standin
        self.tracker_id = 0

    def payload(
        self, name: str, options: dict[str, Any] | None = None, *, by: int = GM, sub: str | None
    ) -> dict[str, Any]:
        perms = {"permissions": MANAGER_PERMISSIONS} if by == GM else {}
        return self.standin.command_interaction(
            name, options or {}, subcommand=sub, user_id=by, **perms
        )

    async def command(
        self,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        by: int = GM,
        sub: str | None = None,
        public: bool = True,
    ) -> Callback:
        """Send a command; fail with its answer unless it is a public message (or, with
        ``public=False``, any message)."""
        cb = await self.standin.send_interaction(
            self.payload(name, options, by=by, sub=sub), timeout=WAIT
        )
        assert cb.type == CALLBACK_CHANNEL_MESSAGE, (cb.type, cb.data)
        if public:
            assert not cb.ephemeral, f"/{name} {sub or ''} {options}: {cb.content}"
        return cb

    def press_payload(self, custom_id: str, message_id: int, *, by: int = GM) -> dict[str, Any]:
        perms = {"permissions": MANAGER_PERMISSIONS} if by == GM else {}
        return self.standin.component_interaction(custom_id, message_id, user_id=by, **perms)

    async def press(self, custom_id: str, message_id: int, *, by: int = GM) -> Callback:
        return await self.standin.send_interaction(
            self.press_payload(custom_id, message_id, by=by), timeout=WAIT
        )

    # ---- the tracker ---------------------------------------------------------------------------
    def tracker(self) -> dict[str, Any]:
        """The tracker's embed as the channel shows it now."""
        message = self.standin.messages[self.tracker_id]
        assert message["embeds"], message
        return message["embeds"][0]

    def line(self, name: str) -> str:
        """The tracker's line for one combatant ("" while it has none)."""
        lines = self.tracker().get("description", "").splitlines()
        return next((line for line in lines if f"**{name}**" in line), "")

    def next_button(self) -> str:
        components = self.standin.messages[self.tracker_id]["components"]
        ids = [c["custom_id"] for row in components for c in row["components"]]
        assert len(ids) == 1 and NEXT_ID.fullmatch(ids[0]), ids
        return ids[0]

    async def press_next(self, *, by: int = GM) -> Callback:
        """Press the tracker's Next turn button: the tracker is the message answered."""
        cb = await self.press(self.next_button(), self.tracker_id, by=by)
        assert cb.type == CALLBACK_UPDATE_MESSAGE, (cb.type, cb.data)
        assert cb.message_id == self.tracker_id
        return cb

    async def shows(self, check: Callable[[], bool], what: str) -> None:
        """Wait until the tracker shows something (its PATCH lands after the answer)."""

        def ok() -> bool:
            try:
                return check()
            except (KeyError, AssertionError):
                return False

        try:
            await self.standin.wait_for(ok, WAIT, what)
        except AssertionError:
            raise AssertionError(f"the tracker never showed {what}:\n{self.tracker()}") from None

    async def turn_of(self, name: str, round_number: int) -> None:
        await self.shows(
            lambda: (
                self.line(name).startswith("▶")
                and self.tracker()["title"] == f"⚔️ Ambush: round {round_number}"
            ),
            f"round {round_number}, {name}'s turn",
        )

    async def followup(self, content: str) -> None:
        await self.standin.wait_message_event(
            "followup", predicate=lambda e: e.content == content, timeout=WAIT
        )


async def make_characters(table: Table, *, goblin_hp: int | None = None) -> None:
    """Aria (A) with a sword, Bram (B) with a non-lethal cudgel and a dagger, the Goblin NPC."""
    c = table.command

    async def sheet(by: int, name: str, stats: dict[str, int], skills: dict[str, int]) -> None:
        npc = by == GM
        await c("character", {"name": name, "npc": True} if npc else {"name": name}, by=by,
                sub="create")  # fmt: skip
        target = {"name": name} if npc else {}
        for kind, table_ in (("attribute", stats), ("skill", skills)):
            for stat, value in table_.items():
                await c("character", {**target, kind: stat, "value": value}, by=by, sub="set",
                        public=not npc)  # fmt: skip

    await sheet(PLAYER_A, "Aria", {"Reaction": 2, "Constitution": 1, "Strength": 3},
                {"Swords": 5, "Parry": 2})  # fmt: skip
    await sheet(PLAYER_B, "Bram", {"Reaction": 1, "Constitution": 2, "Strength": 2},
                {"Brawl": 4, "Daggers": 4})  # fmt: skip
    await sheet(GM, "Goblin", {"Constitution": -8, "Strength": 1}, {"Parry": 2, "Spears": 3})
    weapons = [
        (PLAYER_A, {"weapon": "Sword", "base": 5, "attribute": "Strength", "skill": "Swords"}),
        (
            PLAYER_B,
            {
                "weapon": "Cudgel",
                "base": 4,
                "attribute": "Strength",
                "skill": "Brawl",
                "kind": "non-lethal",
            },
        ),
        (PLAYER_B, {"weapon": "Dagger", "base": 3, "attribute": "Strength", "skill": "Daggers"}),
        (
            GM,
            {
                "name": "Goblin",
                "weapon": "Spear",
                "base": 7,
                "attribute": "Strength",
                "skill": "Spears",
            },
        ),
    ]
    for by, weapon in weapons:
        cb = await c("character", weapon, by=by, sub="weapon", public=by != GM)
        assert f"wields **{weapon['weapon']}**" in cb.content
    if goblin_hp is not None:
        cb = await c("character", {"name": "Goblin", "hp": goblin_hp}, sub="health", public=False)
        assert f"HP {goblin_hp}/{goblin_hp}" in cb.content


async def set_the_table(table: Table, *, goblins: int = 3, goblin_hp: int | None = None) -> None:
    """Characters made; the fight started, joined, the goblins added: Aria 20, Bram 10, the
    goblins 4 each (in the order they were added)."""
    c = table.command
    await make_characters(table, goblin_hp=goblin_hp)
    started = await c("fight", {"name": "Ambush"}, sub="start")
    table.tracker_id = started.message_id
    assert started.embeds[0]["title"] == "⚔️ Ambush: round 1"
    assert table.next_button() == f"wire:fight:{NEXT_ID.fullmatch(table.next_button())[1]}:0:next"
    joined = await c("fight", {"initiative": 18}, by=PLAYER_A, sub="join")
    assert joined.content == "**Aria** joins **Ambush**: initiative 20 (d20 18 + Reaction 2)."
    joined = await c("fight", {"initiative": 9}, by=PLAYER_B, sub="join")
    assert joined.content == "**Bram** joins **Ambush**: initiative 10 (d20 9 + Reaction 1)."
    added = await c("fight", {"npc": "Goblin", "count": goblins, "initiative": 4}, sub="add",
                    public=False)  # fmt: skip
    assert added.ephemeral and "at initiative 4" in added.content
    names = [f"Goblin {n}" for n in range(1, goblins + 1)]
    await table.shows(lambda: all(table.line(n) for n in names), "the goblins")


async def test_a_tracker_edit_held_back_does_not_leave_an_older_turn_on_top(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    """An attack's tracker edit is held back (a 429, as Discord's limit on message edits does)
    while the GM presses Next: the held edit lands last, with the turn before. The bot shows the
    latest state again, so the tracker ends on the current turn with a Next button that works."""
    db = tmp_path / "wire.db"
    bot = await start_wire(standin, launch_bot, db)
    table = Table(standin)
    await set_the_table(table, goblins=2, goblin_hp=200)
    await table.command("fight", sub="next")
    await table.turn_of("Aria", 1)
    order = ["Aria", "Bram", "Goblin 1", "Goblin 2"]

    def step() -> int:
        return rows(db, "SELECT step FROM fights")[0][0]

    def is_patch(request: FaultRequest) -> bool:
        return request.method == "PATCH"

    for n in range(4):
        fault = standin.inject_fault(
            429, count=1, kinds=("channel_message_edit",), predicate=is_patch, retry_after=0.5
        )
        attack = table.payload("attack", {"weapon": "Sword", "target": "Goblin 2", "roll": 20},
                               by=PLAYER_A, sub=None)  # fmt: skip
        hit = await standin.post_interaction(attack)
        await standin.wait_for(lambda f=fault: f.hits == 1, WAIT, "the attack's held edit")
        await table.press_next()  # the GM moves the turn on while that edit waits
        await asyncio.wait_for(hit, WAIT)
        current = order[(n + 1) % len(order)]
        want = f":{step()}:next"
        await table.shows(
            lambda w=want, c=current: (
                table.next_button().endswith(w) and table.line(c).startswith("▶")
            ),
            f"{current}'s turn with the current Next button",
        )
        assert f"HP {200 - 10 * (n + 1)}/200" not in table.line("Goblin 2")  # numbers hidden
    assert "landed last; showing the latest again" in plain_log(bot.output())
    # The button on the tracker is the one that works.
    await table.press_next()
    await stop_wire(bot)
    assert_healthy(standin, bot)
