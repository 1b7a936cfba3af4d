"""The fingerprint of an edition's rules: a short hash of its checked model.

A record names the rules it was played under by this fingerprint, so that
replaying it against other rules is noticed (docs/records.md). It is taken
from the checked model, not from the file's bytes, so that what does not
change the rules does not change it: comments, layout, the order of the
text within a declaration, the names of the files, where each part is
written (spans), and the reference rulebooks' wording of each rule id.
Everything the model says the game is (names, numbers, card and tile rows,
statements, their order) is in it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

import attrs

from splendor_rules.compiler.frontend import model as m
from splendor_rules.dsl.syntax import Span

# Fields that say where or how a part is written, not what it means.
_LEFT_OUT = frozenset({"span", "file", "rule_texts"})
DIGITS = 16  # hexadecimal digits of the SHA-256 kept: 64 bits


def fingerprint(edition: m.Edition) -> str:
    """`sha256:` and the first DIGITS hexadecimal digits of the hash of the
    model's canonical JSON form (`canonical`)."""
    text = json.dumps(canonical(edition), separators=(",", ":"), ensure_ascii=True)
    return "sha256:" + hashlib.sha256(text.encode("ascii")).hexdigest()[:DIGITS]


def _default_left_out(field: Any, value: Any) -> bool:
    """A field added to the language after editions were fingerprinted is
    left out while it holds its default (its metadata says `added`), so
    that the editions that do not use it keep their fingerprints."""
    return bool(field.metadata.get("added")) and getattr(value, field.name) == field.default


def canonical(value: Any) -> Any:
    """A model part as plain JSON data: each attrs object as its class name
    and its fields (less those of _LEFT_OUT), a mapping as its pairs in
    order, a span as nothing (the ids of `Edition.rule_ids` are kept)."""
    if isinstance(value, Span):
        return None
    if attrs.has(type(value)):
        fields = {
            field.name: canonical(getattr(value, field.name))
            for field in attrs.fields(type(value))
            if field.name not in _LEFT_OUT and not _default_left_out(field, value)
        }
        return [type(value).__name__, fields]
    if isinstance(value, Mapping):
        return [[canonical(key), canonical(item)] for key, item in value.items()]
    if isinstance(value, tuple | list | frozenset | set):
        items = [canonical(item) for item in value]
        return sorted(items, key=json.dumps) if isinstance(value, frozenset | set) else items
    if value is None or isinstance(value, bool | int | str):
        return value
    raise TypeError(f"no canonical form for {type(value).__name__}")
