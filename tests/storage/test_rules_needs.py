"""The Protocols the parts of RuleStore call each other through (storage/rules_needs.py) say
what the parts really have: a renamed or re-signatured method fails here, not at a user's
command, even where no type checker runs."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from storage import rules_needs
from storage.rules import RuleStore

PARTS = [
    rules_needs.Store,
    rules_needs.Sheets,
    rules_needs.Prices,
    rules_needs.Ledger,
    rules_needs.Gear,
    rules_needs.Purses,
    rules_needs.Counters,
    rules_needs.SavedRolls,
]


def _members(part: type) -> dict[str, object]:
    """The methods a part declares (its own, not Protocol's machinery)."""
    return {
        name: value
        for name, value in vars(part).items()
        if inspect.isfunction(value) and not name.startswith("__")
    }


def _shape(function: object) -> list[tuple[str, object, bool]]:
    """Each parameter's name, kind, and whether it has a default."""
    return [
        (p.name, p.kind, p.default is not inspect.Parameter.empty)
        for p in inspect.signature(function).parameters.values()  # type: ignore[arg-type]
    ]


@pytest.mark.parametrize("part", PARTS, ids=lambda part: part.__name__)
def test_every_member_a_part_promises_is_on_the_store_as_declared(part: type) -> None:
    members = _members(part)
    assert members, part
    for name, declared in members.items():
        real = getattr(RuleStore, name, None)
        assert real is not None, f"RuleStore has no {name} ({part.__name__} promises it)"
        assert _shape(real) == _shape(declared), f"{part.__name__}.{name}"
        assert inspect.iscoroutinefunction(real) == inspect.iscoroutinefunction(declared), name


def test_every_mixin_names_what_it_needs_and_declares_nothing_as_any() -> None:
    for mixin in RuleStore.__mro__[1:-1]:  # at run time the mixins alone: their base is object
        source = Path(inspect.getfile(mixin)).read_text(encoding="utf-8")
        assert f"class {mixin.__name__}(_Needs):" in source, mixin
        needs = re.search(r"from storage\.rules_needs import (\w+) as _Needs", source)
        assert needs is not None and hasattr(rules_needs, needs.group(1)), mixin
        assert not re.search(r"^    _?\w+: Any$", source, re.M), mixin
