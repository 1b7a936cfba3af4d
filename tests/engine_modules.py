"""The engines of a checked model, rendered and imported for a test.

The one way tests load an engine that is not in generated/ (a variant, an
edition written by the test): `tools.loader` writes the module's source into
a folder and runs it under its own name, left out of sys.modules after.

`native_engine_module` does the same for the native target: the C engine
and its Python face, over the pure-Python engine of the same model, built
into a package of their own (docs/testing.md, "Native engines").
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import random
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from sanitize import FLAGS

from splendor_rules.compiler.backend.native.compile import compile_extension, native_available
from splendor_rules.compiler.backend.native.target import render_files
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine
from splendor_rules.compiler.tools.loader import render_source, rendered_engine

ROOT = Path(__file__).resolve().parent.parent


def engine_module(model: m.Edition, folder: Path, name: str | None = None) -> ModuleType:
    """The generated engine of a model, written to `folder` and run there
    (the one loader, tools.loader), not left in sys.modules."""
    name = name or f"{model.name}_engine"
    return rendered_engine(model, ROOT, name, folder=folder, register=False)


def checked_model(path: Path) -> m.Edition:
    """The checked model of a rule file that must check."""
    compiled = compile_file(path)
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    return compiled.model


def three_engines(model: m.Edition, folder: Path) -> dict[str, Any]:
    """The interpreter, the generated engine and the native one of a model,
    by kind (the engines written to `folder`)."""
    return {
        "interpreter": InterpretedEngine(model),
        "generated": engine_module(model, folder),
        "native": native_engine_module(model, folder),
    }


def variant_fixtures(path: Path) -> tuple[Any, Any, Any]:
    """The fixtures of a test module about one rule file on the three
    engines: `model` (checked), `engines` (by kind, built once a module) and
    `engine` (each kind in turn). Taken as
    `model, engines, engine = variant_fixtures(VARIANT)`."""

    @pytest.fixture(scope="module")
    def model() -> m.Edition:
        return checked_model(path)

    @pytest.fixture(scope="module")
    def engines(model: m.Edition, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
        return three_engines(model, tmp_path_factory.mktemp(path.stem))

    @pytest.fixture(params=["interpreter", "generated", "native"])
    def engine(request: pytest.FixtureRequest, engines: dict[str, Any]) -> Any:
        return engines[request.param]

    return model, engines, engine


def variant_engines(path: Path, folder: Path) -> tuple[ModuleType, InterpretedEngine]:
    """A rule file that must check, built: its generated engine (written to
    `folder`) and the interpreter of the same model."""
    compiled = compile_file(path)
    assert compiled.ok and compiled.model is not None, compiled.diagnostics
    return engine_module(compiled.model, folder), InterpretedEngine(compiled.model)


def play_alike(
    generated: Any, interpreted: Any, seeds: range, favoured: tuple[str, ...], plies: int = 300
) -> None:
    """Random games in both engines, moves named in `favoured` chosen 70% of
    the time they are legal: the same legal moves, the same states, and
    actions and JSON forms that read back, after every move."""
    for seed in seeds:
        rng = random.Random(seed)
        g, i = generated.new_game(2 + seed % 3, seed), interpreted.new_game(2 + seed % 3, seed)
        for _ in range(plies):
            if generated.is_over(g):
                break
            legal = generated.legal_actions(g)
            assert legal == interpreted.legal_actions(i)
            mine = [a for a in legal if a[0] in favoured]
            action = rng.choice(mine if mine and rng.random() < 0.7 else legal)
            assert interpreted.action_from_json(generated.action_to_json(action)) == action
            g, i = generated.apply(g, action), interpreted.apply(i, action)
            data = generated.to_json(g)
            assert data == interpreted.to_json(i)
            assert generated.to_json(generated.from_json(data)) == data
            assert interpreted.to_json(interpreted.from_json(data)) == data


# ------------------------------------------------------------ native engines

_NATIVE: dict[str, list[tuple[m.Edition, Callable[[str], str] | None, ModuleType]]] = {}
_NATIVE_KEPT = 8  # models kept per edition name (random editions are all "fuzz")
_PLACEHOLDER = "native_package_to_be_named"
SHARED_VARIABLE = "SPLENDOR_TESTS_NATIVE_BUILDS"  # set by conftest.py: one folder per run


def native_engine_module(
    model: m.Edition, tmp_root: Path, mutation: Callable[[str], str] | None = None
) -> ModuleType:
    """The native engine of a model: a package that holds the pure-Python
    engine (subpackage `py`, rendered as engine_module does) and the native
    target's files (`<name>.c` compiled into `_<name>`, quickly, and the
    engine module `<name>.py`), imported as `<package>.<name>`; its `_py`
    is the Python engine it wraps.

    The two engines' modules have the same name, so they live in two
    packages: python_package is `<package>.py`, native_package `<package>`.
    The package is named by a hash of what it holds, so a process loads one
    extension module per name and equal builds are one: built once per test
    run in the folder all the run's processes share (pytest-xdist's workers
    each built the variants and editions their files use), under `tmp_root`
    when no run set one; cached per edition name in a process (an equal
    model reuses the build). `mutation`, if given, changes the C source
    before it is compiled (a planted fault). Skips the test, with the
    reason, where no extension can be built (no C compiler or headers)."""
    reason = native_available()
    if reason is not None:
        pytest.skip(f"no native engine: {reason}")
    kept = _NATIVE.setdefault(model.name, [])
    for seen, changed, module in kept:
        if changed is mutation and (seen is model or seen == model):
            return module
    files = render_files(
        model, ROOT, python_package=f"{_PLACEHOLDER}.py", native_package=_PLACEHOLDER
    )
    name = next(n for n in files if n.endswith(".c"))[:-2]
    if mutation is not None:
        files[f"{name}.c"] = mutation(files[f"{name}.c"])
    files["py/__init__.py"] = '"""Its pure-Python engine."""\n'
    files[f"py/{name}.py"] = render_source(model, ROOT)
    files["__init__.py"] = '"""A native engine built by a test."""\n'
    digest = hashlib.sha256(repr((sorted(files.items()), FLAGS)).encode()).hexdigest()[:24]
    package = f"native_{model.name}_{digest}"
    folder = Path(os.environ.get(SHARED_VARIABLE) or tmp_root) / package
    if not folder.is_dir():
        named = {file: text.replace(_PLACEHOLDER, package) for file, text in files.items()}
        _build(folder, package, name, named)
    if package not in sys.modules:
        _import_package(package, folder)
    module = importlib.import_module(f"{package}.{name}")
    kept.append((model, mutation, module))
    del kept[:-_NATIVE_KEPT]
    return module


def _build(folder: Path, package: str, name: str, files: dict[str, str]) -> None:
    """The package written and compiled beside `folder`, then renamed to it
    whole: a process that built the same package first keeps its own."""
    building = folder.with_name(f"{folder.name}.{os.getpid()}.building")
    (building / "py").mkdir(parents=True)
    for file, text in files.items():
        (building / file).write_text(text, "utf-8")
    compile_extension(
        building / f"{name}.c", f"{package}._{name}", building, optimize=False, extra_flags=FLAGS
    )
    try:
        building.rename(folder)
    except OSError:  # built by another process meanwhile: the same files
        shutil.rmtree(building, ignore_errors=True)


def _import_package(package: str, folder: Path) -> None:
    """The package in `folder` imported under its name, without putting its
    parent folder on sys.path (its submodules are found through __path__)."""
    spec = importlib.util.spec_from_file_location(
        package, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[package] = module
    spec.loader.exec_module(module)
