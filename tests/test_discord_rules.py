"""Tests of the Discord rules checker itself: each rule catches a bad payload, passes a good one."""

from __future__ import annotations

import copy
from typing import Any

import discord
import pytest
from discord import app_commands

try:
    import discord_rules as rules
except ImportError:  # tests/ became a package
    from tests import discord_rules as rules

command_problems = rules.command_problems
embed_problems = rules.embed_problems
message_problems = rules.message_problems


# ------------------------------------------------------------------------------ helpers


def opt(name: str = "value", type: int = rules.STRING, **fields: Any) -> dict[str, Any]:
    return {"name": name, "description": "An option", "type": type, **fields}


def cmd(name: str = "roll", *options: dict[str, Any], **fields: Any) -> dict[str, Any]:
    command = {"name": name, "description": "A command", "type": rules.CHAT_INPUT}
    if options:
        command["options"] = list(options)
    command.update(fields)
    return command


def sub(name: str, *options: dict[str, Any]) -> dict[str, Any]:
    return opt(name, rules.SUB_COMMAND, options=list(options))


def group(name: str, *subcommands: dict[str, Any]) -> dict[str, Any]:
    return opt(name, rules.SUB_COMMAND_GROUP, options=list(subcommands))


def one(problems: list[str], *needles: str) -> str:
    """Exactly one problem, containing every needle."""
    assert len(problems) == 1, problems
    for needle in needles:
        assert needle in problems[0], problems
    return problems[0]


def wire_tree() -> app_commands.CommandTree:
    """A tiny tree as the bot builds it: a group, a subgroup, Range, choices, autocomplete."""
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    wire = app_commands.Group(name="wire", description="WIRE commands")
    admin = app_commands.Group(name="admin", description="Admin tools", parent=wire)

    @wire.command(name="roll", description="Roll a check")
    @app_commands.describe(skill="Skill level", mode="Difficulty", note="A note")
    @app_commands.choices(
        mode=[
            app_commands.Choice(name="Normal", value="n"),
            app_commands.Choice(name="Hard", value="h"),
        ]
    )
    async def roll(
        interaction: discord.Interaction,
        skill: app_commands.Range[int, 1, 20],
        mode: app_commands.Choice[str],
        note: app_commands.Range[str, 1, 50] | None = None,
        secret: bool = False,
    ) -> None: ...

    @wire.command(name="skill", description="Look up a skill")
    async def skill(interaction: discord.Interaction, name: str) -> None: ...

    @skill.autocomplete("name")
    async def skill_names(interaction: discord.Interaction, current: str) -> list:
        return []

    @admin.command(name="reset", description="Reset a character")
    async def reset(interaction: discord.Interaction, confirm: bool) -> None: ...

    @app_commands.command(name="ping", description="Pong")
    async def ping(interaction: discord.Interaction) -> None: ...

    @app_commands.context_menu(name="Inspect Member")
    async def inspect(interaction: discord.Interaction, member: discord.Member) -> None: ...

    tree.add_command(wire)
    tree.add_command(ping)
    tree.add_command(inspect)
    return tree


def wire_payload() -> list[dict[str, Any]]:
    tree = wire_tree()
    return [c.to_dict(tree) for c in tree.get_commands()]  # discord.py 2.7: to_dict(tree)


# ----------------------------------------------------------- a real discord.py payload


def test_real_discordpy_payload_passes():
    payload = wire_payload()
    names = [c["name"] for c in payload]
    assert names == ["wire", "ping", "Inspect Member"]
    roll = payload[0]["options"][1]
    assert roll["name"] == "roll" and roll["options"][0]["max_value"] == 20
    assert command_problems(payload) == []


def test_real_payload_mutations_are_caught():
    payload = wire_payload()
    roll = payload[0]["options"][1]
    roll["options"][0]["min_value"] = 30  # skill: min 30 > max 20
    skill = payload[0]["options"][2]
    skill["options"][0]["choices"] = [{"name": "Brawl", "value": "brawl"}]  # with autocomplete
    problems = command_problems(payload)
    assert len(problems) == 2, problems
    assert "/wire roll skill: min_value 30 is greater than max_value 20" in problems
    assert "/wire skill name: autocomplete may not be set together with choices" in problems


def test_real_payload_from_the_tree_helper_matches():
    # the sync code path: tree._get_all_commands() gives the same commands as get_commands()
    tree = wire_tree()
    payload = [c.to_dict(tree) for c in tree._get_all_commands()]
    assert command_problems(payload) == []


