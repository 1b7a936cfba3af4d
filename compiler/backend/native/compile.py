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
`CompileFailed` with the compiler's own messages. (Standard library only:
setup.py loads this file by its path to stamp the modules it builds.)

Each module carries a stamp: the SHA-256 of the C source it was compiled
from and the compiler's version, a string linked in from a second unit
(`stamp_unit`), read back from the file's bytes (`read_stamp`) without
loading it. A module whose source changed since is stale: the build
recompiles it, `build --check` names it, and loading refuses it (the
native package's `stale()`, written with the same marker).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.machinery
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

# QUICK: many throwaway modules (random editions, the sanitizers' builds),
# built faster; NATIVE_QUICK leaves out what serves speed alone (engine.c.j2).
OPTIMIZED, QUICK = ("-O3",), ("-O1", "-DNATIVE_QUICK")
WHAT_STILL_WORKS = "the native engines are not built; the pure-Python engines work"


class NativeUnavailable(Exception):
    """No C compiler or no Python headers: no extension module can be built."""


class CompileFailed(Exception):
    """The compiler refused a source; the message holds what it printed."""


class CompilerSetting(Exception):
    """$CC or $LDSHARED is not a command line (an unbalanced quote, say)."""


class OutputUnwritable(Exception):
    """The module's folder cannot be written; the message names the real path."""


def _config(name: str) -> str:
    value = sysconfig.get_config_var(name)
    return value if isinstance(value, str) else ""


def _split(variable: str, value: str) -> list[str]:
    """A command line from the environment, split as a shell would."""
    try:
        return shlex.split(value)
    except ValueError as error:
        raise CompilerSetting(f"${variable} is not a command line ({error}): {value!r}") from None


def compiler_command() -> list[str]:
    """The C compiler and its leading arguments: $CC, else the one this
    Python was built with (sysconfig's CC, often `gcc` or `cc -pthread`).
    CompilerSetting if $CC cannot be split into words."""
    return _split("CC", os.environ.get("CC") or _config("CC") or "cc")


def linker_command() -> list[str]:
    """The command that links a shared object: $LDSHARED, else sysconfig's,
    whose compiler is replaced by $CC when that is set (as setuptools does)."""
    if os.environ.get("LDSHARED"):
        return _split("LDSHARED", os.environ["LDSHARED"])
    built_with, linker = shlex.split(_config("CC") or "cc"), shlex.split(_config("LDSHARED"))
    if not linker:
        return [*compiler_command(), "-shared"]
    if linker[: len(built_with)] == built_with:
        linker = [*compiler_command(), *linker[len(built_with) :]]
    return linker


STAMP_MARKER = "splendor-rules-stamp:"
_STAMP_SAFE = re.compile(r"[^A-Za-z0-9 ._+()/:~-]")


class Stamp(NamedTuple):
    """What a module was compiled from: its C source's SHA-256, and the compiler."""

    source: str
    compiler: str


def source_hash(source: Path) -> str:
    return hashlib.sha256(source.read_bytes()).hexdigest()


def compiler_version() -> str:
    """The first line of `$CC --version` (made safe for a C string), or
    "unknown" if the compiler does not say."""
    return _version(tuple(compiler_command()))


@functools.cache
def _version(compiler: tuple[str, ...]) -> str:
    try:
        done = subprocess.run(
            [*compiler, "--version"], capture_output=True, text=True, check=False, timeout=60
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    lines = (done.stdout or done.stderr).strip().splitlines()
    return _STAMP_SAFE.sub("_", lines[0])[:200] if done.returncode == 0 and lines else "unknown"


def stamp_unit(source: Path) -> str:
    """A C unit that defines the stamp of a module compiled from `source`:
    an exported string, kept whole in the shared object."""
    text = f"{STAMP_MARKER}{source_hash(source)} {compiler_version()}"
    return (
        "/* The stamp of a splendor-rules native engine: its C source's SHA-256 and compiler. */\n"
        '__attribute__((used, visibility("default")))\n'
        f'const char splendor_rules_stamp[] = "{text}";\n'
    )


def read_stamp(module: Path) -> Stamp | None:
    """The stamp a compiled module carries, or None (not one of ours, or
    compiled before modules carried one)."""
    try:
        data = module.read_bytes()
    except OSError:
        return None
    at = data.find(STAMP_MARKER.encode())
    end = data.find(b"\0", at)
    if at < 0 or end < 0:
        return None
    text = data[at + len(STAMP_MARKER) : end].decode("ascii", "replace")
    source, _, compiler = text.partition(" ")
    return Stamp(source, compiler)


def stamp_problem(module: Path, source: Path) -> str | None:
    """Why a compiled module is not the one its source makes, or None."""
    stamp = read_stamp(module)
    if stamp is None:
        return f"{module.name} carries no hash of its C source"
    if stamp.source != source_hash(source):
        return f"{module.name} was compiled from another version of {source.name}"
    return None


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
    said: list[str] | None = None,
    extra_flags: Sequence[str] = (),
) -> Path:
    """Compile the C source of extension module `module` (a dotted name whose
    last part the source's PyInit_ function names) into `out_dir`, stamped
    with the source's hash; the path of the shared object. What the
    compiler printed (its warnings) is added to `said`, if given.

    The objects and the shared object are made in a temporary folder in
    `out_dir` (named after the module and this process, so the next build
    removes one a killed compile left) and the shared object renamed into
    place, so a reader sees the old module or the new one, never a part.
    NativeUnavailable without a compiler or headers; CompileFailed, with the
    compiler's messages, if the source does not compile or link, or the
    compiler writes nothing; OutputUnwritable if `out_dir` cannot be
    written. A process that has loaded the old file keeps it: load the new
    one in a new process. `extra_flags` are added to
    both steps (the tests' sanitizers and warnings, docs/testing.md).
    """
    require_native()
    target = extension_path(module, out_dir)
    remove_leftovers(out_dir, target.stem)
    level = OPTIMIZED if optimize else QUICK
    flags = [*_split("CFLAGS", _config("CFLAGS")), *_split("CCSHARED", _config("CCSHARED"))]
    try:
        folder = Path(tempfile.mkdtemp(prefix=f".{target.stem}.{os.getpid()}.", dir=out_dir))
    except OSError as error:
        raise OutputUnwritable(f"cannot write in {out_dir}: {error.strerror or error}") from None
    try:
        objects, stamp, built = folder / "module.o", folder / "stamp.o", folder / target.name
        (folder / "stamp.c").write_text(stamp_unit(source), "ascii")
        for unit, out in ((source, objects), (folder / "stamp.c", stamp)):
            command = [
                *compiler_command(),
                *flags,
                *level,
                *extra_flags,
                f"-I{include_folder()}",
                "-c",
            ]
            _run([*command, str(unit), "-o", str(out)], source, out, said)
        _run(
            [*linker_command(), *extra_flags, str(objects), str(stamp), "-o", str(built)],
            source,
            built,
            said,
        )
        try:
            os.replace(built, target)
        except OSError as error:
            raise OutputUnwritable(f"cannot write {target}: {error.strerror or error}") from None
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return target


def remove_leftovers(out_dir: Path, stem: str) -> list[Path]:
    """Remove the temporary folders of compiles of module `stem` in `out_dir`
    whose process is gone (killed halfway); the folders removed."""
    removed = []
    for folder in sorted(out_dir.glob(f".{stem}.*")):
        pid = folder.name[len(stem) + 2 :].partition(".")[0]
        if folder.is_dir() and not (pid.isdigit() and _alive(int(pid))):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _run(command: list[str], source: Path, made: Path, said: list[str] | None) -> None:
    """Run one step of the compiler; CompileFailed with its output if it
    fails or does not make `made`."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as error:  # the program went missing, or is not one
        raise NativeUnavailable(
            f"cannot run {command[0]} ({error.strerror or error}): {WHAT_STILL_WORKS}"
        ) from error
    output = (done.stderr + done.stdout).strip()
    if done.returncode != 0:
        raise CompileFailed(
            f"{source} did not compile (exit {done.returncode}): {shlex.join(command)}\n{output}"
        )
    if not made.is_file():
        raise CompileFailed(
            f"{source} did not compile: {shlex.join(command[:1])} exited 0 but wrote no "
            f"{made.name} (is $CC a C compiler?): {shlex.join(command)}"
            + (f"\n{output}" if output else "")
        )
    if output and said is not None:
        said.append(f"{source.name}: {shlex.join(command[:1])} said:\n{output}")


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
