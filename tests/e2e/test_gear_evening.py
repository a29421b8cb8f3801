"""Gear, money and counters through the real bot.py (issue 36): a shop scene, arrows running out,
a give pressed twice at once, an export and an import, in English and German.

The GM sets the table's coins and grants wages; Aria (English) buys in the shop, Bram (a German
client) is refused when short and pays once granted; Aria's longbow spends arrows from a counter
until it is refused at 0 and the fight's end fills it again; Aria gives Bram a rope, a stranger's
press is refused and Bram's two presses at once accept it once; a campaign export (version 3)
imported into another campaign keeps purses, items and counters. Bounded: some forty
interactions.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from .conftest import LaunchBot
from .standin import (
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    CALLBACK_UPDATE_MESSAGE,
    DEFAULT_GM_CHANNEL_ID,
    Fakecord,
)
from .test_advancement import ARIA, BRAM, CARA, Table
from .test_evening import button
from .test_fight import WAIT
from .test_import_stall import OPTION_ATTACHMENT, serve_files
from .test_wirebot import assert_healthy, field, start_wire, stop_wire

pytestmark = pytest.mark.e2e


async def test_an_evening_of_gear_money_and_counters(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    bot = await start_wire(standin, launch_bot, tmp_path / "wire.db")
    t = Table(standin)

    # ---- the GM sets the coins; two players make their characters ----------------------------
    coins = await t.command("purse", {"coins": "copper 10 silver 10 gold"}, sub="currency")
    assert coins.ephemeral and "10 copper = 1 silver, 10 silver = 1 gold" in coins.content
    await t.command(
        "character", {"name": "Jaime", "sheet": "Strength 3, Resolve 1"}, by=ARIA, sub="create"
    )
    await t.command(
        "character",
        {"weapon": "Longbow", "base": 4, "attribute": "Strength", "skill": "Bows", "new": True},
        by=ARIA,
        sub="weapon",
    )
    await t.command(
        "character",
        {"name": "Jorun", "sheet": "Stärke 2, Entschlossenheit 1"},
        by=BRAM,
        sub="create",
    )

    # ---- the shop: wages, a purchase, a German refusal and payment -----------------------------
    wages = await t.command(
        "purse", {"character": "Jaime", "amount": "5 gold", "reason": "wages"}, sub="grant"
    )
    assert wages.content == "**Jaime**: granted 5 gold; the purse holds 5 gold. (wages)"
    bought = await t.command(
        "purse", {"amount": "1 gold 5 silver", "reason": "a longbow"}, by=ARIA, sub="pay"
    )
    assert bought.content == (
        "**Jaime**: paid 1 gold 5 silver; the purse holds 3 gold 5 silver. (a longbow)"
    )
    await t.command("gear", {"item": "Rope", "weight": "1.5"}, by=ARIA, sub="add")
    short = await t.command("purse", {"amount": "3 silver"}, by=BRAM, sub="pay")
    assert short.ephemeral
    assert short.content == "Jorun hat nicht so viel Geld: nichts hat sich geändert."
    await t.command(
        "purse", {"character": "Jorun", "amount": "2 gold", "reason": "Lohn"}, sub="grant"
    )
    paid = await t.command("purse", {"amount": "3 silver"}, by=BRAM, sub="pay")
    assert paid.content == ("**Jorun**: gezahlt 3 silver; der Geldbeutel enthält 1 gold 7 silver.")

    # ---- arrows run out: each shot spends one, refused at 0; the fight's end refills ----------
    arrows = await t.command(
        "counter",
        {"name": "Arrows", "maximum": 20, "value": 1, "reset": "fight", "weapon": "Longbow"},
        by=ARIA,
        sub="add",
    )
    assert arrows.content == "**Jaime**: Arrows 1/20 (at a fight's end) · ammunition of Longbow"
    shot, payload = await t.send("attack", {"weapon": "Longbow", "vs": 13, "roll": 15}, by=ARIA)
    assert shot.type == CALLBACK_CHANNEL_MESSAGE and shot.embeds, shot.data
    left = await standin.wait_for(
        lambda: next(
            (e for e in standin.message_events if e.token == payload["token"] and e.content),
            None,
        ),
        WAIT,
        "the arrows left",
    )
    assert left.content == "Arrows 0/20 left."
    empty, _ = await t.send("attack", {"weapon": "Longbow", "vs": 13, "roll": 15}, by=ARIA)
    assert empty.ephemeral and empty.content.startswith("Longbow has no Arrows left (0/20)")
    await t.command("fight", {"name": "Ambush"}, sub="start")
    await t.command("fight", {"initiative": 12}, by=ARIA, sub="join")
    await t.command("fight", sub="end")
    kit = await t.command("gear", by=ARIA, sub="list")
    assert field(kit.embeds[0], "Counters") == "Arrows 20/20 (at a fight's end)"
    assert field(kit.embeds[0], "Load") == "1.5 kg of 8 kg carried (lift 40 kg)"

    # ---- a give: a stranger's press refused, two presses at once accept it once ---------------
    offer = await t.command("gear", {"item": "Rope", "receiver": "Jorun"}, by=ARIA, sub="give")
    assert offer.content.startswith("**Jaime** offers **Jorun** 1 × Rope."), offer.content
    accept = button(offer.components, "Accept")
    stranger = await t.press(accept, offer.message_id, by=CARA)
    assert stranger.ephemeral and stranger.content == "Only Jorun's player can answer this gift."
    presses = [
        standin.component_interaction(accept, offer.message_id, **t._extra(BRAM)) for _ in "ab"
    ]
    futures = [await standin.post_interaction(p) for p in presses]
    answers = await asyncio.gather(*(asyncio.wait_for(f, WAIT) for f in futures))
    updated = [a for a in answers if a.type == CALLBACK_UPDATE_MESSAGE]
    refused = [a for a in answers if a.type == CALLBACK_CHANNEL_MESSAGE]
    assert len(updated) == 1 and len(refused) == 1, [a.data for a in answers]
    assert updated[0].content == f"Accepted by <@{BRAM}>: 1 × Rope changed hands."
    assert refused[0].ephemeral
    assert (
        refused[0].content == "Dieses Geschenk wurde schon beantwortet: nichts hat sich geändert."
    )
    jorun = await t.command("gear", by=BRAM, sub="list")
    assert jorun.embeds[0]["title"] == "Ausrüstung von Jorun"
    assert jorun.embeds[0]["description"] == "1 × **Rope** (je 1,5 kg, 1,5 kg)"

    # ---- export and import into another campaign: it all comes along -------------------------
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
    assert document["version"] == 3
    assert document["campaign"]["currency"]["coins"] == ["copper", "silver", "gold"]
    await t.command("campaign", {"name": "Copy"}, sub="create", channel_id=DEFAULT_GM_CHANNEL_ID)
    cdn, base = await serve_files({"campaign.json": export.files[0].data})
    try:
        attachment = str(standin.snowflake())
        url = f"{base}/campaign.json"
        cb, payload = await t.send(
            "character",
            [{"name": "file", "type": OPTION_ATTACHMENT, "value": attachment}],
            sub="import",
            channel_id=DEFAULT_GM_CHANNEL_ID,
            resolved={
                "attachments": {
                    attachment: {
                        "id": attachment,
                        "filename": "campaign.json",
                        "size": len(export.files[0].data),
                        "url": url,
                        "proxy_url": url,
                        "content_type": "application/json",
                    }
                }
            },
        )
        assert cb.type == CALLBACK_DEFERRED_CHANNEL_MESSAGE
        imported = await standin.wait_for(
            lambda: next((e for e in standin.message_events if e.token == payload["token"]), None),
            WAIT,
            "the import's answer",
        )
        assert "Imported 2 characters" in (imported.content or ""), imported.content
    finally:
        await cdn.cleanup()
    there = await t.command(
        "purse", {"character": "Jaime"}, sub="show", channel_id=DEFAULT_GM_CHANNEL_ID
    )
    assert there.embeds[0]["description"].splitlines()[0] == "Holds 3 gold 5 silver"
    kit = await t.command(
        "gear", {"character": "Jaime"}, sub="list", channel_id=DEFAULT_GM_CHANNEL_ID
    )
    assert field(kit.embeds[0], "Counters") == "Arrows 20/20 (at a fight's end)"

    assert_healthy(standin, bot)
    await stop_wire(bot)
