"""The CLI rolls from an exported sheet and gives the numbers the bot gives for the same die."""

from __future__ import annotations

import json

import pytest

from tests.commands.conftest import embed_of
from tests.commands.test_combat import make_jaime
from wire.cli import main


async def exported(world, tmp_path):
    """Bob's Jaime, made in the bot and written to a file by /character export."""
    await make_jaime(world)
    await world.bob.slash(world.channel, "character set", skill="Climbing", value=2)
    result = await world.bob.slash(world.channel, "character export")
    path = tmp_path / result.response.attachments[0].filename
    path.write_bytes(await result.response.attachments[0].read())
    return path


def cli_json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def shown(result) -> tuple[str, str, str]:
    """What the bot's embed says of a roll: its modifiers, its total line, its headline."""
    embed = embed_of(result)
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    return fields["Modifiers"], fields["Total"], embed["description"].split("\n")[0]


def modifiers(cli: dict) -> str:
    return ", ".join(f"{m['label']} {m['value']:+d}" for m in cli["modifiers"])


@pytest.mark.parametrize("face", [1, 8, 15, 20])
async def test_an_attack_off_the_exported_sheet_is_the_bots_attack(world, tmp_path, capsys, face):
    path = await exported(world, tmp_path)
    bot = await world.bob.slash(world.channel, "attack", weapon="Long sword", vs=13, roll=face)
    cli = cli_json(
        capsys,
        *("attack", "--sheet", str(path), "--weapon", "Long sword", "--vs", "13"),
        *("--roll", str(face)),
    )
    mods, total, headline = shown(bot)
    assert mods == modifiers(cli) == "Strength +3, Long swords +5"
    assert total == f"**{cli['total']}** vs defence 13"
    verdict = "Hit" if cli["success"] else "Defended"
    capped = f" (capped from {cli['raw_degrees']})" if cli["raw_degrees"] != cli["degrees"] else ""
    assert headline.startswith(f"**{verdict}: {cli['degrees']} DoS{capped}, {cli['damage']} ")


@pytest.mark.parametrize(
    ("skill", "face"), [("Climbing", 10), ("Swimming", 12), ("climbing", 20), ("Climbing", 1)]
)
async def test_a_check_off_the_exported_sheet_is_the_bots_check(
    world, tmp_path, capsys, skill, face
):
    """A skill the sheet lacks counts 0 in both; the look-up ignores case in both."""
    path = await exported(world, tmp_path)
    bot = await world.bob.slash(
        world.channel, "check", attr_name="Strength", skill_name=skill, vs=15, roll=face
    )
    cli = cli_json(
        capsys,
        *("check", "--sheet", str(path), "--attr", "Strength", "--skill", skill),
        *("--vs", "15", "--roll", str(face)),
    )
    mods, total, headline = shown(bot)
    assert mods == modifiers(cli)
    assert total == f"**{cli['total']}** vs TN 15"
    verdict = "Success" if cli["success"] else "Failure"
    unit = "DoS" if cli["success"] else "DoF"
    assert headline == f"**{verdict}: {cli['degrees']} {unit}**"


async def test_a_cp_tables_export_version_2_is_read_by_check_and_cost(world, tmp_path, capsys):
    """Issue #31: every export of a campaign with CP is version 2, and `check --sheet` refused
    it (version 1 only) while `cost --sheet` read the same file. One reader for both."""
    await world.alice.slash(world.channel, "cp categories", skills="Long swords: combat")
    path = await exported(world, tmp_path)
    assert json.loads(path.read_text())["version"] == 2
    cli = cli_json(
        capsys,
        *("check", "--sheet", str(path), "--attr", "Strength", "--skill", "Long swords"),
        *("--vs", "13", "--roll", "10"),
    )
    assert cli["total"] == 18
    worth = cli_json(capsys, "cost", "--sheet", str(path))
    assert worth["sheets"][0]["skills"][0] == {
        "name": "Long swords",
        "level": 5,
        "category": "combat",
        "cost": 75,
    }
