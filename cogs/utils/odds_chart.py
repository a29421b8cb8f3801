"""The odds before an action as a small bar chart, for `/odds`.

Every figure is the rules core's exact fraction (`wire.odds`); here they are only laid out: one
line per result, best first, then the damage that gets through. The odds are multiples of 1/20
or 1/400, so two decimals show every one of them exactly (73.75%, 0.25%), which matters in a
table meant for comparing choices; the rounded figure the roll replies show would hide that
26.25% and 26.2% are not the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from fractions import Fraction

import discord

from cogs.utils.discord_limits import EMBED_DESCRIPTION_MAX, EMBED_FIELD_VALUE_MAX, EMBED_TITLE_MAX
from cogs.utils.embeds import NEUTRAL
from cogs.utils.text import inert
from wire import i18n, text
from wire.chart import Bar, ChartSpec
from wire.check import Modifier
from wire.i18n import tr
from wire.odds import Odds, Outcome
from wire.stats import OUTCOME_ORDER
from wire.textcheck import clip

BAR_WIDTH = 16
"""Cells in the longest bar: the chart stays narrower than a phone's code block."""
_EIGHTHS = " ▏▎▍▌▋▊▉"
_FULL, _EMPTY = "█", "░"


exact_percent = text.exact_percent


def bar(chance: Fraction, top: Fraction, width: int = BAR_WIDTH) -> str:
    """A bar `width` cells long at `top`, in eighths of a cell; anything possible shows a sliver."""
    if top <= 0:
        return _EMPTY * width
    eighths = round(chance / top * width * 8)
    if chance > 0 and eighths == 0:
        eighths = 1
    full, part = divmod(eighths, 8)
    cells = _FULL * full + (_EIGHTHS[part] if part else "")
    return cells + _EMPTY * (width - len(cells))


def chart(rows: Iterable[tuple[str, Fraction]]) -> str:
    """Labelled bars with their percentages, aligned in a code block (where nothing renders)."""
    rows = list(rows)
    top = max((chance for _, chance in rows), default=Fraction(0))
    label_width = max((len(label) for label, _ in rows), default=0)
    shown = [exact_percent(chance) for _, chance in rows]
    percent_width = max((len(p) for p in shown), default=0)
    lines = [
        f"{label:<{label_width}}  {bar(chance, top)} {percent:>{percent_width}}"
        for (label, chance), percent in zip(rows, shown, strict=True)
    ]
    return "```\n" + "\n".join(lines) + "\n```"


def _best_first(outcome: Outcome) -> int:
    return outcome.degrees if outcome.success else -outcome.degrees - 1


def outcome_rows(odds: Odds) -> list[tuple[str, Fraction]]:
    """Each possible result, from the most DoS down to the most DoF."""
    ordered = sorted(odds.outcomes.items(), key=lambda item: _best_first(item[0]), reverse=True)
    return [(f"{o.degrees} {tr('DoS') if o.success else tr('DoF')}", p) for o, p in ordered]


def damage_rows(damage: Mapping[int, Fraction]) -> list[tuple[str, Fraction]]:
    """Each damage figure that can get through, the most first, the figures aligned."""
    width = len(str(max(damage, default=0)))
    return [
        (tr("{amount} damage", amount=f"{amount:>{width}}"), damage[amount])
        for amount in sorted(damage, reverse=True)
    ]


def average(damage: Mapping[int, Fraction]) -> Fraction:
    return sum((amount * chance for amount, chance in damage.items()), Fraction(0))


ODDS_PICTURE = "odds.png"


def odds_picture(title: str, odds: Odds) -> ChartSpec:
    """The chance of each result as bars, worst to best, with the same figures as the text."""
    bars = tuple(
        Bar(
            label=f"{o.degrees} {tr('DoS') if o.success else tr('DoF')}",
            value=float(odds.outcomes.get(o, 0)),
            good=o.success,
            shown=exact_percent(odds.outcomes[o]) if odds.outcomes.get(o) else "",
        )
        for o in OUTCOME_ORDER
    )
    return ChartSpec(title=title, bars=bars, bar_title=tr("Each result"))


def side_text(modifiers: Iterable[Modifier]) -> str:
    """One side as the odds see it: "d20 + 3 Strength + 5 Long swords" (labels inert)."""
    parts = ["d20"] + [f"{text.signed(m.value)} {inert(m.label)}" for m in modifiers]
    return " ".join(parts)


def odds_embed(
    title: str,
    odds: Odds,
    *,
    goal: str,
    matchup: str,
    base: int | None = None,
) -> discord.Embed:
    """`goal`: what the chance is of ("to hit"); `matchup`: who rolls against what, markdown-safe.

    Titles and the matchup are the caller's, with any user text already inert.
    """
    embed = discord.Embed(
        title=clip(title, EMBED_TITLE_MAX),
        description=clip(
            f"**{exact_percent(odds.chance)} {goal}**\n{matchup}", EMBED_DESCRIPTION_MAX
        ),
        colour=NEUTRAL,
    )
    embed.add_field(
        name=tr("Each result"),
        value=clip(chart(outcome_rows(odds)), EMBED_FIELD_VALUE_MAX),
        inline=False,
    )
    if odds.damage is not None:
        mean = average(odds.damage)
        embed.add_field(
            name=tr(
                "Damage that gets through (base {base}; {mean} on average)",
                base=base,
                mean=i18n.number(Decimal(mean.numerator) / Decimal(mean.denominator), 2),
            ),
            value=clip(chart(damage_rows(odds.damage)), EMBED_FIELD_VALUE_MAX),
            inline=False,
        )
    embed.set_footer(
        text=tr("Exact odds over 20 equally likely rolls, before any die is cast")
        if odds.cases == 20
        else tr("Exact odds over 400 equally likely pairs of rolls, before any die is cast")
    )
    return embed
