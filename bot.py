"""The WIRE bot's entry point: `python bot.py` (or `make run`).

A Bot subclass that opens the campaign storage and loads the cogs in `setup_hook`, syncs the slash
commands only when they changed, and shuts down cleanly on SIGINT/SIGTERM. With WIRE_SHARD_COUNT
set it runs as discord.py's AutoShardedBot on the shards WIRE_SHARD_IDS names (all by default).

    python bot.py            run the bot
    python bot.py --sync     force a command sync at start-up
    python bot.py --invite   print the invite link and exit
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import json
import logging
import random
import re
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime

import aiohttp
import discord
from discord.ext import commands
from dotenv import load_dotenv

from cogs.utils import collector
from cogs.utils.config import (
    TOKEN_HELP,
    VARIABLES,
    Config,
    ConfigError,
    check_deployment,
    format_shard_ids,
    load_config,
)
from cogs.utils.errors import answer_ephemeral
from cogs.utils.interest import hear_interest
from cogs.utils.language import speak_for
from cogs.utils.logs import setup_logging
from cogs.utils.tracker import TrackerEdits
from cogs.utils.tracker_pace import TrackerPace
from cogs.utils.translator import WireTranslator
from cogs.utils.tree import WireTree, log_interaction
from storage import RuleStore, StorageError, open_store
from wire.i18n import N_, tr

log = logging.getLogger("wire")

FormHandler = Callable[[discord.Interaction, re.Match[str]], Awaitable[None]]
"""Answers a modal submit, given its custom_id's match (`WireBot.add_form`)."""

EXTENSIONS = (
    "cogs.rolls",
    "cogs.free_roll",
    "cogs.odds",
    "cogs.combat",
    "cogs.fights",
    "cogs.conditions",
    "cogs.health",
    "cogs.crafting",
    "cogs.characters",
    "cogs.advancement",
    "cogs.gear",
    "cogs.purse",
    "cogs.counters",
    "cogs.incharacter",
    "cogs.campaigns",
    "cogs.history",
    "cogs.stats",
    "cogs.help",
    "cogs.privacy",
    "cogs.retention",
    "cogs.heartbeat",
    "cogs.quickplay",
    "cogs.sessions",
)

# View Channel, Send Messages, Embed Links: enough to post hidden-roll results in a GM channel.
# Manage Webhooks: /say posts as the character through a webhook per channel (without it, as an
# embed of the bot's own). Manage Events: a session is listed as a scheduled event (without it,
# the session is kept unlisted). Create Public Threads and Send Messages in Threads: a session's
# recap goes in a thread. Slash command answers need no channel permission at all.
INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    manage_webhooks=True,
    manage_events=True,
    create_public_threads=True,
    send_messages_in_threads=True,
)
STALE_BUTTON = N_(
    "This button no longer works (it expired, or the bot restarted). Nothing was done."
)
SHARDING_REQUIRED = 4011
"""Discord's gateway close code when a shard would carry too many servers."""
SHUTDOWN_GRACE = 10.0
"""Seconds to let interactions in flight finish before closing the database."""


def intents() -> discord.Intents:
    """Least intents: guild events and the guild's scheduled events (a session follows its
    event, and interest marked on it answers), no privileged intents, no members, no messages."""
    return discord.Intents(guilds=True, guild_scheduled_events=True)