async def test_payload_a_bot_syncs_under_simcord_passes():
    simcord = pytest.importorskip("simcord")
    tree_source = wire_tree()

    class Bot(discord.Client):
        def __init__(self) -> None:
            super().__init__(intents=discord.Intents.none())
            self.tree = app_commands.CommandTree(self)
            for command in tree_source.get_commands():
                self.tree.add_command(command)

        async def setup_hook(self) -> None:
            await self.tree.sync()

    async with simcord.run(Bot()) as env:
        synced = [r.json for r in env.http_requests if r.method == "PUT"]
    assert len(synced) == 1
    assert [c["name"] for c in synced[0]] == ["wire", "ping", "Inspect Member"]
    assert command_problems(synced[0]) == []


# --------------------------------------------------------------------------- counts


@pytest.mark.parametrize(
    ("kind", "limit"),
    [(rules.CHAT_INPUT, 100), (rules.USER, 5), (rules.MESSAGE, 5)],
)
def test_commands_per_type_limit(kind, limit):
    def make(i: int) -> dict[str, Any]:
        if kind == rules.CHAT_INPUT:
            return cmd(f"c{i}")
        return {"name": f"C {i}", "type": kind}

    assert command_problems([make(i) for i in range(limit)]) == []
    one(command_problems([make(i) for i in range(limit + 1)]), f"at most {limit}", f"{limit + 1}")


def test_chat_input_limit_does_not_count_context_menus():
    payload = [cmd(f"c{i}") for i in range(100)] + [{"name": "Inspect", "type": rules.USER}]
    assert command_problems(payload) == []


def test_duplicate_command_names_per_type():
    one(command_problems([cmd("roll"), cmd("roll")]), "duplicate CHAT_INPUT command name 'roll'")
    # a CHAT_INPUT and a USER command may share a name
    assert command_problems([cmd("roll"), {"name": "roll", "type": rules.USER}]) == []


def test_payload_must_be_a_list_of_objects():
    one(command_problems({"name": "roll"}), "must be a list")  # type: ignore[arg-type]
    one(command_problems(["roll"]), "command 0 must be an object")  # type: ignore[list-item]


def test_invalid_command_type():
    one(command_problems([cmd(type=7)]), "invalid command type 7")
    assert command_problems([cmd(type=1)]) == []


# ---------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    "name",
    [
        "roll",
        "a",
        "x" * 32,
        "wire-roll_2",
        "don't",
        "würfeln",
        "бросок",
        "サイコロ",
        "骰子",
        "पासा",  # Devanagari, with a combining vowel sign (category Mc)
        "ทอย",  # Thai, with a combining mark (category Mn)
        "٣",  # Arabic-Indic digit (\p{N})
        "ß",  # lowercase with no single-character uppercase issue
    ],
)
def test_valid_chat_input_names(name):
    assert rules.name_problems(name) == []
    assert command_problems([cmd(name)]) == []
    assert command_problems([cmd("roll", opt(name))]) == []


@pytest.mark.parametrize(
    ("name", "needle"),
    [
        ("", "1-32 characters"),
        ("x" * 33, "1-32 characters"),
        ("Roll", "lowercase"),
        ("ROLL", "lowercase"),
        ("Бросок", "lowercase"),
        ("two words", "characters Discord does not allow"),
        ("roll!", "characters Discord does not allow"),
        ("roll.check", "characters Discord does not allow"),
        ("🎲", "characters Discord does not allow"),
    ],
)
def test_invalid_chat_input_names(name, needle):
    one(rules.name_problems(name), needle)
    one(command_problems([cmd(name)]), f"/{name}", needle)
    one(command_problems([cmd("roll", opt(name))]), needle)


def test_name_must_be_a_string():
    one(command_problems([cmd(None)]), "name must be a string")  # type: ignore[arg-type]


def test_context_menu_names_may_have_spaces_and_capitals():
    assert command_problems([{"name": "Inspect Member", "type": rules.USER}]) == []
    assert command_problems([{"name": "Quote This!", "type": rules.MESSAGE}]) == []
    one(command_problems([{"name": "I" * 33, "type": rules.USER}]), "1-32 characters")


# ---------------------------------------------------------------------- descriptions


