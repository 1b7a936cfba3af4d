"""Edition conformance: what one edition changes relative to another
(`diff_editions`), and whether the rules the two share behave identically in
their engines (`check_conformance`).

Both work from the rule files alone: the differences come from the changes
the edition resolver records; the behaviour from engines generated for probe
editions that extend the real ones (docs/conformance.md gives the design).
Nothing here knows an edition: renames, edition-only token kinds, columns,
tiles and rules are all read from the resolved editions and their models.

The package is a library: it returns results and raises UnknownEdition or
CannotCompare; the command line (compiler/cli) prints and chooses exit codes.
Its modules: editions (the editions named), diff, correspondence (names of a
in b's terms), probes, projection, checker, check (the games), results and
report (the words).
"""

from splendor_rules.compiler.frontend.lookup import UnknownEdition
from splendor_rules.compiler.tools.conformance.check import check_conformance
from splendor_rules.compiler.tools.conformance.correspondence import Correspondence, Pair
from splendor_rules.compiler.tools.conformance.diff import EditionDiff, diff_editions
from splendor_rules.compiler.tools.conformance.editions import (
    CannotCompare,
    compile_edition,
    edition_path,
)
from splendor_rules.compiler.tools.conformance.probes import Probe, build_probes
from splendor_rules.compiler.tools.conformance.report import format_diff, format_report
from splendor_rules.compiler.tools.conformance.results import Case, Report

__all__ = [
    "CannotCompare",
    "Case",
    "Correspondence",
    "EditionDiff",
    "Pair",
    "Probe",
    "Report",
    "UnknownEdition",
    "build_probes",
    "check_conformance",
    "compile_edition",
    "diff_editions",
    "edition_path",
    "format_diff",
    "format_report",
]
