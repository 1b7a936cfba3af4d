"""Python syntax trees for generated code: builders and the renderer.

Every expression and statement the Python target generates is built here as
a tree of the standard library's `ast` nodes and turned into text by
`printer`, which writes the parentheses that the tree's shape needs (as
`ast.unparse` does): an operand can never bind to its neighbours the wrong
way, as spliced strings can. The one addition is `Comment`, a statement that
renders as a `#` line, so generated code keeps its `# <file>:<line> <rule
ids>` comments beside the statements they explain.
"""

from __future__ import annotations

import ast
import copy
import keyword
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from attrs import frozen

from splendor_rules.compiler.backend.python import printer

# A value that a name stands for in generated code: a Python name, or a
# number known when generating (a colour index, a fixed player).
Value = str | int


class Docstring(ast.stmt):
    """A function's docstring, in lines: text the compiler writes, never a
    rule file's (it is checked to need no escape)."""

    _fields = ("lines",)

    def __init__(self, *lines: str) -> None:
        if any('"""' in line or "\\" in line or "\n" in line for line in lines):
            raise ValueError("a docstring line needs no quote, backslash or line break")
        super().__init__()
        self.lines = lines


class Comment(ast.stmt):
    """A `# text` line among statements."""

    _fields = ("text",)

    def __init__(self, text: str) -> None:
        if "\n" in text or "\r" in text:
            raise ValueError("a comment is one line")
        super().__init__()
        self.text = text


# ------------------------------------------------------------- expressions


def _identifier(text: str) -> str:
    if not text.isidentifier() or keyword.iskeyword(text):
        raise ValueError(f"not an identifier: {text!r}")
    return text


def name(identifier: str) -> ast.Name:
    return ast.Name(id=_identifier(identifier), ctx=ast.Load())


def store(identifier: str) -> ast.Name:
    return ast.Name(id=_identifier(identifier), ctx=ast.Store())


def value(of: Value) -> ast.expr:
    """A name, or a number known when generating."""
    return const(of) if isinstance(of, int) else name(of)


def const(data: object) -> ast.expr:
    """Data as a literal: a bool, int, str, None, or a tuple of them."""
    if isinstance(data, tuple):
        return tuple_([const(item) for item in data])
    if isinstance(data, int) and not isinstance(data, bool) and data < 0:
        return negative(ast.Constant(value=-data))  # as Python reads `-1`
    if data is None or isinstance(data, bool | int | str):
        return ast.Constant(value=data)
    raise TypeError(f"no literal for {type(data).__name__}")


def data(value: object) -> ast.expr:
    """JSON data as a literal: a dict with text keys, a list, or what `const`
    takes. A text from a rule or data file stays inert data."""
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            raise TypeError("data keys are texts")
        return ast.Dict(
            keys=[ast.Constant(value=k) for k in value], values=[data(v) for v in value.values()]
        )
    if isinstance(value, list):
        return list_([data(v) for v in value])
    return const(value)


def attr(subject: ast.expr | str, attribute: str) -> ast.Attribute:
    base = name(subject) if isinstance(subject, str) else subject
    return ast.Attribute(value=base, attr=attribute, ctx=ast.Load())


def item(subject: ast.expr, *indices: ast.expr | Value) -> ast.expr:
    """subject[i][j]...: an index is an expression, a name or a number."""
    result = subject
    for index in indices:
        key = index if isinstance(index, ast.expr) else value(index)
        result = ast.Subscript(value=result, slice=key, ctx=ast.Load())
    return result


def call(function: ast.expr | str, *arguments: ast.expr) -> ast.Call:
    target = name(function) if isinstance(function, str) else function
    return ast.Call(func=target, args=list(arguments), keywords=[])


def tuple_(elements: Sequence[ast.expr]) -> ast.Tuple:
    return ast.Tuple(elts=list(elements), ctx=ast.Load())