class WireBot(commands.Bot):
    def __init__(
        self,
        config: Config,
        *,
        store: RuleStore | None = None,
        rng: random.Random | None = None,
        force_sync: bool = False,
        sync_commands: bool = True,
        background_tasks: bool = True,
        **options,
    ) -> None:
        options.setdefault("intents", intents())
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            tree_cls=WireTree,
            member_cache_flags=discord.MemberCacheFlags.none(),
            chunk_guilds_at_startup=False,
            max_messages=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.config = config
        self._store = store
        self.rng = rng or random.SystemRandom()
        """Dice come from here: the OS's randomness, or a seeded Random in tests."""
        self.force_sync = force_sync
        self.sync_commands = sync_commands
        self.background_tasks = background_tasks
        """Timed loops (the defence-button expiry sweep); tests call them by hand instead."""
        self.closing = False
        self._shutdown: asyncio.Future[None] | None = None
        self.tracker_edits = TrackerEdits()
        """Keeps each fight's tracker on its latest state (cogs/utils/tracker.py)."""
        self.tracker_pace = TrackerPace.for_shards(config.shard_count, config.shard_ids)
        """Spaces tracker edits inside Discord's limits (cogs/utils/tracker_pace.py)."""
        self.live_components: set[str] = set()
        """custom_ids of the short-lived (non-persistent) buttons now listening."""
        self._component_templates: list[re.Pattern[str]] = []
        self._forms: dict[re.Pattern[str], FormHandler] = {}
        """Handlers of modal submits by their custom_id's template (`add_form`)."""
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        hear_interest(self)  # interest marked on a session's event, of any user (cogs/sessions)

    # ---- clock and storage -------------------------------------------------------------------
    @property
    def store(self) -> RuleStore:
        if self._store is None:
            raise RuntimeError("The store is opened in setup_hook.")
        return self._store

    def now(self) -> datetime:
        """The current time; tests replace it to expire defence buttons without waiting."""
        return datetime.now(UTC)

    # ---- start-up ----------------------------------------------------------------------------
    async def setup_hook(self) -> None:
        if self._store is None:
            self._store = await open_store(self.config.database)
        await self.tree.set_translator(WireTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if not self.sync_commands:
            return
        if self.config.syncs_commands:
            await self.sync_if_changed()
        else:
            log.info(
                "Not syncing commands: this process runs shards %s; the one with shard 0 syncs.",
                format_shard_ids(self.config.shard_ids or ()),
            )

    async def command_payload(self, guild: discord.abc.Snowflake | None = None) -> list[dict]:
        """The JSON Discord gets on a sync, localisations included (built, as `tree.sync` builds
        it, through the translator), for hashing and for the registration-rules test."""
        translator = self.tree.translator or WireTranslator()
        return [
            await command.get_translated_payload(self.tree, translator)
            for command in self.tree.get_commands(guild=guild)
        ]

    async def sync_if_changed(self) -> None:
        """Sync only when the payload differs from the last synced one (its hash is stored).

        Discord rate-limits command creation, so syncing on every start is not an option.
        """
        guild = discord.Object(self.config.dev_guild) if self.config.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        await self.clear_other_scope(guild)
        payload = await self.command_payload(guild)
        digest = hashlib.sha256(
            json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()
        ).hexdigest()
        key = f"command_hash:{guild.id}" if guild else GLOBAL_HASH
        if not self.force_sync and await self.store.get_meta(key) == digest:
            log.info("Commands unchanged since the last sync; not syncing.")
            return
        synced = await self.tree.sync(guild=guild)
        await self.store.set_meta(key, digest)
        log.info(
            "Synced %d commands (%s).", len(synced), f"guild {guild.id}" if guild else "global"
        )

    async def clear_other_scope(self, guild: discord.abc.Snowflake | None) -> None:
        """Remove the commands an earlier start registered in the other scope.

        A host who tests with WIRE_DEV_GUILD after a global sync (or goes global after testing)
        would otherwise see every command twice in that server: Discord shows a server's own
        commands beside the global ones. The scope last synced is kept in the database; before
        this was kept, a stored global hash means a global sync happened.
        """
        now = str(guild.id) if guild else "global"
        previous = await self.store.get_meta("command_scope")
        if previous is None and guild is not None and await self.store.get_meta(GLOBAL_HASH):
            previous = "global"
        if previous and previous != now:
            assert self.application_id is not None  # set by login, before setup_hook
            if previous == "global":
                await self.http.bulk_upsert_global_commands(self.application_id, payload=[])
            else:
                await self.http.bulk_upsert_guild_commands(
                    self.application_id, int(previous), payload=[]
                )
            # Its commands are gone: a later sync to that scope must not be skipped as unchanged.
            await self.store.set_meta(f"command_hash:{previous}", "")
            log.info("Removed the commands of the earlier scope (%s).", _scope_name(previous))
        await self.store.set_meta("command_scope", now)

    async def on_ready(self) -> None:
        log.info("Ready as %s in %d guilds.", self.user, len(self.guilds))

    async def on_shard_ready(self, shard_id: int) -> None:
        log.info("Shard %d of %s ready.", shard_id, self.shard_count)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem]) -> None:
        """Register persistent buttons; each declares `pattern`, the template it was made with.

        discord.py keeps the compiled template under a private name, so the classes hand us the
        same compiled pattern themselves.
        """
        super().add_dynamic_items(*items)
        self._component_templates += [item.pattern for item in items]  # type: ignore[attr-defined]

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem]) -> None:
        super().remove_dynamic_items(*items)
        gone = {item.pattern for item in items}  # type: ignore[attr-defined]
        self._component_templates = [t for t in self._component_templates if t not in gone]

    def add_form(self, template: re.Pattern[str], handler: FormHandler) -> None:
        """Answer the modal submits whose custom_id matches `template` with `handler`: a form
        that names all it needs, answered wherever and whenever it was opened.

        The forms are answered from `on_interaction`, not by a listener each: discord.py runs
        every listener of an event as a task of its own for every interaction, a /check too.
        """
        self._forms[template] = handler

    def remove_form(self, template: re.Pattern[str]) -> None:
        self._forms.pop(template, None)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer a form (`add_form`), or a press on a button nothing listens to any more (a
        restart, a stale message).

        discord.py leaves such presses unanswered, and the user would see "This interaction
        failed"; persistent buttons match a DynamicItem template, short-lived ones are listed in
        `live_components`, and anything else gets a short note.
        """
        if interaction.type is discord.InteractionType.modal_submit:
            await self._answer_form(interaction)
            return
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if custom_id in self.live_components:
            return
        if _carries(interaction.message, custom_id) and any(
            template.fullmatch(custom_id) for template in self._component_templates
        ):
            return  # a DynamicItem answers it (discord.py drops it if the message lacks it)
        if not interaction.response.is_done():
            speak_for(interaction)
            await answer_ephemeral(interaction, tr(STALE_BUTTON))
            log_interaction(interaction, "refused: stale button")

    async def _answer_form(self, interaction: discord.Interaction) -> None:
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        for template, handler in self._forms.items():
            match = template.fullmatch(custom_id)
            if match is not None:
                await handler(interaction, match)
                return

    async def on_app_command_completion(self, interaction: discord.Interaction, command) -> None:
        self.tree.finish(interaction, "ok")

    # ---- in-flight work and shutdown ---------------------------------------------------------
    def track_start(self) -> None:
        self._in_flight += 1
        self._idle.clear()

    def track_end(self) -> None:
        self._in_flight = max(0, self._in_flight - 1)
        if self._in_flight == 0:
            self._idle.set()

    async def close(self) -> None:
        """Refuse new work, let work in flight finish, close the database, then disconnect.

        Every caller (the signal handler, `async with bot`) awaits the same shutdown, so the
        database is closed before `asyncio.run` cancels what is left.
        """
        if self._shutdown is None:
            self._shutdown = asyncio.ensure_future(self._close())
        await asyncio.shield(self._shutdown)

    async def _close(self) -> None:
        self.closing = True
        log.info("Shutting down: %d interactions in flight.", self._in_flight)
        try:
            await asyncio.wait_for(self._idle.wait(), SHUTDOWN_GRACE)
        except TimeoutError:
            log.warning("Gave up waiting for %d interactions.", self._in_flight)
        await super().close()
        if self._store is not None:
            await self._store.close()
            log.info("Database closed.")


class ShardedWireBot(WireBot, commands.AutoShardedBot):
    """WireBot on several gateway connections: discord.py's AutoShardedBot does the sharding.

    A subclass rather than a switch inside WireBot, because discord.py picks single or sharded
    connections by class; tests keep building the plain WireBot.
    """


def make_bot(config: Config, **options) -> WireBot:
    """The bot `config` asks for: sharded on its shards, or one unsharded connection."""
    if config.shard_count is None:
        return WireBot(config, **options)
    return ShardedWireBot(
        config, shard_count=config.shard_count, shard_ids=list(config.shard_ids or ()), **options
    )


def _carries(message: discord.Message | None, custom_id: str) -> bool:
    """Whether the message has a component with this custom id."""
    if message is None:
        return False
    return any(
        getattr(child, "custom_id", None) == custom_id
        for row in message.components
        for child in getattr(row, "children", ())
    )


def application_id_from_token(token: str) -> int | None:
    """A bot token's first part is its user id in base64; for a bot that is the client id."""
    first = token.split(".", 1)[0]
    try:
        return int(base64.b64decode(first + "=" * (-len(first) % 4)).decode())
    except ValueError:
        return None


