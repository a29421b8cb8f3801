"""Export and import of characters and campaigns as versioned JSON: the format and its checks,
pure functions without a database but for rows.py and writing.py (the store,
storage/rules_transfer.py, calls them).

One module a part:

| module | holds |
|---|---|
| `format.py` | the format's name, versions, fields and an import's limits (the format described) |
| `export.py` | the export documents, written with the lowest version that holds them |
| `document.py` | an import file checked whole: header, then a character's or campaign's body |
| `reading.py` | the raw input read into JSON within its limits |
| `checker.py`, `problems.py` | the checker, and a problem's path and phrase |
| `sheets.py`, `saved.py` | a sheet, its saved rolls |
| `advancement.py`, `gear.py` | character points (version 2), gear (version 3) |
| `conditions.py`, `sessions.py` | named conditions, sessions (version 4); sheets' conditions (5) |
| `plan.py` | the validated import the store writes |
| `rows.py`, `writing.py` | the database side: the sheets' rows; conditions and sessions |
"""

from storage.transfer.document import check_import, parse_import, read_import
from storage.transfer.export import campaign_document, character_data, character_document
from storage.transfer.format import (
    FORMAT,
    MAX_IMPORT_BYTES,
    MAX_IMPORT_CHARACTERS,
    MAX_IMPORT_OBJECTS,
    MAX_IMPORT_PROBLEMS,
    READ_VERSIONS,
    VERSION,
)
from storage.transfer.plan import ImportPlan, SavedData
from storage.transfer.problems import ImportProblem

__all__ = [
    "FORMAT",
    "MAX_IMPORT_BYTES",
    "MAX_IMPORT_CHARACTERS",
    "MAX_IMPORT_OBJECTS",
    "MAX_IMPORT_PROBLEMS",
    "READ_VERSIONS",
    "VERSION",
    "ImportPlan",
    "ImportProblem",
    "SavedData",
    "campaign_document",
    "character_data",
    "character_document",
    "check_import",
    "parse_import",
    "read_import",
]
