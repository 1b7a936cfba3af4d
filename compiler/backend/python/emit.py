"""Emitting Python: a line writer and the translation of model expressions.

The writer follows jinja2's CodeGenerator: `line`, `indent`, `dedent` and
fresh temporary names. Expressions become Python expressions over the engine's
state `s` and the player in context; every name that came from a rule file is
used only inside a generated identifier with a fixed prefix (after checking
that it is an identifier), and every string from a rule file is written with
`repr`, so nothing in a rule file can inject code.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import attrs

from splendor_rules.compiler.frontend import model as m

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def ident(prefix: str, name: str) -> str:
    """A generated identifier for a rule-file name: `prefix` + the name."""
    if not _IDENTIFIER.match(name) or keyword.iskeyword(prefix + name):
        raise ValueError(f"not an identifier: {name!r}")
    return prefix + name


def bare(code: str) -> str:
    """The code without one pair of parentheses around all of it, for places
    that delimit an expression already (a condition, an argument)."""
    if not (code.startswith("(") and code.endswith(")")):
        return code
    depth = 0
    for i, char in enumerate(code):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and i < len(code) - 1:
            return code
    return code[1:-1]


def uses(node: object, name: str) -> bool:
    """Does a model expression or statement read the local `name`?"""
    if isinstance(node, m.Ref):
        return node.kind == "variable" and node.name == name
    if isinstance(node, m.Move):
        return node.card == name
    if isinstance(node, tuple):
        return any(uses(item, name) for item in node)
    if isinstance(node, m.Expr | m.Statement | m.RankKey):
        return any(uses(getattr(node, f.name), name) for f in attrs.fields(type(node)))
    return False


def defines_in(node: object) -> set[str]:
    """The definitions a model expression or statement reads."""
    if isinstance(node, m.Ref):
        return {node.name} if node.kind == "define" else set()
    if isinstance(node, tuple):
        return set().union(*(defines_in(item) for item in node)) if node else set()
    if isinstance(node, m.Expr | m.Statement | m.RankKey):
        return set().union(*(defines_in(getattr(node, f.name)) for f in attrs.fields(type(node))))
    return set()


Aggregate = tuple[str, str, str]  # ("sum" or "tally", zone, column)


def tally_of(e: object) -> tuple[m.Expr, str] | None:
    """`per colour c: count(x in S where x.a == c)` counts S by the colour
    column a: its source S and column a, if e has that shape."""
    if not (isinstance(e, m.PerColour) and isinstance(e.body, m.Call)):
        return None
    call = e.body
    if call.function != "count" or not isinstance(call.arguments[0], m.Filter):
        return None
    found = call.arguments[0]
    test = found.condition
    if not (isinstance(test, m.Binary) and test.op == "=="):
        return None
    sides = (test.left, test.right)
    for attr, colour in (sides, sides[::-1]):
        if (
            isinstance(attr, m.Attr)
            and isinstance(attr.subject, m.Ref)
            and attr.subject.name == found.variable
            and attr.subject.type == m.CARD
            and isinstance(colour, m.Ref)
            and colour.name == e.variable
        ):
            return found.source, attr.attribute
    return None


def aggregate_of(e: object) -> Aggregate | None:
    """The per-player zone aggregate an expression computes, if it is one:
    `sum(Z.a)`, or a tally of a zone (tally_of). Engines keep these up to
    date as cards and tiles move, instead of recomputing them."""
    if isinstance(e, m.Call) and e.function == "sum" and len(e.arguments) == 1:
        total = e.arguments[0]
        if (
            isinstance(total, m.Attr)
            and isinstance(total.subject, m.Ref)
            and total.subject.kind == "zone"
            and total.type == m.list_of(m.INT)
        ):
            return ("sum", total.subject.name, total.attribute)
    tally = tally_of(e)
    if tally is not None and isinstance(tally[0], m.Ref) and tally[0].kind == "zone":
        return ("tally", tally[0].name, tally[1])
    return None


def aggregates_in(node: object) -> list[Aggregate]:
    """Every zone aggregate in a model tree, in first-seen order."""
    found: dict[Aggregate, None] = {}

    def visit(x: object) -> None:
        aggregate = aggregate_of(x)
        if aggregate is not None:
            found.setdefault(aggregate)
            return
        if isinstance(x, tuple):
            for item in x:
                visit(item)
        elif attrs.has(type(x)):
            kind: Any = type(x)
            for f in attrs.fields(kind):
                visit(getattr(x, f.name))

    visit(node)
    return list(found)


def comment_text(text: str) -> str:
    """Text from a file path or rule file, safe inside a comment or docstring:
    anything but letters, digits and `_./-:` becomes `_`."""
    return re.sub(r"[^A-Za-z0-9_./:-]", "_", text)


def literal(value: object) -> str:
    """A Python literal for data from a rule or data file (inert by repr)."""
    if isinstance(value, bool | int | str | type(None)):
        return repr(value)
    if isinstance(value, tuple):
        inner = ", ".join(literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    raise TypeError(f"no literal for {type(value).__name__}")


class Writer:
    """Lines of Python with the current indentation."""

    def __init__(self, indent: int = 0) -> None:
        self.lines: list[str] = []
        self.level = indent
        self.counter = 0

    def line(self, text: str = "") -> None:
        self.lines.append(("    " * self.level + text) if text else "")

    @contextmanager
    def block(self, header: str) -> Iterator[None]:
        self.line(header)
        self.level += 1
        yield
        self.level -= 1

    def temporary(self, hint: str = "t") -> str:
        self.counter += 1
        return f"_{hint}{self.counter}"

    def text(self) -> str:
        return "\n".join(self.lines)


class Names:
    """How the model's names are spelled in the generated module."""

    def __init__(self, edition: m.Edition) -> None:
        self.edition = edition
        self.token_index = {t.name: i for i, t in enumerate(edition.tokens)}
        first_majority = sum(len(t.rows) for t in edition.tile_sets)
        self.majority_tile = {
            maj.name: first_majority + i for i, maj in enumerate(edition.majorities)
        }
        self.majority_zone = {maj.name: maj.zone for maj in edition.majorities}
        self.aggregates = {a: i for i, a in enumerate(aggregates_in(edition))}

    def token(self, name: str) -> str:
        return ident("K_", name)

    def zone(self, name: str) -> str:
        return ident("Z_", name)

    def tile_set(self, name: str) -> str:
        return ident("S_", name)

    def majority(self, name: str) -> str:
        return ident("M_", name)

    def action_bit(self, name: str) -> str:
        return ident("A_", name)

    def define(self, name: str) -> str:
        return ident("_define_", name)

    def card_column(self, column: str) -> str:
        return ident("CARD_", column)

    def tile_column(self, column: str) -> str:
        return ident("TILE_", column)


