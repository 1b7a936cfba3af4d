"""The native target: each engine a C extension module and its Python face.

Per edition it writes `<edition>.c` (the compiled engine, module
`_<edition>`), `_<edition>.pyi` (its types, for mypy) and `<edition>.py` (the
engine module of docs/engine.md, over the compiled one and the pure-Python
engine of the same edition); the folder is the package
`splendor_rules.generated.native`. `compile.py` turns a `.c` into a module.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import jinja2

from splendor_rules.compiler.backend.literals import engine_imports, wrapped
from splendor_rules.compiler.backend.native.compile import STAMP_MARKER
from splendor_rules.compiler.backend.native.lower import Lowering
from splendor_rules.compiler.backend.source import ident
from splendor_rules.compiler.backend.unprinted import refuse_unprinted
from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.limits import CARD_VALUE, COUNT
from splendor_rules.compiler.frontend.schema import schema
from splendor_rules.dsl.visitor import walk

PYTHON_PACKAGE = "splendor_rules.generated"
NATIVE_PACKAGE = "splendor_rules.generated.native"


@functools.cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("splendor_rules.compiler.backend.native", "templates"),
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["py"] = wrapped
    return env


def _render(template: str, context: dict[str, Any]) -> str:
    text = _environment().get_template(template).render(**context)
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def context(edition: m.Edition, root: Path) -> dict[str, Any]:
    """The templates' context for one edition."""
    refuse_unprinted(edition, "native")
    lowering = Lowering(edition, root)
    found = lowering.context()
    module = ident("", edition.name)
    found["module"] = module
    found["supply_rows"] = [
        dict(found["supply"]).get(n, (0,) * len(edition.tokens))
        for n in range(edition.players[1] + 1)
    ]
    found["bound_kinds"] = tuple(
        tuple((identities.value_kind(t), lowering.width(t)) for _, t in site.bound)
        for site in lowering.sites
    )
    found["texts"] = tuple(sorted(lowering.names.texts, key=lowering.names.texts.__getitem__))
    found["count_max"] = COUNT.high
    found["card_value_low"] = CARD_VALUE.low
    found["card_value_high"] = CARD_VALUE.high
    found["bound_checks"] = tuple(
        tuple(_bound_check(kind, width) for kind, width in site) for site in found["bound_kinds"]
    )
    sets = found["tile_set_faces"]
    found["tile_set_of"] = tuple(
        next((i for i, tiles in enumerate(sets) if any(t in f for f in tiles)), -1)
        for t in range(found["tile_count"])
    )
    # 1 for a tile claimed once per player: in play, and once in each seat's zones
    shared = found["shared_tiles"]
    found["tile_shared"] = tuple(int(t in shared) for t in range(found["tile_count"]))
    found["place_rows"] = _place_rows(edition)
    found["decision_steps"] = tuple(kind != "none" for kind in found["step_kinds"])
    # a card value's kind, as VALUE_KIND codes it: 3 a colour, 1 a flag, 0 a number
    codes = {"colour": 3, "bool": 1}
    found["value_kind_codes"] = tuple(codes.get(k, 0) for k in found["card_value_kinds"])
    parts = schema(edition).parts  # named in the export and import
    found["part_names"] = tuple(p.name for p in parts)
    found["absent_parts"] = tuple(p.name for p in parts if not p.present)
    found["python_package"] = PYTHON_PACKAGE
    found["native_package"] = NATIVE_PACKAGE
    # the transfer helper, written only for an edition with a `take` or a `give`
    bodies = [*edition.actions, *edition.triggers]
    found["transfers"] = any(isinstance(n, m.Transfer) for b in bodies for n in walk(b))
    return found


# Where each field of places of cards or tiles is stored (PlaceEntry.part).
_STORED_IN = {"decks": "IN_DECKS", "market": "IN_MARKET", "tiles": "IN_TILES", "zones": "IN_ZONES"}


def _place_rows(edition: m.Edition) -> list[tuple[str, ...]]:
    """The table PLACES of engine.c.j2, as data from the schema: per entry
    of a place of cards or tiles, its cells (PlaceEntry's fields, in order)."""
    rows = []
    for f in schema(edition).item_fields:
        entries = [(place, entry) for place in f.places for entry in place.entries]
        for i, (place, entry) in enumerate(entries):
            cells: tuple[str | int | bool, ...] = (
                _STORED_IN[f.key],
                i,
                place.cards,
                place.per_seat,
                entry.of,
                entry.slots >= 0,
                place.claims,
                json.dumps(place.export),  # a C string literal: the schema's ASCII text
            )
            rows.append(tuple(c if isinstance(c, str) else str(int(c)) for c in cells))
    return rows


# How a value carried by a follow-up is checked when a state is imported:
# the number's kind (its bound in BOUND_LIMIT of engine.c.j2; 0: any number).
_BOUND_CODES = {"bool": 1, "token": 2, "colour": 3, "card": 4, "tile": 5, "text": 6, "player": 7}


def _bound_check(kind: str, width: int) -> tuple[int, int, int]:
    """(kind code, 1 if a list (its count first), slots) of a carried value."""
    listed = kind.startswith("list:")
    return (_BOUND_CODES.get(kind.removeprefix("list:"), 0), int(listed), width)


def render_files(
    edition: m.Edition,
    root: Path,
    python_package: str = PYTHON_PACKAGE,
    native_package: str = NATIVE_PACKAGE,
) -> dict[str, str]:
    """An edition's three files by name: the C source, its stub and the
    engine module (which imports the Python engine from `python_package`
    and the compiled module from `native_package`)."""
    found = context(edition, root)
    found["python_package"] = python_package
    found["native_package"] = native_package
    module = found["module"]
    return {
        f"{module}.c": _render("engine.c.j2", found),
        f"_{module}.pyi": _render("engine.pyi.j2", found),
        f"{module}.py": _render("engine.py.j2", found),
    }


class NativeTarget:
    """Engines as C extension modules in `splendor_rules.generated.native`."""

    name = "native"
    folder = "native"
    package = NATIVE_PACKAGE
    compiled = True

    def engine_file(self, edition: str) -> str:
        return ident("", edition) + ".c"

    def render_engine(self, edition: m.Edition, root: Path) -> str:
        return render_files(edition, root)[self.engine_file(edition.name)]

    def render_files(self, edition: m.Edition, root: Path) -> dict[str, str]:
        return render_files(edition, root)

    def package_files(self, editions: Sequence[str]) -> dict[str, str]:
        names = [ident("", name) for name in sorted(editions)]
        imports = engine_imports(NATIVE_PACKAGE, names)
        return {
            "__init__.py": _render(
                "package.py.j2",
                {"editions": names, "engine_imports": imports, "stamp_marker": STAMP_MARKER},
            )
        }

    def is_engine_file(self, path: Path) -> bool:
        return path.suffix in (".c", ".py", ".pyi") and path.name != "__init__.py"


NATIVE = NativeTarget()
