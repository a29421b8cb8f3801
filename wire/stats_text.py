"""Roll statistics in words and as a chart, in the language in use (wire/i18n.py).

The bot's embed, the CLI's text and the chart all come from here, so the picture and the text
show the same numbers: `stats_fields` the numbers, `luck_sentence` the luck, `stats_chart` the
degrees rolled against expected and the luck over the evening.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from wire.chart import Bar, ChartSpec
from wire.i18n import number, percent, tr, trn
from wire.odds import Outcome
from wire.stats import OUTCOME_ORDER, Luck, RollStats

KIND_COUNTS: dict[str, Callable[[int], str]] = {
    "check": lambda n: trn("{n} check", "{n} checks", n),
    "attack": lambda n: trn("{n} attack", "{n} attacks", n),
    "defend": lambda n: trn("{n} defence", "{n} defences", n),
    "contest": lambda n: trn("{n} contest", "{n} contests", n),
    "craft": lambda n: trn("{n} crafting roll", "{n} crafting rolls", n),
    "roll": lambda n: trn("{n} free roll", "{n} free rolls", n),
}
"""A logged roll's kind, counted; an unknown kind is shown by its name."""


def share(value: float) -> str:
    """A share from 0 to 1 as a whole percentage in the language's form ("71 %"), never a
    false 0 or 100: "better than 100 % of evenings" cannot be."""
    return percent(Fraction(min(max(round(value * 100), 1), 99), 100))


def luck_sentence(who: str, luck: Luck | None) -> str:
    """ "Jaime rolled better than 71% of evenings like this one." (`who` shown as given)."""
    if luck is None:
        return tr("No roll here had a die and a target, so there is no luck to measure.")
    return tr(
        "{who} rolled better than {share} of evenings like this one.",
        who=who,
        share=share(luck.better_than),
    )


def luck_detail(luck: Luck) -> str:
    """The mean percentile and how the sentence was worked out."""
    method = tr("exact") if luck.exact else tr("normal approximation")
    return tr(
        "mean percentile {mean} over {rolls} rolls with a die ({method})",
        mean=share(luck.mean),
        rolls=number(luck.rolls),
        method=method,
    )


def kinds_text(by_kind: Mapping[str, int]) -> str:
    parts = []
    for kind, count in sorted(by_kind.items(), key=lambda item: (-item[1], item[0])):
        counted = KIND_COUNTS.get(kind)
        parts.append(counted(count) if counted else f"{number(count)} {kind}")
    return ", ".join(parts)


def stats_fields(stats: RollStats) -> list[tuple[str, str]]:
    """(name, value) of each number, in the order the embed and the CLI show them."""
    fields = [
        (tr("Rolls"), ": ".join(filter(None, (number(stats.rolls), kinds_text(stats.by_kind))))),
        (tr("Successes / failures"), f"{number(stats.successes)} / {number(stats.failures)}"),
        (tr("Natural 1s / 20s"), f"{number(stats.natural_1s)} / {number(stats.natural_20s)}"),
        (
            tr("Damage dealt / taken"),
            f"{number(stats.damage_dealt)} / {number(stats.damage_taken)}",
        ),
        (tr("Take 10"), number(stats.take10s)),
        (tr("Degrees rolled"), degrees_text(stats)),
    ]
    if stats.luck is not None:
        fields.append((tr("Luck"), luck_detail(stats.luck)))
    return fields


def outcome_label(outcome: Outcome) -> str:
    return f"{outcome.degrees} {tr('DoS') if outcome.success else tr('DoF')}"


def degrees_text(stats: RollStats) -> str:
    """Each result rolled at least once or expected: "5 DoS 2 (1.3 expected)"."""
    parts = []
    for outcome in OUTCOME_ORDER:
        rolled = stats.degrees.get(outcome, 0)
        expected = stats.expected.get(outcome, 0.0)
        if rolled or expected >= 0.05:
            parts.append(
                tr(
                    "{outcome}: {rolled} ({expected} expected)",
                    outcome=outcome_label(outcome),
                    rolled=number(rolled),
                    expected=number(round(expected, 1), 1),
                )
            )
    return "; ".join(parts) if parts else tr("none")


def stats_chart(stats: RollStats, title: str) -> ChartSpec:
    """The degrees rolled against expected, and (roll by roll) the luck over the rolls."""
    bars = tuple(
        Bar(
            label=outcome_label(outcome),
            value=stats.degrees.get(outcome, 0),
            expected=stats.expected.get(outcome, 0.0),
            good=outcome.success,
            shown=number(stats.degrees[outcome]) if stats.degrees.get(outcome) else "",
        )
        for outcome in OUTCOME_ORDER
    )
    return ChartSpec(
        title=title,
        bars=bars,
        bar_title=tr("Degrees rolled against expected"),
        legend=(tr("rolled"), tr("expected")),
        line=stats.luck_over_time if len(stats.luck_over_time) > 1 else (),
        line_title=tr("Luck over the rolls (mean percentile; 50 % is as expected)"),
        line_ticks=tuple((v, percent(Fraction(v).limit_denominator(4))) for v in (0, 0.5, 1)),
    )


def stats_json(stats: RollStats) -> dict[str, Any]:
    """The numbers for `python -m wire stats --json` (language-free keys)."""
    luck = stats.luck
    return {
        "rolls": stats.rolls,
        "by_kind": dict(stats.by_kind),
        "successes": stats.successes,
        "failures": stats.failures,
        "natural_1s": stats.natural_1s,
        "natural_20s": stats.natural_20s,
        "damage_dealt": stats.damage_dealt,
        "damage_taken": stats.damage_taken,
        "take10s": stats.take10s,
        "degrees": {
            outcome_key(o): {
                "rolled": stats.degrees.get(o, 0),
                "expected": round(stats.expected.get(o, 0.0), 6),
            }
            for o in OUTCOME_ORDER
        },
        "luck": None
        if luck is None
        else {
            "rolls": luck.rolls,
            "mean_percentile": round(luck.mean, 6),
            "better_than": round(luck.better_than, 6),
            "exact": luck.exact,
        },
    }


def outcome_key(outcome: Outcome) -> str:
    """ "3 DoS" / "0 DoF": a key for JSON, the same in every language."""
    return f"{outcome.degrees} {'DoS' if outcome.success else 'DoF'}"
