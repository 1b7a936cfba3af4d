"""The native engines' plumbing (issue 12): a C source compiled into an
extension module and loaded, what happens without a C compiler, the
`build` command's native target, setup.py's extension list, and loading and
timing an engine of kind "native".

No native engine is needed: the C modules here are a few lines written by
the tests, and the native target of the build is replaced by one that
renders such a module per edition.
"""

from __future__ import annotations

import hashlib
import os
import runpy
import shutil
import sys
import sysconfig
from collections.abc import Iterator, Sequence
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import splendor_rules.compiler.cli as cli
from splendor_rules import generated
from splendor_rules.compiler.backend import build, targets
from splendor_rules.compiler.backend.native import compile as native
from splendor_rules.compiler.backend.python.target import PYTHON
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import Compiled, edition_files
from splendor_rules.compiler.runtime import loading
from splendor_rules.compiler.tools import random_games

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = sorted(path.stem for path in edition_files())
PACKAGE = "splendor_rules.generated.native"
needs_a_compiler = pytest.mark.skipif(
    native.native_available() is not None, reason=f"{native.native_available()}"
)


def c_module(name: str, answer: int = 42) -> str:
    """A complete extension module `name` with one function, answer()."""
    return f"""\
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *answer(PyObject *self, PyObject *unused) {{
    return PyLong_FromLong({answer});
}}

static PyMethodDef methods[] = {{
    {{"answer", answer, METH_NOARGS, "The answer."}},
    {{NULL, NULL, 0, NULL}},
}};

static struct PyModuleDef module = {{PyModuleDef_HEAD_INIT, "{name}", NULL, -1, methods}};

PyMODINIT_FUNC PyInit_{name}(void) {{ return PyModule_Create(&module); }}
"""