def invite_link(client_id: int) -> str:
    return discord.utils.oauth_url(
        client_id,
        permissions=INVITE_PERMISSIONS,
        scopes=("bot", "applications.commands"),
    )


GLOBAL_HASH = "command_hash:global"


def _scope_name(scope: str) -> str:
    return "global" if scope == "global" else f"guild {scope}"


def sharding_required(config: Config) -> str:
    """What to do when Discord closes the gateway with 4011: the bot outgrew its shards.

    It happens on the day a growing bot passes 2,500 servers a shard, so the message names the
    setting rather than leaving a traceback.
    """
    shards = config.shard_count or 1
    return (
        f"Discord refused the connection: the bot is in more servers than {shards} "
        f"shard{'s' if shards > 1 else ''} may carry (Discord allows 2,500 per shard). Set "
        f"WIRE_SHARD_COUNT above {shards}, about one shard per 1,000 servers "
        "(docs/hosting.md, section 'Sharding')."
    )


def configuration_help() -> str:
    """The epilog of `--help`: where the settings come from and each variable, so that a host
    does not have to find docs/hosting.md to learn what .env may hold."""
    width = max(len(name) for name, _ in VARIABLES)
    lines = [
        "Configuration: .env beside bot.py (copy .env.example to start one), or the process",
        "environment, which wins over .env. The variables:",
        *(f"  {name:<{width}}  {meaning}" for name, meaning in VARIABLES),
        "make run, make sync and make invite run these with the bot's .venv.",
    ]
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python bot.py",
        description="Run the WIRE bot.",
        epilog=configuration_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--sync", action="store_true", help="sync slash commands at start-up")
    parser.add_argument("--invite", action="store_true", help="print the invite link and exit")
    return parser.parse_args(argv)


