"""Editions found by the name their rule file declares, not by its file name.

An engine is named after the edition its rule file declares (`edition
cottage "..."` in editions/house.rules builds generated/cottage.py), so a
command that names an edition must find its rule file by that same name.
This module reads the declared name of each rule file in the editions
folder (from the file's first lines, as the checker does to compare names
across a folder) and answers with the file, or with a message that says why
there is none: no such edition, a file of that name that declares another,
or two files that declare the same name. The generated engines, the
interpreter and every tool find editions through it.
"""

from __future__ import annotations

from pathlib import Path

from splendor_rules.compiler.frontend import pipeline
from splendor_rules.compiler.frontend.editions import declared_edition_name
from splendor_rules.dsl.diagnostics import display_path


class UnknownEdition(ValueError):
    """No rule file declares the edition named; the message says what there is."""


def edition_index(folder: Path | None = None) -> dict[str, list[Path]]:
    """The rule files of the editions folder by the name each declares (a
    name with two files is a mistake `find_edition` reports)."""
    index: dict[str, list[Path]] = {}
    for path in pipeline.edition_files(folder or pipeline.editions_folder()):
        name = declared_edition_name(path)
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
        declared = declared_edition_name(namesake)
        if declared is None:
            raise UnknownEdition(
                f"{display_path(namesake)} declares no edition: run splendor-rules check"
            )
        raise UnknownEdition(
            f"{display_path(namesake)} declares edition '{declared}', not {_shown(name)}: "
            f"name the edition {declared}"
        )
    known = ", ".join(sorted(index)) or "none"
    raise UnknownEdition(f"unknown edition {_shown(name)}; the editions are {known}")
