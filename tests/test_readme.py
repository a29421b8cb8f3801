"""README.md and the docs pages against the code: what they show must be what the bot, the CLI
and the files do.

The README is the front door (the quick start, the two commands, the example embed, the map of
the docs); the rest moved under docs/, and each check follows its text there: the configuration
table and the invite link to docs/hosting.md, the first steps to docs/first-steps.md, the CLI
examples (run, and their printed output compared) to docs/cli.md. The command reference,
docs/commands.md, is generated and checked in tests/commands/test_commands_doc.py.
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
DOCS = ROOT / "docs"
HOSTING = DOCS / "hosting.md"
FIRST_STEPS = DOCS / "first-steps.md"
CLI_PAGE = DOCS / "cli.md"
PAGES = (
    README,
    *(
        DOCS / name
        for name in (
            "hosting.md",
            "first-steps.md",
            "playing.md",
            "cli.md",
            "languages.md",
            "development.md",
            "commands.md",
            "rules.md",
        )
    ),
)
"""The README and the pages it maps, whose examples and links are checked here."""
ENV_EXAMPLE = ROOT / ".env.example"
EXAMPLE_CAMPAIGN = ROOT / "data" / "example-campaign.json"

CLI = re.compile(r"(?:^|[\s/])python3? -m wire(?:\s+(?P<args>.*))?$")


@pytest.fixture(scope="module")
def readme() -> str:
    return README.read_text()


@pytest.fixture(scope="module")
def hosting() -> str:
    return HOSTING.read_text()


def all_pages() -> str:
    return "\n".join(page.read_text() for page in PAGES)


def code_blocks(text: str) -> list[tuple[str, list[str]]]:
    """Fenced code blocks as (language, lines)."""
    blocks = []
    for match in re.finditer(r"^ *```(\w*)\n(.*?)^ *```", text, re.M | re.S):
        blocks.append((match[1], [line.strip() for line in match[2].splitlines()]))
    return blocks


def section(text: str, heading: str) -> str:
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"no section '## {heading}'"
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


def test_the_quick_start_is_commands_that_exist(readme):
    """Clone, copy .env.example, make run, make invite, the first /character create: each names
    something real. (.ci/quickstart runs the block itself in a fresh clone.)"""
    quick = section(readme, "Quick start")
    block = next(lines for lang, lines in code_blocks(quick) if lang == "sh")
    commands = [without_comment(line) for line in block if line]
    assert commands[0].startswith("git clone ") and commands[1].startswith("cd ")
    assert "cp .env.example .env" in commands and ENV_EXAMPLE.exists()
    makefile = (ROOT / "Makefile").read_text()
    targets = [c.split()[1] for c in commands if c.startswith("make ")] + ["invite"]
    for target in targets:
        assert re.search(rf"^{target}:", makefile, re.M), f"make {target}: no such target"
    assert "`make invite`" in quick and "DISCORD_TOKEN" in quick
    first = next(lines for lang, lines in code_blocks(quick) if lang == "text")
    assert first[0].startswith("/character create ")
    assert (ROOT / ".ci" / "quickstart").exists()


def test_the_readme_maps_every_docs_page(readme):
    """One page per reader's question, each linked from the README."""
    linked = set(re.findall(r"\]\(docs/([\w-]+\.md)", readme))
    for page in PAGES[1:]:
        assert page.name in linked, f"the README does not link to docs/{page.name}"
    for page in ("storage.md", "scaling.md", "i18n.md"):
        assert page in linked
    assert len(readme.splitlines()) <= 180, "the README is the front door: keep it short"


def test_the_token_help_points_at_a_real_section():
    from cogs.utils.config import TOKEN_HELP

    where = re.search(r"\((\S+), section '([^']+)'\)", TOKEN_HELP)
    text = (ROOT / where[1]).read_text()
    assert re.search(rf"^## {re.escape(where[2])}$", text, re.M)


