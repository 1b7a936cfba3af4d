"""The shape of the package (docs/architecture.md): one installed import name,
every subpackage listed, and functions and classes a reader can hold."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for folder in ("dsl", "compiler") for p in (ROOT / folder).rglob("*.py"))
CLASS_LIMIT, FUNCTION_LIMIT = 400, 80


@pytest.mark.parametrize("name", ["compiler", "dsl", "editions", "generated"])
def test_no_generic_top_level_name(name: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", f"import {name}"], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode != 0
    assert "ModuleNotFoundError" in done.stderr


def test_every_folder_with_an_init_is_a_listed_package() -> None:
    """A new subpackage must be listed in pyproject.toml, or it is not installed
    (a folder of modules without an __init__.py too: it is a namespace package).
    A folder of data files only (templates, card data, a page's static files)
    is listed as a package too, so that setuptools installs its files."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {
        "splendor_rules." + ".".join(module.parent.relative_to(ROOT).parts)
        for folder in ("dsl", "compiler", "editions", "generated")
        for module in (ROOT / folder).rglob("*.py")
    }
    data_only = {name for name in listed if name.endswith((".templates", ".data", ".static"))}
    assert found == listed - data_only


def _oversized(path: Path) -> list[str]:
    """Classes over 400 lines and functions over 80, decorators included,
    unless a `# size:` comment on the line before says why."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found = []
    for node in ast.walk(ast.parse("\n".join(lines))):
        if not isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        assert node.end_lineno is not None
        size = node.end_lineno - start + 1
        limit = CLASS_LIMIT if isinstance(node, ast.ClassDef) else FUNCTION_LIMIT
        excused = start >= 2 and lines[start - 2].strip().startswith("# size:")
        if size > limit and not excused:
            found.append(f"{node.name} at line {start}: {size} lines")
    return found


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_class_over_400_lines_nor_function_over_80(path: Path) -> None:
    assert _oversized(path) == []
