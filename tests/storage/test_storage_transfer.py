"""Export and import: the validator on its own (no database), then through the store."""

from __future__ import annotations

import json
import logging
import pickle
import re
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import offload
from storage.errors import ImportRejected, NameTaken
from storage.sqlite import SqliteStore
from storage.testing import GM, GUILD, OTHER_PLAYER, PLAYER, roll_record
from storage.transfer import (
    MAX_IMPORT_BYTES,
    MAX_IMPORT_CHARACTERS,
    MAX_IMPORT_OBJECTS,
    MAX_IMPORT_PROBLEMS,
    character_data,
    character_document,
    check_import,
    parse_import,
)
from wire.i18n import speaking
from wire.limits import (
    BASE_MAX,
    MAX_ATTRIBUTES,
    MAX_SKILLS,
    MAX_WEAPONS,
    NAME_MAX,
    SKILL_MAX,
    SKILL_MIN,
    STAT_MAX,
    STAT_MIN,
)
from wire.sheet import Character, Weapon
from wire.textcheck import normal_text

EXAMPLE = Path(__file__).resolve().parents[2] / "data" / "example-campaign.json"


def sheet(name: str = "Ash", **fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": name,
        "is_npc": False,
        "attributes": {"Strength": 3},
        "skills": {"Parry": 4},
        "weapons": [{"name": "Sabre", "base": 4, "attribute": "Strength", "skill": "Melee"}],
        "shield": False,
        "notes": "",
    }
    data.update(fields)
    return data


