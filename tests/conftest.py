"""Shared fixtures: the editions compiled once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file, editions_folder

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def compiled_editions() -> dict[str, Compiled]:
    return {
        name: compile_file(editions_folder() / f"{name}.rules") for name in ("classic", "marvel")
    }
