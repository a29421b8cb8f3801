"""Discord's numbers that the stand-in speaks, and the fixed ids of its fake application.

Why a module: REST routes, the gateway, payload building and the records all need the same
interaction types, callback types, flags and ids; they are declared here once.  Message and
component limits are not here: they live in ``tests/discord_rules.py`` with the checks that use
them, and the few numbers shared with it (option types, the components v2 flag) come from there.
"""

from __future__ import annotations

from tests import discord_rules as rules

API_PREFIX = "/api/v10"
JSON_CONTENT_TYPE = "application/json"
DISCORD_EPOCH_MS = 1_420_070_400_000

# Gateway intents (https://discord.com/developers/docs/events/gateway#gateway-intents).
INTENT_GUILDS = 1 << 0
# GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT: refused at IDENTIFY unless enabled.
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)

# Interaction types and callback types.
INTERACTION_PING = 1
INTERACTION_APPLICATION_COMMAND = 2
INTERACTION_MESSAGE_COMPONENT = 3
INTERACTION_AUTOCOMPLETE = 4
INTERACTION_MODAL_SUBMIT = 5
CALLBACK_PONG = 1
CALLBACK_CHANNEL_MESSAGE = 4
CALLBACK_DEFERRED_CHANNEL_MESSAGE = 5
CALLBACK_DEFERRED_UPDATE_MESSAGE = 6
CALLBACK_UPDATE_MESSAGE = 7
CALLBACK_AUTOCOMPLETE_RESULT = 8
CALLBACK_MODAL = 9
CALLBACK_TYPES = frozenset({1, 4, 5, 6, 7, 8, 9, 10, 12})

MESSAGE_FLAG_EPHEMERAL = 1 << 6
MESSAGE_FLAG_LOADING = 1 << 7
MESSAGE_FLAG_COMPONENTS_V2 = rules.IS_COMPONENTS_V2

# What an ordinary guild member may do, as Discord serialises permissions: a decimal string.
# Discord's @everyone defaults: view channels, send messages, embed links, attach files, read
# history, add reactions, use external emojis, use application commands; no Manage Server.
ORDINARY_MEMBER = (
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 6) | (1 << 18) | (1 << 31)
)
MANAGE_GUILD = 1 << 5
DEFAULT_MEMBER_PERMISSIONS = str(ORDINARY_MEMBER)
MANAGER_PERMISSIONS = str(ORDINARY_MEMBER | MANAGE_GUILD)
"""A member with Manage Server: the bot treats them as a GM of every campaign."""
DEFAULT_APP_PERMISSIONS = str((1 << 41) - 1 & ~(1 << 3))

# Application command option types.
OPTION_SUB_COMMAND = rules.SUB_COMMAND
OPTION_SUB_COMMAND_GROUP = rules.SUB_COMMAND_GROUP
OPTION_STRING = rules.STRING
OPTION_INTEGER = rules.INTEGER
OPTION_BOOLEAN = rules.BOOLEAN
OPTION_NUMBER = rules.NUMBER

# Fixed ids so that logs from different runs line up; they look like real snowflakes.
DEFAULT_APPLICATION_ID = 1_300_000_000_000_000_001
DEFAULT_GUILD_ID = 1_300_000_000_000_000_100
DEFAULT_CHANNEL_ID = 1_300_000_000_000_000_101
DEFAULT_GM_CHANNEL_ID = 1_300_000_000_000_000_102
DEFAULT_USER_ID = 1_300_000_000_000_000_200
DEFAULT_TOKEN = "fakecord.bot.token"
