"""A sheet's attributes and skills as one line of text, and the typo check on stat names.

`Strength 3, Reaction 2; Long swords 5, Parry 3 (combat)`: attributes before the `;`, skills
after it, commas (or line breaks) between entries, each entry a name then a whole number; a
skill may end in its category in brackets (English or German: `(combat)`, `(Kampf)`), which
prices it (wire/advancement.py). A player types
a whole sheet in one command, and the Edit form shows the same text to change it; so the text
must read back exactly as it was written (`sheet_text` then `read_sheet` gives the same sheet).

Every problem is collected before anything is refused, so one reply names them all. A name close
to a known one ("Strenght" for "Strength") is refused as a likely typo unless the user says the
name is new: a typo would otherwise become a second attribute that every roll reads as 0.

Pure: no Discord and no database, so the rules are tested alone (tests/wire) and the cogs only
show results.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from wire import limits
from wire.advancement import Category, category_of
from wire.errors import RulesError
from wire.i18n import N_, tr
from wire.limits import MAX_ATTRIBUTES, MAX_SKILLS, NAME_MAX
from wire.textcheck import clip, normal_text, text_problem

SHEET_TEXT_MAX = 4000
"""The longest sheet text: what Discord's form takes (a modal's text input, 4,000 characters;
cogs/utils/discord_limits.py, a test holds the two equal), so a created sheet can be edited too."""
EXAMPLE = N_("Strength 3, Reaction 2; Long swords 5, Parry 3")
SEPARATORS = ",;"
"""What splits the text; a stat name holding one cannot be written as sheet text."""

_ENTRY = re.compile(r"(?P<name>.+?)\s+(?P<value>[-+\u2212]?[0-9]+)(?:\s*\((?P<category>[^()]*)\))?")
"""A name, whitespace, a whole number, and perhaps a category in brackets. The name is the
shortest that leaves a number at the end, so a name may hold spaces and numbers of its own
("Language 2 4": Language 2 at 4), and brackets before the number ("Lore (elves) 2")."""
QUOTES = ('""', "''", "\u201c\u201d", "\u2018\u2019", "\u00ab\u00bb")
_NUMBERS = re.compile(r"[0-9]+")
_SECTIONS = (
    ("attribute", limits.ATTRIBUTE, MAX_ATTRIBUTES),
    ("skill", limits.SKILL, MAX_SKILLS),
)
SHOWN_NAME = 40
"""A name quoted in a problem is cut to this, so one long entry cannot crowd out the rest."""


class SheetTextError(ValueError):
    """The text cannot be a sheet; `problems` names each bad part (form first, then spelling)."""

    def __init__(self, problems: list[str], *, near_names: bool = False) -> None:
        self.problems = problems
        self.near_names = near_names
        """Whether some problem is a did-you-mean, which the user may override."""
        super().__init__("; ".join(problems))


@dataclass(frozen=True, slots=True)
class SheetStats:
    """A sheet's attributes and skills, in the order written."""

    attributes: dict[str, int]
    skills: dict[str, int]
    categories: dict[str, Category] = field(default_factory=dict)
    """The categories written after skills ("Parry 3 (combat)"), by the skill's name."""


def sheet_text(
    attributes: dict[str, int],
    skills: dict[str, int],
    categories: Mapping[str, Category] | None = None,
) -> str:
    """The sheet as text `read_sheet` reads back to the same stats ("" for an empty sheet);
    with `categories` (the campaign's, any case), each skill that has one carries it, named in
    the language in use."""
    attrs = ", ".join(f"{name} {value}" for name, value in attributes.items())
    if not skills:
        return attrs
    folded = {name.casefold(): category for name, category in (categories or {}).items()}

    def skill(name: str, value: int) -> str:
        category = folded.get(name.casefold())
        return f"{name} {value} ({category.label})" if category else f"{name} {value}"

    return f"{attrs}; " + ", ".join(skill(name, value) for name, value in skills.items())


def unwritable(names: Iterable[str]) -> list[str]:
    """Names the sheet text cannot hold: a comma or semicolon would split them."""
    return [name for name in names if any(sep in name for sep in SEPARATORS)]


def read_sheet(
    text: str,
    *,
    known_attributes: Iterable[str] = (),
    known_skills: Iterable[str] = (),
    new_names: bool = False,
) -> SheetStats:
    """The stats the text gives, or SheetTextError naming every problem at once.

    A name matching a known one but for case takes the known spelling ("strength" becomes
    "Strength"); one close to a known one is a problem unless `new_names`.
    """
    parsed, problems = parse_sheet(text)
    found = len(problems)
    attributes = _spelled(parsed.attributes, list(known_attributes), new_names, problems)
    skills = _spelled(parsed.skills, list(known_skills), new_names, problems)
    written = {name.casefold(): category for name, category in parsed.categories.items()}
    checked = SheetStats(
        attributes,
        skills,
        # A known spelling differs only by case, so the category follows its skill.
        {name: written[name.casefold()] for name in skills if name.casefold() in written},
    )
    if problems:
        raise SheetTextError(problems, near_names=len(problems) > found)
    return checked


