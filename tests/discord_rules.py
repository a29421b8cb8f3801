"""Discord's documented limits, as a checker for the JSON the bot sends.

Pure Python (no discord import), so unit tests and end-to-end tests can both use it:

* ``command_problems(payload)``: one bulk-overwrite payload of application commands (one scope:
  the global list, or one guild's list), e.g. ``[c.to_dict(tree) for c in tree.get_commands()]``
  with discord.py 2.7 (``to_dict`` takes the tree), or the JSON body of the
  ``PUT /applications/{id}/commands`` request a bot makes when it syncs.
* ``embed_problems(embed)``: one embed dict (``discord.Embed.to_dict()``).
* ``autocomplete_problems(choices)``: the choices a bot answers an autocomplete with.
* ``message_problems(message)``: one message body (content, embeds, components, flags); an
  interaction callback body ``{"type": 4, "data": {...}}`` is unwrapped to its ``data``.

Every function returns a list of human-readable problems; an empty list means Discord would
accept it as far as these rules go.  ``located_embed_problems`` and ``located_message_problems``
find the same problems as ``Problem`` objects that also carry where in the body each one is and
Discord's error code for it: the end-to-end stand-in (``tests/e2e/``) builds its 400 Invalid
Form Body answers from them, so one set of limits serves both.

Sources: Discord's developer documentation (discord/discord-api-docs), pages
"Application Commands" (docs/interactions/application-commands.mdx), "Message" (embed limits)
and "Message Components".
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

# --------------------------------------------------------------------------- constants

CHAT_INPUT, USER, MESSAGE, PRIMARY_ENTRY_POINT = 1, 2, 3, 4
COMMAND_TYPE_NAMES = {
    CHAT_INPUT: "CHAT_INPUT",
    USER: "USER",
    MESSAGE: "MESSAGE",
    PRIMARY_ENTRY_POINT: "PRIMARY_ENTRY_POINT",
}
# "An app can have the following number of commands: 100 global CHAT_INPUT commands, 5 global
# USER commands, 5 global MESSAGE commands, 1 global PRIMARY_ENTRY_POINT command", and the same
# number of guild commands per guild (except PRIMARY_ENTRY_POINT, which cannot be a guild command).
MAX_COMMANDS_PER_TYPE = {CHAT_INPUT: 100, USER: 5, MESSAGE: 5, PRIMARY_ENTRY_POINT: 1}

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER_OPTION, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)
OPTION_TYPE_NAMES = {
    SUB_COMMAND: "SUB_COMMAND",
    SUB_COMMAND_GROUP: "SUB_COMMAND_GROUP",
    STRING: "STRING",
    INTEGER: "INTEGER",
    BOOLEAN: "BOOLEAN",
    USER_OPTION: "USER",
    CHANNEL: "CHANNEL",
    ROLE: "ROLE",
    MENTIONABLE: "MENTIONABLE",
    NUMBER: "NUMBER",
    ATTACHMENT: "ATTACHMENT",
}
CHOICE_TYPES = (STRING, INTEGER, NUMBER)

NAME_MAX = 32
DESCRIPTION_MAX = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
CHOICE_NAME_MAX = 100
CHOICE_STRING_VALUE_MAX = 100
STRING_LENGTH_MAX = 6000  # min_length 0..6000, max_length 1..6000
INTEGER_LIMIT = 2**53 - 1  # INTEGER: "Any integer between -2^53+1 and 2^53-1"
NUMBER_LIMIT = 2**53  # NUMBER: "Any double between -2^53 and 2^53"

# Per-command size limit. The issue we work from says 8,000. Discord's current documentation
# (discord/discord-api-docs, docs/interactions/application-commands.mdx, section "Slash Commands")
# says: "Slash commands can have a maximum of 8000 characters for combined name, description, and
# value properties for each command, its options (including subcommands and groups), and choices.
# When localization fields are present, only the longest localization for each field (including
# the default value) is counted towards the size limit."  Older versions of that page (and
# libraries copied from them) said 4000; the documented figure today is 8000.
COMMAND_CHARACTER_LIMIT = 8000

# Keys allowed in name_localizations / description_localizations (Discord's "Locales" reference).
LOCALES = frozenset(
    {
        *("id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt"),
        *("hu", "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el"),
        *("bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"),
    }
)

# Embeds ("Embed Limits" in the Message resource page).
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_MAX_FIELDS = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_TEXT_MAX = 2048
EMBED_AUTHOR_NAME_MAX = 256
EMBED_TOTAL_MAX = 6000  # title + description + field names/values + footer text + author name
MESSAGE_CONTENT_MAX = 2000
MESSAGE_MAX_EMBEDS = 10
MESSAGE_MAX_ACTION_ROWS = 5
ACTION_ROW_MAX_BUTTONS = 5
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
IS_COMPONENTS_V2 = 1 << 15
ACTION_ROW, BUTTON = 1, 2
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
SELECT_MAX_OPTIONS = 25
STRING_SELECT = 3
LINK_STYLE, PREMIUM_STYLE = 5, 6


# ------------------------------------------------------------------------------- names


def _name_char_allowed(ch: str) -> bool:
    """One character of ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``."""
    if ch in "-_'":
        return True
    if unicodedata.category(ch)[0] in "LN":  # \p{L}: Lu Ll Lt Lm Lo; \p{N}: Nd Nl No
        return True
    code = ord(ch)
    return 0x0900 <= code <= 0x097F or 0x0E00 <= code <= 0x0E7F  # Devanagari, Thai blocks


def name_problems(name: Any, *, chat_input: bool = True) -> list[str]:
    """Problems of one command/option name (without a location prefix).

    ``chat_input=True``: CHAT_INPUT command names and all option names: the regex above, and
    "if there is a lowercase variant of any letters used, you must use those".
    ``chat_input=False``: USER/MESSAGE command names: 1-32 characters, mixed case and spaces ok.
    """
    if not isinstance(name, str):
        return [f"name must be a string, got {type(name).__name__}"]
    if not 1 <= len(name) <= NAME_MAX:
        return [f"name {name!r} must be 1-{NAME_MAX} characters, has {len(name)}"]
    if not chat_input:
        return []
    problems = []
    bad = sorted({ch for ch in name if not _name_char_allowed(ch)})
    if bad:
        problems.append(f"name {name!r} has characters Discord does not allow: {bad!r}")
    upper = sorted({ch for ch in name if ch.lower() != ch})
    if upper:
        problems.append(f"name {name!r} must be lowercase (has {''.join(upper)!r})")
    return problems


def _text_problems(value: Any, what: str, minimum: int, maximum: int) -> list[str]:
    if not isinstance(value, str):
        return [f"{what} must be a string, got {type(value).__name__}"]
    if not minimum <= len(value) <= maximum:
        return [f"{what} must be {minimum}-{maximum} characters, has {len(value)}"]
    return []


def _localization_problems(
    node: Mapping[str, Any], where: str, *, chat_input: bool, choice: bool = False
) -> list[str]:
    """``name_localizations`` / ``description_localizations``: same rules as the default."""
    problems: list[str] = []
    keys = ["name_localizations"] + ([] if choice else ["description_localizations"])
    for key in keys:
        table = node.get(key)
        if table is None:
            continue
        if not isinstance(table, Mapping):
            problems.append(f"{where}: {key} must be an object")
            continue
        for locale, text in table.items():
            if locale not in LOCALES:
                problems.append(f"{where}: {key} has unknown locale {locale!r}")
            if key == "name_localizations":
                if choice:  # a choice name: 1-100 characters
                    found = _text_problems(text, "name", 1, CHOICE_NAME_MAX)
                else:  # a command or an option name
                    found = name_problems(text, chat_input=chat_input)
            else:
                found = _text_problems(text, "description", 1, DESCRIPTION_MAX)
            problems += [f"{where}: {key}[{locale}]: {p}" for p in found]
    return problems


def localized_duplicates(siblings: Iterable[Any], where: str) -> list[str]:
    """Names that collide in some locale among siblings (commands of one type, the options of
    one level): a user of that locale sees each sibling's localization, else its default name,
    and Discord refuses two equal ones ("Application command names must be unique")."""
    nodes = [n for n in siblings if isinstance(n, Mapping) and isinstance(n.get("name"), str)]
    locales = {
        locale
        for n in nodes
        if isinstance(n.get("name_localizations"), Mapping)
        for locale in n["name_localizations"]
    }
    problems: list[str] = []
    for locale in sorted(locales):
        seen: set[str] = set()
        for n in nodes:
            table = n.get("name_localizations")
            shown = table.get(locale, n["name"]) if isinstance(table, Mapping) else n["name"]
            if shown in seen:
                problems.append(f"{where}: duplicate name {shown!r} in locale {locale}")
            seen.add(shown)
    return problems


# ------------------------------------------------------------------------- size count


def _longest(node: Mapping[str, Any], key: str) -> int:
    """Length of a field, or of its longest localization when that is longer."""
    default = node.get(key)
    lengths = [len(default) if isinstance(default, str) else len(str(default or ""))]
    table = node.get(f"{key}_localizations")
    if isinstance(table, Mapping):
        lengths += [len(v) for v in table.values() if isinstance(v, str)]
    return max(lengths)


def command_characters(command: Mapping[str, Any]) -> int:
    """Characters counted towards COMMAND_CHARACTER_LIMIT for one command.

    Name and description of the command and of every option (subcommands and groups too,
    recursively), and the name and value of every choice; for each field only its longest
    localization (default included) counts. Numeric choice values count as their decimal text.
    """
    total = _longest(command, "name") + _longest(command, "description")
    for option in command.get("options") or []:
        if not isinstance(option, Mapping):
            continue
        total += command_characters(option)
        for choice in option.get("choices") or []:
            if isinstance(choice, Mapping):
                total += _longest(choice, "name") + len(str(choice.get("value", "")))
    return total


# ---------------------------------------------------------------------- command checks


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _value_option_problems(option: Mapping[str, Any], where: str, kind: int) -> list[str]:
    """Choices, autocomplete, ranges, lengths and channel types of a non-subcommand option."""
    problems: list[str] = []
    choices = option.get("choices")
    if choices is not None and not isinstance(choices, list):
        problems.append(f"{where}: choices must be a list")
        choices = None
    if choices:
        if kind not in CHOICE_TYPES:
            problems.append(f"{where}: choices are only allowed on STRING, INTEGER and NUMBER")
        if len(choices) > MAX_CHOICES:
            problems.append(f"{where}: at most {MAX_CHOICES} choices, has {len(choices)}")
        if option.get("autocomplete"):
            problems.append(f"{where}: autocomplete may not be set together with choices")
        for index, choice in enumerate(choices):
            at = f"{where}: choice {index}"
            if not isinstance(choice, Mapping):
                problems.append(f"{at} must be an object")
                continue
            problems += [
                f"{at}: {p}" for p in _text_problems(choice.get("name"), "name", 1, CHOICE_NAME_MAX)
            ]
            problems += _localization_problems(choice, at, chat_input=False, choice=True)
            value = choice.get("value")
            if kind == STRING:
                if not isinstance(value, str):
                    problems.append(f"{at}: value must be a string for a STRING option")
                elif len(value) > CHOICE_STRING_VALUE_MAX:
                    problems.append(
                        f"{at}: string value must be at most {CHOICE_STRING_VALUE_MAX} "
                        f"characters, has {len(value)}"
                    )
            elif kind == INTEGER and not (_is_int(value) and abs(value) <= INTEGER_LIMIT):
                problems.append(f"{at}: value must be an integer within ±(2^53-1), got {value!r}")
            elif kind == NUMBER and not (_is_number(value) and abs(value) <= NUMBER_LIMIT):
                problems.append(f"{at}: value must be a number within ±2^53, got {value!r}")
    if option.get("autocomplete") and kind not in CHOICE_TYPES:
        problems.append(f"{where}: autocomplete is only allowed on STRING, INTEGER and NUMBER")

    bounds: dict[str, Any] = {}
    for key in ("min_value", "max_value"):
        if option.get(key) is None:
            continue
        value = option[key]
        if kind not in (INTEGER, NUMBER):
            problems.append(f"{where}: {key} is only allowed on INTEGER and NUMBER")
        elif kind == INTEGER and not (_is_int(value) and abs(value) <= INTEGER_LIMIT):
            problems.append(f"{where}: {key} must be an integer within ±(2^53-1), got {value!r}")
        elif kind == NUMBER and not (_is_number(value) and abs(value) <= NUMBER_LIMIT):
            problems.append(f"{where}: {key} must be a number within ±2^53, got {value!r}")
        else:
            bounds[key] = value
    if len(bounds) == 2 and bounds["min_value"] > bounds["max_value"]:
        problems.append(
            f"{where}: min_value {bounds['min_value']} is greater than max_value "
            f"{bounds['max_value']}"
        )

    lengths: dict[str, int] = {}
    for key, lowest in (("min_length", 0), ("max_length", 1)):
        if option.get(key) is None:
            continue
        value = option[key]
        if kind != STRING:
            problems.append(f"{where}: {key} is only allowed on STRING")
        elif not (_is_int(value) and lowest <= value <= STRING_LENGTH_MAX):
            problems.append(f"{where}: {key} must be {lowest}-{STRING_LENGTH_MAX}, got {value!r}")
        else:
            lengths[key] = value
    if len(lengths) == 2 and lengths["min_length"] > lengths["max_length"]:
        problems.append(
            f"{where}: min_length {lengths['min_length']} is greater than max_length "
            f"{lengths['max_length']}"
        )

    if option.get("channel_types") is not None and kind != CHANNEL:
        problems.append(f"{where}: channel_types is only allowed on CHANNEL")
    if option.get("options"):
        problems.append(f"{where}: only SUB_COMMAND and SUB_COMMAND_GROUP options have options")
    return problems


def _options_problems(options: Any, where: str, level: str) -> list[str]:
    """Options of one level: ``level`` is "command", "group" or "subcommand"."""
    if options is None:
        return []
    if not isinstance(options, list):
        return [f"{where}: options must be a list"]
    problems: list[str] = []
    if len(options) > MAX_OPTIONS:
        problems.append(f"{where}: at most {MAX_OPTIONS} options, has {len(options)}")
    seen: set[str] = set()
    optional_seen: str | None = None
    kinds_here: set[str] = set()
    for index, option in enumerate(options):
        if not isinstance(option, Mapping):
            problems.append(f"{where}: option {index} must be an object")
            continue
        name = option.get("name")
        at = f"{where} {name}" if isinstance(name, str) else f"{where} [option {index}]"
        kind = option.get("type")
        if not _is_int(kind) or kind not in OPTION_TYPE_NAMES:
            problems.append(f"{at}: invalid option type {kind!r} (valid: 1-11)")
            continue
        problems += [f"{at}: {p}" for p in name_problems(name)]
        problems += [
            f"{at}: {p}"
            for p in _text_problems(option.get("description"), "description", 1, DESCRIPTION_MAX)
        ]
        problems += _localization_problems(option, at, chat_input=True)
        if isinstance(name, str):
            if name in seen:
                problems.append(f"{where}: duplicate option name {name!r}")
            seen.add(name)

        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            kinds_here.add("subcommand")
            type_name = OPTION_TYPE_NAMES[kind]
            if level == "subcommand":
                problems.append(f"{at}: a {type_name} cannot be nested inside a SUB_COMMAND")
            elif level == "group" and kind == SUB_COMMAND_GROUP:
                problems.append(
                    f"{at}: subcommand groups only nest one level (a SUB_COMMAND_GROUP "
                    "cannot contain a SUB_COMMAND_GROUP)"
                )
            if option.get("required"):
                problems.append(f"{at}: required is not allowed on a {type_name}")
            for key in ("choices", "autocomplete", "min_value", "max_value"):
                if option.get(key):
                    problems.append(f"{at}: {key} is not allowed on a {type_name}")
            child_level = "group" if kind == SUB_COMMAND_GROUP else "subcommand"
            problems += _options_problems(option.get("options"), at, child_level)
            continue

        kinds_here.add("value")
        if level == "group":
            problems.append(f"{at}: a SUB_COMMAND_GROUP may only contain SUB_COMMANDs")
        if option.get("required"):
            if optional_seen is not None:
                problems.append(
                    f"{at}: required option is listed after optional option {optional_seen!r} "
                    "(required options must come first)"
                )
        else:
            optional_seen = name if isinstance(name, str) else f"option {index}"
        problems += _value_option_problems(option, at, kind)
    problems += localized_duplicates(options, where)
    if level == "command" and kinds_here == {"subcommand", "value"}:
        problems.append(
            f"{where}: cannot mix SUB_COMMAND/SUB_COMMAND_GROUP options with other options"
        )
    return problems


def _command_problems(command: Mapping[str, Any], index: int) -> list[str]:
    kind = command.get("type", CHAT_INPUT)
    name = command.get("name")
    if not _is_int(kind) or kind not in COMMAND_TYPE_NAMES:
        return [f"command {index} ({name!r}): invalid command type {kind!r} (valid: 1-4)"]
    chat_input = kind == CHAT_INPUT
    where = f"/{name}" if chat_input else f"{COMMAND_TYPE_NAMES[kind]} command {name!r}"
    problems = [f"{where}: {p}" for p in name_problems(name, chat_input=chat_input)]
    problems += _localization_problems(command, where, chat_input=chat_input)
    description = command.get("description")
    if chat_input:
        problems += [
            f"{where}: {p}" for p in _text_problems(description, "description", 1, DESCRIPTION_MAX)
        ]
        problems += _options_problems(command.get("options"), where, "command")
        size = command_characters(command)
        if size > COMMAND_CHARACTER_LIMIT:
            problems.append(
                f"{where}: {size} characters in names, descriptions and choices; Discord allows "
                f"{COMMAND_CHARACTER_LIMIT} per command"
            )
    else:
        if description not in (None, ""):
            problems.append(f"{where}: description must be empty for a non-CHAT_INPUT command")
        if command.get("options"):
            problems.append(f"{where}: options are only allowed on CHAT_INPUT commands")
    permissions = command.get("default_member_permissions")
    if permissions is not None and not (isinstance(permissions, str) and permissions.isdigit()):
        problems.append(
            f"{where}: default_member_permissions must be null or a string of digits, "
            f"got {permissions!r}"
        )
    return problems


def command_problems(payload: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every rule a bulk-overwrite payload (one scope: global, or one guild) breaks."""
    if not isinstance(payload, list):
        return ["payload must be a list of command objects"]
    problems: list[str] = []
    counts: dict[int, int] = {}
    seen: set[tuple[int, str]] = set()
    for index, command in enumerate(payload):
        if not isinstance(command, Mapping):
            problems.append(f"command {index} must be an object")
            continue
        problems += _command_problems(command, index)
        kind = command.get("type", CHAT_INPUT)
        if _is_int(kind):
            counts[kind] = counts.get(kind, 0) + 1
            key = (kind, command.get("name"))
            if key in seen:
                problems.append(
                    f"duplicate {COMMAND_TYPE_NAMES.get(kind, kind)} command name {key[1]!r}"
                )
            seen.add(key)
    for kind in counts:
        same_kind = [c for c in payload if isinstance(c, Mapping) and c.get("type", 1) == kind]
        problems += localized_duplicates(
            same_kind, f"{COMMAND_TYPE_NAMES.get(kind, kind)} commands"
        )
    for kind, count in sorted(counts.items()):
        limit = MAX_COMMANDS_PER_TYPE.get(kind)
        if limit is not None and count > limit:
            problems.append(
                f"at most {limit} {COMMAND_TYPE_NAMES[kind]} commands per scope, has {count}"
            )
    return problems


