"""Code generation: the checked model -> the text of an engine module.

Rendering is a pure function from the model to text (deterministic: the same
model gives the same bytes); writing files and checking that the committed
ones are current are separate steps.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2

from splendor_rules.compiler.backend.python.emit import ident, literal
from splendor_rules.compiler.backend.python.lower import Lowering
from splendor_rules.compiler.frontend import model as m

WIDTH = 99


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


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("splendor_rules.compiler.backend.python", "templates"),
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["py"] = wrapped
    env.filters["ident"] = lambda name, prefix: ident(prefix, name)
    return env


def render_engine(edition: m.Edition, root: Path) -> str:
    """The engine module's source for one edition."""
    lowering = Lowering(edition, root)
    context = lowering.context()
    context["reveals"] = lowering.reveals()
    context["rules"] = lowering.rules()
    text = _environment().get_template("engine.py.j2").render(**context)
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def build_all(folder: Path, out: Path) -> dict[Path, str]:
    """The text of every engine module for the editions in `folder`.

    Raises BuildError when an edition does not check.
    """
    from splendor_rules.compiler.frontend.pipeline import compile_file, edition_files

    texts: dict[Path, str] = {}
    for path in edition_files(folder):
        compiled = compile_file(path)
        if not compiled.ok or compiled.model is None:
            raise BuildError(path, compiled.diagnostics)
        texts[out / f"{compiled.model.name}.py"] = render_engine(compiled.model, folder.parent)
    return texts


class BuildError(Exception):
    def __init__(self, path: Path, diagnostics: list[Any]) -> None:
        super().__init__(f"{path} does not check")
        self.path = path
        self.diagnostics = diagnostics
