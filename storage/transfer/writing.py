"""The database side of what version 4 adds (storage/transfer/conditions.py, sessions.py): a
campaign's named conditions and sessions read for its export, and written by its import, in
the import's transaction (storage/rules_transfer.py calls these)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storage.backend import Transaction
from storage.errors import InvalidValue
from storage.rows import utc_text
from storage.rules_conditions import MAX_PRESETS, keep_preset
from storage.transfer.plan import ImportPlan
from storage.transfer.sessions import SessionData
from wire.conditions import Condition
from wire.sessions import State


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
