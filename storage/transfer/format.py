"""The export format's constants: its name and versions, the fields each object may have, and
the limits of an import file. Every module of storage/transfer/ reads them here.

Format version 2: version 1 with character points added (the campaign's skill categories and
prices, and the ledger: storage/transfer/advancement.py); a version 1 file still imports, as
the same document without them, and an export without character points is written as version
1, exactly as before. Format version 3 adds gear (items, purse, counters and the campaign's
currency: storage/transfer/gear.py) the same way: a file without gear is written as version 1
or 2, and every earlier version still imports. Version 4 adds a campaign's named conditions
(storage/transfer/conditions.py) and its sessions (storage/transfer/sessions.py) the same way
again, and version 5 the conditions on a sheet (a character's "conditions", below). A character
export::

    {
      "format": "wire-bot",
      "version": 1,
      "kind": "character",
      "exported_at": "2026-11-30T12:00:00Z",
      "character": CHARACTER
    }

A campaign export::

    {
      "format": "wire-bot",
      "version": 1,
      "kind": "campaign",
      "exported_at": "2026-11-30T12:00:00Z",
      "campaign": {"name": "Night Market", "npc_take10": true},
      "characters": [CHARACTER, ...]
    }

where CHARACTER is::

    {
      "name": "Ash",                          required; 1-64 characters, one line (*)
      "is_npc": false,                        optional, default false
      "attributes": {"Strength": 3},          optional; at most 20; values -10..30
      "skills": {"Parry": 4},                 optional; at most 60; values 0..10
      "weapons": [                            optional; at most 10
        {"name": "Sabre", "base": 4, "attribute": "Strength", "skill": "Melee weapons"}
      ],                                      base 0..50; these four fields required
      "shield": false,                        optional, default false
      "notes": "",                            optional; at most 1000 characters (*)
      "armour": 0,                            optional, default 0; 0..50 (a table setting)
      "wp_max": 0,                            optional, default 0 (willpower not tracked)
      "hp_max": null, "thp_max": null         optional overrides, 0..999 (null: worked out)
      "portrait": "https://..."               optional; an https link, at most 512 characters
    }

A character may also have "saved_rolls" (at most 25): each {"name": "climb", "command":
{"name": "check", "options": {"attr_name": "Dexterity", "skill_name": "Climbing"}}, "label": ""},
the command and options /r runs again (option values are text, whole numbers or true/false); a
file without them imports as before, and an import that has them replaces the sheet's own.

From version 5 a character may also have "conditions" (at most 10): the conditions on the sheet
outside a fight, each as a campaign's named condition is written (storage/transfer/conditions.py)
with, on a hidden one, "hidden": true; a name may come twice, as on a sheet. A file written by a
player never holds hidden ones; an import that lists them replaces the sheet's own (those a
player may not see stay), and one whose entry has none keeps the sheet's.

A weapon may also have "kind": "lethal" (the default), "non-lethal" or "mental". These fight
fields came after version 1's first files, as optional fields, so every earlier file still
reads; an export writes them only where they differ from the default. "portrait" came the same
way (storage/portraits.py checks it as the bot does on arrival): a sheet without one exports
exactly as before, so the bots that read version 1 before portraits still read it; the
version stays 1, since a new number would make every export unreadable to them, portrait or not.

(*) Text is stored NFC-normalised and without surrounding spaces; control and format characters
(invisible or direction-changing ones) are refused, but for line breaks in notes.

`exported_at` and the whole `campaign` object (and each of its fields) are optional. Names are
unique case-insensitively (characters within the file, stats and weapons within a character).
Unknown fields are errors, so a typo ("skils") is reported rather than silently dropped. Owners,
ids, crafting projects and the roll log are not exported: an import lands in the importing
server's campaign, owned by the importing user. Input is capped at 1 MiB and 1,000 characters.

Every problem is reported with its path, but the reading stops at the first limit passed (the
size, the number of characters, a sheet's number of attributes, skills or weapons, and
MAX_IMPORT_PROBLEMS problems), so an oversized file costs no more than reading up to the limit.
Numbers are never longer than the largest value allowed (three digits) nor NaN or Infinity: such
a number is refused where it stands, and is never made into a Python int (5,000 digits would
make json.loads raise).

A reader of version N accepts the versions it can convert (READ_VERSIONS); a later format gets a
new number and this package a converter from the old one.
"""

from __future__ import annotations