# ----------------------------------------------------------------------- located problems

BodyPath = tuple[str | int, ...]
"""Keys and list indexes leading from a JSON body to one of its values."""


@dataclass(frozen=True)
class Problem:
    """One broken embed or message rule, located the way Discord locates it.

    ``path`` leads from the body to the offending value (``("embeds", 0, "title")``), ``code``
    is the error code Discord puts there in the ``errors`` tree of its 400 Invalid Form Body
    answer (``BASE_TYPE_MAX_LENGTH``), and ``text`` is the human-readable problem that
    ``embed_problems`` and ``message_problems`` return.
    """

    path: BodyPath
    code: str
    text: str


# Error codes of that ``errors`` tree, as Discord's answers show them (discord.py prints them in
# the HTTPException text), one name for each kind of broken rule.
REQUIRED = "BASE_TYPE_REQUIRED"
MAX_LENGTH = "BASE_TYPE_MAX_LENGTH"
NOT_A_STRING = "STRING_TYPE_CONVERT"
NOT_A_LIST = "LIST_TYPE_CONVERT"
NOT_AN_OBJECT = "DICT_TYPE_CONVERT"
NOT_ALLOWED = "BASE_TYPE_INVALID"
EMBED_TOO_BIG = "MAX_EMBED_SIZE_EXCEEDED"
BAD_LAYOUT = "COMPONENT_LAYOUT_WIDTH_EXCEEDED"
DUPLICATE_CUSTOM_ID = "COMPONENT_CUSTOM_ID_DUPLICATED"


