"""Checks on text as users type it: one normal form, and one wording of why text is refused.

Pure, so the sheet text (wire/sheet_text.py), the store's checks and an import's validator all
say the same thing about the same text.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from wire.i18n import N_, tr


def clip(value: str, limit: int) -> str:
    """`value` cut to `limit` characters, with an ellipsis where it was cut."""
    return value if len(value) <= limit else value[: limit - 1] + "…"


@dataclass(frozen=True, slots=True)
class TextProblem:
    """Why some text cannot be stored: what is wrong ("is empty") and how to fix it.

    One wording for every place that checks text: a slash-command option as it arrives, a store
    call and an import all say the same thing about the same text. Both are English templates
    with their values, read in the language in use (wire.i18n) whenever they are shown.
    """

    template: str
    fix_template: str
    params: dict[str, object] = field(default_factory=dict)

    @property
    def what(self) -> str:
        return tr(self.template, **self.params)

    @property
    def fix(self) -> str:
        return tr(self.fix_template, **self.params)

    def __str__(self) -> str:
        return self.what


def codepoint(ch: str) -> str:
    """How a character is named in a message: U+202E."""
    return f"U+{ord(ch):04X}"


def normal_text(value: str) -> str:
    """Text as it is stored: NFC-normalised, without surrounding whitespace, "\r\n" as "\n".

    NFC makes "é" typed as one character and as e + accent the same name.
    """
    return unicodedata.normalize("NFC", value).replace("\r\n", "\n").strip()


def text_problem(
    value: str, limit: int, *, multiline: bool = False, empty_ok: bool = False
) -> TextProblem | None:
    """Why `value` cannot be stored as text of at most `limit` characters, or None.

    Checked on the normalised text (see `normal_text`). Refused: empty text (unless `empty_ok`:
    then only the empty string passes, not blanks), text only of whitespace, text over the limit,
    and any control or format character: the invisible ones (zero-width spaces and joiners) and
    the direction-changing ones (U+202E) that make text read differently than it is stored, line
    and paragraph separators, and line breaks unless `multiline` (then a plain "\n" is fine).
    """
    text = normal_text(value)
    if not text:
        if not value:
            if empty_ok:
                return None
            return TextProblem(N_("is empty"), N_("Type at least one character."))
        return TextProblem(N_("is only spaces"), N_("Type some visible text."))
    if len(text) > limit:
        return TextProblem(
            N_("is {length} characters long, the limit is {limit}"),
            N_("Shorten it to at most {limit} characters."),
            {"length": len(text), "limit": limit},
        )
    again = N_("Type it again without it.")
    for ch in text:
        category = unicodedata.category(ch)
        where = {"character": codepoint(ch)}
        if category == "Cf":
            return TextProblem(
                N_("contains an invisible or direction-changing character ({character})"),
                again,
                where,
            )
        if category == "Cs":
            return TextProblem(N_("contains an invalid character ({character})"), again, where)
        if category in ("Cc", "Zl", "Zp") and not (multiline and ch == "\n"):
            return TextProblem(
                N_("contains a line break or another control character ({character})"),
                again if multiline else N_("Type it on one line without it."),
                where,
            )
    return None
