"""Sheets in one step: `sheet:` text on create, the Edit button's form, did-you-mean, the
campaign's attribute names, and changes confirmed privately, as users see them."""

from __future__ import annotations

from typing import Any

import pytest
from simcord.backend.errors import SetupError

from cogs.sheet_edit import NEW_ID, TEXT_ID
from storage.models import WIRE_ATTRIBUTES
from tests.commands.conftest import embed_of, field
from tests.discord_rules import autocomplete_problems, embed_problems

JAIME = "Strength 3, Reaction 2, Constitution 2, Resolve 1; Long swords 5, Parry 3, Dodge 1"


async def campaign_id(world) -> int:
    campaign = await world.bot.store.campaign_for_channel(
        world.guild.id, world.channel.id, world.alice.id
    )
    return campaign.id


async def stored(world, name: str = "Jaime"):
    return await world.bot.store.get_character(world.guild.id, await campaign_id(world), name)


def modal_text(shown, custom_id: str = TEXT_ID) -> dict[str, Any]:
    """The text input (the sheet's, or `custom_id`) of the form a press opened."""

    def walk(components):
        for component in components:
            if component.get("custom_id") == custom_id:
                return component
            inner = component.get("components") or (
                [component["component"]] if "component" in component else []
            )
            found = walk(inner)
            if found:
                return found
        return None

    modal = shown.modal
    assert modal is not None, "the press opened no form"
    found = walk(modal["components"])
    assert found is not None, modal
    return found


async def create_jaime(world, sheet: str = JAIME):
    return await world.bob.slash(world.channel, "character create", name="Jaime", sheet=sheet)


# ---- /character create sheet: ----------------------------------------------------------------


async def test_create_with_sheet_text_gives_exactly_those_stats(world):
    created = await create_jaime(world)
    assert not created.response.ephemeral
    embed = embed_of(created)
    assert field(embed, "Attributes") == (
        "Constitution **2**, Reaction **2**, Resolve **1**, Strength **3**"
    )
    assert field(embed, "Skills") == "Dodge **1**, Long swords **5**, Parry **3**"
    assert field(embed, "Health").startswith("HP 23/23")  # 20 + Constitution 2 + Resolve 1
    assert embed_problems(embed) == []
    jaime = await stored(world)
    assert list(jaime.attributes.items()) == [
        ("Strength", 3),
        ("Reaction", 2),
        ("Constitution", 2),
        ("Resolve", 1),
    ]
    assert list(jaime.skills.items()) == [("Long swords", 5), ("Parry", 3), ("Dodge", 1)]
    buttons = [c for row in created.response.components for c in row["components"]]
    assert [(b["label"], b["custom_id"]) for b in buttons] == [
        ("Edit", f"wire:sheet:{jaime.campaign_id}:{jaime.id}:edit")
    ]


async def test_a_known_name_takes_the_campaigns_spelling(world):
    await create_jaime(world, "strength 3, REACTION -1; long swords 5")
    jaime = await stored(world)
    assert jaime.attributes == {"Strength": 3, "Reaction": -1}
    assert jaime.skills == {"long swords": 5}


async def test_every_bad_part_is_named_at_once_and_nothing_is_created(world):
    refused = await create_jaime(
        world, "Strength three, Strenght 3, Reaction 31, Wits; Parry 14, Dodge 1, dodge 2"
    )
    assert refused.response.ephemeral
    text = refused.response.content
    assert text.startswith("The sheet text has 6 problems; nothing was saved:")
    for problem in (
        "- 'Strength three': the value must be a number",
        "- Reaction 31: attributes go -10 to 30",
        "- 'Wits': no value; write the name, then a number",
        "- Parry 14: skills go 0 to 10",
        "- dodge is listed twice",
        "- Strenght: did you mean Strength?",
    ):
        assert problem in text.splitlines(), (problem, text)
    assert "`new:true` keeps it" in text
    listing = embed_of(await world.bob.slash(world.channel, "character list"))
    assert listing["description"] == "None yet: /character create"


async def test_did_you_mean_then_new_true_creates_it(world):
    refused = await create_jaime(world, "Strenght 3; Long swords 5")
    assert refused.response.ephemeral
    assert "- Strenght: did you mean Strength?" in refused.response.content
    created = await world.bob.slash(
        world.channel, "character create", name="Jaime", sheet="Strenght 3", new=True
    )
    assert not created.response.ephemeral
    assert (await stored(world)).attributes == {"Strenght": 3}


