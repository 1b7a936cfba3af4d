"""`diff` says what changed: each declaration's rule text, old -> new
(compiler/tools/conformance/changes.py, compiler/cli/diff.py)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result
from fuzz.children import editions
from hypothesis import HealthCheck, given, settings

from splendor_rules.compiler.cli.diff import command as diff_command
from splendor_rules.compiler.frontend.pipeline import compile_file, edition_files
from splendor_rules.compiler.tools.conformance import diff_editions
from splendor_rules.compiler.tools.conformance.changes import (
    LineChange,
    changes_json,
    describe_changes,
    format_changes,
    line_changes,
)

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = ROOT / "editions" / "classic.rules"
# By default a fixed (derandomized) set of random editions; DIFF_EXAMPLES=N
# for N fresh ones.
EXAMPLES = int(os.environ.get("DIFF_EXAMPLES") or 0)


def invoke(*args: str) -> Result:
    return CliRunner().invoke(diff_command, list(args))


def _house(tmp_path: Path, body: str) -> Path:
    """A house-rule file outside the project that extends classic."""
    path = tmp_path / "house.rules"
    path.write_text(f'edition house "House rules" extends classic {{\n{body}}}\n')
    return path


def _classic_line(start: str) -> str:
    line = next(x for x in CLASSIC.read_text().splitlines() if x.strip().startswith(start))
    return line.strip()


def _take_two_from_3(tmp_path: Path) -> Path:
    """classic's take_two, needing 3 tokens in the supply instead of 4."""
    text = CLASSIC.read_text()
    start = text.index("  [S-3.3] action take_two")
    block = text[start : text.index("  }\n", start) + 4]
    assert "supply(c) >= 4" in block
    return _house(tmp_path, "  override " + block.strip().replace(">= 4", ">= 3") + "\n")


def test_an_override_prints_the_changed_line_old_to_new(tmp_path: Path):
    result = invoke("classic", str(_take_two_from_3(tmp_path)))
    assert result.exit_code == 0, result.output
    old = _classic_line("require supply(c) >= 4")
    line = f"  action take_two [S-3.3]: {old} -> {old.replace('>= 4', '>= 3')}"
    assert line in result.output.splitlines()
    assert "overridden (1):" in result.output


def test_json_gives_the_same_changes_for_tools(tmp_path: Path):
    result = invoke("classic", str(_take_two_from_3(tmp_path)), "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["a"], data["b"]) == ("classic", "house")
    (change,) = data["declarations"]
    assert (change["status"], change["kind"]) == ("overridden", "action")
    assert change["name"] == "take_two"
    assert change["ids_a"] == change["ids_b"] == ["S-3.3"]
    (line,) = change["changes"]
    assert "supply(c) >= 4" in line["old"] and "supply(c) >= 3" in line["new"]
    assert change["old"][0].startswith("action take_two") and change["new"][-1] == "}"
    assert any(i["name"] == "buy" for i in data["inherited"])
    assert data["by_rule_id"] == {
        "S-3.3": [{"status": "overridden", "kind": "action", "name": "take_two"}]
    }


def test_added_and_removed_declarations_are_printed_whole(tmp_path: Path):
    body = (
        "  remove end target\n"
        "  [C-5.2] end quick: after the round once any(player: score >= 10)\n"
        "  trigger bonus_gold: after card k enters bought {\n"
        "    if k.points >= 4 {\n"
        "      gain 1 gold\n"
        "    }\n"
        "  }\n"
    )
    result = invoke("classic", str(_house(tmp_path, body)))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    quick = "end quick: after the round once any(player: score >= 10)"
    target = "end target: after the round once any(player: score >= 15)"
    assert f"  end quick [C-5.2]: {quick}" in lines
    assert f"  end target [C-5.2]: {target}" in lines
    start = lines.index("  trigger bonus_gold:")
    assert lines[start + 1 : start + 6] == [
        "    trigger bonus_gold: after card k enters bought {",
        "      if k.points >= 4 {",
        "        gain 1 gold",
        "      }",
        "    }",
    ]


def test_a_rename_alone_is_no_change(tmp_path: Path):
    """Classic's text is shown in the house's names: renaming a colour and
    the gold leaves the declarations that read them unchanged."""
    body = "  rename colour white -> ivory\n  rename token gold -> amber\n"
    result = invoke("classic", str(_house(tmp_path, body)))
    assert result.exit_code == 0, result.output
    assert "overridden: none" in result.output
    assert "  colour white -> ivory" in result.output.splitlines()
    body += "  override [C-2.2] supply {\n    each colour: by players {2: 4, 3: 5, 4: 7}\n"
    body += "    amber: 4\n  }\n"
    result = invoke("classic", str(_house(tmp_path, body)))
    assert "  supply [C-2.2]: amber: 5 -> amber: 4" in result.output.splitlines()


def test_every_pair_of_editions_is_described(tmp_path: Path):
    """Both ways round, related or not: every declaration diff names has its
    text, and an override's old and new texts differ where it says."""
    resolved = {p.stem: compile_file(p).resolved for p in edition_files()}
    for a in resolved.values():
        for b in resolved.values():
            assert a is not None and b is not None
            changes = describe_changes(diff_editions(a, b), a, b)
            for change in changes.declarations:
                assert change.old or change.new
                if change.lines:
                    assert change.old != change.new
                    for line in change.lines:
                        assert line.old is None or line.old in [x.strip() for x in change.old]
                        assert line.new is None or line.new in [x.strip() for x in change.new]


def test_lines_are_paired_with_the_line_they_change():
    old = ["action buy {", "  choose k from market", "  pay k.cost less bonus", "}"]
    new = [
        "action buy {",
        "  choose k from market",
        '  require k.points > 0 else "no"',
        "  [X-1] pay k.cost less bonus, using g in bought where g.kind == 1 as 2 wild each",
        "}",
    ]
    assert line_changes(old, new) == (
        LineChange(None, 'require k.points > 0 else "no"'),
        LineChange(
            "pay k.cost less bonus",
            "[X-1] pay k.cost less bonus, using g in bought where g.kind == 1 as 2 wild each",
        ),
    )
    assert line_changes(["a: int"], ["zzz: text"]) == (
        LineChange("a: int", None),
        LineChange(None, "zzz: text"),
    )


@settings(
    max_examples=EXAMPLES or 15,
    deadline=None,
    derandomize=not EXAMPLES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(editions())
def test_random_editions_are_described_both_ways(drawn: Any):
    """The fuzz generator's editions (standalone, children of classic or of a
    drawn base): every declaration of every kind is printed, both ways round,
    as text and as JSON."""
    with tempfile.TemporaryDirectory() as folder:
        compiled = compile_file(drawn.write(Path(folder)))
        classic = compile_file(CLASSIC)
        assert compiled.ok and compiled.resolved is not None and classic.resolved is not None
        for a, b in [(classic.resolved, compiled.resolved), (compiled.resolved, classic.resolved)]:
            changes = describe_changes(diff_editions(a, b), a, b)
            text = format_changes(changes)
            json.dumps(changes_json(changes))
            shown = text.replace("\n    ", "\n")
            for change in changes.declarations:
                assert change.old or change.new
                if change.status != "overridden":  # printed whole
                    assert "\n".join(change.new or change.old) in shown
                for line in change.lines:
                    assert (line.old or "") in text and (line.new or "") in text
