"""The build over every edition, its targets and the files it writes (issue 8).

- generated/__init__.py is written by the build, is current, and states for
  mypy that each engine module is an `Engine`; `build --check` covers it;
- files are written atomically and only when their text changed;
- a target is an object of the `Target` shape: another one builds too;
- frames are values: binding makes a new frame;
- the back end keeps its classes and functions small.
"""

from __future__ import annotations

import ast
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

import splendor_rules.compiler.cli as cli
from splendor_rules import generated
from splendor_rules.compiler.backend import build
from splendor_rules.compiler.backend.python.frame import Frame
from splendor_rules.compiler.backend.python.target import PYTHON
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import edition_files, editions_folder

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = tuple(path.stem for path in edition_files(editions_folder()))


def generated_folder() -> Path:
    return Path(generated.__file__).resolve().parent


@pytest.fixture(scope="module")
def built() -> dict[Path, str]:
    return build.build_all(editions_folder(), generated_folder())


# ------------------------------------------------------------- the package


def test_the_package_init_is_a_fresh_render(built: dict[Path, str]):
    init = generated_folder() / "__init__.py"
    assert init in built
    assert init.read_bytes() == built[init].encode("utf-8"), "run splendor-rules build"


def test_the_package_init_declares_every_engine_an_engine(built: dict[Path, str]):
    """Under TYPE_CHECKING, one `_<edition>: Engine = <edition>` per edition."""
    tree = ast.parse(built[generated_folder() / "__init__.py"])
    guarded = [n for n in tree.body if isinstance(n, ast.If)]
    assert len(guarded) == 1 and ast.unparse(guarded[0].test) == "TYPE_CHECKING"
    declared = {
        (n.target.id, ast.unparse(n.annotation), ast.unparse(n.value))
        for n in guarded[0].body
        if isinstance(n, ast.AnnAssign)
    }
    assert declared == {(f"_{name}", "Engine", name) for name in EDITIONS}


def test_the_package_still_loads_engines_by_name():
    assert set(EDITIONS) <= set(generated.editions())
    for name in EDITIONS:
        assert name == generated.load_edition(name).EDITION
    with pytest.raises(ValueError, match="no generated engine"):
        generated.load_edition("no_such_edition")


@pytest.fixture
def generated_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of generated/ that the CLI builds into and checks instead."""
    copy = tmp_path / "generated"
    shutil.copytree(generated_folder(), copy, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    monkeypatch.setattr(cli, "_generated_folder", lambda: copy)
    monkeypatch.chdir(ROOT)
    return copy


def test_build_check_names_a_stale_package_init(generated_copy: Path):
    init = generated_copy / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8").replace("Engine = ", "object = "), "utf-8")
    result = CliRunner().invoke(cli.main, ["build", "--check"])
    assert result.exit_code == 1
    assert f"{init} is not current: run splendor-rules build" in result.stderr
    fixed = CliRunner().invoke(cli.main, ["build"])
    assert fixed.exit_code == 0, fixed.output
    assert init.read_bytes() == (generated_folder() / "__init__.py").read_bytes()


# ----------------------------------------------------------------- writing


def test_write_touches_only_the_stale_files(tmp_path: Path):
    current, stale, missing = (tmp_path / n for n in ("current.py", "stale.py", "missing.py"))
    current.write_text("same\n", "utf-8")
    stale.write_text("old\n", "utf-8")
    before = current.stat()
    texts = {current: "same\n", stale: "new\n", missing: "made\n"}
    assert build.stale(texts) == [stale, missing]
    assert build.write(texts) == [stale, missing]
    assert (current.stat().st_ino, current.stat().st_mtime_ns) == (
        before.st_ino,
        before.st_mtime_ns,
    )
    assert stale.read_text("utf-8") == "new\n" and missing.read_text("utf-8") == "made\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["current.py", "missing.py", "stale.py"]
    assert build.write(texts) == []


def test_a_file_is_replaced_whole(tmp_path: Path):
    """os.replace of a finished file: a reader that opened the old file
    reads the old text to its end; the path then names the new file."""
    path = tmp_path / "engine.py"
    path.write_text("old text\n", "utf-8")
    with path.open(encoding="utf-8") as reader:
        build.write_atomically(path, "new text\n")
        assert reader.read() == "old text\n"
    assert path.read_text("utf-8") == "new text\n"
    assert [p.name for p in tmp_path.iterdir()] == ["engine.py"]


def test_extra_names_engines_with_no_edition(tmp_path: Path):
    (tmp_path / "__init__.py").write_text("", "utf-8")
    (tmp_path / "gone.py").write_text("", "utf-8")
    (tmp_path / "notes.txt").write_text("", "utf-8")
    texts = {tmp_path / "classic.py": "", tmp_path / "__init__.py": ""}
    assert build.extra(texts, tmp_path) == [tmp_path / "gone.py"]


def test_an_edition_that_does_not_check_stops_the_build(tmp_path: Path):
    (tmp_path / "broken.rules").write_text('edition broken "Broken" extends nothing {\n}\n')
    with pytest.raises(build.BuildError) as error:
        build.build_all(tmp_path, tmp_path / "out")
    assert error.value.path == tmp_path / "broken.rules"
    assert error.value.diagnostics


# ----------------------------------------------------------------- targets


class ListingTarget:
    """A toy target: an edition's "engine" lists its actions, one a line."""

    name = "listing"

    def engine_file(self, edition: str) -> str:
        return f"{edition}.txt"

    def render_engine(self, edition: m.Edition, root: Path) -> str:
        return "".join(f"{action.name}\n" for action in edition.actions)

    def render_files(self, edition: m.Edition, root: Path) -> dict[str, str]:
        return {self.engine_file(edition.name): self.render_engine(edition, root)}

    def package_files(self, editions: Sequence[str]) -> dict[str, str]:
        return {"INDEX": "".join(f"{name}\n" for name in editions)}

    def is_engine_file(self, path: Path) -> bool:
        return path.suffix == ".txt"


def test_another_target_builds_through_the_same_build(tmp_path: Path):
    texts = build.build_all(editions_folder(), tmp_path, ListingTarget())
    assert set(texts) == {tmp_path / f"{n}.txt" for n in EDITIONS} | {tmp_path / "INDEX"}
    assert texts[tmp_path / "INDEX"] == "".join(f"{n}\n" for n in sorted(EDITIONS))
    assert "reserve\n" in texts[tmp_path / "classic.txt"]


def test_the_python_target_names_its_files():
    assert PYTHON.name == "python"
    assert PYTHON.engine_file("classic") == "classic.py"
    assert PYTHON.is_engine_file(Path("classic.py"))
    assert not PYTHON.is_engine_file(Path("__init__.py"))
    with pytest.raises(ValueError):
        PYTHON.engine_file("not a name")


# ------------------------------------------------------------------ frames


def test_a_frame_is_a_value():
    top = Frame()
    inner = top.bind("k", "v_k").prebind("bonus", "d_bonus")
    assert dict(top.locals) == {} and dict(top.prebound) == {}
    assert dict(inner.locals) == {"k": "v_k"} and dict(inner.prebound) == {"bonus": "d_bonus"}
    # Another player or another state: the prebound definitions do not hold.
    assert dict(inner.of("_p1").prebound) == {} and inner.of("_p1").locals == inner.locals
    assert dict(inner.at("s2").prebound) == {} and inner.at("s") is inner
    # One function's temporaries never clash, whichever frame asks.
    assert [top.temporary("c"), inner.temporary("c"), inner.of(0).temporary("p")] == [
        "_c1",
        "_c2",
        "_p3",
    ]
    assert Frame().temporary("c") == "_c1"