async def test_set_refuses_a_typo_then_new_true_adds_it(world):
    await create_jaime(world, "Strength 3; Long swords 5")
    refused = await world.bob.slash(world.channel, "character set", attribute="Strenght", value=4)
    assert refused.response.ephemeral
    assert refused.response.content == (
        "Strenght: did you mean Strength? To add Strenght as a new attribute anyway, add "
        "`new:true`."
    )
    skill = await world.bob.slash(world.channel, "character set", skill="Long sword", value=4)
    assert "Long sword: did you mean Long swords?" in skill.response.content
    assert (await stored(world)).attributes == {"Strength": 3}

    done = await world.bob.slash(
        world.channel, "character set", attribute="Strenght", value=4, new=True
    )
    assert done.response.ephemeral and done.response.content == "Updated Jaime: Strenght 4."
    # A name far from every known one is taken as typed: tables have attributes of their own.
    own = await world.bob.slash(world.channel, "character set", attribute="Wits", value=1)
    assert own.response.content == "Updated Jaime: Wits 1."
    # Case alone is no typo: the known spelling is kept.
    again = await world.bob.slash(world.channel, "character set", attribute="strength", value=5)
    assert again.response.content == "Updated Jaime: Strength 5."
    jaime = await stored(world)
    assert jaime.attributes == {"Strength": 5, "Strenght": 4, "Wits": 1}


async def test_a_weapons_attribute_and_skill_get_the_same_question(world):
    await create_jaime(world, "Strength 3; Long swords 5")
    refused = await world.bob.slash(
        world.channel,
        "character weapon",
        weapon="Long sword",
        base=5,
        attribute="Strength",
        skill="Long sword",
    )
    assert refused.response.ephemeral
    assert "Long sword: did you mean Long swords?" in refused.response.content
    assert (await stored(world)).weapons == ()


# ---- the Edit button and its form ------------------------------------------------------------


async def test_edit_opens_the_form_filled_in_and_a_submit_replaces_the_stats(world):
    created = await create_jaime(world)
    shown = await world.bob.click(created.response, label="Edit")
    assert shown.modal["title"] == "Edit Jaime"
    box = modal_text(shown)
    assert box["value"] == JAIME
    assert box["style"] == 2 and box["max_length"] == 4000

    done = await world.bob.submit_modal(
        shown, {TEXT_ID: "Strength 4, Reaction 2, Constitution 2; Long swords 6, Parry 3, Climb 2"}
    )
    (said,) = done.followups
    assert said.ephemeral
    assert said.content == (
        "Saved Jaime's sheet: added Climb 2; changed Strength 3 → 4, Long swords 5 → 6; "
        "removed Resolve, Dodge."
    )
    jaime = await stored(world)
    assert jaime.attributes == {"Strength": 4, "Reaction": 2, "Constitution": 2}
    assert jaime.skills == {"Long swords": 6, "Parry": 3, "Climb": 2}
    # The sheet it was opened from shows the new stats, still with its button.
    sheet = created.response.embeds[0].to_dict()
    assert field(sheet, "Skills") == "Climb **2**, Long swords **6**, Parry **3**"
    assert [c["label"] for row in created.response.components for c in row["components"]] == [
        "Edit"
    ]
    # Nothing new was posted in the channel.
    assert len(world.channel.history()) == 1


async def test_an_unchanged_form_says_so(world):
    created = await create_jaime(world)
    shown = await world.bob.click(created.response, label="Edit")
    done = await world.bob.submit_modal(shown, {TEXT_ID: JAIME})
    assert done.followups[0].content == "Jaime's sheet is unchanged."


async def test_a_player_is_refused_on_anothers_edit_button_a_gm_is_not(world):
    created = await create_jaime(world)
    refused = await world.carol.click(created.response, label="Edit")
    assert refused.ephemeral and refused.modal is None
    assert (
        refused.response.content == "Only Jaime's player or a GM can change Jaime or act for them."
    )
    shown = await world.alice.click(created.response, label="Edit")
    done = await world.alice.submit_modal(shown, {TEXT_ID: "Strength 5; Parry 4"})
    assert done.followups[0].ephemeral
    jaime = await stored(world)
    assert (jaime.attributes, jaime.skills) == ({"Strength": 5}, {"Parry": 4})


async def test_the_button_and_an_open_form_work_after_a_restart(world):
    created = await create_jaime(world)
    opened_before = await world.bob.click(created.response, label="Edit")
    await world.restart()
    # A form opened before the restart still applies: it carries all it needs.
    done = await world.bob.submit_modal(opened_before, {TEXT_ID: "Strength 4; Parry 3"})
    assert done.followups[0].content.startswith("Saved Jaime's sheet:")
    assert (await stored(world)).attributes == {"Strength": 4}
    # And the old message's button opens a new one.
    shown = await world.bob.click(created.response, label="Edit")
    assert modal_text(shown)["value"] == "Strength 4; Parry 3"
    await world.bob.submit_modal(shown, {TEXT_ID: "Strength 5; Parry 3"})
    assert (await stored(world)).attributes == {"Strength": 5}


