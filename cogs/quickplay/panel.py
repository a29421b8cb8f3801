"""A character's quick actions: the panel (/panel), the target select, and the turn ping's buttons.

Every button and select is a `DynamicItem` whose custom id names only lasting ids (a character,
a saved roll, a fight: AUTOINCREMENT ids, never handed out twice) and a short hash of a weapon's
name, so they survive a restart and answer from the sheet as it is at the press. What a press
checks, in order: the character still exists, the presser is its player (a GM for an NPC), the
weapon or saved roll is still there, the fight has not ended, and (for the turn ping) the turn
has not moved on. Then it calls the command the typed path calls (`again.rerun`), so the roll is
logged, answered and offered Roll again exactly as typed.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from cogs.quickplay.defence_odds import defence_odds_reply
from cogs.sheet import sheet_embed
from cogs.utils.actor import may_act_as
from cogs.utils.discord_limits import BUTTON_LABEL_MAX, CHOICE_NAME_MAX
from cogs.utils.errors import UserError
from cogs.utils.replay import CLAIM_KEY, PRESS_KEY, rerun
from cogs.utils.rolling import AttackLine, Roller, actor_of
from cogs.utils.text import inert
from storage.errors import NotFound
from storage.models import Campaign, Combatant, Fight, Press
from storage.rules_saved import SavedRoll
from wire.fight import USED_ONCE, AttackClaim
from wire.i18n import tr, trc
from wire.sheet import Character
from wire.sides import opponents_first
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot

SELECT_MAX = 25
"""Options in one select menu (Discord's limit)."""
ROW_WIDTH = 5
ROWS = 5

TURN_TAIL = r":(?P<fight>[0-9]{1,19}):(?P<turn>[0-9]{1,19})(?::c(?P<who>[0-9]{1,19}))?"
"""The fight, the turn step plus one, and (for a copy of an NPC) the combatant acting; the
combatant mark is optional, so ids made before it keep working."""
WEAPON_ID = re.compile(r"wire:qw:(?P<char>[0-9]{1,19}):(?P<what>[0-9a-f]{8})" + TURN_TAIL)
SAVED_ID = re.compile(r"wire:qs:(?P<saved>[0-9]{1,19})" + TURN_TAIL)
SAVED_SELECT_ID = re.compile(r"wire:qss:(?P<char>[0-9]{1,19})" + TURN_TAIL)
TARGET_ID = re.compile(
    r"wire:qt:(?P<char>[0-9]{1,19}):(?P<what>[0-9a-f]{8}|n-?[0-9]{1,3}_-?[0-9]{1,3}_-?[0-9]{1,3})"
    r":(?P<mod>-?[0-9]{1,3})" + TURN_TAIL + r":(?P<page>[0-9])"
    r"(?::s(?P<step>[0-9]{1,9})a(?P<made>[0-9]{1,4}))?"
)
"""A target menu; in a fight it ends with the step and the attacker's attack count it was made
for (`wire.fight.AttackClaim`), so it attacks once: the count moves with its first pick."""
SHEET_ID = re.compile(r"wire:qh:(?P<char>[0-9]{1,19})")
DEFENCES_ID = re.compile(r"wire:qd:(?P<char>[0-9]{1,19})(?::c(?P<who>[0-9]{1,19}))?")
PANEL_ID = re.compile(r"wire:qp:(?P<char>[0-9]{1,19})")


def weapon_hash(name: str) -> str:
    """A weapon's short, stable mark for a custom id (its name may be too long for one)."""
    return hashlib.sha256(name.casefold().encode()).hexdigest()[:8]


@dataclass(frozen=True, slots=True)
class Turn:
    """Where a quick action was offered: the fight (0: none); for the turn ping, the step the
    turn was at plus one (0: not bound to a turn); and the combatant that acts (0: the sheet's
    own), so that of several copies of an NPC ("Goblin 1", "Goblin 2") the one the GM named
    attacks, and is credited, not whichever copy has the turn."""

    fight: int = 0
    turn: int = 0
    who: int = 0

    @property
    def tail(self) -> str:
        return f":{self.fight}:{self.turn}" + (f":c{self.who}" if self.who else "")

    @classmethod
    def of(cls, match: Any) -> Turn:
        return cls(int(match["fight"]), int(match["turn"]), int(match["who"] or 0))


def _bot(interaction: discord.Interaction) -> WireBot:
    return interaction.client  # type: ignore[return-value]


# ---- the checks at a press ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Pressed:
    """A press that passed the checks: the campaign, the character as it is now, and the fight."""

    campaign: Campaign
    character: Character
    fight: Fight | None
    combatant: Combatant | None = None
    """The copy of the NPC that acts (`Turn.who`), as it is in the fight now."""


async def check_press(
    interaction: discord.Interaction, character_id: int, turn: Turn = Turn()
) -> Pressed:
    bot = _bot(interaction)
    if interaction.guild_id is None or interaction.channel_id is None:
        raise UserError(tr("This button works in a server channel."))
    actor = actor_of(interaction)
    campaign = await bot.store.campaign_for_channel(
        interaction.guild_id, interaction.channel_id, actor
    )
    try:
        character = await bot.store.get_character_by_id(
            interaction.guild_id, campaign.id, character_id
        )
    except NotFound:
        raise UserError(
            tr("This character no longer exists, so its quick actions are gone.")
        ) from None
    if not may_act_as(campaign, actor, character):
        raise UserError(
            tr(
                "These are {name}'s quick actions: only its player can use them. /panel shows "
                "your own.",
                name=inert(character.name),
            )
        )
    fight = None
    if turn.fight:
        fight = await bot.store.get_fight(interaction.guild_id, turn.fight)
        if fight is None or fight.ended:
            raise UserError(tr("That fight is over, so this action is gone. /panel shows yours."))
        if turn.turn and fight.step != turn.turn - 1:
            raise UserError(
                tr(
                    "That turn has moved on: these actions were for an earlier turn. The "
                    "tracker shows whose turn it is now."
                )
            )
    combatant = None
    if turn.who:
        combatant = next((c for c in fight.combatants if c.id == turn.who), None) if fight else None
        if combatant is None or combatant.character_id != character.id:
            raise UserError(
                tr(
                    "That copy of {name} is no longer in the fight. /panel npc: shows the "
                    "copies there now.",
                    name=inert(character.name),
                )
            )
    return Pressed(campaign, character, fight, combatant)


def _as_character(pressed: Pressed) -> dict[str, Any]:
    """The option that makes a command roll as this character: npc: for a GM's NPC (the copy's
    name in the fight for a copy, which the command rolls and credits as that copy); a player's
    own character must be their active one (the command rolls with it)."""
    if pressed.combatant is not None:
        return {"npc": pressed.combatant.name}
    if pressed.character.is_npc:
        return {"npc": pressed.character.name}
    return {}


def acting_copy(fight: Fight | None, character: Character, name: str) -> Combatant | None:
    """The copy of an NPC in the fight that a GM named (npc:Goblin 1); None for a player's
    character, an NPC not in the fight, or the sheet named by its own name."""
    if fight is None or not character.is_npc or name == character.name:
        return None
    found = fight.find(name)
    return found if found is not None and found.character_id == character.id else None


async def _require_active(interaction: discord.Interaction, pressed: Pressed) -> None:
    if pressed.character.is_npc or interaction.guild_id is None:
        return
    active = await _bot(interaction).store.get_active_character(
        interaction.guild_id, pressed.campaign.id, interaction.user.id
    )
    if active is None or active.id != pressed.character.id:
        raise UserError(
            tr(
                "{name} is not your active character now. Make it active with /character use, "
                "or open /panel for the one you play.",
                name=inert(pressed.character.name),
            )
        )


# ---- what the panel shows ---------------------------------------------------------------------
def _button(item: discord.ui.DynamicItem[Any], row: int) -> discord.ui.DynamicItem[Any]:
    item.item.row = row
    return item


def actions_view(
    character: Character,
    saved: list[SavedRoll],
    turn: Turn = Turn(),
    *,
    tools: Sequence[discord.ui.DynamicItem[Any]] = (),
    extras: bool = True,
) -> discord.ui.View:
    """Weapons (attack), saved rolls, and the sheet and defence odds (or the `tools` a caller
    adds: the turn ping's End turn), in at most five rows of five: saved rolls that do not fit
    as buttons become one select menu."""
    view = discord.ui.View(timeout=None)
    row = 0
    for start in range(0, len(character.weapons), ROW_WIDTH):
        for weapon in character.weapons[start : start + ROW_WIDTH]:
            view.add_item(_button(WeaponButton(character.id, weapon.name, turn), row))
        row += 1
    tools = list(tools)
    if extras:
        tools += [SheetButton(character.id), DefencesButton(character.id, turn.who)]
    rows_left = ROWS - row - (1 if tools else 0)
    if len(saved) <= rows_left * ROW_WIDTH:
        for start in range(0, len(saved), ROW_WIDTH):
            for roll in saved[start : start + ROW_WIDTH]:
                view.add_item(_button(SavedButton(roll, turn), row))
            row += 1
    elif saved:
        view.add_item(SavedSelect(character.id, saved[:SELECT_MAX], turn, row))
        row += 1
    for tool in tools:
        view.add_item(_button(tool, row))
    return view


def panel_text(character: Character, saved: list[SavedRoll], name: str = "") -> str:
    lines = [tr("**{name}**: quick actions, for you alone.", name=inert(name or character.name))]
    if not character.weapons:
        lines.append(tr("No weapons on the sheet yet: /character weapon adds one."))
    if not saved:
        lines.append(tr("No saved rolls yet: press Save under a roll, or use /save."))
    return "\n".join(lines)


async def send_panel(
    interaction: discord.Interaction, character: Character, campaign: Campaign, name: str = ""
) -> None:
    """The panel, privately. `name`: a copy of an NPC in this channel's fight (npc:Goblin 1),
    whose buttons then act as that copy while the fight runs."""
    bot = _bot(interaction)
    assert interaction.guild_id is not None
    turn = Turn()
    if name and interaction.channel_id is not None and character.is_npc:
        fight = await bot.store.running_fight(interaction.guild_id, interaction.channel_id)
        copy = acting_copy(fight, character, name)
        if fight is not None and copy is not None:
            turn = Turn(fight.id, 0, copy.id)
    saved = await bot.store.saved_rolls(interaction.guild_id, campaign.id, character.id)
    await interaction.response.send_message(
        panel_text(character, saved, name),
        view=actions_view(character, saved, turn),
        ephemeral=True,
    )


# ---- targets -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Target:
    """One option of the target select: what it shows, the name it attacks, and (in a fight)
    which side of the guess it is on (`wire.sides`), shown under the name."""

    label: str
    value: str
    description: str = ""


def fight_targets(fight: Fight, character: Character, acting: Combatant | None) -> list[Target]:
    """Whom this character may attack in the fight: every combatant not itself and not downed
    (a copy of an NPC may attack its fellow copies), the likely opponents first (an NPC for a
    player character, a player character for an NPC), each group in fight order, each option
    marked with its group. WIRE has no sides: the rest stay on offer, after them."""
    candidates = [
        c
        for c in fight.order()
        if not c.health.down
        and (c.id != acting.id if acting is not None else c.character_id != character.id)
    ]
    acting_is_npc = acting.is_npc if acting is not None else character.is_npc
    sides = opponents_first(acting_is_npc, candidates, lambda c: c.is_npc)
    opponent, other = tr("likely an opponent"), tr("likely an ally")
    return [Target(c.name, c.name, opponent) for c in sides.opponents] + [
        Target(c.name, c.name, other) for c in sides.others
    ]


async def target_names(
    bot: WireBot,
    interaction: discord.Interaction,
    campaign: Campaign,
    character: Character,
    fight: Fight | None,
    acting: Combatant | None = None,
) -> list[Target]:
    """Whom this character may attack: the fight's combatants (`fight_targets`) when a fight
    runs here; else the campaign's characters, where a player sees only the player characters
    and the NPCs already in play."""
    if fight is not None:
        return fight_targets(fight, character, acting)
    assert interaction.guild_id is not None
    actor = actor_of(interaction)
    gm = campaign.is_gm(actor)
    found = await bot.store.find_characters(
        interaction.guild_id, campaign.id, "", is_npc=None if gm else False, limit=SELECT_MAX + 1
    )
    named = [(c.name + (" (" + tr("NPC") + ")" if c.is_npc else ""), c.name) for c in found]
    if not gm:  # the NPCs that showed themselves, as the target autocomplete offers them
        npc = " (" + tr("NPC") + ")"
        in_play = await bot.store.npcs_in_play(
            interaction.guild_id, campaign.id, "", limit=SELECT_MAX
        )
        named += [(name + npc, name) for name in in_play]
    return [Target(label, value) for label, value in named if value != character.name]


def target_view(
    character_id: int,
    what: str,
    mod: int,
    turn: Turn,
    names: list[Target],
    claim: AttackClaim | None = None,
) -> discord.ui.View:
    """One select of up to 25 targets, a second (and more, up to five) beyond that."""
    view = discord.ui.View(timeout=None)
    for page, start in enumerate(range(0, min(len(names), SELECT_MAX * ROWS), SELECT_MAX)):
        shown = names[start : start + SELECT_MAX]
        view.add_item(TargetSelect(character_id, what, mod, turn, page, shown, claim))
    return view


async def offer_targets(
    interaction: discord.Interaction,
    pressed: Pressed,
    what: str,
    mod: int,
    turn: Turn,
    weapon_name: str | None,
) -> None:
    """Ask, privately, whom the attack goes against: the select rolls it."""
    bot = _bot(interaction)
    fight = pressed.fight
    if fight is None and interaction.guild_id is not None and interaction.channel_id is not None:
        fight = await bot.store.running_fight(interaction.guild_id, interaction.channel_id)
    acting = pressed.combatant
    who = acting.name if acting is not None else pressed.character.name
    claim = None if fight is None else attack_claim(interaction, pressed, fight, who)
    names = await target_names(bot, interaction, pressed.campaign, pressed.character, fight, acting)
    if not names:
        raise UserError(tr("There is no one here to attack. Give the target with /attack target:."))
    turn = Turn(fight.id if fight else 0, turn.turn, acting.id if acting else 0)
    question = (
        tr(
            "Whom does **{name}** attack with **{weapon}**?",
            name=inert(who),
            weapon=inert(weapon_name),
        )
        if weapon_name
        else tr("Whom does **{name}** attack?", name=inert(who))
    )
    if len(names) > SELECT_MAX * ROWS:
        question += "\n" + tr(
            "Only the first {count} are listed; type /attack target: for others.",
            count=SELECT_MAX * ROWS,
        )
    await interaction.response.send_message(
        question,
        view=target_view(pressed.character.id, what, mod, turn, names, claim),
        ephemeral=True,
    )


def attack_claim(
    interaction: discord.Interaction, pressed: Pressed, fight: Fight, who: str
) -> AttackClaim:
    """What a target menu in a fight is made for; refused at once (with why) where the fight's
    rules would refuse the attack anyway, rather than at the pick."""
    attacker = fight.attacker(pressed.character.id, who)
    rules = pressed.campaign.turn_rules
    by_gm = pressed.campaign.is_gm(actor_of(interaction))
    verdict = fight.may_attack(attacker.id if attacker else None, rules, by_gm=by_gm, name=who)
    if not verdict.allowed:  # the names are the table's own: shown inert
        shown = {k: inert(v) if isinstance(v, str) else v for k, v in verdict.values.items()}
        raise UserError(tr(verdict.reason, **shown))
    return AttackClaim(fight.step, attacker.attacks if attacker else 0)


def numbers_mark(strength: int, skill: int, base: int) -> str:
    return f"n{strength}_{skill}_{base}"


def _attack_options(character: Character, what: str, mod: int) -> dict[str, Any]:
    if what.startswith("n"):
        strength, skill, base = (int(part) for part in what[1:].split("_"))
        options: dict[str, Any] = {"str": strength, "skill": skill, "base": base}
    else:
        weapon = next((w for w in character.weapons if weapon_hash(w.name) == what), None)
        if weapon is None:
            raise UserError(
                tr(
                    "{name} no longer has that weapon. /panel shows what it has now.",
                    name=inert(character.name),
                )
            )
        options = {"weapon": weapon.name}
    if mod:
        options["mod"] = mod
    return options


# ---- the items ---------------------------------------------------------------------------------
class WeaponButton(discord.ui.DynamicItem[discord.ui.Button], template=WEAPON_ID):
    pattern = WEAPON_ID

    def __init__(
        self, character_id: int, weapon: str, turn: Turn = Turn(), *, mark: str = ""
    ) -> None:
        mark = mark or weapon_hash(weapon)
        super().__init__(
            discord.ui.Button(
                label=clip("⚔️ " + weapon, BUTTON_LABEL_MAX) if weapon else trc("button", "Attack"),
                style=discord.ButtonStyle.danger,
                custom_id=f"wire:qw:{character_id}:{mark}{turn.tail}",
            )
        )
        self.character_id, self.mark, self.turn = character_id, mark, turn

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> WeaponButton:
        return cls(int(match["char"]), "", Turn.of(match), mark=match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).tree.run(interaction, lambda: self._press(interaction))

    async def _press(self, interaction: discord.Interaction) -> None:
        pressed = await check_press(interaction, self.character_id, self.turn)
        options = _attack_options(pressed.character, self.mark, 0)
        await offer_targets(interaction, pressed, self.mark, 0, self.turn, options.get("weapon"))


class TargetSelect(discord.ui.DynamicItem[discord.ui.Select], template=TARGET_ID):
    pattern = TARGET_ID

    def __init__(
        self,
        character_id: int,
        what: str,
        mod: int,
        turn: Turn,
        page: int,
        names: list[Target] | None = None,
        claim: AttackClaim | None = None,
    ) -> None:
        options = [
            discord.SelectOption(
                label=clip(t.label, CHOICE_NAME_MAX),
                value=t.value,
                description=clip(t.description, CHOICE_NAME_MAX) or None,
            )
            for t in (names or [])
        ] or [discord.SelectOption(label="-", value="-")]
        super().__init__(
            discord.ui.Select(
                placeholder=trc("select", "Pick the target"),
                options=options,
                custom_id=f"wire:qt:{character_id}:{what}:{mod}{turn.tail}:{page}"
                + (f":s{claim.step}a{claim.attacks}" if claim else ""),
                row=page,
            )
        )
        self.character_id, self.what, self.mod, self.turn = character_id, what, mod, turn
        self.claim = claim

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any, /
    ) -> TargetSelect:
        claim = None
        if match["step"] is not None:
            claim = AttackClaim(int(match["step"]), int(match["made"]))
        turn, page = Turn.of(match), int(match["page"])
        return cls(int(match["char"]), match["what"], int(match["mod"]), turn, page, None, claim)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).tree.run(interaction, lambda: self._pick(interaction))

    async def _pick(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if len(values) != 1 or not isinstance(values[0], str):
            raise UserError(tr("Pick one target from the list."))
        pressed = await check_press(interaction, self.character_id, self.turn)
        await _require_active(interaction, pressed)
        target = values[0]
        if pressed.fight is not None and pressed.fight.find(target) is None:
            raise UserError(
                tr("{name} is no longer in this fight. Press the weapon again.", name=inert(target))
            )
        options = {**_attack_options(pressed.character, self.what, self.mod), "target": target}
        options.update(_as_character(pressed))
        if self.claim is not None:
            _still_current(pressed, self.claim)
            interaction.extras[CLAIM_KEY] = self.claim
        # The menu loses its select first, as the pick's response (only that edits a private
        # message); the attack answers in a follow-up, and the store's compare-and-set is what
        # holds against a second pick that raced this one.
        await interaction.response.edit_message(view=None)
        await rerun(
            _bot(interaction), interaction, {"name": "attack", "options": options}, fresh=True
        )


def _still_current(pressed: Pressed, claim: AttackClaim) -> None:
    """A pick from a menu whose attack was made already (or whose turn moved on) is refused
    before the menu changes; the store checks again, inside the attack's transaction."""
    fight = pressed.fight
    if fight is None:
        return
    acting = pressed.combatant or fight.attacker(pressed.character.id, pressed.character.name)
    if fight.step != claim.step or (acting is not None and acting.attacks != claim.attacks):
        raise UserError(tr(USED_ONCE))


class SavedButton(discord.ui.DynamicItem[discord.ui.Button], template=SAVED_ID):
    pattern = SAVED_ID

    def __init__(self, saved: SavedRoll | int, turn: Turn = Turn()) -> None:
        saved_id = saved if isinstance(saved, int) else saved.id
        label = "🎲 " + (saved.name if isinstance(saved, SavedRoll) else str(saved_id))
        super().__init__(
            discord.ui.Button(
                label=clip(label, BUTTON_LABEL_MAX),
                style=discord.ButtonStyle.primary,
                custom_id=f"wire:qs:{saved_id}{turn.tail}",
            )
        )
        self.saved_id, self.turn = saved_id, turn

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> SavedButton:
        return cls(int(match["saved"]), Turn.of(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).tree.run(
            interaction, lambda: roll_saved_id(interaction, self.saved_id, self.turn)
        )


class SavedSelect(discord.ui.DynamicItem[discord.ui.Select], template=SAVED_SELECT_ID):
    pattern = SAVED_SELECT_ID

    def __init__(
        self, character_id: int, saved: list[SavedRoll] | None, turn: Turn, row: int = 0
    ) -> None:
        options = [
            discord.SelectOption(label=clip(s.name, CHOICE_NAME_MAX), value=str(s.id))
            for s in (saved or [])
        ] or [discord.SelectOption(label="-", value="0")]
        super().__init__(
            discord.ui.Select(
                placeholder=trc("select", "Roll a saved roll"),
                options=options,
                custom_id=f"wire:qss:{character_id}{turn.tail}",
                row=row,
            )
        )
        self.character_id, self.turn = character_id, turn

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any, /
    ) -> SavedSelect:
        return cls(int(match["char"]), None, Turn.of(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or ["0"]
        saved_id = int(values[0]) if str(values[0]).isdigit() else 0
        await _bot(interaction).tree.run(
            interaction, lambda: roll_saved_id(interaction, saved_id, self.turn)
        )


async def roll_saved_id(interaction: discord.Interaction, saved_id: int, turn: Turn) -> None:
    bot = _bot(interaction)
    if interaction.guild_id is None or interaction.channel_id is None:
        raise UserError(tr("This button works in a server channel."))
    campaign = await bot.store.campaign_for_channel(
        interaction.guild_id, interaction.channel_id, actor_of(interaction)
    )
    saved = await bot.store.get_saved_roll(interaction.guild_id, campaign.id, saved_id)
    if saved is None:
        raise UserError(tr("That saved roll no longer exists. /save lists your saved rolls."))
    pressed = await check_press(interaction, saved.character_id, turn)
    if interaction.message is not None:  # an attack it rolls in a fight: once per turn
        interaction.extras[PRESS_KEY] = Press(interaction.message.id, saved.id)
    await roll_saved(interaction, pressed, saved, 0)


async def roll_saved(
    interaction: discord.Interaction, pressed: Pressed, saved: SavedRoll, mod: int
) -> None:
    """Roll a saved roll as its character, from the sheet as it is now, `mod` on top."""
    await _require_active(interaction, pressed)
    options = dict(saved.command.get("options") or {})
    options.update(_as_character(pressed))
    if mod:
        options["mod"] = int(options.get("mod") or 0) + mod
    await rerun(
        _bot(interaction),
        interaction,
        {"name": saved.command.get("name"), "options": options},
        fresh=True,
    )


class CharacterButton:
    """What the buttons that name only a character share (Sheet, Defence odds, Panel): the
    button, reading it back from its id, and the checks at a press; each subclass is its own
    DynamicItem (discord.py wants a template per class) and says only its id's prefix, its
    label and what a press that passed the checks answers."""

    prefix: ClassVar[str]
    """The custom id is wire:<prefix>:<character id>; the subclass's template matches it."""

    def __init__(self, character_id: int) -> None:
        super().__init__(  # type: ignore[call-arg]  # the DynamicItem beside this in the MRO
            discord.ui.Button(
                label=self.label(),
                style=discord.ButtonStyle.secondary,
                custom_id=f"wire:{self.prefix}:{character_id}",
            )
        )
        self.character_id = character_id

    @staticmethod
    def label() -> str:
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> Any:
        return cls(int(match["char"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).tree.run(interaction, lambda: self._press(interaction))

    async def _press(self, interaction: discord.Interaction) -> None:
        await self.answer(interaction, await check_press(interaction, self.character_id))

    async def answer(self, interaction: discord.Interaction, pressed: Pressed) -> None:
        raise NotImplementedError


class SheetButton(CharacterButton, discord.ui.DynamicItem[discord.ui.Button], template=SHEET_ID):
    pattern = SHEET_ID
    prefix = "qh"

    @staticmethod
    def label() -> str:
        return trc("button", "Sheet")

    async def answer(self, interaction: discord.Interaction, pressed: Pressed) -> None:
        await interaction.response.send_message(
            embed=sheet_embed(pressed.character), ephemeral=True
        )


class DefencesButton(
    CharacterButton, discord.ui.DynamicItem[discord.ui.Button], template=DEFENCES_ID
):
    pattern = DEFENCES_ID
    prefix = "qd"

    @staticmethod
    def label() -> str:
        return trc("button", "Defence odds")

    def __init__(self, character_id: int, who: int = 0) -> None:
        super().__init__(character_id)
        self.who = who  # a copy's panel (npc:Goblin 1): the odds name that copy
        if who:
            self.item.custom_id = f"wire:{self.prefix}:{character_id}:c{who}"

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> DefencesButton:
        return cls(int(match["char"]), int(match["who"] or 0))

    async def answer(self, interaction: discord.Interaction, pressed: Pressed) -> None:
        bot = _bot(interaction)
        name = ""
        if self.who and interaction.guild_id is not None and interaction.channel_id is not None:
            fight = await bot.store.running_fight(interaction.guild_id, interaction.channel_id)
            copy = next((c for c in fight.combatants if c.id == self.who), None) if fight else None
            name = copy.name if copy is not None else ""
        text = await defence_odds_reply(bot, interaction, pressed, name)
        await interaction.response.send_message(text, ephemeral=True)


class PanelButton(CharacterButton, discord.ui.DynamicItem[discord.ui.Button], template=PANEL_ID):
    """On the sheet (/character show of one's active character, an NPC's for a GM): the same
    private panel as /panel, for the character's player (a GM for an NPC) only."""

    pattern = PANEL_ID
    prefix = "qp"

    @staticmethod
    def label() -> str:
        return trc("button", "Panel")

    async def answer(self, interaction: discord.Interaction, pressed: Pressed) -> None:
        await _require_active(interaction, pressed)
        await send_panel(interaction, pressed.character, pressed.campaign)


ITEMS = (
    WeaponButton,
    TargetSelect,
    SavedButton,
    SavedSelect,
    SheetButton,
    DefencesButton,
    PanelButton,
)


async def offer_opponents(
    interaction: discord.Interaction,
    roller: Roller,
    fight: Fight | None,
    line: AttackLine,
    numbers: tuple[int | None, int | None, int | None],
    mod: int,
) -> bool:
    """/attack in a running fight with neither target nor vs: offer the opponents to pick from.
    False where there is no fight here, or no sheet to attack as (then the command refuses)."""
    character = roller.character
    if character is None:
        return False
    if fight is None:
        return False
    if line.weapon is not None:
        what = weapon_hash(line.weapon.name)
    else:
        strength, skill, base = numbers
        assert strength is not None and skill is not None and base is not None
        what = numbers_mark(strength, skill, base)
    pressed = Pressed(roller.campaign, character, fight, acting_copy(fight, character, roller.name))
    name = line.weapon.name if line.weapon else None
    await offer_targets(interaction, pressed, what, mod, Turn(fight.id), name)
    return True
