"""The words of a diff and of a conformance report.

Rule ids are listed in rulebook order; each rule's status says whether it is
shared (and then whether it behaved identically), overridden, added or
removed; a divergence is shown by its smallest case, ready to replay.
"""

from __future__ import annotations

from collections.abc import Iterable

from splendor_rules.compiler.frontend.editions import Key
from splendor_rules.compiler.frontend.rule_ids import RULE_ID_FORM
from splendor_rules.compiler.tools.conformance.diff import EditionDiff
from splendor_rules.compiler.tools.conformance.results import Case, Report, Tally


def _show_ids(ids: Iterable[str]) -> str:
    return ", ".join(ids) or "no rule id"


def _describe(key: Key) -> str:
    kind, name = key
    return f"{kind} {name}" if name is not None else kind


def _placed(verb: str, placed: str | None) -> str:
    """` inserted after X`, ` moved before X`: where a step was placed."""
    return f" {verb} {placed}" if placed else ""


def format_diff(diff: EditionDiff) -> str:
    """The differences, one section per kind of change."""
    lines = [f"{diff.a} -> {diff.b}: {diff.relation}"]

    def section(title: str, items: list[str]) -> None:
        lines.append(f"{title} ({len(items)}):" if items else f"{title}: none")
        lines.extend(f"  {item}" for item in items)

    section("renamed", [f"{r.kind} {r.old} -> {r.new}" for r in diff.renamed])
    section(
        "overridden",
        [
            f"{_describe(o.key_b)}{_placed('moved', o.placed)}: "
            f"{_show_ids(o.ids_a)} -> {_show_ids(o.ids_b)}"
            for o in diff.overridden
        ],
    )
    section(
        "added",
        [
            f"{_describe(d.key)}{_placed('inserted', d.placed)}: {_show_ids(d.ids)}"
            for d in diff.added
        ],
    )
    section("removed", [f"{_describe(d.key)}: {_show_ids(d.ids)}" for d in diff.removed])
    ids = _sorted_ids(diff.inherited_ids)
    lines.append(
        f"inherited unchanged ({len(diff.inherited)} declarations, {len(ids)} rule ids):"
        + (f" {', '.join(ids)}" if ids else "")
    )
    return "\n".join(lines)


def _sorted_ids(ids: Iterable[str], letters: str = "") -> list[str]:
    """Rule ids in rulebook order: by section numbers, then by letter (in the
    order of `letters`, if given)."""

    def order(rule_id: str) -> tuple[tuple[int, ...], str, int, str]:
        letter, _, rest = rule_id.partition("-")
        digits = rest.rstrip("abcdefghijklmnopqrstuvwxyz")
        numbers = tuple(int(n) for n in digits.split(".") if n.isdigit())
        rank = letters.find(letter) if letter in letters else len(letters)
        return (numbers, rest[len(digits) :], rank, letter)

    return sorted(dict.fromkeys(ids), key=order)


def rule_status(report: Report, rule_id: str) -> str:
    """What became of a rule id, and how it behaved if it is shared."""
    pair = next((p for p in report.pairs if rule_id in p.ids), None)
    if pair is not None:
        tally = report.tallies.get(rule_id, Tally())
        restated = " (restated by an override)" if pair.restated else ""
        total = len(tally.ok | tally.bad)
        if tally.bad:
            return f"shared{restated}: DIVERGES on {len(tally.bad)} of {total} positions"
        if total:
            return f"shared{restated}: identical on {total} positions"
        return f"shared{restated}: not exercised by the probes"
    diff = report.diff
    for o in diff.overridden:
        if rule_id in o.ids_a and rule_id in o.ids_b:  # amended by b's own rules
            return f"changed: {_describe(o.key_b)} overridden as {_show_ids(o.ids_b)}"
        if rule_id in o.ids_a:
            return f"overridden by {_show_ids(o.ids_b)}"
        if rule_id in o.ids_b:
            return f"added (overriding {_show_ids(o.ids_a)})"
    if any(rule_id in d.ids for d in diff.removed):
        return "removed"
    if any(rule_id in d.ids for d in diff.added):
        return "added"
    return "stated by both editions, on different declarations: not compared"


