"""docs/commands.md is the command tree's: a command, option or description (English or German)
changed in the code and not on the page fails here, naming the one command that fixes it."""

from __future__ import annotations

import difflib

from tools.commands_doc import COMMAND, PAGE, build_payload, render


async def test_the_command_reference_is_the_command_tree():
    expected = render(await build_payload())
    shown = PAGE.read_text(encoding="utf-8")
    if shown != expected:
        diff = "".join(
            list(
                difflib.unified_diff(
                    shown.splitlines(True), expected.splitlines(True), "page", "code", n=0
                )
            )[:40]
        )
        raise AssertionError(
            f"docs/commands.md differs from the command tree: run `make docs` ({COMMAND}) and "
            f"commit the page.\n{diff}"
        )


async def test_the_page_names_every_command_option_and_description_in_both_languages():
    """What the layout must keep, whatever it looks like: a change here is a change a reader
    of either language would see."""
    payload = await build_payload()
    page = render(payload)

    def walk(item):
        yield item
        for option in item.get("options", []):
            yield from walk(option)

    for command in payload:
        for item in walk(command):
            for key in ("name", "description"):
                if key not in item:
                    continue
                assert item[key].replace("|", "\\|") in page, item[key]
                german = item.get(f"{key}_localizations", {}).get("de")
                if german:
                    assert german.replace("|", "\\|") in page, german


async def test_a_changed_description_changes_the_page():
    payload = await build_payload()
    before = render(payload)
    payload[0]["options"][0]["description_localizations"]["de"] = "Etwas anderes"
    assert render(payload) != before
