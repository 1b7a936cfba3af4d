"""One version of an open rule file, checked: its diagnostics, its checked
model and the index of its names, made once per edit and read by every
request until the next."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator, MutableMapping
from pathlib import Path

from attrs import define

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.editions import ResolvedEdition
from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file
from splendor_rules.compiler.tools.lsp.index import Index, Where, build_index, model_expressions
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import Diagnostic, Sources, display_path

Parsed = tuple[s.Edition | None, list[Diagnostic]]


class Trees(MutableMapping[tuple[str, str], Parsed]):
    """Rule files parsed before, by (file, text): the most recent `size`
    kept, so that the parents of an edited file are parsed once, and the
    versions of the file typed through are dropped."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, str], Parsed] = OrderedDict()

    def __getitem__(self, key: tuple[str, str]) -> Parsed:
        value = self._items[key]
        self._items.move_to_end(key)
        return value

    def __setitem__(self, key: tuple[str, str], value: Parsed) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def __delitem__(self, key: tuple[str, str]) -> None:
        del self._items[key]

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


@define
class Analysis:
    """A rule file's text as the editor holds it, checked."""

    path: Path
    file: str  # as diagnostics name it
    text: str
    compiled: Compiled
    sources: Sources
    tree: s.Edition | None  # None: the file does not parse
    index: Index | None  # None: the file does not parse
    expressions: dict[Where, m.Expr]

    @property
    def model(self) -> m.Edition | None:
        return self.compiled.model

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.compiled.diagnostics


def analyse(path: Path, text: str, trees: Trees) -> Analysis:
    """Check a rule file's unsaved text (its parents and data read from
    disk, relative to it) and index its names."""
    path = path.resolve()
    sources = Sources()
    compiled = compile_file(path, sources, texts={path: text}, parsed=trees)
    file = display_path(path)
    own = trees.get((file, sources.text(file) or ""))
    tree = own[0] if own is not None else None
    chain = _chain(compiled.resolved, sources, trees)
    if not chain and tree is not None:  # not resolved: the file alone
        chain = [(file, tree)]
    expressions = model_expressions(compiled.model)
    index = build_index(chain, expressions) if chain else None
    return Analysis(path, file, text, compiled, sources, tree, index, expressions)


def _chain(
    resolved: ResolvedEdition | None, sources: Sources, trees: Trees
) -> list[tuple[str, s.Edition]]:
    """Each file of the edition and its ancestors, with its tree, root first."""
    chain: list[tuple[str, s.Edition]] = []
    while resolved is not None:
        text = sources.text(resolved.file)
        parsed = trees.get((resolved.file, text)) if text is not None else None
        if parsed is None or parsed[0] is None:
            return []
        chain.append((resolved.file, parsed[0]))
        resolved = resolved.parent
    return chain[::-1]


def locate(file: str) -> Path:
    """The path of a file as diagnostics name it (relative to the working folder)."""
    path = Path(file)
    return path if path.is_absolute() else (Path.cwd() / path).resolve()
