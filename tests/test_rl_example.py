"""The training example of docs/rl.md, in a reduced size: it trains with the
batched native environment and beats random decisions on the deals it is
evaluated on (the full run's figures are in docs/rl.md)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from splendor_rules.compiler.runtime.loading import EngineUnavailable, load_engine

ROOT = Path(__file__).resolve().parent.parent


def test_the_example_trains_a_policy_that_beats_random() -> None:
    pytest.importorskip("numpy", reason="the rl extra (numpy) is not installed")
    try:
        load_engine("classic", "native")
    except EngineUnavailable as error:
        pytest.skip(str(error))
    run = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_classic.py"),
         "--iterations", "3", "--games", "64", "--eval", "200"],
        capture_output=True, text=True, timeout=600, check=True,
    )
    won = {m[0]: int(m[1]) for m in re.findall(r"^(\w+) vs random: won (\d+)/200", run.stdout,
                                               re.MULTILINE)}
    assert set(won) == {"policy", "random"}, run.stdout
    assert won["policy"] > won["random"], run.stdout
