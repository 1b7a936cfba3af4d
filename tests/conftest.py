"""Shared fixtures: the editions compiled once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file, edition_files

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def compiled_editions() -> dict[str, Compiled]:
    """Every edition of the editions folder, by name."""
    return {path.stem: compile_file(path) for path in edition_files()}
