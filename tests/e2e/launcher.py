"""Run a discord.py bot, unchanged, against the local Discord stand-in.

Usage::

    python tests/e2e/launcher.py --base http://127.0.0.1:PORT/api/v10 \\
        --gateway ws://127.0.0.1:PORT/gateway [--bot path/to/bot.py] -- [bot args]

Why a launcher: the bot must be tested exactly as it is deployed, so instead of a test-only
switch in the bot, this process repoints discord.py's two hard-wired Discord addresses and then
runs the bot's entry point with ``runpy`` as ``__main__``:

* ``discord.http.Route.BASE`` (a str class attribute): every REST call, including the interaction
  webhooks, is built from it;
* ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (a ``yarl.URL``): discord.py 2.7 connects
  there directly (it asks ``GET /gateway/bot`` only when auto-sharded without a shard count)
  and returns to it after INVALID_SESSION; resumes go to READY's ``resume_gateway_url``.

Nothing else is patched.  The bot's own directory becomes ``sys.path[0]`` (as with ``python
bot.py``) so its imports resolve the same way.
"""

from __future__ import annotations

import argparse
import runpy
import sys
from collections.abc import Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def split_argv(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """Split at the first ``--``: launcher options before it, the bot's arguments after."""
    argv = list(argv)
    if "--" in argv:
        i = argv.index("--")
        return argv[:i], argv[i + 1 :]
    return argv, []


def point_discord_at(base: str, gateway: str) -> None:
    """Repoint discord.py's REST base and default gateway; fail loudly if they moved."""
    import discord.gateway
    import discord.http
    import yarl

    if not isinstance(getattr(discord.http.Route, "BASE", None), str):
        raise SystemExit("launcher: discord.http.Route.BASE is gone; discord.py changed")
    if not isinstance(getattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", None), yarl.URL):
        raise SystemExit("launcher: DiscordWebSocket.DEFAULT_GATEWAY is not a yarl.URL any more")
    discord.http.Route.BASE = base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the options, repoint discord.py, run the bot as ``__main__``."""
    ours, theirs = split_argv(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="REST base, e.g. http://127.0.0.1:P/api/v10")
    parser.add_argument("--gateway", required=True, help="gateway URL, e.g. ws://127.0.0.1:P")
    parser.add_argument("--bot", default=str(REPO_ROOT / "bot.py"), help="bot entry point file")
    args = parser.parse_args(ours)

    bot = Path(args.bot).resolve()
    if not bot.is_file():
        raise SystemExit(f"launcher: bot entry point {bot} does not exist")
    point_discord_at(args.base, args.gateway)

    sys.argv = [str(bot), *theirs]
    sys.path[0] = str(bot.parent)  # as `python bot.py` would have it, not this file's folder
    runpy.run_path(str(bot), run_name="__main__")


if __name__ == "__main__":
    main()
