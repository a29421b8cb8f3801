"""docs/first-steps.md, "First steps for a table", run as written: from an empty server to the first
attack on a goblin in four commands, and the rules text's example comes out."""

from __future__ import annotations

import re
from pathlib import Path

from tests.commands.conftest import embed_of

FIRST_STEPS = Path(__file__).resolve().parents[2] / "docs" / "first-steps.md"


def first_steps() -> str:
    return FIRST_STEPS.read_text(encoding="utf-8")


def options(line: str) -> tuple[str, dict[str, object]]:
    """`/character create name:Jaime sheet:Strength 3; ...` as a command and its options: each
    option runs to the next `name:` (Discord's client reads it the same way)."""
    command, _, rest = line.strip().lstrip("/").partition(" ")
    words = command.split()
    parts = re.split(r"\s(?=[a-z_]+:)", rest)
    while parts and ":" not in parts[0]:
        words.append(parts.pop(0))
    values: dict[str, object] = {}
    for part in parts:
        key, _, value = part.partition(":")
        values[key] = {"true": True, "false": False}.get(value, value)
        if isinstance(values[key], str) and values[key].isdigit():
            values[key] = int(values[key])
    return " ".join(words), values


async def test_the_first_steps_run_as_written(world):
    steps = first_steps()
    block = re.search(r"```text\n(.*?)```", steps, re.S).group(1).strip().splitlines()
    goblin = re.search(r"`(/character create name:Goblin npc:true[^`]*)`", steps).group(1)
    attack = re.search(r"`(/attack target:Goblin)`", steps).group(1)
    assert "four commands" in steps
    for line in block:
        command, values = options(line)
        reply = await world.bob.slash(world.channel, command, **values)
        assert "Created" in reply.response.content or "wields" in reply.response.content
    command, values = options(goblin)
    assert (await world.alice.slash(world.channel, command, **values)).acknowledged
    world.dice.push(15)
    command, values = options(attack)
    embed = embed_of(await world.bob.slash(world.channel, command, **values))
    assert embed["title"] == "Jaime: Attack with Long sword on Goblin"
    assert "Hit: 5 DoS, 10 damage" in embed["description"]
    assert len(block) + 2 == 4  # Jaime's sheet and weapon, the goblin, the attack
