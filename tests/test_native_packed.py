"""The packed shortfall of the native engines (compiler/backend/native/data.py
and the template's `means_packed` and `shortfall_packed`).

A native engine tests a card's cost against the player's means in one
64-bit word where the cost column fits (8 bits a colour). The C functions,
as the engines have them, are compiled here on their own and compared with
the plain sum of max(cost - means, 0) over costs at the limits of the
packing (cells up to 127, rows summing up to 255, eight colours) and means
far beyond them; the packing itself is checked at those limits.
"""

from __future__ import annotations

import ctypes
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from splendor_rules.compiler.backend.native import compile as native_compile
from splendor_rules.compiler.backend.native.data import packed_cells

GENERATED = Path(__file__).resolve().parent.parent / "generated" / "native"
LANES = 8


def engine_functions() -> str:
    """`means_packed` and `shortfall_packed`, as the generated engines have
    them (the template's, so any engine's)."""
    engines = sorted(GENERATED.glob("*.c"))
    assert engines, "no native engine is generated"
    text = engines[0].read_text()
    means = r"static inline uint64_t means_packed\(.*?\n}\n"
    lack = r"static inline V shortfall_packed\(.*?\n}\n"
    found = re.search(means + ".*?" + lack, text, re.DOTALL)
    assert found is not None, "the generated engine lacks the packed shortfall"
    return found.group(0)


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ctypes.CDLL]:
    missing = native_compile.native_available()
    if missing is not None:
        pytest.skip(f"native target unavailable: {missing}")
    folder = tmp_path_factory.mktemp("packed")
    source = folder / "packed.c"
    source.write_text(
        "#include <stdint.h>\n"
        "typedef int64_t V;\n"
        f"#define NC {LANES}\n"
        "typedef struct { V c[NC]; } Vec;\n"
        + engine_functions()
        + "V check(const V *cost, const V *means)\n"
        "{\n"
        "    Vec m;\n"
        "    uint64_t word = 0;\n"
        "    for (int32_t c = 0; c < NC; c++) {\n"
        "        m.c[c] = means[c];\n"
        "        word |= (uint64_t)cost[c] << (8 * c);\n"
        "    }\n"
        "    return shortfall_packed(word, means_packed(&m));\n"
        "}\n"
    )
    library = folder / "packed.so"
    command = [*native_compile.compiler_command(), "-O2", "-shared", "-fPIC"]
    subprocess.run([*command, "-o", str(library), str(source)], check=True)
    loaded = ctypes.CDLL(str(library))
    loaded.check.restype = ctypes.c_int64
    yield loaded


def packable_costs() -> st.SearchStrategy[list[int]]:
    lane = st.one_of(st.integers(0, 127), st.sampled_from([0, 1, 126, 127]))
    rows = st.lists(lane, min_size=LANES, max_size=LANES)
    return rows.filter(lambda row: packed_cells([tuple(row)], LANES) is not None)


MEANS = st.lists(
    st.one_of(st.integers(-3, 300), st.sampled_from([0, 126, 127, 128, 255, 256, 2**40])),
    min_size=LANES,
    max_size=LANES,
)


@given(cost=packable_costs(), means=MEANS)
def test_packed_shortfall_is_the_plain_one(
    packed: ctypes.CDLL, cost: list[int], means: list[int]
) -> None:
    array = ctypes.c_int64 * LANES
    found = packed.check(array(*cost), array(*means))
    plain = sum(max(c - m, 0) for c, m in zip(cost, means, strict=True))
    if min(means) >= 0:
        assert found == plain
    else:  # a means below 0 is held at 0: it may lack less, never more
        assert found == sum(max(c - max(m, 0), 0) for c, m in zip(cost, means, strict=True))
        assert found <= plain


def test_packing_limits() -> None:
    assert packed_cells([(127, 127, 1)], 3) == [127 | 127 << 8 | 1 << 16]
    assert packed_cells([(128, 0, 0)], 3) is None  # a cell past 7 bits
    assert packed_cells([(127, 127, 2)], 3) is None  # a row summing past 255
    assert packed_cells([(-1, 0, 0)], 3) is None
    assert packed_cells([(0,) * 8], 8) == [0]
    assert packed_cells([(0,) * 9], 9) is None  # more colours than lanes
    assert packed_cells([], 5) == []