# ------------------------------------------------------------------------ embed checks


def embed_length(embed: Mapping[str, Any]) -> int:
    """Characters of one embed counted towards the 6000 total."""
    total = 0
    for key in ("title", "description"):
        if isinstance(embed.get(key), str):
            total += len(embed[key])
    for field in embed.get("fields") or []:
        if isinstance(field, Mapping):
            total += sum(len(field[k]) for k in ("name", "value") if isinstance(field.get(k), str))
    footer, author = embed.get("footer"), embed.get("author")
    if isinstance(footer, Mapping) and isinstance(footer.get("text"), str):
        total += len(footer["text"])
    if isinstance(author, Mapping) and isinstance(author.get("name"), str):
        total += len(author["name"])
    return total


def _limit(
    value: Any, what: str, path: BodyPath, maximum: int, *, required: bool = False
) -> list[Problem]:
    if value is None:
        return [Problem(path, REQUIRED, f"{what} is required")] if required else []
    if not isinstance(value, str):
        return [Problem(path, NOT_A_STRING, f"{what} must be a string, got {type(value).__name__}")]
    if required and not value.strip():
        return [Problem(path, REQUIRED, f"{what} must not be empty")]
    if len(value) > maximum:
        text = f"{what} must be at most {maximum} characters, has {len(value)}"
        return [Problem(path, MAX_LENGTH, text)]
    return []


