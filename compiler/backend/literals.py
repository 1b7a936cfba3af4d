"""Data from rule and data files as Python literals, for the engine's tables.

A literal is written with `repr` of a bool, int, str or None, or a tuple of
them, so a string from a rule file is inert data; `wrapped` breaks a long
table over lines within the module's line width. Every target writes
Python modules (the native one its engines' Python face), so this module
is target-neutral.
"""

from __future__ import annotations

from typing import Any

WIDTH = 99


def literal(value: object) -> str:
    """A Python literal for data from a rule or data file (inert by repr)."""
    if isinstance(value, bool | int | str | type(None)):
        return repr(value)
    if isinstance(value, tuple):
        inner = ", ".join(literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    raise TypeError(f"no literal for {type(value).__name__}")


def wrapped(value: Any, indent: int = 0) -> str:
    """A literal that fits the line width, broken over lines if needed."""
    text = literal(value)
    if len(text) + indent <= WIDTH or not isinstance(value, tuple) or not value:
        return text
    pad = " " * (indent + 4)
    lines: list[str] = []
    current = ""
    for element in value:
        item = wrapped(element, indent + 4) + ","
        if "\n" in item:
            if current:
                lines.append(pad + current.rstrip())
                current = ""
            lines.append(pad + item)
        elif len(pad) + len(current) + len(item) > WIDTH and current:
            lines.append(pad + current.rstrip())
            current = item + " "
        else:
            current += item + " "
    if current:
        lines.append(pad + current.rstrip())
    return "(\n" + "\n".join(lines) + "\n" + " " * indent + ")"


def engine_imports(package: str, names: list[str]) -> list[str]:
    """The import of the engine modules, as isort writes it (one line if it
    fits in the line width, else one name per line)."""
    if not names:
        return []
    line = f"from {package} import " + ", ".join(names)
    if len(line) + 4 <= WIDTH + 1:
        return [line]
    return [
        f"from {package} import (",
        *(f"    {name}," for name in names),
        ")",
    ]
