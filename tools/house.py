"""`python -m tools.house`: the house drawn from its files, for a reader and for a closing note.

Prints the rooms (folders of Python code with their line counts), the largest files, every
function of 50 lines or more, and the import circles among the project's own modules. A circle
is a strongly connected group in the graph of imports (imports inside functions count, since
they still tie the modules together; imports under `if TYPE_CHECKING:` do not, since they never
run). The same walk serves tests/test_house.py, which fails when a circle among cogs comes back,
so the figures a closing note quotes and the check a test makes cannot disagree.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROOMS = ("wire", "storage", "cogs", "tools", "bench")
LONG_FUNCTION = 50


@dataclass(frozen=True)
class Function:
    """One function or method, named as a reader would look for it: module.Class.name."""

    qualname: str
    lines: int


@dataclass(frozen=True)
class Module:
    """One source file: its dotted name, path, length, functions, and the project's modules it
    imports."""

    name: str
    path: Path
    lines: int
    functions: tuple[Function, ...]
    imports: frozenset[str]


def module_name(path: Path, root: Path = ROOT) -> str:
    """The dotted name Python imports the file by (a package's __init__ is the package)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files(root: Path = ROOT, rooms: Iterable[str] = ROOMS) -> Iterator[Path]:
    """Every .py file under the rooms, in a stable order."""
    for room in rooms:
        yield from sorted((root / room).rglob("*.py"))


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Imports that run: everything but the body of `if TYPE_CHECKING:`."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _imported(
    node: ast.Import | ast.ImportFrom, importer: str, is_package: bool, known: Iterable[str]
) -> Iterator[str]:
    """The project modules an import statement reads: `from pkg import mod` reads mod, not pkg's
    own names (pkg's __init__ runs too, but an empty or re-exporting __init__ ties nothing)."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield alias.name
        return
    base = node.module or ""
    if node.level:
        package = importer.split(".")
        drop = node.level - 1 if is_package else node.level
        package = package[: len(package) - drop] if drop else package
        base = ".".join([*package, base] if base else package)
    submodules = [f"{base}.{alias.name}" for alias in node.names]
    yield from (name for name in submodules if name in known)
    if not all(name in known for name in submodules):
        yield base


def _functions(tree: ast.Module, prefix: str) -> Iterator[Function]:
    def walk(node: ast.AST, names: list[str]) -> Iterator[Function]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                lines = (child.end_lineno or child.lineno) - start + 1
                yield Function(".".join([prefix, *names, child.name]), lines)
                yield from walk(child, [*names, child.name])
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, [*names, child.name])

    yield from walk(tree, [])


def read_modules(root: Path = ROOT, rooms: Iterable[str] = ROOMS) -> dict[str, Module]:
    """Every module under the rooms, with its imports resolved to the project's own modules."""
    parsed: dict[str, tuple[Path, str, ast.Module]] = {}
    for path in source_files(root, rooms):
        text = path.read_text(encoding="utf-8")
        parsed[module_name(path, root)] = (path, text, ast.parse(text, filename=str(path)))
    modules: dict[str, Module] = {}
    for name, (path, text, tree) in parsed.items():
        is_package = path.name == "__init__.py"
        targets = {
            target
            for node in _import_nodes(tree)
            for target in _imported(node, name, is_package, parsed)
            if target in parsed and target != name
        }
        modules[name] = Module(
            name=name,
            path=path,
            lines=len(text.splitlines()),
            functions=tuple(_functions(tree, name)),
            imports=frozenset(targets),
        )
    return modules


def import_cycles(modules: dict[str, Module], within: str = "") -> list[list[str]]:
    """Strongly connected groups of two or more modules (Tarjan), among names under `within`."""
    names = sorted(n for n in modules if n == within or n.startswith(within))
    graph = {n: sorted(t for t in modules[n].imports if t in names) for n in names}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(names) + 100))
    try:
        for name in names:
            if name not in index:
                visit(name)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(groups, key=lambda g: (-len(g), g))


def folder_lines(modules: dict[str, Module], root: Path = ROOT) -> dict[str, tuple[int, int]]:
    """Each folder holding code: (files, lines) for its own files, not its subfolders'."""
    folders: dict[str, tuple[int, int]] = {}
    for module in modules.values():
        folder = str(module.path.parent.relative_to(root))
        files, lines = folders.get(folder, (0, 0))
        folders[folder] = (files + 1, lines + module.lines)
    return dict(sorted(folders.items()))


def long_functions(modules: dict[str, Module], at_least: int = LONG_FUNCTION) -> list[Function]:
    """Functions of `at_least` lines or more (decorators included), longest first."""
    found = [f for m in modules.values() for f in m.functions if f.lines >= at_least]
    return sorted(found, key=lambda f: (-f.lines, f.qualname))


def draw(modules: dict[str, Module], largest: int = 15, root: Path = ROOT) -> str:
    """The report `python -m tools.house` prints."""
    out: list[str] = []
    total_files = len(modules)
    total_lines = sum(m.lines for m in modules.values())
    out.append(f"# The house: {total_files} files, {total_lines} lines in {', '.join(ROOMS)}")
    out.append("")
    out.append("## Rooms (own files only)")
    for folder, (files, lines) in folder_lines(modules, root).items():
        out.append(f"{lines:7d}  {files:3d} files  {folder}/")
    out.append("")
    out.append(f"## The {largest} largest files")
    for module in sorted(modules.values(), key=lambda m: (-m.lines, m.name))[:largest]:
        out.append(f"{module.lines:7d}  {module.path.relative_to(root)}")
    functions = [f for m in modules.values() for f in m.functions]
    longs = long_functions(modules)
    out.append("")
    out.append(f"## Functions of {LONG_FUNCTION}+ lines: {len(longs)} of {len(functions)}")
    for function in longs:
        out.append(f"{function.lines:7d}  {function.qualname}")
    cycles = import_cycles(modules)
    out.append("")
    out.append(f"## Import circles: {len(cycles)}")
    for group in cycles:
        out.append(f"  {len(group)} modules: {', '.join(group)}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.house", description=(__doc__ or "")[:60])
    parser.add_argument("--root", type=Path, default=ROOT, help="the tree to draw (default: here)")
    parser.add_argument("--largest", type=int, default=15, help="how many largest files to list")
    args = parser.parse_args(argv)
    print(draw(read_modules(args.root), args.largest, args.root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