def located_embed_problems(
    embed: Mapping[str, Any], *, where: str = "embed", path: BodyPath = ()
) -> list[Problem]:
    """``embed_problems``, each with its ``path`` (below ``path``) and Discord's error code."""
    if not isinstance(embed, Mapping):
        return [Problem(path, NOT_AN_OBJECT, f"{where} must be an object")]
    problems = _limit(embed.get("title"), f"{where}.title", (*path, "title"), EMBED_TITLE_MAX)
    problems += _limit(
        embed.get("description"),
        f"{where}.description",
        (*path, "description"),
        EMBED_DESCRIPTION_MAX,
    )
    fields = embed.get("fields") or []
    if not isinstance(fields, list):
        problems.append(Problem((*path, "fields"), NOT_A_LIST, f"{where}.fields must be a list"))
        fields = []
    if len(fields) > EMBED_MAX_FIELDS:
        text = f"{where}: at most {EMBED_MAX_FIELDS} fields, has {len(fields)}"
        problems.append(Problem((*path, "fields"), MAX_LENGTH, text))
    for index, field in enumerate(fields):
        at, field_path = f"{where}.fields[{index}]", (*path, "fields", index)
        if not isinstance(field, Mapping):
            problems.append(Problem(field_path, NOT_AN_OBJECT, f"{at} must be an object"))
            continue
        for key, maximum in (("name", EMBED_FIELD_NAME_MAX), ("value", EMBED_FIELD_VALUE_MAX)):
            problems += _limit(
                field.get(key), f"{at}.{key}", (*field_path, key), maximum, required=True
            )
    for key, text_key, maximum in (
        ("footer", "text", EMBED_FOOTER_TEXT_MAX),
        ("author", "name", EMBED_AUTHOR_NAME_MAX),
    ):
        section = embed.get(key)
        if section is None:
            continue
        if not isinstance(section, Mapping):
            problems.append(
                Problem((*path, key), NOT_AN_OBJECT, f"{where}.{key} must be an object")
            )
            continue
        problems += _limit(
            section.get(text_key),
            f"{where}.{key}.{text_key}",
            (*path, key, text_key),
            maximum,
            required=True,
        )
    total = embed_length(embed)
    if total > EMBED_TOTAL_MAX:
        text = (
            f"{where}: {total} characters in title, description, fields, footer and author; "
            f"at most {EMBED_TOTAL_MAX}"
        )
        problems.append(Problem(path, EMBED_TOO_BIG, text))
    return problems