def list_(elements: Sequence[ast.expr]) -> ast.List:
    return ast.List(elts=list(elements), ctx=ast.Load())


_BINARY: dict[str, type[ast.operator]] = {
    "+": ast.Add,
    "-": ast.Sub,
    "*": ast.Mult,
    "%": ast.Mod,
    "//": ast.FloorDiv,
    "&": ast.BitAnd,
    "<<": ast.LShift,
}
_COMPARE: dict[str, type[ast.cmpop]] = {
    "<": ast.Lt,
    "<=": ast.LtE,
    ">": ast.Gt,
    ">=": ast.GtE,
    "==": ast.Eq,
    "!=": ast.NotEq,
    "in": ast.In,
    "not in": ast.NotIn,
    "is": ast.Is,
    "is not": ast.IsNot,
}


def binary(left: ast.expr, op: str, right: ast.expr) -> ast.expr:
    """An arithmetic operation or a comparison (one operator: never chained)."""
    if op in _COMPARE:
        return ast.Compare(left=left, ops=[_COMPARE[op]()], comparators=[right])
    return ast.BinOp(left=left, op=_BINARY[op](), right=right)


def chain(op: str, operands: Sequence[ast.expr]) -> ast.expr:
    """a op b op c, grouped from the left as Python reads it."""
    result = operands[0]
    for operand in operands[1:]:
        result = binary(result, op, operand)
    return result


def logic(op: str, operands: Sequence[ast.expr]) -> ast.expr:
    """`and` or `or` of the operands, in one operation."""
    if len(operands) == 1:
        return operands[0]
    kind: ast.boolop = ast.And() if op == "and" else ast.Or()
    return ast.BoolOp(op=kind, values=list(operands))


def negative(operand: ast.expr) -> ast.UnaryOp:
    return ast.UnaryOp(op=ast.USub(), operand=operand)


def not_(operand: ast.expr) -> ast.UnaryOp:
    return ast.UnaryOp(op=ast.Not(), operand=operand)


def if_expression(condition: ast.expr, then: ast.expr, otherwise: ast.expr) -> ast.IfExp:
    return ast.IfExp(test=condition, body=then, orelse=otherwise)


def _loop(
    target: str | Sequence[str], over: ast.expr, condition: ast.expr | None
) -> ast.comprehension:
    return ast.comprehension(
        target=_target(target), iter=over, ifs=[condition] if condition else [], is_async=0
    )


def generator(
    element: ast.expr,
    target: str | Sequence[str],
    over: ast.expr,
    condition: ast.expr | None = None,
) -> ast.GeneratorExp:
    """(element for target in over if condition)"""
    return ast.GeneratorExp(elt=element, generators=[_loop(target, over, condition)])


def list_of(
    element: ast.expr,
    target: str | Sequence[str],
    over: ast.expr,
    condition: ast.expr | None = None,
) -> ast.ListComp:
    """[element for target in over if condition]"""
    return ast.ListComp(elt=element, generators=[_loop(target, over, condition)])


def dict_of(
    key: ast.expr,
    element: ast.expr,
    target: str | Sequence[str],
    over: ast.expr,
    condition: ast.expr | None = None,
) -> ast.DictComp:
    """{key: element for target in over if condition}"""
    return ast.DictComp(key=key, value=element, generators=[_loop(target, over, condition)])


def _target(target: str | Sequence[str]) -> ast.expr:
    if isinstance(target, str):
        return store(target)
    return ast.Tuple(elts=[store(t) for t in target], ctx=ast.Store())


def has_loop(expression: ast.expr) -> bool:
    """Does evaluating the expression run a loop (a comprehension)?"""
    return any(isinstance(node, ast.comprehension) for node in ast.walk(expression))


# -------------------------------------------------------------- statements


def assign(target: str | Sequence[str], expression: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[_target(target)], value=expression)


