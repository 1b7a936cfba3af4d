"""The build: every edition through a target, and the files written.

Rendering is a pure function from the models to texts (`render`);
deciding which files are stale (`stale`, `extra`) and writing them
(`write`) are separate steps, so `splendor-rules build --check` renders
and compares without writing. A file is written atomically (a temporary
file in the same folder, then `os.replace`), and only if its text changed.

`render` is the one build: the command line calls it and prints what it
returns. Which targets exist is `targets.TARGETS`.

A compiled target's C sources (generated/native/<edition>.c) are then
compiled into extension modules beside them (`compile_output`), each when
it is missing or not stamped with its source's hash and today's compiler.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from attrs import Factory, define

from splendor_rules.compiler.backend import targets
from splendor_rules.compiler.backend.native.compile import (
    NativeUnavailable,
    OutputUnwritable,
    compile_extension,
    compiler_version,
    extension_path,
    native_available,
    read_stamp,
    source_hash,
    stamp_problem,
)
from splendor_rules.compiler.backend.target import Target
from splendor_rules.compiler.backend.unprinted import NotPrinted
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import compile_file, edition_files
from splendor_rules.dsl.diagnostics import Diagnostic, Sources, display_path


class BuildError(Exception):
    """An edition does not check, so no engine can be built from it."""

    def __init__(self, path: Path, diagnostics: list[Diagnostic]) -> None:
        super().__init__(f"{path} does not check")
        self.path = path
        self.diagnostics = diagnostics


class WriteFailed(Exception):
    """A file of the build could not be written; the files written before it."""

    def __init__(self, path: Path, error: OSError, written: list[Path]) -> None:
        super().__init__(f"cannot write {path}: {error.strerror or error}")
        self.path, self.error, self.written = path, error, written


def default_target() -> Target:
    return targets.TARGETS[0]


def chosen(which: str) -> list[Target]:
    """The registered targets a command line asks for: one by name, or "all"."""
    return list(targets.TARGETS) if which == "all" else [targets.named(which)]


def output_folder(generated: Path, target: Target) -> Path:
    """Where a target's files go: its folder under generated/."""
    return generated / target.folder if target.folder else generated


@define
class Output:
    """What one target's output folder should hold: the engines of the
    editions that build, by path, and the package files."""

    target: Target
    folder: Path
    engines: dict[Path, Path] = Factory(dict)  # an engine file -> the rule file it is built from
    texts: dict[Path, str] = Factory(dict)  # every file of the editions' engines
    package: dict[Path, str] = Factory(dict)  # the package files (none if an edition fails)

    def files(self) -> dict[Path, str]:
        """Every file of the folder the build writes, by path."""
        return {**self.texts, **self.package}


@define
class Build:
    """The outputs of a build, and why the editions that do not build do not:
    each mistake said, and the diagnostics of each rule file that does not
    check (with its Sources, to render them)."""

    outputs: list[Output]
    diagnostics: list[tuple[Diagnostic, Sources]] = Factory(list)
    mistakes: list[str] = Factory(list)
    failed: list[tuple[Path, list[Diagnostic]]] = Factory(list)  # rule files that do not check

    @property
    def ok(self) -> bool:
        return not self.mistakes


def render(folder: Path, outputs: Sequence[tuple[Target, Path]]) -> Build:
    """Every edition of `folder` through each target into its output folder.

    Each edition is compiled on its own, so that one that does not check
    does not hide the mistakes of the next. An engine is named after the
    edition its rule file declares; two rule files that declare one name,
    or a name whose engine file would be a file of the package, are
    mistakes. The package files are rendered only when every edition builds.
    """
    build = Build([Output(target, out) for target, out in outputs])
    for path in edition_files(folder):
        sources = Sources()
        compiled = compile_file(path, sources)
        build.diagnostics.extend((diagnostic, sources) for diagnostic in compiled.diagnostics)
        if not compiled.ok or compiled.model is None:
            build.mistakes.append(f"{display_path(path)} does not check")
            build.failed.append((path, compiled.diagnostics))
            continue
        for output in build.outputs:
            refused = _engine(build, output, path, compiled.model, folder)
            build.diagnostics.extend((diagnostic, sources) for diagnostic in refused)
    packages = [_package(build, output) for output in build.outputs]
    if build.ok:
        for output, package in zip(build.outputs, packages, strict=True):
            output.package = package
    return build


def _engine(
    build: Build, output: Output, path: Path, model: m.Edition, folder: Path
) -> list[Diagnostic]:
    """One edition's engine files in an output, or the mistake that stops
    them (with its diagnostics, when the target does not print the edition)."""
    try:
        engine = output.folder / output.target.engine_file(model.name)
    except ValueError as error:
        build.mistakes.append(f"{display_path(path)}: no engine file for this name: {error}")
        return []
    if engine in output.engines:
        build.mistakes.append(
            f"{display_path(output.engines[engine])} and {display_path(path)} both build "
            f"{display_path(engine)}: rename one edition"
        )
        return []
    try:
        files = output.target.render_files(model, folder.parent)
    except NotPrinted as refused:
        build.mistakes += [f"{display_path(path)}: {d.message}" for d in refused.diagnostics]
        build.failed.append((path, refused.diagnostics))
        return refused.diagnostics
    output.engines[engine] = path
    for name, text in files.items():
        output.texts[output.folder / name] = text
    return []


