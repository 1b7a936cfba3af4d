"""Mutation tests of the front end.

The real rule files (and their CSV data) are mutated at random: lines
deleted, duplicated and swapped, numbers and names changed, the file cut
short, junk text, keywords, brackets and raw bytes inserted. Whatever comes
out, `compile_file` must answer with located diagnostics and never raise.

By default each property runs a fixed (derandomized) set of 150 examples, so
CI is fast and repeatable (300 took 106 s on a quiet machine); set
MUTATION_EXAMPLES=5000 (say) for a longer run with fresh random examples.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file
from splendor_rules.dsl.diagnostics import Sources, has_errors, render
from splendor_rules.dsl.parser import _lark

EDITIONS = Path(__file__).resolve().parent.parent / "editions"
ORIGINAL = {
    path.stem: path.read_text(encoding="utf-8") for path in sorted(EDITIONS.glob("*.rules"))
}
DATA_FILES = sorted(p.name for p in (EDITIONS / "data").glob("*.csv"))

EXAMPLES = int(os.environ.get("MUTATION_EXAMPLES") or 0)
SETTINGS = settings(
    max_examples=EXAMPLES or 150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=not EXAMPLES,
)

# The words and punctuation of the grammar, to insert as junk.
KEYWORDS = sorted({
    str(t.pattern.value) for t in _lark().terminals if t.pattern.type == "str"
})
BRACKETS = ["{", "}", "(", ")", "[", "]", '"', "'", "\\", "#", "\n", "..", ":", ",", "->",
            "\\n", '\\"', "\\x41", "\t", "\f", "\r", "\u2028", "{x}", "{(", "{}", "{{", "}}",
            "\ufeff", "\x00", "\x1b[31m", "/etc/passwd", "../", "/dev/zero"]
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
NUMBER = re.compile(r"[0-9]+")
WORD = re.compile(r"[^\s]+")

# ------------------------------------------------------------- mutations
# A mutation is a plain tuple, so that hypothesis prints (and shrinks) it.
# Positions are taken modulo the size of the text they apply to.

Mutation = tuple[object, ...]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _nth(pattern: re.Pattern[str], text: str, k: int) -> re.Match[str] | None:
    matches = list(pattern.finditer(text))
    return matches[k % len(matches)] if matches else None


def _misspell(word: str, how: int, at: int) -> str:
    if not word:
        return "x"
    i = at % len(word)
    if how == 0:  # drop a letter
        return word[:i] + word[i + 1:] or "x"
    if how == 1:  # double a letter
        return word[:i] + word[i] + word[i:]
    if how == 2 and len(word) > 1:  # swap two letters
        i = min(i, len(word) - 2)
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    return word[:i] + "q" + word[i + 1:]  # change a letter


def apply(text: str, mutation: Mutation) -> str:
    kind, *args = mutation
    lines = _lines(text)
    if kind == "delete_line":
        (i,) = args
        del lines[int(i) % len(lines)]
        return "\n".join(lines)
    if kind == "duplicate_line":
        (i,) = args
        i = int(i) % len(lines)
        lines.insert(i, lines[i])
        return "\n".join(lines)
    if kind == "line_from":  # a line of one of the editions, inserted anywhere
        source, k, at = args
        other = _lines(ORIGINAL[str(source)])
        lines.insert(int(at) % (len(lines) + 1), other[int(k) % len(other)])
        return "\n".join(lines)
    if kind == "delete_word":
        (k,) = args
        match = _nth(WORD, text, int(k))
        return text if match is None else text[:match.start()] + text[match.end():]
    if kind == "swap_lines":
        i, j = (int(a) % len(lines) for a in args)
        lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)
    if kind == "number":
        k, replacement = args
        match = _nth(NUMBER, text, int(k))
        if match is None:
            return text
        return text[:match.start()] + str(replacement) + text[match.end():]
    if kind in ("name_from_file", "misspell", "name_to"):
        k, *rest = args
        match = _nth(IDENTIFIER, text, int(k))
        if match is None:
            return text
        if kind == "name_from_file":
            (other,) = rest
            words = IDENTIFIER.findall(text)
            replacement = words[int(other) % len(words)]
        elif kind == "misspell":
            how, at = rest
            replacement = _misspell(match.group(), int(how), int(at))
        else:
            (replacement,) = rest
        return text[:match.start()] + str(replacement) + text[match.end():]
    if kind == "truncate":
        (at,) = args
        return text[: int(at) % (len(text) + 1)]
    if kind == "insert":
        at, junk = args
        at = int(at) % (len(text) + 1)
        return text[:at] + str(junk) + text[at:]
    if kind == "insert_bytes":
        at, junk = args
        at = int(at) % (len(text) + 1)
        assert isinstance(junk, bytes)
        return text[:at] + junk.decode("utf-8", "surrogateescape") + text[at:]
    raise AssertionError(f"unknown mutation {kind}")


positions = st.integers(min_value=0, max_value=10_000)
replacement_numbers = st.one_of(
    st.sampled_from(["0", "-1", "-12", "1", "2", "99999999999999999999999", "007", "1.5"]),
    st.integers(min_value=-1000, max_value=10**30).map(str),
)
junk = st.one_of(
    st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=12),
    st.lists(st.sampled_from(KEYWORDS), min_size=1, max_size=4).map(" ".join),
    st.lists(st.sampled_from(BRACKETS), min_size=1, max_size=3).map("".join),
    st.text(min_size=1, max_size=6),  # any unicode, surrogates and controls included
)
mutations: st.SearchStrategy[Mutation] = st.one_of(
    st.tuples(st.just("delete_line"), positions),
    st.tuples(st.just("duplicate_line"), positions),
    st.tuples(st.just("swap_lines"), positions, positions),
    st.tuples(st.just("line_from"), st.sampled_from(sorted(ORIGINAL)), positions, positions),
    st.tuples(st.just("delete_word"), positions),
    st.tuples(st.just("number"), positions, replacement_numbers),
    st.tuples(st.just("name_from_file"), positions, positions),
    st.tuples(st.just("misspell"), positions, st.integers(0, 3), positions),
    st.tuples(st.just("name_to"), positions,
              st.sampled_from([*KEYWORDS, "x", "_", "colours", "players", "score", "sum",
                               "class", "__init__", "_x", "editions", "Classic"])),
    st.tuples(st.just("truncate"), positions),
    st.tuples(st.just("insert"), positions, junk),
    st.tuples(st.just("insert_bytes"), positions, st.binary(min_size=1, max_size=6)),
)
several = st.lists(mutations, min_size=1, max_size=4)


# ------------------------------------------------------------ the checks


def _write(path: Path, text: str) -> None:
    path.write_bytes(text.encode("utf-8", "surrogateescape"))


def _setup(folder: Path) -> None:
    shutil.copytree(EDITIONS / "data", folder / "data")
    for rulebook in EDITIONS.glob("*.md"):
        shutil.copy(rulebook, folder / rulebook.name)
    for name, text in ORIGINAL.items():
        _write(folder / f"{name}.rules", text)


def _check(compiled: Compiled, sources: Sources, folder: Path) -> None:
    for diagnostic in compiled.diagnostics:
        span = diagnostic.span
        assert diagnostic.severity in ("error", "warning"), diagnostic
        assert diagnostic.message, diagnostic
        assert span.line >= 1 and span.column >= 1, diagnostic
        assert span.end_line >= span.line, diagnostic
        path = Path(span.file)
        assert path.is_file(), diagnostic
        assert path.resolve().is_relative_to(folder.resolve()), diagnostic
        # Lines as the compiler reads them: universal newlines, split at '\n'.
        lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
        assert span.line <= len(lines), diagnostic
        assert span.column <= len(lines[span.line - 1]) + 1, diagnostic
        shown = render(diagnostic, sources)
        assert shown.startswith(diagnostic.headline())
        # A control character of the input is shown escaped, never sent raw.
        assert all(char.isprintable() or char == "\n" for char in shown), shown
    if not has_errors(compiled.diagnostics):
        assert compiled.model is not None


class Found(NamedTuple):
    """A diagnostic, as the tests below look at it."""

    file: str  # the file's name, without its (temporary) folder
    line: int
    column: int
    message: str
    severity: str
    quoted: str  # the source line that render() quotes, stripped


def _compile(folder: Path, name: str) -> list[Found]:
    sources = Sources()
    compiled = compile_file(folder / f"{name}.rules", sources)
    _check(compiled, sources, folder)
    return [
        Found(Path(d.span.file).name, d.span.line, d.span.column, d.message, d.severity,
              (render(d, sources).split("\n")[1:2] or [""])[0].strip())
        for d in compiled.diagnostics
    ]


def _mutant(name: str, edits: list[Mutation], parent_edits: list[Mutation]) -> None:
    _mutant_diagnostics(name, edits, parent_edits)


def _mutant_diagnostics(
    name: str, edits: list[Mutation], parent_edits: list[Mutation] | None = None
) -> list[Found]:
    """Compile a mutant, check its diagnostics, and return them."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _setup(folder)
        text = ORIGINAL[name]
        for edit in edits:
            text = apply(text, edit)
        _write(folder / f"{name}.rules", text)
        if name == "marvel" and parent_edits:
            parent = ORIGINAL["classic"]
            for edit in parent_edits:
                parent = apply(parent, edit)
            _write(folder / "classic.rules", parent)
        return _compile(folder, name)