def no_compiler(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    """Point CC at a program that does not exist; its name."""
    missing = str(tmp_path / "no-such-cc")
    monkeypatch.setenv("CC", missing)
    return missing


# ----------------------------------------------------------- compile.py


@needs_a_compiler
@pytest.mark.parametrize("optimize", [True, False], ids=["O2", "O1"])
def test_a_c_source_compiles_into_a_module_that_loads(tmp_path: Path, optimize: bool) -> None:
    source = tmp_path / "tiny.c"
    source.write_text(c_module("_tiny"), "utf-8")
    out = tmp_path / "out"
    out.mkdir()
    built = native.compile_extension(source, "somewhere.deep._tiny", out, optimize=optimize)
    assert built.parent == out and built.name == "_tiny" + EXTENSION_SUFFIXES[0]
    assert [path.name for path in out.iterdir()] == [built.name]  # no temporary file left
    module = native.load_extension(built, "somewhere.deep._tiny")
    try:
        assert module.answer() == 42 and module.__name__ == "somewhere.deep._tiny"
        assert sys.modules["somewhere.deep._tiny"] is module
    finally:
        del sys.modules["somewhere.deep._tiny"]


@needs_a_compiler
def test_a_module_is_replaced_whole(tmp_path: Path) -> None:
    """A rebuild renames a finished file over the old one: a process that
    loaded the old module keeps it, a new load gets the new one."""
    source = tmp_path / "tiny.c"
    source.write_text(c_module("_tiny", 1), "utf-8")
    first = native.compile_extension(source, "_tiny", tmp_path)
    inode = first.stat().st_ino
    source.write_text(c_module("_tiny", 2), "utf-8")
    again = native.compile_extension(source, "_tiny", tmp_path)
    assert again == first and again.stat().st_ino != inode
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(["tiny.c", first.name])


@needs_a_compiler
def test_a_source_that_does_not_compile_shows_the_compilers_messages(tmp_path: Path) -> None:
    source = tmp_path / "broken.c"
    source.write_text(c_module("_broken").replace("return PyM", "retrun PyM"), "utf-8")
    with pytest.raises(native.CompileFailed) as failed:
        native.compile_extension(source, "_broken", tmp_path)
    message = str(failed.value)
    assert message.startswith(f"{source} did not compile (exit ")
    assert "retrun" in message and "error" in message  # the compiler's own words
    assert sorted(path.name for path in tmp_path.iterdir()) == ["broken.c"]


def test_no_compiler_is_one_clear_reason(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    missing = no_compiler(monkeypatch, tmp_path)
    assert native.native_available() == f"no C compiler found ({missing})"
    source = tmp_path / "tiny.c"
    source.write_text(c_module("_tiny"), "utf-8")
    with pytest.raises(native.NativeUnavailable) as unavailable:
        native.compile_extension(source, "_tiny", tmp_path)
    assert str(unavailable.value) == (
        f"no C compiler found ({missing}): the native engines are not built; "
        "the pure-Python engines work"
    )
    assert "\n" not in str(unavailable.value)


def test_no_python_headers_is_one_clear_reason(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    paths = sysconfig.get_paths()
    monkeypatch.setattr(sysconfig, "get_paths", lambda: {**paths, "include": str(tmp_path)})
    reason = native.native_available()
    if shutil.which(native.compiler_command()[0]) is not None:
        assert reason == f"no Python headers (no Python.h in {tmp_path})"
    with pytest.raises(native.NativeUnavailable, match="the pure-Python engines work"):
        native.require_native()


def test_the_compiler_and_linker_follow_cc(monkeypatch: pytest.MonkeyPatch) -> None:
    """$CC replaces the compiler, in the link command too, as for setuptools."""
    monkeypatch.delenv("LDSHARED", raising=False)
    monkeypatch.setenv("CC", "my-cc -m64")
    assert native.compiler_command() == ["my-cc", "-m64"]
    assert native.linker_command()[:2] == ["my-cc", "-m64"]
    monkeypatch.setenv("LDSHARED", "my-ld -shared")
    assert native.linker_command() == ["my-ld", "-shared"]


# --------------------------------------------------- build --target native


class TinyNativeTarget:
    """A stand-in for the native target: per edition a C module `_<edition>`
    and a Python module that imports it, and the package's __init__.py."""

    name = "native"
    folder = "native"
    package = PACKAGE
    compiled = True

    def engine_file(self, edition: str) -> str:
        return f"{edition}.c"

    def render_engine(self, edition: m.Edition, root: Path) -> str:
        return c_module(f"_{edition.name}", len(edition.actions))

    def render_files(self, edition: m.Edition, root: Path) -> dict[str, str]:
        return {
            self.engine_file(edition.name): self.render_engine(edition, root),
            f"{edition.name}.py": f"from splendor_rules.generated.native import _{edition.name}\n",
        }

    def package_files(self, editions: Sequence[str]) -> dict[str, str]:
        return {"__init__.py": '"""Stand-in native engines."""\n'}

    def is_engine_file(self, path: Path) -> bool:
        return path.suffix in (".c", ".py") and path.name != "__init__.py"


@pytest.fixture
def generated_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of generated/ that the CLI builds into, with the stand-in
    native target."""
    copy = tmp_path / "generated"
    source = Path(generated.__file__).parent
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "native"))
    monkeypatch.setattr(cli, "_generated_folder", lambda: copy)
    monkeypatch.setattr(targets, "TARGETS", (PYTHON, TinyNativeTarget()))
    monkeypatch.chdir(ROOT)
    return copy


def run(*args: str) -> Result:
    return CliRunner().invoke(cli.main, ["build", *args])


def test_build_without_a_compiler_writes_the_sources_and_exits_0(
    generated_copy: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    missing = no_compiler(monkeypatch, tmp_path)
    result = run("--target", "native")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == (
        f"native: not built: no C compiler found ({missing}); the pure-Python engines work"
    )
    assert result.stderr == ""
    folder = generated_copy / "native"
    assert sorted(path.name for path in folder.glob("*.c")) == [f"{e}.c" for e in EDITIONS]
    assert build.stale_extensions(folder, PACKAGE) == build.native_sources(folder)
    assert "generated/classic.py" not in result.stdout  # the Python target was not asked for


def test_the_build_runs_the_registered_targets(
    generated_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A version with the Python target alone registered builds generated/ only."""
    monkeypatch.setattr(targets, "TARGETS", (PYTHON,))
    for args in ((), ("--check",)):
        result = run(*args)
        assert result.exit_code == 0, result.output
        assert "native" not in result.output
    assert not (generated_copy / "native").exists()
    assert run("--target", "python").exit_code == 0


@needs_a_compiler
def test_build_compiles_each_missing_or_older_module(
    generated_copy: Path, compiled_editions: dict[str, Compiled]
) -> None:
    result = run()
    assert result.exit_code == 0, result.output
    names = ", ".join(EDITIONS)
    assert "generated/classic.py" in result.stdout  # both targets by default
    assert result.stdout.splitlines()[-1] == f"native: {len(EDITIONS)} engines compiled ({names})"
    folder = generated_copy / "native"
    assert build.stale_extensions(folder, PACKAGE) == []
    assert run("--check").exit_code == 0
    assert run().stdout.splitlines()[-1] == f"native: {len(EDITIONS)} engines current ({names})"
    source = folder / "classic.c"
    build.module_of(source, PACKAGE).unlink()
    rest = ", ".join(e for e in EDITIONS if e != "classic")
    assert run("--target", "native").stdout.splitlines()[-1] == (
        f"native: 1 engine compiled (classic), {len(EDITIONS) - 1} current ({rest})"
    )
    built = build.module_of(source, PACKAGE)
    loaded = native.load_extension(built, "native_build_probe._classic")  # not the real name
    del sys.modules["native_build_probe._classic"]
    model = compiled_editions["classic"].model
    assert model is not None and loaded.answer() == len(model.actions)  # the stand-in's C


def test_build_check_names_a_stale_native_source(
    generated_copy: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    no_compiler(monkeypatch, tmp_path)
    assert run("--target", "native").exit_code == 0
    source = generated_copy / "native" / "marvel.c"
    source.write_text("/* edited */\n", "utf-8")
    (generated_copy / "native" / "gone.c").write_text("", "utf-8")
    checked = run("--check")
    assert checked.exit_code == 1
    assert "generated/ is current" in checked.stdout
    assert f"{source} is not current: run splendor-rules build" in checked.stderr
    assert f"{generated_copy / 'native' / 'gone.c'} has no edition: remove it" in checked.stderr
    assert run("--check", "--target", "python").exit_code == 0


@needs_a_compiler
def test_a_native_source_that_does_not_compile_fails_the_build(
    generated_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Broken(TinyNativeTarget):
        def render_engine(self, edition: m.Edition, root: Path) -> str:
            return "this is not C\n"

    monkeypatch.setattr(targets, "TARGETS", (PYTHON, Broken()))
    result = run("--target", "native")
    assert result.exit_code == 1
    assert "did not compile" in result.stderr and "error" in result.stderr
    assert "Traceback" not in result.output


def stamped(source: Path, text: str | None = None, compiler: str | None = None) -> Path:
    """A stand-in module for `source` carrying a stamp (of `text`, else of the
    source), as the bytes of a compiled one do; its path."""
    digest = (
        native.source_hash(source) if text is None else hashlib.sha256(text.encode()).hexdigest()
    )
    stamp = f"{native.STAMP_MARKER}{digest} {compiler or native.compiler_version()}"
    built = build.module_of(source, PACKAGE)
    built.write_bytes(b"\x7fELF\0" + stamp.encode() + b"\0rest")
    return built


def test_the_stale_modules_are_the_missing_and_those_not_made_from_their_source(
    tmp_path: Path,
) -> None:
    names = ("current", "edited", "unstamped", "missing", "other_compiler")
    current, edited, unstamped, missing, other = (tmp_path / f"{name}.c" for name in names)
    for source in (current, edited, unstamped, missing, other):
        source.write_text(f"/* {source.stem} */\n", "utf-8")
    stamped(current)
    stamped(edited, "/* an older text */\n")
    build.module_of(unstamped, PACKAGE).write_bytes(b"\x7fELF")
    stamped(other, compiler="cc 0.1 (long ago)")
    compiler_here = native.native_available() is None
    assert build.stale_extensions(tmp_path, PACKAGE) == [
        edited,
        missing,
        *([other] if compiler_here else []),
        unstamped,
    ]
    assert build.stale_modules(tmp_path, PACKAGE) == [
        (
            build.module_of(edited, PACKAGE),
            f"{build.module_of(edited, PACKAGE).name} was "
            "compiled from another version of edited.c",
        ),
        (
            build.module_of(unstamped, PACKAGE),
            f"{build.module_of(unstamped, PACKAGE).name} carries no hash of its C source",
        ),
    ]
    assert build.stale_extensions(tmp_path / "none", PACKAGE) == []


# --------------------------------------------------------------- install


def test_setup_py_lists_every_native_source_as_an_optional_extension(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """setup.py and the build name the modules alike."""
    import setuptools

    given: dict[str, Any] = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kwargs: given.update(kwargs))
    runpy.run_path(str(ROOT / "setup.py"))
    native_target = targets.named("native")
    sources = build.native_sources(ROOT / "generated" / native_target.folder)
    assert [ext.name for ext in given["ext_modules"]] == [
        build.extension_module(source, native_target.package) for source in sources
    ]
    for extension, source in zip(given["ext_modules"], sources, strict=True):
        stamp = f"build/native-stamps/_{source.stem}_stamp.c"
        assert extension.sources == [source.relative_to(ROOT).as_posix(), stamp]
        assert native.source_hash(source) in (ROOT / stamp).read_text("ascii")
        assert extension.optional and extension.extra_compile_args == list(native.OPTIMIZED)
    assert native_target.package == loading.NATIVE_PACKAGE


def test_the_generated_package_lists_modules_not_subpackages(tmp_path: Path) -> None:
    """generated/native/ is a package inside generated/, not an edition."""
    package = tmp_path / "probe_generated"
    (package / "native").mkdir(parents=True)
    shutil.copy(Path(generated.__file__), package / "__init__.py")
    (package / "native" / "__init__.py").write_text("", "utf-8")
    (package / "one.py").write_text("", "utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        probe = __import__("probe_generated")
        assert probe.editions() == ["one"]
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("probe_generated", None)


# --------------------------------------------------------------- loading


@pytest.fixture
def native_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An importable stand-in for generated/native/ with one engine, classic's:
    a Python module that imports its C extension `_classic` and otherwise is
    the generated engine."""
    folder = tmp_path / "probe_native"
    folder.mkdir()
    shutil.copy(ROOT / "generated" / "native" / "__init__.py", folder / "__init__.py")
    (folder / "classic.py").write_text(
        "from probe_native import _classic  # noqa: F401\n"
        "from splendor_rules.generated.classic import *  # noqa: F403\n",
        "utf-8",
    )
    (folder / "classic.c").write_text(c_module("_classic"), "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(loading, "NATIVE_PACKAGE", "probe_native")
    yield folder
    loading.load_engine.cache_clear()  # it may hold the stand-in
    for name in [name for name in sys.modules if name.startswith("probe_native")]:
        del sys.modules[name]


def test_native_editions_are_the_engine_modules(native_package: Path) -> None:
    assert loading.native_editions() == ["classic"]


def test_a_native_engine_not_built_says_how_to_build_it(native_package: Path) -> None:
    with pytest.raises(loading.EngineUnavailable) as unavailable:
        loading.load_engine("classic", "native")
    assert "native engine of 'classic' is not built" in str(unavailable.value)
    assert "run `splendor-rules build`, which needs a C compiler" in str(unavailable.value)
    with pytest.raises(loading.EngineUnavailable, match="no native engine for edition 'nope'"):
        loading.load_engine("nope", "native")


def test_no_native_package_means_no_native_editions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loading, "NATIVE_PACKAGE", "splendor_rules.generated.no_such_package")
    assert loading.native_editions() == []


@needs_a_compiler
def test_a_built_native_engine_loads_and_is_timed_and_counted(
    native_package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    native.compile_extension(native_package / "classic.c", "probe_native._classic", native_package)
    engine = loading.load_engine("classic", "native")
    assert engine is not loading.load_engine("classic", "generated")
    assert engine.EDITION == "classic" and loading.load_engine("classic", "native") is engine
    # The bench's child process plays the native engine, not the generated one.
    played: list[object] = []
    real = random_games.play_random_games
    monkeypatch.setattr(
        random_games,
        "play_random_games",
        lambda engine, *args: played.append(engine) or real(engine, *args),
    )
    assert random_games.play_in_child(["classic", "native", "2", "1", "0"]) > 0
    assert played == [engine]
    args = ["bench", "classic", "-g", "1", "-p", "2", "--engine", "native", "--engine", "generated"]
    result = CliRunner().invoke(cli.main, args)
    assert result.exit_code == 0, result.output
    assert [line.split()[:2] for line in result.stdout.splitlines()[3:5]] == [
        ["native", "2"],
        ["generated", "2"],
    ]
    assert "native engine is " in result.stdout and "x the generated engine with 2 players" in (
        result.stdout
    )


def test_bench_of_an_unbuilt_native_engine_is_a_usage_error(native_package: Path) -> None:
    result = CliRunner().invoke(cli.main, ["bench", "classic", "--engine", "native"])
    assert result.exit_code == 2
    assert "not built" in result.stderr and "Traceback" not in result.output


# ------------------------------------------- stale modules (issue 21 item 3)


@needs_a_compiler
def test_a_compiled_module_carries_its_sources_hash(tmp_path: Path) -> None:
    source = tmp_path / "tiny.c"
    source.write_text(c_module("_tiny"), "utf-8")
    built = native.compile_extension(source, "_tiny", tmp_path, optimize=False)
    assert native.read_stamp(built) == (native.source_hash(source), native.compiler_version())
    assert native.stamp_problem(built, source) is None
    source.write_text(c_module("_tiny", 7), "utf-8")
    assert native.stamp_problem(built, source) == (
        f"{built.name} was compiled from another version of tiny.c"
    )


@needs_a_compiler
def test_loading_refuses_a_module_its_source_no_longer_makes(native_package: Path) -> None:
    source = native_package / "classic.c"
    native.compile_extension(source, "probe_native._classic", native_package, optimize=False)
    source.write_text(c_module("_classic", 7), "utf-8")  # edited since
    with pytest.raises(loading.EngineUnavailable) as unavailable:
        loading.load_engine("classic", "native")
    message = str(unavailable.value)
    assert "the native engine of 'classic' is stale" in message
    assert "compiled from another version of classic.c" in message
    assert "run `splendor-rules build`" in message
    assert "probe_native._classic" not in sys.modules  # refused before it is loaded


def _swap_modules(folder: Path, stale: str, other: str) -> Path:
    """Put edition `other`'s compiled module in place of `stale`'s: a module
    compiled from another source, as after an edit built without a compiler."""
    module = build.module_of(folder / f"{stale}.c", PACKAGE)
    shutil.copy(build.module_of(folder / f"{other}.c", PACKAGE), module)
    return module


@needs_a_compiler
def test_build_check_names_a_stale_module_and_build_compiles_it_again(
    generated_copy: Path,
) -> None:
    assert run("--target", "native").exit_code == 0
    folder = generated_copy / "native"
    module = _swap_modules(folder, EDITIONS[0], EDITIONS[1])
    checked = run("--check", "--target", "native")
    assert checked.exit_code == 1
    assert f"{module} is stale ({module.name} was compiled from another version of " in (
        checked.stderr
    )
    assert "run splendor-rules build" in checked.stderr
    rebuilt = run("--target", "native")
    assert rebuilt.stdout.splitlines()[-1].startswith(f"native: 1 engine compiled ({EDITIONS[0]})")
    assert run("--check", "--target", "native").exit_code == 0


@needs_a_compiler
def test_build_without_a_compiler_removes_a_stale_module_and_says_so(
    generated_copy: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert run("--target", "native").exit_code == 0
    folder = generated_copy / "native"
    module = _swap_modules(folder, EDITIONS[0], EDITIONS[1])
    missing = no_compiler(monkeypatch, tmp_path)
    result = run("--target", "native")
    assert result.exit_code == 0, result.output
    assert f"native: removed {module}: {module.name} was compiled from another version" in (
        result.stdout
    )
    assert result.stdout.splitlines()[-1] == (
        f"native: not built: no C compiler found ({missing}); the pure-Python engines work"
    )
    assert not module.exists()
    assert build.module_of(folder / f"{EDITIONS[1]}.c", PACKAGE).exists()  # current: kept
    assert run("--check", "--target", "native").exit_code == 0


# --------------------------------------------- build edges (issue 21 item 8)


@needs_a_compiler
def test_a_compile_killed_halfway_leaves_nothing_after_the_next(tmp_path: Path) -> None:
    source = tmp_path / "tiny.c"
    source.write_text(c_module("_tiny"), "utf-8")
    stem = native.extension_path("_tiny", tmp_path).stem
    dead = tmp_path / f".{stem}.999999999.abcd1234"  # no such process
    older = tmp_path / f".{stem}.k3j_x9qz"  # the form of the folders before they named one
    for folder in (dead, older):
        folder.mkdir()
        (folder / "module.o").write_bytes(b"half")
    built = native.compile_extension(source, "_tiny", tmp_path, optimize=False)
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(["tiny.c", built.name])


def test_an_unwritable_module_folder_is_named_as_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not as the temporary folder that could not be made in it."""
    source = tmp_path / "tiny.c"
    source.write_text(c_module("_tiny"), "utf-8")
    monkeypatch.setattr(native, "require_native", lambda: None)

    def refused(prefix: str, dir: Path) -> str:  # tempfile's own parameter names
        raise PermissionError(13, "Permission denied", str(dir / f"{prefix}x1y2z3"))

    monkeypatch.setattr(native.tempfile, "mkdtemp", refused)
    with pytest.raises(native.OutputUnwritable) as unwritable:
        native.compile_extension(source, "_tiny", tmp_path)
    assert str(unwritable.value) == f"cannot write in {tmp_path}: Permission denied"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in a read-only folder")
@needs_a_compiler
def test_a_read_only_native_folder_is_a_clear_error(generated_copy: Path) -> None:
    assert run("--target", "native").exit_code == 0
    folder = generated_copy / "native"
    build.module_of(folder / f"{EDITIONS[0]}.c", PACKAGE).unlink()
    folder.chmod(0o555)
    try:
        result = run("--target", "native")
    finally:
        folder.chmod(0o755)
    assert result.exit_code == 2
    assert f"native: cannot write in {folder}: Permission denied" in result.stderr
    assert "Traceback" not in result.output


def test_an_unbalanced_quote_in_cc_is_a_clear_error(
    generated_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CC", 'gcc -DX="1')
    result = run("--target", "native")
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1] == (
        "native: $CC is not a command line (No closing quotation): 'gcc -DX=\"1'"
    )
    assert "Traceback" not in result.output


def test_a_compiler_that_writes_nothing_is_a_clear_error(
    generated_copy: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    if shutil.which("true") is None or not (Path(native.include_folder()) / "Python.h").is_file():
        pytest.skip("needs `true` and Python's headers")
    monkeypatch.setenv("CC", "true")
    monkeypatch.delenv("LDSHARED", raising=False)
    result = run("--target", "native")
    assert result.exit_code == 1, result.output
    assert "did not compile: true exited 0 but wrote no module.o (is $CC a C compiler?)" in (
        result.stderr
    )
    assert "Traceback" not in result.output and "No such file" not in result.output
    assert not list((generated_copy / "native").glob(".*"))  # no temporary folder left


@needs_a_compiler
def test_the_compilers_warnings_are_kept(tmp_path: Path) -> None:
    source = tmp_path / "tiny.c"
    source.write_text('#warning "a word from the compiler"\n' + c_module("_tiny"), "utf-8")
    said: list[str] = []
    native.compile_extension(source, "_tiny", tmp_path, optimize=False, said=said)
    assert len(said) == 1 and "a word from the compiler" in said[0]
    assert said[0].startswith("tiny.c: ")


def test_check_refuses_two_files_that_declare_one_edition(tmp_path: Path) -> None:
    """Inside one folder the front end refuses it; across folders, check does."""
    first, second = tmp_path / "one", tmp_path / "two"
    for folder in (first, second):
        shutil.copytree(ROOT / "editions", folder)
    result = CliRunner().invoke(
        cli.main, ["check", str(first / "classic.rules"), str(second / "classic.rules")]
    )
    assert result.exit_code == 1
    line = result.stderr.splitlines()[-1]
    assert line.endswith("one/classic.rules does: rename one"), result.stderr
    assert "two/classic.rules: declares the edition 'classic', as " in line
    assert result.stdout.count("classic (") == 1  # the first file checks
