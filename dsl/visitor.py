"""One way to walk the compiler's trees: the syntax tree and the checked model.

Both trees are frozen attrs classes whose children sit in fields, alone or in
tuples; a node's span is not a child. `children` and `walk` iterate them
generically; `Visitor` dispatches a node to the method named
`visit_<ClassName>` (falling back to the nearest base class's method, then to
`generic_visit`), with the lookup done once per class, as jinja2's NodeVisitor
and sqlglot's generator do. Arguments given to `visit` after the node are
passed on to the method (the scope an expression is read in, say), as jinja2's
visitor passes its frame.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import attrs


def children(node: object) -> Iterator[Any]:
    """The attrs nodes directly inside a node, in field order. A field that
    takes no part in equality (a node's span) holds no children."""
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, tuple):
            yield from _nodes_in(value)
        elif _is_node(type(value)):
            yield value


_FIELDS: dict[type, tuple[str, ...]] = {}
_NODES: dict[type, bool] = {}


def _child_fields(kind: type) -> tuple[str, ...]:
    """The fields of a class that may hold children, found once per class
    (every stage walks the trees: asking attrs each time cost a fifth of a check)."""
    found = _FIELDS.get(kind)
    if found is None:
        found = _FIELDS[kind] = tuple(f.name for f in attrs.fields(kind) if f.eq)
    return found


def _is_node(kind: type) -> bool:
    found = _NODES.get(kind)
    if found is None:
        found = _NODES[kind] = attrs.has(kind)
    return found


def _nodes_in(value: object) -> Iterator[Any]:
    if isinstance(value, tuple):
        for element in value:
            yield from _nodes_in(element)
    elif _is_node(type(value)):
        yield value


def walk(node: object) -> Iterator[Any]:
    """Every node of a tree, parents before children, in source order,
    without recursion (a rule file may nest deeply)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(list(children(current))))


class Visitor:
    """Dispatch by node class: `visit(node)` calls `visit_<ClassName>(node)`.

    Subclasses define the methods they need; a node whose class (and bases)
    has none goes to `generic_visit`, which visits its children (with the same
    extra arguments) and returns None. The method for each class is found
    once and cached per visitor class.
    """

    _dispatch: ClassVar[dict[type, Callable[..., Any]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._dispatch = {}

    def visit(self, node: Any, *args: Any) -> Any:
        kind = type(node)
        method = self._dispatch.get(kind)
        if method is None:
            method = self._find(kind)
            self._dispatch[kind] = method
        return method(self, node, *args)

    @classmethod
    def _find(cls, kind: type) -> Callable[..., Any]:
        for base in kind.__mro__:
            found = getattr(cls, f"visit_{base.__name__}", None)
            if found is not None:
                return found  # type: ignore[no-any-return]
        return cls.generic_visit

    def generic_visit(self, node: Any, *args: Any) -> Any:
        for child in children(node):
            self.visit(child, *args)
        return None
