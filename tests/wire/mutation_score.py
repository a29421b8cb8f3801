"""`python -m tests.wire.mutation_score [FILE...]` (the last step of `make mutate`): the mutation
score of each file of wire/ (or of the files named, as `make mutate MUTATE=...` ran them alone),
read from mutmut's results in mutants/.

A score is killed / mutants. "No tests" counts as not killed: a mutant no test runs is a gap like
a survivor. Survivors named in docs/mutation.md (a backticked mutant name at the start of a list
item) are the equivalent mutants we have argued can change nothing a user sees; they are marked
"equivalent" and the second score leaves them out. Any other survivor is a gap, listed by name
for `mutmut show NAME`, and makes the exit status 1 so the habit cannot pass over it.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MUTANTS = ROOT / "mutants"
DOC = ROOT / "docs" / "mutation.md"

# mutmut's exit codes (mutmut/stats.py), as far as a score needs them.
KILLED = {1, 3}
TIMEOUT = {-24, 24, 152, 255, 36}
NO_TESTS = {5, 33}
SKIPPED = {34}
SURVIVED = {0}


def equivalent_mutants(doc: Path = DOC) -> set[str]:
    """The mutant names listed in docs/mutation.md as equivalent."""
    if not doc.exists():
        return set()
    return set(re.findall(r"^\s*[-*] `(wire\.[\w.]+__mutmut_\d+)`", doc.read_text(), re.M))


def verdict(code: int | None) -> str:
    if code in KILLED or code in TIMEOUT:
        return "killed"
    if code in SURVIVED:
        return "survived"
    if code in NO_TESTS:
        return "no tests"
    if code in SKIPPED:
        return "skipped"
    return "not run" if code is None else "suspicious"


def results(files: Sequence[str] = ()) -> list[Path]:
    """mutmut's result file of each mutated file of wire/, or of the `files` named only (paths
    from the top of the tree, wire/fight.py): the others of a run limited to them never ran."""
    metas = sorted((MUTANTS / "wire").rglob("*.py.meta"))
    if not files:
        return metas
    wanted = {Path(f).as_posix().removeprefix("./") for f in files}
    return [m for m in metas if m.relative_to(MUTANTS).as_posix().removesuffix(".meta") in wanted]


def main(files: Sequence[str] = ()) -> int:
    """Print the score per file and each gap; 1 while there is a gap. Without `files`, a file
    none of whose mutants ran (a run limited to others by MUTATE) is named apart, not scored."""
    metas = results(files)
    if not metas:
        named = f" for {' '.join(files)}" if files else ""
        print(f"no results in mutants/{named}: run `make mutate` first")
        return 1
    equivalent = equivalent_mutants()
    gaps: list[tuple[str, str]] = []
    unrun: list[str] = []
    header = f"{'file':<20}{'mutants':>8}{'killed':>8}{'survived':>9}{'no tests':>9}"
    print(f"{header}{'equiv.':>8}{'score':>9}{'w/o equiv.':>12}")
    totals: Counter[str] = Counter()
    for meta in metas:
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        label = meta.relative_to(MUTANTS).as_posix().removesuffix(".meta")
        if not codes:
            continue
        if not files and all(code is None for code in codes.values()):
            unrun.append(label)
            continue
        counts: Counter[str] = Counter()
        for name, code in codes.items():
            seen = verdict(code)
            if seen != "killed" and name in equivalent:
                seen = "equivalent"
            counts[seen] += 1
            if seen not in ("killed", "equivalent", "skipped"):
                gaps.append((name, seen))
        totals.update(counts)
        print(_row(label, counts))
    print(_row("all of wire/" if not files and not unrun else "all scored", totals))
    for name, seen in gaps:
        print(f"  {seen}: {name}")
    if unrun:
        print(f"not run (a run limited to other files): {', '.join(unrun)}")
    return 1 if gaps else 0


def _row(label: str, counts: Counter[str]) -> str:
    tested = sum(counts.values()) - counts["skipped"]
    killed = counts["killed"]
    score = killed / tested if tested else 1.0
    argued = killed / (tested - counts["equivalent"]) if tested > counts["equivalent"] else 1.0
    return (
        f"{label:<20}{tested:>8}{killed:>8}{counts['survived']:>9}{counts['no tests']:>9}"
        f"{counts['equivalent']:>8}{score:>9.1%}{argued:>12.1%}"
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
