"""tests/wire/mutation_score.py, the last step of `make mutate`: what it counts as argued."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tests.wire import mutation_score


def test_only_list_items_naming_a_mutant_count_as_equivalent(tmp_path: Path) -> None:
    doc = tmp_path / "mutation.md"
    doc.write_text(
        "Prose naming `wire.odds.x_f__mutmut_1` argues nothing.\n"
        "- `wire.odds.x_f__mutmut_2`: why it is equivalent.\n"
        "  - `wire.cli.xǁ_Parserǁerror__mutmut_3`: nested, still a list item.\n"
        "- `storage.x_g__mutmut_4`: not of wire/.\n"
    )
    assert mutation_score.equivalent_mutants(doc) == {
        "wire.odds.x_f__mutmut_2",
        "wire.cli.xǁ_Parserǁerror__mutmut_3",
    }
    assert mutation_score.equivalent_mutants(tmp_path / "absent.md") == set()


def test_a_verdict_per_exit_code_and_no_tests_is_not_killed() -> None:
    assert [mutation_score.verdict(c) for c in (1, 3, 36, 0, 33, 34, None, -11)] == [
        "killed",
        "killed",
        "killed",
        "survived",
        "no tests",
        "skipped",
        "not run",
        "suspicious",
    ]


def test_a_row_scores_killed_over_mutants_and_again_without_the_equivalent() -> None:
    row = mutation_score._row("wire/x.py", Counter(killed=18, survived=1, equivalent=1))
    assert row.split() == ["wire/x.py", "20", "18", "1", "0", "1", "90.0%", "94.7%"]
