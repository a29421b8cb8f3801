"""One rule of who may change a sheet or act for a character, at every entry point.

The rule (storage.models.change_refusal): a GM of the campaign may (everyone with Manage Server
is one), else only the character's player, and an NPC is the GMs' alone. It is walked here for
the owner, another player, a GM named in the campaign, a former GM and the server's manager, at
each way in: a command, the delete question, the Edit button, the Edit form, a defence button,
and an import.
"""

from __future__ import annotations

import json

import pytest

from cogs.sheet_edit import TEXT_ID
from tests.commands.conftest import embed_of, field

NOT_YOURS = "Only Jaime's player or a GM can change Jaime or act for them."
NPC_GMS_ONLY = "Only a GM of Default can change or act for Goblin, an NPC."


@pytest.fixture
async def table(world):
    """Bob plays Jaime; Carol is another player; Dave is a GM; Erin was one and made the
    Goblin NPC while she was; Alice owns the server."""
    dave = world.guild.add_member(world.env.create_user("dave"))
    erin = world.guild.add_member(world.env.create_user("erin"))
    await world.alice.slash(world.channel, "campaign gm add", user=dave)
    await world.alice.slash(world.channel, "campaign gm add", user=erin)
    made = await erin.slash(world.channel, "character create", name="Goblin", npc=True)
    assert "Created NPC **Goblin**" in made.response.content
    await world.alice.slash(world.channel, "campaign gm remove", user=erin)
    created = await world.bob.slash(world.channel, "character create", name="Jaime")
    await world.bob.slash(world.channel, "character set", attribute="Strength", value=3)
    roles = {
        "owner": world.bob,
        "other player": world.carol,
        "GM": dave,
        "former GM": erin,
        "server manager": world.alice,
    }
    return roles, created


ALLOWED = {
    "owner": True,
    "other player": False,
    "GM": True,
    "former GM": False,
    "server manager": True,
}


async def strength(world) -> str:
    embed = embed_of(await world.alice.slash(world.channel, "character show", name="Jaime"))
    return field(embed, "Attributes")


@pytest.mark.parametrize("role", ALLOWED)
async def test_a_command(world, table, role):
    roles, _ = table
    done = await roles[role].slash(
        world.channel, "character set", name="Jaime", attribute="Strength", value=4
    )
    if ALLOWED[role]:
        assert await strength(world) == "Strength **4**"
    else:
        assert done.response.ephemeral and done.response.content == NOT_YOURS
        assert await strength(world) == "Strength **3**"


@pytest.mark.parametrize("role", ["other player", "former GM"])
async def test_an_npc_is_the_gms_whoever_made_it(world, table, role):
    roles, _ = table
    refused = await roles[role].slash(
        world.channel, "character set", name="Goblin", attribute="Strength", value=4
    )
    assert refused.response.ephemeral
    assert refused.response.content.startswith(NPC_GMS_ONLY)


@pytest.mark.parametrize("role", ALLOWED)
async def test_the_delete_question_is_asked_only_of_who_may_delete(world, table, role):
    """Nobody is shown a Confirm the store would then refuse: not the Goblin's maker, once no
    longer a GM, either."""
    roles, _ = table
    for name, refusal in (("Jaime", NOT_YOURS), ("Goblin", NPC_GMS_ONLY)):
        allowed = ALLOWED[role] and (role != "owner" or name == "Jaime")
        asked = await roles[role].slash(world.channel, "character delete", name=name)
        labels = [c["label"] for row in asked.response.components for c in row["components"]]
        if allowed:
            assert "Delete" in " ".join(labels), (name, labels)
        else:
            assert labels == [], name
            expected = refusal if name == "Jaime" else NPC_GMS_ONLY
            assert asked.response.content.startswith(expected), asked.response.content


@pytest.mark.parametrize("role", ALLOWED)
async def test_the_edit_button(world, table, role):
    roles, created = table
    pressed = await roles[role].click(created.response, label="Edit")
    if ALLOWED[role]:
        assert pressed.modal is not None
    else:
        assert pressed.modal is None and pressed.response.content == NOT_YOURS


async def test_the_edit_form_of_a_gm_who_stops_being_one_is_refused(world, table):
    """The form checks the rule again when sent: a GM removed meanwhile cannot save it."""
    roles, created = table
    shown = await roles["GM"].click(created.response, label="Edit")
    await world.alice.slash(world.channel, "campaign gm remove", user=roles["GM"])
    sent = await roles["GM"].submit_modal(shown, {TEXT_ID: "Strength 9"})
    assert sent.response.ephemeral and sent.response.content == NOT_YOURS
    assert await strength(world) == "Strength **3**"
    shown = await roles["owner"].click(created.response, label="Edit")
    sent = await roles["owner"].submit_modal(shown, {TEXT_ID: "Strength 5"})
    assert await strength(world) == "Strength **5**"


async def test_the_defence_buttons(world, table):
    """Only Jaime's player or a GM picks his defence: the others are refused with the rule."""
    roles, _ = table
    await world.alice.slash(
        world.channel, "character set", name="Goblin", attribute="Strength", value=1
    )
    await world.alice.slash(
        world.channel,
        "character weapon",
        name="Goblin",
        weapon="Club",
        base=3,
        attribute="Strength",
        skill="Clubs",
    )
    world.dice.push(10)
    attack = await world.alice.slash(
        world.channel, "attack", npc="Goblin", weapon="Club", target="Jaime"
    )
    for role in ("other player", "former GM"):
        refused = await roles[role].click(attack.response, label="Parry")
        assert refused.ephemeral and refused.response.content == NOT_YOURS
    world.dice.push(12)
    done = await roles["GM"].click(attack.response, label="Dodge")
    assert attack.response.components == [] and embed_of(done)


@pytest.mark.parametrize("role", ALLOWED)
async def test_an_import_replaces_only_what_the_rule_allows(world, table, role):
    roles, _ = table
    document = {
        "format": "wire-bot",
        "version": 1,
        "kind": "character",
        "character": {"name": "Jaime", "attributes": {"Strength": 7}},
    }
    raw = json.dumps(document).encode()
    await roles[role].slash(
        world.channel, "character import", file=("Jaime.json", raw), replace=True
    )
    replaced = await strength(world) == "Strength **7**"
    # A GM replacing another player's sheet is asked first; the player's own replaces at once.
    assert replaced == (role == "owner"), role


@pytest.mark.parametrize("role", ALLOWED)
async def test_a_change_of_health_and_cp_ready(world, table, role):
    """Health by hand and /cp ready had copies of the rule with their own wording; they ask
    the one rule now, and a refusal says it."""
    roles, _ = table
    hit = await roles[role].slash(world.channel, "health damage", target="Jaime", amount=1)
    ready = await roles[role].slash(world.channel, "cp ready", character="Jaime")
    if ALLOWED[role]:
        assert hit.response.content == "Jaime: HP 20 → 19", hit.response.content
        assert "is ready for play" in ready.response.content, ready.response.content
    else:
        assert hit.response.ephemeral and hit.response.content == NOT_YOURS
        assert ready.response.ephemeral and ready.response.content == NOT_YOURS
    goblin = await roles[role].slash(world.channel, "health damage", target="Goblin", amount=1)
    if role in ("other player", "former GM", "owner"):
        assert goblin.response.content.startswith("Only a GM of Default can change Goblin's")
