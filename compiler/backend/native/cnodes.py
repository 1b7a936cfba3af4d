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

from attrs import evolve, frozen

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
_COMPARISONS = frozenset(("==", "!=", "<", "<=", ">", ">="))
_BITS = frozenset(("&", "|", "^"))
_ARITHMETIC = frozenset(("+", "-", "*", "/", "%"))
# A comparison of an expression with itself, as its constant (gcc's
# -Wtautological-compare; the rules' expressions have no effects).
_SELF = {"==": 1, "!=": 0, "<": 0, "<=": 1, ">": 0, ">=": 1}


def _clarified(parent: str, child: Expr) -> bool:
    """Does gcc's -Wparentheses want the child operand in parentheses,
    although precedence does not need them?"""
    if not isinstance(child, Binary):
        return False
    op = child.op
    if parent in _MIXED and op in _MIXED - {parent}:
        return True
    if parent in _COMPARISONS:
        return op in _COMPARISONS
    if parent in _BITS:
        return op in _COMPARISONS or op in _ARITHMETIC or op in ("<<", ">>")
    return parent in ("<<", ">>") and op in ("+", "-")


def _folded(e: Binary) -> bool:
    """Is e a comparison of an expression with itself, printed as its constant?"""
    return e.op in _SELF and e.left == e.right and _effectless(e.left)


def _effectless(e: Expr) -> bool:
    """Names, numbers and operators over them: nothing a call or a block does."""
    if isinstance(e, Name | Num):
        return True
    if isinstance(e, Index):
        return _effectless(e.subject) and _effectless(e.index)
    if isinstance(e, Member):
        return _effectless(e.subject)
    if isinstance(e, Unary):
        return _effectless(e.operand)
    if isinstance(e, Binary):
        return _effectless(e.left) and _effectless(e.right)
    return False


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
        if _folded(e):
            return str(_SELF[e.op])
        level = _BINARY[e.op]
        left = _operand(e.left, level, indent)
        right = _operand(e.right, level + 1, indent)
        # operators gcc's -Wparentheses asks to see grouped get parentheses
        if _clarified(e.op, e.left) and _precedence(e.left) >= level:
            left = f"({left})"
        if _clarified(e.op, e.right) and _precedence(e.right) > level:
            right = f"({right})"
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


# ------------------------------------------------------- names never read
#
# A rule's values are computed where the lowering declares them, and a
# value nothing reads (a let, a loop's element, a parameter of the shared
# signature) is cast to void after its declaration, so that the C compiler
# warns of nothing (-Wunused-variable, -Wunused-but-set-variable,
# -Wunused-parameter) and drops it.


def _reads_expr(e: Expr, out: set[str]) -> None:
    if isinstance(e, Name):
        out.add(e.name)
    elif isinstance(e, Call):
        for a in e.arguments:
            _reads_expr(a, out)
    elif isinstance(e, Index):
        _reads_expr(e.subject, out)
        _reads_expr(e.index, out)
    elif isinstance(e, Member):
        _reads_expr(e.subject, out)
    elif isinstance(e, Unary):
        _reads_expr(e.operand, out)
    elif isinstance(e, Binary) and not _folded(e):
        _reads_expr(e.left, out)
        _reads_expr(e.right, out)
    elif isinstance(e, Conditional):
        for part in (e.condition, e.then, e.otherwise):
            _reads_expr(part, out)
    elif isinstance(e, Block):
        _reads_body(e.body, out)
        _reads_expr(e.value, out)


def _reads_target(e: Expr, out: set[str]) -> None:
    """What an assignment's target reads: its indexes and the pointers it
    goes through, not the variable it sets."""
    if isinstance(e, Index):
        if isinstance(e.subject, Member) and not e.subject.arrow:
            _reads_target(e.subject, out)  # an array in a struct variable
        else:
            _reads_expr(e.subject, out)  # a pointer (or an array) indexed
        _reads_expr(e.index, out)
    elif isinstance(e, Member) and not e.arrow:
        _reads_target(e.subject, out)
    elif not isinstance(e, Name):
        _reads_expr(e, out)