def _package(build: Build, output: Output) -> dict[Path, str]:
    """The package files of an output; an engine that would be one is a mistake."""
    editions = sorted(engine.stem for engine in output.engines)
    package = {
        output.folder / name: text for name, text in output.target.package_files(editions).items()
    }
    for engine in sorted(set(output.engines) & set(package)):
        del output.texts[engine]
        build.mistakes.append(
            f"{display_path(output.engines[engine])}: its engine would be "
            f"{display_path(engine)}, a file of the package: rename the edition"
        )
    return package


def _rendered(folder: Path, out: Path, target: Target | None) -> Output:
    """One target's output, or BuildError for the first edition that does not check."""
    build = render(folder, [(target or default_target(), out)])
    if build.failed:
        raise BuildError(*build.failed[0])
    if not build.ok:
        raise BuildError(folder, [])
    return build.outputs[0]


def render_engines(folder: Path, out: Path, target: Target | None = None) -> dict[Path, str]:
    """The text of the engine of every edition in `folder`, by its path in `out`.

    Raises BuildError when an edition does not check.
    """
    return _rendered(folder, out, target).texts


def build_all(folder: Path, out: Path, target: Target | None = None) -> dict[Path, str]:
    """Every file of the output folder by path: the engines of the editions
    in `folder` (render_engines), then the target's package files.

    Raises BuildError when an edition does not check.
    """
    return _rendered(folder, out, target).files()


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
    """Write the stale files, each atomically, making their folders; the
    paths written. WriteFailed names the file that could not be, and the
    ones written before it."""
    written: list[Path] = []
    for path in stale(texts):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(path, texts[path])
        except OSError as error:
            raise WriteFailed(path, error, written) from error
        written.append(path)
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


# ------------------------------------------------------ compiled targets

# For a compiled target, <folder>/<stem>.c is the source of its package's
# extension module _<stem> (setup.py builds the same modules on install).


def native_sources(folder: Path) -> list[Path]:
    """The C sources of the compiled engines in `folder` (generated/native)."""
    return sorted(folder.glob("*.c")) if folder.is_dir() else []


def extension_module(source: Path, package: str) -> str:
    """The extension module a compiled engine's C source is compiled into."""
    return f"{package}._{source.stem}"


def module_of(source: Path, package: str) -> Path:
    """The file of the extension module compiled from `source`, beside it."""
    return extension_path(extension_module(source, package), source.parent)


def stale_extensions(folder: Path, package: str) -> list[Path]:
    """The C sources in `folder` whose extension module is missing, was not
    compiled from them (its stamp), or by another compiler than today's
    (the ones `splendor-rules build` compiles)."""
    compiler = compiler_version() if native_available() is None else None
    found = []
    for source in native_sources(folder):
        stamp = read_stamp(module_of(source, package))
        other_compiler = stamp is not None and compiler not in (None, stamp.compiler)
        if stamp is None or stamp.source != source_hash(source) or other_compiler:
            found.append(source)
    return found


def stale_modules(folder: Path, package: str) -> list[tuple[Path, str]]:
    """The extension modules in `folder` not compiled from the source beside
    them, each with why: what loading refuses and `build --check` names."""
    found = []
    for source in native_sources(folder):
        module = module_of(source, package)
        problem = stamp_problem(module, source) if module.exists() else None
        if problem is not None:
            found.append((module, problem))
    return found


def compile_extensions(
    sources: Sequence[Path], package: str, *, optimize: bool = True, said: list[str] | None = None
) -> list[Path]:
    """Compile each C source into its extension module beside it, as many
    at once as there are cores; the modules' paths, in the sources' order.

    Raises NativeUnavailable (no compiler or headers) or CompileFailed (the
    first source, in order, that does not compile), as compile_extension."""
    outputs: list[list[str]] = [[] for _ in sources]

    def one(index: int) -> Path:
        source = sources[index]
        module = extension_module(source, package)
        return compile_extension(
            source, module, source.parent, optimize=optimize, said=outputs[index]
        )

    with ThreadPoolExecutor(max_workers=max(1, min(len(sources), os.cpu_count() or 1))) as pool:
        built = list(pool.map(one, range(len(sources))))
    if said is not None:
        said.extend(line for output in outputs for line in output)
    return built


@define
class Compiled:
    """What compiling a target's engines did: the sources compiled (or why
    none could be), the current ones, the stale modules removed for want of
    a compiler, and what the compiler said."""

    sources: list[Path]
    done: list[Path] = Factory(list)
    unavailable: str | None = None
    removed: list[tuple[Path, str]] = Factory(list)
    said: list[str] = Factory(list)


def compile_output(output: Output) -> Compiled:
    """Compile each engine of a compiled target's output whose module is
    stale. Without a compiler, a module not compiled from its source is
    removed (a stale engine would play the old rules) and the reason kept.
    Raises CompileFailed, CompilerSetting or OutputUnwritable."""
    folder, package = output.folder, output.target.package
    result = Compiled(native_sources(folder))
    reason = native_available()
    if reason is None:
        todo = stale_extensions(folder, package)
        try:
            compile_extensions(todo, package, said=result.said)
        except NativeUnavailable as error:
            reason = str(error)
        else:
            result.done = todo
            return result
    result.unavailable = reason
    for module, problem in stale_modules(folder, package):
        try:
            module.unlink()
        except OSError as error:
            raise OutputUnwritable(
                f"cannot remove the stale {module}: {error.strerror or error}"
            ) from None
        result.removed.append((module, problem))
    return result
