"""README.md against the code: what it shows must be what the bot, the CLI and the files do.

The command reference itself is checked against the synced command payload in
tests/commands/test_command_payload.py; here: the two set-up commands, the configuration table,
the CLI examples (run, and their printed output compared), the example embed, the links, and the
example campaign file.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
ENV_EXAMPLE = ROOT / ".env.example"
EXAMPLE_CAMPAIGN = ROOT / "data" / "example-campaign.json"

CLI = re.compile(r"(?:^|[\s/])python3? -m wire(?:\s+(?P<args>.*))?$")


@pytest.fixture(scope="module")
def readme() -> str:
    return README.read_text()


def code_blocks(text: str) -> list[tuple[str, list[str]]]:
    """Fenced code blocks as (language, lines)."""
    blocks = []
    for match in re.finditer(r"^ *```(\w*)\n(.*?)^ *```", text, re.M | re.S):
        blocks.append((match[1], [line.strip() for line in match[2].splitlines()]))
    return blocks


def section(text: str, heading: str) -> str:
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"README has no section '## {heading}'"
    return match[1]


def without_comment(line: str) -> str:
    return re.split(r"\s+#\s", line, maxsplit=1)[0].strip()


# ---- set-up ----------------------------------------------------------------------------------


def test_readme_shows_the_two_setup_commands(readme):
    commands = [without_comment(line) for _, lines in code_blocks(readme) for line in lines]
    assert "make run" in commands
    assert "make test" in commands
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^run:", makefile, re.M) and re.search(r"^test:", makefile, re.M)
    assert "3.11" in section(readme, "Two commands")


def test_the_token_help_points_at_a_real_section(readme):
    from cogs.utils.config import TOKEN_HELP

    name = re.search(r"section '([^']+)'", TOKEN_HELP)[1]
    assert re.search(rf"^## {re.escape(name)}$", readme, re.M)


def test_the_configuration_table_names_every_variable(readme):
    table = section(readme, "Configuration")
    documented = set(re.findall(r"^\| `([A-Z_]+)` \|", table, re.M))
    example = set(re.findall(r"^([A-Z_]+)=", ENV_EXAMPLE.read_text(), re.M))
    read = set(re.findall(r'env\.get\("([A-Z_]+)"', (ROOT / "cogs/utils/config.py").read_text()))
    assert example, ".env.example lists no variables"
    assert example <= documented, f"not in the table: {sorted(example - documented)}"
    assert read <= example, f"read by the bot but not in .env.example: {sorted(read - example)}"


def test_the_configuration_table_has_the_real_defaults(readme):
    from cogs.utils.config import DEFAULT_DATABASE, Config

    table = section(readme, "Configuration")
    rows = dict(re.findall(r"^\| `([A-Z_]+)` \| ([^|]+) \|", table, re.M))
    assert f"`{DEFAULT_DATABASE}`" in rows["WIRE_DATABASE"]
    assert f"`{Config(token='x').log_level}`" in rows["LOG_LEVEL"]
    assert "required" in rows["DISCORD_TOKEN"]


def test_the_invite_section_matches_the_bot(readme):

    from bot import INVITE_PERMISSIONS, invite_link

    granted = {name for name, on in INVITE_PERMISSIONS if on}
    assert granted == {
        *("read_messages", "send_messages", "embed_links", "manage_webhooks", "manage_events"),
        *("create_public_threads", "send_messages_in_threads"),
    }
    invite = section(readme, "Invite link")
    for words in (
        "View Channels",
        "Send Messages",
        "Embed Links",
        "Manage Webhooks",
        "Manage Events",
        "Create Public Threads",
        "`bot`",
        "`applications.commands`",
        "bot.py --invite",
    ):
        assert words in invite
    assert "scope=bot+applications.commands" in invite_link(1)
    assert f"permissions={INVITE_PERMISSIONS.value}" in invite_link(1)


def test_the_first_steps_make_jaimes_sheet_in_two_commands(readme):
    """The sheet line reads as the bot reads it: the rules text's Jaime, no problem."""
    from storage.models import WIRE_ATTRIBUTES
    from wire.sheet_text import read_sheet

    steps = section(readme, "First steps for a table")
    block = next(lines for _, lines in code_blocks(steps) if "/character create" in lines[0])
    create, weapon = block
    stats = read_sheet(create.split(" sheet:", 1)[1], known_attributes=WIRE_ATTRIBUTES)
    assert stats.attributes["Strength"] == 3 and stats.skills["Long swords"] == 5
    assert weapon.startswith("/character weapon ") and "base:5" in weapon


