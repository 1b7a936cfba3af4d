"""Rule files anywhere (issue 20, item 1): the per-user cache of their
engines (compiler/tools/cache.py), the commands that take a rule file,
`build FILE --out DIR`, `cache info|clear`, and the fingerprint a record
carries of its rules."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from splendor_rules.compiler import cli
from splendor_rules.compiler.backend.native.compile import native_available
from splendor_rules.compiler.frontend.fingerprint import fingerprint
from splendor_rules.compiler.frontend.pipeline import compile_file, editions_folder
from splendor_rules.compiler.tools import cache, loader

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "tests" / "variants" / "house.rules"
CLASSIC = editions_folder() / "classic.rules"


def run(*args: str) -> Result:
    return CliRunner().invoke(cli.main, list(args))


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache of the test's own, empty."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.FOLDER_VARIABLE, str(folder))
    return folder


@pytest.fixture
def classic_copy(tmp_path: Path) -> Path:
    """classic.rules and its data in a folder outside the project, as a
    user's own edition named `mine`."""
    folder = tmp_path / "mine"
    shutil.copytree(editions_folder(), folder, ignore=shutil.ignore_patterns("*.py", "__*"))
    for other in folder.glob("*.rules"):
        if other.name != "classic.rules":
            other.unlink()
    path = folder / "classic.rules"
    text = path.read_text("utf-8").replace("edition classic ", "edition mine ", 1)
    path.unlink()
    (folder / "mine.rules").write_text(text, "utf-8")
    return folder / "mine.rules"


def _entries(folder: Path, target: str = "python") -> list[cache.Entry]:
    return [e for e in cache.entries(folder) if e.target == target]


def test_a_rule_file_is_built_once_then_found_by_its_contents(
    own_cache: Path, classic_copy: Path, tmp_path: Path
) -> None:
    first = cache.engine_module(classic_copy, "python", loader.check_rule_file)
    assert first.built and first.folder.parent == own_cache / "engines"
    again = cache.engine_module(classic_copy, "python", loader.check_rule_file)
    assert not again.built and again.module is first.module
    # The same contents elsewhere: the same entry (keyed by contents, not path).
    moved = tmp_path / "moved"
    shutil.copytree(classic_copy.parent, moved)
    assert not cache.engine_module(moved / "mine.rules", "python", loader.check_rule_file).built
    assert len(_entries(own_cache)) == 1
    # A data file changed: a new entry, whose engine plays the new cards.
    data = moved / "data" / "classic_cards.csv"
    data.write_text(data.read_text("utf-8").replace(",1,", ",2,", 1), "utf-8")
    changed = cache.engine_module(moved / "mine.rules", "python", loader.check_rule_file)
    assert changed.built and len(_entries(own_cache)) == 2
    assert changed.module.DESCRIPTION["fingerprint"] != first.module.DESCRIPTION["fingerprint"]


def test_a_parent_change_makes_a_new_entry(own_cache: Path, tmp_path: Path) -> None:
    folder = tmp_path / "house"
    folder.mkdir()
    shutil.copy(HOUSE, folder / "my.rules")
    built = cache.engine_module(folder / "my.rules", "python", loader.check_rule_file)
    assert built.built
    # A parent beside the file now answers `extends classic`: a new check and entry.
    shutil.copytree(editions_folder() / "data", folder / "data")
    shutil.copy(editions_folder() / "RULES.md", folder / "RULES.md")
    text = CLASSIC.read_text("utf-8").replace("take_two", "take_pair")
    (folder / "classic.rules").write_text(text, "utf-8")
    other = cache.engine_module(folder / "my.rules", "python", loader.check_rule_file)
    assert other.built and other.folder != built.folder
    assert any(m["name"] == "take_pair" for m in other.module.DESCRIPTION["moves"])


