"""`python -m tools.catalogue`: the message template (wire/locales/wire.pot) and each
language's catalogue brought up to date with the code (`make messages` runs it).

Two sources: the text in the code, found by Babel's extractor as `pybabel extract` would with
the same keywords (`tr`, `trn`, `trc`, `N_`, and the storage errors raised with a template);
and every command, group, option and choice name and description, read from the loaded command
tree (they are plain strings in decorators, which no extractor sees). Then each `.po` is merged
with the template like `pybabel update`: new messages come in empty, changed ones fuzzy, so a
translator sees exactly what to do. docs/i18n.md explains the workflow.
"""

from __future__ import annotations

import ast
import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po
from discord import app_commands

from cogs.utils.translator import CHOICE, NAME, OWN_CONTEXT
from wire import i18n

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = i18n.LOCALES / f"{i18n.DOMAIN}.pot"
SOURCES = ("wire", "cogs", "storage", "bot.py")
KEYWORDS = {
    "tr": None,
    "trn": (1, 2),
    "trc": ((1, "c"), 2),
    "N_": None,
    # The store raises its errors with an English template as the first argument and the
    # values as keywords (storage/errors.py); the bot translates them by that template.
    **dict.fromkeys(
        (
            "StorageError",
            "NotFound",
            "NameTaken",
            "PermissionDenied",
            "InvalidValue",
            "Conflict",
            "LedgerHolds",
        ),
        None,
    ),
}
"""As `pybabel extract -k tr -k trn:1,2 -k trc:1c,2 -k N_ -k NotFound ...` (no default keywords:
the code has no `_`)."""


def code_messages() -> Iterator[tuple[str, int, str | tuple[str, ...], str | None]]:
    yield from _babel_messages()
    yield from in_fstrings()


def _babel_messages() -> Iterator[tuple[str, int, str | tuple[str, ...], str | None]]:
    for source in SOURCES:
        path = ROOT / source
        if path.is_file():
            from babel.messages.extract import extract_from_file

            found = extract_from_file("python", path, keywords=KEYWORDS, strip_comment_tags=True)
            for lineno, message, _comments, context in found:
                yield source, lineno, message, context
            continue
        for filename, lineno, message, _comments, context in extract_from_dir(
            path, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            yield f"{source}/{filename}", lineno, message, context


def _source_files() -> Iterator[tuple[str, Path]]:
    for source in SOURCES:
        path = ROOT / source
        files = [path] if path.is_file() else sorted(path.rglob("*.py"))
        for file in files:
            yield file.relative_to(ROOT).as_posix(), file


def in_fstrings() -> Iterator[tuple[str, int, str | tuple[str, ...], str | None]]:
    """The messages of `tr(...)` calls inside f-strings (`f"{tr('Roll')}"`), which Babel's
    extractor does not see on Python 3.11: it reads an f-string as one string token, so such a
    message was left out of the catalogue and shown in English to everyone."""
    for where, file in _source_files():
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for joined in ast.walk(tree):
            if not isinstance(joined, ast.JoinedStr):
                continue
            for node in ast.walk(joined):
                found = _keyword_call(node)
                if found is not None:
                    message, context = found
                    yield where, node.lineno, message, context


def _keyword_call(node: ast.AST) -> tuple[str | tuple[str, ...], str | None] | None:
    """(message, context) of a call of tr, trn, trc or N_ with its text written out."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        return None
    texts = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    name = node.func.id
    if name in ("tr", "N_") and texts:
        return texts[0], None
    if name == "trn" and len(texts) >= 2:
        return (texts[0], texts[1]), None
    if name == "trc" and len(texts) >= 2:
        return texts[1], texts[0]
    return None


def _name_context(node: object) -> str:
    """The msgctxt of a command's name: its own (cogs/utils/translator.py, OWN_CONTEXT) or
    the names' shared one."""
    locale = getattr(node, "_locale_name", None)
    own = locale.extras.get(OWN_CONTEXT) if isinstance(locale, app_commands.locale_str) else None
    return own or NAME


def _walk(node: object) -> Iterator[tuple[str | None, str]]:
    """(context, text) of each name and description of a command or group and below."""
    yield _name_context(node), node.name  # type: ignore[attr-defined]
    if isinstance(node, app_commands.ContextMenu):
        return  # a context menu has a name only
    yield None, node.description  # type: ignore[attr-defined]
    if isinstance(node, app_commands.Group):
        for child in node.commands:
            yield from _walk(child)
        return
    if isinstance(node, app_commands.Command):
        for param in node.parameters:
            yield NAME, param.display_name
            yield None, param.description
            for choice in param.choices:
                yield CHOICE, choice.name


async def command_messages() -> list[tuple[str | None, str]]:
    """Every name and description of the bot's commands, as the cogs declare them."""
    from tools.command_tree import loaded_bot

    async with loaded_bot() as bot:
        return [item for command in bot.tree.get_commands() for item in _walk(command)]


def template(commands: list[tuple[str | None, str]]) -> Catalog:
    """The template from the code and the given command texts (`command_messages`)."""
    catalog = Catalog(project="wire-bot", domain=i18n.DOMAIN, charset="utf-8")
    for where, lineno, message, context in code_messages():
        if message:
            catalog.add(message, locations=[(where, lineno)], context=context)
    for context, text in commands:
        if text and text != "…":
            catalog.add(text, locations=[("commands", 0)], context=context)
    return catalog


def update(template_catalog: Catalog) -> list[Path]:
    """Merge the template into every language's catalogue (like `pybabel update`)."""
    written = []
    for lang in i18n.LANGUAGES:
        path = i18n.catalogue_path(lang)
        if not path.exists():
            continue
        with path.open("rb") as po:
            catalog = read_po(po, locale=lang, domain=i18n.DOMAIN)
        catalog.update(template_catalog, update_header_comment=False)
        with path.open("wb") as po:
            write_po(po, catalog, width=100, ignore_obsolete=True, omit_header=False)
        written.append(path)
    return written


def main() -> int:
    catalog = template(asyncio.run(command_messages()))
    with TEMPLATE.open("wb") as pot:
        write_po(pot, catalog, width=100)
    print(f"{TEMPLATE.relative_to(ROOT)}: {len(catalog)} messages")
    for path in update(catalog):
        print(f"{path.relative_to(ROOT)}: updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
