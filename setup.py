"""The native engines as C extension modules; everything else is in pyproject.toml.

Each generated/native/<edition>.c is the extension module
splendor_rules.generated.native._<edition>. They are optional: on a machine
without a C compiler or Python's headers the install goes on without them
and the pure-Python engines work (splendor-rules build says what is missing).
An editable install (pip install -e .) puts each built module beside its
source in generated/native/, where splendor-rules build also compiles them.
"""

from pathlib import Path

from setuptools import Extension, setup

NATIVE = "generated/native"
OPTIMIZATION = ["-O3"]  # the level compiler/backend/native/compile.py uses


def native_extensions() -> list[Extension]:
    root = Path(__file__).resolve().parent
    return [
        Extension(
            f"splendor_rules.generated.native._{source.stem}",
            sources=[f"{NATIVE}/{source.name}"],
            extra_compile_args=OPTIMIZATION,
            optional=True,
        )
        for source in sorted((root / NATIVE).glob("*.c"))
    ]


setup(ext_modules=native_extensions())