def close_on_signals(loop: asyncio.AbstractEventLoop, bot: WireBot) -> bool:
    """SIGINT and SIGTERM close the bot cleanly (interactions in flight finish, the database
    closes). Windows' event loop takes no signal handlers: there Ctrl+C arrives as
    KeyboardInterrupt, which `main` turns into the same clean stop. Returns whether the handlers
    are in place."""
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    except NotImplementedError:
        return False
    return True


async def run(config: Config, force_sync: bool) -> int:
    bot = make_bot(config, force_sync=force_sync)
    close_on_signals(asyncio.get_running_loop(), bot)
    collector.tune()  # this process's collector (cogs/utils/collector.py says why)
    freezer: asyncio.Task[None] | None = None
    try:
        async with bot:
            await bot.login(config.token)  # `start` is login + connect; setup_hook runs here
            collector.freeze_heap()  # the modules, cogs and store, before any interaction
            freezer = asyncio.create_task(collector.freeze_when_ready(bot))
            await bot.connect()
    except discord.LoginFailure:
        print(f"Discord refused the token in DISCORD_TOKEN. {TOKEN_HELP}", file=sys.stderr)
        return 1
    except aiohttp.ClientConnectorError as exc:
        # Logging in found no way to Discord (no network, DNS, a firewall): a user's problem to
        # fix outside the bot, so one line, not aiohttp's traceback. Once connected, discord.py
        # reconnects by itself.
        print(
            f"Could not reach Discord at {exc.host}:{exc.port} ({exc.os_error or exc}). Check "
            "the network (DNS, a firewall or proxy), then start the bot again.",
            file=sys.stderr,
        )
        return 1
    except discord.PrivilegedIntentsRequired:
        print("Discord refused the connection: privileged intents are not needed.", file=sys.stderr)
        return 1
    except discord.ConnectionClosed as exc:
        if exc.code != SHARDING_REQUIRED:
            raise
        print(sharding_required(config), file=sys.stderr)
        return 1
    except StorageError as exc:  # the database at start: damaged, not writable, too new
        print(f"The bot did not start: {exc}", file=sys.stderr)
        return 1
    finally:
        if freezer is not None:
            freezer.cancel()
        # discord.py's own exit skips close() once closing has begun; ours must still finish
        # (the database closes last), before asyncio.run cancels what is left.
        await bot.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    load_dotenv()
    try:
        config = load_config()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 1
    if args.invite:
        client_id = application_id_from_token(config.token)
        if client_id is None:
            print(f"DISCORD_TOKEN does not look like a bot token. {TOKEN_HELP}", file=sys.stderr)
            return 1
        print(invite_link(client_id))
        return 0
    try:
        check_deployment(config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 1
    setup_logging(config.log_level, secret=config.token)
    if config.sharded:
        log.info(
            "Running shards %s of %d in this process.",
            format_shard_ids(config.shard_ids or ()),
            config.shard_count,
        )
    started = time.monotonic()
    try:
        code = asyncio.run(run(config, args.sync))
    except KeyboardInterrupt:  # Windows' Ctrl+C: `async with bot` has closed it on the way out
        code = 0
    log.info("Stopped after %.0f s.", time.monotonic() - started)
    return code


if __name__ == "__main__":
    sys.exit(main())
