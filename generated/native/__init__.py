"""Native engines written by `splendor-rules build`, one per edition.

Each `<edition>.c` is compiled (by `pip install`, or by `splendor-rules
build`) into the module `_<edition>`; `<edition>.py` is the engine. This
file is written by the build too: under TYPE_CHECKING it states that each
engine module is a `PlayoutEngine` (an `Engine` that plays out games), so
mypy checks every one against the Protocol. Each compiled module carries the
SHA-256 of the source it was compiled from (after `splendor-rules-stamp:`);
`stale` says when that is not the `.c` beside it.
"""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from splendor_rules.compiler.runtime.api import PlayoutEngine
    from splendor_rules.generated.native import classic, duel, marvel, orient

    _engine_classic: PlayoutEngine = classic

    _engine_duel: PlayoutEngine = duel

    _engine_marvel: PlayoutEngine = marvel

    _engine_orient: PlayoutEngine = orient

STAMP = b"splendor-rules-stamp:"
EDITIONS = ("classic", "duel", "marvel", "orient", )


def built() -> list[str]:
    """The editions whose native module is compiled here."""
    return [name for name in EDITIONS if importlib.util.find_spec(f"{__name__}._{name}")]


def stale(name: str) -> str | None:
    """Why the compiled module of an edition must not be loaded (it was not
    compiled from the C source beside it), or None: it was, or one of the
    two is missing (an install without sources)."""
    spec = importlib.util.find_spec(f"{__name__}._{name}")
    source = Path(__file__).with_name(f"{name}.c")
    if spec is None or spec.origin is None or not source.is_file():
        return None
    module = Path(spec.origin)
    data = module.read_bytes()
    at, end = data.find(STAMP), data.find(b"\0", data.find(STAMP))
    if at < 0 or end < 0:
        return f"{module.name} carries no hash of its C source"
    carried = data[at + len(STAMP) : end].partition(b" ")[0].decode("ascii", "replace")
    if carried != hashlib.sha256(source.read_bytes()).hexdigest():
        return f"{module.name} was compiled from another version of {source.name}"
    return None