def declare(target: str, annotation: ast.expr, expression: ast.expr) -> ast.AnnAssign:
    """target: annotation = expression"""
    return ast.AnnAssign(target=store(target), annotation=annotation, value=expression, simple=1)


def _place(target: ast.expr) -> ast.Name | ast.Attribute | ast.Subscript:
    """A name, attribute or item as the target of an assignment."""
    if not isinstance(target, ast.Name | ast.Attribute | ast.Subscript):
        raise TypeError(f"cannot assign to a {type(target).__name__}")
    place = copy.copy(target)
    place.ctx = ast.Store()
    return place


def set_(target: ast.expr, expression: ast.expr) -> ast.Assign:
    """target = expression, for an attribute or an item."""
    return ast.Assign(targets=[_place(target)], value=expression)


def augment(target: ast.expr, op: str, expression: ast.expr) -> ast.AugAssign:
    """target op= expression, for a name, an attribute or an item."""
    return ast.AugAssign(target=_place(target), op=_BINARY[op](), value=expression)


def do(expression: ast.expr) -> ast.Expr:
    """An expression run for its effect."""
    return ast.Expr(value=expression)


def return_(expression: ast.expr | None = None) -> ast.Return:
    return ast.Return(value=expression)


def raise_(exception: ast.expr) -> ast.Raise:
    return ast.Raise(exc=exception, cause=None)


def if_(
    condition: ast.expr, body: list[ast.stmt], otherwise: list[ast.stmt] | None = None
) -> ast.If:
    return ast.If(test=condition, body=body, orelse=otherwise or [])


def for_(target: str | Sequence[str], over: ast.expr, body: list[ast.stmt]) -> ast.For:
    return ast.For(target=_target(target), iter=over, body=body, orelse=[])


def annotation(text: str) -> ast.expr:
    """A type annotation the compiler spells (never text from a rule file)."""
    return ast.parse(text, mode="eval").body


# ------------------------------------------------------------- functions


@frozen
class Function:
    """A generated function: its signature, then its body (with comments)."""

    name: str
    parameters: tuple[tuple[str, str], ...]  # (name, annotation: "" for none, as self's)
    returns: ast.expr | str
    body: list[ast.stmt]

    def tree(self) -> ast.FunctionDef:
        arguments = ast.arguments(
            posonlyargs=[],
            args=[
                ast.arg(arg=n, annotation=annotation(a) if a else None) for n, a in self.parameters
            ],
            kwonlyargs=[],
            kw_defaults=[],
            defaults=[],
        )
        returns = annotation(self.returns) if isinstance(self.returns, str) else self.returns
        extra: dict[str, Any] = {"type_params": []} if sys.version_info >= (3, 12) else {}
        return ast.FunctionDef(
            name=self.name,
            args=arguments,
            # a body of comments alone still needs a statement
            body=self.body
            if any(not isinstance(st, Comment) for st in self.body)
            else [*self.body, ast.Pass()],
            decorator_list=[],
            returns=returns,
            **extra,
        )

    def text(self, width: int | None = None) -> str:
        return "\n".join(render([self.tree()], width=width))


# -------------------------------------------------------------- rendering


def render(body: Iterable[ast.stmt], level: int = 0, width: int | None = None) -> list[str]:
    """Lines of code for statements at an indentation level (printer.py
    prints each statement; comments are lines of their own). With a `width`,
    a statement longer than it that returns or assigns a tuple, or an `if`
    of an `and`/`or`, is written one element or operand a line."""
    pad = "    " * level
    lines: list[str] = []
    for statement in body:
        if isinstance(statement, Comment):
            lines.append(f"{pad}# {statement.text}")
        elif isinstance(statement, Docstring):
            quoted = [*statement.lines]
            quoted[0] = '"""' + quoted[0]
            quoted[-1] += '"""'
            lines.extend(pad + line for line in quoted)
        elif isinstance(statement, ast.FunctionDef | ast.If | ast.For | ast.While):
            lines.extend(_render_compound(statement, level, width))
        else:
            lines.extend(_simple_lines(statement, pad, width))
    return lines