# ---- the example embed -----------------------------------------------------------------------


def test_the_example_embed_is_what_the_bot_sends(readme):
    """`/attack str:3 skill:5 base:5 vs:13` with a 15, rendered by the bot's own embed code."""
    from cogs.utils.embeds import combat_embed
    from wire.check import stat_line
    from wire.combat import resolve_attack
    from wire.dice import Die, DieSource

    mods = stat_line(3, 5, 0, attribute_label="Strength", skill_label="Skill")
    embed = combat_embed("Jaime", resolve_attack(mods, 5, Die(15, DieSource.ROLLED), vs=13))
    intro = readme.split("## ", 1)[0]
    assert "`/attack str:3 skill:5 base:5 vs:13`" in intro
    block = next(lines for lang, lines in code_blocks(intro) if lang == "text")
    shown = "\n".join(block)
    assert block[0] == embed.title
    for line in embed.description.split("\n"):
        assert line.replace("**", "") in block
    for field in embed.fields:
        assert field.name in shown and field.value.replace("**", "") in shown
    assert block[-1] == embed.footer.text
    assert embed.footer.text == "80% to hit before the roll"


# ---- the offline CLI examples ----------------------------------------------------------------


def cli_examples(text: str) -> list[tuple[list[str], list[str] | None]]:
    """Every `python -m wire ...` line in a code block: (arguments, the output shown or None).

    In a `console` block a `$ ` line is followed by its output, up to the next `$ ` line.
    """
    examples = []
    for lang, lines in code_blocks(text):
        for n, line in enumerate(lines):
            command = without_comment(line.removeprefix("$ "))
            match = CLI.search(command)
            if not match:
                continue
            output = None
            if lang == "console" and line.startswith("$ "):
                output = []
                for after in lines[n + 1 :]:
                    if after.startswith("$ "):
                        break
                    output.append(after)
            examples.append((shlex.split(match["args"] or ""), output))
    return examples


def test_the_readme_has_cli_examples(readme):
    examples = cli_examples(section(readme, "Offline rules CLI"))
    assert len(examples) >= 6
    assert sum(output is not None for _, output in examples) >= 4
    jaime = shlex.split("attack --str 3 --skill 5 --base 5 --vs 13 --roll 15")
    assert jaime in [args for args, _ in examples]


CLI_EXAMPLES = cli_examples(README.read_text())