def test_unmutated_editions_compile_cleanly() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _setup(folder)
        for name in ORIGINAL:
            sources = Sources()
            compiled = compile_file(folder / f"{name}.rules", sources)
            assert compiled.ok, [d.headline() for d in compiled.diagnostics]
            _check(compiled, sources, folder)


# ------------------------------------------------ regression examples
# Each of these once crashed the front end, hung it, or put a diagnostic
# outside its file.

def _at(name: str, needle: str, after: bool = False) -> int:
    """The offset of `needle` in an original rule file (or just after it)."""
    index = ORIGINAL[name].index(needle)
    return index + len(needle) if after else index


def _line_of(name: str, needle: str) -> int:
    return next(i for i, line in enumerate(_lines(ORIGINAL[name])) if needle in line)


def _number_at(name: str, needle: str) -> int:
    """The index, among the numbers of a file, of the first number in `needle`."""
    at = _at(name, needle)
    return sum(1 for m in NUMBER.finditer(ORIGINAL[name]) if m.start() < at)


REGRESSIONS: list[tuple[str, list[Mutation], list[Mutation]]] = [
    # A second `remove` of one declaration: StopIteration in editions.py.
    ("marvel", [("duplicate_line", _line_of("marvel", "remove tiles noble"))], []),
    # `override` of a declaration removed above it: StopIteration in editions.py.
    ("marvel", [("insert", _at("marvel", "remove end target", after=True),
                 "\n  override end target: after the round once true")], []),
    # `remove` of a kind without a name: the transformer crashed on `key`.
    ("marvel", [("insert", _at("marvel", "remove end target"), "remove players\n  ")], []),
    # A NUL character in a data path, and in the reference path: ValueError.
    ("classic", [("insert_bytes", _at("classic", "classic_cards.csv"), b"\x00")], []),
    ("classic", [("insert_bytes", _at("classic", '"RULES.md"') + 1, b"\x00")], []),
    # A huge player count: the checker tabled an amount for every count (hung).
    ("classic", [("number", _number_at("classic", "players 2..4") + 1, "4000000000")], []),
    # A number of 5000 digits: int() refuses it, inside the transformer.
    ("classic", [("number", _number_at("classic", "players 2..4"), "9" * 5000)], []),
    # An escaped line break inside a message's {placeholder}: the diagnostic
    # was put 60 lines further down, past the end of the file.
    ("classic", [("insert", _at("classic", "{supply(c)", after=True), "\\n" * 60 + "+")], []),
    # Escapes before a placeholder shifted its diagnostics' columns.
    ("classic", [("insert", _at("classic", '"take two needs') + 1, '\\"\\"{nope}')], []),
    # A byte-order mark starting the file: "unexpected character".
    ("classic", [("insert", 0, "\ufeff")], []),
    # A chain of definitions each using the next: RecursionError in the checker.
    ("classic", [("insert", _at("classic", "## 2. Setup"),
                  "".join(f"define r{i} = r{i + 1}\n  " for i in range(1000))
                  + "define r1000 = 1\n")], []),
]