@pytest.mark.parametrize(("length", "ok"), [(0, False), (1, True), (100, True), (101, False)])
def test_command_description_length(length, ok):
    problems = command_problems([cmd(description="d" * length)])
    if ok:
        assert problems == []
    else:
        one(problems, "/roll: description must be 1-100 characters")


@pytest.mark.parametrize(("length", "ok"), [(0, False), (1, True), (100, True), (101, False)])
def test_option_description_length(length, ok):
    problems = command_problems([cmd("roll", opt("skill", description="d" * length))])
    if ok:
        assert problems == []
    else:
        one(problems, "/roll skill: description must be 1-100 characters")


def test_subcommand_description_is_checked_too():
    bad = sub("check", opt("skill"))
    bad["description"] = ""
    one(command_problems([cmd("wire", bad)]), "/wire check: description must be 1-100")


def test_missing_description():
    command = cmd()
    del command["description"]
    one(command_problems([command]), "description must be a string")


def test_context_menu_must_not_have_description_or_options():
    assert command_problems([{"name": "Inspect", "type": rules.USER, "description": ""}]) == []
    one(
        command_problems([{"name": "Inspect", "type": rules.USER, "description": "x"}]),
        "description must be empty",
    )
    one(
        command_problems([{"name": "Inspect", "type": rules.MESSAGE, "options": [opt()]}]),
        "options are only allowed on CHAT_INPUT",
    )


# -------------------------------------------------------------------------- options


def test_at_most_25_options_per_level():
    assert command_problems([cmd("roll", *(opt(f"o{i}") for i in range(25)))]) == []
    one(command_problems([cmd("roll", *(opt(f"o{i}") for i in range(26)))]), "at most 25 options")
    # per subcommand
    too_many = sub("check", *(opt(f"o{i}") for i in range(26)))
    one(command_problems([cmd("wire", too_many)]), "/wire check: at most 25 options")
    # per group
    subs = [sub(f"s{i}") for i in range(26)]
    one(command_problems([cmd("wire", group("admin", *subs))]), "/wire admin: at most 25 options")


def test_required_options_before_optional_ones():
    good = cmd("roll", opt("a", required=True), opt("b", required=True), opt("c"), opt("d"))
    assert command_problems([good]) == []
    bad = cmd("roll", opt("a", required=True), opt("b"), opt("c", required=True))
    one(command_problems([bad]), "/roll c: required option is listed after optional option 'b'")
    # inside a subcommand too
    one(
        command_problems([cmd("wire", sub("check", opt("b"), opt("a", required=True)))]),
        "/wire check a: required option",
    )


def test_duplicate_option_names_within_one_level():
    one(command_problems([cmd("roll", opt("a"), opt("a"))]), "/roll: duplicate option name 'a'")
    # the same name on different levels is fine
    payload = [cmd("wire", sub("a", opt("a")), sub("b", opt("a")))]
    assert command_problems(payload) == []
    one(
        command_problems([cmd("wire", sub("a"), group("a", sub("x")))]),
        "duplicate option name 'a'",
    )


@pytest.mark.parametrize("kind", [0, 12, -1, "3", True, None])
def test_invalid_option_type(kind):
    one(command_problems([cmd("roll", opt(type=kind))]), "invalid option type")


@pytest.mark.parametrize("kind", range(3, 12))
def test_every_value_option_type_is_valid(kind):
    assert command_problems([cmd("roll", opt(type=kind))]) == []


# ----------------------------------------------------------------- subcommand nesting


def test_subcommand_groups_nest_one_level():
    good = cmd("wire", group("admin", sub("reset", opt("who"))), sub("roll", opt("skill")))
    assert command_problems([good]) == []
    nested = cmd("wire", group("admin", group("deeper", sub("reset"))))
    one(command_problems([nested]), "/wire admin deeper", "only nest one level")


def test_no_subcommand_inside_a_subcommand():
    one(
        command_problems([cmd("wire", sub("roll", sub("again")))]),
        "/wire roll again: a SUB_COMMAND cannot be nested inside a SUB_COMMAND",
    )
    one(
        command_problems([cmd("wire", sub("roll", group("again", sub("x"))))]),
        "SUB_COMMAND_GROUP cannot be nested inside a SUB_COMMAND",
    )


def test_group_holds_only_subcommands():
    one(
        command_problems([cmd("wire", group("admin", opt("who")))]),
        "/wire admin who: a SUB_COMMAND_GROUP may only contain SUB_COMMANDs",
    )