@pytest.mark.parametrize(
    ("args", "output"), CLI_EXAMPLES, ids=[" ".join(args) for args, _ in CLI_EXAMPLES]
)
def test_every_cli_example_runs(args, output):
    result = subprocess.run(
        [sys.executable, "-m", "wire", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()
    if output is not None:
        assert "--roll" in args or "--take10" in args, "shown output needs a fixed die"
        assert result.stdout.splitlines() == output


def storage_examples(text: str) -> list[str]:
    """The arguments of every `python -m storage ...` line in a code block."""
    return [
        without_comment(line).split("python -m storage ", 1)[1]
        for _, block in code_blocks(text)
        for line in block
        if "python -m storage " in line
    ]


def test_the_storage_tool_examples_parse(readme):
    """Every `python -m storage ...` line names a real subcommand and real options."""
    from storage.cli import build_parser

    examples = storage_examples(readme)
    assert examples, "the README shows no backup command"
    parser = build_parser()
    for args in examples:
        assert parser.parse_args(shlex.split(args)).command in {
            "backup",
            "restore",
            "check",
            "import",
            "copy",
        }


def test_the_storage_tool_examples_run(readme, tmp_path):
    """The local examples, run in a scratch folder: import the example, back up, check, restore."""
    # `copy` needs a PostgreSQL server; tests/storage/test_storage_copy.py runs it on one.
    local = [
        args
        for args in storage_examples(readme)
        if "/app/" not in args and not args.startswith("copy ")
    ]
    order = {"import": 0, "backup": 1, "check": 2, "restore": 3}
    local.sort(key=lambda args: order[args.split()[0]])
    assert [args.split()[0] for args in local] == ["import", "backup", "check", "restore"]
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "example-campaign.json").write_bytes(EXAMPLE_CAMPAIGN.read_bytes())
    env = {k: v for k, v in os.environ.items() if k != "WIRE_DATABASE"}
    env["PYTHONPATH"] = str(ROOT)
    for args in local:
        result = subprocess.run(
            [sys.executable, "-m", "storage", *shlex.split(args)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, f"python -m storage {args}: {result.stderr}"
    assert (tmp_path / "data" / "wire.db").exists()
    assert list((tmp_path / "data").glob("wire.before-restore-*.db"))


# ---- links -----------------------------------------------------------------------------------


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_in_page_links_point_at_headings(readme):
    anchors = {slug(h) for h in re.findall(r"^#{1,6} (.+)$", readme, re.M)}
    for target in re.findall(r"\]\(#([^)]+)\)", readme):
        assert target in anchors, f"#{target} is not a heading in the README"


def test_file_links_point_at_files(readme):
    links = re.findall(r"\]\((?!https?://|#)([^)#]+)(?:#([^)]*))?\)", readme)
    assert links
    for target, anchor in links:
        assert (ROOT / target).exists(), f"the README links to {target}, which does not exist"
        if anchor:
            headings = re.findall(r"^#{1,6} (.+)$", (ROOT / target).read_text(), re.M)
            assert anchor in {slug(h) for h in headings}, f"{target} has no heading #{anchor}"


# ---- the example campaign --------------------------------------------------------------------


def test_the_example_campaign_imports_cleanly():
    from storage.transfer import check_import

    plan, problems = check_import(EXAMPLE_CAMPAIGN.read_bytes())
    assert problems == []
    assert plan.kind == "campaign"
    names = {sheet.name for sheet in plan.characters}
    assert {"Jaime", "Goblin"} <= names


def test_the_example_campaign_is_the_rules_texts_duel():
    """Jaime's long sword against the goblin's parry gives the rules text's 23 vs 13, 10 damage."""
    from storage.transfer import parse_import
    from wire.check import Modifier, Roll
    from wire.combat import Defence, require_shield, resolve_attack
    from wire.dice import Die, DieSource
    from wire.errors import RulesError

    sheets = {sheet.name: sheet for sheet in parse_import(EXAMPLE_CAMPAIGN.read_bytes()).characters}
    jaime, goblin = sheets["Jaime"], sheets["Goblin"]
    assert not jaime.is_npc and goblin.is_npc
    sword = next(w for w in jaime.weapons if w.name == "Long sword")
    assert (sword.base, sword.attribute, sword.skill) == (5, "Strength", "Long swords")
    assert jaime.attributes["Strength"] == 3 and jaime.skills["Long swords"] == 5
    assert goblin.attributes["Strength"] == 1 and goblin.skills["Parry"] == 2
    assert not goblin.shield
    with pytest.raises(RulesError):
        require_shield(Defence.BLOCK, goblin.shield)
    assert any(sheet.shield for sheet in sheets.values() if sheet.is_npc), "an NPC with a shield"

    attack = (
        Modifier(sword.attribute, jaime.attributes[sword.attribute]),
        Modifier(sword.skill, jaime.skills[sword.skill]),
    )
    parry = Roll(
        Die(10, DieSource.TAKE10),
        (Modifier("Strength", goblin.attributes["Strength"]), Modifier("Parry", 2)),
    )
    result = resolve_attack(
        attack, sword.base, Die(15, DieSource.ROLLED), defender=parry, defence=Defence.PARRY
    )
    assert (result.total, result.opponent_total) == (23, 13)
    assert (result.degrees.capped, result.damage.amount) == (5, 10)