def test_the_configuration_table_names_every_variable(hosting):
    table = section(hosting, "Configuration")
    documented = set(re.findall(r"^\| `([A-Z_]+)` \|", table, re.M))
    example = set(re.findall(r"^([A-Z_]+)=", ENV_EXAMPLE.read_text(), re.M))
    read = set(re.findall(r'env\.get\("([A-Z_]+)"', (ROOT / "cogs/utils/config.py").read_text()))
    assert example, ".env.example lists no variables"
    assert example <= documented, f"not in the table: {sorted(example - documented)}"
    assert read <= example, f"read by the bot but not in .env.example: {sorted(read - example)}"


def test_the_configuration_table_has_the_real_defaults(hosting):
    from cogs.utils.config import DEFAULT_DATABASE, Config

    table = section(hosting, "Configuration")
    rows = dict(re.findall(r"^\| `([A-Z_]+)` \| ([^|]+) \|", table, re.M))
    assert f"`{DEFAULT_DATABASE}`" in rows["WIRE_DATABASE"]
    assert f"`{Config(token='x').log_level}`" in rows["LOG_LEVEL"]
    assert "required" in rows["DISCORD_TOKEN"]


def test_the_invite_section_matches_the_bot(hosting):
    from bot import INVITE_PERMISSIONS, invite_link

    granted = {name for name, on in INVITE_PERMISSIONS if on}
    assert granted == {
        *("read_messages", "send_messages", "embed_links", "manage_webhooks", "manage_events"),
        *("create_public_threads", "send_messages_in_threads"),
    }
    invite = section(hosting, "Invite link")
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
        "make invite",
    ):
        assert words in invite
    assert "scope=bot+applications.commands" in invite_link(1)
    assert f"permissions={INVITE_PERMISSIONS.value}" in invite_link(1)


def test_the_first_steps_make_jaimes_sheet_in_two_commands():
    """The sheet line reads as the bot reads it: the rules text's Jaime, no problem."""
    from storage.models import WIRE_ATTRIBUTES
    from wire.sheet_text import read_sheet

    steps = FIRST_STEPS.read_text()
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


def test_the_cli_page_has_cli_examples():
    examples = cli_examples(CLI_PAGE.read_text())
    assert len(examples) >= 6
    assert sum(output is not None for _, output in examples) >= 4
    jaime = shlex.split("attack --str 3 --skill 5 --base 5 --vs 13 --roll 15")
    assert jaime in [args for args, _ in examples]


CLI_EXAMPLES = cli_examples(all_pages())


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
        re.sub(
            r"\$\([^)]*\)",  # a shell substitution, as cron's dated file name: one word
            "$(…)",
            without_comment(line).split("python -m storage ", 1)[1].split(" && ", 1)[0].rstrip("'"),
        )
        for _, block in code_blocks(text)
        for line in block
        if "python -m storage " in line
    ]


def test_the_storage_tool_examples_parse():
    """Every `python -m storage ...` line names a real subcommand and real options."""
    from storage.cli import build_parser

    examples = storage_examples(all_pages())
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


def test_the_storage_tool_examples_run(tmp_path):
    """The local examples, run in a scratch folder: import the example, back up, check, restore."""
    # `copy` needs a PostgreSQL server; tests/storage/test_storage_copy.py runs it on one. The
    # cron line's file name is the shell's `$(date ...)`.
    local = [
        args
        for args in storage_examples(HOSTING.read_text())
        if "/app/" not in args and not args.startswith("copy ") and "$(" not in args
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


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_in_page_links_point_at_headings(page):
    text = page.read_text()
    anchors = {slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.M)}
    for target in re.findall(r"\]\(#([^)]+)\)", text):
        assert target in anchors, f"#{target} is not a heading in {page.name}"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_file_links_point_at_files(page):
    text = page.read_text()
    links = re.findall(r"\]\((?!https?://|#)([^)#\s]+)(?:#([^)]*))?\)", text)
    for target, anchor in links:
        path = (page.parent / target).resolve()
        assert path.exists(), f"{page.name} links to {target}, which does not exist"
        if anchor:
            headings = re.findall(r"^#{1,6} (.+)$", path.read_text(), re.M)
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
