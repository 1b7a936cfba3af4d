"""An edition's constants and data tables, as the Python engine template
reads them: the target-neutral tables (backend/tables.py) and the two
payment expressions only a Python engine has.
"""

from __future__ import annotations

from typing import Any

from splendor_rules.compiler.backend import tables
from splendor_rules.compiler.backend.python import nodes as py
from splendor_rules.compiler.backend.python import printer
from splendor_rules.compiler.backend.python.base import LoweringPart


class Tables(LoweringPart):
    """The template's data: an edition's constants and tables."""

    def context(self) -> dict[str, Any]:
        price = [py.item(py.name("price"), c) for c in self.colours()]
        return {
            **tables.Tables(self.edition, self.source).context(),
            "exact_payment": printer.expression(self.payment(lambda c: price[c], py.const(0))),
            "split_payment": printer.expression(
                self.payment(
                    lambda c: py.binary(price[c], "-", py.name(f"w{c}")),
                    py.chain("+", [py.name(f"w{c}") for c in self.colours()]),
                )
            ),
        }