def embed_problems(embed: Mapping[str, Any], *, where: str = "embed") -> list[str]:
    """Every per-embed limit ``embed`` (a ``discord.Embed.to_dict()``) breaks."""
    return [problem.text for problem in located_embed_problems(embed, where=where)]


# ---------------------------------------------------------------------- message checks


def _component_problems(
    component: Mapping[str, Any], at: str, path: BodyPath, custom_ids: dict[str, str]
) -> list[Problem]:
    problems: list[Problem] = []
    kind = component.get("type")
    custom_id = component.get("custom_id")
    id_path = (*path, "custom_id")
    if kind == BUTTON:
        problems += _limit(
            component.get("label"), f"{at}.label", (*path, "label"), BUTTON_LABEL_MAX
        )
        style = component.get("style")
        if style == LINK_STYLE:
            if not component.get("url"):
                problems.append(
                    Problem((*path, "url"), REQUIRED, f"{at}: a link button needs a url")
                )
            if custom_id is not None:
                text = f"{at}: a link button cannot have a custom_id"
                problems.append(Problem(id_path, NOT_ALLOWED, text))
            return problems
        if style == PREMIUM_STYLE:
            return problems
    elif kind in SELECT_TYPES:
        options = component.get("options")
        if isinstance(options, list) and len(options) > SELECT_MAX_OPTIONS:
            text = f"{at}: at most {SELECT_MAX_OPTIONS} options, has {len(options)}"
            problems.append(Problem((*path, "options"), MAX_LENGTH, text))
        problems += _select_problems(component, at, path)
    else:
        return problems
    if not isinstance(custom_id, str) or not custom_id:
        problems.append(Problem(id_path, REQUIRED, f"{at}: custom_id is required"))
    elif len(custom_id) > CUSTOM_ID_MAX:
        text = f"{at}.custom_id must be at most {CUSTOM_ID_MAX} characters, has {len(custom_id)}"
        problems.append(Problem(id_path, MAX_LENGTH, text))
    if isinstance(custom_id, str) and custom_id:
        if custom_id in custom_ids:
            text = f"{at}: custom_id {custom_id!r} is already used by {custom_ids[custom_id]}"
            problems.append(Problem(id_path, DUPLICATE_CUSTOM_ID, text))
        custom_ids.setdefault(custom_id, at)
    return problems


