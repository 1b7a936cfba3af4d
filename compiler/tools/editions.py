"""Editions found by the name their rule file declares, not by its file name.

An engine is named after the edition its rule file declares (`edition
cottage "..."` in editions/house.rules builds generated/cottage.py), so a
command that names an edition must find its rule file by that same name.
This module reads the declared name of each rule file in the editions
folder (parsed, not checked) and answers with the file, or with a message
that says why there is none: no such edition, a file of that name that
declares another, or two files that declare the same name.
"""

from __future__ import annotations

import functools
from pathlib import Path

from splendor_rules.compiler.frontend import pipeline
from splendor_rules.dsl.diagnostics import display_path
from splendor_rules.dsl.parser import parse_edition


class UnknownEdition(ValueError):
    """No rule file declares the edition named; the message says what there is."""


def declared_name(path: Path) -> str | None:
    """The name a rule file declares (None if the file cannot be read or parsed)."""
    try:
        stamp = path.stat()
    except OSError:
        return None
    return _declared_name(path, stamp.st_mtime_ns, stamp.st_size)


@functools.lru_cache(maxsize=256)
def _declared_name(path: Path, modified: int, size: int) -> str | None:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    tree, _ = parse_edition(text, display_path(path))
    return tree.name.text if tree is not None else None


def edition_index(folder: Path | None = None) -> dict[str, list[Path]]:
    """The rule files of the editions folder by the name each declares (a
    name with two files is a mistake `find_edition` reports)."""
    index: dict[str, list[Path]] = {}
    for path in pipeline.edition_files(folder or pipeline.editions_folder()):
        name = declared_name(path)
        if name is not None:
            index.setdefault(name, []).append(path)
    return index


def _shown(name: str) -> str:
    """A name as given on a command line or in a record, quoted and cut short."""
    return repr(name if len(name) <= 40 else f"{name[:37]}...")


def find_edition(name: str, folder: Path | None = None) -> Path:
    """The rule file that declares edition `name`; UnknownEdition otherwise."""
    folder = folder or pipeline.editions_folder()
    index = edition_index(folder)
    paths = index.get(name, [])
    if len(paths) == 1:
        return paths[0]
    if paths:
        files = " and ".join(display_path(path) for path in paths)
        raise UnknownEdition(f"{files} all declare edition {_shown(name)}: rename all but one")
    namesake = next((path for path in pipeline.edition_files(folder) if path.stem == name), None)
    if namesake is not None:
        declared = declared_name(namesake)
        if declared is None:
            raise UnknownEdition(
                f"{display_path(namesake)} does not parse: run splendor-rules check"
            )
        raise UnknownEdition(
            f"{display_path(namesake)} declares edition '{declared}', not {_shown(name)}: "
            f"name the edition {declared}"
        )
    known = ", ".join(sorted(index)) or "none"
    raise UnknownEdition(f"unknown edition {_shown(name)}; the editions are {known}")
