"""Several references: an edition answers to several rulebooks.

A reference is keyed by its file: an edition inherits its parent's and may
add its own (`reference "EXTRA.md" ids X`), override one (`override reference
"RULES.md" ids ...`) or remove one (`remove reference "RULES.md"`). Each
prefix belongs to one reference; each reference's ids with its prefixes must
all be stated. `check` names every file in its summary; `diff` and `conform`
tell the rules an edition inherits unchanged from those it changes
(tests/variants/extra_reference.rules, with tests/variants/EXTRA.md).
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from engine_modules import engine_module

from splendor_rules.compiler.cli import main
from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file
from splendor_rules.compiler.runtime.interpreter import InterpretedEngine
from splendor_rules.compiler.tools.conformance import diff_editions
from splendor_rules.dsl.diagnostics import Diagnostic

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "tests" / "variants"
EXTRA = VARIANTS / "extra_reference.rules"

RULEBOOK = "# Extra\n\n- **X-1.1** One rule.\n- **X-1.2** Another.\n"
# Classic's token limit, restated with an id of the extra rulebook.
LIMIT = "override [S-4.1, X-1.1] step token_limit: return tokens above 9"


def _edition(folder: Path, body: str, name: str = "several", parent: str = "classic") -> Path:
    path = folder / f"{name}.rules"
    path.write_text(f'edition {name} "{name}" extends {parent} {{\n{body}\n}}\n', encoding="utf-8")
    return path


def _errors(path: Path) -> list[Diagnostic]:
    compiled = compile_file(path)
    return [d for d in compiled.diagnostics if d.severity == "error"]


def _messages(path: Path) -> list[str]:
    return [d.message for d in _errors(path)]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "EXTRA.md").write_text(RULEBOOK, encoding="utf-8")
    return tmp_path


# ------------------------------------------------------------- the checks


def test_an_edition_answers_to_two_rulebooks(folder: Path) -> None:
    body = f'  reference "EXTRA.md" ids X\n  {LIMIT}\n  [X-1.2] define spare = 1\n'
    body += "  override [C-5.1] score = sum(bought.points) + sum(won.points) + spare"
    compiled = compile_file(_edition(folder, body))
    assert compiled.ok, compiled.diagnostics
    assert compiled.model is not None
    assert {"S-4.1", "X-1.1", "X-1.2", "C-5.1"} <= set(compiled.model.rule_ids)


def test_each_reference_wants_its_own_ids(folder: Path) -> None:
    """X-1.2 of EXTRA.md, and C-5.2 of classic's RULES.md (its ending is
    removed), are each reported missing, the second reference's by file."""
    body = f'  reference "EXTRA.md" ids X\n  {LIMIT}\n  remove end target'
    errors = _errors(_edition(folder, body))
    assert sorted(d.message for d in errors) == [
        "rule C-5.2 of the reference 'RULES.md' is stated nowhere in this edition",
        "rule X-1.2 of the reference 'EXTRA.md' is stated nowhere in this edition",
    ]
    removed = next(d for d in errors if "C-5.2" in d.message)
    assert removed.hint == "it was stated by the end 'target' of edition 'classic'"


def test_an_id_no_reference_claims_is_an_error(folder: Path) -> None:
    body = f'  reference "EXTRA.md" ids X\n  {LIMIT}\n  [X-1.2, Y-1.1] define spare = 1'
    messages = _messages(_edition(folder, body))
    assert (
        "rule id Y-1.1 is in none of this edition's references (RULES.md and EXTRA.md)" in messages
    )


def test_an_id_its_reference_lacks_is_an_error(folder: Path) -> None:
    body = f'  reference "EXTRA.md" ids X\n  {LIMIT}\n  [X-1.2, X-1.3] define spare = 1'
    (error,) = _errors(_edition(folder, body))
    assert error.message.startswith("rule id X-1.3 is in none of this edition's references")
    assert error.hint in ("did you mean 'X-1.1'?", "did you mean 'X-1.2'?")


def test_two_references_may_not_claim_one_prefix(folder: Path) -> None:
    body = f'  reference "EXTRA.md" ids X, S, C\n  {LIMIT}\n  [X-1.2] define spare = 1'
    path = _edition(folder, body)
    (error,) = [d for d in _errors(path) if "claims" in d.message]
    assert error.message == (
        "the reference 'EXTRA.md' claims the prefixes S and C,"
        " which the reference 'RULES.md' claims already"
    )
    assert error.span.line == 2 and error.span.file.endswith(path.name)
    assert error.hint is not None and "classic.rules:9:13" in error.hint


