"""The native engines as C extension modules; everything else is in pyproject.toml.

Each generated/native/<edition>.c is the extension module
splendor_rules.generated.native._<edition>. They are optional: on a machine
without a C compiler or Python's headers the install goes on without them
and the pure-Python engines work (splendor-rules build says what is missing).
An editable install (pip install -e .) puts each built module beside its
source in generated/native/, where splendor-rules build also compiles them.

setup.py cannot import the package (it is not installed yet), so it names
the native target's folder and package itself (compiler/backend/targets.py
registers them; tests/test_native_build.py ties the two), and loads
compiler/backend/native/compile.py, standard library only, by its path to
stamp each module with its source's hash as the build does.
"""

import importlib.util
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
NATIVE = "generated/native"
PACKAGE = "splendor_rules.generated.native"
STAMPS = "build/native-stamps"
OPTIMIZATION = ["-O3"]  # the level compiler/backend/native/compile.py uses


def _compile_module():  # type: ignore[no-untyped-def]
    path = ROOT / "compiler" / "backend" / "native" / "compile.py"
    spec = importlib.util.spec_from_file_location("_splendor_rules_compile", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # NamedTuple needs its module while it is made
    spec.loader.exec_module(module)
    return module


def _stamp(source: Path, compile_module) -> str:  # type: ignore[no-untyped-def]
    """The stamp unit of the module compiled from `source`, written under build/."""
    stamp = ROOT / STAMPS / f"_{source.stem}_stamp.c"
    stamp.parent.mkdir(parents=True, exist_ok=True)
    try:
        text = compile_module.stamp_unit(source)
    except Exception:  # $CC unusable: the optional build then fails on its own
        text = "/* no stamp */\n"
    stamp.write_text(text, "ascii")
    return stamp.relative_to(ROOT).as_posix()


class ReusingBuildExt(build_ext):
    """Builds each native engine, or reuses the module beside its source when
    that module's stamp names this source's hash and this C compiler: every
    `pip install -e .` builds into a fresh folder, and compiling the four
    engines anew is most of a reinstall's time."""

    def build_extension(self, ext: Extension) -> None:
        source = ROOT / ext.sources[0]
        built = ROOT / NATIVE / Path(self.get_ext_filename(ext.name)).name
        output = Path(self.get_ext_fullpath(ext.name))
        if built.resolve() != output.resolve() and _current(built, source):
            output.parent.mkdir(parents=True, exist_ok=True)
            self.copy_file(str(built), str(output))
            return
        super().build_extension(ext)


def _current(module: Path, source: Path) -> bool:
    """Whether `module` was compiled from `source` as it is, by this compiler."""
    compile_module = sys.modules.get("_splendor_rules_compile") or _compile_module()
    try:
        wanted = compile_module.Stamp(
            compile_module.source_hash(source), compile_module.compiler_version()
        )
    except Exception:  # no usable compiler: build (and fail optionally) as before
        return False
    return module.is_file() and compile_module.read_stamp(module) == wanted


def native_extensions() -> list[Extension]:
    compile_module = _compile_module()
    return [
        Extension(
            f"{PACKAGE}._{source.stem}",
            sources=[f"{NATIVE}/{source.name}", _stamp(source, compile_module)],
            extra_compile_args=OPTIMIZATION,
            optional=True,
        )
        for source in sorted((ROOT / NATIVE).glob("*.c"))
    ]


setup(ext_modules=native_extensions(), cmdclass={"build_ext": ReusingBuildExt})
