"""Text the store keeps: NFC-normalised, stripped, and free of control and format characters.

The bot checks every text option on arrival; the store checks again, so an import or a direct
call cannot store an invisible or direction-changing character, a blank note or a lone surrogate.
"""

from __future__ import annotations

import json

import pytest

from storage.errors import ImportRejected, InvalidValue
from storage.sqlite import SqliteStore
from storage.testing import GM, GUILD, PLAYER
from storage.transfer import parse_import
from storage.validation import name_problem, notes_problem
from wire.limits import NAME_MAX, NOTES_MAX
from wire.sheet import Weapon
from wire.textcheck import normal_text, text_problem

RLO = "\u202e"
ZWSP = "\u200b"


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("Ash", None),
        ("  Ash  ", None),
        ("", "the name is empty"),
        ("   ", "the name is only spaces"),
        ("x" * (NAME_MAX + 1), f"the name is 65 characters long, the limit is {NAME_MAX}"),
        (
            f"Ash{RLO}",
            "the name contains an invisible or direction-changing character (U+202E)",
        ),
        (f"A{ZWSP}sh", "the name contains an invisible or direction-changing character (U+200B)"),
        ("A\u2066sh", "the name contains an invisible or direction-changing character (U+2066)"),
        ("\ufeffAsh", "the name contains an invisible or direction-changing character (U+FEFF)"),
        ("A\nsh", "the name contains a line break or another control character (U+000A)"),
        ("A\u2028sh", "the name contains a line break or another control character (U+2028)"),
        ("A\x00sh", "the name contains a line break or another control character (U+0000)"),
        ("A\ud800sh", "the name contains an invalid character (U+D800)"),
        (5, "expected text, got a whole number"),
    ],
)
def test_name_problems(value: object, problem: str | None) -> None:
    found = name_problem(value)
    assert (found and str(found)) == problem


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("", None),
        ("line one\nline two", None),
        ("x" * NOTES_MAX, None),
        (" \n\t ", "is only spaces"),
        ("x" * (NOTES_MAX + 1), f"is 1001 characters long, the limit is {NOTES_MAX}"),
        (f"a{RLO}b", "contains an invisible or direction-changing character (U+202E)"),
        ("a\rb", "contains a line break or another control character (U+000D)"),
        ("a\x1bb", "contains a line break or another control character (U+001B)"),
        (5, "expected text, got a whole number"),
    ],
)
def test_notes_problems(value: object, problem: str | None) -> None:
    found = notes_problem(value)
    assert (found and str(found)) == problem


def test_text_problems_carry_a_fix() -> None:
    problem = text_problem(f"a{RLO}", NAME_MAX)
    assert problem is not None
    assert (problem.what, problem.fix) == (
        "contains an invisible or direction-changing character (U+202E)",
        "Type it again without it.",
    )


def test_normal_text_is_nfc_and_stripped() -> None:
    assert normal_text("  Jose\u0301 ") == "Jos\u00e9"
    assert normal_text("Jos\u00e9") == "Jos\u00e9"


async def test_the_store_refuses_format_characters_in_every_name(
    store: SqliteStore, make_campaign
) -> None:
    campaign = await make_campaign()
    with pytest.raises(InvalidValue, match=r"character name is not usable: .*\(U\+202E\)"):
        await store.create_character(GUILD, campaign.id, PLAYER, f"Ash{RLO}")
    with pytest.raises(InvalidValue, match=r"\(U\+200B\)\. Type it again without it\."):
        await store.create_character(GUILD, campaign.id, PLAYER, "Ash", skills={f"Pa{ZWSP}rry": 1})
    with pytest.raises(InvalidValue, match=r"\(U\+D800\)"):
        await store.create_character(GUILD, campaign.id, PLAYER, "A\ud800")
    with pytest.raises(InvalidValue, match=r"campaign name is not usable"):
        await store.create_campaign(GUILD, f"Night{ZWSP}", GM)
    ash = await store.create_character(GUILD, campaign.id, PLAYER, "Ash")
    with pytest.raises(InvalidValue, match=r"weapon name is not usable"):
        await store.set_weapon(
            GUILD, campaign.id, PLAYER, "Ash", Weapon(f"{RLO}Sabre", 4, "S", "M")
        )
    with pytest.raises(InvalidValue, match=r"skill name is not usable"):
        await store.set_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "Par\u2028ry", 3)
    with pytest.raises(InvalidValue, match=r"character name is not usable"):
        await store.update_character(GUILD, campaign.id, PLAYER, "Ash", new_name=f"A{RLO}")
    with pytest.raises(InvalidValue, match=r"item name is not usable"):
        await store.start_project(GUILD, campaign.id, PLAYER, f"Sword{ZWSP}")
    assert await store.get_character(GUILD, campaign.id, "Ash") == ash


