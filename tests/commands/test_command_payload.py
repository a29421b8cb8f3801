"""The slash-command payload the bot would sync, against Discord's registration rules.

Discord refuses a whole sync for one bad command, and discord.py checks few of the rules, so the
payload is checked here with tests/discord_rules.py; the end-to-end stand-in checks it again on
the wire.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.discord_rules import command_characters, command_problems
from tools.command_tree import loaded_bot

PLAYING = Path(__file__).resolve().parents[2] / "docs" / "playing.md"
"""How the commands work at the table, with an example of each (docs/commands.md, generated,
lists them all anyway: tests/commands/test_commands_doc.py)."""


@pytest.fixture
async def payload():
    async with loaded_bot() as bot:
        yield await bot.command_payload()


async def test_payload_follows_discords_registration_rules(payload):
    assert command_problems(payload) == []


async def test_every_command_is_there_with_the_issue_option_names(payload):
    by_name = {c["name"]: c for c in payload}
    assert {
        "check",
        "attack",
        "defend",
        "contest",
        "craft",
        "character",
        "campaign",
        "history",
        "help",
        "roll",
        "odds",
    } <= set(by_name)

    def options(name: str) -> list[str]:
        return [o["name"] for o in by_name[name].get("options", [])]

    assert {"attr", "skill", "vs", "mod", "roll", "take10", "private"} <= set(options("check"))
    assert {"str", "skill", "base", "vs", "weapon", "target"} <= set(options("attack"))
    assert {"str", "skill", "base", "vs"} <= set(options("defend"))
    assert options("roll") == ["expression", "label", "private"]
    odds = {
        o["name"]: [p["name"] for p in o.get("options", [])] for o in by_name["odds"]["options"]
    }
    assert set(odds) == {"check", "attack", "defend", "contest"}
    assert {"str", "skill", "base", "vs", "opp_bonus", "weapon", "public"} <= set(odds["attack"])
    craft = {o["name"] for o in by_name["craft"]["options"]}
    assert craft == {"start", "roll", "show", "finish"}
    character = {o["name"] for o in by_name["character"]["options"]}
    assert {
        "create",
        "show",
        "list",
        "set",
        "remove",
        "delete",
        "use",
        "export",
        "import",
    } <= character


async def test_integer_options_carry_the_rules_ranges(payload):
    check = next(c for c in payload if c["name"] == "check")
    ranges = {o["name"]: (o.get("min_value"), o.get("max_value")) for o in check["options"]}
    assert ranges["skill"] == (0, 10)
    assert ranges["roll"] == (1, 20)


async def test_commands_are_small_enough(payload):
    assert max(command_characters(c) for c in payload) < 8000


async def test_every_command_is_shown_at_work_in_the_playing_guide(payload):
    readme = PLAYING.read_text()
    for command in payload:
        if command.get("type", 1) != 1:  # a context menu: its name in bold, as the menu shows it
            name = command["name"]
            assert f"**{name}**" in readme, f"the menu {name!r} is not in docs/playing.md"
            continue
        names = [command["name"]]
        for option in command.get("options", []):
            if option["type"] == 1:
                names.append(f"{command['name']} {option['name']}")
            elif option["type"] == 2:
                names += [
                    f"{command['name']} {option['name']} {sub['name']}" for sub in option["options"]
                ]
        for name in names:
            assert re.search(rf"`/{re.escape(name)}\b", readme), (
                f"/{name} is not in docs/playing.md"
            )


def _nodes(payload):
    """Every command, group, subcommand and option of the payload, with where it is."""
    for command in payload:
        yield f"/{command['name']}", command
        stack = [(f"/{command['name']}", o) for o in command.get("options", [])]
        while stack:
            where, option = stack.pop()
            at = f"{where} {option['name']}"
            yield at, option
            stack += [(at, o) for o in option.get("options", [])]


async def test_every_name_description_and_choice_has_its_german_localisation(payload):
    """Synced through the translator: a German client sees German names everywhere (and the
    registration-rules test above checks them, uniqueness among siblings included)."""
    missing = []
    for where, node in _nodes(payload):
        if "de" not in node.get("name_localizations", {}):
            missing.append(f"{where}: name")
        context_menu = any(node is c for c in payload) and node.get("type", 1) != 1
        if not context_menu and "de" not in node.get("description_localizations", {}):
            missing.append(f"{where}: description")  # a context menu has none, in any language
        for choice in node.get("choices", []):
            if "de" not in choice.get("name_localizations", {}):
                missing.append(f"{where}: choice {choice['name']}")
    assert missing == []
    by_name = {c["name"]: c for c in payload}
    assert by_name["attack"]["name_localizations"]["de"] == "angriff"
    assert by_name["check"]["name_localizations"]["de"] == "probe"
    assert set(by_name["attack"]["name_localizations"]) == {"de"}  # English is the default


async def test_no_description_is_cut_off(payload):
    """discord.py cuts a description over 100 characters with "…" (and the catalogue then
    translates the cut text): every description, in every language, is whole."""
    cut = []
    for where, node in _nodes(payload):
        texts = {"en": node.get("description", ""), **node.get("description_localizations", {})}
        cut += [f"{where} ({lang}): {text}" for lang, text in texts.items() if text.endswith("…")]
    assert cut == []


async def test_the_stat_name_options_have_german_names(payload):
    """`attr_name` and `skill_name` were left English in German clients."""
    check = next(c for c in payload if c["name"] == "check")
    german = {o["name"]: o["name_localizations"]["de"] for o in check["options"]}
    assert german["attr_name"] == "attributname"
    assert german["skill_name"] == "skillname"
    contest = next(c for c in payload if c["name"] == "contest")
    german = {o["name"]: o["name_localizations"]["de"] for o in contest["options"]}
    assert german["opp_attr_name"] == "geg_attributname"
    assert german["opp_skill_name"] == "geg_skillname"
