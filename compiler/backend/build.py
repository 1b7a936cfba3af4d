"""The build: every edition through a target, and the files written.

Rendering is a pure function from the models to texts (`build_all`);
deciding which files are stale (`stale`, `extra`) and writing them
(`write`) are separate steps, so `splendor-rules build --check` renders
and compares without writing. A file is written atomically (a temporary
file in the same folder, then `os.replace`), and only if its text changed.

The native target's C sources (generated/native/<edition>.c) are then
compiled into extension modules beside them (`stale_extensions`,
`compile_extensions`), each when it is missing or older than its source,
as an editable install does.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from splendor_rules.compiler.backend.native.compile import compile_extension, extension_path
from splendor_rules.compiler.backend.target import Target
from splendor_rules.dsl.diagnostics import Diagnostic


class BuildError(Exception):
    """An edition does not check, so no engine can be built from it."""

    def __init__(self, path: Path, diagnostics: list[Diagnostic]) -> None:
        super().__init__(f"{path} does not check")
        self.path = path
        self.diagnostics = diagnostics


def default_target() -> Target:
    from splendor_rules.compiler.backend.python.target import PYTHON

    return PYTHON


NATIVE_TARGET = "splendor_rules.compiler.backend.native.target"


def native_target() -> Target | None:
    """The native target (C extension modules), or None in a version of the
    project that has none."""
    try:
        module = importlib.import_module(NATIVE_TARGET)
    except ModuleNotFoundError as error:
        if error.name != NATIVE_TARGET:
            raise
        return None
    native: Target = module.NATIVE
    return native


def render_engines(folder: Path, out: Path, target: Target | None = None) -> dict[Path, str]:
    """The text of the engine of every edition in `folder`, by its path in `out`.

    Raises BuildError when an edition does not check.
    """
    from splendor_rules.compiler.frontend.pipeline import compile_file, edition_files

    target = target or default_target()
    texts: dict[Path, str] = {}
    for path in edition_files(folder):
        compiled = compile_file(path)
        if not compiled.ok or compiled.model is None:
            raise BuildError(path, compiled.diagnostics)
        for name, text in target.render_files(compiled.model, folder.parent).items():
            texts[out / name] = text
    return texts


def build_all(folder: Path, out: Path, target: Target | None = None) -> dict[Path, str]:
    """Every file of the output folder by path: the engines of the editions
    in `folder` (render_engines), then the target's package files.

    Raises BuildError when an edition does not check.
    """
    target = target or default_target()
    texts = render_engines(folder, out, target)
    editions = sorted(path.stem for path in texts if path.name == target.engine_file(path.stem))
    for name, text in target.package_files(editions).items():
        texts[out / name] = text
    return texts


def stale(texts: dict[Path, str]) -> list[Path]:
    """The files whose text on disk is not the given one (or that are missing)."""
    return [
        path
        for path, text in texts.items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]


def extra(texts: dict[Path, str], out: Path, target: Target | None = None) -> list[Path]:
    """The engine files in `out` that the build would not write (left over
    from an edition that is gone)."""
    target = target or default_target()
    return [
        path for path in sorted(out.iterdir()) if target.is_engine_file(path) and path not in texts
    ]


def write(texts: dict[Path, str]) -> list[Path]:
    """Write the stale files, each atomically; the paths written."""
    written = stale(texts)
    for path in written:
        write_atomically(path, texts[path])
    return written


def write_atomically(path: Path, data: str | bytes) -> None:
    """Replace a file's contents at once: a reader sees the old contents or
    the new, never a part (a temporary file in the same folder, then
    os.replace). Text is written as UTF-8 with '\\n' line ends."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        # Created as any new file is (mode 0o666 less the umask), not 0o600.
        if isinstance(data, str):
            with temporary.open("x", encoding="utf-8", newline="\n") as text:
                text.write(data)
        else:
            with temporary.open("xb") as binary:
                binary.write(data)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


# ------------------------------------------------------ native extensions

# generated/native/<stem>.c is the source of this package's extension module
# _<stem> (setup.py builds the same modules on install).
NATIVE_FOLDER = "native"
NATIVE_PACKAGE = "splendor_rules.generated.native"


def native_sources(folder: Path) -> list[Path]:
    """The C sources of the native engines in `folder` (generated/native)."""
    return sorted(folder.glob("*.c")) if folder.is_dir() else []


def extension_module(source: Path) -> str:
    """The extension module a native engine's C source is compiled into."""
    return f"{NATIVE_PACKAGE}._{source.stem}"


def stale_extensions(folder: Path) -> list[Path]:
    """The C sources in `folder` whose extension module is missing or older
    than they are (the ones `splendor-rules build` compiles)."""
    stale_sources = []
    for source in native_sources(folder):
        built = extension_path(extension_module(source), folder)
        if not built.exists() or built.stat().st_mtime_ns < source.stat().st_mtime_ns:
            stale_sources.append(source)
    return stale_sources


def compile_extensions(sources: Sequence[Path], *, optimize: bool = True) -> list[Path]:
    """Compile each C source into its extension module beside it, as many
    at once as there are cores; the modules' paths, in the sources' order.

    Raises NativeUnavailable (no compiler or headers) or CompileFailed (the
    first source, in order, that does not compile), as compile_extension."""

    def one(source: Path) -> Path:
        return compile_extension(source, extension_module(source), source.parent, optimize=optimize)

    with ThreadPoolExecutor(max_workers=max(1, min(len(sources), os.cpu_count() or 1))) as pool:
        return list(pool.map(one, sources))
