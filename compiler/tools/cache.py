"""The per-user cache of the engines of rule files, Python and native.

A rule file named on a command line (`play my.rules`) gets its engines
built on demand into this cache, once: the Python target's module, and the
native target's C engine compiled into an extension module where a C
compiler is present. Nothing is written inside the installed package.

Where: `$SPLENDOR_RULES_CACHE` if set, else the platform's user cache
folder (`platformdirs.user_cache_dir("splendor-rules")`, on Linux
`~/.cache/splendor-rules`). Each entry is a folder `engines/<target>-<key>`,
a Python package of its own (so that one process can load two builds of one
edition), keyed by the SHA-256 of: every file the check of the rule file
read (the file, the editions it extends, its data tables and reference
rulebooks: their contents, in the order read), the compiler's version (the
package's version and the hash of its own sources, `compiler_version`) and
the target (for native: also the C compiler's version and this Python's
extension suffix). A manifest per rule file (its path, its contents and the
rule files beside it) lists what its last check read, so that a cached
engine is found by hashing those files again, without checking the rule
file anew.

An entry is built in a temporary folder and renamed into place whole
(atomic), under a file lock of its key (`filelock`), so that two processes
building the same file at once build it once and neither sees a part. The
cache is bounded (`$SPLENDOR_RULES_CACHE_MB`, default BOUND_MB): after a
build the entries used least recently are removed until the rest fit, never
the one just built nor one another process holds.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.machinery
import importlib.metadata
import importlib.util
import json
import os
import py_compile
import shutil
import sys
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Literal

from attrs import frozen
from filelock import FileLock, Timeout

from splendor_rules.compiler.backend.build import write_atomically
from splendor_rules.compiler.backend.native import compile as native_compile
from splendor_rules.compiler.backend.native.target import render_files
from splendor_rules.compiler.backend.python.target import PYTHON
from splendor_rules.compiler.backend.source import ident
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.files import recording_reads

Target = Literal["python", "native"]
TARGETS: tuple[Target, ...] = ("python", "native")
FOLDER_VARIABLE = "SPLENDOR_RULES_CACHE"
BOUND_VARIABLE = "SPLENDOR_RULES_CACHE_MB"
BOUND_MB = 256  # about 500 native entries of a classic-sized edition (0.5 MB each)
ENTRY_FILE = "entry.json"  # written last: an entry folder without it is not one
LOCK_WAIT = 900.0  # seconds to wait for another process's build (a slow compile)


class CacheError(Exception):
    """The cache cannot be used (its folder cannot be written); the message says why."""


def cache_folder() -> Path:
    """The cache's folder: $SPLENDOR_RULES_CACHE, else the user's cache folder."""
    given = os.environ.get(FOLDER_VARIABLE)
    if given:
        return Path(given).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("splendor-rules"))


def bound() -> int:
    """The cache's bound in bytes: $SPLENDOR_RULES_CACHE_MB megabytes, else BOUND_MB."""
    given = os.environ.get(BOUND_VARIABLE, "")
    megabytes = int(given) if given.strip().isdigit() else BOUND_MB
    return megabytes * 1024 * 1024


def _sources_of(package: str) -> Iterator[Path]:
    folder = Path(str(importlib.import_module(package).__path__[0]))
    for pattern in ("*.py", "*.lark", "*.j2"):
        yield from folder.rglob(pattern)


_COMPILER_PACKAGES = (
    "splendor_rules.dsl",
    "splendor_rules.compiler.frontend",
    "splendor_rules.compiler.backend",
)


def _compiler_files() -> list[tuple[str, Path]]:
    """The compiler's own source files, each with a stable name."""
    found = []
    for package in _COMPILER_PACKAGES:
        root = Path(str(importlib.import_module(package).__path__[0]))
        found += [(f"{package}/{p.relative_to(root).as_posix()}", p) for p in _sources_of(package)]
    return sorted(found)


