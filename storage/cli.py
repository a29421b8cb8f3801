"""`python -m storage`: back up, restore, check and import into the database offline.

    python -m storage backup data/wire.db backups/wire-2026-11-30.db
    python -m storage restore backups/wire-2026-11-30.db data/wire.db     (stop the bot first)
    python -m storage check data/wire.db
    python -m storage import data/example-campaign.json --guild 123 [--campaign NAME]
    python -m storage copy --from data/wire.db --to postgresql://wire:PASSWORD@host:5432/wire

Failures print one line starting with "error:" (an import also lists its problems) and exit 2;
a check that finds damage exits 1. No tracebacks: these are run by server admins, not developers.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from storage import open_store
from storage.backup import backup_database, check_database, restore_database
from storage.copy import copy_to_postgres
from storage.errors import ImportRejected, NotFound, StorageError
from storage.models import Actor, ImportClash, ImportOutcome
from storage.transfer import parse_import


class CliError(Exception):
    """A usage problem found after parsing (a missing option for this case)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m storage", description="Maintain the WIRE bot's campaign database."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    backup = commands.add_parser(
        "backup", help="copy the database consistently, even while the bot runs"
    )
    backup.add_argument("database", type=Path, help="the live database, e.g. data/wire.db")
    backup.add_argument("destination", type=Path, help="the backup file to write")

    restore = commands.add_parser(
        "restore", help="replace the database with a checked backup (stop the bot first)"
    )
    restore.add_argument("backup", type=Path, help="the backup file")
    restore.add_argument("database", type=Path, help="the database to overwrite")

    check = commands.add_parser("check", help="integrity check and schema version")
    check.add_argument("database", type=Path)

    load = commands.add_parser("import", help="import a character or campaign export")
    load.add_argument("file", type=Path, help="a wire-bot JSON export")
    load.add_argument("--guild", type=int, required=True, help="the Discord server (guild) id")
    load.add_argument(
        "--campaign",
        help="campaign name (created if missing); default: the name in a campaign export, "
        "else the server's default campaign",
    )
    load.add_argument(
        "--owner",
        type=int,
        help="Discord user id that owns the imported characters (and GMs a new campaign); "
        "default: the campaign's first GM",
    )
    load.add_argument(
        "--replace",
        action="store_true",
        help="overwrite characters of the same name: the owner's own and NPCs (another "
        "player's only with --overwrite-user)",
    )
    load.add_argument(
        "--channel",
        type=int,
        metavar="CHANNEL_ID",
        help="the channel of the sessions a campaign export brings (their reminders go there); "
        "default: none, a GM moves them",
    )
    load.add_argument(
        "--overwrite-user",
        type=int,
        action="append",
        default=[],
        metavar="USER_ID",
        help="with --replace: also overwrite this player's sheets of the same name (repeat for "
        "more players; tell them)",
    )
    load.add_argument(
        "--db",
        help="database file or postgresql:// URL (default: $WIRE_DATABASE, else data/wire.db)",
    )

    copy = commands.add_parser(
        "copy", help="copy the whole SQLite database into a new, empty PostgreSQL database"
    )
    copy.add_argument(
        "--from", dest="source", type=Path, required=True, help="the SQLite file, e.g. data/wire.db"
    )
    copy.add_argument(
        "--to",
        dest="target",
        required=True,
        metavar="URL",
        help="the empty PostgreSQL database, postgresql://user:password@host:5432/wire",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "backup":
            backup_database(args.database, args.destination)
            print(f"Backed up {args.database} to {args.destination}.")
        elif args.command == "restore":
            saved = restore_database(args.backup, args.database)
            kept = f" The previous database was saved as {saved}." if saved else ""
            print(f"Restored {args.database} from {args.backup}.{kept}")
        elif args.command == "check":
            report = check_database(args.database)
            print(report.summary())
            return 0 if report.ok else 1
        elif args.command == "import":
            print(asyncio.run(_import(args)))
        elif args.command == "copy":
            report = asyncio.run(copy_to_postgres(args.source, args.target, progress=print))
            print(report.summary())
        return 0
    except ImportRejected as exc:
        print(
            f"error: import rejected, nothing was written ({len(exc.problems)} problems):",
            file=sys.stderr,
        )
        for problem in exc.problems:
            print(f"  {problem}", file=sys.stderr)
        return 2
    except (CliError, StorageError, sqlite3.Error, OSError) as exc:
        print(f"error: {_one_line(exc)}", file=sys.stderr)
        return 2


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.strerror or exc}: {exc.filename}"
    return " ".join(str(exc).split()) or type(exc).__name__