class ExprEmitter:
    """Model expression -> Python expression text.

    `player` is the Python name of the player in context, `locals_` maps the
    rule's local names to Python names.
    """

    def __init__(self, names: Names, writer: Writer, state: str = "s") -> None:
        self.names = names
        self.writer = writer
        self.state = state
        # Definitions already read into locals for player `p` of state `s`.
        self.prebound: dict[str, str] = {}

    def emit(self, e: m.Expr, player: str, locals_: Mapping[str, str]) -> str:
        def go(x: m.Expr) -> str:
            return self.emit(x, player, locals_)

        s = self.state
        n = self.names
        aggregate = aggregate_of(e)
        if aggregate is not None and aggregate in n.aggregates:
            return f"{s}.agg[{player}][{n.aggregates[aggregate]}]"
        if isinstance(e, m.Const):
            return repr(e.value)
        if isinstance(e, m.Ref):
            return self.ref(e, player, locals_)
        if isinstance(e, m.Attr):
            subject = go(e.subject)
            column = (
                n.card_column(e.attribute)
                if _element(e.subject.type) == m.CARD
                else n.tile_column(e.attribute)
            )
            if e.subject.type.kind in ("set", "list"):
                item = self.writer.temporary("i")
                return f"[{column}[{item}] for {item} in {subject}]"
            return f"{column}[{subject}]"
        if isinstance(e, m.Index):
            return f"{go(e.subject)}[{go(e.index)}]"
        if isinstance(e, m.Call):
            return self.call(e, player, locals_)
        if isinstance(e, m.Unary):
            return f"(-{go(e.operand)})" if e.op == "-" else f"(not {go(e.operand)})"
        if isinstance(e, m.Binary):
            return f"({go(e.left)} {e.op} {go(e.right)})"
        if isinstance(e, m.Logic):
            return "(" + f" {e.op} ".join(go(o) for o in e.operands) + ")"
        if isinstance(e, m.Conditional):
            return f"({go(e.then)} if {go(e.condition)} else {go(e.otherwise)})"
        if isinstance(e, m.Filter):
            var = self.writer.temporary(e.variable)
            inner = {**locals_, e.variable: var}
            condition = self.emit(e.condition, player, inner)
            return f"tuple({var} for {var} in {go(e.source)} if {condition})"
        tally = self.tally(e, player, locals_)
        if tally is not None:
            return tally
        if isinstance(e, m.PerColour):
            # The colours are known: one element per colour, no loop.
            bodies = [
                self.emit(e.body, player, {**locals_, e.variable: str(i)})
                for i in range(len(self.names.edition.colours))
            ]
            return "(" + ", ".join(bare(b) for b in bodies) + ",)"
        if (
            isinstance(e, m.Quantifier)
            and isinstance(e.source, m.Ref)
            and e.source.kind == "colours"
            and e.variable is not None
        ):
            variable = e.variable
            bodies = [
                self.emit(e.body, player, {**locals_, variable: str(i)})
                for i in range(len(self.names.edition.colours))
            ]
            return "(" + f" {'and' if e.op == 'all' else 'or'} ".join(bodies) + ")"
        if isinstance(e, m.PerColour):
            var = self.writer.temporary(e.variable)
            body = self.emit(e.body, player, {**locals_, e.variable: var})
            return f"tuple({body} for {var} in COLOUR_KINDS)"
        if isinstance(e, m.Quantifier):
            if e.variable is None:
                other = self.writer.temporary("p")
                body = self.emit(e.body, other, locals_)
                return f"{e.op}({body} for {other} in range({s}.players))"
            assert e.source is not None
            var = self.writer.temporary(e.variable)
            body = self.emit(e.body, player, {**locals_, e.variable: var})
            return f"{e.op}({body} for {var} in {go(e.source)})"
        raise AssertionError(f"cannot emit {type(e).__name__}")

    def tally(self, e: m.Expr, player: str, locals_: Mapping[str, str]) -> str | None:
        """A tally (tally_of) of any source: one pass over it, not one per colour."""
        tally = tally_of(e)
        if tally is None:
            return None
        source, column = tally
        return f"_tally({self.emit(source, player, locals_)}, {self.names.card_column(column)})"

    def ref(self, e: m.Ref, player: str, locals_: Mapping[str, str]) -> str:
        s = self.state
        n = self.names
        if e.kind == "variable":
            return locals_[e.name]
        if e.kind in ("colour", "token"):
            return n.token(e.name)
        if e.kind == "colours":
            return "COLOUR_KINDS"
        if e.kind == "players":
            return f"{s}.players"
        if e.kind == "zone":
            return f"{s}.zones[{n.zone(e.name)}][{player}]"
        if e.kind == "market":
            return f"_market({s})"
        if e.kind == "tiles":
            return f"{s}.tiles[{n.tile_set(e.name)}]"
        if e.kind == "define":
            if s == "s" and player == "p" and e.name in self.prebound:
                return self.prebound[e.name]
            return f"{n.define(e.name)}({s}, {player})"
        if e.kind == "score":
            return f"_score({s}, {player})"
        raise AssertionError(f"cannot emit a reference to a {e.kind}")

    def call(self, e: m.Call, player: str, locals_: Mapping[str, str]) -> str:
        s = self.state
        n = self.names
        args = e.arguments
        if e.function == "holds":
            assert isinstance(args[0], m.Ref)
            name = args[0].name
            zone = n.zone(n.majority_zone[name])
            return f"({n.majority(name)} in {s}.zones[{zone}][{player}])"
        if e.function == "did":
            assert isinstance(args[0], m.Ref)
            return f"bool({s}.did[{player}] & {n.action_bit(args[0].name)})"
        parts = [self.emit(a, player, locals_) for a in args]
        if e.function == "supply":
            return f"{s}.supply[{parts[0]}]"
        if e.function == "tokens":
            return f"{s}.held[{player}][{parts[0]}]"
        if e.function == "count":
            return f"len({parts[0]})"
        if e.function in ("sum", "min", "max"):
            return f"{e.function}({', '.join(parts)})"
        raise AssertionError(f"cannot emit a call of {e.function}")


def _element(t: m.Type) -> m.Type:
    return t.element if t.kind in ("set", "list") and t.element is not None else t
