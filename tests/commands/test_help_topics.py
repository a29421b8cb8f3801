"""/help split by topic: an overview that points to each topic, and each topic in full, every
reply a short read within Discord's limits, in English and German (issue 20: /hilfe was one
embed of over 4,400 characters)."""

from __future__ import annotations

import re

import pytest

from cogs.help import RULES_TOPIC, TOPICS
from tests.commands.conftest import embed_of
from tests.discord_rules import embed_problems

SHORT_READ = 2000
"""Characters in one reply: a screen of text, not a wall."""


def size(embed: dict) -> int:
    return (
        len(embed.get("title", ""))
        + len(embed.get("description", ""))
        + sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))
    )


@pytest.mark.parametrize("locale", ["en-US", "de"])
async def test_every_part_of_help_is_a_short_read(world, client_languages, locale):
    client_languages.set(world.bob, locale)
    overview = embed_of(await world.bob.slash(world.channel, "help"))
    assert size(overview) <= SHORT_READ, size(overview)
    assert embed_problems(overview) == []
    for topic in [*TOPICS, RULES_TOPIC]:
        reply = await world.bob.slash(world.channel, "help", topic=topic)
        assert reply.response.ephemeral
        embed = embed_of(reply)
        assert embed_problems(embed) == []
        assert 100 < size(embed) <= SHORT_READ, (topic, size(embed))


async def test_the_overview_points_to_each_topic_in_the_readers_words(world, client_languages):
    client_languages.set(world.bob, "de")
    overview = embed_of(await world.bob.slash(world.channel, "help"))
    fights = next(f for f in overview["fields"] if f["name"] == "Kämpfe")
    # A German client lists only the German names: the overview names those, as its examples do.
    assert fights["value"] == (
        "`/kampf` `/gesundheit` `/zustand` · Beispiele: `/hilfe thema:Kämpfe`"
    )
    points = next(f for f in overview["fields"] if f["name"] == "Charakterpunkte")
    assert points["value"].startswith("`/cp` `/charakter steigern` · ")
    topic = embed_of(await world.bob.slash(world.channel, "help", topic="fights"))
    assert topic["title"] == "Kämpfe"
    assert "`/kampf beginnen name:Hinterhalt`" in topic["description"]


@pytest.mark.parametrize(
    ("locale", "overview", "words"),
    [
        ("en-US", "`/panel` `/save` `/r` · examples: `/help topic:Quick play`",
         ["`/panel`", "`/save name:", "`/r name:", "**Panel** under your sheet",
          "`/character show`", "**Defence odds**", "**End turn**"]),
        ("de", "`/aktionen` `/speichern` `/w` · Beispiele: `/hilfe thema:Schnelles Spiel`",
         ["`/aktionen`", "`/speichern name:", "`/w name:", "**Aktionen** unter deinem Bogen",
          "`/charakter zeigen`", "**Abwehrchancen**", "**Zug beenden**"]),
    ],
)  # fmt: skip
async def test_help_names_the_panel_save_r_and_the_sheet_s_panel_button(
    world, client_languages, locale, overview, words
):
    """Quick play in /help: the commands by the names the reader's client shows, and the
    sheet's Panel button (Aktionen in German), the Defence odds and End turn by their labels."""
    client_languages.set(world.bob, locale)
    shown = embed_of(await world.bob.slash(world.channel, "help"))
    quick = [f["value"] for f in shown["fields"] if f["value"].startswith(overview[:9])]
    assert quick == [overview], [f["value"] for f in shown["fields"]]
    topic = embed_of(await world.bob.slash(world.channel, "help", topic="quick"))["description"]
    assert [w for w in words if w not in topic] == [], topic


def command_paths(payload: list[dict], language: str | None) -> dict[str, set[str]]:
    """Every command a user types (`character create`), in English or in a language's names,
    with its options' names."""

    def name(item: dict) -> str:
        return (
            item.get("name_localizations", {}).get(language, item["name"])
            if language
            else (item["name"])
        )

    paths: dict[str, set[str]] = {}

    def walk(item: dict, path: str) -> None:
        subs = [o for o in item.get("options", []) if o["type"] in (1, 2)]
        if not subs:
            paths[path] = {name(o) for o in item.get("options", [])}
        for sub in subs:
            walk(sub, f"{path} {name(sub)}")

    for command in payload:
        if command.get("type", 1) == 1:
            walk(command, name(command))
    return paths


@pytest.mark.parametrize(
    ("locale", "language", "title", "first"),
    [
        ("en-US", None, "First steps for a new table", "`/character create name:Jaime"),
        ("de", "de", "Erste Schritte für eine neue Runde", "`/charakter erstellen name:Jaime"),
    ],
)
async def test_the_first_steps_topic_gives_a_gm_commands_that_run_as_written(
    world, client_languages, locale, language, title, first
):
    """/help topic:First steps for a new table: the README's first steps in Discord, for the
    GM of a new table; every command in it is a real one with real options, in the reader's
    language."""
    from tools.command_tree import loaded_bot

    client_languages.set(world.alice, locale)
    embed = embed_of(await world.alice.slash(world.channel, "help", topic="start"))
    assert embed["title"] == title
    assert first in embed["description"]
    async with loaded_bot() as bot:
        paths = command_paths(await bot.command_payload(), language)
    examples = re.findall(r"`/([^`]+)`", embed["description"])
    assert len(examples) >= 8
    for example in examples:
        words = re.split(r" (?=[\w_]+:)", example, maxsplit=1)
        path, options = words[0], set(re.findall(r"(?:^| )([\w_]+):", " " + "".join(words[1:])))
        assert path in paths, f"/{path} is not a command"
        assert options <= paths[path], f"/{example}: {options - paths[path]} are no options"