async def test_the_store_refuses_bad_notes(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign()
    with pytest.raises(InvalidValue, match=r"^Notes: is only spaces\. Type some visible text\.$"):
        await store.create_character(GUILD, campaign.id, PLAYER, "Ash", notes="   ")
    with pytest.raises(InvalidValue, match=r"^Notes: .*\(U\+202E\)"):
        await store.create_character(GUILD, campaign.id, PLAYER, "Ash", notes=f"scar{RLO}")
    ash = await store.create_character(GUILD, campaign.id, PLAYER, "Ash", notes="one\r\ntwo ")
    assert ash.notes == "one\ntwo"
    with pytest.raises(InvalidValue, match="only spaces"):
        await store.update_character(GUILD, campaign.id, PLAYER, "Ash", notes="\n \n")
    cleared = await store.update_character(GUILD, campaign.id, PLAYER, "Ash", notes="")
    assert cleared.notes == ""


async def test_the_store_keeps_names_nfc_and_finds_either_spelling(
    store: SqliteStore, make_campaign
) -> None:
    campaign = await make_campaign()
    decomposed, composed = "Jose\u0301", "Jos\u00e9"
    jose = await store.create_character(
        GUILD,
        campaign.id,
        PLAYER,
        f"  {decomposed} ",
        skills={f"Esgrima{decomposed[-1]}": 2},
        notes=f"De{decomposed[-1]}",
    )
    assert jose.name == composed
    assert jose.notes == "D\u00e9"
    assert await store.get_character(GUILD, campaign.id, decomposed) == jose
    assert await store.get_character(GUILD, campaign.id, composed.upper()) == jose
    project = await store.start_project(GUILD, campaign.id, PLAYER, "Cafe\u0301")
    assert project.item == "Caf\u00e9"
    assert (await store.get_project(GUILD, campaign.id, PLAYER, "CAF\u00c9")).id == project.id


def _document(**character: object) -> str:
    sheet = {"name": "Ash", **character}
    return json.dumps(
        {"format": "wire-bot", "version": 1, "kind": "campaign", "characters": [sheet]}
    )


def _problems(text: str) -> list[str]:
    with pytest.raises(ImportRejected) as caught:
        parse_import(text)
    return [str(problem) for problem in caught.value.problems]


def test_an_import_refuses_format_characters_and_blank_notes() -> None:
    assert _problems(_document(name=f"Ash{RLO}")) == [
        "characters[0].name: the name contains an invisible or direction-changing character "
        "(U+202E)"
    ]
    assert _problems(_document(skills={f"Pa{ZWSP}rry": 1})) == [
        "characters[0].skills.Pa\\u200brry: the name contains an invisible or "
        "direction-changing character (U+200B)"
    ]
    assert _problems(_document(notes="  ")) == ["characters[0].notes: is only spaces"]
    assert _problems(_document(notes="a\x07")) == [
        "characters[0].notes: contains a line break or another control character (U+0007)"
    ]


def test_an_import_normalises_text() -> None:
    plan = parse_import(
        _document(
            name=" Jose\u0301 ",
            skills={"Cafe\u0301": 1},
            weapons=[
                {"name": "Epe\u0301e", "base": 3, "attribute": "Force", "skill": "Cafe\u0301"}
            ],
            notes=" line\nline ",
        )
    )
    [sheet] = plan.characters
    assert sheet.name == "Jos\u00e9"
    assert sheet.skills == {"Caf\u00e9": 1}
    assert sheet.weapons == (Weapon("Ep\u00e9e", 3, "Force", "Caf\u00e9"),)
    assert sheet.notes == "line\nline"
