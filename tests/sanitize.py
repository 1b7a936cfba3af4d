"""The sanitizer mode of the native tests (docs/testing.md, "Sanitizers").

With NATIVE_SANITIZE=1 every native engine the tests build (shipped
editions, variants, random editions) is compiled with AddressSanitizer and
UndefinedBehaviorSanitizer, and the shipped editions' engines that
`load_engine` finds are replaced, for the session, by sanitized builds of
the same sources. A Python host needs the ASan runtime loaded first:

    NATIVE_SANITIZE=1 LD_PRELOAD=$(gcc -print-file-name=libasan.so) \\
        ASAN_OPTIONS=detect_leaks=0 python -m pytest tests/test_native.py ...

A finding aborts the process (-fno-sanitize-recover): the test run stops
with the sanitizer's report on stderr.
"""

from __future__ import annotations

import os
from pathlib import Path

SANITIZE = os.environ.get("NATIVE_SANITIZE") == "1"
FLAGS: tuple[str, ...] = (
    ("-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
     "-fno-omit-frame-pointer", "-g")
    if SANITIZE
    else ()
)
# Where the sanitized shipped engines are (for child processes: see `prelude`).
FOLDER_VARIABLE = "NATIVE_SANITIZED_FOLDER"


def missing_runtime() -> str | None:
    """Why the sanitizer mode cannot run in this process, or None."""
    if "libasan" not in os.environ.get("LD_PRELOAD", ""):
        return (
            "NATIVE_SANITIZE=1 needs the ASan runtime preloaded: run with "
            "LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0"
        )
    return None


def use_sanitized_shipped(folder: Path) -> list[str]:
    """Compile the shipped native engines into `folder` with the sanitizers
    and put it first on the native package's path: the editions built. A
    quick build (-O1, the level ASan's manual advises): -O3 took four times
    as long under the sanitizers (52 s for classic.c, 2026-12-03)."""
    from splendor_rules.compiler.backend.native.compile import compile_extension
    from splendor_rules.generated import native

    package = Path(native.__file__).parent
    built = []
    for source in sorted(package.glob("*.c")):
        compile_extension(
            source, f"{native.__name__}._{source.stem}", folder, optimize=False, extra_flags=FLAGS
        )
        built.append(source.stem)
    native.__path__.insert(0, str(folder))
    os.environ[FOLDER_VARIABLE] = str(folder)
    return built


# The first lines of a child process's code: the sanitized engines first too.
PRELUDE = f"""
import os
import splendor_rules.generated.native as _package
if os.environ.get({FOLDER_VARIABLE!r}):
    _package.__path__.insert(0, os.environ[{FOLDER_VARIABLE!r}])
"""
