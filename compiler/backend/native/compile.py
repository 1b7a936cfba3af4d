"""One C source compiled into a CPython extension module, and loaded.

The native engines are C extension modules. `pip install` builds them
through setuptools (setup.py); `splendor-rules build` and the tests build
them here, with the compiler and flags this Python was built with (sysconfig:
CC, CFLAGS, CCSHARED, LDSHARED and the include folder, CC and LDSHARED
overridable from the environment as for setuptools) plus a fixed
optimisation level, so that the same source always gets the same command.

A machine without a C compiler or without Python's headers has no native
engines, and nothing else is lost: `native_available()` says why once,
`NativeUnavailable` carries it. A source that does not compile raises
`CompileFailed` with the compiler's own messages.
"""

from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

OPTIMIZED, QUICK = "-O3", "-O1"  # -O1: many throwaway modules (random editions), built faster
WHAT_STILL_WORKS = "the native engines are not built; the pure-Python engines work"


class NativeUnavailable(Exception):
    """No C compiler or no Python headers: no extension module can be built."""


class CompileFailed(Exception):
    """The compiler refused a source; the message holds what it printed."""


def _config(name: str) -> str:
    value = sysconfig.get_config_var(name)
    return value if isinstance(value, str) else ""


def compiler_command() -> list[str]:
    """The C compiler and its leading arguments: $CC, else the one this
    Python was built with (sysconfig's CC, often `gcc` or `cc -pthread`)."""
    return shlex.split(os.environ.get("CC") or _config("CC") or "cc")


def linker_command() -> list[str]:
    """The command that links a shared object: $LDSHARED, else sysconfig's,
    whose compiler is replaced by $CC when that is set (as setuptools does)."""
    if os.environ.get("LDSHARED"):
        return shlex.split(os.environ["LDSHARED"])
    built_with, linker = shlex.split(_config("CC") or "cc"), shlex.split(_config("LDSHARED"))
    if not linker:
        return [*compiler_command(), "-shared"]
    if linker[: len(built_with)] == built_with:
        linker = [*compiler_command(), *linker[len(built_with) :]]
    return linker


def include_folder() -> Path:
    """Where Python.h is."""
    return Path(sysconfig.get_paths()["include"])


def native_available() -> str | None:
    """None if extension modules can be built here, else the reason, as a
    phrase ("no C compiler found (cc)"). Decided once per compiler and
    include folder."""
    return _availability(tuple(compiler_command()), str(include_folder()))


@functools.cache
def _availability(compiler: tuple[str, ...], include: str) -> str | None:
    if not compiler or shutil.which(compiler[0]) is None:
        return f"no C compiler found ({compiler[0] if compiler else 'CC is empty'})"
    if not (Path(include) / "Python.h").is_file():
        return f"no Python headers (no Python.h in {include})"
    return None


def require_native() -> None:
    """NativeUnavailable, with its reason, if no extension can be built here."""
    reason = native_available()
    if reason is not None:
        raise NativeUnavailable(f"{reason}: {WHAT_STILL_WORKS}")


def extension_path(module: str, out_dir: Path) -> Path:
    """The file of extension module `module` (dotted) in `out_dir`: the last
    part of its name and this Python's extension suffix (_classic.cpython-311-…so)."""
    return out_dir / (module.rpartition(".")[2] + importlib.machinery.EXTENSION_SUFFIXES[0])


def compile_extension(
    source: Path,
    module: str,
    out_dir: Path,
    *,
    optimize: bool = True,
    extra_flags: Sequence[str] = (),
) -> Path:
    """Compile the C source of extension module `module` (a dotted name whose
    last part the source's PyInit_ function names) into `out_dir`; the path
    of the shared object.

    The object file and the shared object are made under temporary names in
    `out_dir` and the shared object renamed into place, so a reader sees the
    old module or the new one, never a part. NativeUnavailable without a
    compiler or headers; CompileFailed, with the compiler's messages, if the
    source does not compile or link. A process that has loaded the old file
    keeps it: load the new one in a new process. `extra_flags` are added to
    both steps (the tests' sanitizers and warnings, docs/testing.md).
    """
    require_native()
    target = extension_path(module, out_dir)
    level = OPTIMIZED if optimize else QUICK
    with tempfile.TemporaryDirectory(prefix=f".{target.stem}.", dir=out_dir) as folder:
        objects, built = Path(folder) / "module.o", Path(folder) / target.name
        _run(
            [
                *compiler_command(),
                *shlex.split(_config("CFLAGS")),
                *shlex.split(_config("CCSHARED")),
                level,
                *extra_flags,
                f"-I{include_folder()}",
                "-c",
                str(source),
                "-o",
                str(objects),
            ],
            source,
        )
        _run([*linker_command(), *extra_flags, str(objects), "-o", str(built)], source)
        os.replace(built, target)
    return target


def _run(command: list[str], source: Path) -> None:
    """Run one step of the compiler; CompileFailed with its output if it fails."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as error:  # the program went missing, or is not one
        raise NativeUnavailable(
            f"cannot run {command[0]} ({error.strerror or error}): {WHAT_STILL_WORKS}"
        ) from error
    if done.returncode != 0:
        said = (done.stderr + done.stdout).strip()
        raise CompileFailed(
            f"{source} did not compile (exit {done.returncode}): {shlex.join(command)}\n{said}"
        )


def load_extension(path: Path, module: str) -> ModuleType:
    """The extension module at `path`, loaded and initialised as `module`,
    and entered in sys.modules under that name as an import would."""
    spec = importlib.util.spec_from_file_location(module, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is not an extension module", name=module, path=str(path))
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[module] = loaded
    try:
        spec.loader.exec_module(loaded)
    except BaseException:
        del sys.modules[module]
        raise
    return loaded