def status_table(report: Report) -> list[str]:
    """One row per rule id of either edition, then one per diverging
    declaration that states no rule id."""
    letters = "".join(dict.fromkeys(i[0] for i in [*report.ids_a, *report.ids_b]))
    ids = _sorted_ids([*report.ids_a, *report.ids_b], letters)
    labels = [k for k, t in report.tallies.items() if not RULE_ID_FORM.fullmatch(k) and t.bad]
    width = max(len(i) for i in ["rule id", *ids, *labels])
    rows = [f"{'rule id':<{width}} | status"]
    rows += [f"{i:<{width}} | {rule_status(report, i)}" for i in ids]
    rows += [
        f"{label:<{width}} | shared: DIVERGES on {len(report.tallies[label].bad)} positions"
        for label in labels
    ]
    return rows


def changed_lines(report: Report) -> list[str]:
    """The declarations b declares changed, by declaration and rule ids: not
    compared, and where one acted, not a divergence."""
    diff = report.diff
    paired = {p.key_b for p in report.pairs}
    items = [
        f"{_describe(o.key_b)}: {_show_ids(o.ids_a)} -> {_show_ids(o.ids_b)} (overridden)"
        for o in diff.overridden
        if o.key_b not in paired
    ]
    items += [f"{_describe(d.key)}: {_show_ids(d.ids)} (added)" for d in diff.added]
    items += [f"{_describe(d.key)}: {_show_ids(d.ids)} (removed)" for d in diff.removed]
    if not items:
        return []
    acted = f"; they made {len(report.changed)} comparisons differ" if report.changed else ""
    return [
        f"CHANGED from {diff.a} to {diff.b} ({len(items)} declarations, not compared{acted}):",
        *(f"  {item}" for item in items),
        "",
    ]


def format_report(report: Report) -> str:
    """The report: counts, the status table, and the smallest divergence."""
    diff = report.diff
    skipped = f", {report.skipped} skipped" if report.skipped else ""
    lines = [
        f"conform {diff.a} -> {diff.b}: {diff.relation}",
        f"{report.games} games: {report.setups} setups and {report.positions} positions"
        f"{skipped}, {report.actions} moves applied in both engines, in {report.seconds:.1f} s",
        "",
        *status_table(report),
        "",
        *changed_lines(report),
    ]
    shared = {i for p in report.pairs for i in p.ids}
    case = report.smallest()
    if case is None and not report.void:
        lines.append(f"no divergence: the {len(shared)} shared rule ids behave identically")
        return "\n".join(lines)
    if case is not None:
        bad = _sorted_ids(i for c in report.cases for i in c.ids)
        lines += [
            f"DIVERGENCE: {len(report.cases)} comparisons differ, blaming {', '.join(bad)}; "
            "the smallest:",
            *_show_case(case, diff),
        ]
    if report.void:
        void = min(report.void, key=lambda c: c.at.size)
        lines += [
            f"NOT INERT: on {len(report.void)} moves an edition-specific rule acted in a probe, "
            "so the shared rules could not be compared there; the smallest:",
            *_show_case(void, diff),
        ]
    return "\n".join(lines)


def _show_case(case: Case, diff: EditionDiff) -> list[str]:
    lines = [f"  rules: {_show_ids(case.ids)}", f"  compared: {case.what}"]
    if case.at.a == case.at.b:
        lines.append(f"  where: {case.at.a}")
    else:
        lines.append(f"  position ({diff.a}'s JSON form): {case.at.a}")
        lines.append(f"  position ({diff.b}'s JSON form): {case.at.b}")
    if case.action is not None:
        lines.append(f"  action ({diff.b}'s form): {case.action}")
    lines += [f"  {diff.a}: {case.result_a}", f"  {diff.b}: {case.result_b}"]
    lines += [f"  differs at {d}" for d in case.differences[:12]]
    return lines
