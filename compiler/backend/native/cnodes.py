"""C syntax trees and their printer.

The native target builds every expression and statement it writes as a
tree of these nodes; `expression` prints one with exactly the parentheses
its shape needs (C's precedence table below), so precedence is right by
construction. Names are C identifiers the lowering made (`ident`), numbers
are Python ints: nothing from a rule file reaches the C text but through
them, and comments are cleaned (`comment`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from attrs import frozen

# ----------------------------------------------------------------- names

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def ident(prefix: str, name: str) -> str:
    """A C identifier for a rule file's name: the name (an identifier, as
    the grammar makes every name) after a prefix, so that no keyword or
    identifier of the template is ever made; anything else is refused."""
    if not _IDENTIFIER.match(name):
        raise ValueError(f"not an identifier: {name!r}")
    return prefix + name


# ----------------------------------------------------------- expressions


@frozen
class Expr:
    pass


@frozen
class Name(Expr):
    name: str


@frozen
class Num(Expr):
    value: int
    wide: bool = False  # a number of the rules: written as a 64-bit constant (LL)


@frozen
class Call(Expr):
    function: str
    arguments: tuple[Expr, ...]


@frozen
class Index(Expr):
    subject: Expr
    index: Expr


@frozen
class Member(Expr):
    subject: Expr
    member: str
    arrow: bool = False


@frozen
class Unary(Expr):
    op: str  # "-", "!", "&", "*"
    operand: Expr


@frozen
class Binary(Expr):
    op: str
    left: Expr
    right: Expr


@frozen
class Conditional(Expr):
    condition: Expr
    then: Expr
    otherwise: Expr


@frozen
class Block(Expr):
    """A GNU statement expression `({ ...; value; })`: a value computed
    with loops (supported by gcc and clang, the compilers CPython is built with)."""

    body: Body
    value: Expr


def name(text: str) -> Name:
    return Name(text)


def num(value: int | bool) -> Num:
    return Num(int(value))


def call(function: str, *arguments: Expr) -> Call:
    return Call(function, tuple(arguments))


def index(subject: Expr, *indexes: Expr | int) -> Expr:
    for i in indexes:
        subject = Index(subject, num(i) if isinstance(i, int) else i)
    return subject


def arrow(subject: Expr | str, member: str) -> Member:
    return Member(name(subject) if isinstance(subject, str) else subject, member, True)


def dot(subject: Expr, member: str) -> Member:
    return Member(subject, member, False)


def binary(left: Expr, op: str, right: Expr) -> Binary:
    return Binary(op, left, right)


def logic(op: str, operands: Sequence[Expr]) -> Expr:
    """`&&` or `||` of the operands (a constant for none)."""
    if not operands:
        return num(op == "&&")
    result = operands[0]
    for operand in operands[1:]:
        result = Binary(op, result, operand)
    return result


def not_(operand: Expr) -> Expr:
    return Unary("!", operand)


_TRUTHS = ("==", "!=", "<", "<=", ">", ">=", "&&", "||")


def truth(condition: Expr) -> Expr:
    """The condition as 0 or 1 (a count to add): as it is if C already
    makes it one (a comparison, a logical operator), else compared with 0."""
    if isinstance(condition, Binary) and condition.op in _TRUTHS:
        return condition
    if isinstance(condition, Unary) and condition.op == "!":
        return condition
    return Binary("!=", condition, num(0))


# ------------------------------------------------------------ statements


@frozen
class Stmt:
    pass


@frozen
class Decl(Stmt):
    type: str
    name: str
    value: Expr | None = None


@frozen
class Assign(Stmt):
    target: Expr
    value: Expr
    op: str = "="


@frozen
class Do(Stmt):
    value: Expr


# A body is a list that the lowering may still fill in after building the
# statement around it (the loops of a move's choices nest that way).
Body = Sequence[Stmt]


@frozen
class If(Stmt):
    condition: Expr
    body: Body
    otherwise: Body = ()


@frozen
class For(Stmt):
    """`for (int32_t var = low; var < high; var++)`."""

    variable: str
    low: Expr
    high: Expr
    body: Body


@frozen
class While(Stmt):
    condition: Expr
    body: Body


@frozen
class Seq(Stmt):
    """Statements written in place (no braces): a body shared by several
    loops, filled in later."""

    body: Body


@frozen
class Return(Stmt):
    value: Expr | None = None


@frozen
class Comment(Stmt):
    text: str


@frozen
class Raw(Stmt):
    """A statement of the template's own vocabulary (`break;`, `continue;`):
    never text from a rule file."""

    text: str


def declare(type_: str, var: str, value: Expr | None = None) -> Decl:
    return Decl(type_, var, value)


def assign(target: Expr | str, value: Expr, op: str = "=") -> Assign:
    return Assign(name(target) if isinstance(target, str) else target, value, op)


def do(value: Expr) -> Do:
    return Do(value)


def if_(condition: Expr, body: Body, otherwise: Body = ()) -> If:
    return If(condition, body, otherwise)


def for_(var: str, low: Expr | int, high: Expr | int, body: Body) -> For:
    lo = num(low) if isinstance(low, int) else low
    hi = num(high) if isinstance(high, int) else high
    return For(var, lo, hi, body)


def block(body: Sequence[Stmt], value: Expr) -> Block:
    return Block(body, value)


def comment(text: str) -> Comment:
    return Comment(text)


# --------------------------------------------------------------- printing

# C's binary operators by precedence, tighter binding higher.
_BINARY = {
    "*": 13, "/": 13, "%": 13,
    "+": 12, "-": 12,
    "<<": 11, ">>": 11,
    "<": 10, "<=": 10, ">": 10, ">=": 10,
    "==": 9, "!=": 9,
    "&": 8, "^": 7, "|": 6,
    "&&": 5, "||": 4,
}  # fmt: skip
_POSTFIX, _UNARY, _CONDITIONAL = 15, 14, 3
_MIXED = frozenset(("&&", "||", "&", "|", "^"))


def _precedence(e: Expr) -> int:
    if isinstance(e, Binary):
        return _BINARY[e.op]
    if isinstance(e, Unary):
        return _UNARY
    if isinstance(e, Conditional):
        return _CONDITIONAL
    return 16  # names, numbers, calls, indexes, blocks: atoms


def _operand(e: Expr, floor: int, indent: int) -> str:
    """e, parenthesised unless it binds at least as tightly as `floor`."""
    text = expression(e, indent)
    return text if _precedence(e) >= floor else f"({text})"


def expression(e: Expr, indent: int = 0) -> str:
    if isinstance(e, Name):
        return e.name
    if isinstance(e, Num):
        text = f"{e.value}LL" if e.wide else str(e.value)
        return text if e.value >= 0 else f"({text})"
    if isinstance(e, Call):
        return f"{e.function}({', '.join(expression(a, indent) for a in e.arguments)})"
    if isinstance(e, Index):
        return f"{_operand(e.subject, _POSTFIX, indent)}[{expression(e.index, indent)}]"
    if isinstance(e, Member):
        return f"{_operand(e.subject, _POSTFIX, indent)}{'->' if e.arrow else '.'}{e.member}"
    if isinstance(e, Unary):
        operand = _operand(e.operand, _UNARY, indent)
        # `- -x` and `& &x` must not join into another token
        return f"{e.op}({operand})" if operand.startswith(e.op) else f"{e.op}{operand}"
    if isinstance(e, Binary):
        level = _BINARY[e.op]
        left = _operand(e.left, level, indent)
        right = _operand(e.right, level + 1, indent)
        # logic and bit operators mixed get parentheses (gcc's -Wparentheses)
        if e.op in _MIXED and isinstance(e.left, Binary) and e.left.op in _MIXED - {e.op}:
            left = f"({expression(e.left, indent)})"
        if e.op in _MIXED and isinstance(e.right, Binary) and e.right.op in _MIXED - {e.op}:
            right = f"({expression(e.right, indent)})"
        return f"{left} {e.op} {right}"
    if isinstance(e, Conditional):
        condition = _operand(e.condition, _CONDITIONAL + 1, indent)
        then = _operand(e.then, _CONDITIONAL + 1, indent)
        otherwise = _operand(e.otherwise, _CONDITIONAL + 1, indent)
        return f"{condition} ? {then} : {otherwise}"
    if isinstance(e, Block):
        inner = "".join(statement(st, indent + 1) for st in e.body)
        pad = "    " * (indent + 1)
        value = expression(e.value, indent + 1)
        return "({\n" + inner + f"{pad}{value};\n" + "    " * indent + "})"
    raise AssertionError(f"cannot print {e!r}")


def _clean(text: str) -> str:
    """A comment's text that cannot end the comment or start a directive."""
    return text.replace("*/", "* /").replace("\n", " ").replace("\\", "/")