def _reads_body(body: Body, out: set[str]) -> None:
    for st in body:
        if isinstance(st, Decl) and st.value is not None:
            _reads_expr(st.value, out)
        elif isinstance(st, Assign):
            _reads_target(st.target, out)
            _reads_expr(st.value, out)
        elif isinstance(st, Do | Return) and st.value is not None:
            _reads_expr(st.value, out)
        elif isinstance(st, If):
            _reads_expr(st.condition, out)
            _reads_body(st.body, out)
            _reads_body(st.otherwise, out)
        elif isinstance(st, For):
            _reads_expr(st.low, out)
            _reads_expr(st.high, out)
            _reads_body(st.body, out)
        elif isinstance(st, While):
            _reads_expr(st.condition, out)
            _reads_body(st.body, out)
        elif isinstance(st, Seq):
            _reads_body(st.body, out)


def _void(var: str) -> Stmt:
    return Do(Unary("(void)", Name(var)))


def _voided_expr(e: Expr) -> Expr:
    """e with the unread declarations of its blocks cast to void."""
    if isinstance(e, Block):
        value: set[str] = set()
        _reads_expr(e.value, value)
        return Block(_voided(e.body, value), _voided_expr(e.value))
    if isinstance(e, Call):
        return evolve(e, arguments=tuple(_voided_expr(a) for a in e.arguments))
    if isinstance(e, Index):
        return Index(_voided_expr(e.subject), _voided_expr(e.index))
    if isinstance(e, Member):
        return evolve(e, subject=_voided_expr(e.subject))
    if isinstance(e, Unary):
        return evolve(e, operand=_voided_expr(e.operand))
    if isinstance(e, Binary):
        return evolve(e, left=_voided_expr(e.left), right=_voided_expr(e.right))
    if isinstance(e, Conditional):
        return Conditional(*(_voided_expr(x) for x in (e.condition, e.then, e.otherwise)))
    return e


def _voided(body: Body, after: set[str] | frozenset[str] = frozenset()) -> list[Stmt]:
    """The body with `(void)x;` after each declaration of an x that nothing
    after it in its block reads (`after`: what is read once the block's
    statements are done: a block expression's value, or the statements that
    follow a `Seq`, which is written in place). Each block is looked at
    apart, as C scopes it: a temporary of the same name in a sibling block
    (two values built from two frames of one function) does not count."""
    later = set(after)
    out: list[Stmt] = []
    for st in reversed(body):
        read: set[str] = set()
        _reads_body([st], read)
        if isinstance(st, Decl):
            if st.name not in later:
                out.append(_void(st.name))
            value = None if st.value is None else _voided_expr(st.value)
            st = evolve(st, value=value)
        elif isinstance(st, Assign | Do | Return) and st.value is not None:
            st = evolve(st, value=_voided_expr(st.value))
        elif isinstance(st, If):
            st = If(_voided_expr(st.condition), _voided(st.body), _voided(st.otherwise))
        elif isinstance(st, For | While):
            st = evolve(st, body=_voided(st.body))
        elif isinstance(st, Seq):
            st = Seq(_voided(st.body, later))
        out.append(st)
        later |= read
    return out[::-1]


@frozen
class Function:
    """A static C function: its return type, name, parameters (type, name)
    and body; `maybe_unused` where whether the engine calls it depends on
    the edition (no warning where it does not)."""

    returns: str
    name: str
    parameters: tuple[tuple[str, str], ...]
    body: Body
    maybe_unused: bool = False

    def prototype(self) -> str:
        parameters = ", ".join(f"{t} {n}" for t, n in self.parameters) or "void"
        attribute = "MAYBE_UNUSED " if self.maybe_unused else ""
        return f"{attribute}static {self.returns} {self.name}({parameters})"

    def text(self) -> str:
        read: set[str] = set()
        _reads_body(self.body, read)
        unread = [_void(n) for _, n in self.parameters if n not in read]
        voids = "".join(statement(st) for st in unread)
        return f"{self.prototype()}\n{{\n{voids}{body_text(self.body)}}}\n"


def body_text(body: Body, indent: int = 1) -> str:
    """Statements printed, each value never read cast to void."""
    return "".join(statement(st, indent) for st in _voided(body))