def _simple_lines(statement: ast.stmt, pad: str, width: int | None) -> list[str]:
    line = pad + printer.simple(statement)
    value = getattr(statement, "value", None)
    if width is None or len(line) <= width:
        return [line]
    if not isinstance(value, ast.Tuple | ast.BoolOp | ast.Dict):
        return [line]
    if isinstance(statement, ast.Return):
        head = "return"
    elif isinstance(statement, ast.Assign | ast.AnnAssign):
        head = line[len(pad) : -len(printer.expression(value))].rstrip()
    else:
        return [line]
    if isinstance(value, ast.Dict):  # an item a line
        text = printer.laid_out(value, indent=len(pad), width=width, lead=len(head) + 1)
        return f"{pad}{head} {text}".split("\n")
    return [f"{pad}{head} (", *_one_a_line(value, pad + "    "), f"{pad})"]


def _one_a_line(value: ast.Tuple | ast.BoolOp, pad: str) -> list[str]:
    """A tuple's elements or an `and`/`or`'s operands, one a line."""
    if isinstance(value, ast.Tuple):
        return [f"{pad}{printer.expression(element)}," for element in value.elts]
    word = "and" if isinstance(value.op, ast.And) else "or"
    operands = [printer.expression(v, printer.AND + 1) for v in value.values]
    return [pad + operands[0], *(f"{pad}{word} {operand}" for operand in operands[1:])]


def _render_block(body: list[ast.stmt], level: int, width: int | None) -> list[str]:
    """A block's lines; `pass` when it has no statement but comments (an
    empty `if` or trigger of a rule file)."""
    lines = render(body, level, width)
    if all(isinstance(statement, Comment | Docstring) for statement in body):
        lines.append("    " * level + "pass")
    return lines


def _if_header(statement: ast.If, pad: str, width: int | None) -> list[str]:
    """`if test:`, or, past the width, the operands of its `and`/`or` a line each."""
    line = pad + printer.header(statement)
    test = statement.test
    if width is None or len(line) <= width or not isinstance(test, ast.BoolOp):
        return [line]
    return [f"{pad}if (", *_one_a_line(test, pad + "    "), f"{pad}):"]


def _def_header(statement: ast.FunctionDef, pad: str, width: int | None) -> list[str]:
    """`def f(...):`, or, past the width, a parameter a line."""
    line = pad + printer.header(statement)
    if width is None or len(line) <= width:
        return [line]
    parameters = [
        a.arg + (f": {printer.expression(a.annotation)}" if a.annotation else "")
        for a in statement.args.args
    ]
    returns = f" -> {printer.expression(statement.returns)}" if statement.returns else ""
    inner = pad + "    "
    return [
        f"{pad}def {statement.name}(",
        *(f"{inner}{p}," for p in parameters),
        f"{pad}){returns}:",
    ]


def _render_compound(
    statement: ast.FunctionDef | ast.If | ast.For | ast.While, level: int, width: int | None
) -> list[str]:
    pad = "    " * level
    if isinstance(statement, ast.If):
        head = _if_header(statement, pad, width)
    elif isinstance(statement, ast.FunctionDef):
        head = _def_header(statement, pad, width)
    else:
        head = [pad + printer.header(statement)]
    lines = [*head, *_render_block(statement.body, level + 1, width)]
    if isinstance(statement, ast.FunctionDef):
        return lines
    otherwise = statement.orelse
    # An `if` alone in an `else` is an `elif`.
    while len(otherwise) == 1 and isinstance(otherwise[0], ast.If):
        branch = otherwise[0]
        lines.append(pad + "el" + printer.header(branch))
        lines.extend(_render_block(branch.body, level + 1, width))
        otherwise = branch.orelse
    if otherwise:
        lines.append(pad + "else:")
        lines.extend(_render_block(otherwise, level + 1, width))
    return lines