def statement(st: Stmt, indent: int = 1) -> str:
    pad = "    " * indent
    if isinstance(st, Decl):
        value = "" if st.value is None else f" = {expression(st.value, indent)}"
        return f"{pad}{st.type} {st.name}{value};\n"
    if isinstance(st, Assign):
        return f"{pad}{expression(st.target, indent)} {st.op} {expression(st.value, indent)};\n"
    if isinstance(st, Do):
        return f"{pad}{expression(st.value, indent)};\n"
    if isinstance(st, If):
        text = f"{pad}if ({expression(st.condition, indent)}) {{\n"
        text += "".join(statement(s, indent + 1) for s in st.body)
        if st.otherwise:
            text += f"{pad}}} else {{\n"
            text += "".join(statement(s, indent + 1) for s in st.otherwise)
        return text + f"{pad}}}\n"
    if isinstance(st, For):
        var = st.variable
        head = (
            f"for (int32_t {var} = {expression(st.low, indent)}; "
            f"{var} < {expression(st.high, indent)}; {var}++)"
        )
        body = "".join(statement(s, indent + 1) for s in st.body)
        return f"{pad}{head} {{\n{body}{pad}}}\n"
    if isinstance(st, While):
        body = "".join(statement(s, indent + 1) for s in st.body)
        return f"{pad}while ({expression(st.condition, indent)}) {{\n{body}{pad}}}\n"
    if isinstance(st, Seq):
        return "".join(statement(s, indent) for s in st.body)
    if isinstance(st, Return):
        return (
            f"{pad}return;\n"
            if st.value is None
            else f"{pad}return {expression(st.value, indent)};\n"
        )
    if isinstance(st, Comment):
        return f"{pad}/* {_clean(st.text)} */\n"
    if isinstance(st, Raw):
        return f"{pad}{st.text}\n"
    raise AssertionError(f"cannot print {st!r}")


@frozen
class Function:
    """A static C function: its return type, name, parameters (type, name)
    and body."""

    returns: str
    name: str
    parameters: tuple[tuple[str, str], ...]
    body: Body

    def prototype(self) -> str:
        parameters = ", ".join(f"{t} {n}" for t, n in self.parameters) or "void"
        return f"static {self.returns} {self.name}({parameters})"

    def text(self) -> str:
        body = "".join(statement(st, 1) for st in self.body)
        return f"{self.prototype()}\n{{\n{body}}}\n"
