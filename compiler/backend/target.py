"""What a code-generation target provides, whatever its language.

A target is its templates plus its emitter (as a sqlglot dialect is its
generator): it renders the engine of one checked edition as the text of one
file, and the files that make the engines one package. The build
(`backend.build`) runs a target over every edition and writes the files; a
new target is a new folder beside `python/` with an object of this shape,
registered in `targets.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from splendor_rules.compiler.frontend import model as m


class Target(Protocol):
    """A code-generation target."""

    @property
    def name(self) -> str:
        """The target's name, as a command line would give it ("python")."""
        ...

    @property
    def folder(self) -> str:
        """Its output folder, relative to generated/ ("" for generated/ itself)."""
        ...

    @property
    def package(self) -> str:
        """The import name of the package its output folder is."""
        ...

    @property
    def compiled(self) -> bool:
        """Are its engine files C sources, compiled into extension modules
        beside them after they are written?"""
        ...

    def engine_file(self, edition: str) -> str:
        """The name of the file holding an edition's engine."""
        ...

    def render_engine(self, edition: m.Edition, root: Path) -> str:
        """The engine of one edition; comments name rule files relative to `root`.

        Deterministic: the same model and root give the same text."""
        ...

    def render_files(self, edition: m.Edition, root: Path) -> dict[str, str]:
        """Every file of one edition's engine by name: the engine file, and
        any the target writes beside it (the native target's module and stub)."""
        ...

    def package_files(self, editions: Sequence[str]) -> dict[str, str]:
        """The other files of the output folder, by name, for these editions
        (for Python, the package's `__init__.py`)."""
        ...

    def is_engine_file(self, path: Path) -> bool:
        """Is a file of the output folder one this target writes an engine
        to (so one with no edition is left over)?"""
        ...