def _select_problems(component: Mapping[str, Any], at: str, path: BodyPath) -> list[Problem]:
    """A select menu's own rules (Discord's component reference, "String Select" and "Select
    Option"): a string select (type 3) needs 1 to 25 options, each with a label and a value of
    1 to 100 characters, the values unique; placeholder at most 150; min_values 0 to 25,
    max_values 1 to 25, min no more than max, and max no more than the options offered."""
    problems = _limit(
        component.get("placeholder"), f"{at}.placeholder", (*path, "placeholder"), 150
    )
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not _is_int(low) or not 0 <= low <= 25:
        text = f"{at}.min_values must be 0 to 25, is {low!r}"
        problems.append(Problem((*path, "min_values"), NOT_ALLOWED, text))
    if not _is_int(high) or not 1 <= high <= 25:
        text = f"{at}.max_values must be 1 to 25, is {high!r}"
        problems.append(Problem((*path, "max_values"), NOT_ALLOWED, text))
    elif _is_int(low) and low > high:
        text = f"{at}: min_values {low} is more than max_values {high}"
        problems.append(Problem((*path, "min_values"), NOT_ALLOWED, text))
    if component.get("type") != STRING_SELECT:
        return problems
    options = component.get("options")
    if not isinstance(options, list) or not options:
        problems.append(
            Problem((*path, "options"), REQUIRED, f"{at}: a string select needs options")
        )
        return problems
    if _is_int(high) and high > len(options):
        text = f"{at}.max_values {high} is more than its {len(options)} options"
        problems.append(Problem((*path, "max_values"), NOT_ALLOWED, text))
    seen: set[str] = set()
    for index, option in enumerate(options):
        where, option_path = f"{at}.options[{index}]", (*path, "options", index)
        if not isinstance(option, Mapping):
            problems.append(Problem(option_path, NOT_AN_OBJECT, f"{where} must be an object"))
            continue
        for key in ("label", "value"):
            problems += _limit(
                option.get(key), f"{where}.{key}", (*option_path, key), 100, required=True
            )
        problems += _limit(
            option.get("description"), f"{where}.description", (*option_path, "description"), 100
        )
        value = option.get("value")
        if isinstance(value, str):
            if value in seen:
                text = f"{where}: the value {value!r} is already used by another option"
                problems.append(Problem((*option_path, "value"), DUPLICATE_CUSTOM_ID, text))
            seen.add(value)
    return problems


def select_values_problem(component: Mapping[str, Any], values: Any) -> str | None:
    """Why Discord's client could not send these `values` from this select (None: it could):
    they must be strings among its options' values, unique, between min_values and max_values."""
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        return "values must be a list of strings"
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not low <= len(values) <= high:
        return f"{len(values)} values picked; this select takes {low} to {high}"
    if len(set(values)) != len(values):
        return "a value is picked twice"
    if component.get("type") == STRING_SELECT:
        offered = {o.get("value") for o in component.get("options") or []}
        strangers = [v for v in values if v not in offered]
        if strangers:
            return f"{strangers[0]!r} is not among the select's options"
    return None


def _walk(
    component: Mapping[str, Any], at: str, path: BodyPath
) -> Iterable[tuple[Mapping[str, Any], str, BodyPath]]:
    yield component, at, path
    for index, child in enumerate(component.get("components") or []):
        if isinstance(child, Mapping):
            yield from _walk(child, f"{at}.components[{index}]", (*path, "components", index))
    for key in ("accessory", "component"):
        child = component.get(key)
        if isinstance(child, Mapping):
            yield from _walk(child, f"{at}.{key}", (*path, key))


def located_message_problems(message: Mapping[str, Any]) -> list[Problem]:
    """``message_problems``, each with its ``path`` in the body and Discord's error code."""
    if not isinstance(message, Mapping):
        return [Problem((), NOT_AN_OBJECT, "message must be an object")]
    if isinstance(message.get("data"), Mapping) and "type" in message:
        message = message["data"]  # an interaction callback body: {"type": 4, "data": {...}}
    problems: list[Problem] = []
    content = message.get("content")
    if content is not None:
        if not isinstance(content, str):
            problems.append(Problem(("content",), NOT_A_STRING, "content must be a string"))
        elif len(content) > MESSAGE_CONTENT_MAX:
            text = f"content must be at most {MESSAGE_CONTENT_MAX} characters, has {len(content)}"
            problems.append(Problem(("content",), MAX_LENGTH, text))

    embeds = message.get("embeds") or []
    if not isinstance(embeds, list):
        problems.append(Problem(("embeds",), NOT_A_LIST, "embeds must be a list"))
        embeds = []
    if len(embeds) > MESSAGE_MAX_EMBEDS:
        text = f"at most {MESSAGE_MAX_EMBEDS} embeds, has {len(embeds)}"
        problems.append(Problem(("embeds",), MAX_LENGTH, text))
    for index, embed in enumerate(embeds):
        problems += located_embed_problems(embed, where=f"embeds[{index}]", path=("embeds", index))
    total = sum(embed_length(e) for e in embeds if isinstance(e, Mapping))
    if len(embeds) > 1 and total > EMBED_TOTAL_MAX:
        text = (
            f"embeds: {total} characters across all embeds of the message; at most "
            f"{EMBED_TOTAL_MAX}"
        )
        problems.append(Problem(("embeds",), EMBED_TOO_BIG, text))

    components = message.get("components") or []
    if not isinstance(components, list):
        return [*problems, Problem(("components",), NOT_A_LIST, "components must be a list")]
    v2 = bool(int(message.get("flags") or 0) & IS_COMPONENTS_V2)
    custom_ids: dict[str, str] = {}
    if not v2:
        if len(components) > MESSAGE_MAX_ACTION_ROWS:
            text = f"at most {MESSAGE_MAX_ACTION_ROWS} action rows, has {len(components)}"
            problems.append(Problem(("components",), MAX_LENGTH, text))
        for index, row in enumerate(components):
            at, row_path = f"components[{index}]", ("components", index)
            if not isinstance(row, Mapping) or row.get("type") != ACTION_ROW:
                problems.append(
                    Problem(row_path, BAD_LAYOUT, f"{at} must be an action row (type 1)")
                )
                continue
            children = [c for c in row.get("components") or [] if isinstance(c, Mapping)]
            if not children:
                text = f"{at}: an action row needs at least one component"
                problems.append(Problem(row_path, BAD_LAYOUT, text))
            buttons = [c for c in children if c.get("type") == BUTTON]
            selects = [c for c in children if c.get("type") in SELECT_TYPES]
            if len(buttons) > ACTION_ROW_MAX_BUTTONS:
                text = (
                    f"{at}: at most {ACTION_ROW_MAX_BUTTONS} buttons per action row, "
                    f"has {len(buttons)}"
                )
                problems.append(Problem(row_path, BAD_LAYOUT, text))
            if selects and len(children) > 1:
                text = f"{at}: a select menu must be alone in its action row"
                problems.append(Problem(row_path, BAD_LAYOUT, text))
    for index, root in enumerate(components):
        if isinstance(root, Mapping):
            for component, at, path in _walk(root, f"components[{index}]", ("components", index)):
                problems += _component_problems(component, at, path, custom_ids)
    return problems


