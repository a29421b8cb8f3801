"""Fights through the real bot.py: a whole three-round fight with a restart in the middle, and
what happens when people press and attack at the same moment.

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
    MessageEvent,
)
from .test_wirebot import assert_healthy, field, start_wire, stop_wire
from .wire_support import integrity, plain_log

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


def tracker_lines(event: MessageEvent) -> list[str]:
    """The combatants' lines of a tracker edit."""
    return event.embeds[0].get("description", "").splitlines() if event.embeds else []


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
                sub="create", public=not npc)  # fmt: skip
        target = {"name": name} if npc else {}
        for kind, table_ in (("attribute", stats), ("skill", skills)):
            for stat, value in table_.items():
                await c("character", {**target, kind: stat, "value": value}, by=by, sub="set",
                        public=False)  # fmt: skip

    await sheet(PLAYER_A, "Aria", {"Reaction": 2, "Constitution": 1, "Strength": 3},
                {"Swords": 5, "Parry": 2})  # fmt: skip
    await sheet(PLAYER_B, "Bram", {"Reaction": 1, "Constitution": 2, "Strength": 2},
                {"Brawl": 4, "Daggers": 4})  # fmt: skip
    await sheet(GM, "Goblin", {"Constitution": -8, "Strength": 1}, {"Parry": 2, "Spears": 3})

    def arms(weapon: str, base: int, skill: str, **more: str) -> dict[str, Any]:
        return {"weapon": weapon, "base": base, "attribute": "Strength", "skill": skill, **more}

    weapons = [
        (PLAYER_A, arms("Sword", 5, "Swords")),
        (PLAYER_B, arms("Cudgel", 4, "Brawl", kind="non-lethal")),
        (PLAYER_B, arms("Dagger", 3, "Daggers")),
        (GM, arms("Spear", 7, "Spears", name="Goblin")),
    ]
    for by, weapon in weapons:
        cb = await c("character", weapon, by=by, sub="weapon", public=False)
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
    assert NEXT_ID.fullmatch(table.next_button())[2] == "0"  # made for step 0
    joined = await c("fight", {"initiative": 18}, by=PLAYER_A, sub="join")
    assert joined.content == "**Aria** joins **Ambush**: initiative 20 (d20 18 + Reaction 2)."
    joined = await c("fight", {"initiative": 9}, by=PLAYER_B, sub="join")
    assert joined.content == "**Bram** joins **Ambush**: initiative 10 (d20 9 + Reaction 1)."
    added = await c("fight", {"npc": "Goblin", "count": goblins, "initiative": 4}, sub="add",
                    public=False)  # fmt: skip
    assert added.ephemeral and "at initiative 4" in added.content
    names = [f"Goblin {n}" for n in range(1, goblins + 1)] if goblins > 1 else ["Goblin"]
    await table.shows(lambda: all(table.line(n) for n in names), "the goblins")


# ---------------------------------------------------------------------------------- the fight


