"""The formatter (dsl/formatting.py, `splendor-rules fmt`).

On every rule file the project has (editions, variants, the parsable broken
goldens) and on random editions of the fuzz generator with comments strewn
through them: formatting is idempotent, keeps every comment (the same
comments, by count and text), gives the same syntax tree, and, for a file
that checks, the same checked model (tests/same_meaning.py: equal but for
source positions). Random editions: a fixed set by default; FMT_EXAMPLES=N
draws N fresh ones (docs/testing.md).
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fuzz.children import editions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from same_meaning import same_model

from splendor_rules.compiler.cli import main
from splendor_rules.compiler.frontend.pipeline import compile_file, edition_files
from splendor_rules.dsl.diagnostics import display_path
from splendor_rules.dsl.formatting import WIDTH, Unparsable, comments, format_source
from splendor_rules.dsl.parser import parse_edition

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = sorted((ROOT / "tests" / "variants").glob("*.rules"))
BROKEN = sorted((ROOT / "tests" / "broken").glob("*.rules"))
CHECKING = [*edition_files(), *VARIANTS]  # files whose models are compared
RULE_FILES = [
    p for p in [*CHECKING, *BROKEN] if parse_edition(p.read_text(encoding="utf-8"), "t")[0]
]
EXAMPLES = int(os.environ.get("FMT_EXAMPLES") or 0)


def _comment_texts(text: str) -> Counter[str]:
    return Counter(c.text for c in comments(text))


def _faithful(text: str, name: str = "<test>") -> str:
    """The formatted text, checked to be idempotent, to keep every comment
    and to parse to the same tree."""
    formatted = format_source(text, name)
    assert format_source(formatted, name) == formatted, formatted
    assert _comment_texts(formatted) == _comment_texts(text), formatted
    before, _ = parse_edition(text, name)
    after, diagnostics = parse_edition(formatted, name)
    assert after == before, (formatted, diagnostics)
    return formatted


def test_every_rule_file_is_found():
    assert len(edition_files()) >= 3 and len(VARIANTS) >= 5
    assert sum(p.parent.name == "broken" for p in RULE_FILES) > 40


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_rule_file_formats_faithfully(path: Path):
    _faithful(path.read_text(encoding="utf-8"), str(path))


def _formatted_copy(path: Path, folder: Path) -> Path:
    """The rule file's folder copied (its data, its rulebooks), with the
    file formatted."""
    copy = folder / path.parent.name
    shutil.copytree(path.parent, copy)
    target = copy / path.name
    target.write_text(format_source(path.read_text(encoding="utf-8")), encoding="utf-8")
    return target


@pytest.mark.parametrize("path", CHECKING, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_formatted_edition_has_the_same_checked_model(path: Path, tmp_path: Path):
    original, formatted = compile_file(path), compile_file(_formatted_copy(path, tmp_path))
    assert original.ok and formatted.ok, formatted.diagnostics
    assert original.model is not None and formatted.model is not None
    assert same_model(original.model, formatted.model)


def test_the_model_equality_sees_a_change_of_meaning(tmp_path: Path):
    path = edition_files()[0]
    copy = _formatted_copy(path, tmp_path)
    copy.write_text(copy.read_text(encoding="utf-8").replace(": 5\n", ": 6\n"), encoding="utf-8")
    original, changed = compile_file(path), compile_file(copy)
    assert original.model is not None and changed.model is not None
    assert not same_model(original.model, changed.model)


def _messages(path: Path) -> list[tuple[str, str]]:
    """A file's diagnostics, by severity and message (in which the folder
    of the file, named in a few, is left out)."""
    found = compile_file(path).diagnostics
    folders = sorted({str(path.parent), display_path(path.parent)}, key=len)
    messages = []
    for d in found:
        message = d.message
        for folder in reversed(folders):  # longest first
            message = message.replace(folder, "<folder>")
        messages.append((d.severity, message))
    return sorted(messages)


@pytest.mark.skipif(not EXAMPLES, reason="long mode: FMT_EXAMPLES=N (a second each)")
@pytest.mark.parametrize("path", [p for p in RULE_FILES if p in BROKEN], ids=lambda p: p.name)
def test_a_formatted_broken_file_gets_the_same_messages(path: Path, tmp_path: Path):
    assert _messages(_formatted_copy(path, tmp_path)) == _messages(path)


def test_the_shipped_editions_are_formatted():
    for path in edition_files():
        text = path.read_text(encoding="utf-8")
        assert format_source(text, str(path)) == text, path


# ------------------------------------------------------------- the layout

_SOURCE = """\
# Before the edition.

