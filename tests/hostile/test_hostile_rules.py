"""Hostile rule files and data: each finding of issue 9 (§3-§4), as a test.

A rule file is a program its user may have been handed. Checking one must
answer every input with located diagnostics (file:line:col, a caret, a hint
where one helps) and exit 1, never a traceback; it must read nothing outside
the folder tree of the edition's files, and print nothing of what lies there;
and its time must grow about linearly with the input.

The corpus is `tests/hostile/rules/`: each `.rules` file there (and in its
folders) whose comments say `# expect:` is a case, checked with
`splendor-rules check` from its own folder. Its comments state every error
the check reports, each as `FILE:LINE:COL: error: TEXT...` (the headline as
printed, up to where the line says), or `# expect: ok` for a file that
checks; `# absent: TEXT` names text the output must not hold. The cases that
need a file too large, or a link, a pipe or a device, are made here in a
temporary folder instead.

Sizes below are large enough that quadratic work would take minutes (the
findings measured 20 s for 20,000 bad cells and 137 s for 32,000 unused
definitions, 184 s for 20,000 undeclared columns), yet no test asserts a
time: where it can, a test counts work instead (rows past the declared count
are not read as rows; the checker's stack stays shallow on long chains).
"""

from __future__ import annotations

import ast
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from splendor_rules.compiler.backend.python.codegen import render_engine
from splendor_rules.compiler.cli import main
from splendor_rules.compiler.frontend import editions as resolver
from splendor_rules.compiler.frontend.checks.definitions import MAX_DEFINITION_DEPTH
from splendor_rules.compiler.frontend.files import MAX_DATA_FILE_BYTES, MAX_RULE_FILE_BYTES
from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file
from splendor_rules.compiler.runtime.interpreter.engine import InterpretedEngine
from splendor_rules.dsl.diagnostics import HINT_COMPARISONS, Sources, render

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "hostile" / "rules"
CASES = sorted(
    path
    for path in CORPUS.rglob("*.rules")
    if "# expect:" in path.read_text(encoding="utf-8", errors="replace")
)
CARET = re.compile(r"^ +\^", re.M)
HEADLINE = re.compile(
    r"^(?P<file>[^\n]+?):(?P<line>\d+):(?P<column>\d+): (?P<severity>error|warning): "
)


# ------------------------------------------------------------------ helpers


def _comments(path: Path, key: str) -> list[str]:
    text = path.read_text(encoding="utf-8", errors="replace").removeprefix("\ufeff")
    prefix = f"# {key}: "
    return [line[len(prefix) :] for line in text.split("\n") if line.startswith(prefix)]


def _check(folder: Path, *files: str) -> Result:
    """`splendor-rules check FILES` run from `folder`."""
    previous = Path.cwd()
    os.chdir(folder)
    try:
        return CliRunner().invoke(main, ["check", *files])
    finally:
        os.chdir(previous)


def _assert_answered(result: Result) -> None:
    """No traceback, only printable text, and each diagnostic located with
    its quoted line and a caret when the file could be read."""
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    assert all(char.isprintable() or char == "\n" for char in result.output), result.output
    lines = result.stderr.split("\n")
    for i, line in enumerate(lines):
        if HEADLINE.match(line) and i + 2 < len(lines) and lines[i + 1].startswith("    "):
            assert lines[i + 2].strip().startswith("^"), result.stderr


def _errors(result: Result) -> list[str]:
    return [
        line for line in result.stderr.split("\n") if HEADLINE.match(line) and ": error: " in line
    ]


def _compile(path: Path) -> tuple[Compiled, str]:
    sources = Sources()
    compiled = compile_file(path, sources)
    return compiled, "\n".join(render(d, sources) for d in compiled.diagnostics)


def _edition(folder: Path, name: str, body: str, file: str | None = None) -> Path:
    path = folder / (file or f"{name}.rules")
    path.write_text(f'edition {name} "{name}" extends classic {{\n{body}}}\n', encoding="utf-8")
    return path


