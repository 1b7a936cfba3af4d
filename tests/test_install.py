"""A rule file outside the project, with every command, on a non-editable
install (issue 20, item 1): the installed package's files are unchanged
afterwards, and a second run reuses the cache.

Opt-in (SPLENDOR_RULES_INSTALL_TEST=1): `pip install` of a copy of the
project into a new virtual environment installs its dependencies from the
wheel cache and compiles the three shipped native engines, 4.5 minutes on
this 2-core machine under load (docs/testing.md, "The install test").
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "tests" / "variants" / "house.rules"

pytestmark = pytest.mark.skipif(
    os.environ.get("SPLENDOR_RULES_INSTALL_TEST") != "1",
    reason="opt-in: SPLENDOR_RULES_INSTALL_TEST=1 (pip install into a new venv, minutes)",
)


def _fresh_copy(folder: Path) -> Path:
    """The project's tracked files as they are in the working tree: a clone."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, folder / name)
    return folder


def _hashes(package: Path) -> dict[str, str]:
    return {
        path.relative_to(package).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(package.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv with the project installed from a copy (not editable): its bin folder."""
    base = tmp_path_factory.mktemp("install")
    clone = _fresh_copy(base / "clone")
    subprocess.run([sys.executable, "-m", "venv", str(base / "venv")], check=True)
    done = subprocess.run(
        [str(base / "venv" / "bin" / "pip"), "install", "-q", str(clone)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    shutil.rmtree(clone)  # nothing may read the project's folder from now on
    return base / "venv" / "bin"


def test_a_rule_file_outside_with_every_command(installed: Path, tmp_path: Path) -> None:
    site = subprocess.run(
        [installed / "python", "-c", "import splendor_rules; print(splendor_rules.__path__[0])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    package = Path(site)
    assert "site-packages" in package.parts
    before = _hashes(package)
    user = tmp_path / "user"
    user.mkdir()
    shutil.copy(HOUSE, user / "my.rules")
    env = {
        **os.environ,
        "SPLENDOR_RULES_CACHE": str(tmp_path / "cache"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }

    def run(*args: str, stdin: str | None = None, code: int | tuple[int, ...] = 0) -> str:
        done = subprocess.run(
            [str(installed / "splendor-rules"), *args],
            cwd=user,
            env=env,
            input=stdin,
            capture_output=True,
            text=True,
            check=False,
        )
        codes = code if isinstance(code, tuple) else (code,)
        assert done.returncode in codes, (args, done.stdout[-2000:], done.stderr[-3000:])
        assert "Traceback" not in done.stderr
        return done.stdout + done.stderr

    assert "house (my.rules, extends classic)" in run("check", "my.rules")
    # A human seat answering 1 (the first legal move) to every prompt.
    run(
        "play",
        "my.rules",
        "-p",
        "2",
        "--bots",
        "human,random",
        "-o",
        "game.json",
        stdin="1\n" * 2000,
    )
    assert "1 record: 1 ok" in run("replay", "game.json", "--rules", "my.rules")
    assert "1 record: 1 ok" in run(
        "replay", "game.json", "--rules", "my.rules", "--engine", "native"
    )
    assert "native" in run("bench", "my.rules", "--engine", "native", "-p", "2", "-g", "5")
    assert "house minus classic" in run(
        "simulate", "classic", "my.rules", "--games", "10", "--jobs", "1"
    )
    # The house rules change the token limit: a divergence found is exit 1.
    conformed = run("conform", "classic", "my.rules", "--games", "2", "--plies", "40", code=(0, 1))
    assert conformed.strip()
    assert "token_limit" in run("diff", "classic", "my.rules")
    assert "writes nothing inside it" in run("build", code=2)
    assert "engines/native/house.c: written" in run("build", "my.rules", "--out", "engines")
    info = run("cache", "info")
    assert "2 engines" in info, info
    # A second run reuses the cache: nothing built, the same two engines.
    again = run("bench", "my.rules", "--engine", "native", "-p", "2", "-g", "5")
    assert "said" not in again and run("cache", "info").count("house") == 2
    timing = run("bench", "my.rules", "--load-time", "--engine", "generated", "--engine", "native")
    print(timing)  # the added time of loading a cached edition (docs/engine.md)
    assert _hashes(package) == before
