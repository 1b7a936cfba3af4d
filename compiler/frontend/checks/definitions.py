"""Definitions: typed uses first, and how deep they nest once read in place.

A definition may use others declared anywhere in the edition, so they are
typed in an order where each comes after the ones it uses. That order is
found by a loop over the graph of which definition names which, not by
recursion, because a chain of definitions may be long; the expression checker
types each one when its turn comes, and still finds and reports a cycle (its
`defining` list is the path the loop followed).

Each engine evaluates a definition by calling the ones it uses, so a chain of
definitions nests the engine's calls. How deep a definition nests, read with
every definition it uses written out in place, is bounded by
MAX_DEFINITION_DEPTH (docs/language.md states it): beyond it, the chain is a
located error, not a RecursionError when a game is played.
"""

from __future__ import annotations

from collections.abc import Iterator

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.checks.expressions import ExpressionChecker
from splendor_rules.compiler.frontend.editions import Entry
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.visitor import children, walk

# Levels of expression, a use of a definition counting one level more than
# the definition's own depth. A rule file's single expression is bounded by
# the parser (dsl/parser.py, MAX_DEPTH); this bounds what chains add to it.
MAX_DEFINITION_DEPTH = 100


def type_definitions(context: Context, expressions: ExpressionChecker) -> None:
    """Type every definition, each after those it uses, and report the ones
    that nest too deeply."""
    entries = context.of(s.Define)
    uses = {_name(entry): list(_uses(entry, context)) for entry in entries}
    depths: dict[str, int] = {}
    for root in entries:
        for name, ancestors in _after_what_they_use(_name(root), uses, expressions):
            entry = root if name == _name(root) else context.defines[name]
            expressions.defining[:] = ancestors
            expressions.definition_type(entry)
            expressions.defining.clear()
            _check_depth(context, entry, name, depths)


def _name(entry: Entry) -> str:
    decl = entry.decl
    assert isinstance(decl, s.Define)
    return entry.renames.apply(decl.name.text)


def _uses(entry: Entry, context: Context) -> Iterator[str]:
    """The definitions a definition names, in the order it names them (a
    local variable of the same name may hide one: then it is one too many,
    which changes no order that matters)."""
    decl = entry.decl
    assert isinstance(decl, s.Define)
    seen: set[str] = set()
    for node in walk(decl.value):
        named = _named(node)
        if named is not None:
            name = entry.renames.apply(named)
            if name in context.defines and name not in seen:
                seen.add(name)
                yield name


def _named(node: object) -> str | None:
    """The name a node may use a definition by: a bare name, or a call
    (a definition with parameters)."""
    if isinstance(node, s.NameRef):
        return node.name
    if isinstance(node, s.Call):
        return node.function.text
    return None


def _after_what_they_use(
    root: str, uses: dict[str, list[str]], expressions: ExpressionChecker
) -> Iterator[tuple[str, list[str]]]:
    """The definitions not yet typed that `root` needs, and root itself, each
    after those it uses, with the path of definitions that led to it (as the
    checker's `defining` list would hold it, had it recursed)."""
    if root in expressions.define_types:
        return
    path, on_path = [root], {root}
    pending = [iter(uses.get(root, ()))]
    while path:
        used = next(pending[-1], None)
        if used is None:
            name = path.pop()
            on_path.discard(name)
            pending.pop()
            yield name, list(path)
        elif used not in expressions.define_types and used not in on_path:
            path.append(used)
            on_path.add(used)
            pending.append(iter(uses.get(used, ())))


def _check_depth(context: Context, entry: Entry, name: str, depths: dict[str, int]) -> None:
    """Record how deep a definition nests, read in place, and report it when
    it is the first of its chain over the limit."""
    decl = entry.decl
    assert isinstance(decl, s.Define)
    depth = _depth(decl.value, entry, context, depths)
    depths[name] = depth
    if depth > MAX_DEFINITION_DEPTH and not any(
        depths.get(used, 0) > MAX_DEFINITION_DEPTH for used in _uses(entry, context)
    ):
        context.report(msgs.definition_too_deep(decl.name.span, name, MAX_DEFINITION_DEPTH))


def _depth(value: s.Expr, entry: Entry, context: Context, depths: dict[str, int]) -> int:
    """The levels of an expression, a use of a definition counting as one
    level more than that definition (0 for one not measured: a cycle)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        node, level = stack.pop()
        named = _named(node)
        used = depths.get(entry.renames.apply(named), 0) if named is not None else 0
        deepest = max(deepest, level + used)
        # A call's arguments are read where it is, not inside the definition.
        stack.extend((child, level + 1) for child in children(node))
    return deepest