def test_subcommands_cannot_mix_with_plain_options():
    one(
        command_problems([cmd("wire", sub("roll"), opt("skill"))]),
        "/wire: cannot mix SUB_COMMAND/SUB_COMMAND_GROUP options with other options",
    )


def test_subcommand_cannot_be_required_or_have_value_fields():
    bad = sub("roll")
    bad["required"] = True
    one(command_problems([cmd("wire", bad)]), "required is not allowed on a SUB_COMMAND")
    plain = opt("x", options=[opt("y")])
    one(command_problems([cmd("wire", plain)]), "only SUB_COMMAND and SUB_COMMAND_GROUP")


# -------------------------------------------------------------------------- choices


def choices(n: int, kind: int = rules.STRING) -> list[dict[str, Any]]:
    return [{"name": f"c{i}", "value": f"v{i}" if kind == rules.STRING else i} for i in range(n)]


def test_at_most_25_choices():
    assert command_problems([cmd("roll", opt(choices=choices(25)))]) == []
    one(command_problems([cmd("roll", opt(choices=choices(26)))]), "at most 25 choices, has 26")


@pytest.mark.parametrize(("length", "ok"), [(0, False), (1, True), (100, True), (101, False)])
def test_choice_name_length(length, ok):
    option = opt(choices=[{"name": "n" * length, "value": "v"}])
    problems = command_problems([cmd("roll", option)])
    if ok:
        assert problems == []
    else:
        one(problems, "/roll value: choice 0: name must be 1-100 characters")


@pytest.mark.parametrize(("length", "ok"), [(1, True), (100, True), (101, False)])
def test_string_choice_value_length(length, ok):
    option = opt(choices=[{"name": "n", "value": "v" * length}])
    problems = command_problems([cmd("roll", option)])
    if ok:
        assert problems == []
    else:
        one(problems, "string value must be at most 100 characters, has 101")


def test_choice_value_type_matches_option_type():
    assert command_problems([cmd("roll", opt(type=rules.INTEGER, choices=choices(3, 4)))]) == []
    assert (
        command_problems(
            [cmd("roll", opt(type=rules.NUMBER, choices=[{"name": "h", "value": 0.5}]))]
        )
        == []
    )
    one(
        command_problems(
            [cmd("roll", opt(type=rules.INTEGER, choices=[{"name": "a", "value": "1"}]))]
        ),
        "value must be an integer",
    )
    one(
        command_problems(
            [cmd("roll", opt(type=rules.STRING, choices=[{"name": "a", "value": 1}]))]
        ),
        "value must be a string",
    )
    one(
        command_problems(
            [cmd("roll", opt(type=rules.INTEGER, choices=[{"name": "a", "value": 2**53}]))]
        ),
        "within ±(2^53-1)",
    )


def test_choices_only_on_string_integer_number():
    one(
        command_problems([cmd("roll", opt(type=rules.BOOLEAN, choices=choices(2)))]),
        "choices are only allowed on STRING, INTEGER and NUMBER",
    )


def test_autocomplete_not_together_with_choices():
    assert command_problems([cmd("roll", opt(autocomplete=True))]) == []
    assert command_problems([cmd("roll", opt(autocomplete=False, choices=choices(2)))]) == []
    one(
        command_problems([cmd("roll", opt(autocomplete=True, choices=choices(2)))]),
        "autocomplete may not be set together with choices",
    )
    one(
        command_problems([cmd("roll", opt(type=rules.USER_OPTION, autocomplete=True))]),
        "autocomplete is only allowed on STRING, INTEGER and NUMBER",
    )


# ------------------------------------------------------------------ ranges and lengths


def test_min_value_not_above_max_value():
    assert command_problems([cmd("roll", opt(type=rules.INTEGER, min_value=1, max_value=20))]) == []
    assert command_problems([cmd("roll", opt(type=rules.INTEGER, min_value=5, max_value=5))]) == []
    one(
        command_problems([cmd("roll", opt(type=rules.INTEGER, min_value=21, max_value=20))]),
        "min_value 21 is greater than max_value 20",
    )
    one(
        command_problems([cmd("roll", opt(type=rules.NUMBER, min_value=0.5, max_value=0.25))]),
        "min_value 0.5 is greater than max_value 0.25",
    )


