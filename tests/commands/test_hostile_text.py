"""Hostile text: what a player types is checked on arrival and shown with its markdown inert.

A modified client sends any text in any option (discord.py enforces no min/max length); the bot
refuses invisible, direction-changing and control characters, blanks and over-long text before
anything is rolled or stored, naming the option; and everything it does accept shows as typed:
a masked link, bold, a header, a mention or @everyone in a name is shown literally, never
rendered. `rendered` and `live_markup` below are this test's own reading of Discord's markdown,
independent of the bot's helper.
"""

from __future__ import annotations

import itertools
import re
import unicodedata

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cogs.utils.errors import BUG_MESSAGE
from cogs.utils.text import BIDI_CONTROLS, _escape, code, inert, loggable
from storage.models import NAME_MAX, NOTES_MAX
from tests.commands.conftest import embed_of, field, raw_slash

LINK = "[Free Nitro](https://example.com)"
LINK_SHOWN = r"\[Free Nitro](https://example.com)"

# ---- how Discord reads markdown (this test's own model) -------------------------------------

ESCAPE = re.compile(r"\\([^0-9A-Za-z\s])")
"""Discord's escape: a backslash before a punctuation character shows that character alone."""

LIVE = {
    "a masked link": r"\[[^\n]*\]\([^\n]*\)",
    "emphasis (* or _)": r"[*_]",
    "strike-through": r"~~",
    "a spoiler": r"\|\|",
    "code": r"`",
    "a mention, channel, emoji or timestamp": r"<",
    "a ping": r"@(everyone|here)",
    "a header, subtext, quote or list": r"(?m)^[^\S\n]*(#|>|[-+] |[0-9]+\. )",
}


def rendered(shown: str) -> str:
    """The characters Discord displays for `shown`: escapes resolved, no zero-width space
    keeping an @everyone from pinging."""
    return ESCAPE.sub(r"\1", shown).replace("@\u200b", "@")


def live_markup(shown: str) -> list[str]:
    """The markdown Discord would render in `shown` (escaped characters render as themselves)."""
    bare = ESCAPE.sub("\x00", shown)
    return [what for what, pattern in LIVE.items() if re.search(pattern, bare)]


def assert_inert(shown: str, typed: str) -> None:
    """`shown` displays exactly `typed`, with none of it rendered as markdown."""
    assert rendered(shown) == typed, (shown, typed)
    assert live_markup(shown) == [], (shown, live_markup(shown))


def storable(text: str) -> str | None:
    """The name the bot should accept for `text`, or None if it must refuse it."""
    name = unicodedata.normalize("NFC", text).strip()
    if not name or len(name) > NAME_MAX:
        return None
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") for ch in name):
        return None
    return name


def assert_refused(result, option: str) -> None:
    """Answered ephemerally, naming the option, the problem and the fix; nothing shown."""
    assert result.acknowledged
    assert result.response.ephemeral
    content = result.response.content
    assert content.startswith(f"{option}: "), content
    assert content.endswith("."), content
    assert content != BUG_MESSAGE
    assert result.response.embeds == []


CREATED = re.compile(r"Created \*\*(?P<name>.*)\*\* in (?P<campaign>.*?)\. Add stats", re.DOTALL)

# ---- (a) any text, from every character class ------------------------------------------------

MARKUP = [
    "*",
    "**",
    "_",
    "__",
    "~~",
    "||",
    "`",
    "```",
    "\\",
    "[",
    "]",
    "(",
    ")",
    "](",
    "<",
    ">",
    "> ",
    ">>> ",
    "@",
    "@everyone",
    "@here",
    "<@123>",
    "<@&123>",
    "<@!123456789012345678>",
    "<#1>",
    "<t:0:R>",
    "<:e:1>",
    "#",
    "# ",
    "## ",
    "-# ",
    "- ",
    "+ ",
    "1. ",
    "\n",
    " ",
    "\t",
    "https://example.com",
    LINK,
    "\u200b",
    "\u200d",
    "\u202e",
    "\u2066",
    "\ufeff",
    "\u2028",
    "\u2029",
    "\x00",
    "\x1b",
    "\x85",
    "\ud800",
    "e\u0301",
    "Jaime",
]

hostile_text = st.one_of(
    st.text(st.characters(), max_size=NAME_MAX + 16),
    st.lists(st.one_of(st.sampled_from(MARKUP), st.text(max_size=3)), max_size=12).map("".join),
)
runs = itertools.count()


