"""The database side of what versions 4 and 5 add (storage/transfer/conditions.py, sessions.py):
a campaign's named conditions and sessions, and the conditions on its sheets, written by an
import in the import's transaction (storage/rules_transfer.py calls these)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storage.backend import Transaction
from storage.errors import InvalidValue
from storage.models import Campaign, condition_refusal
from storage.rows import sheet_condition_from_row, utc_text
from storage.rules_conditions import MAX_PRESETS, keep_preset
from storage.rules_sheet_conditions import put_on_sheet
from storage.transfer.conditions import condition_changes
from storage.transfer.plan import ImportPlan
from storage.transfer.sessions import SessionData
from wire.conditions import MAX_CONDITIONS, Condition
from wire.i18n import N_
from wire.sessions import State
from wire.sheet import Character


async def import_conditions(
    tx: Transaction, guild_id: int, campaign_id: int, conditions: Sequence[Condition]
) -> None:
    """The file's named conditions kept (one of the same name replaced, as /condition save
    does); more than the campaign may keep refuses the import."""
    for condition in conditions:
        await keep_preset(tx, guild_id, campaign_id, condition)
    where = {"guild_id": guild_id, "campaign_id": campaign_id}
    [(count,)] = await tx.fetch("condition_preset_count", where)
    if count > MAX_PRESETS:
        raise InvalidValue(
            "With the file's named conditions this campaign would keep {count}, and it keeps "
            "at most {most}. Delete some with /condition delete, or take them out of the file.",
            count=count,
            most=MAX_PRESETS,
        )


async def import_sheet_conditions(
    tx: Transaction,
    campaign: Campaign,
    actor_id: int,
    plan: ImportPlan,
    sheets: Sequence[Character],
    stored: Sequence[Sequence[int]],
) -> None:
    """Each sheet whose entry lists conditions bears those in place of its own, the rest keep
    theirs. One it bears already stays (a second import of the file changes nothing); a
    player's import leaves the hidden ones a GM put on (their file cannot hold them), and a
    change needs the right /condition add needs (`storage.models.condition_refusal`). Rounds
    are as written: they count down only in a fight, and the file's fight stayed behind."""
    is_gm = campaign.is_gm(actor_id)
    listed = dict(plan.sheet_conditions)  # by name key: one look-up a sheet, however many
    for sheet, (character_id, owner_id) in zip(sheets, stored, strict=True):
        wanted = listed.get(sheet.name.casefold())
        if wanted is None:
            continue
        rows = await tx.fetch("sheet_conditions_of", {"character_id": character_id})
        had = [sheet_condition_from_row(row) for row in rows]
        secret = [c for c in had if c.hidden and not is_gm]
        gone, new = condition_changes([c for c in had if c not in secret], wanted)
        if gone or new:
            _require_condition_change(campaign, actor_id, sheet, owner_id)
        if len(secret) + len(wanted) > MAX_CONDITIONS:
            raise InvalidValue(
                "{name} bears at most {most} conditions, and with the file's it would bear "
                "more. Take some out of the file, or ask a GM to remove some.",
                name=sheet.name,
                most=MAX_CONDITIONS,
            )
        for condition in gone:
            await tx.execute(
                "delete_sheet_condition",
                {"condition_id": condition.id, "character_id": character_id},
            )
        for condition in new:
            await put_on_sheet(tx, campaign.guild_id, campaign.id, character_id, condition)


def _require_condition_change(
    campaign: Campaign, actor_id: int, sheet: Character, owner_id: int
) -> None:
    """An import changes a sheet's conditions only for whom /condition add would: the table
    setting's refusal says what to do with the file."""
    refusal = condition_refusal(
        campaign, actor_id, name=sheet.name, player_id=owner_id, is_npc=sheet.is_npc
    )
    if refusal is None:
        return
    if not campaign.is_gm(actor_id) and not campaign.players_conditions:
        raise campaign.gm_only(
            N_(
                "change the conditions on {name} with an import (take them out of the file, "
                "or a GM lets players put them on their own with /campaign settings "
                "players_conditions:true)"
            ),
            name=sheet.name,
        )
    raise refusal


async def import_sessions(
    tx: Transaction, campaign: Any, actor_id: int, plan: ImportPlan, channel_id: int
) -> None:
    """The file's session settings and its sessions, each new one in `channel_id` and made by
    the importer; one the campaign has (same title and start) is left as it is."""
    where = {"guild_id": campaign.guild_id, "campaign_id": campaign.id}
    if plan.session_settings is not None:
        settings = plan.session_settings
        await tx.execute(
            "session_set_settings",
            {
                "campaign_id": campaign.id,
                "zone": settings.zone,
                "lead_minutes": settings.lead_minutes,
                "nudge": int(settings.nudge),
            },
        )
    for session in plan.sessions:
        start = utc_text(session.start)
        if await tx.fetch(
            "session_by_title_start", {**where, "title": session.title, "start_at": start}
        ):
            continue
        [(session_id,)] = await tx.fetch(
            "session_insert",
            {
                **where,
                "title": session.title,
                "start_at": start,
                "minutes": session.minutes,
                "channel_id": int(channel_id),
                "user_id": int(actor_id),
            },
        )
        await tx.execute("session_import_state", _state(session, campaign.guild_id, session_id))
        for user_id, answer in session.answers:
            # An imported session has no Discord event to withdraw interest from: every
            # answer stands as one given by button.
            answer_row = {"session_id": session_id, "user_id": user_id, "answer": answer.value}
            await tx.execute("session_answer", {**answer_row, "by_interest": 0})


def _state(session: SessionData, guild_id: int, session_id: int) -> dict[str, Any]:
    """The imported session's state and times: a running one is imported as ended, since its
    rolls and fights stay in the server it was played in (and one session runs at a time)."""
    times = {key: utc_text(moment) for key, moment in (session.times or {}).items()}
    state = State.ENDED if session.state is State.RUNNING else session.state
    return {
        "guild_id": guild_id,
        "session_id": session_id,
        "state": state.value,
        "started_at": times.get("started_at"),
        "ended_at": times.get("ended_at"),
        "recap": session.recap,
        "awarded_at": times.get("awarded_at"),
        "reminded_for": times.get("reminded_for"),
        "nudged_for": times.get("nudged_for"),
    }
