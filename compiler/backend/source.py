"""What every target writes alike about the rule file: identifiers made
from its names, and the comments that tie generated code to its places.

Target-neutral, so that no target imports another (tests/test_layers.py).
"""

from __future__ import annotations

import keyword
import re
from pathlib import Path

from splendor_rules.compiler.frontend import model as m

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def ident(prefix: str, name: str) -> str:
    """A generated identifier for a rule-file name: `prefix` + the name.

    Every name from a rule file is used only inside such an identifier,
    after checking that it is one, so no name can inject code."""
    if not _IDENTIFIER.match(name) or keyword.iskeyword(prefix + name):
        raise ValueError(f"not an identifier: {name!r}")
    return prefix + name


def comment_text(text: str) -> str:
    """Text from a file path or rule file, safe inside a comment or docstring:
    anything but letters, digits and `_./-:` becomes `_`."""
    return re.sub(r"[^A-Za-z0-9_./:-]", "_", text)


class Source:
    """How generated code names the rule file: `<file>:<line> <rule ids>`."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def shown(self, file: str) -> str:
        """A source file as the generated code names it: relative to the
        project, and made safe for a comment or docstring."""
        try:
            shown = Path(file).resolve().relative_to(self.root).as_posix()
        except ValueError:
            shown = Path(file).name
        return comment_text(shown)

    def place(self, part: m.Part | m.Statement, own: tuple[str, ...] | None = None) -> str:
        """`file:line ids` for a generated rule (or only the ids `own`): the
        text of the comment each target writes above it."""
        ids = " ".join(comment_text(i) for i in (part.rule_ids if own is None else own))
        place = f"{self.shown(part.span.file)}:{part.span.line}"
        return place + (f" {ids}" if ids else "")
