"""The files a check reads: rule files, and the files they name.

A rule file is a program its user may have been handed, so checking it must
read nothing it has no business reading, and nothing without bound. A file a
rule file names (a data table, the reference rulebook) is named by a relative
path that stays inside the folder of that rule file or a folder below it,
once resolved (neither '..' nor a symbolic link leads out); every file read
is a regular file (not a folder, a device or a pipe, which could block or
never end) and at most a fixed size (docs/language.md states the limits).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path, PurePosixPath, PureWindowsPath

from splendor_rules.compiler.frontend import messages as msgs

MEBIBYTE = 1024 * 1024
MAX_DATA_FILE_BYTES = 16 * MEBIBYTE
MAX_RULE_FILE_BYTES = 4 * MEBIBYTE
BYTE_ORDER_MARK = "\ufeff"


# The files read while a recording is on (`recording_reads`): each path,
# resolved, and the SHA-256 of the bytes read, in the order they were read.
_READS: ContextVar[list[tuple[Path, str]] | None] = ContextVar("reads", default=None)


@contextlib.contextmanager
def recording_reads() -> Iterator[list[tuple[Path, str]]]:
    """Record every file read within (its path and the hash of what was
    read), so that a cache can key an edition's engines on every file its
    check read: the rule file, its parents, its data and references."""
    reads: list[tuple[Path, str]] = []
    token = _READS.set(reads)
    try:
        yield reads
    finally:
        _READS.reset(token)


class Unreadable(Exception):
    """Why a file is not read: the reason a message gives, and a hint."""

    def __init__(self, reason: str, hint: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.hint = hint


def named_file(rule_file: str, written: str) -> Path:
    """The file that `rule_file` names as `written`; Unreadable when the name
    is no path or leads out of the tree of the rule file's folder."""
    if "\x00" in written:
        raise Unreadable(msgs.NOT_A_PATH)
    if PurePosixPath(written).is_absolute() or PureWindowsPath(written).anchor:
        raise Unreadable(msgs.ABSOLUTE_PATH, msgs.HINT_RELATIVE_PATH)
    root = Path(rule_file).parent.resolve()
    try:
        target = (root / written).resolve()
    except (OSError, RuntimeError) as error:  # RuntimeError: a loop of links
        raise Unreadable(msgs.CANNOT_OPEN) from error
    if not target.is_relative_to(root):
        raise Unreadable(msgs.outside_folder(rule_file), msgs.HINT_INSIDE_FOLDER)
    return target


def read_bytes(path: Path, limit: int) -> bytes:
    """The content of a regular file of at most `limit` bytes; Unreadable
    otherwise. A pipe or a device is refused without waiting on it."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        raise Unreadable(error.strerror or msgs.CANNOT_OPEN) from error
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise Unreadable(msgs.NOT_A_REGULAR_FILE)
        if status.st_size > limit:
            raise Unreadable(msgs.too_large(limit))
        chunks: list[bytes] = []
        size = 0
        while size <= limit:  # the file may grow while it is read
            chunk = os.read(descriptor, min(limit + 1 - size, MEBIBYTE))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise Unreadable(error.strerror or msgs.CANNOT_OPEN) from error
    finally:
        os.close(descriptor)
    if size > limit:
        raise Unreadable(msgs.too_large(limit))
    data = b"".join(chunks)
    reads = _READS.get()
    if reads is not None:
        reads.append((Path(path).resolve(), hashlib.sha256(data).hexdigest()))
    return data


def read_start(path: Path, size: int) -> bytes:
    """The first `size` bytes of a regular file (b"" for anything else)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(path, flags)
    except OSError:
        return b""
    try:
        return os.read(descriptor, size) if stat.S_ISREG(os.fstat(descriptor).st_mode) else b""
    except OSError:
        return b""
    finally:
        os.close(descriptor)


def read_named_text(rule_file: str, written: str, limit: int) -> tuple[Path, str]:
    """The path and the text (UTF-8, without a leading byte-order mark) of
    the file that `rule_file` (as diagnostics show it) names as `written`;
    Unreadable if it may not or cannot be read."""
    path = named_file(rule_file, written)
    try:
        text = read_bytes(path, limit).decode("utf-8")
    except UnicodeDecodeError as error:
        raise Unreadable(msgs.NOT_UTF8) from error
    return path, text.removeprefix(BYTE_ORDER_MARK)