def campaign_doc(*characters: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {
        "format": "wire-bot",
        "version": 1,
        "kind": "campaign",
        "campaign": {"name": "Night Market", "npc_take10": True},
        "characters": list(characters),
        **top,
    }


def problems(data: Any) -> list[str]:
    """The problems as the CLI and the logs read them: in English, each under its path."""
    plan, found = check_import(data)
    assert plan is None or not found
    return [str(problem) for problem in found]


# ---- the validator ------------------------------------------------------------------------


def test_a_valid_campaign_gives_a_plan() -> None:
    plan = parse_import(campaign_doc(sheet("Ash"), sheet("Goblin", is_npc=True)))
    assert plan.kind == "campaign"
    assert plan.campaign_name == "Night Market"
    assert plan.npc_take10 is True
    assert [s.name for s in plan.characters] == ["Ash", "Goblin"]
    assert plan.characters[0] == Character(
        "Ash",
        False,
        {"Strength": 3},
        {"Parry": 4},
        (Weapon("Sabre", 4, "Strength", "Melee"),),
    )


def test_minimal_character_document() -> None:
    plan = parse_import(
        '{"format": "wire-bot", "version": 1, "kind": "character", "character": {"name": " Bo "}}'
    )
    assert plan.characters == (Character("Bo"),)


def test_every_problem_is_reported_at_once_with_its_path() -> None:
    doc = campaign_doc(
        sheet("Ash"),
        sheet("x" * (NAME_MAX + 1)),
        sheet("Cy", skills={"Parry": 14, "Dodge": -1, "Climb": "3", "Swim": 2.5, "": 1}),
        sheet("ash"),
        sheet("Di", colour="red", is_npc="no", notes=5),
        sheet("Ed", attributes={"Strength": STAT_MAX + 1, "Wits": True}),
        sheet(
            "Fa",
            weapons=[
                {"name": "Axe", "base": BASE_MAX + 1, "attribute": "S", "skill": "M"},
                {"name": "axe", "base": 1, "attribute": "S"},
                "spear",
            ],
        ),
        "not a character",
        extra=1,
    )
    doc["campaign"]["npc_take10"] = "yes"
    found = problems(doc)
    expected = [
        "extra: unknown field",
        "campaign.npc_take10: expected true or false, got text",
        f"characters[1].name: the name is {NAME_MAX + 1} characters long, the limit is {NAME_MAX}",
        f"characters[2].skills.Parry: 14 is above the maximum {SKILL_MAX}",
        f"characters[2].skills.Dodge: -1 is below the minimum {SKILL_MIN}",
        "characters[2].skills.Climb: expected a whole number, got text",
        "characters[2].skills.Swim: expected a whole number, got a number with a fraction",
        "characters[2].skills.: the name is empty",
        "characters[3].name: 'ash' is already used by characters[0] (names are case-insensitive)",
        "characters[4].colour: unknown field",
        "characters[4].is_npc: expected true or false, got text",
        "characters[4].notes: expected text, got a whole number",
        f"characters[5].attributes.Strength: {STAT_MAX + 1} is above the maximum {STAT_MAX}",
        "characters[5].attributes.Wits: expected a whole number, got true/false",
        f"characters[6].weapons[0].base: {BASE_MAX + 1} is above the maximum {BASE_MAX}",
        "characters[6].weapons[1].skill: missing",
        "characters[6].weapons[1].name: 'axe' is already used by characters[6].weapons[0] "
        "(names are case-insensitive)",
        "characters[6].weapons[2]: expected an object, got text",
        "characters[7]: expected an object, got text",
    ]
    assert sorted(found) == sorted(expected)
    with pytest.raises(ImportRejected) as raised:
        parse_import(doc)
    assert [str(problem) for problem in raised.value.problems] == found
    assert str(raised.value).startswith("Import rejected, nothing was written: ")
    assert f"(and {len(found) - 10} more)" in str(raised.value)


def test_too_many_entries_stops_the_reading_at_the_first_limit() -> None:
    attributes = {f"A{i}": 1 for i in range(MAX_ATTRIBUTES + 1)}
    skills = {f"S{i}": 1 for i in range(MAX_SKILLS + 1)}
    weapons = [
        {"name": f"W{i}", "base": 1, "attribute": "S", "skill": "M"} for i in range(MAX_WEAPONS + 1)
    ]
    over = sheet("Ash", attributes=attributes, skills=skills, weapons=weapons, notes=5)
    # The notes' problem comes before the limit, the rest of the file is not read.
    assert problems(campaign_doc(over, sheet("Bo", notes=5))) == [
        "characters[0].notes: expected text, got a whole number",
        f"characters[0].attributes: {MAX_ATTRIBUTES + 1} entries is over the limit of "
        f"{MAX_ATTRIBUTES}",
    ]
    assert problems(campaign_doc(sheet(skills=skills))) == [
        f"characters[0].skills: {MAX_SKILLS + 1} entries is over the limit of {MAX_SKILLS}"
    ]
    assert problems(campaign_doc(sheet(weapons=weapons))) == [
        f"characters[0].weapons: {MAX_WEAPONS + 1} entries is over the limit of {MAX_WEAPONS}"
    ]
    crowd = campaign_doc(*({"name": f"C{i}"} for i in range(MAX_IMPORT_CHARACTERS + 1)))
    assert problems(crowd) == [
        f"characters: {MAX_IMPORT_CHARACTERS + 1} entries is over the limit of "
        f"{MAX_IMPORT_CHARACTERS}"
    ]


def test_problems_stop_at_the_limit() -> None:
    found = problems(campaign_doc(*({"name": f"C{i}", "shield": 1} for i in range(500))))
    assert len(found) == MAX_IMPORT_PROBLEMS + 1
    assert found[-1] == (
        f"input: stopped reading after {MAX_IMPORT_PROBLEMS} problems; fix these first"
    )


def test_a_file_of_empty_objects_stops_while_it_is_parsed() -> None:
    raw = b'{"format": "wire-bot", "version": 1, "kind": "campaign", "characters": ['
    raw += b",".join([b"{}"] * 300_000) + b"]}"
    assert len(raw) <= MAX_IMPORT_BYTES
    [problem] = problems(raw)
    assert problem.startswith(f"input: more than {MAX_IMPORT_OBJECTS:,} JSON objects")


@pytest.mark.parametrize(
    ("number", "expected"),
    [
        ("9" * 5000, "the number has 5,000 digits; values go from -10 to 30"),
        ("-" + "1" * 4301, "the number has 4,301 digits; values go from -10 to 30"),
        # A purse holds up to 10**12 (version 3): numbers of up to 13 digits are read.
        ("1" * 14, "the number has 14 digits; values go from -10 to 30"),
        ("1000", "1000 is above the maximum 30"),
        ("31", "31 is above the maximum 30"),
        ("NaN", "NaN is not a number JSON has; values go from -10 to 30"),
        ("Infinity", "Infinity is not a number JSON has; values go from -10 to 30"),
        ("-Infinity", "-Infinity is not a number JSON has; values go from -10 to 30"),
        ("1e999", "expected a whole number, got a number with a fraction"),
        ("0." + "5" * 5000, "the number has 5,001 digits; values go from -10 to 30"),
    ],
)
def test_numbers_too_long_or_not_numbers_are_named_problems(number: str, expected: str) -> None:
    raw = (
        '{"format": "wire-bot", "version": 1, "kind": "campaign", "characters": '
        '[{"name": "Ash", "attributes": {"Strength": ' + number + "}}]}"
    )
    assert problems(raw) == [f"characters[0].attributes.Strength: {expected}"]


def test_a_huge_version_number_is_named_too() -> None:
    raw = '{"format": "wire-bot", "version": ' + "1" * 5000 + ', "kind": "character"}'
    assert problems(raw) == [
        "version: a number of 5,000 digits is not a version this bot reads (it reads 1, 2, 3, 4, "
        "5); export it again with a matching bot"
    ]


def test_a_rejection_crosses_the_worker_process_whole() -> None:
    error = pickle.loads(pickle.dumps(ImportRejected(["a: one", "b: two"])))
    assert error.problems == ["a: one", "b: two"]
    assert str(error) == "Import rejected, nothing was written: a: one; b: two"


def test_input_over_one_mib_is_not_even_parsed() -> None:
    big = b'{"format": "wire-bot", "notes": "' + b"x" * MAX_IMPORT_BYTES + b'"}'
    [problem] = problems(big)
    assert problem.startswith("input: ") and "over the limit of 1 MiB" in problem
    assert problems(big.decode()) == [problem]
    [problem] = problems(campaign_doc(sheet(notes="x" * MAX_IMPORT_BYTES)))
    assert "over the limit of 1 MiB" in problem


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (
            b'{"format": "wire-bot",',
            "input: not valid JSON (Expecting property name enclosed in "
            "double quotes at line 1, column 23)",
        ),
        (b"\xff\xfe{}", "input: not UTF-8 text; save the file as UTF-8"),
        (b"[1, 2]", "input: expected a JSON object, got a list"),
        (
            '{"format": "x", "version": 1, "kind": "character", "character": {"name": "A"}}',
            "format: expected 'wire-bot', got 'x'; is this a WIRE bot export?",
        ),
        (
            '{"format": "wire-bot", "version": 6, "kind": "character"}',
            "version: 6 is not a version this bot reads (it reads 1, 2, 3, 4, 5); export it "
            "again with a matching bot",
        ),
        (
            '{"format": "wire-bot", "kind": "character"}',
            "version: missing (this bot reads version 5)",
        ),
        (
            '{"format": "wire-bot", "version": 1, "kind": "monster"}',
            "kind: expected 'character' or 'campaign', got 'monster'",
        ),
        ('{"format": "wire-bot", "version": 1, "kind": "character"}', "character: missing"),
        ('{"format": "wire-bot", "version": 1, "kind": "campaign"}', "characters: missing"),
    ],
)
def test_header_problems(raw: bytes | str, expected: str) -> None:
    assert expected in problems(raw)


