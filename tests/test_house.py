"""The house's shape (tools/house.py): no import circle among the cogs, and cogs/utils keeps to
what any cog could use, so a feature that reaches back into a cog shows up here, not at run
time as a half-imported module."""

from tools.house import import_cycles, read_modules


def test_no_import_circle_among_the_cogs() -> None:
    circles = import_cycles(read_modules(), within="cogs")
    assert circles == [], f"cogs modules import each other in a circle: {circles}"


def test_no_import_circle_anywhere_in_the_house() -> None:
    """The last one, storage <-> storage.postgres, went with storage/urls.py."""
    circles = import_cycles(read_modules())
    assert circles == [], f"modules import each other in a circle: {circles}"


def test_cogs_utils_imports_no_feature_cog() -> None:
    modules = read_modules()
    reaching_up = {
        name: sorted(
            t for t in module.imports if not t.startswith(("cogs.utils", "wire", "storage"))
        )
        for name, module in modules.items()
        if name.startswith("cogs.utils")
    }
    assert {n: t for n, t in reaching_up.items() if t} == {}


def test_the_walk_finds_a_circle_it_is_shown(tmp_path) -> None:
    """The check above would pass on a tool that finds nothing: a two-file circle is found,
    and an import under TYPE_CHECKING (which never runs) is not one."""
    package = tmp_path / "cogs"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from cogs.b import thing\n")
    (package / "b.py").write_text("def f():\n    from cogs import a\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from cogs.a import x\n"
    )
    (package / "d.py").write_text("from cogs.c import y\n")
    modules = read_modules(tmp_path, rooms=("cogs",))
    assert import_cycles(modules) == [["cogs.a", "cogs.b"]]
