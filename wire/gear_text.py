"""A character's items as lines of text, for the gear's Edit form: one item a line.

    2 x Rope; 1.5 kg: hemp, 10 m
    Tent; 9 kg; stored
    Letter

`N x` is the quantity (1 without it), then the name; after `;` the weight of one in kg (a comma
or a point for the decimals, so a German "1,5 kg" reads too) and `stored` (German
`eingelagert`) for an item kept elsewhere; after the first `:` a note. A name therefore holds
no `;` nor `:`. The lines read back to the same items (`items_text` then `parse_items`).
"""

from __future__ import annotations

import re
from decimal import Decimal

from wire import i18n
from wire.errors import RulesError
from wire.gear import GRAMS_PER_KG, MAX_ITEMS, MAX_QUANTITY, Item, parse_kg
from wire.i18n import N_, tr
from wire.limits import NAME_MAX

GEAR_TEXT_MAX = 4000
"""A form's text input holds at most 4,000 characters (Discord's limit)."""
STORED = N_("stored")
_QUANTITY = re.compile(r"^\s*(\d+)\s*[x×]\s+(.+)$", re.IGNORECASE)


def _weight(grams: int) -> str:
    """ "1.5 kg" ("1,5 kg" in German), never with a thousands separator that would read back
    as decimals."""
    text = format((Decimal(grams) / GRAMS_PER_KG).normalize(), "f")
    return (text.replace(".", ",") if i18n.language() == "de" else text) + " kg"


def item_line(item: Item) -> str:
    line = f"{item.quantity} x {item.name}"
    if item.grams:
        line += f"; {_weight(item.grams)}"
    if not item.carried:
        line += f"; {tr(STORED)}"
    if item.note:
        line += f": {item.note}"
    return line


def items_text(items: list[Item] | tuple[Item, ...]) -> str:
    return "\n".join(item_line(item) for item in items)


def _stored_words() -> set[str]:
    words = {STORED}
    for lang in i18n.LANGUAGES:
        with i18n.speaking(lang):
            words.add(tr(STORED))
    return {w.casefold() for w in words}


def parse_items(text: str) -> list[Item]:
    """The items the lines name, or RulesError naming the line and what to write."""
    items: list[Item] = []
    seen: set[str] = set()
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > MAX_ITEMS:
        raise RulesError(tr("A character keeps at most {limit} different items.", limit=MAX_ITEMS))
    for number, line in enumerate(lines, 1):
        item = _parse_line(line, number)
        if item.name.casefold() in seen:
            raise RulesError(
                tr(
                    "Line {line}: {name} is listed twice; add the quantities up.",
                    line=number,
                    name=item.name,
                )
            )
        seen.add(item.name.casefold())
        items.append(item)
    return items


def _parse_line(line: str, number: int) -> Item:
    head, _, note = line.partition(":")
    parts = [p.strip() for p in head.split(";")]
    quantity, name = 1, parts[0]
    found = _QUANTITY.match(parts[0])
    if found:
        quantity, name = int(found[1]), found[2].strip()
    if not name or len(name) > NAME_MAX or not 1 <= quantity <= MAX_QUANTITY:
        raise RulesError(
            tr(
                "Line {line}: write a quantity of 1 to {most} and a name of up to {length} "
                "characters, e.g. 2 x Rope; 1.5 kg: hemp.",
                line=number,
                most=MAX_QUANTITY,
                length=NAME_MAX,
            )
        )
    grams, carried = 0, True
    for part in parts[1:]:
        if part.casefold() in _stored_words():
            carried = False
        elif part:
            try:
                grams = parse_kg(part)
            except RulesError as exc:
                raise RulesError(tr("Line {line}: {problem}", line=number, problem=exc)) from None
    return Item(name, quantity, grams, note.strip(), carried)
