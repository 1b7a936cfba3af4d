"""Every variant under tests/variants/: it checks, builds, and its generated
engine agrees with the interpreter on whole random games.

The variants are the editions that exercise language constructs the shipped
editions do not use (docs/language.md); they are discovered, so a new
variant needs no test edit. Each is played with every player count it
allows, moves and illegal probes drawn from a seeded generator, compared
after every action by the differential harness of test_differential.py.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from engine_modules import engine_module
from test_differential import (
    Differential,
    Side,
    play,
    probe_with,
    registered,
)

from splendor_rules.compiler.frontend.pipeline import compile_file
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine
from splendor_rules.dsl.diagnostics import Sources
from splendor_rules.dsl.diagnostics import render as render_diagnostic

VARIANTS = sorted((Path(__file__).resolve().parent / "variants").glob("*.rules"))
MAX_PLIES = 3000  # a random game of a variant ends well before this
SEEDS = (0, 1)


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.stem)
def test_variant_plays_alike_in_both_engines(path: Path, tmp_path: Path) -> None:
    sources = Sources()
    compiled = compile_file(path, sources)
    errors = [render_diagnostic(d, sources) for d in compiled.diagnostics if d.severity == "error"]
    assert compiled.model is not None and not errors, "\n".join(errors)
    model = compiled.model
    generated = engine_module(model, tmp_path)
    interpreter = InterpretedEngine(model)
    sides = (Side("generated", generated), Side("interpreter", interpreter))
    low, high = model.players
    with registered(model.name, interpreter):
        for players in range(low, high + 1):
            for seed in SEEDS:
                rng = random.Random(f"{path.stem}/{players}/{seed}")
                diff = Differential(model.name, players, seed, seed % players, sides)
                ended = play(diff, rng.randrange, MAX_PLIES, probe_with(rng.randrange))
                assert ended, f"{path.name}: a {players}-player game did not end"
