"""The installed project claims one import name, splendor_rules, and nothing
generic: its folders are installed under it (docs/architecture.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", ["compiler", "dsl", "editions", "generated"])
def test_no_generic_top_level_name(name: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", f"import {name}"], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode != 0
    assert "ModuleNotFoundError" in done.stderr


def test_every_folder_with_an_init_is_a_listed_package() -> None:
    """A new subpackage must be listed in pyproject.toml, or it is not installed."""
    import tomllib

    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        "splendor_rules." + ".".join(init.parent.relative_to(ROOT).parts)
        for folder in ("dsl", "compiler", "editions", "generated")
        for init in (ROOT / folder).rglob("__init__.py")
    }
    templates = {name for name in listed if name.endswith((".templates", ".data"))}
    assert found == listed - templates
