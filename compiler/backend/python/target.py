"""The Python target: each engine a pure-Python module, the engines a package.

Its emitter (`lower`, `emit`, `nodes`) builds every function as Python syntax
trees; its templates (`templates/`) hold what every engine shares and the
package's `__init__.py`, which also has mypy check each engine module
against the `Engine` Protocol.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import jinja2

from splendor_rules.compiler.backend.literals import engine_imports, wrapped
from splendor_rules.compiler.backend.python.lower import lower
from splendor_rules.compiler.backend.python.names import ident
from splendor_rules.compiler.frontend import model as m


@functools.cache  # one environment: its templates are compiled once per process
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


def _render(template: str, context: dict[str, Any]) -> str:
    text = _environment().get_template(template).render(**context)
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


class PythonTarget:
    """Engines as Python modules in the `splendor_rules.generated` package."""

    name = "python"
    folder = ""
    package = "splendor_rules.generated"
    compiled = False

    def engine_file(self, edition: str) -> str:
        return ident("", edition) + ".py"

    def render_engine(self, edition: m.Edition, root: Path) -> str:
        return _render("engine.py.j2", lower(edition, root))

    def render_files(self, edition: m.Edition, root: Path) -> dict[str, str]:
        return {self.engine_file(edition.name): self.render_engine(edition, root)}

    def package_files(self, editions: Sequence[str]) -> dict[str, str]:
        names = [ident("", name) for name in sorted(editions)]
        imports = engine_imports("splendor_rules.generated", names)
        context = {"editions": names, "engine_imports": imports}
        return {"__init__.py": _render("package.py.j2", context)}

    def is_engine_file(self, path: Path) -> bool:
        return path.suffix == ".py" and path.name != "__init__.py"


PYTHON = PythonTarget()