def test_keys_written_twice_are_reported() -> None:
    raw = (
        '{"format": "wire-bot", "version": 1, "kind": "character", "character": '
        '{"name": "A", "skills": {"Parry": 1, "Parry": 2}, "name": "B"}}'
    )
    assert sorted(problems(raw)) == [
        "character.name: written twice; keep one",
        "character.skills.Parry: written twice; keep one",
    ]


def test_the_shipped_example_campaign_is_valid() -> None:
    if not EXAMPLE.exists():
        pytest.skip("data/example-campaign.json is not there")
    plan = parse_import(EXAMPLE.read_bytes())
    assert plan.kind == "campaign"
    assert plan.characters


# Text as the store keeps it: no control or format characters (line breaks only in notes),
# NFC-normalised, no surrounding spaces. Anything else is refused or normalised on import.
_visible = st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Zl", "Zp"))
names = st.text(_visible, min_size=1, max_size=NAME_MAX).filter(lambda s: normal_text(s) == s)
notes_text = st.text(st.one_of(_visible, st.just("\n")), max_size=50).filter(
    lambda s: normal_text(s) == s
)


@st.composite
def characters(draw: st.DrawFn) -> Character:
    def table(low: int, high: int, most: int) -> dict[str, int]:
        keys = draw(st.lists(names, max_size=most, unique_by=str.casefold))
        return {k: draw(st.integers(low, high)) for k in keys}

    weapon_names = draw(st.lists(names, max_size=MAX_WEAPONS, unique_by=str.casefold))
    return Character(
        id=1,
        campaign_id=1,
        name=draw(names),
        owner_id=1,
        is_npc=draw(st.booleans()),
        attributes=table(STAT_MIN, STAT_MAX, 5),
        skills=table(SKILL_MIN, SKILL_MAX, 5),
        weapons=tuple(
            Weapon(
                n,
                draw(st.integers(0, BASE_MAX)),
                draw(names),
                draw(names),
                draw(st.sampled_from(["lethal", "non-lethal", "mental"])),
            )
            for n in weapon_names[:3]
        ),
        shield=draw(st.booleans()),
        notes=draw(notes_text),
        armour=draw(st.integers(0, 50)),
        wp_max=draw(st.integers(0, 999)),
        hp_max=draw(st.none() | st.integers(0, 999)),
        thp_max=draw(st.none() | st.integers(0, 999)),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(characters())
def test_any_exported_character_imports_as_itself(character: Character) -> None:
    text = json.dumps(character_document(character))
    plan = parse_import(text)
    [imported] = plan.characters
    assert character_data(imported) == character_data(character)


# ---- through the store --------------------------------------------------------------------


def _dump(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


async def test_export_then_import_round_trip(
    store: SqliteStore, make_campaign, make_character
) -> None:
    source = await make_campaign("Source")
    await store.update_campaign(GUILD, source.id, GM, npc_take10=False)
    await make_character(
        source,
        "Ash",
        attributes={"Strength": 3, "Reaction": 2},
        skills={"Parry": 4, "Dodge": 0},
        weapons=[Weapon("Sabre", 4, "Strength", "Melee")],
        shield=True,
        notes="line one\nline two",
    )
    await make_character(source, "Goblin", npc=True, skills={"Spears": 3})
    exported = await store.export_campaign(GUILD, source.id)
    assert exported["format"] == "wire-bot" and exported["kind"] == "campaign"
    text = json.dumps(exported)

    target = await make_campaign("Target")
    imported = await store.import_data(GUILD, target.id, GM, text)
    assert [c.name for c in imported] == ["Ash", "Goblin"]
    again = await store.export_campaign(GUILD, target.id)
    assert again["characters"] == exported["characters"]
    assert again["campaign"] == {"name": "Target", "npc_take10": False}
    assert again["version"] == 1  # no character points: a version 1 file, as before
    assert all(c.owner_id == GM for c in imported)  # owned by whoever imported them


async def test_character_import_by_a_player(
    store: SqliteStore, make_campaign, make_character
) -> None:
    source, target = await make_campaign(), await make_campaign()
    ash = await make_character(source, "Ash", skills={"Parry": 4})
    doc = await store.export_character(GUILD, source.id, "ash")
    assert doc["character"] == character_data(ash)
    [copy] = await store.import_data(GUILD, target.id, PLAYER, doc)
    assert (copy.owner_id, copy.skills) == (PLAYER, {"Parry": 4})
    assert await store.get_active_character(GUILD, target.id, PLAYER) == copy  # first one


async def test_name_clash_needs_replace_which_keeps_id_and_owner(
    store: SqliteStore, make_campaign, make_character
) -> None:
    campaign = await make_campaign()
    ash = await make_character(campaign, "Ash", skills={"Parry": 4, "Dodge": 1})
    doc = character_document(ash)
    doc["character"]["skills"] = {"Parry": 7}
    doc["character"]["name"] = "ASH"
    with pytest.raises(NameTaken, match="already has 'Ash'"):
        await store.import_data(GUILD, campaign.id, PLAYER, doc)
    [replaced] = await store.import_data(GUILD, campaign.id, PLAYER, doc, replace=True)
    assert (replaced.id, replaced.owner_id, replaced.name) == (ash.id, PLAYER, "ASH")
    assert replaced.skills == {"Parry": 7}


async def test_an_imports_write_is_in_the_hosts_log_and_the_next_import_rests_as_long(
    store: SqliteStore, make_campaign, make_character, caplog: pytest.LogCaptureFixture
) -> None:
    """What a roll may wait for while imports run is one import's write: the host reads how long
    each write took, committed or rolled back, and the next import waits as long."""
    campaign = await make_campaign()
    ash = await make_character(campaign, "Ash", skills={"Parry": 4})
    doc = character_document(ash)
    doc["character"]["name"] = "Birch"
    caplog.set_level(logging.INFO, logger="wire.storage")
    await store.import_data(GUILD, campaign.id, PLAYER, doc)
    before = time.monotonic()
    with pytest.raises(NameTaken):
        await store.import_data(GUILD, campaign.id, PLAYER, doc)
    held = re.compile(
        rf"Import into campaign {campaign.id} \(guild {GUILD}\) (committed|rolled back) \(1"
        r" sheet\(s\) in the file\): its write transaction took (\d+) ms\."
    )
    found = [held.fullmatch(r.getMessage()) for r in caplog.records]
    outcomes = [(m[1], int(m[2])) for m in found if m]
    assert [outcome for outcome, _ in outcomes] == ["committed", "rolled back"]
    assert all(ms < 5000 for _, ms in outcomes)
    # The next import may start once the refused one's write is over and as long again.
    assert before < store._imports_rest_until <= time.monotonic() + outcomes[-1][1] / 1000 + 0.001


async def test_a_skipping_import_makes_its_rows_before_its_write(
    store: SqliteStore, make_campaign, make_character, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker process may be reading other imports for seconds; an import that leaves a
    sheet out must not wait for it while it holds the write every roll of every guild waits for.
    A sheet made between its look and its write is left out all the same."""
    campaign = await make_campaign()
    await make_character(campaign, "Ash", skills={"Parry": 4})  # PLAYER's: the GM leaves it out
    document = {
        "format": "wire-bot",
        "version": 1,
        "kind": "campaign",
        "characters": [
            {"name": name, "skills": {"Parry": 9}} for name in ("Ash", "Birch", "Cedar", "Dune")
        ],
    }
    writing = False
    worker_calls: list[bool] = []
    made_meanwhile: list[str] = []
    real_run, real_write = offload.run, store._import_write

    async def run(func: Any, /, *args: Any) -> Any:
        worker_calls.append(writing)
        return await real_run(func, *args)

    @asynccontextmanager
    async def write(*args: Any) -> AsyncIterator[Any]:
        nonlocal writing
        for name in made_meanwhile:  # after the look, before the write
            await make_character(campaign, name, owner_id=OTHER_PLAYER)
        async with real_write(*args) as tx:
            writing = True
            try:
                yield tx
            finally:
                writing = False

    monkeypatch.setattr(offload, "run", run)
    monkeypatch.setattr(store, "_import_write", write)
    outcome = await store.import_sheets(GUILD, campaign.id, GM, document, replace=True)
    assert [c.name for c in outcome.left_out] == ["Ash"]
    assert [c.name for c in outcome.imported] == ["Birch", "Cedar", "Dune"]
    assert worker_calls == [False, False]  # the file read, the rows: neither under the write

    made_meanwhile.append("Eber")
    document["characters"] = [{"name": n, "skills": {"Parry": 9}} for n in ("Eber", "Fern")]
    worker_calls.clear()
    outcome = await store.import_sheets(GUILD, campaign.id, GM, document, replace=True)
    assert [c.name for c in outcome.left_out] == ["Eber"]
    assert [c.name for c in outcome.imported] == ["Fern"]
    assert worker_calls == [False, False, True]  # rare: the rows again, under the write
    eber = await store.get_character(GUILD, campaign.id, "Eber")
    assert (eber.owner_id, eber.skills) == (OTHER_PLAYER, {})
    ash = await store.get_character(GUILD, campaign.id, "Ash")
    assert ash.skills == {"Parry": 4}


async def test_import_sheets_leaves_out_what_clashes_and_says_so(
    store: SqliteStore, make_campaign, make_character
) -> None:
    """What does not clash comes in; a clash is left out unless replace, and another player's
    sheet only when the GM names its id (the confirmation); every clash is reported."""
    campaign = await make_campaign()
    ash = await make_character(campaign, "Ash", owner_id=PLAYER, notes="kept")
    orc = await make_character(campaign, "Orc", owner_id=GM, npc=True)
    doc = campaign_doc(sheet("Ash"), sheet("Orc", is_npc=True), sheet("Bo"))
    plain = await store.import_sheets(GUILD, campaign.id, GM, doc)
    assert [c.name for c in plain.imported] == ["Bo"]
    assert [(c.name, c.owner_id, c.is_npc) for c in plain.left_out] == [
        ("Ash", PLAYER, False),
        ("Orc", GM, True),
    ]
    assert (await store.get_character(GUILD, campaign.id, "Ash")).notes == "kept"
    clashes = await store.import_clashes(GUILD, campaign.id, parse_import(json.dumps(doc)))
    assert sorted(c.name for c in clashes) == ["Ash", "Bo", "Orc"]  # Bo is in now
    # replace: the GM's NPC goes, the player's sheet stays (no confirmation named it).
    asked = await store.import_sheets(GUILD, campaign.id, GM, doc, replace=True)
    assert [c.name for c in asked.replaced] == ["Orc", "Bo"]
    assert [c.name for c in asked.left_out] == ["Ash"]
    assert (await store.get_character(GUILD, campaign.id, "Orc")).id == orc.id
    confirmed = await store.import_sheets(
        GUILD, campaign.id, GM, doc, replace=True, overwrite={ash.id}
    )
    assert confirmed.left_out == []
    replaced = await store.get_character(GUILD, campaign.id, "Ash")
    assert (replaced.id, replaced.owner_id, replaced.notes) == (ash.id, PLAYER, "")
    # A player never replaces another's sheet, whatever they name.
    other = await store.import_sheets(
        GUILD,
        campaign.id,
        PLAYER + 1,
        character_document(replaced),
        replace=True,
        overwrite={ash.id},
    )
    assert (other.imported, [c.name for c in other.left_out]) == ([], ["Ash"])


async def test_npcs_in_play_are_those_that_rolled_in_public(
    store: SqliteStore, make_campaign, make_character
) -> None:
    campaign = await make_campaign()
    seen = await make_character(campaign, "Goblin", owner_id=GM, npc=True)
    hidden = await make_character(campaign, "Goblin archer", owner_id=GM, npc=True)
    await make_character(campaign, "Goblin guard", owner_id=GM, npc=True)
    assert await store.npcs_in_play(GUILD, campaign.id) == []
    await store.log_roll(roll_record(campaign, user_id=GM, character=seen, interaction_id=1))
    await store.log_roll(
        roll_record(campaign, user_id=GM, character=hidden, hidden=True, interaction_id=2)
    )
    assert await store.npcs_in_play(GUILD, campaign.id) == ["Goblin"]
    assert await store.npcs_in_play(GUILD, campaign.id, "gob") == ["Goblin"]
    assert await store.npcs_in_play(GUILD, campaign.id, "x") == []


async def test_a_rejected_import_writes_nothing(
    store: SqliteStore, store_path: Path, make_campaign, make_character
) -> None:
    campaign = await make_campaign()
    await make_character(campaign, "Ash")
    before = _dump(store_path)
    bad = campaign_doc(sheet("New one"), sheet("Bad", skills={"Parry": 99}))
    with pytest.raises(ImportRejected):
        await store.import_data(GUILD, campaign.id, GM, bad)
    clash = campaign_doc(sheet("New one"), sheet("Ash"), campaign={"npc_take10": False})
    with pytest.raises(NameTaken):
        await store.import_data(GUILD, campaign.id, GM, clash)  # found late, still all or none
    assert _dump(store_path) == before


def _big_campaign(tag: str) -> bytes:
    """As many stats as 1 MiB holds: 1,000 sheets of 20 attributes, 60 skills, 2 weapons."""
    document = campaign_doc(
        *(
            sheet(
                f"{tag} {n}",
                attributes={f"A{a}": a % 30 for a in range(MAX_ATTRIBUTES)},
                skills={f"S{s}": s % 10 for s in range(MAX_SKILLS)},
                weapons=[
                    {"name": f"W{w}", "base": w, "attribute": "A1", "skill": "S1"} for w in range(2)
                ],
            )
            for n in range(MAX_IMPORT_CHARACTERS)
        )
    )
    raw = json.dumps(document, separators=(",", ":")).encode()
    assert len(raw) <= MAX_IMPORT_BYTES
    return raw


async def test_a_thousand_character_import_is_a_handful_of_statements(
    store: SqliteStore, make_campaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    campaign = await make_campaign()
    plan = parse_import(_big_campaign("Big"))
    traced: list[tuple[float, str]] = []
    on_sqlite = isinstance(store, SqliteStore)  # where its statements can be counted
    started = time.perf_counter()
    with monkeypatch.context() as patch:
        if on_sqlite:
            # The statements the store sends, counted where it sends them (SQLite's own trace
            # would also report each trigger step, the 1 MiB document expanded in every one).
            db = store.backend._db
            for method in ("execute", "executemany", "execute_fetchall"):
                sent = getattr(db, method)

                def tracing(sql: str, *args: Any, _sent: Any = sent) -> Any:
                    traced.append((time.perf_counter(), sql.split()[0]))
                    return _sent(sql, *args)

                patch.setattr(db, method, tracing)
            commit = db.commit

            def committing() -> Any:
                traced.append((time.perf_counter(), "COMMIT"))
                return commit()

            patch.setattr(db, "commit", committing)
        imported = await store.import_data(GUILD, campaign.id, GM, plan)
    took = time.perf_counter() - started
    assert len(imported) == MAX_IMPORT_CHARACTERS
    if on_sqlite:
        statements = [word.upper() for _, word in traced]
        # From BEGIN to the start of COMMIT: how long every other guild's statements wait.
        held = traced[-1][0] - traced[0][0]
        print(f"\n1,000 sheets (82,000 rows) written by {statements}, in {held * 1000:.0f} ms")
        assert statements[0] == "BEGIN" and statements[-1] == "COMMIT"
        assert len(statements) <= 12, statements
    else:
        print(f"\n1,000 sheets (82,000 rows) imported in {took * 1000:.0f} ms")
    again = await store.import_data(GUILD, campaign.id, GM, plan, replace=True)
    assert [c.id for c in again] == [c.id for c in imported]
    sample = await store.get_character(GUILD, campaign.id, "Big 999")
    assert sample == imported[-1] == again[-1]
    assert len(sample.skills) == MAX_SKILLS and len(sample.weapons) == 2


def test_a_lone_surrogate_escape_is_a_named_problem_not_a_crash() -> None:
    # Python's json reads "\ud800" alone into a str that cannot be encoded to UTF-8 (SQLite).
    raw = (
        '{"format": "wire-bot", "version": 1, "kind": "character", "character": '
        '{"name": "A\\ud800", "notes": "x\\udfff", "skills": {"Grin \\ud83d\\ude00": 1}, '
        '"sk\\ud800": 1}}'
    )
    assert sorted(problems(raw)) == [
        "character.name: the name contains an invalid character (U+D800)",
        "character.notes: contains an invalid character (U+DFFF)",
        "character.sk\\ud800: unknown field",
    ]
    fine = raw.replace("\\ud800", "").replace("\\udfff", "").replace(', "sk": 1', "")
    assert parse_import(fine).characters[0].skills == {"Grin 😀": 1}


async def test_fight_fields_travel_through_export_and_import(
    store: SqliteStore, make_campaign, make_character
) -> None:
    """Armour, willpower, health overrides and a weapon's damage kind survive the trip; a plain
    sheet's export has none of those keys (files from before them read the same)."""
    source = await make_campaign("Source")
    ash = await make_character(
        source, "Ash", weapons=[Weapon("Cudgel", 3, "Strength", "Clubs", "non-lethal")]
    )
    await store.set_health_values(
        GUILD, source.id, PLAYER, ash.name, armour=2, wp_max=12, hp_max=30
    )
    document = await store.export_character(GUILD, source.id, "Ash")
    assert document["character"]["armour"] == 2 and "thp_max" not in document["character"]
    assert document["character"]["weapons"][0]["kind"] == "non-lethal"
    plain = await make_character(source, "Bo", weapons=[Weapon("Sword", 5, "Strength", "Swords")])
    assert set(character_data(plain)) == {
        "name", "is_npc", "attributes", "skills", "weapons", "shield", "notes",
    }  # fmt: skip
    target = await make_campaign("Target")
    [copy] = await store.import_data(GUILD, target.id, PLAYER, document)
    stored = await store.get_character(GUILD, target.id, "Ash")
    assert (stored.armour, stored.wp_max, stored.hp_max, stored.thp_max) == (2, 12, 30, None)
    assert stored.weapons[0].kind == "non-lethal"
    assert stored.health().hp_max == 30 and copy.id == stored.id


def test_problems_cross_the_worker_process_and_are_read_in_german() -> None:
    found = check_import(campaign_doc(sheet(skills={"Parry": 14}), sheet("Bo", shield="yes")))[1]
    error = pickle.loads(pickle.dumps(ImportRejected(found)))
    assert [str(problem) for problem in error.problems] == [
        "characters[0].skills.Parry: 14 is above the maximum 10",
        "characters[1].shield: expected true or false, got text",
    ]
    with speaking("de"):
        assert [str(problem) for problem in error.problems] == [
            "characters[0].skills.Parry: 14 ist über dem Maximum 10",
            "characters[1].shield: true oder false erwartet, Text bekommen",
        ]
        # str() stays English for the logs whatever the language in use when it was raised.
        assert str(ImportRejected(found)).endswith("expected true or false, got text")