def test_regressions_reproduce_their_input() -> None:
    """The examples still make the inputs they were written for."""
    for name, edits, _ in REGRESSIONS:
        text = ORIGINAL[name]
        for edit in edits:
            text = apply(text, edit)
        assert text != ORIGINAL[name]
    text = apply(ORIGINAL["classic"], REGRESSIONS[5][1][0])
    assert "players 2..4000000000" in text
    text = apply(ORIGINAL["marvel"], REGRESSIONS[0][1][0])
    assert text.count("remove tiles noble") == 2


def _with_examples(test: Callable[..., None]) -> Callable[..., None]:
    for name, edits, parent_edits in REGRESSIONS:
        test = example(name=name, edits=edits, parent_edits=parent_edits)(test)
    return test


@SETTINGS
@_with_examples
@given(
    name=st.sampled_from(sorted(ORIGINAL)),
    edits=several,
    parent_edits=st.one_of(st.just([]), several),
)
def test_mutated_rule_files_give_located_diagnostics(
    name: str, edits: list[Mutation], parent_edits: list[Mutation]
) -> None:
    _mutant(name, edits, parent_edits)


# ------------------------------------------------------------ CSV data

# Each data file, with an edition that reads it (found in the rule files'
# text, so that a new edition and its data need no edit here).
CSV_OF = {
    data_file: next(name for name, text in ORIGINAL.items() if f'"data/{data_file}"' in text)
    for data_file in DATA_FILES
    if any(f'"data/{data_file}"' in text for text in ORIGINAL.values())
}


