"""Ctrl-C at any moment of a command: exit 130 and one line, never a
traceback from inside an import, nor click's "Aborted!" with exit 1.

Loading the command line takes a while (click, the compiler, the engines):
importing this module, which the package does first, makes Ctrl-C end the
process at once (exit 130) until the package has loaded (`loaded`);
`main` does the same until a command runs (`exiting`); while a command
runs, Ctrl-C is the usual KeyboardInterrupt (`raising`), which a command
may handle (simulate reports the games finished) and the group otherwise
ends with exit 130. Only Python's own handler is replaced: an ignored
Ctrl-C (a background job) or another program's handler is left alone.
This module imports only what Python has loaded at start-up (`os`,
`signal`, `sys`), so that the handler is in place within the first
milliseconds.

Before a command runs the process ends with `os._exit`, not by raising
SystemExit from the handler: Python runs a handler between any two
bytecodes, also those of Python code called from C, and C code that clears
the errors it meets loses the exception. CI saw it once: "interrupted"
said while the command line loaded, then the whole simulation played and
exit 0. Nothing has been done yet to finish or flush but stderr, which
`say_interrupted` flushes.
"""

from __future__ import annotations

import os
import signal
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import FrameType, TracebackType
    from typing import Any, NoReturn

    Handler = Callable[[int, FrameType | None], Any] | int | None

INTERRUPTED = 130  # the shell's code for a process ended by SIGINT (128 + 2)
MESSAGE = "splendor-rules: interrupted"


def say_interrupted() -> None:
    """The one line said on an interrupt (stderr may be gone: then nothing)."""
    try:
        sys.stderr.write(f"{MESSAGE}\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def _stop(signum: int, frame: FrameType | None) -> NoReturn:
    """Ctrl-C before a command runs: nothing was done, nothing to report."""
    say_interrupted()
    os._exit(INTERRUPTED)


def _swap(old: Handler, new: Handler) -> Handler:
    """Install `new` if the handler of SIGINT is `old`; the one replaced, or
    None if nothing was changed (another handler, or not the main thread)."""
    if signal.getsignal(signal.SIGINT) is not old:
        return None
    try:
        return signal.signal(signal.SIGINT, new)
    except ValueError:  # not the main thread: signals are not handled here
        return None


class _Swapped:
    """A block within which SIGINT's handler `old`, if it is that, is `new`."""

    def __init__(self, old: Handler, new: Handler) -> None:
        self.old, self.new = old, new
        self.replaced: Handler = None

    def __enter__(self) -> None:
        self.replaced = _swap(self.old, self.new)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.replaced is not None:
            _swap(self.new, self.replaced)


def exiting() -> _Swapped:
    """Ctrl-C ends the process at once (exit 130) within the block."""
    return _Swapped(signal.default_int_handler, _stop)


def raising() -> _Swapped:
    """Ctrl-C raises KeyboardInterrupt within the block (inside `exiting`)."""
    return _Swapped(_stop, signal.default_int_handler)


def loaded() -> None:
    """The package has loaded: Ctrl-C is Python's KeyboardInterrupt again."""
    _swap(_stop, signal.default_int_handler)


_swap(signal.default_int_handler, _stop)  # while the package loads: see the module