from storage.transfer.gear import MAX_REVISION
from wire import limits
from wire.conditions import MAX_CONDITIONS
from wire.gear import MAX_AMOUNT, MAX_COUNTERS, MAX_ITEMS
from wire.health import DamageKind
from wire.limits import BASE_MAX, BASE_MIN, MAX_WEAPONS, SKILL_MAX, SKILL_MIN, STAT_MAX, STAT_MIN

FORMAT = "wire-bot"
VERSION = 5
READ_VERSIONS = (1, 2, 3, 4, 5)
"""Version 1 is version 2 without character points (storage/transfer/advancement.py); version
2 is version 3 without gear (storage/transfer/gear.py); version 3 is version 4 without named
conditions and sessions (storage/transfer/conditions.py, storage/transfer/sessions.py); version
4 is version 5 without the conditions on sheets."""
POINTS_VERSION = 2
"""The first version with character points."""
GEAR_VERSION = 3
"""The first version with gear."""
SESSIONS_VERSION = 4
"""The first version with named conditions and sessions."""
SHEET_CONDITIONS_VERSION = 5
"""The first version with a sheet's conditions. A new number, not an optional field of version
4: a reader refuses a field it does not know ("characters[0].conditions: unknown field", as if
the file were broken), so such a file never read in a version 4 bot; with its own number that
bot says the file is newer than it reads, and every version 4 file still reads in every version
4 bot. A file without them is written as version 4 or lower, exactly as before."""
KINDS = ("character", "campaign")
MAX_IMPORT_BYTES = 1024 * 1024
MAX_IMPORT_CHARACTERS = 1000
MAX_IMPORT_PROBLEMS = 100
"""Past this many problems the file is not worth reading further."""
MAX_IMPORT_SESSIONS = 500
"""Sessions a campaign file may hold: ten years of weekly evenings."""
MAX_IMPORT_ANSWERS = 50
"""Answers one session may hold: more players than any table has."""
MAX_IMPORT_CONDITIONS = 25
"""Named conditions a campaign file may hold (storage/rules_conditions.py keeps as many)."""
LONGEST_NUMBER = max(
    len(str(abs(n)))
    for n in (
        VERSION,
        STAT_MIN,
        STAT_MAX,
        SKILL_MIN,
        SKILL_MAX,
        BASE_MIN,
        BASE_MAX,
        limits.HEALTH.high,
        limits.ARMOUR.high,
        MAX_AMOUNT,
        MAX_REVISION,
    )
)
"""Digits of the largest value any number in the format may take; a longer one is refused."""
MAX_SAVED_ROLLS = 25
"""Saved rolls per character (storage/rules_saved.py keeps the same limit)."""
MAX_SAVED_OPTIONS = 25
"""Options of one saved roll's command: more than any command has."""
MAX_IMPORT_OBJECTS = (
    2
    + MAX_IMPORT_CHARACTERS
    * (3 + MAX_WEAPONS + 3 * MAX_SAVED_ROLLS + 2 + MAX_ITEMS + MAX_COUNTERS + MAX_CONDITIONS)
    + 1
    + MAX_IMPORT_CONDITIONS
    + MAX_IMPORT_SESSIONS * (1 + MAX_IMPORT_ANSWERS)
)
"""The most JSON objects a valid file holds: the document, the campaign, and per character the
sheet, its attributes, its skills, its weapons, its saved rolls (each with its command and
options), its gear (its purse, items and counters) and its conditions; the campaign's session
settings and named conditions, and each session with its answers. Counting them stops a file of
a million `{}` while it is parsed, before it costs a million Python dicts."""

HEADER_FIELDS = ("format", "version", "kind", "exported_at")
BODY_FIELDS = {"character": ("character",), "campaign": ("campaign", "characters")}
CAMPAIGN_FIELDS = ("name", "npc_take10")
SESSIONS_FIELDS = ("conditions", "session_settings")
"""The campaign object's fields from version 4 on; the document's is "sessions"."""
CHARACTER_FIELDS = (
    "name",
    "is_npc",
    "attributes",
    "skills",
    "weapons",
    "shield",
    "notes",
    "armour",
    "wp_max",
    "hp_max",
    "thp_max",
    "portrait",
    "saved_rolls",
)
GEAR_FIELD = ("gear",)
"""A sheet's field from version 3 on (storage/transfer/gear.py)."""
SHEET_CONDITIONS_FIELD = ("conditions",)
"""A sheet's field from version 5 on (storage/transfer/conditions.py)."""
SAVED_FIELDS = ("name", "command", "label")
COMMAND_FIELDS = ("name", "options")
WEAPON_FIELDS = ("name", "base", "attribute", "skill", "kind")
DAMAGE_KINDS = tuple(kind.value for kind in DamageKind)