@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=hostile_text)
async def test_any_name_or_label_is_refused_or_shown_inert(world, text):
    # A channel and a campaign of their own for each example, so every accepted name is new
    # there (creating a campaign never takes a channel another campaign plays in).
    run = next(runs)
    channel = world.guild.create_text_channel(f"run-{run}")
    await world.alice.slash(channel, "campaign create", name=f"Run {run}")
    checked = await raw_slash(world.bob, channel, "check", vs=10, attr=1, skill=1, label=text)
    created = await raw_slash(world.bob, channel, "character create", name=text)

    expected = storable(text)
    event("refused" if expected is None else "accepted")
    if expected is None:
        assert_refused(checked, "label")
        assert_refused(created, "name")
        return
    assert not checked.response.ephemeral
    title = embed_of(checked)["title"]
    assert title.startswith("bob: ")
    assert_inert(title.removeprefix("bob: "), expected)

    assert not created.response.ephemeral
    match = CREATED.match(created.response.content)
    assert match, created.response.content
    assert_inert(match["name"], expected)
    assert embed_of(created)["title"] == match["name"]


@settings(max_examples=200, deadline=None)
@given(text=hostile_text)
def test_inert_text_renders_as_typed(text):
    text = text.replace("\u200b", "")  # the one character inert adds (after an @)
    # Direction controls are dropped from what is shown (the store refuses them anyway).
    assert_inert(inert(text), text.translate(BIDI_CONTROLS))


@settings(max_examples=100, deadline=None)
@given(text=st.text(st.characters(categories=("L", "N", "Zs")) | st.sampled_from("'.,!?&")))
def test_ordinary_names_are_shown_unchanged(text):
    lead = text.lstrip()
    if lead[:1].isdigit() and re.match(r"[0-9]+\.", lead):
        return  # "1. " at the start of a line is a numbered list: escaped on purpose
    assert inert(text) == text


@settings(max_examples=300, deadline=None)
@given(text=hostile_text | st.text(st.characters(categories=("L", "N", "Zs", "P", "S"))))
def test_the_quick_path_changes_nothing(text):
    """`inert` hands plain text back without its three passes: the same answer as them."""
    assert inert(text) == _escape(text)


def test_helpers_for_code_spans_and_log_lines():
    assert code("/craft roll item:Sword vs:<TN>") == "`/craft roll item:Sword vs:<TN>`"
    assert code("a` [x](y) `b") == inert("a` [x](y) `b")
    assert loggable("wire:def:1\nforged line\u202e") == "wire:def:1\\nforged line\\u202e"
    assert len(loggable("x" * 500)) == 100


# ---- (b) named cases ----------------------------------------------------------------------


async def test_a_zero_width_space_in_a_name_is_refused(world):
    result = await raw_slash(world.bob, world.channel, "character create", name="Ja\u200bime")
    assert_refused(result, "name")
    assert result.response.content == (
        "name: contains an invisible or direction-changing character (U+200B). "
        "Type it again without it."
    )
    listing = embed_of(await world.bob.slash(world.channel, "character list"))
    assert listing["description"] == "None yet: /character create"


async def test_a_direction_override_in_a_label_is_refused_before_the_roll(world):
    world.dice.push(15)
    result = await raw_slash(
        world.bob, world.channel, "check", vs=10, attr=1, skill=1, label="Climb\u202eing"
    )
    assert_refused(result, "label")
    assert result.response.content == (
        "label: contains an invisible or direction-changing character (U+202E). "
        "Type it again without it."
    )
    assert list(world.dice.script) == [15]  # nothing was rolled
    history = embed_of(await world.bob.slash(world.channel, "history"))
    assert history["description"] == "No rolls yet."


async def test_a_10000_character_label_is_refused_and_nothing_is_logged(world):
    world.dice.push(15)
    result = await raw_slash(
        world.bob, world.channel, "check", vs=10, attr=1, skill=1, label="x" * 10_000
    )
    assert_refused(result, "label")
    assert result.response.content == (
        f"label: is 10000 characters long, the limit is {NAME_MAX}. "
        f"Shorten it to at most {NAME_MAX} characters."
    )
    assert list(world.dice.script) == [15]
    history = embed_of(await world.bob.slash(world.channel, "history"))
    assert history["description"] == "No rolls yet."


async def test_over_long_notes_and_names_are_refused_in_every_command(world):
    too_long = raw_slash(
        world.bob, world.channel, "character create", name="Jaime", notes="n" * 1001
    )
    assert_refused(await too_long, "notes")
    await world.bob.slash(world.channel, "character create", name="Jaime")
    for option in ("rename", "attribute", "name"):
        extra = {"value": 3} if option == "attribute" else {}
        result = await raw_slash(
            world.bob, world.channel, "character set", **{option: "y" * 65}, **extra
        )
        assert_refused(result, option)
    result = await raw_slash(world.bob, world.channel, "attack", target="z" * 65)
    assert_refused(result, "target")
    result = await raw_slash(world.bob, world.channel, "contest", attr=1, skill=1, opponent="\x00")
    assert_refused(result, "opponent")
    result = await raw_slash(world.alice, world.channel, "campaign create", name="\u2028")
    assert_refused(result, "name")
    result = await raw_slash(world.bob, world.channel, "craft start", item=" \u200d ")
    assert_refused(result, "item")
    embed = embed_of(await world.bob.slash(world.channel, "character show"))
    assert embed["title"] == "Jaime (active)" and "Notes" not in str(embed)


