"""The editions a comparison names: a shipped edition's name or a rule file,
compiled, or refused with the reason.

`diff` and `conform` both start here; the command line turns UnknownEdition
into a usage error and CannotCompare into a report of the input's mistakes.
"""

from __future__ import annotations

from pathlib import Path

from splendor_rules.compiler.frontend.lookup import UnknownEdition, find_edition
from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file
from splendor_rules.dsl.diagnostics import Sources, display_path, render


class CannotCompare(Exception):
    """The two editions cannot be compared; the message says why."""


def edition_path(name: str) -> Path:
    """An edition named on the command line: the name an edition of the
    editions folder declares, or a rule file."""
    path = Path(name)
    if path.suffix == ".rules" or len(path.parts) > 1:
        try:
            if path.is_file():
                return path
        except OSError as error:  # a name too long, a loop of links
            raise UnknownEdition(f"no rule file {name!r}: {error.strerror}") from error
        raise UnknownEdition(f"no rule file '{name}'")
    try:
        return find_edition(name)
    except UnknownEdition as error:
        raise UnknownEdition(f"{error} (or name a .rules file)") from error


def compile_edition(path: Path) -> Compiled:
    """A rule file compiled; CannotCompare, with its mistakes, if it has any."""
    sources = Sources()
    compiled = compile_file(path, sources)
    if not compiled.ok:
        shown = "\n".join(render(d, sources) for d in compiled.diagnostics)
        raise CannotCompare(f"{display_path(path)} does not check:\n{shown}")
    return compiled
