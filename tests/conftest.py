"""Shared fixtures: the editions compiled once per test session."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import engine_modules
import pytest
import sanitize
from hypothesis import HealthCheck, settings

from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file, edition_files
from splendor_rules.compiler.tools import cache

ROOT = Path(__file__).resolve().parent.parent

# Hypothesis's time health check measures the machine, not the strategy: on
# a loaded 2-core machine one stalled draw of a cheap strategy failed a run.
settings.register_profile("project", suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("project")


@pytest.fixture(scope="session")
def compiled_editions() -> dict[str, Compiled]:
    """Every edition of the editions folder, by name."""
    return {path.stem: compile_file(path) for path in edition_files()}


@pytest.fixture(scope="session", autouse=True)
def engine_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The per-user cache of rule files' engines (compiler/tools/cache.py),
    in a temporary folder for the session: no test writes the user's."""
    folder = tmp_path_factory.mktemp("engine-cache")
    os.environ[cache.FOLDER_VARIABLE] = str(folder)
    return folder


@pytest.fixture(scope="session", autouse=True)
def native_builds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder where tests' native engines are built once for the whole
    run (tests/engine_modules.py): the run's temporary folder, which
    pytest-xdist's workers share."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "native-builds"
    folder.mkdir(exist_ok=True)
    os.environ[engine_modules.SHARED_VARIABLE] = str(folder)
    return folder


def pytest_configure(config: pytest.Config) -> None:
    """The sanitizer mode (tests/sanitize.py): the ASan runtime must be
    preloaded, and the shipped native engines are rebuilt sanitized."""
    if not sanitize.SANITIZE:
        return
    reason = sanitize.missing_runtime()
    if reason is not None:
        pytest.exit(reason, returncode=2)
    folder = Path(tempfile.mkdtemp(prefix="native-sanitized-"))
    built = sanitize.use_sanitized_shipped(folder)
    print(f"sanitizer mode: {', '.join(built)} rebuilt with {' '.join(sanitize.FLAGS)}")