async def test_whitespace_only_notes_are_refused(world):
    result = await raw_slash(
        world.bob, world.channel, "character create", name="Jaime", notes="   "
    )
    assert_refused(result, "notes")
    assert result.response.content == "notes: is only spaces. Type some visible text."
    await world.bob.slash(world.channel, "character create", name="Jaime", notes="Oathsworn")
    result = await raw_slash(world.bob, world.channel, "character set", notes=" \t ")
    assert_refused(result, "notes")
    embed = embed_of(await world.bob.slash(world.channel, "character show"))
    assert field(embed, "Notes") == "Oathsworn"


async def test_text_is_normalised_and_stripped_on_arrival(world):
    created = await raw_slash(world.bob, world.channel, "character create", name="  Jose\u0301  ")
    assert created.response.content.startswith("Created **José** in Default.")
    shown = await raw_slash(world.bob, world.channel, "character show", name="jose\u0301")
    assert embed_of(shown)["title"] == "José (active)"


async def test_a_masked_link_as_a_name_is_shown_literally_everywhere(world):
    gm_room = world.guild.create_text_channel("gm-room")
    await world.alice.slash(world.channel, "campaign settings", gm_channel=gm_room)
    created = await world.bob.slash(world.channel, "character create", name=LINK)
    assert created.response.content.startswith(f"Created **{LINK_SHOWN}** in Default.")

    sheet = embed_of(await world.bob.slash(world.channel, "character show", name=LINK))
    assert sheet["title"] == f"{LINK_SHOWN} (active)"
    listing = embed_of(await world.carol.slash(world.channel, "character list"))
    assert listing["description"] == f"**{LINK_SHOWN}** (<@{world.bob.id}>)"

    world.dice.push(15)
    roll = embed_of(await world.bob.slash(world.channel, "check", attr=1, skill=1, vs=10))
    assert roll["title"] == f"{LINK_SHOWN}: Check"

    world.dice.push(15)
    hidden = await world.bob.slash(world.channel, "check", attr=1, skill=1, vs=10, private=True)
    assert embed_of(hidden)["title"] == f"{LINK_SHOWN}: Check"
    notice = world.channel.history()[-1]
    assert notice.content == f"🎲 {LINK_SHOWN} made a hidden check. The GMs have the result."
    (to_gms,) = gm_room.history()
    # An embed's author line shows no markdown at all: the name goes there as typed.
    assert to_gms.embeds[0].to_dict()["author"]["name"] == f"Hidden roll by {LINK} in Default"

    history = embed_of(await world.alice.slash(world.channel, "history"))
    lines = history["description"].splitlines()
    assert len(lines) == 2 and all(f"**{LINK_SHOWN}** check" in line for line in lines)
    for text in (sheet["title"], listing["description"], roll["title"], *lines):
        assert "a masked link" not in live_markup(text)


async def test_a_masked_link_name_as_an_attack_target_and_a_weapon(world):
    await world.bob.slash(world.channel, "character create", name=LINK)
    await world.carol.slash(world.channel, "character create", name="Carol")
    await world.carol.slash(
        world.channel,
        "character weapon",
        weapon="[Sword](https://example.com/s)",
        base=5,
        attribute="Strength",
        skill="**Swords**",
    )
    world.dice.push(15)
    attack = await world.carol.slash(
        world.channel, "attack", weapon="[sword](https://example.com/s)", target=LINK
    )
    embed = embed_of(attack)
    assert embed["title"] == (
        rf"Carol: Attack with \[Sword](https://example.com/s) on {LINK_SHOWN}"
    )
    assert embed["description"].startswith(f"**{LINK_SHOWN}, choose a defence!**")
    assert field(embed, "Modifiers") == (
        r"Strength (not on the sheet) +0, \*\*Swords\*\* (not on the sheet) +0"
    )

    defended = await world.bob.click(attack.response, label="Parry")
    result = embed_of(defended)
    assert result["title"] == (
        rf"Carol: Attack with \[Sword](https://example.com/s) on {LINK_SHOWN}"
    )
    assert any(f["name"].startswith(f"{LINK_SHOWN}: ") for f in result["fields"])


async def test_two_masked_links_on_one_line_are_both_inert(world):
    label = "[a](https://example.com/a) [b](https://example.com/b)"
    result = await world.bob.slash(world.channel, "check", attr=1, skill=1, vs=10, label=label)
    title = embed_of(result)["title"]
    assert title == r"bob: \[a](https://example.com/a) \[b](https://example.com/b)"
    assert_inert(title.removeprefix("bob: "), label)


