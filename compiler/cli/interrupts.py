"""Ctrl-C at any moment of a command: exit 130 and one line, never a
traceback from inside an import, nor click's "Aborted!" with exit 1.

Loading the command line takes a while (click, the compiler, the engines):
importing this module, which the package does first, makes Ctrl-C end the
process at once (SystemExit 130, `exiting`) until the package has loaded;
`main` does the same until a command runs; while a command runs, Ctrl-C is
the usual KeyboardInterrupt (`raising`), which a command may handle (simulate
reports the games finished) and the group otherwise ends with exit 130.
Only Python's own handler is replaced: an ignored Ctrl-C (a background job)
or another program's handler is left alone.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, NoReturn

INTERRUPTED = 130  # the shell's code for a process ended by SIGINT (128 + 2)
MESSAGE = "splendor-rules: interrupted"


def say_interrupted(detail: str = "") -> None:
    """The one line said on an interrupt (stderr may be gone: then nothing)."""
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"{MESSAGE}{detail}\n")
        sys.stderr.flush()


def _stop(signum: int, frame: FrameType | None) -> NoReturn:
    """Ctrl-C before a command runs: nothing was done, nothing to report."""
    say_interrupted()
    raise SystemExit(INTERRUPTED)


Handler = Callable[[int, FrameType | None], Any] | int | None


def _swap(old: Handler, new: Handler) -> Handler:
    """Install `new` if the handler of SIGINT is `old`; the one replaced, or
    None if nothing was changed (another handler, or not the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    current = signal.getsignal(signal.SIGINT)
    if current is not old:
        return None
    signal.signal(signal.SIGINT, new)
    return current


@contextlib.contextmanager
def _swapped(old: Handler, new: Handler) -> Iterator[None]:
    replaced = _swap(old, new)
    try:
        yield
    finally:
        if replaced is not None:
            _swap(new, replaced)


def exiting() -> contextlib.AbstractContextManager[None]:
    """Ctrl-C ends the process at once (exit 130) within the block."""
    return _swapped(signal.default_int_handler, _stop)


def raising() -> contextlib.AbstractContextManager[None]:
    """Ctrl-C raises KeyboardInterrupt within the block (inside `exiting`)."""
    return _swapped(_stop, signal.default_int_handler)


def loaded() -> None:
    """The package has loaded: Ctrl-C is Python's KeyboardInterrupt again."""
    _swap(_stop, signal.default_int_handler)


_swap(signal.default_int_handler, _stop)  # while the package loads: see the module