async def test_a_three_round_fight_with_a_restart_in_the_middle(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    db = tmp_path / "wire.db"
    bot = await start_wire(standin, launch_bot, db)
    table = Table(standin)
    c = table.command
    await set_the_table(table)
    tracker_id = table.tracker_id
    lines = table.tracker()["description"].splitlines()
    assert lines[0].startswith("Everyone in?")
    assert lines[1:] == [
        "· ` 20` **Aria** · HP 21/21",  # 20 + Constitution 1
        "· ` 10` **Bram** · HP 22/22",
        "· `  4` **Goblin 1** · unhurt",  # players see a goblin's health as a descriptor
        "· `  4` **Goblin 2** · unhurt",
        "· `  4` **Goblin 3** · unhurt",
    ]

    # ---- round 1 -----------------------------------------------------------------------
    begun = await c("fight", sub="next")
    assert begun.content == f"Round 1: **Aria** (<@{PLAYER_A}>)'s turn."
    await table.turn_of("Aria", 1)
    refused = await c("fight", by=PLAYER_B, sub="next", public=False)
    assert refused.ephemeral and "It is Aria's turn" in refused.content

    # Aria: 6 + 3 + 5 = 14 against the goblin's 10 + 1 + 2 = 13: 5 base + 0 DoS.
    hit = await c("attack", {"weapon": "Sword", "target": "Goblin 2", "roll": 6}, by=PLAYER_A)
    embed = hit.embeds[0]
    assert embed["title"] == "Aria: Attack with Sword on Goblin 2"
    assert field(embed, "Total") == "**14** vs defence 13"
    assert damage_of(embed) == 5
    assert field(embed, "Health") == "Goblin 2 is wounded."  # 7 of 12
    await table.shows(lambda: table.line("Goblin 2").endswith("· wounded"), "Goblin 2 wounded")
    assert table.line("Goblin 1").endswith("· unhurt")

    await table.press_next(by=PLAYER_A)  # Aria ends her turn with the button
    await table.followup(f"Round 1: **Bram** (<@{PLAYER_B}>)'s turn.")
    await table.turn_of("Bram", 1)

    # Bram: 17 + 2 + 4 = 23 against 13: 5 DoS, 4 + 5 = 9 non-lethal: THP 3 of 12.
    hit = await c("attack", {"weapon": "Cudgel", "target": "Goblin 2", "roll": 17}, by=PLAYER_B)
    assert damage_of(hit.embeds[0]) == 9
    assert field(hit.embeds[0], "Health") == "Goblin 2 is badly wounded."
    await table.shows(
        lambda: table.line("Goblin 2").endswith("· badly wounded"), "Goblin 2 badly wounded"
    )
    turn = await c("fight", by=PLAYER_B, sub="next")
    assert turn.content == "Round 1: **Goblin 1**'s turn."  # an NPC: nobody is pinged
    await table.turn_of("Goblin 1", 1)

    # The GM attacks Aria as Goblin 1: 15 + 1 + 3 = 19; Aria parries with the bot's d20.
    taken_by = {"Aria": await goblin_attacks(table, "Aria", PLAYER_A, "parry", 15, before=21)}
    await table.press_next()  # the GM ends Goblin 1's turn
    await table.followup("Round 1: **Goblin 2**'s turn.")
    await c("fight", sub="next")
    await table.turn_of("Goblin 3", 1)
    new_round = await c("fight", sub="next")
    assert new_round.content == f"Round 2 begins: **Aria** (<@{PLAYER_A}>)'s turn."
    await table.turn_of("Aria", 2)
    assert_healthy(standin, bot)

    # ---- a restart, in the middle of round 2 ---------------------------------------------
    old_button = table.next_button()
    await stop_wire(bot)
    again = await start_wire(standin, launch_bot, db, expect_sync=False)
    assert "Commands unchanged since the last sync; not syncing." in plain_log(again.output())

    # ---- round 2 -----------------------------------------------------------------------
    pressed = await table.press(old_button, tracker_id, by=PLAYER_A)  # made before the restart
    assert pressed.type == CALLBACK_UPDATE_MESSAGE and pressed.message_id == tracker_id
    await table.followup(f"Round 2: **Bram** (<@{PLAYER_B}>)'s turn.")
    await table.turn_of("Bram", 2)
    # That button again, now that the tracker carries the next one: a note, nothing moves.
    stale = await table.press(old_button, tracker_id, by=GM)
    assert stale.ephemeral and "Nothing was done" in stale.content
    assert table.line("Bram").startswith("▶")

    # Bram: 20 + 6 = 26 against 13: 5 DoS, 9 more non-lethal: THP -6.
    hit = await c("attack", {"weapon": "Cudgel", "target": "Goblin 2", "roll": 20}, by=PLAYER_B)
    assert damage_of(hit.embeds[0]) == 9
    assert field(hit.embeds[0], "Health") == "Goblin 2 is down."
    await table.shows(
        lambda: table.line("Goblin 2").endswith("· down · its turns are skipped"), "Goblin 2 down"
    )
    await table.press_next(by=PLAYER_B)
    await table.turn_of("Goblin 1", 2)
    taken_by["Bram"] = await goblin_attacks(table, "Bram", PLAYER_B, "dodge", 12, before=22)
    skipping = await c("fight", sub="next")  # Goblin 2 is down: its turn is passed over
    assert skipping.content == "Round 2: **Goblin 3**'s turn.\nSkipped, being down: **Goblin 2**."
    await table.turn_of("Goblin 3", 2)
    await c("fight", sub="next")
    await table.turn_of("Aria", 3)

    # ---- round 3 -----------------------------------------------------------------------
    # Aria attacks once (the table's number); a second is refused until the GM grants her a
    # reaction, which her next attack uses up.
    for die, shown in ((20, "badly wounded"), (16, "down")):  # 10 damage each: 12 → 2 → -8
        if shown == "down":
            sword = {"weapon": "Sword", "target": "Goblin 1", "roll": die}
            refused = await c("attack", sword, by=PLAYER_A, public=False)
            assert refused.ephemeral
            assert "Aria has made this turn's attacks already (1 of 1" in refused.content
            granted = await c("fight", {"combatant": "Aria"}, sub="reaction")
            assert granted.content.startswith("**Aria** may attack once out of turn")
        hit = await c("attack", {"weapon": "Sword", "target": "Goblin 1", "roll": die},
                      by=PLAYER_A)  # fmt: skip
        assert damage_of(hit.embeds[0]) == 10
        assert field(hit.embeds[0], "Health") == f"Goblin 1 is {shown}."
        await table.shows(lambda s=shown: f"· {s}" in table.line("Goblin 1"), shown)
    await c("fight", by=PLAYER_A, sub="next")
    await table.turn_of("Bram", 3)
    await table.press_next(by=PLAYER_B)
    await table.followup(
        "Round 3: **Goblin 3**'s turn.\nSkipped, being down: **Goblin 1**, **Goblin 2**."
    )
    await table.turn_of("Goblin 3", 3)

    # ---- the end -------------------------------------------------------------------------
    refused = await c("fight", by=PLAYER_A, sub="end", public=False)
    assert refused.ephemeral and "Only a GM" in refused.content
    end = await c("fight", sub="end")
    summary = end.embeds[0]
    assert summary["title"] == "⚔️ Ambush: over after 3 rounds"
    a, b = taken_by["Aria"], taken_by["Bram"]
    assert summary["description"].splitlines() == [
        # Damage down to 0 counts, the overkill past it not: Aria's 5 + 10 + the last 2 of
        # Goblin 1's 12 HP; Bram's 9 + the last 3 of Goblin 2's 12 THP.
        f"**Aria**: dealt 17, took {a}",
        f"**Bram**: dealt 12, took {b}",
        f"**Goblin 1**: dealt {a + b}, took 12 · down",  # npc:Goblin 1 credits that copy
        "**Goblin 2**: dealt 0, took 17 · down",
        "**Goblin 3**: dealt 0, took 0",
    ]
    assert field(summary, "Down") == "Goblin 1, Goblin 2"
    await table.shows(
        lambda: table.tracker()["title"] == "⚔️ Ambush: ended after round 3", "the fight ended"
    )
    assert standin.messages[tracker_id]["components"] == []  # no Next button any more
    assert "footer" not in table.tracker()
    after_end = await c("fight", sub="next", public=False)
    assert after_end.ephemeral and "No fight is running" in after_end.content

    # One tracker message all along, edited in place: never posted again.
    assert standin.channel_messages == []
    edits = [e for e in standin.message_events if e.kind == "channel_edit"]
    assert edits and {e.message_id for e in edits} == {tracker_id}
    updates = [cb for cb in standin.callbacks if cb.type == CALLBACK_UPDATE_MESSAGE]
    titles = [e.embeds[0]["title"] for e in edits if e.embeds] + [
        cb.embeds[0]["title"] for cb in updates if cb.embeds and "⚔️" in cb.embeds[0]["title"]
    ]
    for n in (1, 2, 3):
        assert f"⚔️ Ambush: round {n}" in titles
    assert rows(db, "SELECT round, step, tracker_message_id, ended_at IS NOT NULL FROM fights") == [
        (3, 12, tracker_id, 1)  # 12 turns: 5 + 4 + 2 (the downed skipped), and the first
    ]
    assert rows(db, "SELECT name, hp_lost, thp_lost FROM combatants WHERE is_npc = 1") == [
        ("Goblin 1", 20, 0),
        ("Goblin 2", 5, 18),
        ("Goblin 3", 0, 0),
    ]
    # A player character's damage stays on its sheet, for after the fight.
    show = await c("character", {"name": "Aria"}, by=PLAYER_A, sub="show")
    assert f"HP {21 - a}/21" in field(show.embeds[0], "Health")
    await stop_wire(again)
    assert integrity(db) == "ok"
    assert_healthy(standin, bot, again)


async def goblin_attacks(
    table: Table, pc: str, user: int, defence: str, die: int, *, before: int
) -> int:
    """The GM attacks `pc` as Goblin 1 (roll `die` + Strength 1 + Spears 3); its player presses
    `defence`. Returns the damage, checked against the health line and the tracker."""
    attack = await table.command(
        "attack", {"weapon": "Spear", "npc": "Goblin 1", "target": pc, "roll": die}
    )
    waiting = attack.embeds[0]
    assert waiting["title"] == f"Goblin 1: Attack with Spear on {pc}"
    assert f"Attack total **{die + 4}**, 7 base damage" in waiting["description"]
    buttons = {
        c["custom_id"].rsplit(":", 1)[1]: c["custom_id"]
        for row in attack.components
        for c in row["components"]
    }
    assert set(buttons) == {"parry", "dodge"}
    edits_before = len([e for e in table.standin.message_events if e.kind == "channel_edit"])
    defended = await table.press(buttons[defence], attack.message_id, by=user)
    assert defended.type == CALLBACK_UPDATE_MESSAGE and defended.components == []
    embed = defended.embeds[0]
    damage = damage_of(embed)  # 7 base: at least 2 whatever the defence rolls
    assert 2 <= damage <= 12
    assert field(embed, "Health") == f"{pc}: HP {before} → {before - damage}"
    await table.shows(lambda: f"**{pc}** · HP {before - damage}/{before}" in table.line(pc),
                      f"{pc} at HP {before - damage}")  # fmt: skip
    edits = [e for e in table.standin.message_events if e.kind == "channel_edit"]
    assert len(edits) > edits_before
    return damage


# ---------------------------------------------------------------------------- at the same time


async def test_presses_and_attacks_at_the_same_moment(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    """Two Next presses of one tracker at once advance one turn; attacks on one goblin from two
    players at once lose no damage, and the tracker ends on the last figure."""
    db = tmp_path / "wire.db"
    bot = await start_wire(standin, launch_bot, db)
    table = Table(standin)
    await set_the_table(table, goblins=2, goblin_hp=200)
    # Everyone attacks at once below: the table allows any number of attacks, at any time.
    free = {"npc_health": True, "attacks_per_turn": 0, "out_of_turn": True}
    shown = await table.command("campaign", free, sub="settings", public=False)
    assert "their health as numbers" in shown.content
    assert "any number of attacks; attacks out of turn allowed" in shown.content
    await table.command("fight", sub="next")
    await table.turn_of("Aria", 1)

    def step() -> int:
        return rows(db, "SELECT step FROM fights")[0][0]

    # Each PC's turn: its player and the GM press the same Next button at once, in both orders.
    for player, name, upcoming in ((PLAYER_A, "Aria", "Bram"), (PLAYER_B, "Bram", "Goblin 1")):
        before, button = step(), table.next_button()
        assert button.endswith(f":{before}:next")
        presses = [table.press_payload(button, table.tracker_id, by=who) for who in (player, GM)]
        if player == PLAYER_B:
            presses.reverse()
        futures = [await standin.post_interaction(p) for p in presses]
        answers = await asyncio.wait_for(asyncio.gather(*futures), 2 * WAIT)
        moved = [a for a in answers if a.type == CALLBACK_UPDATE_MESSAGE]
        refused = [a for a in answers if a.type == CALLBACK_CHANNEL_MESSAGE]
        assert len(moved) == 1 and len(refused) == 1, [(a.type, a.data) for a in answers]
        assert refused[0].ephemeral and "earlier turn" in refused[0].content
        assert step() == before + 1, f"{name}'s turn: two presses moved {step() - before} turns"
        await table.turn_of(upcoming, 1)
        assert table.next_button().endswith(f":{before + 1}:next")

    # Twelve attacks on Goblin 1 in flight at once, six from each player.
    rolls = {PLAYER_A: [20, 6, 12, 17, 9, 3], PLAYER_B: [15, 8, 19, 2, 11, 14]}
    weapon = {PLAYER_A: "Sword", PLAYER_B: "Dagger"}
    payloads = [
        (
            who,
            table.payload(
                "attack",
                {"weapon": weapon[who], "target": "Goblin 1", "roll": die},
                by=who,
                sub=None,
            ),
        )
        for pair in zip(rolls[PLAYER_A], rolls[PLAYER_B], strict=True)
        for who, die in zip((PLAYER_A, PLAYER_B), pair, strict=True)
    ]
    futures = [await standin.post_interaction(p) for _, p in payloads]
    answers = await asyncio.wait_for(asyncio.gather(*futures), 3 * WAIT)
    dealt = {PLAYER_A: 0, PLAYER_B: 0}
    seen = []
    for (who, _), answer in zip(payloads, answers, strict=True):
        assert answer.type == CALLBACK_CHANNEL_MESSAGE and not answer.ephemeral, answer.data
        embed = answer.embeds[0]
        damage = damage_of(embed)
        line = HEALTH_LINE.match(field(embed, "Health"))
        assert line and line["name"] == "Goblin 1" and line["pool"] == "HP", embed
        assert int(line["a"]) - int(line["b"]) == damage
        seen.append((int(line["a"]), int(line["b"])))
        dealt[who] += damage
    total = sum(dealt.values())
    # Every blow started from where the one before it left the goblin: none was lost.
    chain = sorted(seen, reverse=True)
    assert chain[0][0] == 200
    assert all(chain[i][1] == chain[i + 1][0] for i in range(len(chain) - 1)), chain
    assert chain[-1][1] == 200 - total
    assert rows(db, "SELECT hp_max - hp_lost FROM combatants WHERE name = 'Goblin 1'") == [
        (200 - total,)
    ]
    credited = dict(rows(db, "SELECT name, dealt FROM combatants WHERE is_npc = 0"))
    assert credited == {"Aria": dealt[PLAYER_A], "Bram": dealt[PLAYER_B]}
    logged = rows(
        db, "SELECT count(*), sum(before - after) FROM health_log WHERE reason = 'attack'"
    )
    assert logged == [(12, total)]
    await table.shows(
        lambda: f"**Goblin 1** · HP {200 - total}/200" in table.line("Goblin 1"),
        f"Goblin 1 at HP {200 - total}",
    )
    await stop_wire(bot)
    assert_healthy(standin, bot)


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
    # Aria attacks in every turn below: the table allows attacks out of turn, any number.
    free = {"attacks_per_turn": 0, "out_of_turn": True}
    await table.command("campaign", free, sub="settings", public=False)
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
        pressed = await table.press_next()  # the GM moves the turn on while that edit waits
        await asyncio.wait_for(hit, WAIT)
        before, current = order[n % len(order)], order[(n + 1) % len(order)]
        # The held edit lands after the press, with the turn before it on top...
        await standin.wait_message_event(
            "channel_edit",
            predicate=lambda e, t=pressed.received_at, b=before: (
                e.at > t and any(x.startswith("▶") and f"**{b}**" in x for x in tracker_lines(e))
            ),
            timeout=WAIT,
        )
        # ...and the bot puts the latest turn back.
        want = f":{step()}:next"
        await table.shows(
            lambda w=want, c=current: (
                table.next_button().endswith(w) and table.line(c).startswith("▶")
            ),
            f"{current}'s turn with the current Next button",
        )
    assert "landed last; showing the latest again" in plain_log(bot.output())
    # The button on the tracker is the one that works.
    await table.press_next()
    await stop_wire(bot)
    assert_healthy(standin, bot)


async def test_an_attack_is_answered_while_the_tracker_edit_waits(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    """A tracker edit held back longer than Discord's 3 s to answer an interaction (a 429 with a
    long Retry-After) does not hold back the attack that caused it, on an NPC or on a player
    character's defence: the answer comes at once, the tracker follows."""
    db = tmp_path / "wire.db"
    bot = await start_wire(standin, launch_bot, db)
    table = Table(standin)
    await set_the_table(table, goblins=1)
    await table.command("fight", sub="next")
    await table.turn_of("Aria", 1)

    def is_patch(request: FaultRequest) -> bool:
        return request.method == "PATCH"

    hold = 3.5  # seconds: past the stand-in's 3 s acknowledgement deadline (answers must not
    # wait for it: 2.5 s below leaves room for a loaded machine)
    standin.inject_fault(
        429, count=1, kinds=("channel_message_edit",), predicate=is_patch, retry_after=hold
    )
    hit = await table.command("attack", {"weapon": "Sword", "target": "Goblin", "roll": 6},
                              by=PLAYER_A)  # fmt: skip
    assert hit.latency < 2.5, f"the attack waited {hit.latency:.1f} s for the tracker"
    assert field(hit.embeds[0], "Health") == "Goblin is wounded."
    await table.shows(lambda: table.line("Goblin").endswith("· wounded"), "the goblin wounded")

    standin.inject_fault(
        429, count=1, kinds=("channel_message_edit",), predicate=is_patch, retry_after=hold
    )
    attack = await table.command("attack", {"weapon": "Spear", "npc": "Goblin", "target": "Aria",
                                            "roll": 15})  # fmt: skip
    parry = next(c["custom_id"] for row in attack.components for c in row["components"]
                 if c["custom_id"].endswith(":parry"))  # fmt: skip
    defended = await table.press(parry, attack.message_id, by=PLAYER_A)
    assert defended.type == CALLBACK_UPDATE_MESSAGE
    assert defended.latency < 2.5, f"the defence waited {defended.latency:.1f} s for the tracker"
    after = HEALTH_LINE.match(field(defended.embeds[0], "Health"))
    assert after and after["name"] == "Aria"
    await table.shows(lambda: f"HP {after['b']}/21" in table.line("Aria"), "Aria's new HP")
    await stop_wire(bot)
    assert_healthy(standin, bot)
