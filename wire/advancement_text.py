"""Words and JSON for CP prices and a sheet's worth: the CLI prints them, the bot reuses them.

One place for the phrases, so `python -m wire cost` and `/character cost` say the same thing.
"""

from __future__ import annotations

from typing import Any

from wire.advancement import Category, SkillLine, Worth
from wire.i18n import tr, trn
from wire.pricing import StatMove

UNPRICED_NAMED = 8
"""Unpriced skills a summary names; the itemised lines name every one."""


def step_line(category: Category, start: int, end: int, cost: int) -> str:
    """The price of a step: "Combat skill 3 -> 5: 45 CP" in the language in use."""
    return tr(
        "{category} skill {start} -> {end}: {cost} CP",
        category=category.label[:1].upper() + category.label[1:],
        start=start,
        end=end,
        cost=cost,
    )


def skill_line(line: SkillLine) -> str:
    if line.category is None or line.cost is None:
        return tr("{name} {level}: unpriced (no category set)", name=line.name, level=line.level)
    return tr(
        "{name} {level} ({category}): {cost} CP",
        name=line.name,
        level=line.level,
        category=line.category.label,
        cost=line.cost,
    )


def attribute_line(worth: Worth) -> str:
    if worth.attributes is None:
        return trn(
            "Attributes ({points} point): not priced",
            "Attributes ({points} points): not priced",
            worth.attribute_points,
            points=worth.attribute_points,
        )
    return trn(
        "Attributes ({points} point): {cost} CP",
        "Attributes ({points} points): {cost} CP",
        worth.attribute_points,
        points=worth.attribute_points,
        cost=worth.attributes,
    )


def species_line(worth: Worth) -> str | None:
    species = worth.species
    if species is None:
        return None
    if species.cost is None:
        return tr("Species {name}: not priced (not in the table's list)", name=species.name)
    return tr("Species {name}: {cost} CP", name=species.name, cost=species.cost)


def summary_line(worth: Worth) -> str:
    """ "Sheet: 320 CP: skills 295, attributes 25", saying what is left out."""
    if worth.attributes is None:
        text = tr(
            "Sheet: {total} CP: skills {skills}, attributes not priced",
            total=worth.total,
            skills=worth.skills_total,
        )
    else:
        text = tr(
            "Sheet: {total} CP: skills {skills}, attributes {attributes}",
            total=worth.total,
            skills=worth.skills_total,
            attributes=worth.attributes,
        )
    if worth.species is not None:
        if worth.species.cost is None:
            text += tr(", species {name} not priced", name=worth.species.name)
        else:
            text += tr(
                ", species {cost} ({name})", cost=worth.species.cost, name=worth.species.name
            )
    if worth.unpriced:
        names = ", ".join(worth.unpriced[:UNPRICED_NAMED])
        if len(worth.unpriced) > UNPRICED_NAMED:
            names += " " + tr("and {n} more", n=len(worth.unpriced) - UNPRICED_NAMED)
        text += " " + tr("(unpriced: {names})", names=names)
    return text


def worth_lines(name: str, worth: Worth) -> list[str]:
    """The itemised worth: a heading, each skill, the attributes, the sum."""
    return [
        f"{name}:",
        *(f"  {skill_line(line)}" for line in worth.skills),
        f"  {attribute_line(worth)}",
        *([f"  {line}"] if (line := species_line(worth)) else []),
        summary_line(worth),
    ]


def step_json(category: Category, start: int, end: int, cost: int) -> dict[str, Any]:
    return {"category": category.value, "from": start, "to": end, "cost": cost}


def worth_json(name: str, worth: Worth) -> dict[str, Any]:
    return {
        "name": name,
        "skills": [
            {
                "name": line.name,
                "level": line.level,
                "category": line.category.value if line.category else None,
                "cost": line.cost,
            }
            for line in worth.skills
        ],
        "attribute_points": worth.attribute_points,
        "attributes": worth.attributes,
        "skills_total": worth.skills_total,
        "total": worth.total,
        "species": (
            {"name": worth.species.name, "cost": worth.species.cost} if worth.species else None
        ),
        "unpriced": list(worth.unpriced),
        "complete": worth.complete,
    }


def move_text(move: StatMove) -> str:
    """What a change of a priced stat does to the CP: a raise's price, or how much less the
    sheet is worth after a lowering (no CP come back by it: only an award gives CP)."""
    if move.raised:
        return tr(
            "{stat} {before} → {after} ({worth} CP)",
            stat=move.name,
            before=move.before,
            after=move.after,
            worth=move.worth,
        )
    return tr(
        "{stat} {before} → {after} (worth {worth} CP less; no CP come back)",
        stat=move.name,
        before=move.before,
        after=move.after,
        worth=-move.worth,
    )
