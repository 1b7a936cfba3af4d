"""The generated engine of a checked model, rendered and imported for a test.

The one way tests load an engine that is not in generated/ (a variant, an
edition written by the test): the module's source is written into a folder
and imported from there under its own name, left out of sys.modules after.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from splendor_rules.compiler.backend.python.codegen import render_engine
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine

ROOT = Path(__file__).resolve().parent.parent


def engine_module(model: m.Edition, folder: Path, name: str | None = None) -> ModuleType:
    """The generated engine of a model, written to `folder` and imported."""
    name = name or f"{model.name}_engine"
    path = folder / f"{name}.py"
    path.write_text(render_engine(model, ROOT), encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


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