TILES = "    points: int\n    name: text\n"


def _tiles(source: str, rows: int | None = None) -> str:
    count = f" with {rows} rows" if rows is not None else ""
    return f'  tiles extra from "{source}"{count} {{\n{TILES}  }}\n'


@contextmanager
def _shallow_stack(frames: int) -> Iterator[None]:
    """Allow only `frames` more frames than the caller's: a check that
    recursed once per definition (or per ancestor) would overflow it."""
    depth = 0
    frame = sys._getframe()
    while frame is not None:
        depth += 1
        frame = frame.f_back  # type: ignore[assignment]
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + frames)
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


# ------------------------------------------------------------------ the corpus


def test_the_corpus_has_the_cases() -> None:
    assert len(CASES) >= 20
    for case in CASES:
        assert (
            case.read_text(encoding="utf-8", errors="replace")
            .removeprefix("\ufeff")
            .startswith("# ")
        ), case


@pytest.mark.parametrize("case", CASES, ids=[str(c.relative_to(CORPUS)) for c in CASES])
def test_corpus_case(case: Path) -> None:
    expected = _comments(case, "expect")
    result = _check(case.parent, case.name)
    _assert_answered(result)
    for text in _comments(case, "absent"):
        assert text not in result.output
    if expected == ["ok"]:
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 1, result.output
    errors = _errors(result)
    assert len(errors) == len(expected), result.stderr
    for headline, wanted in zip(sorted(errors), sorted(expected), strict=True):
        assert headline.startswith(wanted), (headline, wanted)


# ------------------------------------------------------------ reading files