async def _import(args: argparse.Namespace) -> str:
    try:
        data = args.file.read_bytes()
    except OSError as exc:
        raise CliError(f"cannot read {args.file}: {exc.strerror}") from exc
    plan = parse_import(data)  # reject a bad file before creating or opening anything
    store = await open_store(args.db)
    try:
        name = args.campaign or plan.campaign_name
        if name:
            try:
                campaign = await store.get_campaign(args.guild, name)
            except NotFound:
                if args.owner is None:
                    raise CliError(
                        f"there is no campaign {name!r} in guild {args.guild}; "
                        "give --owner USER_ID to create it with that user as its GM"
                    ) from None
                campaign = await store.create_campaign(
                    args.guild, name, Actor(args.owner, manages_guild=True)
                )
        else:
            campaign = next(
                (c for c in await store.list_campaigns(args.guild) if c.is_default), None
            )
            if campaign is None:
                if args.owner is None:
                    raise CliError(
                        f"guild {args.guild} has no default campaign yet; give --campaign NAME, "
                        "or --owner USER_ID to create the default one"
                    )
                campaign = await store.campaign_for_channel(args.guild, 0, args.owner)
        owner = args.owner if args.owner is not None else next(iter(campaign.gm_ids), None)
        if owner is None:
            raise CliError(
                f"campaign {campaign.name!r} has no GM to own what is imported; "
                "give --owner USER_ID"
            )
        actor = Actor(owner, manages_guild=True)  # the host has a server manager's rights
        if args.overwrite_user and not args.replace:
            raise CliError("--overwrite-user goes with --replace")
        players = set(args.overwrite_user)
        clashes = await store.import_clashes(args.guild, campaign.id, plan)
        outcome = await store.import_sheets(
            args.guild,
            campaign.id,
            actor,
            plan,
            replace=args.replace,
            overwrite={c.character_id for c in clashes if c.owner_id in players},
            channel_id=args.channel,
        )
    finally:
        await store.close()
    return import_summary(outcome, campaign.name, args.guild, owner)


def import_summary(outcome: ImportOutcome, campaign: str, guild: int, owner: int) -> str:
    """What an import did, what it left out and how to bring that in too."""
    imported = outcome.imported
    names = ", ".join(c.name for c in imported[:10]) + (", ..." if len(imported) > 10 else "")
    lines = [
        f"Imported {len(imported)} character(s) into campaign {campaign!r} of guild {guild}"
        + (f": {names}." if imported else ".")
    ]
    if outcome.replaced:
        lines.append("Replaced: " + ", ".join(_whose(c) for c in outcome.replaced) + ".")
    if outcome.left_out:
        lines.append(
            "Left out, already in the campaign and kept as they are: "
            + ", ".join(_whose(c) for c in outcome.left_out)
            + "."
        )
        others = sorted({c.owner_id for c in outcome.left_out if not c.is_npc} - {owner})
        hint = "To replace them, rename them in the file, or add --replace"
        if others:
            hint += (
                " and, for another player's sheets, --overwrite-user "
                + " --overwrite-user ".join(str(user) for user in others)
                + " (tell them first)"
            )
        lines.append(hint + ".")
    return "\n".join(lines)


def _whose(clash: ImportClash) -> str:
    return f"{clash.name!r} (NPC)" if clash.is_npc else f"{clash.name!r} (user {clash.owner_id}'s)"