@functools.cache
def compiler_version() -> str:
    """The package's version and the SHA-256 of the compiler's own sources
    (the language, the front end and the back ends): a changed compiler
    makes new entries. The hash of the contents is kept in the cache under
    the files' names, sizes and modification times, so that a process
    reads them only when one of those has changed."""
    try:
        version = importlib.metadata.version("splendor-rules")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    files = _compiler_files()
    stats = [(name, path.stat()) for name, path in files]
    signature = _hash(version, *(f"{n} {s.st_size} {s.st_mtime_ns}" for n, s in stats))
    memo = cache_folder() / "versions" / signature
    try:
        return memo.read_text(encoding="ascii")
    except OSError:
        pass
    digest = hashlib.sha256()
    for name, path in files:
        digest.update(name.encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    found = f"{version}+{digest.hexdigest()[:16]}"
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(memo, found)
    except OSError:
        pass  # an unwritable cache: computed again next time
    return found


def _target_version(target: Target) -> str:
    """What besides the sources makes a target's output: for native, the C
    compiler and this Python's extension suffix."""
    if target == "python":
        return "python"
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    level = " ".join(native_compile.OPTIMIZED)
    return f"native {native_compile.compiler_version()} {suffix} {level}"


def _hash(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def entry_key(reads: Sequence[tuple[Path, str]], target: Target) -> str:
    """The key of an entry: the contents read, the compiler and the target."""
    return _hash(compiler_version(), _target_version(target), *(digest for _, digest in reads))


@frozen
class Entry:
    """One built engine in the cache."""

    folder: Path
    target: Target
    edition: str
    module: str  # the engine module's name in its package
    rule_file: str
    size: int  # bytes
    last_used: float  # seconds since the epoch

    @property
    def package(self) -> str:
        return package_name(self.folder.name)


def package_name(entry_folder: str) -> str:
    """The import name of an entry's package (its folder is `<target>-<key>`)."""
    return "splendor_rules_cache_" + entry_folder.replace("-", "_")


def _folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _read_entry(folder: Path) -> Entry | None:
    try:
        data = json.loads((folder / ENTRY_FILE).read_text(encoding="utf-8"))
        return Entry(
            folder,
            data["target"],
            data["edition"],
            data["module"],
            data["rule_file"],
            int(data["size"]),
            (folder / ENTRY_FILE).stat().st_mtime,
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def entries(root: Path | None = None) -> list[Entry]:
    """The complete entries of the cache, least recently used first."""
    folder = (root or cache_folder()) / "engines"
    if not folder.is_dir():
        return []
    found = [
        entry
        for path in sorted(folder.iterdir())
        if not path.name.startswith(".") and (entry := _read_entry(path)) is not None
    ]
    return sorted(found, key=lambda e: (e.last_used, e.folder.name))


# ---------------------------------------------------------------- manifests


def _manifest_path(root: Path, rule_file: Path) -> Path:
    """Where the manifest of a rule file's last check is, keyed by its path,
    its contents, the rule files beside it (which `extends` may name) and
    the compiler."""
    beside = sorted(p.name for p in rule_file.parent.glob("*.rules"))
    digest = hashlib.sha256(rule_file.read_bytes()).hexdigest()
    return root / "manifests" / f"{_hash(str(rule_file), digest, *beside, compiler_version())}.json"


def _file_hash(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def cached_reads(rule_file: Path, root: Path | None = None) -> list[tuple[Path, str]] | None:
    """The files the last check of a rule file read, if none of them has
    changed since (None: check the file again)."""
    try:
        manifest = _manifest_path(root or cache_folder(), rule_file)
        data = json.loads(manifest.read_text(encoding="utf-8"))
        reads = [(Path(path), digest) for path, digest in data["reads"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if all(_file_hash(path) == digest for path, digest in reads):
        return reads
    return None


def _write_manifest(root: Path, rule_file: Path, reads: Sequence[tuple[Path, str]]) -> None:
    manifest = _manifest_path(root, rule_file)
    manifest.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"reads": [[str(path), digest] for path, digest in reads]})
    write_atomically(manifest, text)


Check = Callable[[Path], m.Edition]  # a rule file -> its checked model (or an error)


def checked(rule_file: Path, check: Check) -> tuple[m.Edition, list[tuple[Path, str]]]:
    """A rule file checked by `check`, and every file the check read."""
    with recording_reads() as reads:
        model = check(rule_file)
    return model, list(dict.fromkeys(reads))


# ---------------------------------------------------------------- building


def _write_package(folder: Path, doc: str) -> None:
    (folder / "__init__.py").write_text(f'"""{doc}"""\n', encoding="utf-8")


def _build(
    folder: Path, package: str, model: m.Edition, rule_file: Path, target: Target, said: list[str]
) -> None:
    """An entry's files, written into `folder` (a new temporary folder; the
    entry's package is `package`); the native engine compiled there.
    ENTRY_FILE last."""
    module = ident("", model.name)
    python_source = PYTHON.render_engine(model, rule_file.parent)
    _write_package(folder, f"The engines of {model.name}, built from {rule_file.name}.")
    if target == "python":
        (folder / f"{module}.py").write_text(python_source, encoding="utf-8")
    else:
        (folder / "py").mkdir()
        _write_package(folder / "py", "Its pure-Python engine.")
        (folder / "py" / f"{module}.py").write_text(python_source, encoding="utf-8")
        files = render_files(
            model, rule_file.parent, python_package=f"{package}.py", native_package=package
        )
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
        native_compile.compile_extension(
            folder / f"{module}.c", f"{package}._{module}", folder, said=said
        )
    for source in sorted(folder.rglob("*.py")):  # bytecode now: loads need not compile
        py_compile.compile(
            str(source),
            cfile=importlib.util.cache_from_source(str(source)),
            doraise=True,
            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
        )
    entry = {
        "target": target,
        "edition": model.name,
        "module": module,
        "rule_file": str(rule_file),
        "size": _folder_size(folder),
    }
    (folder / ENTRY_FILE).write_text(json.dumps(entry), encoding="utf-8")


def _lock(root: Path, folder_name: str) -> FileLock:
    locks = root / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    return FileLock(str(locks / f"{folder_name}.lock"), timeout=LOCK_WAIT)


def _entry_folder(root: Path, key: str, target: Target) -> Path:
    return root / "engines" / f"{target}-{key[:32]}"


def build_entry(
    root: Path, key: str, model: m.Edition, rule_file: Path, target: Target
) -> tuple[Path, bool, list[str]]:
    """The entry of `key`, built unless it is there (another process may
    have built it while this one waited for the lock): its folder, whether
    this call built it, and what the C compiler said."""
    final = _entry_folder(root, key, target)
    said: list[str] = []
    with _lock(root, final.name):
        if (final / ENTRY_FILE).is_file():
            return final, False, said
        final.parent.mkdir(parents=True, exist_ok=True)
        for left in final.parent.glob(f".{final.name}.*"):  # a build killed halfway
            shutil.rmtree(left, ignore_errors=True)  # (the lock is ours: none is running)
        temporary = final.parent / f".{final.name}.{os.getpid()}-{uuid.uuid4().hex[:8]}"
        temporary.mkdir()
        try:
            _build(temporary, package_name(final.name), model, rule_file, target, said)
            if final.exists():  # a broken entry (no ENTRY_FILE): replaced
                shutil.rmtree(final)
            os.rename(temporary, final)
        finally:
            shutil.rmtree(temporary, ignore_errors=True)
    return final, True, said


# ---------------------------------------------------------------- loading


def _import_package(package: str, folder: Path) -> None:
    """An entry's package imported under its name, from its folder (its
    parent is not put on sys.path)."""
    if package in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(
        package, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    if spec is None or spec.loader is None:
        raise CacheError(f"{folder} is no engine package")
    module = importlib.util.module_from_spec(spec)
    sys.modules[package] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[package]
        raise


def load_entry(root: Path, folder: Path) -> ModuleType | None:
    """The engine module of an entry, imported (once per process), its use
    noted for the eviction; None if the entry is not there (evicted)."""
    with _lock(root, folder.name):
        entry = _read_entry(folder)
        if entry is None:
            return None
        package = entry.package
        _import_package(package, folder)
        module = importlib.import_module(f"{package}.{entry.module}")
        os.utime(folder / ENTRY_FILE)
    return module


@frozen
class Loaded:
    """An engine module from the cache, and how it was had."""

    module: ModuleType
    folder: Path
    built: bool  # this call built it (else it was there)
    said: tuple[str, ...]  # what the C compiler said (its warnings)


def engine_module(rule_file: Path, target: Target, check: Check) -> Loaded:
    """The engine module of a rule file for a target, from the cache, built
    there first if it is not (see the module). `check` checks the rule file
    (raising for one with mistakes). CacheError if the cache's folder
    cannot be written; the native compile's errors (NativeUnavailable,
    CompileFailed) pass through."""
    root = cache_folder()
    rule_file = rule_file.resolve()
    try:
        reads = cached_reads(rule_file, root)
        if reads is not None:
            folder = _entry_folder(root, entry_key(reads, target), target)
            module = load_entry(root, folder) if (folder / ENTRY_FILE).is_file() else None
            if module is not None:
                return Loaded(module, folder, False, ())
        model, reads = checked(rule_file, check)
        folder, built, said = build_entry(root, entry_key(reads, target), model, rule_file, target)
        _write_manifest(root, rule_file, reads)
        module = load_entry(root, folder)
        if module is None:
            raise CacheError(f"{folder} went missing as it was loaded")
        evict(root, keep=folder)
    except (OSError, Timeout) as error:
        raise CacheError(f"cannot use the cache in {root}: {error}") from error
    return Loaded(module, folder, built, tuple(said))


# ---------------------------------------------------------------- bounds


def _remove(root: Path, entry: Entry) -> bool:
    """Remove an entry unless another process holds it; whether removed."""
    lock = _lock(root, entry.folder.name)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        return False
    try:
        trash = entry.folder.parent / f".{entry.folder.name}.removed-{uuid.uuid4().hex[:8]}"
        os.rename(entry.folder, trash)
        shutil.rmtree(trash, ignore_errors=True)
    except OSError:
        return False
    finally:
        lock.release()
    return True


def evict(root: Path | None = None, keep: Path | None = None) -> list[Entry]:
    """Remove the entries used least recently until the rest fit the bound
    (`bound()`), never `keep`; the entries removed."""
    root = root or cache_folder()
    found = entries(root)
    total = sum(entry.size for entry in found)
    removed = []
    for entry in found:
        if total <= bound():
            break
        if entry.folder != keep and _remove(root, entry):
            total -= entry.size
            removed.append(entry)
    return removed


def clear(root: Path | None = None) -> tuple[list[Entry], int]:
    """Remove every entry (but one another process holds), the manifests
    and the compiler's hashes; the entries removed and the bytes freed."""
    root = root or cache_folder()
    removed = [entry for entry in entries(root) if _remove(root, entry)]
    shutil.rmtree(root / "manifests", ignore_errors=True)
    shutil.rmtree(root / "versions", ignore_errors=True)
    return removed, sum(entry.size for entry in removed)