# ------------------------------------------------------------------------ modal checks

MODAL_TITLE_MAX = 45
MODAL_MAX_COMPONENTS = 5
TEXT_INPUT = 4
TEXT_DISPLAY = 10
LABEL = 18
LABEL_TEXT_MAX = 45
LABEL_DESCRIPTION_MAX = 100
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_LENGTH_MAX = 4000
TEXT_INPUT_PLACEHOLDER_MAX = 100
TEXT_INPUT_STYLES = frozenset({1, 2})  # short, paragraph
IN_A_LABEL = frozenset({TEXT_INPUT, *SELECT_TYPES, 19, 21, 22, 23})
"""What a label (type 18) may hold: a text input, a select, a file upload, a radio group, a
checkbox group or a checkbox (Discord's component reference, "Label")."""


def _custom_id_problems(
    component: Mapping[str, Any], at: str, path: BodyPath, custom_ids: dict[str, str]
) -> list[Problem]:
    custom_id, id_path = component.get("custom_id"), (*path, "custom_id")
    if not isinstance(custom_id, str) or not custom_id:
        return [Problem(id_path, REQUIRED, f"{at}: custom_id is required")]
    if len(custom_id) > CUSTOM_ID_MAX:
        text = f"{at}.custom_id must be at most {CUSTOM_ID_MAX} characters, has {len(custom_id)}"
        return [Problem(id_path, MAX_LENGTH, text)]
    if custom_id in custom_ids:
        text = f"{at}: custom_id {custom_id!r} is already used by {custom_ids[custom_id]}"
        return [Problem(id_path, DUPLICATE_CUSTOM_ID, text)]
    custom_ids[custom_id] = at
    return []


def _text_input_problems(
    box: Mapping[str, Any], at: str, path: BodyPath, *, in_label: bool
) -> list[Problem]:
    """A text input's rules (Discord's component reference, "Text Input"): style 1 (short) or
    2 (paragraph); a label of at most 45 characters in an action row, none inside a label
    component; min_length 0 to 4000, max_length 1 to 4000, min no more than max; a pre-filled
    value of at most 4000 characters; a placeholder of at most 100."""
    problems: list[Problem] = []
    if box.get("style") not in TEXT_INPUT_STYLES:
        text = f"{at}.style must be 1 (short) or 2 (paragraph), got {box.get('style')!r}"
        problems.append(Problem((*path, "style"), NOT_ALLOWED, text))
    if in_label:
        if box.get("label") is not None:
            text = f"{at}: a text input inside a label component takes no label of its own"
            problems.append(Problem((*path, "label"), NOT_ALLOWED, text))
    else:
        problems += _limit(
            box.get("label"), f"{at}.label", (*path, "label"), TEXT_INPUT_LABEL_MAX, required=True
        )
    lengths: dict[str, int] = {}
    for key, lowest in (("min_length", 0), ("max_length", 1)):
        value = box.get(key)
        if value is None:
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            problems.append(Problem((*path, key), NOT_ALLOWED, f"{at}.{key} must be an integer"))
        elif not lowest <= value <= TEXT_INPUT_LENGTH_MAX:
            text = f"{at}.{key} must be {lowest} to {TEXT_INPUT_LENGTH_MAX}, got {value}"
            problems.append(Problem((*path, key), NOT_ALLOWED, text))
        else:
            lengths[key] = value
    low, high = lengths.get("min_length", 0), lengths.get("max_length", TEXT_INPUT_LENGTH_MAX)
    if low > high:
        text = f"{at}: min_length {low} is greater than max_length {high}"
        problems.append(Problem((*path, "min_length"), NOT_ALLOWED, text))
    problems += _limit(box.get("value"), f"{at}.value", (*path, "value"), TEXT_INPUT_LENGTH_MAX)
    problems += _limit(
        box.get("placeholder"),
        f"{at}.placeholder",
        (*path, "placeholder"),
        TEXT_INPUT_PLACEHOLDER_MAX,
    )
    return problems


