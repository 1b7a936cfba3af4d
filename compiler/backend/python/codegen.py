"""Code generation for the Python target: the checked model -> an engine module.

`render_engine` is the Python target's rendering of one edition (a pure
function: the same model gives the same bytes). The build over every
edition, and writing the files, is `backend.build`.
"""

from __future__ import annotations

from pathlib import Path

from splendor_rules.compiler.backend.python.target import PYTHON
from splendor_rules.compiler.frontend import model as m


def render_engine(edition: m.Edition, root: Path) -> str:
    """The engine module's source for one edition; comments name rule files
    relative to `root`."""
    return PYTHON.render_engine(edition, root)