def test_min_max_value_types_and_placement():
    one(
        command_problems([cmd("roll", opt(type=rules.INTEGER, min_value=1.5))]),
        "min_value must be an integer",
    )
    one(
        command_problems([cmd("roll", opt(type=rules.STRING, max_value=3))]),
        "max_value is only allowed on INTEGER and NUMBER",
    )
    one(
        command_problems([cmd("roll", opt(type=rules.INTEGER, max_value=2**53))]),
        "within ±(2^53-1)",
    )


@pytest.mark.parametrize(
    ("fields", "needle"),
    [
        ({"min_length": 0, "max_length": 6000}, None),
        ({"min_length": 6000}, None),
        ({"min_length": -1}, "min_length must be 0-6000"),
        ({"min_length": 6001}, "min_length must be 0-6000"),
        ({"max_length": 0}, "max_length must be 1-6000"),
        ({"max_length": 6001}, "max_length must be 1-6000"),
        ({"min_length": 10, "max_length": 5}, "min_length 10 is greater than max_length 5"),
    ],
)
def test_string_lengths(fields, needle):
    problems = command_problems([cmd("roll", opt(**fields))])
    if needle is None:
        assert problems == []
    else:
        one(problems, needle)


def test_lengths_only_on_strings():
    one(
        command_problems([cmd("roll", opt(type=rules.INTEGER, max_length=4))]),
        "max_length is only allowed on STRING",
    )


def test_channel_types_only_on_channel_options():
    assert command_problems([cmd("roll", opt(type=rules.CHANNEL, channel_types=[0]))]) == []
    one(
        command_problems([cmd("roll", opt(type=rules.STRING, channel_types=[0]))]),
        "channel_types is only allowed on CHANNEL",
    )


# ---------------------------------------------------------------- total characters


def big_command(total: int) -> dict[str, Any]:
    """A valid command whose counted size is exactly ``total`` (name 4 + description 96 ...)."""
    command = cmd("roll", description="d" * 96)  # 4 + 96 = 100
    options = []
    remaining = total - 100
    for i in range(25):
        if remaining <= 0:
            break
        name = f"o{i:02d}"  # 3 characters
        description_length = min(100, remaining - 3)
        option = opt(name, description="d" * description_length)
        remaining -= 3 + description_length
        choice_list = []
        while remaining > 0 and len(choice_list) < 25:
            name_length = min(100, remaining)
            value_length = min(100, remaining - name_length)
            if value_length == 0:  # a string value may be empty; keep it 1 character
                name_length -= 1
                value_length = 1
            choice_list.append({"name": "c" * name_length, "value": "v" * value_length})
            remaining -= name_length + value_length
        if choice_list:
            option["choices"] = choice_list
        options.append(option)
    command["options"] = options
    assert rules.command_characters(command) == total
    return command


def test_command_character_limit_is_the_documented_8000():
    assert rules.COMMAND_CHARACTER_LIMIT == 8000
    assert command_problems([big_command(8000)]) == []
    one(command_problems([big_command(8001)]), "8001 characters", "8000 per command")


def test_character_count_covers_every_field_recursively():
    command = cmd(
        "wire",  # 4
        group(
            "admin",  # 5 + 9 ("An option")
            sub(
                "reset",  # 5 + 9
                opt("who", choices=[{"name": "Me", "value": "me"}]),  # 3 + 9 + 2 + 2
                opt("n", type=rules.INTEGER, choices=[{"name": "Ten", "value": 10}]),  # 1+9+3+2
            ),
        ),
        description="WIRE",  # 4
    )
    assert rules.command_characters(command) == 4 + 4 + 14 + 14 + 16 + 15


def test_character_count_takes_the_longest_localization():
    command = cmd(
        "roll",
        description="Roll",
        name_localizations={"de": "würfeln"},
        description_localizations={"fr": "Lancer les dés"},
    )
    assert rules.command_characters(command) == len("würfeln") + len("Lancer les dés")


# -------------------------------------------------------------------- localizations


def test_localizations_follow_the_same_rules():
    good = cmd(
        "roll",
        opt(
            "skill",
            name_localizations={"de": "fertigkeit"},
            description_localizations={"de": "Wert"},
        ),
        name_localizations={"de": "würfeln", "pt-BR": "rolar"},
        description_localizations={"de": "Würfelt"},
    )
    assert command_problems([good]) == []
    one(
        command_problems([cmd(name_localizations={"de": "Würfeln"})]),
        "name_localizations[de]",
        "lowercase",
    )
    one(
        command_problems([cmd(description_localizations={"fr": "x" * 101})]),
        "description_localizations[fr]: description must be 1-100",
    )
    one(
        command_problems([cmd("roll", opt("skill", name_localizations={"de": "zwei worte"}))]),
        "/roll skill: name_localizations[de]",
    )
    one(command_problems([cmd(name_localizations={"xx": "roll"})]), "unknown locale 'xx'")
    option = opt(choices=[{"name": "n", "value": "v", "name_localizations": {"de": "n" * 101}}])
    one(command_problems([cmd("roll", option)]), "choice 0: name_localizations[de]", "1-100")


