"""What every part of the Python lowering shares: the edition, its names,
the expression emitter, and the comments that tie code to the rule file."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

from splendor_rules.compiler.backend import analysis
from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python.emit import ExprEmitter
from splendor_rules.compiler.backend.python.frame import Frame
from splendor_rules.compiler.backend.python.names import Names, ident
from splendor_rules.compiler.backend.source import Source as Source
from splendor_rules.compiler.frontend import model as m


class LoweringPart:
    """A part of the lowering of one edition (its tables, its actions, its
    turns): the shared state, and the helpers every part uses."""

    def __init__(self, edition: m.Edition, source: Source, emitter: ExprEmitter) -> None:
        self.edition = edition
        self.source = source
        self.emitter = emitter
        self.names: Names = emitter.names

    def where(self, part: m.Part | m.Statement, own: tuple[str, ...] | None = None) -> py.Comment:
        return py.Comment(self.source.place(part, own))

    def ids(self, part: m.Part | m.Statement) -> str:
        """The rule ids a message cites (the edition's name if none)."""
        return ", ".join(part.rule_ids) or self.edition.name

    def expr(self, e: m.Expr, frame: Frame) -> ast.expr:
        return self.emitter.emit(e, frame)

    def prebind(self, tree: object, frame: Frame) -> tuple[list[ast.stmt], Frame]:
        """Read the definitions a function uses into locals, once, at its top
        (they are memoised on the state, but a local is faster still): the
        statements, and the frame that reads the locals."""
        return self.prebind_names(sorted(analysis.defines_in(tree)), frame)

    def prebind_names(self, names: Iterable[str], frame: Frame) -> tuple[list[ast.stmt], Frame]:
        """Read the definitions named into locals (`prebind`)."""
        statements: list[ast.stmt] = []
        for name in names:
            local = ident("d_", name)
            read = py.call(self.names.define(name), py.name(frame.state), py.value(frame.player))
            statements.append(py.assign(local, read))
            frame = frame.prebind(name, local)
        return statements, frame

    def colours(self) -> range:
        return range(len(self.edition.colours))

    def payment(self, colour: Callable[[int], ast.expr], wild_part: ast.expr) -> ast.Tuple:
        """A payment: each colour's part, the wild part, 0 for the other kinds."""
        wild = analysis.wild_token(self.edition)
        parts: list[ast.expr] = []
        for index, token in enumerate(self.edition.tokens):
            if token.role == "colour":
                parts.append(colour(index))
            elif index == wild:
                parts.append(wild_part)
            else:
                parts.append(py.const(0))
        return py.tuple_(parts)


def python_type(t: m.Type) -> ast.expr:
    """The annotation of a value of a model type."""
    if t.kind in ("int", "colour", "token", "card", "tile", "player"):
        return py.name("int")
    if t.kind == "bool":
        return py.name("bool")
    if t.kind == "text":
        return py.name("str")
    if t.kind == "vector":
        return py.annotation("tuple[int, ...]")
    if t.kind in ("list", "set"):
        inner = python_type(t.element) if t.element else py.name("Any")
        if t.kind == "list":
            return py.item(py.name("list"), inner)
        return py.item(py.name("tuple"), py.tuple_([inner, ast.Constant(value=...)]))
    return py.name("Any")