def parse_sheet(text: str) -> tuple[SheetStats, list[str]]:
    """The stats as written and the problems of form, ranges and counts (no spelling check)."""
    problems: list[str] = []
    sections = _unquoted(normal_text(text)).split(";")
    if len(sections) > 2:
        problems.append(
            tr(
                "{count} semicolons: use one, between the attributes and the skills",
                count=len(sections) - 1,
            )
        )
    parts = (sections[0], ",".join(sections[1:]))
    tables: list[dict[str, int]] = []
    categories: dict[str, Category] = {}
    for part, (kind, limit, most) in zip(parts, _SECTIONS, strict=True):
        table: dict[str, int] = {}
        seen: set[str] = set()
        for entry in filter(None, (e.strip() for e in re.split(r"[,\n]", part))):
            read = _entry(entry, kind, limit, problems)
            if read is None:
                continue
            name, value, category = read
            if name.casefold() in seen:
                problems.append(tr("{name} is listed twice", name=_shown(name)))
                continue
            seen.add(name.casefold())
            table[name] = value
            if category is not None:
                categories[name] = category
        if len(table) > most:
            problems.append(
                tr("{count} attributes: a sheet holds at most {most}", count=len(table), most=most)
                if kind == "attribute"
                else tr("{count} skills: a sheet holds at most {most}", count=len(table), most=most)
            )
        tables.append(table)
    return SheetStats(*tables, categories), problems


def _entry(
    entry: str, kind: str, limit: limits.Limit, problems: list[str]
) -> tuple[str, int, Category | None] | None:
    match = _ENTRY.fullmatch(entry)
    if match is None:
        if len(entry.split()) > 1:
            problems.append(tr("'{entry}': the value must be a number", entry=_shown(entry)))
        else:
            problems.append(
                tr("'{entry}': no value; write the name, then a number", entry=_shown(entry))
            )
        return None
    name, digits = match["name"].strip(), match["value"].replace("\u2212", "-")
    problem = text_problem(name, NAME_MAX)
    if problem:
        problems.append(tr("'{name}': the name {problem}", name=_shown(name), problem=problem))
        return None
    # Three digits are past every range; more are not worth turning into a number.
    value = int(digits) if len(digits.lstrip("+-")) <= 3 else None
    if value is None or not limit.low <= value <= limit.high:
        params = {"name": _shown(name), "value": digits, "low": limit.low, "high": limit.high}
        problems.append(
            tr("{name} {value}: attributes go {low} to {high}", **params)
            if kind == "attribute"
            else tr("{name} {value}: skills go {low} to {high}", **params)
        )
        return None
    written = match["category"]
    if written is None:
        return name, value, None
    if kind == "attribute":
        problems.append(
            tr(
                "{name} ({category}): only skills have a category; write the attribute "
                "without brackets",
                name=_shown(name),
                category=_shown(written),
            )
        )
        return None
    try:
        return name, value, category_of(written)
    except RulesError as error:
        problems.append(str(error))
        return None


def _spelled(
    table: dict[str, int], known: list[str], new_names: bool, problems: list[str]
) -> dict[str, int]:
    spelled: dict[str, int] = {}
    for name, value in table.items():
        same = known_spelling(name, known)
        if same is None and not new_names:
            close = near_name(name, known)
            if close is not None:
                problems.append(tr("{name}: did you mean {close}?", name=_shown(name), close=close))
        spelled[same or name] = value
    return spelled


def known_spelling(name: str, known: Iterable[str]) -> str | None:
    """The known name `name` is, but for case ("strength": "Strength"), or None."""
    folded = name.casefold()
    return next((k for k in known if k.casefold() == folded), None)


def near_name(name: str, known: Iterable[str]) -> str | None:
    """The known name `name` is likely a typo of, or None (also when it is one of them).

    Close means one edit apart (a letter added, dropped, changed, or two swapped), or two for
    names of 8 letters or more, ignoring case. Names under 4 letters are never close (tables
    abbreviate: STR and STA are different attributes), nor are names with different numbers in
    them (Language 1 and Language 2).
    """
    folded = name.casefold()
    if len(folded) < 4:
        return None
    numbers = _NUMBERS.findall(folded)
    best: tuple[int, str] | None = None
    for candidate in known:
        other = candidate.casefold()
        if other == folded:
            return None
        if len(other) < 4 or _NUMBERS.findall(other) != numbers:
            continue
        most = 1 if min(len(folded), len(other)) < 8 else 2
        if abs(len(folded) - len(other)) > most:
            continue
        distance = edit_distance(folded, other)
        if distance <= most and (best is None or distance < best[0]):
            best = (distance, candidate)
    return best[1] if best else None


def edit_distance(a: str, b: str) -> int:
    """Edits from `a` to `b`: insertions, deletions, substitutions and swaps of neighbours
    (optimal string alignment, the Damerau-Levenshtein distance typists' slips follow)."""
    before: list[int] | None = None
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if before is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], before[j - 2] + 1)
        before, previous = previous, current
    return previous[len(b)]


def _unquoted(text: str) -> str:
    """The text without quotes around it all: an example copied with its quotes still reads."""
    for first, last in QUOTES:
        if len(text) > 1 and text[0] == first and text[-1] == last:
            return text[1:-1].strip()
    return text


def _shown(text: str) -> str:
    return clip(text, SHOWN_NAME)
