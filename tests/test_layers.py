"""The direction of imports (docs/architecture.md, "The layers"), read from
the sources with `ast`, nothing imported:

    dsl -> compiler/frontend -> compiler/backend | compiler/runtime
        -> compiler/tools -> compiler/cli

A module imports its own layer and the layers before it, never one after
it nor its sibling (the back end and the runtime know nothing of each
other). No target of the back end imports another; the reference
interpreter never imports the back end (the differential tests compare two
independent readings of the model); a generated engine imports nothing of
the compiler but its types, under TYPE_CHECKING.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "splendor_rules"
# Each layer by its folder, with its rank: a module may import a layer of
# lower rank, or its own layer; layers of one rank are siblings.
LAYERS = {
    "dsl": 0,
    "compiler/frontend": 1,
    "compiler/backend": 2,
    "compiler/runtime": 2,
    "compiler/tools": 3,
    "compiler/cli": 4,
}
# The engine plan: target-neutral, beside analysis.py; every target may
# import it, and it imports no target.
PLAN = "compiler/backend/plan"
TARGETS = sorted(
    path.parent.relative_to(ROOT).as_posix()
    for path in (ROOT / "compiler" / "backend").glob("*/__init__.py")
    if path.parent.relative_to(ROOT).as_posix() != PLAN
)
INTERPRETER = "compiler/runtime/interpreter"
SOURCES = sorted(p for folder in ("dsl", "compiler") for p in (ROOT / folder).rglob("*.py"))
ENGINES = sorted((ROOT / "generated").rglob("*.py"))


def _folder(module: str) -> str | None:
    """The repository folder of a module of the package ("compiler/backend/python"
    for splendor_rules.compiler.backend.python.lower), or None for another package."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        return None
    return "/".join(parts[1:])


def _own(path: Path) -> str:
    """A source file's module path in the repository, without the suffix."""
    relative = path.relative_to(ROOT).with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    return "/".join(parts)


def imports(path: Path, own: str | None = None) -> Iterator[tuple[int, str]]:
    """Every module of the package a source imports (anywhere: at the top,
    in a function, under TYPE_CHECKING), as a repository path, with its line;
    `own`: the source's module path, if not where it lies."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = (own or _own(path)).split("/")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                folder = _folder(alias.name)
                if folder is not None:
                    yield node.lineno, folder
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the source's own package
                base = package[: len(package) - node.level + 1]
                module = "/".join([*base, *(node.module or "").split(".")]).rstrip("/")
                yield node.lineno, module
                continue
            folder = _folder(node.module or "")
            if folder is None:
                continue
            for alias in node.names:  # `from pkg import module` names a module too
                yield node.lineno, f"{folder}/{alias.name}"


def _within(module: str, folder: str) -> bool:
    return module == folder or module.startswith(folder + "/")


def layer(module: str) -> str | None:
    """The layer a module path belongs to (the longest folder that holds it)."""
    found = [folder for folder in LAYERS if _within(module, folder)]
    return max(found, key=len) if found else None


def _allowed(source: str, target: str) -> bool:
    own, other = layer(source), layer(target)
    if other is None or own is None or own == other:
        return True
    return LAYERS[other] < LAYERS[own]


def wrong_imports(path: Path, own: str | None = None) -> list[str]:
    """The imports of a source that break a rule of the layers, said."""
    source = own or _own(path)
    found = []
    for line, target in imports(path, source):
        if not _allowed(source, target):
            found.append(f"line {line}: {layer(source)} imports {target} ({layer(target)})")
        own_target = next((t for t in TARGETS if _within(source, t)), None)
        other = next((t for t in TARGETS if _within(target, t) and t != own_target), None)
        if own_target is not None and other is not None:
            found.append(f"line {line}: the target {own_target} imports {target}")
        if _within(source, PLAN) and other is not None:
            found.append(f"line {line}: the engine plan imports the target {other}")
        if _within(source, INTERPRETER) and _within(target, "compiler/backend"):
            found.append(f"line {line}: the interpreter imports the back end ({target})")
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_imports_follow_the_layers(path: Path) -> None:
    assert wrong_imports(path) == []


def _type_checking_lines(tree: ast.Module) -> set[int]:
    """The lines inside `if TYPE_CHECKING:` blocks."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                for sub in ast.walk(inner):
                    if hasattr(sub, "lineno"):
                        lines.add(sub.lineno)
    return lines


@pytest.mark.parametrize("path", ENGINES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_engines_import_nothing_of_the_compiler_but_types(path: Path) -> None:
    typing_only = _type_checking_lines(ast.parse(path.read_text(encoding="utf-8")))
    found = [
        f"line {line}: {target}"
        for line, target in imports(path)
        if _within(target, "compiler") and line not in typing_only
    ]
    assert found == []


def test_the_rules_are_enforced() -> None:
    """The checker itself: each kind of wrong import is found."""
    assert not _allowed("compiler/frontend/checks/ids", "compiler/backend/analysis")
    assert not _allowed("compiler/backend/build", "compiler/runtime/loading")
    assert not _allowed("compiler/runtime/loading", "compiler/backend/build")
    assert not _allowed("compiler/tools/bench", "compiler/cli/options")
    assert not _allowed("dsl/parser", "compiler/frontend/model")
    assert _allowed("compiler/cli/build", "compiler/backend/build")
    assert _allowed("compiler/backend/native/lower", "compiler/backend/analysis")
    assert TARGETS == ["compiler/backend/native", "compiler/backend/python"]
    assert _allowed("compiler/backend/python/actions", "compiler/backend/plan/ops")


def test_the_plan_imports_no_target(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from splendor_rules.compiler.backend.plan import ops\n"
        "from splendor_rules.compiler.backend.python import nodes\n",
        "utf-8",
    )
    assert wrong_imports(probe, "compiler/backend/plan/probe") == [
        "line 2: the engine plan imports the target compiler/backend/python"
    ]
    assert wrong_imports(probe, "compiler/backend/native/probe") == [
        "line 2: the target compiler/backend/native imports compiler/backend/python/nodes"
    ]


def test_the_scanner_reads_every_form_of_import(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from typing import TYPE_CHECKING\n"
        "import splendor_rules.compiler.backend.python.lower\n"
        "from splendor_rules.compiler.backend.python import emit\n"
        "from . import cnodes\n"
        "def late() -> None:\n"
        "    from splendor_rules.compiler.runtime import loading\n",
        "utf-8",
    )
    assert wrong_imports(probe, "compiler/backend/native/probe") == [
        "line 2: the target compiler/backend/native imports compiler/backend/python/lower",
        "line 3: the target compiler/backend/native imports compiler/backend/python/emit",
        "line 6: compiler/backend imports compiler/runtime/loading (compiler/runtime)",
    ]