def _csv_rows(text: str) -> list[str]:
    return text.split("\n")


def apply_csv(text: str, mutation: Mutation) -> str:
    kind, *args = mutation
    rows = _csv_rows(text)
    if kind == "delete_row":
        (i,) = args
        del rows[int(i) % len(rows)]
        return "\n".join(rows)
    if kind == "duplicate_row":
        (i,) = args
        i = int(i) % len(rows)
        rows.insert(i, rows[i])
        return "\n".join(rows)
    if kind == "cell":
        i, j, value = args
        i = int(i) % len(rows)
        cells = rows[i].split(",")
        cells[int(j) % len(cells)] = str(value)
        rows[i] = ",".join(cells)
        return "\n".join(rows)
    if kind == "drop_column":
        (j,) = args
        out = []
        for row in rows:
            cells = row.split(",")
            if cells and row:
                del cells[int(j) % len(cells)]
            out.append(",".join(cells))
        return "\n".join(out)
    return apply(text, mutation)


cell_values = st.one_of(
    st.sampled_from(["", " ", "-1", "99999999999999999999", "x", "true", "1.5", '"', '"a,b"',
                     "white", "mind", "yellow", "0", "4", '"a\nb"', '"\n"', "\ufeff",
                     "\x1b[0m", "\r"]),
    st.text(max_size=6),
)
csv_mutations: st.SearchStrategy[Mutation] = st.one_of(
    st.tuples(st.just("delete_row"), positions),
    st.tuples(st.just("duplicate_row"), positions),
    st.tuples(st.just("cell"), positions, positions, cell_values),
    st.tuples(st.just("drop_column"), positions),
    st.tuples(st.just("truncate"), positions),
    st.tuples(st.just("insert"), positions, junk),
    st.tuples(st.just("insert_bytes"), positions, st.binary(min_size=1, max_size=4)),
)