async def test_a_header_name_is_shown_literally(world):
    created = await world.bob.slash(world.channel, "character create", name="# Big")
    assert created.response.content.startswith(r"Created **\# Big** in Default.")
    assert embed_of(created)["title"] == r"\# Big"
    sheet = embed_of(await world.bob.slash(world.channel, "character show"))
    assert sheet["title"] == r"\# Big (active)"


async def test_mentions_and_everyone_in_names_are_shown_inert(world):
    for name, shown in (
        ("@everyone", "@\u200beveryone"),
        ("@here", "@\u200bhere"),
        ("<@123>", r"\<@123>"),
        (f"<@{world.alice.id}>", f"\\<@\u200b{world.alice.id}>"),
        ("<@&42>", r"\<@&42>"),
    ):
        created = await world.bob.slash(world.channel, "character create", name=name)
        content = created.response.content
        assert content.startswith(f"Created **{shown}** in Default."), content
        assert_inert(CREATED.match(content)["name"], name)
    listing = embed_of(await world.carol.slash(world.channel, "character list"))
    assert "<@123>" not in listing["description"].replace(r"\<@", "")
    assert "@everyone" not in listing["description"]
    # The bot's own mention of the owner stays a mention.
    assert f"(<@{world.bob.id}>)" in listing["description"]


async def test_notes_with_markdown_are_shown_inert(world):
    notes = "> quote **bold** [x](https://example.com) -# small <@1> @everyone"
    await world.bob.slash(world.channel, "character create", name="Jaime", notes=notes)
    sheet = embed_of(await world.bob.slash(world.channel, "character show"))
    assert_inert(field(sheet, "Notes"), notes)


async def test_an_error_quoting_typed_text_shows_it_inert(world):
    missing = await world.bob.slash(world.channel, "character show", name=LINK)
    assert missing.response.ephemeral
    assert f"No character named '{LINK_SHOWN}'" in missing.response.content
    await world.bob.slash(world.channel, "character create", name="Jaime")
    no_stat = await world.bob.slash(world.channel, "check", attr_name="**Might**", skill=1, vs=10)
    # A stat the sheet lacks counts 0 (attribute or skill alike), and the note quotes it inert.
    assert field(embed_of(no_stat), "Not on the sheet").startswith(
        r"\*\*Might\*\* is not on Jaime's sheet, so it counts 0."
    )
    # A choice no client offers, quoted back in the refusal.
    wrong = await raw_slash(world.bob, world.channel, "defend", vs=10, base=5, defence=LINK)
    assert wrong.response.ephemeral
    assert r"'\[Free Nitro](https://example.com)' is not a valid" in wrong.response.content


async def test_crafting_shows_the_item_inert_and_its_hint_as_code(world):
    started = await world.bob.slash(world.channel, "craft start", item="**Sword**")
    assert started.response.content == (
        r"bob starts crafting **\*\*Sword\*\*** at quality 0. "
        "Roll with `/craft roll item:**Sword** vs:<TN>`."
    )
    sneaky = await world.bob.slash(world.channel, "craft start", item="a` [x](https://e.com) `")
    assert "a masked link" not in live_markup(sneaky.response.content)
    shown = embed_of(await world.bob.slash(world.channel, "craft show"))
    assert [f["name"] for f in shown["fields"]] == [
        r"\*\*Sword\*\*",
        r"a\` \[x](https://e.com) \`",
    ]


async def test_the_synced_text_options_keep_their_length_limits(world):
    payload = {c["name"]: c for c in await world.bot.command_payload()}

    def option(command: dict, name: str) -> dict:
        return next(o for o in command["options"] if o["name"] == name)

    label = option(payload["check"], "label")
    assert (label["type"], label["min_length"], label["max_length"]) == (3, 1, NAME_MAX)
    create = option(payload["character"], "create")
    notes = option(create, "notes")
    assert (notes["min_length"], notes["max_length"]) == (0, NOTES_MAX)
    assert option(create, "name")["max_length"] == NAME_MAX


async def test_a_hostile_display_name_is_shown_inert_and_cannot_turn_a_line_around(world):
    mallory = world.guild.add_member(world.env.create_user("[**mallory**](https://e.com)\u202e"))
    world.dice.push(15)
    result = await mallory.slash(world.channel, "check", attr=1, skill=1, vs=10, private=True)
    assert embed_of(result)["title"] == r"\[\*\*mallory\*\*](https://e.com): Check"
    notice = world.channel.history()[-1].content
    assert notice == (
        r"🎲 \[\*\*mallory\*\*](https://e.com) made a hidden check. The GMs have the result."
    )