def test_two_processes_building_one_file_build_it_once(own_cache: Path, tmp_path: Path) -> None:
    shutil.copy(HOUSE, tmp_path / "my.rules")
    program = (
        "import sys\n"
        "from pathlib import Path\n"
        "from splendor_rules.compiler.tools import cache, loader\n"
        "loaded = cache.engine_module(Path(sys.argv[1]), 'python', loader.check_rule_file)\n"
        "print(loaded.built, loaded.module.new_game(2, 3) is not None)\n"
    )
    env = {**os.environ, cache.FOLDER_VARIABLE: str(own_cache)}
    children = [
        subprocess.Popen(
            [sys.executable, "-c", program, str(tmp_path / "my.rules")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(2)
    ]
    said = [child.communicate(timeout=600) for child in children]
    assert [child.returncode for child in children] == [0, 0], said
    assert sorted(out.split()[0] for out, _ in said) == ["False", "True"]
    assert len(_entries(own_cache)) == 1
    left = [p.name for p in (own_cache / "engines").iterdir() if p.name.startswith(".")]
    assert left == []  # no temporary folder left behind


def test_a_build_killed_halfway_leaves_nothing_behind_the_next(
    own_cache: Path, tmp_path: Path
) -> None:
    shutil.copy(HOUSE, tmp_path / "my.rules")
    model, reads = cache.checked(tmp_path / "my.rules", loader.check_rule_file)
    key = cache.entry_key(reads, "python")
    left = own_cache / "engines" / f".python-{key[:32]}.12345-deadbeef"
    left.mkdir(parents=True)
    (left / "house.py").write_text("half a module", "utf-8")
    folder, built, _ = cache.build_entry(own_cache, key, model, tmp_path / "my.rules", "python")
    assert built and not left.exists() and (folder / cache.ENTRY_FILE).is_file()


def test_the_cache_is_bounded_oldest_first(
    own_cache: Path, classic_copy: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    first = cache.engine_module(classic_copy, "python", loader.check_rule_file)
    shutil.copy(HOUSE, tmp_path / "my.rules")
    monkeypatch.setenv(cache.BOUND_VARIABLE, "0")  # nothing fits but the entry just built
    second = cache.engine_module(tmp_path / "my.rules", "python", loader.check_rule_file)
    assert [e.folder for e in cache.entries(own_cache)] == [second.folder]
    assert not first.folder.exists()


def test_cache_info_and_clear(own_cache: Path, tmp_path: Path) -> None:
    shutil.copy(HOUSE, tmp_path / "my.rules")
    loader.load(tmp_path / "my.rules")
    shown = run("cache", "info")
    assert shown.exit_code == 0, shown.output
    assert f"cache: {own_cache}" in shown.output
    assert "1 engine, " in shown.output and "of at most 256.0 MB" in shown.output
    assert "house" in shown.output and str(tmp_path / "my.rules") in shown.output
    cleared = run("cache", "clear")
    assert cleared.exit_code == 0 and cleared.output.startswith("removed 1 engine (")
    assert cache.entries(own_cache) == []


def test_an_unwritable_cache_still_gives_the_generated_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", "utf-8")
    monkeypatch.setenv(cache.FOLDER_VARIABLE, str(blocker / "cache"))
    engine = loader.load(HOUSE)
    assert engine.EDITION == "house" and engine.__name__.startswith("rendered_house")
    with pytest.raises(cache.CacheError, match="cannot use the cache"):
        cache.engine_module(HOUSE, "python", loader.check_rule_file)


def test_a_rule_files_native_engine_plays_as_its_generated_one(own_cache: Path) -> None:
    if native_available() is not None:
        pytest.skip(f"no native engine: {native_available()}")
    native = loader.load(HOUSE, "native")
    generated = loader.load(HOUSE)
    assert native.EDITION == "house" and native.DESCRIPTION["capabilities"]["playouts"]
    for seed in range(3):
        n, g = native.new_game(2, seed), generated.new_game(2, seed)
        for _ in range(60):
            if generated.is_over(g):
                break
            legal = generated.legal_actions(g)
            assert native.legal_actions(n) == legal
            move = legal[(seed + len(legal) // 2) % len(legal)]
            n, g = native.apply(n, move), generated.apply(g, move)
            assert native.to_json(n) == generated.to_json(g)
    assert [e.edition for e in _entries(own_cache, "native")] == ["house"]


def test_build_a_file_into_a_folder(own_cache: Path, tmp_path: Path) -> None:
    out = tmp_path / "engines"
    done = run("build", str(HOUSE), "--out", str(out), "--target", "python")
    assert done.exit_code == 0, done.output
    assert (out / "house.py").is_file() and (out / "__init__.py").is_file()
    assert not (out / "native").exists()
    sys.path.insert(0, str(tmp_path))
    try:
        import engines.house as house  # type: ignore[import-not-found]

        assert house.EDITION == "house" and house.new_game(2, 1) is not None
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == "engines" or n.startswith("engines.")]:
            del sys.modules[name]
    refused = run("build", str(HOUSE), "--out", str(tmp_path / "not-a-name"))
    assert refused.exit_code == 2 and "named as a Python package" in refused.output


def test_build_a_file_into_the_cache(own_cache: Path) -> None:
    done = run("build", str(HOUSE), "--target", "python")
    assert done.exit_code == 0, done.output
    assert "house.rules: python engine built in the cache: " in done.output
    again = run("build", str(HOUSE), "--target", "python")
    assert "python engine current in the cache" in again.output


def test_build_writes_nothing_in_an_installed_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "_installed", lambda: True)
    refused = run("build")
    assert refused.exit_code == 2
    assert "writes nothing inside it" in refused.output
    assert run("build", "--out", "x").exit_code == 2  # --out needs a rule file


# ------------------------------------------------------------ fingerprints


def test_a_fingerprint_ignores_comments_and_layout_but_not_rules(tmp_path: Path) -> None:
    text = HOUSE.read_text("utf-8")
    original = compile_file(HOUSE).model
    assert original is not None
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    (tmp_path / "a" / "my.rules").write_text(
        "# a new comment\n\n" + text.replace("  override", "      override   "), "utf-8"
    )
    (tmp_path / "b" / "my.rules").write_text(text.replace("above 12", "above 11"), "utf-8")
    relaid, changed = (compile_file(tmp_path / n / "my.rules").model for n in ("a", "b"))
    assert relaid is not None and changed is not None
    assert fingerprint(relaid) == fingerprint(original)
    assert fingerprint(changed) != fingerprint(original)
    assert fingerprint(original).startswith("sha256:") and len(fingerprint(original)) == 23


def test_a_record_names_its_rules_and_a_replay_on_other_rules_says_so(
    own_cache: Path, tmp_path: Path
) -> None:
    mine = tmp_path / "my.rules"
    shutil.copy(HOUSE, mine)
    game = tmp_path / "game.json"
    played = run(
        "play", str(mine), "-p", "2", "-s", "4", "--bots", "random,random", "-o", f"{game}"
    )
    assert played.exit_code == 0, played.output
    record = json.loads(game.read_text("utf-8"))
    assert record["edition"] == "house"
    assert record["fingerprint"] == loader.load(mine).DESCRIPTION["fingerprint"]
    replayed = run("replay", str(game), "--rules", str(mine))
    assert replayed.exit_code == 0 and "warning" not in replayed.output
    unnamed = run("replay", str(game))  # the edition is not installed: say how to name it
    assert unnamed.exit_code == 2 and "--rules FILE" in unnamed.output
    mine.write_text("# only a comment more\n" + HOUSE.read_text("utf-8"), "utf-8")
    assert "warning" not in run("replay", str(game), "--rules", str(mine)).output
    mine.write_text(HOUSE.read_text("utf-8").replace("score >= 18", "score >= 19"), "utf-8")
    other = run("replay", str(game), "--rules", str(mine))
    assert "warning: played under other rules (fingerprint" in other.output
    wrong = run("replay", str(game), "--rules", str(CLASSIC))
    assert wrong.exit_code == 2 and "declares 'classic'" in wrong.output


def test_bench_a_rule_file_and_its_load_time() -> None:
    timed = run("bench", str(HOUSE), "-p", "2", "-g", "2")
    assert timed.exit_code == 0, timed.output
    assert "house.rules: 2 random games per player count" in timed.output
    loaded = run("bench", str(HOUSE), "--load-time", "--engine", "generated")
    assert loaded.exit_code == 0, loaded.output
    row = next(line for line in loaded.output.splitlines() if line.startswith("generated"))
    first, median, slowest = (float(cell) for cell in row.split()[1:])
    assert 0 < median <= slowest and first > 0
