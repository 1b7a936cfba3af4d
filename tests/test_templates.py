"""The templates lay out a module; syntax trees make its code.

A template may place what the lowering built (a function printed from its
tree, a name, a table of numbers), but never write code of its own from the
edition's counts: no loop over `range(...)` that writes statements or
operands, and no code spelt in a string inside an output (`{{ " + " if c
else "" }}`, `{{ "    " * c }}`). Such code is built as a tree in the
target's lowering instead, where precedence and layout are right by
construction (docs/architecture.md).
"""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest
from jinja2 import nodes

BACKEND = Path(__file__).resolve().parent.parent / "compiler" / "backend"
TEMPLATES = sorted(BACKEND.glob("*/templates/*.j2"))


def _loops_over_range(tree: nodes.Template) -> list[int]:
    return [
        loop.lineno
        for loop in tree.find_all(nodes.For)
        if isinstance(loop.iter, nodes.Call)
        and isinstance(loop.iter.node, nodes.Name)
        and loop.iter.node.name == "range"
    ]


def _code_in_strings(tree: nodes.Template) -> list[int]:
    """Lines where an output's value is made from a string constant (a
    filter's own argument, such as join's separator, is not code)."""
    found = []
    for output in tree.find_all(nodes.Output):
        for part in output.nodes:
            if isinstance(part, nodes.TemplateData):
                continue
            filters = [part, *part.find_all(nodes.Filter)]
            arguments = {id(a) for f in filters if isinstance(f, nodes.Filter) for a in f.args}
            for constant in part.find_all(nodes.Const):
                if isinstance(constant.value, str) and id(constant) not in arguments:
                    found.append(constant.lineno)
            if isinstance(part, nodes.Const) and isinstance(part.value, str):
                found.append(part.lineno)
    return found


def test_there_are_templates_to_check() -> None:
    assert {path.parent.parent.name for path in TEMPLATES} >= {"python", "native"}


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_templates_write_no_code_from_text(path: Path) -> None:
    tree = jinja2.Environment().parse(path.read_text(encoding="utf-8"))
    assert _loops_over_range(tree) == [], f"{path.name}: a loop over range() writes code"
    assert _code_in_strings(tree) == [], f"{path.name}: code spelt in a string"
