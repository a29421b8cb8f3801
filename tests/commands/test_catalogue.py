"""The message template is current: every message in the code and every command's name and
description is in wire/locales/wire.pot (so in every catalogue test), as `make messages`
would write it."""

from __future__ import annotations

from babel.messages.pofile import read_po

from tools import catalogue


async def test_the_template_holds_every_message_of_the_code_and_the_commands():
    with catalogue.TEMPLATE.open("rb") as pot:
        stored = {(m.context, m.id) for m in read_po(pot) if m.id}
    current = {
        (m.context, m.id) for m in catalogue.template(await catalogue.command_messages()) if m.id
    }
    assert current - stored == set(), "run `make messages` and translate what it adds"
    assert stored - current == set(), "run `make messages` to drop what the code no longer has"