def test_a_reference_is_removed_by_its_file(folder: Path) -> None:
    # Without classic's rulebook, its ids are no longer checked against it.
    compiled = compile_file(_edition(folder, '  remove reference "RULES.md"\n  remove end target'))
    assert compiled.ok, compiled.diagnostics
    # A file the parent names no reference by: did you mean its file?
    (error,) = _errors(_edition(folder, '  remove reference "RULE.md"'))
    assert error.message == "edition 'classic' declares no reference 'RULE.md' to remove"
    assert error.hint == "did you mean 'RULES.md'?"


def test_remove_names_a_reference_by_its_file_only(folder: Path) -> None:
    for line in ("remove reference", 'remove players "RULES.md"', "remove reference RULES"):
        errors = _errors(_edition(folder, "  " + line))
        assert errors and errors[0].span.line == 2, (line, errors)


def test_override_replaces_only_the_reference_with_that_file(folder: Path) -> None:
    """extra_reference's own EXTRA.md overridden by a child: the child's
    EXTRA.md (beside it) claims X with more ids; RULES.md is kept."""
    shutil.copy(EXTRA, folder / "extra_reference.rules")
    shutil.copy(VARIANTS / "EXTRA.md", folder / "parent_extra.md")
    text = (folder / "extra_reference.rules").read_text(encoding="utf-8")
    (folder / "extra_reference.rules").write_text(text.replace('"EXTRA.md"', '"parent_extra.md"'))
    (folder / "EXTRA.md").write_text(RULEBOOK + "- **X-2.1** A third.\n", encoding="utf-8")
    body = '  override reference "parent_extra.md" ids X\n'
    child = _edition(folder, body, "child", parent="extra_reference")
    assert _messages(child) == []
    body = '  remove reference "parent_extra.md"\n  reference "EXTRA.md" ids X'
    assert _messages(_edition(folder, body, "child", parent="extra_reference")) == [
        "rule X-2.1 of the reference 'EXTRA.md' is stated nowhere in this edition"
    ]
    # A reference a second time, under the same file: declared twice.
    body = '  reference "RULES.md" ids Q'
    assert _messages(_edition(folder, body)) == [
        "reference 'RULES.md' is already declared by edition 'classic'"
    ]


def test_a_rename_leaves_reference_files_alone(folder: Path) -> None:
    (folder / "bonus").write_text(RULEBOOK, encoding="utf-8")
    body = f'  reference "bonus" ids X\n  {LIMIT}\n  [X-1.2] define spare = 1'
    base = _edition(folder, body)
    assert _messages(base) == []
    body = '  rename define bonus -> gems\n  override reference "bonus" ids X'
    assert _messages(_edition(folder, body, "child", parent=base.stem)) == []


# ------------------------------------------------------------ check's line


def _check(*files: str) -> Result:
    return CliRunner().invoke(main, ["check", *files])


def test_check_names_every_rulebook() -> None:
    result = _check(str(EXTRA))
    assert result.exit_code == 0, result.output
    assert "rule ids 23/23 of RULES.md and EXTRA.md present" in result.output
    # One reference: the line as it was.
    result = _check(str(ROOT / "editions" / "classic.rules"))
    assert "rule ids 21/21 of RULES.md present" in result.output


# ----------------------------------------------------------- diff, conform


@pytest.fixture(scope="module")
def extra() -> Compiled:
    compiled = compile_file(EXTRA)
    assert compiled.ok, compiled.diagnostics
    return compiled


def test_diff_lists_the_extra_reference_and_the_amended_rule(
    extra: Compiled, compiled_editions: dict[str, Compiled]
) -> None:
    classic = compiled_editions["classic"].resolved
    assert classic is not None and extra.resolved is not None
    d = diff_editions(classic, extra.resolved)
    assert {o.key_b: (o.ids_a, o.ids_b) for o in d.overridden} == {
        ("step", "token_limit"): (("S-4.1",), ("S-4.1", "X-1.1"))
    }
    assert {a.key: a.ids for a in d.added} == {
        ("reference", "EXTRA.md"): (),
        ("action", "take_one"): ("X-1.2",),
    }
    assert d.removed == ()
    assert ("reference", "RULES.md") in {i.key_b for i in d.inherited}
    assert "S-4.1" not in d.inherited_ids and len(set(d.inherited_ids)) == 20


