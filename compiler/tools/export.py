"""A rule file's engines written where a user wants them (`build FILE --out DIR`).

DIR is written as a Python package named after its last part (so that
part must be a Python identifier): `DIR/<edition>.py`, the pure-Python
engine, and `DIR/native/`, the native engine: its C source `<edition>.c`,
the stub `_<edition>.pyi`, the engine module `<edition>.py` (over the
compiled module and the Python engine of DIR), and the compiled module
itself where a C compiler is present. With DIR's parent folder on
sys.path, `import DIR.native.<edition>` is the native engine. Each file is
written atomically; files of other editions in DIR are left alone.
"""

from __future__ import annotations

from pathlib import Path

from attrs import frozen

from splendor_rules.compiler.backend.build import write_atomically
from splendor_rules.compiler.backend.native import compile as native_compile
from splendor_rules.compiler.backend.native.target import render_files
from splendor_rules.compiler.backend.python.target import PYTHON
from splendor_rules.compiler.backend.source import ident
from splendor_rules.compiler.backend.unprinted import NotPrinted
from splendor_rules.compiler.frontend import model as m


class ExportError(Exception):
    """DIR cannot take the engines; the message says why."""


@frozen
class Exported:
    """What was written: the files, the compiled module (None if none) and
    why there is none, and what the C compiler said."""

    files: tuple[Path, ...]
    module: Path | None
    unavailable: str | None
    said: tuple[str, ...]


def export_engines(
    model: m.Edition, rule_file: Path, out: Path, native_too: bool = True
) -> Exported:
    """Write a checked edition's engines into the package folder `out` (see
    the module); the native one (unless not `native_too`) compiled where it
    can be. ExportError if
    `out` is not a package name or cannot be written; CompileFailed (or
    CompilerSetting) passes through."""
    package = out.resolve().name
    if not package.isidentifier():
        raise ExportError(
            f"{out} must be named as a Python package (a letter or _, then letters, digits or _): "
            "its engines import each other by that name"
        )
    module = ident("", model.name)
    native = out / "native"
    texts = {
        out / "__init__.py": f'"""Engines written by splendor-rules build --out {package}."""\n',
        out / f"{module}.py": PYTHON.render_engine(model, rule_file.parent),
        native / "__init__.py": '"""Native engines written by splendor-rules build --out."""\n',
    }
    refused: str | None = None  # the native target does not print the edition
    if native_too:
        try:
            files = render_files(
                model, rule_file.parent, python_package=package, native_package=f"{package}.native"
            )
            texts.update({native / name: text for name, text in files.items()})
        except NotPrinted as error:
            refused = str(error)
    if not native_too or refused is not None:
        del texts[native / "__init__.py"]
    try:
        for path, text in texts.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.name != "__init__.py" or not path.exists():
                write_atomically(path, text)
    except OSError as error:
        raise ExportError(f"cannot write in {out}: {error.strerror or error}") from error
    reason = native_compile.native_available() if native_too else "not asked for (--target)"
    reason = refused or reason
    if reason is not None:
        return Exported(tuple(texts), None, reason, ())
    said: list[str] = []
    try:
        built = native_compile.compile_extension(
            native / f"{module}.c", f"{package}.native._{module}", native, said=said
        )
    except native_compile.NativeUnavailable as error:
        return Exported(tuple(texts), None, str(error), tuple(said))
    except native_compile.OutputUnwritable as error:
        raise ExportError(str(error)) from error
    return Exported(tuple(texts), built, None, tuple(said))