def located_modal_problems(modal: Any) -> list[Problem]:
    """Every rule a MODAL callback's data (interaction response type 9) breaks: custom_id 1 to
    100 characters; title 1 to 45; 1 to 5 top-level components, each a label (type 18: text
    at most 45, description at most 100, one component it may hold), a text display (type 10),
    or an action row holding exactly one text input (the older layout); custom ids unique."""
    if not isinstance(modal, Mapping):
        return [Problem((), NOT_AN_OBJECT, "a modal's data must be an object")]
    problems = _limit(modal.get("title"), "title", ("title",), MODAL_TITLE_MAX, required=True)
    custom_ids: dict[str, str] = {}
    problems += _custom_id_problems(modal, "modal", (), custom_ids)
    rows = modal.get("components")
    if not isinstance(rows, list):
        return [*problems, Problem(("components",), NOT_A_LIST, "components must be a list")]
    if not 1 <= len(rows) <= MODAL_MAX_COMPONENTS:
        text = f"a modal takes 1 to {MODAL_MAX_COMPONENTS} components, has {len(rows)}"
        problems.append(Problem(("components",), MAX_LENGTH, text))
    for index, row in enumerate(rows):
        at, path = f"components[{index}]", ("components", index)
        kind = row.get("type") if isinstance(row, Mapping) else None
        if kind == LABEL:
            problems += _limit(
                row.get("label"), f"{at}.label", (*path, "label"), LABEL_TEXT_MAX, required=True
            )
            problems += _limit(
                row.get("description"),
                f"{at}.description",
                (*path, "description"),
                LABEL_DESCRIPTION_MAX,
            )
            inner = row.get("component")
            inner_at, inner_path = f"{at}.component", (*path, "component")
            if not isinstance(inner, Mapping) or inner.get("type") not in IN_A_LABEL:
                text = f"{inner_at}: a label holds a text input, a select or a checkbox"
                problems.append(Problem(inner_path, BAD_LAYOUT, text))
                continue
            problems += _custom_id_problems(inner, inner_at, inner_path, custom_ids)
            if inner.get("type") == TEXT_INPUT:
                problems += _text_input_problems(inner, inner_at, inner_path, in_label=True)
            elif inner.get("type") in SELECT_TYPES:
                problems += _select_problems(inner, inner_at, inner_path)
        elif kind == ACTION_ROW:
            children = row.get("components")
            if (
                not isinstance(children, list)
                or len(children) != 1
                or not isinstance(children[0], Mapping)
                or children[0].get("type") != TEXT_INPUT
            ):
                text = f"{at}: an action row in a modal holds exactly one text input"
                problems.append(Problem(path, BAD_LAYOUT, text))
                continue
            box_at, box_path = f"{at}.components[0]", (*path, "components", 0)
            problems += _custom_id_problems(children[0], box_at, box_path, custom_ids)
            problems += _text_input_problems(children[0], box_at, box_path, in_label=False)
        elif kind != TEXT_DISPLAY:
            text = f"{at}: a modal holds labels, text displays or action rows, not type {kind!r}"
            problems.append(Problem(path, BAD_LAYOUT, text))
    return problems


def modal_problems(modal: Any) -> list[str]:
    return [problem.text for problem in located_modal_problems(modal)]


def text_inputs(modal: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """A shown modal's text inputs by custom id, in either layout."""
    found: dict[str, Mapping[str, Any]] = {}
    for row in modal.get("components") or []:
        for box in [row.get("component"), *(row.get("components") or [])]:
            if isinstance(box, Mapping) and box.get("type") == TEXT_INPUT:
                found[str(box.get("custom_id"))] = box
    return found


def modal_submit_problem(modal: Mapping[str, Any], values: Mapping[str, Any]) -> str | None:
    """Why Discord's client could not submit these values in this modal (None: it could): only
    its text inputs, each a string within its min_length and max_length, a required one (the
    default) not left empty."""
    boxes = text_inputs(modal)
    strangers = [k for k in values if k not in boxes]
    if strangers:
        return f"the form has no text input {strangers[0]!r}"
    for custom_id, box in boxes.items():
        value = values.get(custom_id, "")
        if not isinstance(value, str):
            return f"{custom_id!r}: a text input sends a string"
        if not value:
            if box.get("required", True):
                return f"{custom_id!r} is required"
            continue
        low = box.get("min_length", 0)
        high = box.get("max_length", TEXT_INPUT_LENGTH_MAX)
        if not low <= len(value) <= high:
            return f"{custom_id!r}: {len(value)} characters; this input takes {low} to {high}"
    return None


def message_problems(message: Mapping[str, Any]) -> list[str]:
    """Every limit one message body breaks: content, embeds (each and together), components."""
    return [problem.text for problem in located_message_problems(message)]


# ----------------------------------------------------------------- autocomplete checks


def autocomplete_problems(choices: Any) -> list[str]:
    """Problems of the choices a bot answers an autocomplete interaction with.

    Same rules as command choices: at most 25, names 1-100 characters, string values at most 100.
    (simcord 3.2.1 accepts any list here; Discord answers 400.)
    """
    if not isinstance(choices, list):
        return ["autocomplete choices must be a list"]
    problems = []
    if len(choices) > MAX_CHOICES:
        problems.append(f"at most {MAX_CHOICES} autocomplete choices, has {len(choices)}")
    for index, choice in enumerate(choices):
        at = f"choice {index}"
        if not isinstance(choice, Mapping):
            problems.append(f"{at} must be an object")
            continue
        problems += [
            f"{at}: {p}" for p in _text_problems(choice.get("name"), "name", 1, CHOICE_NAME_MAX)
        ]
        value = choice.get("value")
        if isinstance(value, str) and len(value) > CHOICE_STRING_VALUE_MAX:
            problems.append(
                f"{at}: string value must be at most {CHOICE_STRING_VALUE_MAX} characters, "
                f"has {len(value)}"
            )
        elif not isinstance(value, str) and not _is_number(value):
            problems.append(f"{at}: value must be a string or a number, got {value!r}")
    return problems