def test_nothing_outside_the_folder_is_opened(tmp_path: Path) -> None:
    """The data and reference paths that lead out of the folder (absolute,
    through '..', through a link) are refused before anything opens them."""
    secret = tmp_path / "secret.csv"
    secret.write_text("points,name\n1,hidden words\n2,more\n", encoding="utf-8")
    folder = tmp_path / "edition"
    (folder / "data").mkdir(parents=True)
    (folder / "data" / "link.csv").symlink_to(secret)
    (folder / "data" / "up").symlink_to(tmp_path)
    sources = [str(secret), "../secret.csv", "data/link.csv", "data/up/secret.csv"]
    body = "".join(
        f'  tiles t{i} from "{source}" {{\n{TILES}  }}\n' for i, source in enumerate(sources)
    )
    body += f'  override reference "{secret}" ids S, C, E\n'
    path = _edition(folder, "escape", body)
    opened: list[str] = []

    def audit(event: str, args: tuple[object, ...]) -> None:
        if event == "open" and args and isinstance(args[0], str | bytes | os.PathLike):
            opened.append(os.fsdecode(args[0]))

    sys.addaudithook(audit)  # stays for the session; it only records
    compiled, shown = _compile(path)
    seen = set(opened)
    opened.clear()
    assert not {p for p in seen if Path(p).resolve() == secret.resolve()}
    assert "hidden words" not in shown
    errors = [d for d in compiled.diagnostics if d.severity == "error"]
    assert len(errors) == len(sources) + 1
    assert all(
        d.span.file == "escape.rules" or d.span.file.endswith("escape.rules") for d in errors
    )
    assert sum("outside the folder" in d.message for d in errors) == 3
    assert sum("absolute path" in d.message for d in errors) == 2


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_is_refused_without_waiting(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    os.mkfifo(tmp_path / "data" / "pipe.csv")
    os.mkfifo(tmp_path / "pipe.rules")
    path = _edition(tmp_path, "reads_a_pipe", _tiles("data/pipe.csv"))
    result = _check(tmp_path, path.name, "pipe.rules")
    _assert_answered(result)
    assert result.exit_code == 1
    assert (
        "reads_a_pipe.rules:2:20: error: cannot read data file 'data/pipe.csv':"
        " it is not a regular file"
    ) in result.stderr
    assert (
        "pipe.rules:1:1: error: cannot read the rule file: it is not a regular file"
        in result.stderr
    )


def test_files_over_the_size_limits_are_refused_unread(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    with (tmp_path / "data" / "huge.csv").open("wb") as huge:  # sparse: no disk used
        huge.truncate(MAX_DATA_FILE_BYTES + 1)
    path = _edition(tmp_path, "huge", _tiles("data/huge.csv"))
    big_rules = tmp_path / "big.rules"
    with big_rules.open("wb") as big:
        big.truncate(MAX_RULE_FILE_BYTES + 1)
    result = _check(tmp_path, path.name, big_rules.name)
    _assert_answered(result)
    assert (
        "huge.rules:2:20: error: cannot read data file 'data/huge.csv': it is larger than 16 MiB"
        in result.stderr
    )
    assert (
        "big.rules:1:1: error: cannot read the rule file: it is larger than 4 MiB" in result.stderr
    )


def test_a_device_given_as_the_rule_file(tmp_path: Path) -> None:
    if not Path(os.devnull).exists() or os.name != "posix":
        pytest.skip("no /dev/null here")
    result = _check(tmp_path, os.devnull)
    _assert_answered(result)
    assert result.exit_code == 1
    assert (
        f"{os.devnull}:1:1: error: cannot read the rule file: it is not a regular file"
        in result.stderr
    )


def test_a_cell_over_csv_s_size_limit_is_located(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "long.csv").write_text(
        "points,name\n1,first\n2," + "x" * 200_000 + "\n", encoding="utf-8"
    )
    path = _edition(tmp_path, "long_cell", _tiles("data/long.csv", 2))
    result = _check(tmp_path, path.name)
    _assert_answered(result)
    (error,) = _errors(result)
    assert error.startswith("data/long.csv:3:1: error: cannot read this CSV record: a cell is")
    # The quoted line is cut around the spot, not printed whole.
    assert len(max(result.stderr.split("\n"), key=len)) < 1000


# ------------------------------------------------------------ near-linear work


def test_rows_past_the_declared_count_are_only_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the declared count no row is read as a row: a file of 200,000
    rows, each of them malformed past the first 90, reports the count alone."""
    (tmp_path / "data").mkdir()
    rows = [f"{i},row {i}" for i in range(90)] + ["x"] * 200_000
    (tmp_path / "data" / "long.csv").write_text(
        "points,name\n" + "\n".join(rows) + "\n", encoding="utf-8"
    )
    path = _edition(tmp_path, "long_table", _tiles("data/long.csv", 90))
    monkeypatch.chdir(tmp_path)
    compiled, _ = _compile(path)
    errors = [d.message for d in compiled.diagnostics if d.severity == "error"]
    assert errors == ["data/long.csv has 200090 rows; the rule file says 90"]


def test_many_bad_cells(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    rows = [f"bad{i},row {i}" for i in range(20_000)]
    (tmp_path / "data" / "bad.csv").write_text(
        "points,name\n" + "\n".join(rows) + "\n", encoding="utf-8"
    )
    path = _edition(tmp_path, "bad_cells", _tiles("data/bad.csv", 20_000))
    compiled, shown = _compile(path)
    assert sum(d.severity == "error" for d in compiled.diagnostics) == 20_000
    assert len(CARET.findall(shown)) == 20_000


def test_many_undeclared_columns(tmp_path: Path) -> None:
    """Each cell's column is found once per record, not once per mistake."""
    (tmp_path / "data").mkdir()
    extra = 20_000
    header = "points,name," + ",".join(f"h{i}" for i in range(extra))
    row = ",".join(["1", "first", *["0"] * extra])
    (tmp_path / "data" / "wide.csv").write_text(
        f"{header}\n{row}\n{row.replace('first', 'second')}\n", encoding="utf-8"
    )
    path = _edition(tmp_path, "wide", _tiles("data/wide.csv", 2))
    compiled, shown = _compile(path)
    warnings = [d for d in compiled.diagnostics if "is not declared" in d.message]
    assert len(warnings) == extra
    last = warnings[-1].span
    assert (last.line, last.column) == (1, len(header) - len(f"h{extra - 1}") + 1)
    assert len(max(shown.split("\n"), key=len)) < 1000


def test_many_unused_definitions(tmp_path: Path) -> None:
    count = 10_000
    body = "".join(f"  define unused{i} = {i}\n" for i in range(count))
    compiled, shown = _compile(_edition(tmp_path, "unused", body))
    assert compiled.ok
    assert sum(d.severity == "warning" for d in compiled.diagnostics) == count
    assert len(CARET.findall(shown)) == count


def test_many_unknown_names_among_many_known_ones(tmp_path: Path) -> None:
    """Each unknown name is compared with every known one for a "did you mean"
    hint: thousands of each took minutes (8,000: 142 s). The hints of a run
    share a bounded budget of comparisons; past it, messages go without."""
    count = 3_000
    body = "".join(f"  define known{i} = unknown{i}\n" for i in range(count))
    compiled, _ = _compile(_edition(tmp_path, "unknowns", body))
    unknown = [d for d in compiled.diagnostics if d.message.startswith("unknown name")]
    assert len(unknown) == count
    hinted = sum(d.hint is not None for d in unknown)
    assert 0 < hinted <= HINT_COMPARISONS // count
    assert unknown[0].hint == "did you mean 'known0'?"


# ------------------------------------------------------------------ depth


def _chain(length: int, reverse: bool = False, cycle: bool = False) -> str:
    lines = [f"  define d{i} = d{i - 1} + 1\n" for i in range(1, length)]
    lines.insert(0, f"  define d0 = {f'd{length - 1}' if cycle else '0'}\n")
    if reverse:
        lines.reverse()
    return "".join(lines)


@pytest.mark.parametrize(
    ("reverse", "cycle"), [(False, False), (True, False), (False, True), (True, True)]
)
def test_a_chain_of_1000_definitions_is_refused_without_recursing(
    tmp_path: Path, reverse: bool, cycle: bool
) -> None:
    """Forwards or backwards, closed into a loop or not: the checker follows
    the chain in a loop (its stack stays shallow), and a chain is a located
    error at the first definition over the limit, not a RecursionError at play."""
    path = _edition(tmp_path, "chain", _chain(1000, reverse, cycle))
    with _shallow_stack(400):
        compiled, _ = _compile(path)
    errors = [d for d in compiled.diagnostics if d.severity == "error"]
    assert errors and not compiled.ok
    if cycle:
        assert any("depends on itself" in d.message for d in errors)
    else:
        (error,) = errors
        assert error.message.startswith(f"definition 'd{MAX_DEFINITION_DEPTH // 2}' nests over")
        line = 2 + (999 - MAX_DEFINITION_DEPTH // 2 if reverse else MAX_DEFINITION_DEPTH // 2)
        assert (error.span.line, error.span.column) == (line, 10)


def test_the_deepest_accepted_chain_plays_in_both_engines(tmp_path: Path) -> None:
    """The limit keeps both engines inside Python's stack: a chain at the
    limit, of the most call-hungry kind, read inside a deeply nested score."""
    # Each link nests 5 levels (a condition, a call, a quantifier, a comparison,
    # the use of the one before): d19 nests 96 levels, d20 would nest 101.
    link = "  define d{} = (1 if any(player: d{} >= 0) else 0)\n"
    links = "".join(link.format(i, i - 1) for i in range(1, 20))
    body = "  define d0 = 0\n" + links
    nested = "-" * 80 + "d19"  # as deep as the parser lets a score be
    body += f"  override [C-5.1] score = sum(bought.points) + sum(won.points) + {nested}\n"
    path = _edition(tmp_path, "deepest", body)
    compiled, shown = _compile(path)
    assert compiled.ok and compiled.model is not None, shown
    module: dict[str, object] = {}
    exec(compile(render_engine(compiled.model, tmp_path), "<deepest>", "exec"), module)
    generated = type("Module", (), module)
    scores = []
    for engine in (generated, InterpretedEngine(compiled.model)):
        state = engine.new_game(2, 1)
        for _ in range(4):
            state = engine.apply(state, engine.legal_actions(state)[0])
        scores.append(tuple(engine.scores(state)))
    assert scores == [(1, 1), (1, 1)]  # d19 is 1, the cards bought so far score 0
    # One definition more, and the chain is refused.
    deeper = path.read_text().replace("  override", link.format(20, 19) + "  override")
    path.write_text(deeper.replace("-d19", "-d20"))
    compiled, _ = _compile(path)
    assert [d.message.split(",")[0] for d in compiled.diagnostics if d.severity == "error"] == [
        f"definition 'd20' nests over {MAX_DEFINITION_DEPTH} levels"
    ]


def test_a_long_line_of_parents_is_refused_without_recursing(tmp_path: Path) -> None:
    limit = resolver.MAX_ANCESTORS
    (tmp_path / "e0.rules").write_text('edition e0 "0" extends classic {\n}\n')
    for i in range(1, limit + 50):
        (tmp_path / f"e{i}.rules").write_text(f'edition e{i} "{i}" extends e{i - 1} {{\n}}\n')
    with _shallow_stack(400):
        compiled, _ = _compile(tmp_path / f"e{limit - 1}.rules")  # classic is the 100th
        assert compiled.ok, compiled.diagnostics
        compiled, _ = _compile(tmp_path / f"e{limit + 49}.rules")
    (error,) = compiled.diagnostics
    last = limit + 49
    assert (error.span.line, error.span.column) == (
        1,
        len(f'edition e{last} "{last}" extends ') + 1,
    )
    assert error.message.endswith(f"over {limit} editions")


def test_a_flat_chain_of_operators_is_no_nesting(tmp_path: Path) -> None:
    terms = 5_000
    body = (
        "  override [C-5.1] score = sum(bought.points) + sum(won.points)"
        + " + 0 - 0" * terms
        + "\n"
    )
    with _shallow_stack(400):
        compiled, shown = _compile(_edition(tmp_path, "flat", body))
    assert compiled.ok, shown


# ------------------------------------------------------------------ names


def test_the_reserved_edition_names_are_the_package_s_own() -> None:
    """Every name generated/__init__.py binds that could be an edition's
    name is reserved (the build writes that file from its template)."""
    package = ROOT / "generated" / "__init__.py"
    bound: set[str] = set()
    statements = list(ast.parse(package.read_text(encoding="utf-8")).body)
    while statements:  # the module's own names, in its body and its `if` blocks
        node = statements.pop()
        if isinstance(node, ast.If):
            statements += [*node.body, *node.orelse]
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            bound.update(n.id for n in targets if isinstance(n, ast.Name))
    editions = {p.stem for p in (ROOT / "generated").glob("*.py")} - {"__init__"}
    possible = {name for name in bound - editions if resolver.EDITION_NAME.fullmatch(name)}
    assert possible <= resolver.RESERVED_EDITION_NAMES


def test_every_shipped_edition_name_is_valid() -> None:
    for path in (ROOT / "editions").glob("*.rules"):
        name = resolver.declared_edition_name(path)
        assert name is not None and resolver.EDITION_NAME.fullmatch(name), path


def test_paths_are_shown_alike_in_every_line_of_a_run(tmp_path: Path) -> None:
    _edition(tmp_path, "shown", "  define x = nope\n")
    (tmp_path / "sub").mkdir()
    result = _check(tmp_path, "sub/../shown.rules")
    named = {line.split(":")[0] for line in result.stderr.split("\n") if ".rules" in line}
    assert len(named) == 1, named
