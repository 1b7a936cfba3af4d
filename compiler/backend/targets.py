"""The code-generation targets, registered once.

The build (`backend.build`) and `splendor-rules build --target` read this
tuple; a new target is a folder beside `python/` with an object of
`target.Target`'s shape, added here. setup.py
cannot import the package, so it finds the native sources by their folder
(a test ties the two).
"""

from __future__ import annotations

from splendor_rules.compiler.backend.native.target import NATIVE
from splendor_rules.compiler.backend.python.target import PYTHON
from splendor_rules.compiler.backend.target import Target

TARGETS: tuple[Target, ...] = (PYTHON, NATIVE)


def names() -> tuple[str, ...]:
    """The names of the registered targets, in order ("python", "native")."""
    return tuple(target.name for target in TARGETS)


def named(name: str) -> Target:
    """The registered target of that name; ValueError if there is none."""
    for target in TARGETS:
        if target.name == name:
            return target
    raise ValueError(f"no target {name!r}: {' or '.join(names())}")
