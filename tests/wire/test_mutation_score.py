"""tests/wire/mutation_score.py, the last step of `make mutate`: what it counts as argued."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

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


def _results(root: Path, **codes_by_file: dict[str, int | None]) -> None:
    for stem, codes in codes_by_file.items():
        meta = root / "wire" / f"{stem}.py.meta"
        meta.parent.mkdir(parents=True, exist_ok=True)
        meta.write_text(json.dumps({"exit_code_by_key": codes}))


def test_a_run_limited_to_some_files_scores_those_and_names_the_rest_unrun(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _results(
        tmp_path,
        fight={"wire.fight.x_a__mutmut_1": 1, "wire.fight.x_a__mutmut_2": 1},
        gear={"wire.gear.x_b__mutmut_1": None},
    )
    monkeypatch.setattr(mutation_score, "MUTANTS", tmp_path)
    assert mutation_score.main(["wire/fight.py"]) == 0
    named = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in named[1:]] == ["wire/fight.py", "all"]
    assert named[1].split()[1:3] == ["2", "2"] and named[1].split()[-2] == "100.0%"
    assert mutation_score.main() == 0
    everything = capsys.readouterr().out.splitlines()
    assert everything[1] == named[1] and everything[2].startswith("all scored")
    assert everything[3:] == ["not run (a run limited to other files): wire/gear.py"]
    assert mutation_score.main(["wire/pricing.py"]) == 1
    assert "no results in mutants/ for wire/pricing.py" in capsys.readouterr().out
