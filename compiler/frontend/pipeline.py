"""The front end as one call: rule file -> parse -> resolve -> check -> model.

Each stage lives in its own module; this one only runs them in order and
gathers their diagnostics.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from pathlib import Path

from attrs import define, field

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks import check_edition
from splendor_rules.compiler.frontend.editions import (
    EditionLoader,
    ParseCache,
    ResolvedEdition,
    same_name_beside,
)
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import Diagnostic, Sources, has_errors, hint_budget


def editions_folder() -> Path:
    """The folder of the editions that ship with the compiler."""
    return Path(str(resources.files("splendor_rules.editions")))


def edition_files(folder: Path | None = None) -> list[Path]:
    return sorted((folder or editions_folder()).glob("*.rules"))


@define
class Compiled:
    path: Path
    resolved: ResolvedEdition | None
    model: m.Edition | None
    diagnostics: list[Diagnostic] = field(factory=list)

    @property
    def ok(self) -> bool:
        return self.model is not None and not has_errors(self.diagnostics)


def compile_file(
    path: Path,
    sources: Sources | None = None,
    *,
    texts: Mapping[Path, str] | None = None,
    parsed: ParseCache | None = None,
) -> Compiled:
    """Check one rule file (and the editions it extends). `texts`: rule
    files' text to read instead of the disk's, by resolved path (an editor's
    unsaved buffers); `parsed`: trees parsed in earlier runs, kept by the caller."""
    with hint_budget():
        loader = EditionLoader(
            [editions_folder()], sources if sources is not None else Sources(), texts, parsed
        )
        return _compile(path, loader)


def _compile(path: Path, loader: EditionLoader) -> Compiled:
    sources = loader.sources
    resolved = loader.load(path)
    diagnostics = list(loader.diagnostics)
    if resolved is not None:
        name = s.Name(span=resolved.span, text=resolved.name)
        diagnostics.extend(same_name_beside(path, name))
    model = None
    if resolved is not None and not has_errors(diagnostics):
        model, found = check_edition(resolved, sources)
        diagnostics.extend(found)
    diagnostics.sort(key=lambda d: (d.span.file, d.span.line, d.span.column))
    return Compiled(path, resolved, model, _unique(diagnostics))


def _unique(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    return list(dict.fromkeys(diagnostics))
