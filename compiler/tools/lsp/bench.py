"""How fast the language server answers after an edit: a server process is
started, a rule file opened, and a line in its middle edited again and
again (a comment typed at its end, then taken back, so that every
version checks whole, the slowest case); each time, the wall-clock time from
the edit to the diagnostics of its version, and of a hover and a completion
request after it."""

from __future__ import annotations

import os
import re
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from attrs import frozen

from splendor_rules.compiler.frontend.pipeline import edition_files
from splendor_rules.compiler.tools.lsp.client import Client

_TYPED = "  # typed"
_EXTENDS = re.compile(r'^edition\s+\w+\s+"[^"\n]*"\s+extends\s+(\w+)', re.M)


@frozen
class Timings:
    """Milliseconds, one figure per edit, for each kind of answer."""

    file: Path
    lines: int
    diagnostics: tuple[float, ...]
    hover: tuple[float, ...]
    completion: tuple[float, ...]
    # the server's CPU time per edit (checking it and answering): the figure
    # a busy machine changes least; None where /proc cannot tell
    cpu: float | None
    load: float  # the machine's load average over the last minute, at the end


def largest_edition() -> Path:
    """The shipped edition with the most lines, its parents' counted in
    (the most the server checks after an edit)."""

    def size(path: Path) -> int:
        text = path.read_text(encoding="utf-8")
        found = _EXTENDS.search(text)
        parent = path.with_name(f"{found.group(1)}.rules") if found else None
        extra = size(parent) if parent and parent != path and parent.is_file() else 0
        return text.count("\n") + extra

    return max(edition_files(), key=size)


def _middle_line(lines: list[str]) -> int:
    """A statement line near the middle of the file (0-based)."""
    middle = len(lines) // 2
    for offset in range(len(lines)):
        for number in (middle + offset, middle - offset):
            if 0 <= number < len(lines) and lines[number].strip().startswith(("require", "choose")):
                return number
    return middle


def measure(command: Sequence[str], path: Path, edits: int = 20) -> Timings:
    """Time the server's answers to `edits` edits of the file at `path`."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    uri = path.resolve().as_uri()
    number = _middle_line(lines)
    end = len(lines[number])
    client = Client(command, cwd=path.parent)
    diagnostics, hovers, completions = [], [], []
    cpu = None
    try:
        client.initialize(path.parent)
        document = {"uri": uri, "languageId": "splendor-rules", "version": 1, "text": text}
        client.notify("textDocument/didOpen", {"textDocument": document})
        client.diagnostics(uri, 1)
        used = _cpu_seconds(client.process.pid)
        for version in range(2, 2 + 2 * edits):
            typed = version % 2 == 0  # even: type at the end of the line; odd: take it back
            change = {
                "range": _range(number, end, end if typed else end + len(_TYPED)),
                "text": _TYPED if typed else "",
            }
            params = {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}
            start = time.perf_counter()
            client.notify("textDocument/didChange", params)
            client.diagnostics(uri, version)
            diagnostics.append((time.perf_counter() - start) * 1000)
            if not typed:
                continue
            where = {"textDocument": {"uri": uri}, "position": {"line": number, "character": 12}}
            start = time.perf_counter()
            client.request("textDocument/hover", where)
            hovers.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            client.request("textDocument/completion", where)
            completions.append((time.perf_counter() - start) * 1000)
        after = _cpu_seconds(client.process.pid)
        if used is not None and after is not None:
            cpu = (after - used) * 1000 / (2 * edits)
    finally:
        client.close()
    return Timings(
        path,
        len(lines),
        tuple(diagnostics),
        tuple(hovers),
        tuple(completions),
        cpu,
        os.getloadavg()[0],
    )


def _cpu_seconds(pid: int) -> float | None:
    """A process's CPU time so far (user and system), from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _range(line: int, start: int, end: int) -> dict[str, dict[str, int]]:
    return {
        "start": {"line": line, "character": start},
        "end": {"line": line, "character": end},
    }


def summary(figures: Sequence[float]) -> str:
    """Median, 90th percentile and highest, in milliseconds."""
    ordered = sorted(figures)
    if not ordered:
        return "no figures"
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return (
        f"median {statistics.median(ordered):6.1f} ms, p90 {p90:6.1f} ms, max {ordered[-1]:6.1f} ms"
    )