async def test_a_refused_form_names_every_problem_and_fix_it_brings_the_text_back(world):
    created = await create_jaime(world)
    shown = await world.bob.click(created.response, label="Edit")
    bad = "Strenght 3, Reaction 2; Long swords 15, Parry 3"
    refused = await world.bob.submit_modal(shown, {TEXT_ID: bad})
    assert refused.response.ephemeral
    lines = refused.response.content.splitlines()
    assert "- Long swords 15: skills go 0 to 10" in lines
    assert "- Strenght: did you mean Strength?" in lines
    assert "ticking **Keep new names as typed** keeps it" in lines[-1]
    assert (await stored(world)).attributes["Strength"] == 3  # nothing saved

    again = await world.bob.click(refused.response, label="Fix it")
    assert modal_text(again)["value"] == bad
    done = await world.bob.submit_modal(
        again, {TEXT_ID: "Strength 3, Reaction 2; Long swords 10, Parry 3"}
    )
    assert done.response.ephemeral
    assert done.response.content == (
        "Saved Jaime's sheet: changed Long swords 5 → 10; removed Constitution, Resolve, Dodge."
    )


async def test_keep_new_names_in_the_form_adds_a_name_close_to_a_known_one(world):
    created = await create_jaime(world, "Strength 3; Parry 3")
    shown = await world.bob.click(created.response, label="Edit")
    done = await world.bob.submit_modal(
        shown, {TEXT_ID: "Strength 3, Strenght 1; Parry 3, Pary 1", NEW_ID: True}
    )
    assert done.followups[0].content == "Saved Jaime's sheet: added Strenght 1, Pary 1."


async def test_a_renamed_skill_in_the_form_is_no_typo_of_its_old_name(world):
    """A name the text drops is being renamed: "Pary" fixed to "Parry" is not asked about."""
    created = await world.bob.slash(world.channel, "character create", name="Jaime")
    await world.bob.slash(world.channel, "character set", skill="Pary", value=3)
    shown = await world.bob.click(created.response, label="Edit")
    assert modal_text(shown)["value"] == "; Pary 3"
    done = await world.bob.submit_modal(shown, {TEXT_ID: "; Parry 3"})
    assert done.followups[0].content == "Saved Jaime's sheet: added Parry 3; removed Pary."


async def test_a_sheet_too_long_for_the_form_says_what_to_use(world):
    await world.bob.slash(world.channel, "character create", name="Jaime")
    long_names = {f"{'Lore of the far northern kingdoms':.<60} {i:02d}": 1 for i in range(60)}
    await world.bot.store.replace_stats(
        world.guild.id, await campaign_id(world), world.bob.id, "Jaime", {}, long_names
    )
    shown = await world.bob.slash(world.channel, "character show")
    refused = await world.bob.click(shown.response, label="Edit")
    assert refused.ephemeral and refused.modal is None
    assert "than the form's 4,000" in refused.response.content
    assert "/character set" in refused.response.content


async def test_an_npc_sheet_is_edited_by_a_gm_privately(world):
    made = await world.alice.slash(
        world.channel, "character create", name="Goblin", npc=True, sheet="Strength 1; Parry 2"
    )
    assert made.response.ephemeral
    assert field(embed_of(made), "Skills") == "Parry **2**"
    with pytest.raises(SetupError, match="not visible"):
        await world.bob.click(made.response, label="Edit")
    shown = await world.alice.click(made.response, label="Edit")
    done = await world.alice.submit_modal(shown, {TEXT_ID: "Strength 1; Parry 3"})
    assert done.followups[0].ephemeral
    assert (await stored(world, "Goblin")).skills == {"Parry": 3}
    assert world.channel.history() == []


# ---- the campaign's attribute names ----------------------------------------------------------


