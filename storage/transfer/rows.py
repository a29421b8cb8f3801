"""An import's sheets as the rows its statements take: each table's rows as one JSON text, so
the write is a handful of statements whatever the import's size."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import NamedTuple

from storage.backend import Params, Transaction
from wire.sheet import Character


class ImportRows(NamedTuple):
    """An import's rows as JSON texts, one per table, for the import_* statements."""

    keys: str
    characters: str
    stats: str
    weapons: str


def import_rows(sheets: Sequence[Character]) -> ImportRows:
    """Built before the write's transaction, so the lock is held for the database's work only."""
    characters, stats, weapons = [], [], []
    for sheet in sheets:
        key = sheet.name.casefold()
        characters.append(
            [
                sheet.name,
                key,
                int(sheet.is_npc),
                int(sheet.shield),
                sheet.notes,
                sheet.armour,
                sheet.wp_max,
                sheet.hp_max,
                sheet.thp_max,
            ]
        )
        table = [("attribute", *item) for item in sheet.attributes.items()]
        table += [("skill", *item) for item in sheet.skills.items()]
        stats += [
            [key, kind, name.casefold(), name, value, position]
            for position, (kind, name, value) in enumerate(table, 1)
        ]
        weapons += [
            [key, w.name.casefold(), w.name, w.base, w.attribute, w.skill, position, w.kind]
            for position, w in enumerate(sheet.weapons, 1)
        ]

    return ImportRows(import_keys(sheets), _text(characters), _text(stats), _text(weapons))


def import_keys(sheets: Sequence[Character]) -> str:
    """The sheets' name keys as one JSON text, for the import_clashes statement: small enough to
    make on the event loop (a 1,000-sheet import's in well under a millisecond)."""
    return _text([sheet.name.casefold() for sheet in sheets])


def _text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


async def import_portraits(
    tx: Transaction, campaign_id: int, sheets: Sequence[Character], replaced: Params | None
) -> None:
    """The imported sheets' portraits: a replaced sheet's portrait is the file's (or none)."""
    if replaced is not None:
        await tx.execute("import_clear_portraits", replaced)
    portraits = [
        {"campaign_id": campaign_id, "name_key": s.name.casefold(), "portrait": s.portrait}
        for s in sheets
        if s.portrait
    ]
    if portraits:
        await tx.executemany("import_portrait", portraits)
