"""Character points through the real bot.py (issue 22): a session's award, spending, approval.

The GM prices the table, awards a session's CP to three characters (the campaign's active
ones), Aria improves Parry at once, Bram (a German client) asks for Blocken while approval is
on (the request goes to the campaign's GM channel) and the GM approves it, Cara asks for more
than she has and is refused, the GM undoes Aria's spend, a ledger of twelve entries pages
(read in English and German), and a campaign export imported into another campaign keeps the
prices, the ledger and the sheets. Bounded: some fifty interactions.

Two evenings follow: categories, species, an expiry and a forgotten GM; and one where the ledger
holds the sheets (issue #31): a ready character's walk-arounds (/character set, the Edit form,
an import) each turned into a request or refused with the command, the GM's correction an entry
with its reason, and the asking player told the GMs' answer in English and German.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from .conftest import LaunchBot
from .standin import (
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    CALLBACK_MODAL,
    CALLBACK_UPDATE_MESSAGE,
    DEFAULT_CHANNEL_ID,
    DEFAULT_GM_CHANNEL_ID,
    DEFAULT_USER_ID,
    MANAGER_PERMISSIONS,
    Fakecord,
)
from .test_evening import button
from .test_fight import GM, PLAYER_A, PLAYER_B, WAIT
from .test_import_stall import OPTION_ATTACHMENT, serve_files
from .test_wirebot import assert_healthy, field, start_wire, stop_wire

OPTION_CHANNEL = 7
OPTION_BOOLEAN = 5

pytestmark = pytest.mark.e2e

ARIA, BRAM, CARA = PLAYER_A, PLAYER_B, DEFAULT_USER_ID + 3
LOCALES = {GM: "en-US", ARIA: "en-GB", BRAM: "de", CARA: "en-US"}


class Table:
    def __init__(self, standin: Fakecord) -> None:
        self.standin = standin

    def _extra(self, by: int) -> dict[str, Any]:
        extra: dict[str, Any] = {"user_id": by, "locale": LOCALES[by]}
        if by == GM:
            extra["permissions"] = MANAGER_PERMISSIONS
        return extra

    async def send(
        self, name: str, options: dict[str, Any] | None = None, *, by: int = GM, sub=None, **kw
    ):
        payload = self.standin.command_interaction(
            name, options or {}, subcommand=sub, **self._extra(by), **kw
        )
        cb = await self.standin.send_interaction(payload, timeout=WAIT)
        return cb, payload

    async def command(self, name: str, options=None, *, by: int = GM, sub=None, **kw):
        cb, _ = await self.send(name, options, by=by, sub=sub, **kw)
        assert cb.type == CALLBACK_CHANNEL_MESSAGE, (cb.type, cb.data)
        return cb

    async def press(self, custom_id: str, message_id: int, *, by: int = GM):
        payload = self.standin.component_interaction(custom_id, message_id, **self._extra(by))
        return await self.standin.send_interaction(payload, timeout=WAIT)

    async def import_file(
        self, name: str, data: bytes, *, by: int = GM, replace: bool = False, **kw
    ) -> str:
        """/character import of a file (served as Discord's CDN would): the import's answer."""
        cdn, base = await serve_files({name: data})
        try:
            attachment = str(self.standin.snowflake())
            url = f"{base}/{name}"
            options: list[dict[str, Any]] = [
                {"name": "file", "type": OPTION_ATTACHMENT, "value": attachment}
            ]
            if replace:
                options.append({"name": "replace", "type": OPTION_BOOLEAN, "value": True})
            cb, payload = await self.send(
                "character",
                options,
                by=by,
                sub="import",
                resolved={
                    "attachments": {
                        attachment: {
                            "id": attachment,
                            "filename": name,
                            "size": len(data),
                            "url": url,
                            "proxy_url": url,
                            "content_type": "application/json",
                        }
                    }
                },
                **kw,
            )
            if cb.type != CALLBACK_DEFERRED_CHANNEL_MESSAGE:
                return cb.content or ""
            answer = await self.standin.wait_for(
                lambda: next(
                    (e for e in self.standin.message_events if e.token == payload["token"]), None
                ),
                WAIT,
                "the import's answer",
            )
            return answer.content or ""
        finally:
            await cdn.cleanup()

    async def posted(self, after: int, text: str, what: str) -> Any:
        """The first message the bot posted, after the first `after` events, holding `text`."""
        return await self.standin.wait_for(
            lambda: next(
                (e for e in self.standin.message_events[after:] if text in (e.content or "")),
                None,
            ),
            WAIT,
            what,
        )

    async def decided(self, after: int, asked: str, choice: str, told: str, why: str = "") -> Any:
        """The GM presses `choice` on the request holding `asked` (Refuse: and answers its form
        with `why`): what its player is told."""
        request = await self.posted(after, asked, "the request for the GMs")
        events = len(self.standin.message_events)
        pressed = await self.press(button(request.body["components"], choice), request.message_id)
        if choice == "Refuse":
            assert pressed.type == CALLBACK_MODAL, pressed.data
            submit = self.standin.modal_submit_interaction(
                pressed.data["custom_id"], {"wire:cp:reason": why}, channel_id=request.channel_id,
                **self._extra(GM),
            )  # fmt: skip
            self.write("the GM's reason", await self.standin.send_interaction(submit, timeout=WAIT))
        return await self.posted(events, told, "the player's answer")

    async def improve(self, by: int, options: dict[str, Any], label: str):
        """/character improve, then the Spend button: (the price shown, the answer)."""
        asked = await self.command("character", options, by=by, sub="improve")
        assert asked.ephemeral, asked.content
        events = len(self.standin.message_events)
        done = await self.press(button(asked.components, label), asked.message_id, by=by)
        assert done.type == CALLBACK_UPDATE_MESSAGE, done.data
        return asked, done, events


async def test_a_session_of_character_points(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    bot = await start_wire(standin, launch_bot, tmp_path / "wire.db")
    t = Table(standin)

    # ---- the GM prices the table; three players make their characters -----------------------
    cats = await t.command(
        "cp", {"skills": "Parry: combat, Blocken: Kampf, Stealth: action"}, sub="categories"
    )
    assert cats.content == "Skill categories of Default: Blocken: combat, Parry: combat, " \
        "Stealth: action", cats.content  # fmt: skip
    await t.command("cp", {"starting_budget": 40}, sub="settings")
    for who, name, sheet in (
        (ARIA, "Jaime", "Strength 3; Parry 3"),
        (BRAM, "Jorun", "Stärke 2; Blocken 2"),
        (CARA, "Cara", "Strength 1; Stealth 1"),
    ):
        await t.command("character", {"name": name, "sheet": sheet}, by=who, sub="create")

    # ---- the session's award reaches the three active characters ----------------------------
    award = await t.command(
        "cp", {"amount": 30, "reason": "Session 1: the warrens", "everyone": "active"}, sub="award"
    )
    lines = award.content.splitlines()
    assert lines[0] == "+30 CP: Session 1: the warrens" and len(lines) == 4, award.content

    # ---- Aria improves at once; the sheet shows what it is worth -----------------------------
    asked, done, _ = await t.improve(ARIA, {"skill": "Parry"}, "Spend 20 CP")
    assert asked.content == "**Jaime**: Parry 3 → 4 costs **20 CP** (30 CP to spend)."
    assert done.content == "Done: **Jaime** Parry 3 → 4 for 20 CP."
    sheet = await t.command("character", by=ARIA, sub="show")
    points = field(sheet.embeds[0], "Character points")
    assert points.splitlines()[0] == "Sheet: 50 CP: skills 50, attributes not priced", points
    assert "CP earned 30, spent 20, unspent 10" in points
    assert "Over the starting budget of 40 CP by 10 CP" in points

    # ---- with approval on, Bram's (in German) waits for the GM's button in the GM channel ------
    await t.command("cp", {"approval": True}, sub="settings")
    gm_room = str(DEFAULT_GM_CHANNEL_ID)
    await t.command(
        "campaign",
        [{"name": "gm_channel", "type": OPTION_CHANNEL, "value": gm_room}],
        sub="settings",
        resolved={
            "channels": {
                gm_room: standin.channel_payload(DEFAULT_GM_CHANNEL_ID, with_permissions=True)
            }
        },
    )
    asked, done, events = await t.improve(BRAM, {"skill": "Blocken"}, "15 CP ausgeben")
    assert "kostet **15 CP**" in asked.content and "genehmigen" in asked.content, asked.content
    assert done.content.startswith("Angefragt: Blocken 2 → 3 für 15 CP"), done.content
    assert "höchstens 7 Tage" in done.content, done.content
    assert done.content.endswith(f"Die Chronisten wurden in <#{gm_room}> gefragt."), done.content
    request = await standin.wait_for(
        lambda: next(
            (e for e in standin.message_events[events:] if "Blocken 2 → 3" in (e.content or "")),
            None,
        ),
        WAIT,
        "the request for the GMs",
    )
    assert request.channel_id == DEFAULT_GM_CHANNEL_ID, request
    # The GMs' message speaks the table's language (an English server's), not Bram's.
    assert request.content.startswith("GMs: <@"), request.content
    assert "(open until <t:" in request.content, request.content
    refused = await t.press(
        button(request.body["components"], "Approve"), request.message_id, by=CARA
    )
    assert refused.ephemeral and "Only a GM" in refused.content, refused.content
    approved = await t.press(button(request.body["components"], "Approve"), request.message_id)
    assert approved.type == CALLBACK_UPDATE_MESSAGE, approved.data
    assert "**Jorun** Blocken 2 → 3" in approved.content, approved.content

    # ---- Cara asks for more than she has: refused, naming what is missing ---------------------
    short = await t.command("character", {"skill": "Stealth", "to": 4}, by=CARA, sub="improve")
    assert short.ephemeral
    assert "costs 45 CP; Cara has 30 CP to spend, 15 CP short" in short.content, short.content

    # ---- the GM undoes Aria's spend: Parry is 3 again ------------------------------------------
    undone = await t.command("cp", {"character": "Jaime"}, sub="undo")
    assert "Parry 3 → 4" in undone.content and "unspent 30" in undone.content, undone.content
    ledger = await t.command("cp", {"character": "Jaime"}, by=ARIA, sub="show")
    assert ledger.embeds[0]["description"].startswith("CP earned 30, spent 0, unspent 30")

    # ---- a long ledger pages: Older / Newer, read in English and German ------------------------
    for n in range(1, 10):
        await t.command(
            "cp", {"amount": 1, "reason": f"Bonus {n}", "characters": "Jaime"}, sub="award"
        )
    ledger = await t.command("cp", {"character": "Jaime"}, by=ARIA, sub="show")
    first = ledger.embeds[0]
    assert first["description"].startswith("CP earned 39, spent 0, unspent 39"), first
    assert first["footer"]["text"] == "Page 1 of 2, newest first (12 entries)", first
    assert "Bonus 9" in first["description"] and "Session 1" not in first["description"]
    older = await t.press(button(ledger.components, "Older"), ledger.message_id, by=ARIA)
    assert older.type == CALLBACK_UPDATE_MESSAGE, older.data
    second = older.embeds[0]
    assert second["footer"]["text"] == "Page 2 of 2, newest first (12 entries)", second
    assert second["description"].startswith("CP earned 39, spent 0, unspent 39")
    assert "Session 1: the warrens" in second["description"], second
    german = await t.command("cp", {"character": "Jaime", "page": 2}, by=BRAM, sub="show")
    assert german.embeds[0]["footer"]["text"] == "Seite 2 von 2, neueste zuerst (12 Einträge)"
    newer = await t.press(button(german.components, "Neuer"), german.message_id, by=BRAM)
    assert newer.embeds[0]["footer"]["text"].startswith("Seite 1 von 2"), newer.data

    # ---- export, and import into another campaign: it all comes along -----------------------
    cb, payload = await t.send("campaign", sub="export")
    assert cb.type == CALLBACK_DEFERRED_CHANNEL_MESSAGE
    export = await standin.wait_for(
        lambda: next(
            (e for e in standin.message_events if e.token == payload["token"] and e.files), None
        ),
        WAIT,
        "the export file",
    )
    document = json.loads(export.files[0].data)
    # 3 awards, 2 spends, an undo, 9 bonuses
    assert document["version"] == 2 and len(document["ledger"]) == 15
    await t.command("campaign", {"name": "Copy"}, sub="create", channel_id=DEFAULT_GM_CHANNEL_ID)
    imported = await t.import_file(
        "campaign.json", export.files[0].data, channel_id=DEFAULT_GM_CHANNEL_ID
    )
    assert "Imported 3 characters" in imported, imported
    there = await t.command(
        "cp", {"character": "Jorun"}, sub="show", channel_id=DEFAULT_GM_CHANNEL_ID
    )
    assert there.embeds[0]["description"].startswith("CP earned 30, spent 15, unspent 15")
    prices = await t.command("cp", sub="settings", channel_id=DEFAULT_GM_CHANNEL_ID)
    assert "starting budget: 40 CP" in prices.content
    assert "improvements wait for a GM's approval" in prices.content

    assert_healthy(standin, bot)
    await stop_wire(bot)


def reply_text(cb: Any) -> str:
    """What a reader sees of an answer: its content, each embed, each button's label."""
    parts = [cb.content or ""]
    for embed in cb.embeds:
        parts.append(f"[embed] {embed.get('title', '')}\n{embed.get('description', '')}")
        parts += [f"  {f['name']}: {f['value']}" for f in embed.get("fields", [])]
        if embed.get("footer"):
            parts.append(f"  footer: {embed['footer']['text']}")
    rows = getattr(cb, "components", None) or (getattr(cb, "body", None) or {}).get(
        "components", []
    )
    labels = [c.get("label") for row in rows for c in row.get("components", [])]
    if labels:
        parts.append(f"[buttons] {labels}")
    return "\n".join(p for p in parts if p)


class Evening(Table):
    """The table with every reply written down (WIRE_E2E_REPLIES names a file to read)."""

    def __init__(self, standin: Fakecord, dump: Path) -> None:
        super().__init__(standin)
        self.dump = dump
        self.locales = dict(LOCALES)

    def _extra(self, by: int) -> dict[str, Any]:
        return {**super()._extra(by), "locale": self.locales[by]}

    def write(self, label: str, cb: Any) -> Any:
        self.write_text(label, reply_text(cb))
        return cb

    def write_text(self, label: str, text: str) -> None:
        with self.dump.open("a", encoding="utf-8") as out:
            out.write(f"---- {label}\n")
            out.write(text + "\n")

    async def send(self, name, options=None, *, by=GM, sub=None, **kw):
        cb, payload = await super().send(name, options, by=by, sub=sub, **kw)
        shown = options if isinstance(options, dict) else ""
        self.write(f"{self.locales[by]} {by} /{name} {sub or ''} {shown}", cb)
        return cb, payload

    async def press(self, custom_id: str, message_id: int, *, by: int = GM):
        cb = await super().press(custom_id, message_id, by=by)
        return self.write(f"{self.locales[by]} {by} press {custom_id}", cb)


async def open_evening(standin: Fakecord, launch_bot: LaunchBot, db: Path) -> tuple[Any, Evening]:
    """The bot started on `db`, and the table whose replies go to WIRE_E2E_REPLIES (or beside
    the database)."""
    bot = await start_wire(standin, launch_bot, db)
    dump = Path(os.environ.get("WIRE_E2E_REPLIES", db.parent / "replies.txt"))
    dump.write_text("", encoding="utf-8")
    return bot, Evening(standin, dump)


def expire_requests(db: Path) -> None:
    """Every waiting improvement's week is over (the row set back, as the clock would)."""
    with sqlite3.connect(db) as con:
        con.execute("UPDATE cp_requests SET expires_at = '2020-01-01T00:00:00.000000Z'")


async def test_an_evening_of_categories_species_expiry_and_forgetting(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    """cp2's rest at the table: categories in the sheet text (a GM's set them, a player's
    must agree), species costs in the worth and the cost, a request that expires and its
    buttons pressed after, and a GM who forgets themselves; in English and German."""
    db = tmp_path / "wire.db"
    bot, t = await open_evening(standin, launch_bot, db)

    # ---- the GM's sheet text gives the campaign its categories, in English and German -------
    await t.command(
        "character",
        {
            "name": "Warden",
            "sheet": "Strength 2; Parry 3 (combat), Stealth 1 (action)",
            "npc": True,
        },
        sub="create",
    )
    t.locales[GM] = "de"
    await t.command(
        "character",
        {"name": "Hüter", "sheet": "Stärke 2; Elfisch 2 (Sprache), Blocken 1 (Kampf)", "npc": True},
        sub="create",
    )
    cats = await t.command("cp", sub="categories")
    assert cats.content == (
        "Skill-Kategorien von Default: Blocken: Kampf, Elfisch: Sprache, Parry: Kampf, "
        "Stealth: Aktion"
    ), cats.content
    t.locales[GM] = "en-US"

    # ---- players: a category the campaign has is fine; one it lacks is refused, fix named ----
    await t.command(
        "character", {"name": "Jaime", "sheet": "Strength 3; Parry 3 (combat)"}, by=ARIA,
        sub="create",
    )  # fmt: skip
    refused = await t.command(
        "character", {"name": "Cara", "sheet": "Strength 1; Juggling 2 (action)"}, by=CARA,
        sub="create",
    )  # fmt: skip
    assert refused.ephemeral and "Juggling" in refused.content, refused.content
    assert "without the brackets" in refused.content and "/cp categories" in refused.content
    refused = await t.command(
        "character", {"name": "Jorun", "sheet": "Stärke 2; Blocken 2 (Wissen)"}, by=BRAM,
        sub="create",
    )  # fmt: skip
    assert refused.ephemeral and "Blocken" in refused.content, refused.content
    assert "Kampf" in refused.content and "Wissen" in refused.content, refused.content
    await t.command(
        "character", {"name": "Jorun", "sheet": "Stärke 2; Blocken 2 (Kampf), Elfisch 1"},
        by=BRAM, sub="create",
    )  # fmt: skip
    await t.command(
        "character", {"name": "Cara", "sheet": "Strength 1; Juggling 2"}, by=CARA, sub="create"
    )

    # Stealth is on the NPC Warden alone: the players' list leaves it out
    listed = await t.command("cp", sub="categories", by=BRAM)
    assert listed.content == (
        "Skill-Kategorien von Default: Blocken: Kampf, Elfisch: Sprache, Parry: Kampf"
    ), listed.content

    # ---- species: priced by the GM, named by the players, counted in the worth --------------
    priced = await t.command("cp", {"costs": "Human: 0, Elf: 20, Dwarf: 10"}, sub="species")
    assert "Elf: 20 CP" in priced.content, priced.content
    elf = await t.command("character", {"species": "elf"}, by=ARIA, sub="species")
    assert elf.content.startswith("**Jaime**'s species: Elf (20 CP)."), elf.content
    troll = await t.command("character", {"species": "Troll"}, by=BRAM, sub="species")
    assert "Troll, vom Tisch nicht bepreist" in troll.content and "/cp spezies" in troll.content, (
        troll.content
    )
    sheet = await t.command("character", by=ARIA, sub="show")
    points = field(sheet.embeds[0], "Character points")
    assert points.splitlines()[0] == (
        "Sheet: 50 CP: skills 30, attributes not priced, species 20 (Elf)"
    ), points
    cost = await t.command("character", by=ARIA, sub="cost")
    assert cost.embeds[0]["description"].splitlines()[:3] == [
        "Parry 3 (combat): 30 CP",
        "Attributes (3 points): not priced",
        "Species Elf: 20 CP",
    ], cost.embeds
    listed = await t.command("cp", sub="species", by=BRAM)
    assert listed.content.startswith("Spezieskosten von Default: Dwarf: 10 CP, Elf: 20 CP"), (
        listed.content
    )
    sheet = await t.command("character", by=BRAM, sub="show")
    points = field(sheet.embeds[0], "Charakterpunkte")
    assert points.splitlines() == [
        "Bogen: 17 CP: Skills 17, Attribute ohne Preis, Spezies Troll ohne Preis",
        "CP erhalten 0, ausgegeben 0, übrig 0",
    ], points
    cost = await t.command("character", by=BRAM, sub="cost")
    assert cost.embeds[0]["description"].splitlines()[:5] == [
        "Blocken 2 (Kampf): 15 CP",
        "Elfisch 1 (Sprache): 2 CP",
        "Attribute (2 Punkte): ohne Preis",
        "Spezies Troll: ohne Preis (nicht in der Liste des Tischs)",
        "Bogen: 17 CP: Skills 17, Attribute ohne Preis, Spezies Troll ohne Preis",
    ], cost.embeds
    juggling = await t.command("character", by=CARA, sub="cost")
    assert juggling.embeds[0]["description"].splitlines()[:2] == [
        "Juggling 2: unpriced (no category set)",
        "Attributes (1 point): not priced",
    ], juggling.embeds

    # ---- a waiting improvement expires; its buttons pressed after say so -------------------
    await t.command("cp", {"amount": 30, "reason": "Session 2", "everyone": "active"}, sub="award")
    await t.command("cp", {"approval": True}, sub="settings")
    events = len(standin.message_events)
    _asked, done, _ = await t.improve(BRAM, {"skill": "Blocken"}, "15 CP ausgeben")
    assert "die CP sind bis dahin zurückgehalten" in done.content, done.content
    request = await standin.wait_for(
        lambda: next(
            (e for e in standin.message_events[events:] if "Blocken 2 → 3" in (e.content or "")),
            None,
        ),
        WAIT,
        "the request for the GMs",
    )
    t.write("request message", request)
    expire_requests(db)
    ledger = await t.command("cp", {"character": "Jorun"}, by=BRAM, sub="show")
    assert "gehalten" not in ledger.embeds[0]["description"], ledger.embeds
    late = await t.press(button(request.body["components"], "Approve"), request.message_id)
    if late.type == CALLBACK_UPDATE_MESSAGE:
        assert late.content.startswith("Expired: Blocken 2 → 3 (15 CP)"), late.content
    else:
        # The bot's minute sweep closed it between the clock moving and the press: the message
        # then reads the same, edited by the sweep, and the press is told it is stale.
        assert late.ephemeral and "no longer works" in late.content, late.content
        swept = [
            e
            for e in standin.message_events
            if e.kind == "channel_edit" and e.message_id == request.message_id
        ]
        assert swept and swept[-1].body["content"].startswith("Expired: Blocken 2 → 3 (15 CP)")
    # the edit took the buttons off: a client that still shows them is told it is stale
    again = await t.press(button(request.body["components"], "Refuse"), request.message_id)
    assert again.ephemeral and "no longer works" in again.content, again.content
    ledger = await t.command("cp", {"character": "Jorun"}, by=BRAM, sub="show")
    assert ledger.embeds[0]["description"].startswith("CP erhalten 30, ausgegeben 0, übrig 30"), (
        ledger.embeds
    )

    # ---- the GM forgets themselves; the players' ledgers keep their sums, not the name -------
    asked = await t.command("privacy", by=GM, sub="forget-me")
    gone = await t.press(button(asked.components, "Delete all my data"), asked.message_id)
    assert "CP entries made anonymous" in (gone.content or ""), gone.content
    mine = await t.command("cp", {"character": "Jaime"}, by=ARIA, sub="show")
    assert mine.embeds[0]["description"].startswith("CP earned 30, spent 0, unspent 30")
    theirs = await t.command("cp", {"character": "Jaime"}, by=BRAM, sub="show")
    assert str(GM) not in reply_text(theirs), reply_text(theirs)
    assert "Session 2 · von einem vergessenen Nutzer" in theirs.embeds[0]["description"]
    npc = await t.command("cp", {"character": "Warden"}, by=CARA, sub="show")
    assert npc.ephemeral and "Warden" not in (npc.embeds or [{}])[0].get("title", ""), npc.data

    assert_healthy(standin, bot)
    await stop_wire(bot)


async def test_an_evening_where_the_ledger_holds_the_sheets(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    """Issue #31 at the table: with a budget and approval, a ready character's priced stats
    move only through the ledger (a player's /character set becomes a request, the Edit form
    and an import are refused with the command, the GM's correction is an entry with its
    reason), and the player who asked hears the GMs' answer, in English and German."""
    db = tmp_path / "wire.db"
    bot, t = await open_evening(standin, launch_bot, db)

    await t.command(
        "cp", {"skills": "Parry: combat, Long swords: combat, Blocken: Kampf"}, sub="categories"
    )
    await t.command("cp", {"starting_budget": 200, "approval": True}, sub="settings")
    await t.command(
        "character", {"name": "Jaime", "sheet": "Strength 3; Parry 3, Long swords 5"}, by=ARIA,
        sub="create",
    )  # fmt: skip
    await t.command(
        "character", {"name": "Jorun", "sheet": "Stärke 2; Blocken 2"}, by=BRAM, sub="create"
    )

    # ---- ready for play: the player's own word, within the budget ---------------------------
    ready = await t.command("cp", by=ARIA, sub="ready")
    assert ready.content.startswith("**Jaime** is ready for play (entry #1)"), ready.content
    bereit = await t.command("cp", by=BRAM, sub="ready")
    assert bereit.content.startswith("**Jorun** ist spielbereit (Eintrag #1)"), bereit.content
    await t.command("cp", {"amount": 250, "reason": "Session 1", "everyone": "active"}, sub="award")

    # ---- a player's /character set of a priced stat is an improvement, asked of the GMs ------
    events = len(standin.message_events)
    asked = await t.command("character", {"skill": "Long swords", "value": 10}, by=ARIA, sub="set")
    assert asked.ephemeral and asked.content == (
        "**Jaime**: Long swords 5 → 10 costs **200 CP** (250 CP to spend). "
        "A GM approves it before it counts."
    ), asked.content
    done = await t.press(button(asked.components, "Spend 200 CP"), asked.message_id, by=ARIA)
    assert "waits for a GM" in done.content, done.content
    told = await t.decided(events, "asks to raise", "Approve", "approved it")
    t.write("told Aria", told)
    assert told.content == (
        f"<@{ARIA}> The GMs approved it: **Jaime**'s Long swords is 10 now (from 5) for 200 CP; "
        "50 CP left to spend."
    ), told.content
    assert told.body["allowed_mentions"]["users"] == [ARIA], told.body

    # ---- the Edit form and an import that raise a priced stat are refused, command named ----
    sheet = await t.command("character", by=ARIA, sub="show")
    form = await t.press(button(sheet.components, "Edit"), sheet.message_id, by=ARIA)
    assert form.type == 9, form.data
    submit = standin.modal_submit_interaction(
        form.data["custom_id"],
        {"wire:sheet:text": "Strength 3; Parry 5, Long swords 10"},
        user_id=ARIA,
        channel_id=DEFAULT_CHANNEL_ID,
    )
    edited = t.write(
        "Aria submits the Edit form", await standin.send_interaction(submit, timeout=WAIT)
    )
    assert edited.ephemeral and "Parry 3 → 5 (45 CP)" in edited.content, edited.content
    assert "/character improve skill:Parry to:5" in edited.content, edited.content
    document = {
        "format": "wire-bot",
        "version": 1,
        "kind": "character",
        "character": {"name": "Jaime", "attributes": {"Strength": 3},
                      "skills": {"Parry": 9, "Long swords": 10}},
    }  # fmt: skip
    imported = await t.import_file(
        "Jaime.json", json.dumps(document).encode(), by=ARIA, replace=True
    )
    t.write_text("Aria imports Jaime with Parry 9", imported)
    assert "Parry 3 → 9 (195 CP)" in imported, imported

    # ---- the GM's change is an entry with its reason, never an edit in place ----------------
    refused = await t.command(
        "character", {"name": "Jaime", "skill": "Parry", "value": 4}, sub="set"
    )
    assert "/cp correct character:Jaime skill:Parry value:4 reason:" in refused.content, (
        refused.content
    )
    corrected = await t.command(
        "cp",
        {"character": "Jaime", "skill": "Parry", "value": 4, "reason": "Trained with the guard"},
        sub="correct",
    )
    assert corrected.content == (
        f"Corrected by <@{GM}> (entry #4): **Jaime** Parry 3 → 4: Trained with the guard. "
        "Worth 20 CP, given by the GM: no CP were spent."
    ), corrected.content
    ledger = await t.command("cp", {"character": "Jaime"}, by=ARIA, sub="show")
    lines = ledger.embeds[0]["description"].splitlines()
    assert [line.split()[0] for line in lines[1:]] == ["`#4`", "`#3`", "`#2`", "`#1`"], lines
    assert "corrected **+0 CP** Parry 3 → 4 · Trained with the guard" in lines[1], lines

    # ---- Bram asks in German; the GM refuses; Bram is told in German -------------------------
    events = len(standin.message_events)
    asked = await t.command("character", {"skill": "Blocken", "value": 3}, by=BRAM, sub="set")
    assert "kostet **15 CP**" in asked.content, asked.content
    await t.press(button(asked.components, "15 CP ausgeben"), asked.message_id, by=BRAM)
    told = await t.decided(events, "Blocken 2 → 3", "Refuse", "abgelehnt", "Erst nach dem Duell")
    t.write("told Bram", told)
    assert told.content == (
        f"<@{BRAM}> Die Chronisten haben deine Anfrage Blocken 2 → 3 (15 CP) abgelehnt; nichts "
        "wurde ausgegeben. Warum: Erst nach dem Duell"
    ), told.content

    assert_healthy(standin, bot)
    await stop_wire(bot)