async def test_a_gm_sets_the_attribute_names_a_player_may_not(world):
    names = "Strength, Constitution, Reaction, Resolve, Charisma"
    refused = await world.bob.slash(world.channel, "campaign attributes", names=names)
    assert refused.response.ephemeral
    assert "Only a GM of Default can change its attribute names" in refused.response.content

    done = await world.alice.slash(world.channel, "campaign attributes", names=names)
    assert done.response.ephemeral
    assert done.response.content.startswith(
        "**Default**'s attributes: Strength, Constitution, Reaction, Resolve, Charisma."
    )
    shown = await world.bob.slash(world.channel, "campaign attributes")
    assert "Charisma" in shown.response.content
    info = embed_of(await world.bob.slash(world.channel, "campaign info"))
    assert field(info, "Attributes") == "Strength, Constitution, Reaction, Resolve, Charisma"

    # Offered on an empty sheet, and with no sheet at all.
    for actor in (world.bob, world.carol):
        choices = await actor.autocomplete(world.channel, "character set", "attribute", "")
        assert [c["value"] for c in choices] == names.split(", ")
        assert autocomplete_problems(choices) == []
    # And the list is what typos are checked against.
    refused = await create_jaime(world, "Strength 3, Charsima 2")
    assert "- Charsima: did you mean Charisma?" in refused.response.content

    reset = await world.alice.slash(world.channel, "campaign attributes", reset=True)
    assert "Strength, Constitution, Reaction, Resolve (WIRE's)" in reset.response.content
    choices = await world.carol.autocomplete(world.channel, "character set", "attribute", "")
    assert [c["value"] for c in choices] == list(WIRE_ATTRIBUTES)


async def test_bad_attribute_lists_are_refused_with_every_problem(world):
    both = await world.alice.slash(world.channel, "campaign attributes", names="Wits", reset=True)
    assert both.response.ephemeral and "not both" in both.response.content
    bad = await world.alice.slash(
        world.channel,
        "campaign attributes",
        names="Wits, wits, " + ", ".join("x" * 65 for _ in "a"),
    )
    assert bad.response.ephemeral
    assert "wits is listed twice" in bad.response.content
    assert "the limit is 64" in bad.response.content
    many = ", ".join(f"Attribute {i}" for i in range(21))
    too_many = await world.alice.slash(world.channel, "campaign attributes", names=many)
    assert "21 names, the limit is 20" in too_many.response.content


async def test_autocomplete_puts_the_sheets_attributes_first_with_values(world):
    await create_jaime(world, "Reaction 2, Wits 1")
    choices = await world.bob.autocomplete(world.channel, "character set", "attribute", "")
    assert [c["name"] for c in choices] == [
        "Reaction (2)",
        "Wits (1)",
        "Strength",
        "Constitution",
        "Resolve",
    ]
    # Removing offers only what the sheet has.
    removable = await world.bob.autocomplete(world.channel, "character remove", "attribute", "")
    assert [c["value"] for c in removable] == ["Reaction", "Wits"]


# ---- changes confirm privately ---------------------------------------------------------------


async def test_set_weapon_remove_and_health_answer_privately_in_one_line(world):
    await create_jaime(world, "Strength 3; Long swords 5")
    before = len(world.channel.history())
    for command, options, said in (
        ("character set", {"skill": "Parry", "value": 3}, "Updated Jaime: Parry 3."),
        (
            "character weapon",
            {"weapon": "Long sword", "base": 5, "attribute": "Strength", "skill": "Long swords"},
            "Jaime wields **Long sword** (base 5, Strength + Long swords).",
        ),
        ("character remove", {"skill": "Parry"}, "Removed skill Parry from Jaime."),
        ("character health", {"armour": 2}, None),
    ):
        result = await world.bob.slash(world.channel, command, **options)
        assert result.response.ephemeral, command
        assert result.response.embeds == [], command
        assert "\n" not in result.response.content, command
        if said:
            assert result.response.content == said
    assert len(world.channel.history()) == before


async def test_jaimes_sheet_takes_two_commands_and_gives_the_rules_example(world):
    """The rules text's Jaime (Strength 3, Long swords 5, a long sword base 5) against a goblin
    that takes 10 (Strength 1, Parry 2): 23 against 13, 10 damage."""
    await create_jaime(world, "Strength 3; Long swords 5")
    await world.bob.slash(
        world.channel,
        "character weapon",
        weapon="Long sword",
        base=5,
        attribute="Strength",
        skill="Long swords",
    )
    await world.alice.slash(
        world.channel, "character create", name="Goblin", npc=True, sheet="Strength 1; Parry 2"
    )
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin")
    embed = embed_of(attack)
    assert field(embed, "Total") == "**23** vs defence 13"
    assert "5 base + 5 DoS = 10 damage" in embed["description"]


def test_a_sheet_text_fits_the_edit_form() -> None:
    """The sheet text's limit is the form's: a sheet created in one command can be edited."""
    from cogs.utils.discord_limits import MODAL_TEXT_MAX
    from wire.sheet_text import SHEET_TEXT_MAX

    assert SHEET_TEXT_MAX == MODAL_TEXT_MAX
