"""Equality of checked models (or syntax trees) that ignores where things
were written: two rule files mean the same when their models are equal but
for source positions.

A node's own span takes no part in its equality already (`field(eq=False)`),
but spans are also held as values (the model's `rule_ids` maps each id to its
place); `meaning` replaces every Span, wherever it stands, so that `==`
compares what is left. A model also names the files it was read from (the
rule file, its data tables: `file`, a path as the checker found it): where
they lie is no part of what they say, so only their names are compared.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePath
from typing import Any

import attrs

from splendor_rules.compiler.frontend import model as m
from splendor_rules.dsl.syntax import Span

SPAN = "<span>"


def meaning(value: Any) -> Any:
    """A value with every source position taken out, as nested tuples (attrs
    classes as their name and compared fields)."""
    if isinstance(value, Span):
        return SPAN
    if attrs.has(type(value)):
        fields = attrs.fields(type(value))
        return (
            type(value).__name__,
            tuple((f.name, _field(f.name, getattr(value, f.name))) for f in fields if f.eq),
        )
    if isinstance(value, Mapping):
        return ("mapping", tuple((meaning(k), meaning(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(meaning(v) for v in value)
    if isinstance(value, frozenset | set):
        return ("set", frozenset(meaning(v) for v in value))
    return value


def _field(name: str, value: Any) -> Any:
    if name == "file" and isinstance(value, str):
        return PurePath(value).name
    return meaning(value)


def same_meaning(a: Any, b: Any) -> bool:
    return bool(meaning(a) == meaning(b))


def same_model(a: m.Edition, b: m.Edition) -> bool:
    """Two checked models equal but for positions and the folders of their files."""
    return same_meaning(a, b)