edition e "E"   extends classic {    # after the head


  # Own line, before a declaration.
  override [C-5.1]   score = sum(bought.points)+sum(won.points)  # trailing
  action a "A" {
    let x = count(k in bought where (k.tier == 1 or  # inside an expression
      k.tier == 2))
    require x >= 0 else "a # in a string"  # after a string with a #

    gain 1 white
    # last in the block
  }


  remove action take_two
  # last in the edition
}
# after the end
"""

_FORMATTED = """\
# Before the edition.

edition e "E" extends classic {  # after the head

  # Own line, before a declaration.
  override [C-5.1] score = sum(bought.points) + sum(won.points)  # trailing
  action a "A" {
    # inside an expression
    let x = count(k in bought where k.tier == 1 or k.tier == 2)
    require x >= 0 else "a # in a string"  # after a string with a #

    gain 1 white
    # last in the block
  }

  remove action take_two
  # last in the edition
}
# after the end
"""


def test_comments_go_beside_the_code_they_were_written_by():
    assert _faithful(_SOURCE) == _FORMATTED


def test_a_byte_order_mark_and_crlf_line_ends_are_dropped():
    text = "\ufeff" + _SOURCE.replace("\n", "\r\n")
    assert _faithful(text) == _FORMATTED


def test_a_long_line_is_broken_inside_its_widest_parentheses():
    condition = " and ".join(f"bonus[c] >= n.requires_{i}[c]" for i in range(4))
    text = f'edition e "E" {{\n  define d = all(c in colours: {condition}, k)\n}}\n'
    lines = _faithful(text).splitlines()
    assert lines[1] == "  define d = all("
    assert lines[2] == f"    c in colours: {condition},"
    assert lines[3:] == ["    k", "  )", "}"]
    assert max(map(len, lines)) > WIDTH  # a part too long, with no parentheses, stays whole


def test_a_long_column_map_is_broken_with_continued_lines():
    pairs = ", ".join(f'{c}: "cost_of_the_colour_{c}"' for c in ("white", "blue", "green"))
    column = f"    cost: per colour {{{pairs}}}"
    text = f'edition e "E" {{\n  cards from "c.csv" {{\n{column}\n  }}\n}}\n'
    lines = _faithful(text).splitlines()
    assert lines[2:7] == [
        "    cost: per colour { \\",
        '      white: "cost_of_the_colour_white", \\',
        '      blue: "cost_of_the_colour_blue", \\',
        '      green: "cost_of_the_colour_green" \\',
        "    }",
    ]


def test_short_parentheses_and_strings_are_not_broken():
    message = "m" * WIDTH
    text = f'edition e "E" {{\n  action a {{\n    require count(x) < 3 else "{message}"\n  }}\n}}\n'
    assert _faithful(text) == text


def test_a_long_comment_is_never_broken():
    comment = "#" + " (a long comment, in parentheses)" * 5
    text = f'{comment}\nedition e "E" {{\n  {comment}\n  players 2..4  {comment}\n}}\n'
    assert _faithful(text) == text


def test_unparsable_text_raises_the_parsers_located_message():
    with pytest.raises(Unparsable) as raised:
        format_source('edition e "E" {\n  players 2..\n}\n', "my.rules")
    assert str(raised.value.diagnostic.span) == "my.rules:2:14"
    assert str(raised.value).startswith("my.rules:2:14: error: ")


# ---------------------------------------------------------- random editions


def _strewn(text: str, draws: list[int]) -> str:
    """The text with comments added: before some lines, after others."""
    out = []
    for i, line in enumerate(text.splitlines()):
        choice = draws[i % len(draws)]
        indent = line[: len(line) - len(line.lstrip())]
        if choice == 1:
            out.append(f"{indent}# before {i}")
        out.append(f"{line}  # after {i} # and more" if choice == 2 and line.strip() else line)
        if choice == 3:
            out.append("")
    return "\n".join(out) + "\n"


@settings(
    max_examples=EXAMPLES or 10,
    deadline=None,
    derandomize=not EXAMPLES,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,  # each example writes a folder of its own
    ],
)
@given(drawn=editions(), draws=st.lists(st.integers(0, 3), min_size=1, max_size=50))
def test_random_editions_with_comments_format_faithfully(
    drawn: Any, draws: list[int], tmp_path: Path
) -> None:
    rules = {n: _strewn(t, draws) for n, t in drawn.files.items() if n.endswith(".rules")}
    formatted = {n: _faithful(t, n) for n, t in rules.items()}
    example = tmp_path / str(len(list(tmp_path.iterdir())))
    models = []
    for kind, files in (("original", rules), ("formatted", formatted)):
        folder = example / kind
        for name, text in {**drawn.files, **files}.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text, encoding="utf-8")
        compiled = compile_file(folder / drawn.main)
        assert compiled.ok, (drawn, kind, compiled.diagnostics)
        models.append(compiled.model)
    assert same_model(*models)


def _inside_parentheses(text: str) -> list[int]:
    """The places just after a `(` or a `,` inside parentheses, outside
    strings and comments: where a line may break."""
    places, depth, quoted, commented = [], 0, False, False
    for i, char in enumerate(text):
        if commented:
            commented = char != "\n"
        elif quoted:
            quoted = char != '"' or text[i - 1] == "\\"
        elif char == "#":
            commented = True
        elif char == '"':
            quoted = True
        elif char in "()":
            depth += 1 if char == "(" else -1
        if not (commented or quoted) and char in "(," and depth > 0:
            places.append(i + 1)
    return places


_BREAKS = ["\n", "  # broken here\n", "\n    # alone here\n"]


@settings(max_examples=EXAMPLES or 20, deadline=None, derandomize=not EXAMPLES)
@given(
    path=st.sampled_from(CHECKING),
    picks=st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(_BREAKS)), max_size=12),
)
def test_lines_broken_inside_parentheses_with_comments_format_faithfully(
    path: Path, picks: list[tuple[int, str]]
) -> None:
    text = path.read_text(encoding="utf-8")
    places = _inside_parentheses(text)
    for at, inserted in sorted(((places[i % len(places)], s) for i, s in picks), reverse=True):
        text = text[:at] + inserted + text[at:]
    _faithful(text, str(path))


# ------------------------------------------------------------ the command


def test_fmt_check_names_what_would_change_and_writes_nothing(tmp_path: Path):
    path = tmp_path / "my.rules"
    path.write_text(_SOURCE, encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", "--check", str(path)])
    assert result.exit_code == 1
    assert "would reformat" in result.stderr and path.read_text(encoding="utf-8") == _SOURCE
    result = CliRunner().invoke(main, ["fmt", "--diff", str(path)])
    assert result.exit_code == 0 and path.read_text(encoding="utf-8") == _SOURCE
    assert "+  override [C-5.1] score = sum(bought.points) + sum(won.points)  # trailing" in (
        result.stdout.splitlines()
    )


def test_fmt_writes_the_formatted_file_then_finds_it_formatted(tmp_path: Path):
    path = tmp_path / "my.rules"
    path.write_text(_SOURCE, encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", str(tmp_path)])  # a folder: its rule files
    assert result.exit_code == 0, result.output
    assert path.read_text(encoding="utf-8") == _FORMATTED
    assert [p.name for p in tmp_path.iterdir()] == ["my.rules"]  # no temporary file left
    result = CliRunner().invoke(main, ["fmt", "--check", str(path)])
    assert result.exit_code == 0 and "1 file already formatted" in result.stderr


def test_fmt_leaves_an_unparsable_file_as_it_is(tmp_path: Path):
    path = tmp_path / "my.rules"
    text = 'edition e "E" {\n  players 2..\n}\n'
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", str(path)])
    assert result.exit_code == 1
    assert f"{path}:2:14: error: " in result.stderr
    assert path.read_text(encoding="utf-8") == text


def test_fmt_without_files_checks_the_shipped_editions():
    result = CliRunner().invoke(main, ["fmt", "--check"])
    assert result.exit_code == 0, result.output
    assert f"{len(edition_files())} files already formatted" in result.stderr


def test_fmt_with_a_bad_command_line_exits_2():
    assert CliRunner().invoke(main, ["fmt", "--nope"]).exit_code == 2
    assert CliRunner().invoke(main, ["fmt", "no/such.rules"]).exit_code == 2
