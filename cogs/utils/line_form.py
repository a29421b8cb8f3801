"""A form of one line of text: the Save button's name, the CP Refuse button's reason.

Stateless, as every form of the bot: its custom id names what it is for, it is stopped before
it is sent, and a cog answers its submit from `on_interaction` (`WireBot.add_form`), after a
restart too.
"""

from __future__ import annotations

from typing import Any

import discord

from wire.textcheck import clip

MODAL_TITLE_MAX = 45
"""Discord's limit on a form's title."""


def line_form(
    title: str,
    custom_id: str,
    label: tuple[str, str, str],
    *,
    max_length: int,
    default: str | None = None,
    required: bool = True,
) -> discord.ui.Modal:
    """A stopped form of one short text input: `label` is (the label, its description, the
    input's custom id); a required input needs at least one character."""
    text, description, input_id = label
    form = discord.ui.Modal(title=clip(title, MODAL_TITLE_MAX), custom_id=custom_id)
    form.add_item(
        discord.ui.Label(
            text=text,
            description=description,
            component=discord.ui.TextInput(
                custom_id=input_id,
                style=discord.TextStyle.short,
                default=default,
                required=required,
                min_length=1 if required else None,
                max_length=max_length,
            ),
        )
    )
    form.stop()
    return form


def submitted(data: dict[str, Any] | None) -> dict[str, Any]:
    """Each input's value by its custom id, in a submitted form (labels, action rows)."""
    found: dict[str, Any] = {}

    def walk(components: list[dict[str, Any]]) -> None:
        for component in components:
            if "components" in component:
                walk(component["components"])
            elif "component" in component:
                walk([component["component"]])
            elif "custom_id" in component:
                found[component["custom_id"]] = component.get("value")

    walk((data or {}).get("components") or [])
    return found