def _status(result: Result, rule_id: str) -> str:
    found = re.search(rf"^{re.escape(rule_id)}\s+\| (.*)$", result.output, re.M)
    assert found, f"no row for {rule_id}:\n{result.output}"
    return found.group(1)


def _conform(b: Path) -> Result:
    return CliRunner().invoke(main, ["conform", "classic", str(b), "-g", "2", "--plies", "60"])


def _assert_inherited_identical_and_changes_listed(result: Result) -> None:
    assert result.exit_code == 0, result.output
    assert "DIVERGE" not in result.output
    assert _status(result, "S-4.1") == "changed: step token_limit overridden as S-4.1, X-1.1"
    assert _status(result, "X-1.1") == "added (overriding S-4.1)"
    assert _status(result, "X-1.2") == "added"
    for rule_id in ("S-2.1", "S-3.1", "S-3.5", "S-4.3", "S-4.4", "C-5.2", "E-6.3"):
        assert _status(result, rule_id).startswith("shared: identical on"), rule_id
    lines = result.output.splitlines()
    changed = next(i for i, line in enumerate(lines) if line.startswith("CHANGED from classic to"))
    assert lines[changed + 1 : changed + 4] == [
        "  step token_limit: S-4.1 -> S-4.1, X-1.1 (overridden)",
        "  reference EXTRA.md: no rule id (added)",
        "  action take_one: X-1.2 (added)",
    ]
    assert "no divergence: the 20 shared rule ids behave identically" in result.output


def test_conform_reports_inherited_rules_identical_and_changes_changed() -> None:
    _assert_inherited_identical_and_changes_listed(_conform(EXTRA))


def test_conform_through_several_ancestors(folder: Path) -> None:
    """A child of the variant that changes nothing: the same report, its
    changes accumulated along classic -> extra_reference -> child."""
    shutil.copy(EXTRA, folder / "extra_reference.rules")
    shutil.copy(VARIANTS / "EXTRA.md", folder / "EXTRA.md")
    child = _edition(folder, "", "child", parent="extra_reference")
    result = _conform(child)
    assert "child extends classic (classic -> extra_reference -> child)" in result.output
    _assert_inherited_identical_and_changes_listed(result)


# ----------------------------------------------------------- both engines


def test_the_variant_plays_alike_in_both_engines(extra: Compiled, tmp_path: Path) -> None:
    """References leave the engines alone: the variant's generated engine
    and the interpreter agree move by move, and its token limit is 9."""
    assert extra.model is not None
    generated = engine_module(extra.model, tmp_path)
    interpreted = InterpretedEngine(extra.model)
    limits = 0
    for seed in range(3):
        rng = random.Random(seed)
        states = [e.new_game(2, seed) for e in (generated, interpreted)]
        for _ in range(80):
            if generated.is_over(states[0]):
                break
            legal = [
                e.legal_actions(s) for e, s in zip((generated, interpreted), states, strict=True)
            ]
            assert legal[0] == legal[1]
            move = rng.choice(legal[0])
            states = [
                e.apply(s, move) for e, s in zip((generated, interpreted), states, strict=True)
            ]
            data = [e.to_json(s) for e, s in zip((generated, interpreted), states, strict=True)]
            assert data[0] == data[1]
            if data[0]["pending"] == "token_limit":
                limits += 1
                seat = data[0]["seats"][data[0]["current_player"]]
                assert sum(seat["tokens"].values()) > 9
    assert limits > 0


def test_conform_the_other_way_lists_the_same_changes() -> None:
    """From the variant to classic: the amended token limit is still a
    change (classic drops X-1.1), the extra rules are removed."""
    args = ["conform", str(EXTRA), "classic", "-g", "2", "--plies", "60"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert _status(result, "S-4.1") == "changed: step token_limit overridden as S-4.1"
    assert _status(result, "X-1.1") == "overridden by S-4.1"
    assert _status(result, "X-1.2") == "removed"
    assert "  action take_one: X-1.2 (removed)" in result.output.splitlines()
    assert "no divergence: the 20 shared rule ids behave identically" in result.output
