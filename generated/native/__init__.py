"""Native engines written by `splendor-rules build`, one per edition.

Each `<edition>.c` is compiled (by `pip install`, or by `splendor-rules
build`) into the module `_<edition>`; `<edition>.py` is the engine. This
file is written by the build too: under TYPE_CHECKING it states that each
engine module is a `PlayoutEngine` (an `Engine` that plays out games), so
mypy checks every one against the Protocol.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from splendor_rules.compiler.runtime.api import PlayoutEngine
    from splendor_rules.generated.native import classic, marvel, orient

    _engine_classic: PlayoutEngine = classic

    _engine_marvel: PlayoutEngine = marvel

    _engine_orient: PlayoutEngine = orient

EDITIONS = ("classic", "marvel", "orient", )


def built() -> list[str]:
    """The editions whose native module is compiled here."""
    return [name for name in EDITIONS if importlib.util.find_spec(f"{__name__}._{name}")]
