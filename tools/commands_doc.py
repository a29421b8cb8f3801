"""`python -m tools.commands_doc` (`make docs`): docs/commands.md written from the command tree.

The reference is the payload the bot syncs with Discord (`WireBot.command_payload`: every
command, group, option, range and choice, with the German localisations), laid out as Markdown,
so the page cannot drift from the code: tests/commands/test_commands_doc.py renders it again and
fails on any difference. `--check` does the same here: exit 1 when the page is out of date.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tools.command_tree import loaded_bot

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "commands.md"
COMMAND = "python -m tools.commands_doc"
LANGUAGE = "de"

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
CHAT_INPUT, USER_MENU, MESSAGE_MENU = 1, 2, 3
KINDS = {
    3: "text",
    4: "whole number",
    5: "true/false",
    6: "user",
    7: "channel",
    8: "role",
    9: "user or role",
    10: "number",
    11: "file",
}

HEADER = f"""\
# Commands

Every slash command, its options and what each is for, in English and in German (a German
Discord client shows the German names). Generated from the bot's command tree by `make docs`
(`{COMMAND}`); do not edit it by hand: a test compares it with the code.
[playing.md](playing.md) tells how the commands work together at the table.
"""


async def build_payload() -> list[dict[str, Any]]:
    """The payload a sync would send, built as the bot builds it, on a scratch database."""
    async with loaded_bot() as bot:
        return await bot.command_payload()


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _german(item: dict[str, Any], key: str) -> str:
    return item.get(f"{key}_localizations", {}).get(LANGUAGE, item[key])


def _values(option: dict[str, Any]) -> str:
    """What the option takes: its kind, its range or length, its choices."""
    parts = [KINDS.get(option["type"], "value")]
    if "min_value" in option or "max_value" in option:
        parts.append(f"{option.get('min_value', '…')} to {option.get('max_value', '…')}")
    if option.get("max_length"):
        parts.append(f"up to {option['max_length']} characters")
    if option.get("choices"):
        parts.append(
            ", ".join(f"`{c['name']}` (`{_german(c, 'name')}`)" for c in option["choices"])
        )
    if option.get("autocomplete"):
        parts.append("suggested as you type")
    return _cell("; ".join(parts))


def _options_table(options: list[dict[str, Any]]) -> list[str]:
    if not options:
        return ["No options."]
    lines = [
        "| Option | Deutsch | Takes | What it is for | Wofür |",
        "|---|---|---|---|---|",
    ]
    for option in options:
        required = " (required)" if option.get("required") else ""
        lines.append(
            f"| `{option['name']}`{required} | `{_german(option, 'name')}` | {_values(option)} "
            f"| {_cell(option['description'])} | {_cell(_german(option, 'description'))} |"
        )
    return lines


def _leaves(
    item: dict[str, Any], path: tuple[str, ...], german: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], tuple[str, ...], dict[str, Any]]]:
    """Every command a user types, and every group of them: the item, then its subcommands."""
    path, german = (*path, item["name"]), (*german, _german(item, "name"))
    yield path, german, item
    for sub in item.get("options", []):
        if sub["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP):
            yield from _leaves(sub, path, german)


def _is_group(item: dict[str, Any]) -> bool:
    return any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in item.get("options", []))


def _described(item: dict[str, Any]) -> list[str]:
    """The description in English, then in German on a line of its own."""
    return [f"{_cell(item['description'])}  ", f"*{_cell(_german(item, 'description'))}*", ""]


def _command(item: dict[str, Any], path: tuple[str, ...], german: tuple[str, ...]) -> list[str]:
    """A command a user types (with its options), or a group of them: a heading of its own,
    under its group's."""
    level = "##" if len(path) == 1 else "###"
    lines = [f"{level} /{' '.join(path)} (`/{' '.join(german)}`)", "", *_described(item)]
    if not _is_group(item):
        lines += [*_options_table(item.get("options", [])), ""]
    return lines


def render(payload: list[dict[str, Any]]) -> str:
    """The page for a payload: the chat commands in the order the bot registers them, each
    group's subcommands under it, then the message menus."""
    lines = [HEADER]
    for command in payload:
        if command.get("type", CHAT_INPUT) != CHAT_INPUT:
            continue
        for path, german, item in _leaves(command, (), ()):
            lines += _command(item, path, german)
    menus = [c for c in payload if c.get("type") in (USER_MENU, MESSAGE_MENU)]
    if menus:
        lines += ["## Apps menu", "", "Right-click a message (on a phone: hold it) > **Apps**.", ""]
        for menu in menus:
            lines += [f"- **{menu['name']}** (**{_german(menu, 'name')}**)"]
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    page = render(asyncio.run(build_payload()))
    if "--check" in argv:
        if PAGE.read_text(encoding="utf-8") != page:
            print(f"docs/commands.md is out of date: run `make docs` ({COMMAND}).")
            return 1
        return 0
    PAGE.write_text(page, encoding="utf-8")
    print(f"{PAGE.relative_to(ROOT)} written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