def test_localized_names_are_unique_among_siblings():
    clash = cmd(
        "roll",
        opt("skill", name_localizations={"de": "wert"}),
        opt("value", name_localizations={"de": "wert"}),
    )
    one(command_problems([clash]), "/roll: duplicate name 'wert' in locale de")
    # a localization equal to a sibling's default name collides for that locale too
    shadow = cmd("roll", opt("skill", name_localizations={"de": "value"}), opt("value"))
    one(command_problems([shadow]), "duplicate name 'value' in locale de")
    commands = [cmd("roll", name_localizations={"de": "wurf"}), cmd("throw")]
    commands[1]["name_localizations"] = {"de": "wurf"}
    one(command_problems(commands), "CHAT_INPUT commands: duplicate name 'wurf' in locale de")
    fine = cmd("roll", opt("skill", name_localizations={"de": "wert"}), opt("value"))
    assert command_problems([fine]) == []


def test_context_menu_localizations_may_be_mixed_case():
    menu = {"name": "Inspect", "type": rules.USER, "name_localizations": {"de": "Prüfen Sie"}}
    assert command_problems([menu]) == []


def test_default_member_permissions():
    assert command_problems([cmd(default_member_permissions="8")]) == []
    assert command_problems([cmd(default_member_permissions=None)]) == []
    one(command_problems([cmd(default_member_permissions=8)]), "default_member_permissions")


def test_problems_accumulate():
    bad = cmd("Roll", opt("a", description=""), opt("a"), description="")
    assert len(command_problems([bad])) == 4


# ---------------------------------------------------------------------------- embeds


def test_embed_from_discordpy_passes():
    embed = discord.Embed(title="Check", description="Success by 3")
    embed.add_field(name="Roll", value="14").set_footer(text="WIRE").set_author(name="GM")
    assert embed_problems(embed.to_dict()) == []


@pytest.mark.parametrize(
    ("key", "limit"),
    [("title", 256), ("description", 4096)],
)
def test_embed_title_and_description(key, limit):
    assert embed_problems({key: "x" * limit}) == []
    one(embed_problems({key: "x" * (limit + 1)}), f"embed.{key} must be at most {limit}")


def test_embed_fields():
    field = {"name": "n", "value": "v"}
    assert embed_problems({"fields": [field] * 25}) == []
    one(embed_problems({"fields": [field] * 26}), "at most 25 fields, has 26")
    assert embed_problems({"fields": [{"name": "n" * 256, "value": "v" * 1024}]}) == []
    one(embed_problems({"fields": [{"name": "n" * 257, "value": "v"}]}), "fields[0].name", "256")
    one(embed_problems({"fields": [{"name": "n", "value": "v" * 1025}]}), "fields[0].value", "1024")
    one(
        embed_problems({"fields": [{"name": "", "value": "v"}]}), "fields[0].name must not be empty"
    )
    one(
        embed_problems({"fields": [{"name": "n", "value": "  "}]}),
        "fields[0].value must not be empty",
    )
    one(embed_problems({"fields": [{"name": "n"}]}), "fields[0].value is required")
    # the zero-width space trick is not empty
    assert embed_problems({"fields": [{"name": "\u200b", "value": "\u200b"}]}) == []


def test_embed_footer_and_author():
    assert embed_problems({"footer": {"text": "f" * 2048}, "author": {"name": "a" * 256}}) == []
    one(embed_problems({"footer": {"text": "f" * 2049}}), "footer.text", "2048")
    one(embed_problems({"author": {"name": "a" * 257}}), "author.name", "256")
    one(embed_problems({"footer": {"icon_url": "https://x"}}), "footer.text is required")


def test_embed_total_6000():
    fields = [{"name": "n" * 100, "value": "v" * 900} for _ in range(5)]  # 5000
    ok = {"title": "t" * 100, "description": "d" * 900, "fields": fields}  # 6000
    assert rules.embed_length(ok) == 6000
    assert embed_problems(ok) == []
    bad = {**ok, "footer": {"text": "f"}}
    one(embed_problems(bad), "6001 characters", "at most 6000")


