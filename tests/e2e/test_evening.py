"""A whole evening at one table through the real bot.py (issue 20): the seams between features.

The GM owns the server; Aria plays in English, Bram with a German Discord client. Sheets in
both languages, the example campaign imported into a campaign that already has Aria's Jaime, a
fight against three goblins with double presses on its buttons, checks, a hidden NPC roll, a
contest, crafting, /roll, /odds and /history; each step asserts what the person who acted (and
the table) sees where two features meet. Bounded: some sixty interactions, a few seconds.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import LaunchBot
from .standin import (
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    CALLBACK_UPDATE_MESSAGE,
    MANAGER_PERMISSIONS,
    Fakecord,
    MessageEvent,
)
from .test_fight import GM, PLAYER_A, PLAYER_B, WAIT, Table
from .test_import_stall import OPTION_ATTACHMENT, serve_files
from .test_wirebot import assert_healthy, field, start_wire, stop_wire

pytestmark = pytest.mark.e2e

ARIA, BRAM = PLAYER_A, PLAYER_B
LOCALES = {GM: "en-US", ARIA: "en-GB", BRAM: "de"}
EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "example-campaign.json"
GERMAN_SHEET = "Stärke 2, Reaktion 3, Konstitution 2; Äxte 4, Blocken 4"


def labels(components: list[dict[str, Any]]) -> list[str]:
    return [c.get("label", "") for row in components for c in row.get("components", [])]


def button(components: list[dict[str, Any]], *names: str) -> str:
    """The custom id of the button labelled with one of `names`."""
    for row in components:
        for c in row.get("components", []):
            if c.get("label") in names:
                return c["custom_id"]
    raise AssertionError(f"no button {names} in {labels(components)}")


class Evening(Table):
    """The table of test_fight, each member with their own client language."""

    def payload(
        self, name: str, options: dict[str, Any] | None = None, *, by: int = GM, sub: str | None
    ) -> dict[str, Any]:
        perms = {"permissions": MANAGER_PERMISSIONS} if by == GM else {}
        return self.standin.command_interaction(
            name, options or {}, subcommand=sub, user_id=by, locale=LOCALES[by], **perms
        )

    def press_payload(self, custom_id: str, message_id: int, *, by: int = GM) -> dict[str, Any]:
        perms = {"permissions": MANAGER_PERMISSIONS} if by == GM else {}
        return self.standin.component_interaction(
            custom_id, message_id, user_id=by, locale=LOCALES[by], **perms
        )

    async def private(self, name: str, options: dict[str, Any] | None = None, **kw: Any):
        cb = await self.command(name, options, public=False, **kw)
        assert cb.ephemeral, cb.content
        return cb

    async def event(self, kind: str, after: int, predicate: Any) -> MessageEvent:
        """The first message event of `kind` past the first `after` events that matches."""

        def found() -> MessageEvent | None:
            events = self.standin.message_events[after:]
            return next((e for e in events if e.kind == kind and predicate(e)), None)

        return await self.standin.wait_for(found, WAIT, f"a {kind}")

    async def import_file(self, url: str, *, replace: bool = False) -> MessageEvent:
        """The GM's /character import of the example campaign: its deferred answer's text."""
        attachment = str(self.standin.snowflake())
        options: list[dict[str, Any]] = [
            {"name": "file", "type": OPTION_ATTACHMENT, "value": attachment}
        ]
        if replace:
            options.append({"name": "replace", "type": 5, "value": True})
        payload = self.standin.command_interaction(
            "character",
            options,
            subcommand="import",
            user_id=GM,
            permissions=MANAGER_PERMISSIONS,
            resolved={
                "attachments": {
                    attachment: {
                        "id": attachment,
                        "filename": "example-campaign.json",
                        "size": EXAMPLE.stat().st_size,
                        "url": url,
                        "proxy_url": url,
                        "content_type": "application/json",
                    }
                }
            },
        )
        after = len(self.standin.message_events)
        cb = await self.standin.send_interaction(payload, timeout=WAIT)
        assert cb.type == CALLBACK_DEFERRED_CHANNEL_MESSAGE and cb.ephemeral, cb.data
        return await self.event("followup", after, lambda e: e.token == payload["token"])


async def double_press(table: Evening, custom_id: str, message_id: int, *who: int) -> list:
    futures = [
        await table.standin.post_interaction(table.press_payload(custom_id, message_id, by=w))
        for w in who
    ]
    return list(await asyncio.wait_for(asyncio.gather(*futures), 2 * WAIT))


async def test_an_evening_in_two_languages(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    bot = await start_wire(standin, launch_bot, tmp_path / "wire.db")
    cdn, base = await serve_files({"example-campaign.json": EXAMPLE.read_bytes()})
    try:
        await evening(Evening(standin), f"{base}/example-campaign.json")
    finally:
        await cdn.cleanup()
    assert_healthy(standin, bot)
    await stop_wire(bot)


async def evening(table: Evening, url: str) -> None:
    c, standin = table.command, table.standin

    # ---- sheets: Aria's Jaime in English, Bram's Jorun in German ---------------------------
    await c("character", {"name": "Jaime", "sheet": "Strength 3, Reaction 2; Long swords 5, "
            "Parry 3", "notes": "Aria's own Jaime"}, by=ARIA, sub="create")  # fmt: skip
    made = await c("character", {"name": "Jorun", "sheet": GERMAN_SHEET, "shield": True},
                   by=BRAM, sub="create")  # fmt: skip
    assert made.content.startswith("**Jorun** in Default erstellt."), made.content
    sheet = made.embeds[0]
    assert "LP 22/22" in field(sheet, "Gesundheit"), sheet  # 20 + Konstitution 2

    # ---- the import: the rest comes in, Aria's Jaime stays until the GM confirms ---------------
    first = await table.import_file(url)
    assert "Imported 2 characters into Default: Goblin, Goblin guard." in first.content
    assert f"Left out, already in the campaign and kept as they are: **Jaime** (<@{ARIA}>)" in (
        first.content
    )
    asked = await table.import_file(url, replace=True)
    assert f"replace other players' sheets: **Jaime** (<@{ARIA}>)" in asked.content
    events = len(standin.message_events)
    # The GM double-clicks Replace: one import, one notice to Aria.
    answers = await double_press(
        table, button(asked.body["components"], "Replace"), asked.message_id, GM, GM
    )
    [done] = [a for a in answers if a.type == CALLBACK_UPDATE_MESSAGE]
    [again] = [a for a in answers if a.type == CALLBACK_CHANNEL_MESSAGE]
    assert again.ephemeral and "answered already" in again.content, again.content
    assert f"Replaced: **Jaime** (<@{ARIA}>), **Goblin**, **Goblin guard**." in done.content
    told = await table.event(
        "channel_message", events, lambda e: "replaced these sheets" in (e.content or "")
    )
    assert told.content.startswith(f"<@{GM}> replaced these sheets with an import: **Jaime**")
    assert [int(u) for u in told.body["allowed_mentions"]["users"]] == [ARIA]
    notices = [e for e in standin.message_events[events:] if "replaced these" in (e.content or "")]
    assert len(notices) == 1, notices

    # ---- a weapon on a skill the goblin lacks: warned, and shown on its sheet ----------------
    knife = {"weapon": "Knife", "base": 2, "attribute": "Strength", "skill": "Knives"}
    armed = await table.private("character", {"name": "Goblin", **knife}, sub="weapon")
    assert "⚠ Goblin has no Knives, which Knife is wielded with" in armed.content

    # ---- the fight: three goblins, double presses ----------------------------------------------
    started = await c("fight", {"name": "Ambush"}, sub="start")
    table.tracker_id = started.message_id
    await c("fight", {"initiative": 18}, by=ARIA, sub="join")
    await c("fight", {"initiative": 16}, by=BRAM, sub="join")  # Reaktion counts: 16 + 3
    await table.private("fight", {"npc": "Goblin", "count": 3, "initiative": 5}, sub="add")
    await c("fight", sub="next")
    await table.turn_of("Jaime", 1)

    hit = await c("attack", {"weapon": "Long sword", "target": "Goblin 1", "roll": 15}, by=ARIA)
    assert field(hit.embeds[0], "Health") == "Goblin 1 is badly wounded."  # 10 of 20 left
    assert "Roll again" not in labels(hit.components)  # no free second attack

    # Aria and the GM press Next at once: one turn passes.
    answers = await double_press(table, table.next_button(), table.tracker_id, ARIA, GM)
    assert sorted(a.type for a in answers) == [CALLBACK_CHANNEL_MESSAGE, CALLBACK_UPDATE_MESSAGE]
    await table.turn_of("Jorun", 1)

    # A goblin attacks Jorun; Bram presses Block twice: one defence, with his German names.
    attack = await c("attack", {"str": 1, "skill": 2, "base": 5, "target": "Jorun",
                     "npc": "Goblin 2", "roll": 12})  # fmt: skip
    block = button(attack.components, "Block", "Blocken")
    answers = await double_press(table, block, attack.message_id, BRAM, BRAM)
    # One press settles it; the other finds it settled and only takes the buttons away.
    settled = [a for a in answers if a.type == CALLBACK_UPDATE_MESSAGE and a.embeds]
    assert len(settled) == 1, [(a.type, a.data) for a in answers]
    side = next(f["value"] for f in settled[0].embeds[0]["fields"] if "Jorun" in f["name"])
    assert "Stärke" in side and "Blocken" in side, side
    assert "not on the sheet" not in json.dumps(settled[0].embeds, ensure_ascii=False)

    # The GM looks at the numbers without posting the tracker again.
    tracker_before = table.tracker_id
    look = await table.private("fight", {"private": True}, sub="show")
    assert "HP" in look.embeds[0]["description"] and table.tracker_id == tracker_before

    # ---- checks, a hidden NPC roll, a contest ----------------------------------------------
    missing = await c("check", {"attr_name": "Reaction", "skill_name": "Stealth", "vs": 10,
                      "roll": 12}, by=ARIA)  # fmt: skip
    assert "Stealth is not on Jaime's sheet, so it counts 0." in field(
        missing.embeds[0], "Not on the sheet"
    )
    german = await c("check", {"attr_name": "Reaction", "skill": 2, "vs": 10, "roll": 5}, by=BRAM)
    assert field(german.embeds[0], "Modifikatoren") == "Reaktion +3, Skill +2"

    events = len(standin.message_events)
    hidden = await table.private("check", {"npc": "Goblin guard", "attr": 1, "skill": 1, "vs": 10,
                                 "private": True})  # fmt: skip
    notice = await table.event("followup", events, lambda e: not e.flags & 64)
    assert notice.content == "🎲 A GM made a hidden check." and hidden.embeds

    events = len(standin.message_events)
    secret = await c("check", {"npc": "Goblin", "attr_name": "Strength", "skill_name": "Stealth",
                     "vs": 12, "take10": True})  # fmt: skip
    assert [f["name"] for f in secret.embeds[0]["fields"]] == ["Total"]
    whole = await table.event("followup", events, lambda e: bool(e.flags & 64))
    assert whole.content == "The whole roll, for you only:"
    assert field(whole.embeds[0], "Die") == "take 10"

    contest = await c("contest", {"opponent": "Jorun", "attr_name": "Strength", "skill": 1,
                      "opp_skill": 1}, by=ARIA)  # fmt: skip
    assert "Stärke" in json.dumps(contest.embeds, ensure_ascii=False)

    # ---- crafting, /roll, /odds, /history ------------------------------------------------------
    await c("craft", {"item": "Seil", "quality": 0}, by=BRAM, sub="start")
    craft = await c("craft", {"item": "Seil", "attr": 1, "skill": 1, "vs": 5, "roll": 10},
                    by=BRAM, sub="roll")  # fmt: skip
    assert labels(craft.components) == []  # a crafting roll changes the project: no Roll again
    dice = await c("roll", {"expression": "2d6+1"}, by=BRAM)
    assert dice.embeds[0]["title"].startswith("Jorun: ")
    odds = await c("odds", {"attr": 3, "skill": 5, "vs": 13}, by=ARIA, sub="check", public=False)
    assert odds.embeds, odds.content
    history = await c("history", by=ARIA, public=False)
    assert "Jaime" in history.embeds[0]["description"]
    await c("fight", sub="end")
