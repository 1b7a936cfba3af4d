"""Python syntax trees -> source text, with parentheses by precedence.

Like `ast.unparse`, for the part of Python that generated engines use: each
expression is printed knowing the least binding strength its place needs
and parenthesised when its own is weaker, so the text always parses back to
the tree it came from. Unlike `ast.unparse`, its spelling is the project's
own, the same on every Python version (a committed engine must be rendered
byte for byte alike everywhere), and it writes what the project's linter
asks for: a generator that is a call's only argument without a second pair
of parentheses, and an `and` inside an `or` in parentheses.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

# Binding strength, weakest first (Python's grammar).
TEST, OR, AND, NOT, CMP, BOR, BXOR, BAND, SHIFT, ARITH, TERM, FACTOR, POWER, ATOM = range(1, 15)

_BINARY: dict[type[ast.operator], tuple[str, int]] = {
    ast.Add: ("+", ARITH),
    ast.Sub: ("-", ARITH),
    ast.Mult: ("*", TERM),
    ast.FloorDiv: ("//", TERM),
    ast.Mod: ("%", TERM),
    ast.BitAnd: ("&", BAND),
    ast.BitOr: ("|", BOR),
    ast.LShift: ("<<", SHIFT),
}
_COMPARE: dict[type[ast.cmpop], str] = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
}


def expression(node: ast.expr, need: int = TEST) -> str:
    """The text of an expression in a place that needs binding strength `need`."""
    text, strength = _printed(node)
    return f"({text})" if strength < need else text


def _printed(node: ast.expr) -> tuple[str, int]:
    printer = _PRINTERS.get(type(node))
    if printer is None:
        raise TypeError(f"cannot print a {type(node).__name__}")
    return printer(node)


def _name(node: ast.Name) -> tuple[str, int]:
    return node.id, ATOM


def _constant(node: ast.Constant) -> tuple[str, int]:
    value = node.value
    if value is Ellipsis:
        return "...", ATOM
    if not (value is None or isinstance(value, bool | int | str)):
        raise TypeError(f"cannot print a constant {value!r}")
    text = repr(value)
    return text, FACTOR if text.startswith("-") else ATOM


def _attribute(node: ast.Attribute) -> tuple[str, int]:
    base = node.value
    # A number's attribute needs parentheses: `1.real` would read as a float.
    need = ATOM + 1 if isinstance(base, ast.Constant) and isinstance(base.value, int) else ATOM
    return f"{expression(base, need)}.{node.attr}", ATOM


def _subscript(node: ast.Subscript) -> tuple[str, int]:
    index = node.slice
    if isinstance(index, ast.Tuple) and index.elts:
        inside = ", ".join(expression(e) for e in index.elts)
        inside += "," if len(index.elts) == 1 else ""
    else:
        inside = expression(index)
    return f"{expression(node.value, ATOM)}[{inside}]", ATOM


def _call(node: ast.Call) -> tuple[str, int]:
    if node.keywords:
        raise TypeError("cannot print keyword arguments")
    if len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp):
        arguments = _comprehension(node.args[0])
    else:
        arguments = ", ".join(expression(a) for a in node.args)
    return f"{expression(node.func, ATOM)}({arguments})", ATOM


def _tuple(node: ast.Tuple) -> tuple[str, int]:
    elements = [expression(e) for e in node.elts]
    if len(elements) == 1:
        return f"({elements[0]},)", ATOM
    return "(" + ", ".join(elements) + ")", ATOM


def _list(node: ast.List) -> tuple[str, int]:
    return "[" + ", ".join(expression(e) for e in node.elts) + "]", ATOM


def _dict(node: ast.Dict) -> tuple[str, int]:
    items = (_item(key, value) for key, value in zip(node.keys, node.values, strict=True))
    return "{" + ", ".join(items) + "}", ATOM


def _item(key: ast.expr | None, value: ast.expr) -> str:
    if key is None:
        raise TypeError("cannot print `**` in a dict")
    return f"{expression(key)}: {expression(value)}"


def _binary(node: ast.BinOp) -> tuple[str, int]:
    symbol, strength = _BINARY[type(node.op)]
    left = expression(node.left, strength)
    right = expression(node.right, strength + 1)  # grouped from the left
    return f"{left} {symbol} {right}", strength


def _unary(node: ast.UnaryOp) -> tuple[str, int]:
    if isinstance(node.op, ast.Not):
        return "not " + expression(node.operand, NOT), NOT
    if isinstance(node.op, ast.USub):
        return "-" + expression(node.operand, FACTOR), FACTOR
    raise TypeError(f"cannot print a {type(node.op).__name__}")


def _compare(node: ast.Compare) -> tuple[str, int]:
    parts = [expression(node.left, CMP + 1)]
    for op, right in zip(node.ops, node.comparators, strict=True):
        parts.append(f"{_COMPARE[type(op)]} {expression(right, CMP + 1)}")
    return " ".join(parts), CMP


def _logic(node: ast.BoolOp) -> tuple[str, int]:
    if isinstance(node.op, ast.And):
        return " and ".join(expression(v, AND + 1) for v in node.values), AND
    # An `and` inside an `or` gets parentheses too, for the reader.
    return " or ".join(expression(v, AND + 1) for v in node.values), OR


def _if_expression(node: ast.IfExp) -> tuple[str, int]:
    then = expression(node.body, OR)
    condition = expression(node.test, OR)
    return f"{then} if {condition} else {expression(node.orelse, TEST)}", TEST


def _target(node: ast.expr) -> str:
    """A name or names bound by a loop or an assignment."""
    if isinstance(node, ast.Tuple) and len(node.elts) > 1:
        return ", ".join(_target(e) for e in node.elts)
    return expression(node)


def _comprehension(node: ast.GeneratorExp | ast.ListComp | ast.DictComp) -> str:
    if isinstance(node, ast.DictComp):
        parts = [f"{expression(node.key)}: {expression(node.value)}"]
    else:
        parts = [expression(node.elt)]
    for loop in node.generators:
        if loop.is_async:
            raise TypeError("cannot print an async comprehension")
        parts.append(f"for {_target(loop.target)} in {expression(loop.iter, OR)}")
        parts.extend(f"if {expression(test, OR)}" for test in loop.ifs)
    return " ".join(parts)


def _generator(node: ast.GeneratorExp) -> tuple[str, int]:
    return f"({_comprehension(node)})", ATOM


def _list_comprehension(node: ast.ListComp) -> tuple[str, int]:
    return f"[{_comprehension(node)}]", ATOM


def _dict_comprehension(node: ast.DictComp) -> tuple[str, int]:
    return f"{{{_comprehension(node)}}}", ATOM


_PRINTERS: dict[type, Callable[[Any], tuple[str, int]]] = {
    ast.Name: _name,
    ast.Constant: _constant,
    ast.Attribute: _attribute,
    ast.Subscript: _subscript,
    ast.Call: _call,
    ast.Tuple: _tuple,
    ast.List: _list,
    ast.Dict: _dict,
    ast.BinOp: _binary,
    ast.UnaryOp: _unary,
    ast.Compare: _compare,
    ast.BoolOp: _logic,
    ast.IfExp: _if_expression,
    ast.GeneratorExp: _generator,
    ast.ListComp: _list_comprehension,
    ast.DictComp: _dict_comprehension,
}


def laid_out(node: ast.expr, indent: int = 0, width: int = 99, lead: int = 0) -> str:
    """An expression over as many lines as it needs to fit in `width`, for a
    place at `indent` whose line already holds `lead` characters: on one
    line if it fits, else a dict, list or tuple with an element (or an item)
    a line, or with its elements filling the lines when none of them is a
    display itself."""
    text = expression(node)
    if indent + lead + len(text) <= width or not isinstance(node, _DISPLAYS):
        return text
    inner = indent + 4
    pad = " " * inner
    opening, closing = _BRACKETS[type(node)]
    if isinstance(node, ast.Dict):
        lines = []
        for key, value in zip(node.keys, node.values, strict=True):
            if key is None:
                raise TypeError("cannot print `**` in a dict")
            head = expression(key) + ": "
            lines.append(pad + head + laid_out(value, inner, width, len(head)) + ",")
        return "\n".join([opening, *lines, " " * indent + closing])
    elements = node.elts
    if any(isinstance(e, _DISPLAYS) for e in elements):
        lines = [pad + laid_out(e, inner, width) + "," for e in elements]
    else:
        lines = _filled([expression(e) + "," for e in elements], pad, width)
    return "\n".join([opening, *lines, " " * indent + closing])


_DISPLAYS = (ast.Dict, ast.List, ast.Tuple)
_BRACKETS: dict[type, tuple[str, str]] = {
    ast.Dict: ("{", "}"),
    ast.List: ("[", "]"),
    ast.Tuple: ("(", ")"),
}


def _filled(items: list[str], pad: str, width: int) -> list[str]:
    """Items on as few lines as fit in `width`, each line starting with `pad`."""
    lines: list[str] = []
    line = ""
    for item in items:
        if line and len(pad) + len(line) + 1 + len(item) > width:
            lines.append(pad + line)
            line = item
        else:
            line = f"{line} {item}" if line else item
    if line:
        lines.append(pad + line)
    return lines


# -------------------------------------------------------------- statements


def header(node: ast.stmt) -> str:
    """The first line of a compound statement (without its body)."""
    if isinstance(node, ast.FunctionDef):
        if node.decorator_list or node.args.vararg or node.args.kwarg or node.args.kwonlyargs:
            raise TypeError("cannot print decorators or special parameters")
        parameters = ", ".join(
            a.arg + (f": {expression(a.annotation)}" if a.annotation else "")
            for a in node.args.args
        )
        returns = f" -> {expression(node.returns)}" if node.returns else ""
        return f"def {node.name}({parameters}){returns}:"
    if isinstance(node, ast.If):
        return f"if {expression(node.test)}:"
    if isinstance(node, ast.For):
        return f"for {_target(node.target)} in {expression(node.iter)}:"
    if isinstance(node, ast.While):
        return f"while {expression(node.test)}:"
    raise TypeError(f"cannot print a {type(node).__name__}")


def simple(node: ast.stmt) -> str:
    """The one line of a simple statement."""
    if isinstance(node, ast.Expr):
        return expression(node.value)
    if isinstance(node, ast.Assign):
        targets = " = ".join(_target(t) for t in node.targets)
        return f"{targets} = {expression(node.value)}"
    if isinstance(node, ast.AnnAssign):
        value = f" = {expression(node.value)}" if node.value else ""
        return f"{expression(node.target)}: {expression(node.annotation)}{value}"
    if isinstance(node, ast.AugAssign):
        symbol = _BINARY[type(node.op)][0]
        return f"{expression(node.target)} {symbol}= {expression(node.value)}"
    if isinstance(node, ast.Return):
        return "return" + (f" {expression(node.value)}" if node.value else "")
    if isinstance(node, ast.Raise):
        if node.cause:
            raise TypeError("cannot print `raise ... from`")
        return "raise" + (f" {expression(node.exc)}" if node.exc else "")
    if isinstance(node, ast.Pass):
        return "pass"
    raise TypeError(f"cannot print a {type(node).__name__}")
