"""The reference interpreter: runs an edition's checked model directly.

It is the oracle the generated engines are compared with (tests/
test_differential.py), an implementation independent of them. By concern:

- values.py: states, seats, `IllegalAction`;
- tables.py: the model indexed, with the shared identities;
- evaluation.py: expressions, by a visitor over the model;
- moves.py, validation.py, effects.py, turns.py: the rules (legal moves, the
  refusal of an illegal move, what a move changes, the end of the turn);
- setup.py and json_form.py: new games, JSON forms and views;
  state_reader.py: a state read back from JSON, every part checked;
- engine.py: `InterpretedEngine`, the API over all of them.
"""

from __future__ import annotations

from splendor_rules.compiler.runtime.interpreter.engine import (
    InterpretedEngine,
    load_interpreted,
)
from splendor_rules.compiler.runtime.interpreter.values import IllegalAction, Seat, State

__all__ = [
    "IllegalAction",
    "InterpretedEngine",
    "Seat",
    "State",
    "load_interpreted",
]
