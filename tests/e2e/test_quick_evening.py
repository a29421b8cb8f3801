"""An evening of quick play through the real bot.py (issue 23 where it meets the rest).

The GM runs a new campaign; Aria plays from an English client, Bram from a German one with a
sheet in German names. A fight against two goblin copies: turns taken with taps from the ping,
a panel from the sheet's Panel button, a roll saved with the Save form and rolled again with /r
after the sheet changed, the fight's defence odds, /say in the middle of it, the GM attacking as
``npc:Goblin 1`` picked from the offered opponents, strangers pressing others' buttons, a
restart with the buttons pressed again, the fight ended and an old ping pressed after. Each step
asserts what the person who acted sees. ``WIRE_E2E_TRANSCRIPT=path`` writes every reply to a
file, to read whole.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cogs.sheet_edit import TEXT_ID
from cogs.utils.save_button import NAME_INPUT

from .conftest import LaunchBot
from .standin import (
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    CALLBACK_MODAL,
    CALLBACK_UPDATE_MESSAGE,
    MANAGER_PERMISSIONS,
    Callback,
    Fakecord,
)
from .test_evening import Evening
from .test_fight import GM, PLAYER_A, PLAYER_B, WAIT
from .test_wirebot import assert_healthy, check_arithmetic, field, start_wire, stop_wire

pytestmark = pytest.mark.e2e

ARIA, BRAM = PLAYER_A, PLAYER_B
LOCALES = {GM: "en-US", ARIA: "en-GB", BRAM: "de"}
WHO = {GM: "GM", ARIA: "Aria", BRAM: "Bram"}
ARIA_SHEET = "Strength 3, Reaction 2, Constitution 1; Swords 5, Parry 2"
JORUN_SHEET = "Stärke 2, Reaktion 1, Konstitution 2; Äxte 4, Blocken 4"
GOBLIN_ART = "https://img.example.org/goblin.webp"


def components(data: dict[str, Any] | None) -> list[dict[str, Any]]:
    rows = (data or {}).get("components") or []
    return [c for row in rows for c in row.get("components", [row])]


def labels(data: dict[str, Any] | None) -> list[str]:
    return [c.get("label") or c.get("placeholder") or "" for c in components(data)]


def custom_id(data: dict[str, Any] | None, label: str) -> str:
    found = [c["custom_id"] for c in components(data) if c.get("label") == label]
    assert len(found) == 1, (label, labels(data))
    return found[0]


def rendered(data: dict[str, Any] | None) -> list[str]:
    """A reply as a reader meets it: text, embeds, buttons and select options."""
    data = data or {}
    lines = []
    if data.get("title"):
        lines.append(f"  [form] {data['title']}")
    if data.get("content"):
        lines += [f"  | {line}" for line in data["content"].splitlines()]
    for embed in data.get("embeds") or []:
        lines.append(f"  [embed] {embed.get('title', '')}")
        lines += [f"    {line}" for line in (embed.get("description") or "").splitlines()]
        for f in embed.get("fields") or []:
            lines.append(f"    {f['name']}: {f['value']}".replace("\n", "\n      "))
        if embed.get("footer"):
            lines.append(f"    ({embed['footer'].get('text')})")
    for c in components(data):
        if c.get("type") == 3:
            options = ", ".join(
                o["label"] + (f" ({o['description']})" if o.get("description") else "")
                for o in c["options"]
            )
            lines.append(f"  <select {c.get('placeholder', '')}: {options}>")
        elif c.get("type") == 18:
            lines.append(f"  <input {c.get('label')}: {json.dumps(c.get('component'))}>")
        else:
            lines.append(f"  <{c.get('label')}>")
    return lines


class QuickEvening(Evening):
    """The table of test_fight, each member with their own client language, every reply kept."""

    def __init__(self, standin: Fakecord) -> None:
        super().__init__(standin)
        self.transcript: list[str] = []
        self.seen_events = 0

    def payload(
        self, name: str, options: dict[str, Any] | None = None, *, by: int = GM, sub: str | None
    ) -> dict[str, Any]:
        perms = {"permissions": MANAGER_PERMISSIONS} if by == GM else {}
        self.note(by, f"/{name} {sub or ''} {options or ''}")
        return self.standin.command_interaction(
            name, options or {}, subcommand=sub, user_id=by, locale=LOCALES[by], **perms
        )

    def press_payload(self, custom_id: str, message_id: int, *, by: int = GM) -> dict[str, Any]:
        perms = {"permissions": MANAGER_PERMISSIONS} if by == GM else {}
        self.note(by, f"presses {self.label_of(custom_id, message_id)}")
        return self.standin.component_interaction(
            custom_id, message_id, user_id=by, locale=LOCALES[by], **perms
        )

    def label_of(self, custom_id: str, message_id: int) -> str:
        message = self.standin.messages.get(message_id) or {}
        for c in components(message):
            if c.get("custom_id") == custom_id:
                return repr(c.get("label"))
        return custom_id

    def note(self, by: int, what: str) -> None:
        self.flush_events()
        self.transcript.append(f"{WHO[by]} ({LOCALES[by]}): {what}")

    def flush_events(self) -> None:
        for event in self.standin.message_events[self.seen_events :]:
            if event.kind in ("followup", "channel_message", "webhook_post", "original_edit"):
                private = " (private)" if event.flags & 64 else ""
                self.transcript.append(f"  ~ {event.kind}{private}:")
                self.transcript += rendered(event.body)
        self.seen_events = len(self.standin.message_events)

    def answered(self, cb: Callback) -> Callback:
        kind = {CALLBACK_MODAL: "form", CALLBACK_UPDATE_MESSAGE: "update"}.get(cb.type, "reply")
        private = " (private)" if cb.ephemeral else ""
        self.transcript.append(f"  -> {kind}{private}")
        self.transcript += rendered(cb.data)
        return cb

    async def command(self, name: str, options: dict[str, Any] | None = None, **kw: Any):
        return self.answered(await super().command(name, options, **kw))

    async def press(self, custom_id: str, message_id: int, *, by: int = GM) -> Callback:
        return self.answered(await super().press(custom_id, message_id, by=by))

    async def ask(self, name: str, options: dict[str, Any] | None = None, **kw: Any):
        """A command whose answer may be private (a refusal, a panel)."""
        return await self.command(name, options, public=False, **kw)

    async def pick(self, message_id: int, select_id: str, value: str, *, by: int) -> Callback:
        self.note(by, f"picks {value!r}")
        payload = self.standin.component_interaction(
            select_id, message_id, component_type=3, values=[value], user_id=by,
            locale=LOCALES[by], **({"permissions": MANAGER_PERMISSIONS} if by == GM else {}),
        )  # fmt: skip
        cb = self.answered(await self.standin.send_interaction(payload, timeout=WAIT))
        if cb.type != CALLBACK_UPDATE_MESSAGE:
            return cb  # refused before the menu changed
        # A pick takes the menu's select away (its response); the attack answers after it.
        assert components(cb.data or {}) == [], cb.data
        event = await self.standin.wait_message_event(
            "followup", predicate=lambda e: e.token == cb.token, timeout=WAIT
        )
        answer = replace(cb, type=CALLBACK_CHANNEL_MESSAGE, data=event.body)
        return replace(answer, message_id=event.message_id)

    async def double_pick(
        self, message_id: int, select_id: str, value: str, by: int
    ) -> tuple[Callback, str]:
        """Two picks of one value sent at once (a double tap): the attack, and the refusal's
        text, wherever each came (a response, or a follow-up after the menu's update)."""
        self.note(by, f"picks {value!r} twice at once")
        payloads = [
            self.standin.component_interaction(
                select_id,
                message_id,
                component_type=3,
                values=[value],
                user_id=by,
                locale=LOCALES[by],
            )
            for _ in range(2)
        ]
        futures = [await self.standin.post_interaction(p) for p in payloads]
        answers = await asyncio.wait_for(asyncio.gather(*futures), 2 * WAIT)
        said: list[Callback] = []
        for cb in map(self.answered, answers):
            if cb.type != CALLBACK_UPDATE_MESSAGE:
                said.append(cb)
                continue
            event = await self.standin.wait_message_event(
                "followup", predicate=lambda e, t=cb.token: e.token == t, timeout=WAIT
            )
            answer = replace(cb, type=CALLBACK_CHANNEL_MESSAGE, data=event.body)
            said.append(replace(answer, message_id=event.message_id))
        [hit] = [cb for cb in said if (cb.data or {}).get("embeds")]
        [refused] = [cb for cb in said if not (cb.data or {}).get("embeds")]
        assert refused.ephemeral, refused.data
        return hit, refused.content or ""

    async def submit(self, form: Callback, values: str | dict[str, Any], *, by: int) -> Callback:
        """Submit a form the bot showed: a text (the Save form's name) or every input's value."""
        values = {NAME_INPUT: values} if isinstance(values, str) else values
        self.note(by, f"submits the form with {values!r}")
        payload = self.standin.modal_submit_interaction(
            form.data["custom_id"], values, user_id=by, locale=LOCALES[by],
            channel_id=int(self.standin.messages[self.tracker_id]["channel_id"]),
        )  # fmt: skip
        return self.answered(await self.standin.send_interaction(payload, timeout=WAIT))

    async def said(self, cb: Callback) -> str:
        """/say's answer: deferred, then a private follow-up."""
        if cb.type != CALLBACK_DEFERRED_CHANNEL_MESSAGE:
            return cb.content or ""
        event = await self.standin.wait_message_event(
            "followup", predicate=lambda e: e.token == cb.token, timeout=WAIT
        )
        return event.content or ""

    def write(self) -> None:
        self.flush_events()
        if path := os.environ.get("WIRE_E2E_TRANSCRIPT"):
            Path(path).write_text("\n".join(self.transcript) + "\n", encoding="utf-8")


async def test_a_quick_evening_in_two_languages(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    db = tmp_path / "wire.db"

    async def scene(table: QuickEvening, bot: Any) -> Any:
        return await evening(table, standin, launch_bot, bot, db)

    await play(standin, launch_bot, db, scene)


async def play(
    standin: Fakecord,
    launch_bot: LaunchBot,
    db: Path,
    scene: Callable[[QuickEvening, Any], Awaitable[Any]],
) -> None:
    """bot.py started on `db`, `scene` played at a QuickEvening table (it returns the bot it
    ends with, after any restart), the transcript written even when it fails, the bot stopped
    with nothing wrong in its log or the stand-in's checks."""
    bot = await start_wire(standin, launch_bot, db)
    table = QuickEvening(standin)
    try:
        bot = await scene(table, bot)
    finally:
        table.write()
    assert_healthy(standin, bot)
    await stop_wire(bot)


def said_as(table: QuickEvening) -> list[tuple[str, str]]:
    """The in-character posts so far: (the name they show, their text)."""
    return [
        (e.body.get("username", ""), e.content or "")
        for e in table.standin.message_events
        if e.kind == "webhook_post"
    ]


async def speak(table: QuickEvening, name: str, options: dict[str, Any], *, by: int) -> str:
    """/say or /me: the private answer after the post."""
    payload = table.payload(name, options, by=by, sub=None)
    cb = await table.standin.send_interaction(payload, timeout=WAIT)
    answer = await table.said(cb)
    table.transcript.append(f"  -> {answer}")
    return answer


def damage(embed: dict[str, Any]) -> int:
    """The damage an attack's result names (0 for a miss)."""
    found = re.search(r"= (\d+) (?:damage|Schaden)$", embed.get("description", ""), re.M)
    return int(found[1]) if found else 0


def maybe_field(embed: dict[str, Any], name: str) -> str:
    return next((f["value"] for f in embed.get("fields", []) if f["name"] == name), "")


async def evening(table: QuickEvening, standin: Fakecord, launch_bot: LaunchBot, bot, db: Path):
    c, ask = table.command, table.ask

    # ---- the campaign and its sheets ---------------------------------------------------------
    made = await c("campaign", {"name": "Moorland"}, sub="create")
    assert made.content.startswith("Created **Moorland** with you as its GM")
    await c("character", {"name": "Aria", "sheet": ARIA_SHEET}, by=ARIA, sub="create")
    made = await c("character", {"name": "Jorun", "sheet": JORUN_SHEET, "shield": True}, by=BRAM,
                   sub="create")  # fmt: skip
    assert made.content.startswith("**Jorun** in Moorland erstellt."), made.content
    assert field(made.data["embeds"][0], "Attribute") == (
        "Konstitution **2**, Reaktion **1**, Stärke **2**"
    )
    await ask("character", {"name": "Goblin", "npc": True, "sheet": "Strength 1, Constitution -8; "
              "Parry 2, Spears 3"}, sub="create")  # fmt: skip
    for by, weapon in (
        (ARIA, {"weapon": "Sword", "base": 5, "attribute": "Strength", "skill": "Swords"}),
        (BRAM, {"weapon": "Axt", "base": 5, "attribute": "Stärke", "skill": "Äxte"}),
        (GM, {"weapon": "Spear", "base": 7, "attribute": "Strength", "skill": "Spears",
              "name": "Goblin"}),
    ):  # fmt: skip
        await ask("character", weapon, by=by, sub="weapon")
    await ask("character", {"url": GOBLIN_ART, "name": "Goblin"}, sub="portrait")

    # ---- the fight: Aria's turn with taps from the ping ----------------------------------------
    started = await c("fight", {"name": "Ambush"}, sub="start")
    table.tracker_id = started.message_id
    await c("fight", {"initiative": 18}, by=ARIA, sub="join")  # 20
    joined = await c("fight", {"initiative": 15}, by=BRAM, sub="join")  # 16
    assert joined.content == "**Jorun** tritt **Ambush** bei: Initiative 16 (d20 15 + Reaktion 1)."
    await ask("fight", {"npc": "Goblin", "count": 2, "initiative": 4}, sub="add")
    ping = await c("fight", sub="next")
    assert ping.content == f"Round 1: **Aria** (<@{ARIA}>)'s turn."
    assert labels(ping.data) == ["⚔️ Sword", "End turn"]
    sword = custom_id(ping.data, "⚔️ Sword")
    stranger = await table.press(sword, ping.message_id, by=BRAM)
    assert stranger.ephemeral and stranger.content == (
        "Das sind die Schnellaktionen von Aria: nur wer Aria spielt, kann sie nutzen. /aktionen "
        "zeigt deine eigenen."
    )
    asked = await table.press(sword, ping.message_id, by=ARIA)
    assert asked.ephemeral and asked.content == "Whom does **Aria** attack with **Sword**?"
    [select] = components(asked.data)
    assert [o["label"] for o in select["options"]] == [
        "Goblin 1",
        "Goblin 2",
        "Jorun",
    ]  # foes first
    # A double tap on the target: one attack, the other refused (the store's compare-and-set).
    hit, refusal = await table.double_pick(asked.message_id, select["custom_id"], "Goblin 1", ARIA)
    assert refusal.startswith("That menu was used already: it acts once"), refusal
    assert components(standin.messages[asked.message_id]) == []  # the menu lost its select
    embed = hit.data["embeds"][0]
    assert not hit.ephemeral and embed["title"] == "Aria: Attack with Sword on Goblin 1"
    check_arithmetic(embed)
    assert field(embed, "Goblin 1: Parry") == "**13**"  # takes 10: 10 + 1 + 2
    aria_dealt = damage(embed)
    assert labels(hit.data) == []  # no free second attack from Roll again

    # a roll saved with the Save form, markdown in its name kept inert
    check = await c("check", {"attr_name": "Strength", "skill_name": "Swords", "vs": 10}, by=ARIA)
    assert labels(check.data) == ["Roll again", "Save"]
    stranger = await table.press(custom_id(check.data, "Save"), check.message_id, by=BRAM)
    assert stranger.content == f"Nur <@{ARIA}> kann diesen Wurf speichern; speichere deine eigenen."
    form = await table.press(custom_id(check.data, "Save"), check.message_id, by=ARIA)
    assert form.data["title"] == "Save a roll of Aria"
    saved = await table.submit(form, "swing *hard*", by=ARIA)
    assert saved.ephemeral and saved.content.startswith("Saved for Aria as **swing \\*hard\\***.")

    # ---- Jorun's turn, in German: the ping, the sheet's Panel button, the odds ---------------
    bram_ping = await table.press(custom_id(ping.data, "End turn"), ping.message_id, by=ARIA)
    assert bram_ping.content == f"Round 1: **Jorun** (<@{BRAM}>)'s turn."  # the table's language
    out_of_turn = await ask("attack", {"weapon": "Sword", "target": "Goblin 2"}, by=ARIA)
    assert out_of_turn.ephemeral and out_of_turn.content.startswith(
        "It is Jorun's turn, not Aria's: Aria attacks on their own turn."
    )
    axe = custom_id(bram_ping.data, "⚔️ Axt")
    asked = await table.press(axe, bram_ping.message_id, by=BRAM)
    assert asked.content == "Wen greift **Jorun** mit **Axt** an?"
    [select] = components(asked.data)
    assert select["placeholder"] == "Ziel wählen"
    hit = await table.pick(asked.message_id, select["custom_id"], "Goblin 2", by=BRAM)
    embed = hit.data["embeds"][0]
    assert embed["title"] == "Jorun: Angriff mit Axt auf Goblin 2"
    assert field(embed, "Modifikatoren") == "Stärke +2, Äxte +4"
    jorun_dealt = damage(embed)

    sheet = await c("character", by=BRAM, sub="show")
    assert labels(sheet.data) == ["Bearbeiten", "Aktionen"]
    stranger = await table.press(custom_id(sheet.data, "Aktionen"), sheet.message_id, by=ARIA)
    assert stranger.content == (
        "These are Jorun's quick actions: only its player can use them. /panel shows your own."
    )
    panel = await table.press(custom_id(sheet.data, "Aktionen"), sheet.message_id, by=BRAM)
    assert panel.ephemeral and panel.content.startswith("**Jorun**: Schnellaktionen, nur für dich.")
    assert labels(panel.data) == ["⚔️ Axt", "Bogen", "Abwehrchancen"]
    odds = await table.press(custom_id(panel.data, "Abwehrchancen"), panel.message_id, by=BRAM)
    # Against Aria's sword, d20 +8, both rolling; Jorun parries +2 (Stärke 2, no Parieren),
    # blocks +6, dodges +1 (Reaktion 1): the defender needs the higher total.
    assert odds.content.splitlines()[1:] == [
        "• **Aria**: d20 +8 mit Sword",
        "Parieren (d20 +2): 22,8\u00a0% gegen **Aria**",
        "Blocken (d20 +6): 38,2\u00a0% gegen **Aria**",
        "Ausweichen (d20 +1): 19,5\u00a0% gegen **Aria**",
        "Nicht gezeigt: **Goblin 1**, **Goblin 2**, deren Bögen nur für Chronisten sind.",
        # what the sheet lacks counts 0, and the odds say so as a roll does (issue 31)
        "Parieren steht nicht auf dem Bogen von Jorun und zählt deshalb 0.",
        "Ausweichen steht nicht auf dem Bogen von Jorun und zählt deshalb 0.",
        "Füge einen Wert mit /charakter setzen hinzu (eine Fertigkeit auf 0 ist ungeübt).",
    ]
    aria_panel = await ask("panel", by=ARIA)
    assert labels(aria_panel.data) == ["⚔️ Sword", "🎲 swing *hard*", "Sheet", "Defence odds"]
    odds = await table.press(
        custom_id(aria_panel.data, "Defence odds"), aria_panel.message_id, by=ARIA
    )
    assert odds.content.splitlines()[1:] == [
        "• **Jorun**: d20 +6 with Axt",
        "Parry (d20 +5): 42.8% against **Jorun**",
        "Dodge (d20 +2): 30% against **Jorun**",
        "Not shown: **Goblin 1**, **Goblin 2**, whose sheets are for the GMs' eyes.",
        "Dodge is not on Aria's sheet, so it counts 0.",
        "Add a stat with /character set (a skill at 0 is untrained).",
    ]
    gm_panel = await ask("panel", {"npc": "Goblin 1"})
    assert gm_panel.content.startswith("**Goblin 1**: quick actions, for you alone.")
    odds = await table.press(custom_id(gm_panel.data, "Defence odds"), gm_panel.message_id)
    assert odds.content.startswith("**Goblin 1**: the odds of each defence")
    assert "Goblin 1 takes 10 to defend, as this table's NPCs do." in odds.content
    assert "Parry (d20 +3): 20% against **Aria**; 30% against **Jorun**" in odds.content
    refused = await ask("panel", {"npc": "Goblin 1"}, by=BRAM)
    assert refused.ephemeral and refused.content.startswith("Nur ein Chronist von Moorland")

    # in character in the middle of the fight: markdown and mentions are the speaker's own
    assert await speak(table, "say", {"text": "Für den **König**! @everyone"}, by=BRAM) == (
        "Als **Jorun** gesagt."
    )
    assert await speak(table, "me", {"text": "ducks behind the cart"}, by=ARIA) == (
        "Done as **Aria**."
    )
    assert await speak(table, "say", {"text": "Grr!", "as": "Goblin 1"}, by=GM) == (
        "Said as **Goblin 1**."
    )
    assert said_as(table) == [
        ("Jorun", "Für den **König**! @everyone"),
        ("Aria", "*Aria ducks behind the cart*"),
        ("Goblin 1", "Grr!"),
    ]
    posts = [e.body for e in standin.message_events if e.kind == "webhook_post"]
    assert all(p["allowed_mentions"] == {"parse": []} for p in posts)
    assert posts[-1].get("avatar_url") == GOBLIN_ART

    # ---- Goblin 1's turn: the GM attacks as Goblin 1, picked from the offered opponents ----------
    turn = await table.press(custom_id(bram_ping.data, "End turn"), bram_ping.message_id, by=BRAM)
    assert turn.content == "Round 1: **Goblin 1**'s turn." and labels(turn.data) == []
    out_of_turn = await ask("attack", {"weapon": "Axt", "target": "Goblin 2"}, by=BRAM)
    assert out_of_turn.ephemeral and out_of_turn.content.startswith(
        "Goblin 1 ist am Zug, nicht Jorun: Jorun greift im eigenen Zug an."
    )
    offered = await ask("attack", {"npc": "Goblin 1", "weapon": "Spear"})
    assert offered.content == "Whom does **Goblin 1** attack with **Spear**?"
    [select] = components(offered.data)
    assert [o["label"] for o in select["options"]] == ["Aria", "Jorun", "Goblin 2"]
    events = len(standin.message_events)
    attack = await table.pick(offered.message_id, select["custom_id"], "Jorun", by=GM)
    embed = attack.data["embeds"][0]
    assert attack.content == f"<@{BRAM}>"
    assert embed["title"] == "Goblin 1: Attack with Spear on Jorun"
    assert [f["name"] for f in embed["fields"]] == ["Total"]  # the NPC's die and bonus: GM only
    assert labels(attack.data) == ["Parry", "Block", "Dodge"]
    whole = await table.event("followup", events, lambda e: bool(e.flags & 64))
    assert whole.content == "The whole roll, for you only:"
    assert field(whole.embeds[0], "Modifiers") == "Strength +1, Spears +3"
    block = custom_id(attack.data, "Block")
    stranger = await table.press(block, attack.message_id, by=ARIA)
    assert stranger.content == "Only Jorun's player or a GM can change Jorun or act for them."

    # Bram edits Jorun's sheet with its form: the sheet keeps its buttons, the tracker follows
    form = await table.press(custom_id(sheet.data, "Bearbeiten"), sheet.message_id, by=BRAM)
    assert form.data["title"] == "Jorun bearbeiten"
    edited = JORUN_SHEET.replace("Stärke 2", "Stärke 3").replace("Konstitution 2", "Konstitution 4")
    done = await table.submit(form, {TEXT_ID: edited}, by=BRAM)
    assert done.type == CALLBACK_UPDATE_MESSAGE, (done.type, done.data)
    assert done.data["embeds"][0]["title"] == "Jorun (aktiv)"
    assert labels(done.data) == ["Bearbeiten", "Aktionen"]
    await table.shows(lambda: table.line("Jorun").endswith("· HP 24/24"), "Jorun's new HP")

    # Aria's sheet changes; her saved roll reads it as it is now
    await ask("character", {"attribute": "Strength", "value": 5}, by=ARIA, sub="set")
    again = await c("r", {"name": "swing *hard*"}, by=ARIA)
    assert field(again.data["embeds"][0], "Modifiers") == "Strength +5, Swords +5"
    listed = await ask("save", by=ARIA)
    assert listed.content == "Saved rolls of Aria:\n• **swing \\*hard\\***"

    # ---- a restart in the middle of the fight: every button answers from the sheet as it is now --
    await stop_wire(bot)
    bot = await start_wire(standin, launch_bot, db, expect_sync=False)
    reopened = await table.press(custom_id(sheet.data, "Aktionen"), sheet.message_id, by=BRAM)
    assert reopened.content.startswith("**Jorun**: Schnellaktionen, nur für dich.")
    shown = await table.press(custom_id(aria_panel.data, "Sheet"), aria_panel.message_id, by=ARIA)
    assert "Strength **5**" in field(shown.data["embeds"][0], "Attributes")
    swing = custom_id(aria_panel.data, "🎲 swing *hard*")
    rolled = await table.press(swing, aria_panel.message_id, by=ARIA)
    assert field(rolled.data["embeds"][0], "Modifiers") == "Strength +5, Swords +5"
    stranger = await table.press(swing, aria_panel.message_id, by=BRAM)
    assert "nur wer Aria spielt" in stranger.content
    late = await table.press(sword, ping.message_id, by=ARIA)
    assert late.ephemeral and late.content.startswith("That turn has moved on")
    blocked = await table.press(block, attack.message_id, by=BRAM)
    assert blocked.type == CALLBACK_UPDATE_MESSAGE
    embed = blocked.data["embeds"][0]
    side = field(embed, "Jorun: Block")
    assert re.fullmatch(r"d20 \d+ \+ 3 Stärke \+ 4 Blocken = \d+", side), side  # as edited
    goblin_dealt = damage(embed)
    if goblin_dealt:
        assert field(embed, "Health") == f"Jorun: HP 24 → {24 - goblin_dealt}"
    await c("fight", sub="next")
    await c("fight", sub="next")  # round 2: Aria

    # ---- the end: the summary credits Goblin 1, old buttons are refused ---------------------
    summary = (await c("fight", sub="end")).data["embeds"][0]["description"].splitlines()
    assert summary[:4] == [
        f"**Aria**: dealt {aria_dealt}, took 0",
        f"**Jorun**: dealt {jorun_dealt}, took {goblin_dealt}",
        f"**Goblin 1**: dealt {goblin_dealt}, took {aria_dealt}",
        f"**Goblin 2**: dealt 0, took {jorun_dealt}",
    ]
    over = await table.press(sword, ping.message_id, by=ARIA)
    assert over.content == "That fight is over, so this action is gone. /panel shows yours."
    over = await table.press(axe, bram_ping.message_id, by=BRAM)
    assert over.content == (
        "Dieser Kampf ist vorbei, die Aktion also hinfällig. /aktionen zeigt deine."
    )
    odds = await table.press(
        custom_id(aria_panel.data, "Defence odds"), aria_panel.message_id, by=ARIA
    )
    assert odds.content.splitlines()[1] == (
        "Parry (d20 +7): 85% against 10, 60% against 15, 35% against 20"
    )
    history = (await ask("history", by=BRAM)).data["embeds"][0]
    assert history["title"] == "Letzte Würfe in Moorland"
    lines = history["description"].splitlines()
    assert any("**Goblin 1** Angriff auf Jorun: Summe" in line for line in lines), lines
    assert any("**Jorun** Angriff: " in line and f"{jorun_dealt} Schaden" in line
               for line in lines), lines  # fmt: skip
    assert not any("**Goblin** " in line for line in lines), lines
    help_ = (await ask("help", by=BRAM)).data["embeds"][0]
    quick = next(f["value"] for f in help_["fields"] if f["name"] == "Schnelles Spiel")
    assert quick.startswith("`/aktionen` `/speichern` `/w` · ")
    return bot