def _csv_mutant(data_file: str, edits: list[Mutation]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _setup(folder)
        path = folder / "data" / data_file
        text = path.read_text(encoding="utf-8")
        for edit in edits:
            text = apply_csv(text, edit)
        _write(path, text)
        _compile(folder, CSV_OF[data_file])


# Regressions: cells that passed the reader's whole-number test but that
# int() refused (ValueError): a superscript digit, a doubled minus sign, a
# number of 5000 digits.
@SETTINGS
@example(data_file="marvel_cards.csv", edits=[("cell", 1, 6, "\u00b2")])
@example(data_file="classic_cards.csv", edits=[("cell", 1, 2, "--5")])
@example(data_file="classic_nobles.csv", edits=[("cell", 1, 0, "9" * 5000)])
@given(
    data_file=st.sampled_from(sorted(CSV_OF)),
    edits=st.lists(csv_mutations, min_size=1, max_size=3),
)
def test_mutated_data_files_give_located_diagnostics(
    data_file: str, edits: list[Mutation]
) -> None:
    _csv_mutant(data_file, edits)


def test_the_data_files_are_the_ones_mutated() -> None:
    assert set(DATA_FILES) == set(CSV_OF)



def _errors(name: str, edits: list[Mutation]) -> list[Found]:
    return [d for d in _mutant_diagnostics(name, edits) if d.severity == "error"]


def test_second_remove_is_reported() -> None:
    (error,) = _errors("marvel", REGRESSIONS[0][1])
    line = _line_of("marvel", "remove tiles noble") + 2
    assert (error.file, error.line) == ("marvel.rules", line)
    assert error.message == "tiles 'noble' is already removed"


def test_override_after_remove_is_reported() -> None:
    (error,) = _errors("marvel", REGRESSIONS[1][1])
    line = _line_of("marvel", "remove end target") + 2
    column = len("  override end ") + 1
    assert (error.file, error.line, error.column) == ("marvel.rules", line, column)
    assert error.message == "end 'target' is removed, so it cannot be overridden"


def test_remove_without_a_name() -> None:
    (error,) = _errors("marvel", REGRESSIONS[2][1])
    assert (error.file, error.line, error.column) == ("marvel.rules", 6, 9)
    assert error.message == "edition 'marvel' declares no player counts ('players 2..4')"
    assert error.quoted == 'edition marvel "Splendor: Marvel" extends classic {'


def test_nul_in_a_data_path() -> None:
    (error,) = _errors("classic", REGRESSIONS[3][1])
    assert (error.file, error.line, error.column) == ("classic.rules", 17, 14)
    assert error.message.startswith("cannot read data file")


def test_nul_in_the_reference_path() -> None:
    errors = _errors("classic", REGRESSIONS[4][1])
    assert [(e.file, e.line, e.column) for e in errors] == [("classic.rules", 9, 13)]
    assert errors[0].message.startswith("cannot read the reference")


def test_huge_player_count() -> None:
    found = _mutant_diagnostics("classic", REGRESSIONS[5][1])
    assert [d[:5] for d in found] == [
        ("classic.rules", 13, 3, "player counts 2..4000000000 go above 100", "error")
    ]


def test_number_too_long() -> None:
    found = _mutant_diagnostics("classic", REGRESSIONS[6][1])
    assert [d[:5] for d in found] == [
        ("classic.rules", 13, 11, "a number of 5000 digits is too long", "error")
    ]


def test_escaped_line_break_in_a_placeholder() -> None:
    found = _mutant_diagnostics("classic", REGRESSIONS[7][1])
    line = _line_of("classic", "take two needs") + 1
    column = ORIGINAL["classic"].split("\n")[line - 1].index('"take two') + 1
    assert [d[:4] for d in found] == [
        ("classic.rules", line, column, "a {...} part of a message cannot hold a line break")
    ]


def test_escapes_before_a_placeholder_keep_its_column() -> None:
    (error,) = _errors("classic", REGRESSIONS[8][1])
    assert error.file == "classic.rules"
    assert error.message.startswith("unknown name 'nope'")
    indent = len("    ")  # quoted lines are stripped
    assert error.column == error.quoted.index("{nope}") + 2 + indent


def test_a_line_separator_in_a_comment_does_not_shift_the_quoted_line() -> None:
    edits: list[Mutation] = [
        ("insert", _at("classic", "# Interpretation:") + 5, "\u2028\u2028\f"),
        ("insert", _at("classic", "choose picks") + len("choose picks"), "z"),
    ]
    (error,) = _errors("classic", edits)
    assert error.message.startswith("unknown name 'picks'")
    assert error.quoted == "gain 1 each of picks"


# Hand-written declarations that each reach some corner of the checker, added
# at the end of each edition: none may crash it.
ADVERSARIAL = [
    "remove players", "remove turn order", "define loop = loop + 1",
    "define a1 = b1\n  define b1 = a1", "define w = count(player: true)", "define s1 = sum(1)",
    "define m1 = min(1)", "define a2 = any(1)", "define a3 = all(x in 3: true)",
    "define q = supply(gold, gold)", "define q2 = bonus.x", "define q3 = (1).points",
    "define q4 = true[white]", "define q5 = 1 if 1 else true", "define q6 = holds(take_two)",
    "define q7 = did(noble)", "define q8 = won == won", "define q9 = market.cost[white]",
    "define r3 = count(k in won where k.requires[gold] > 0)",
    "define r5 = tokens(white) + tokens(won)", "define r6 = sum(won.requires)",
    "define r10 = bought.points.points", "define r11 = max(bought, 1)",
    "action x { choose k from market, colours\n move k to won }",
    "action y { let k = 1\n let k = 2 }", "action z { if true { pay bonus less bonus } }",
    'action z2 { require true else "{}{{}} {1 +} {(} {count(}" }',
    'action z3 { require true else "{k.cost[white]} {supply} {x in y where z}" }',
    "action z5 { choose n: 3 distinct from 3\n gain 1 each of n }",
    "trigger t: after card k enters won { gain 1 gold }",
    "majority tile mt { points 1 }",
    "majority tile mt2 { points 1\n measure true\n threshold 0\n"
    " contested after a card enters won\n kept in bought\n ties keep the holder }",
    "step s: claim one bought n into bought where n.points > 0",
    "step s3: return tokens above 0", "end e: after the round once 1",
    "override winners among 3: highest true, then lowest bought, ties share",
    "override decisions by the player: pay, pay, jump",
    "reveal bought: 3, one random face each", "token t1: wild, wild, at most 0 per player",
    "zone colours: cards of each player",
    'tiles t3 from "data/classic_cards.csv" with 1 rows, double-sided by nope { tier: int 3..1 }',
    'tiles t4 from "" { x: int }', 'tiles t5 from "/dev/null" { x: int }',
    'tiles t8 from "../RULES.md" { x: int }', 'tiles t9 from "data/../../x.csv" { x: int }',
    'tiles t10 from "data" { x: int }', 'override reference "/etc/passwd" ids S',
    'override reference "../RULES.md" ids S',
    'action z6 { require true else "{{literal}} {} { }" }',
    "define c0 = 0\n" + "".join(f"  define c{i} = c{i - 1} + 1\n" for i in range(1, 120)),
    "define k0 = k119\n" + "".join(f"  define k{i} = k{i - 1}\n" for i in range(1, 120)),
    'tiles t7 from "data/classic_nobles.csv", double-sided by points { points: int\n'
    '  points: int\n  requires: per colour {white: "x", nope: "y"} }',
    "rename colour white -> white", "rename define bonus -> score", "rename tiles noble -> cards",
    'override reference "data" ids S', "override market by points {0: 1}, 0 face up each",
    "override supply { each colour: 1\n each colour: 2\n nope: 3\n white: by players {1: 2} }",
    "override colours white", "override players 1..1", "override players 0..4",
    "override players 4..2",
]


@pytest.mark.parametrize("name", sorted(ORIGINAL))
@pytest.mark.parametrize("line", ADVERSARIAL)
def test_adversarial_declarations(name: str, line: str) -> None:
    at = ORIGINAL[name].rindex("}")
    errors = _errors(name, [("insert", at, "  " + line + "\n")])
    # Each of them is a mistake, and is reported as one.
    assert errors


@pytest.mark.parametrize(
    ("data_file", "column", "cell"),
    [("marvel_cards.csv", 6, "\u00b2"), ("classic_cards.csv", 2, "--5"),
     ("classic_nobles.csv", 0, "9" * 5000), ("classic_cards.csv", 3, "-1")],
)
def test_bad_whole_numbers_in_data(data_file: str, column: int, cell: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _setup(folder)
        path = folder / "data" / data_file
        _write(path, apply_csv(path.read_text(encoding="utf-8"), ("cell", 1, column, cell)))
        found = _compile(folder, CSV_OF[data_file])
    row = (EDITIONS / "data" / data_file).read_text(encoding="utf-8").split("\n")[1]
    cell_starts = [1] + [i + 2 for i, char in enumerate(row) if char == ","]
    errors = [d for d in found if d.severity == "error"]
    assert errors and errors[0].file == data_file
    assert (errors[0].line, errors[0].column) == (2, cell_starts[column])
    assert "is not a whole number" in errors[0].message


def test_a_line_separator_in_a_data_cell_does_not_shift_later_rows() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _setup(folder)
        path = folder / "data" / "classic_nobles.csv"
        text = path.read_text(encoding="utf-8")
        text = apply_csv(text, ("cell", 1, 0, "3\u2028"))  # still 3, once stripped
        text = apply_csv(text, ("cell", 3, 1, "  4"))
        text = apply_csv(text, ("cell", 3, 2, "x"))
        _write(path, text)
        found = [d for d in _compile(folder, "classic") if d.severity == "error"]
    assert [(d.file, d.line, d.column) for d in found] == [("classic_nobles.csv", 4, 7)]
    assert found[0].message.startswith("'x' is not a whole number")
    assert found[0].quoted == "3,  4,x,4,0,0"


def test_a_byte_order_mark_starting_a_rule_file_or_a_data_file_is_no_part_of_it() -> None:
    assert _mutant_diagnostics("classic", REGRESSIONS[9][1]) == []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _setup(folder)
        path = folder / "data" / "classic_cards.csv"
        _write(path, "\ufeff" + path.read_text(encoding="utf-8"))
        assert _compile(folder, "classic") == []


def test_a_long_chain_of_definitions_is_one_located_error() -> None:
    (error,) = _errors("classic", REGRESSIONS[10][1])
    assert error.file == "classic.rules"
    assert error.message.startswith("definition 'r900' nests over 100 levels")


def test_a_quoted_line_break_in_a_data_cell_does_not_shift_later_rows() -> None:
    """csv reads a quoted cell across lines as one record: the errors of
    later records are still located on the lines where they are."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _setup(folder)
        path = folder / "data" / "classic_nobles.csv"
        text = path.read_text(encoding="utf-8")
        text = apply_csv(text, ("cell", 1, 1, '"4\n"'))  # still 4, once stripped
        text = apply_csv(text, ("cell", 4, 2, "x"))  # line 4 of the file, now line 5
        _write(path, text)
        found = [d for d in _compile(folder, "classic") if d.severity == "error"]
    assert [(d.file, d.line, d.column) for d in found] == [("classic_nobles.csv", 5, 5)]
    assert found[0].message.startswith("'x' is not a whole number")
    assert found[0].quoted == text.split("\n")[4]
    assert found[0].quoted.split(",")[2] == "x"


@pytest.mark.parametrize(
    "path", ["/etc/passwd", "../RULES.md", "data/../../RULES.md", "/dev/zero", "data"]
)
def test_a_data_path_out_of_the_folder_is_refused_at_the_path(path: str) -> None:
    """Whatever the path leads to, it is refused where it is written, and
    nothing of the file it names is shown."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _setup(folder)
        text = ORIGINAL["classic"].replace('"data/classic_nobles.csv"', f'"{path}"')
        _write(folder / "classic.rules", text)
        found = [d for d in _compile(folder, "classic") if d.severity == "error"]
    line = _line_of("classic", "classic_nobles.csv") + 1
    assert [(d.file, d.line) for d in found][:1] == [("classic.rules", line)]
    assert found[0].message.startswith(f"cannot read data file '{path}': it is")
    assert not any("**S-" in d.message or "root:" in d.message for d in found)