# -------------------------------------------------------------------------- messages


def test_message_content():
    assert message_problems({"content": "x" * 2000}) == []
    one(message_problems({"content": "x" * 2001}), "content must be at most 2000")


def test_message_embed_count():
    assert message_problems({"embeds": [{"title": "t"}] * 10}) == []
    one(message_problems({"embeds": [{"title": "t"}] * 11}), "at most 10 embeds")


def test_message_6000_across_all_embeds():
    two = [{"description": "d" * 3000}, {"description": "d" * 3000}]
    assert message_problems({"embeds": two}) == []
    three = [*two, {"title": "t"}]
    one(message_problems({"embeds": three}), "6001 characters across all embeds")


def test_message_embed_problems_are_located():
    one(message_problems({"embeds": [{}, {"title": "t" * 257}]}), "embeds[1].title")


def button(custom_id: str | None = "b", label: str = "Go", **fields: Any) -> dict[str, Any]:
    component = {"type": 2, "style": 1, "label": label, **fields}
    if custom_id is not None:
        component["custom_id"] = custom_id
    return component


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def test_message_action_rows_and_buttons():
    rows = [row(*(button(f"b{r}{i}") for i in range(5))) for r in range(5)]
    assert message_problems({"components": rows}) == []
    six_rows = [*rows, row(button("extra"))]
    one(message_problems({"components": six_rows}), "at most 5 action rows")
    one(
        message_problems({"components": [row(*(button(f"b{i}") for i in range(6)))]}),
        "at most 5 buttons per action row",
    )
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    assert message_problems({"components": [row(select)]}) == []
    one(message_problems({"components": [row(select, button())]}), "select menu must be alone")
    one(message_problems({"components": [button()]}), "must be an action row")


def test_message_custom_id_and_label():
    assert message_problems({"components": [row(button("c" * 100, "l" * 80))]}) == []
    one(message_problems({"components": [row(button("c" * 101))]}), "custom_id must be at most 100")
    one(message_problems({"components": [row(button("b", "l" * 81))]}), "label must be at most 80")
    one(message_problems({"components": [row(button(None))]}), "custom_id is required")
    one(
        message_problems({"components": [row(button("same"), button("same"))]}),
        "custom_id 'same' is already used",
    )
    link = button(None, style=5, url="https://example.com")
    assert message_problems({"components": [row(link)]}) == []
    one(message_problems({"components": [row(button(None, style=5))]}), "link button needs a url")


def test_message_from_discordpy_view_and_dynamic_item_passes():
    class Defend(discord.ui.DynamicItem[discord.ui.Button], template=r"wire:def:(?P<id>[0-9]+)"):
        def __init__(self, owner: int) -> None:
            super().__init__(discord.ui.Button(label="Dodge", custom_id=f"wire:def:{owner}"))

    view = discord.ui.View(timeout=None)
    view.add_item(Defend(123)).add_item(discord.ui.Button(label="Rules", url="https://x.example"))
    embed = discord.Embed(title="Duel").add_field(name="Attacker", value="Ana")
    message = {"content": "Choose", "embeds": [embed.to_dict()], "components": view.to_components()}
    assert message_problems(message) == []
    # an interaction callback body is unwrapped
    assert message_problems({"type": 4, "data": message}) == []
    broken = copy.deepcopy(message)
    broken["components"][0]["components"][0]["custom_id"] = "wire:def:" + "9" * 100
    one(message_problems({"type": 4, "data": broken}), "custom_id must be at most 100")


# ---------------------------------------------------------------------- autocomplete


def test_autocomplete_choices():
    good = [{"name": f"Skill {i}", "value": f"s{i}"} for i in range(25)]
    assert rules.autocomplete_problems(good) == []
    assert rules.autocomplete_problems([{"name": "Ten", "value": 10}]) == []
    one(rules.autocomplete_problems([*good, good[0]]), "at most 25 autocomplete choices")
    one(rules.autocomplete_problems([{"name": "n" * 101, "value": "v"}]), "name must be 1-100")
    one(rules.autocomplete_problems([{"name": "n", "value": "v" * 101}]), "at most 100")
    one(rules.autocomplete_problems([{"name": "n", "value": None}]), "string or a number")
