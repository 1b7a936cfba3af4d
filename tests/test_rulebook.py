"""`splendor-rules doc`: an edition as a rulebook in English
(compiler/tools/rulebook/, compiler/cli/doc.py)."""

from __future__ import annotations

import functools
import importlib.util
import os
import re
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner, Result
from fuzz.children import editions
from hypothesis import HealthCheck, given, settings

from splendor_rules.compiler.cli.doc import command as doc_command
from splendor_rules.compiler.frontend.pipeline import compile_file, edition_files
from splendor_rules.compiler.tools.rulebook import (
    CannotDocument,
    Rulebook,
    make_rulebook,
    render_rulebook,
)
from splendor_rules.compiler.tools.rulebook.palette import swatch
from splendor_rules.compiler.tools.rulebook.render import code, md

ROOT = Path(__file__).resolve().parent.parent
GOLDENS = ROOT / "tests" / "goldens" / "doc"
CLASSIC = ROOT / "editions" / "classic.rules"
EDITIONS = edition_files()
VARIANTS = sorted((ROOT / "tests" / "variants").glob("*.rules"))
# By default a fixed (derandomized) set of random editions; DOC_EXAMPLES=N
# for N fresh ones.
EXAMPLES = int(os.environ.get("DOC_EXAMPLES") or 0)


def _regenerate() -> ModuleType:
    """tests/goldens/doc/regenerate.py, loaded under a name of its own (the
    playthroughs' goldens have a regenerate.py too)."""
    spec = importlib.util.spec_from_file_location(
        "doc_goldens_regenerate", GOLDENS / "regenerate.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regenerate = _regenerate()


@functools.cache
def _book(path: Path) -> Rulebook:
    """The rulebook of a file of the project (each is made once per process)."""
    return make_rulebook(path)


def invoke(*args: str) -> Result:
    return CliRunner().invoke(doc_command, list(args))


def _house(tmp_path: Path, body: str) -> Path:
    """A house-rule file outside the project that extends classic."""
    path = tmp_path / "house.rules"
    path.write_text(f'edition house "House rules" extends classic {{\n{body}}}\n')
    return path


def _section(markdown: str, rule_id: str) -> str:
    """The text of one rule's section of a Markdown rulebook."""
    start = markdown.index(f"\n### {rule_id}")
    end = markdown.find("\n#", start + 1)
    return markdown[start:end]


@pytest.mark.parametrize("path", [*EDITIONS, *VARIANTS], ids=lambda p: p.stem)
def test_every_rule_id_has_its_section_with_sentences(path: Path):
    """Every rule id the edition states is a section, in its references'
    order, each spelt out in at least one sentence."""
    model = compile_file(path).model
    assert model is not None
    book = _book(path)
    ids = [r.rule_id for r in book.rules]
    assert sorted(ids) == sorted(model.rule_ids)
    referenced = [t.rule_id for t in model.rule_texts]
    assert ids[: len(referenced)] == referenced
    assert all(r.sentences and all(s.strip() for s in r.sentences) for r in book.rules)
    markdown, html = render_rulebook(book, "md"), render_rulebook(book, "html")
    for rule_id in model.rule_ids:
        assert f"\n### {rule_id}" in markdown
        assert f'<section id="{rule_id}">' in html


@pytest.mark.parametrize(
    "golden", sorted(GOLDENS.glob("*.md")) + sorted(GOLDENS.glob("*.html")), ids=lambda p: p.name
)
def test_the_rulebooks_of_the_shipped_editions_are_their_goldens(golden: Path):
    """Regenerate with `python tests/goldens/doc/regenerate.py`. The list
    comes from the goldens, so an edition added to editions/ breaks nothing."""
    edition, format = golden.stem, golden.suffix[1:]
    assert regenerate.expected(edition, format) == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: p.stem)
def test_the_html_page_is_one_self_contained_file(path: Path):
    """Inline style, no script, no other file or address named."""
    html = render_rulebook(_book(path), "html")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert "<style>" in html
    for banned in ("http:", "https:", "<link", "<script", "<img", "<iframe", "@import", "url("):
        assert banned not in html.lower(), banned
    assert re.findall(r"\b(?:src|srcset|action)=", html) == []
    links = re.findall(r'href="([^"]*)"', html)
    assert links and all(link.startswith("#") for link in links)
    anchors = set(re.findall(r'id="([^"]*)"', html))
    assert {link[1:] for link in links} <= anchors  # every link lands on the page


def test_cost_pips_take_the_colours_of_the_token_kinds():
    """Each cost is a pip per colour in that kind's colour, its count in it;
    the columns the score reads are shown as points."""
    html = render_rulebook(_book(CLASSIC), "html")
    red = swatch("red")
    assert red.fill == "#ff0000" and red.named == "red"
    assert f'<span class="pip" style="background-color: {red.fill}; color: {red.ink}" ' in html
    assert re.search(r'title="red">\d</span>', html)
    assert '<span class="points">3</span>' in html  # a tile's points


def test_a_kind_that_names_no_colour_takes_one_from_its_data_or_its_name():
    """A colour map's data values name the colour (`{yellow: mind}`); else a
    colour derived from the name, the same each time."""
    assert swatch("mind", "", ["yellow"]).named == "yellow"
    assert swatch("time_stone", "time stone").named is None
    assert swatch("time_stone") == swatch("time_stone") != swatch("time_stones")
    assert re.fullmatch(r"#[0-9a-f]{6}", swatch("qwerty").fill)
    assert swatch("white").ink == "#000000" and swatch("black").ink == "#ffffff"


def test_a_rule_is_spelt_out_from_what_the_file_states(tmp_path: Path):
    """The numbers, conditions, choices and payments of the model, not the
    reference's text: a house rule's 3 shows as 3, in its rule and in what
    changes."""
    text = CLASSIC.read_text()
    start = text.index("  [S-3.3] action take_two")
    block = text[start : text.index("  }\n", start) + 4].strip().replace(">= 4", ">= 3")
    house = _house(
        tmp_path,
        f"  override {block}\n  override [S-4.1] step token_limit: return tokens above 12\n",
    )
    markdown = render_rulebook(make_rulebook(house), "md")
    take_two = _section(markdown, "S-3.3")
    assert "The player chooses one, c, from the colours." in take_two
    assert "legal only if the number of c tokens in the supply is at least 3" in take_two
    assert "The player takes 2 c tokens from the supply." in take_two
    assert "more than 12 tokens" in _section(markdown, "S-4.1")
    changes = markdown[markdown.index("## What changes from classic") :]
    assert "### Overridden: action “take 2 tokens of one colour” (S-3.3)" in changes
    assert "require supply(c) >= 4" in changes and "require supply(c) >= 3" in changes
    assert "### Overridden: step token limit (S-4.1)" in changes


def test_the_shipped_editions_read_as_their_rules():
    """A few sentences of each kind, from the shipped rule files."""
    classic = render_rulebook(_book(CLASSIC), "md")
    assert "exactly the smaller of 3 and the number of open" in _section(classic, "S-3.2")
    assert "The player pays the cost of k less the player's bonus" in _section(classic, "S-3.5")
    assert "tokens of each colour: 4 with 2 players, 5 with 3, 7 with 4; gold: 5" in classic
    assert "at least 15" in _section(classic, "C-5.2")
    orient = render_rulebook(_book(ROOT / "editions" / "orient.rules"), "md")
    assert "each pays up to 2 of the price in any colours" in _section(orient, "O-3.6")
    assert "Stated with S-3.5, above" in _section(orient, "O-3.1")
    assert "The player returns given to the box" in _section(orient, "O-3.7")
    assert "## Cards: orient" in orient and "From orient\\_cards.csv, 30 rows." in orient
    marvel = render_rulebook(_book(ROOT / "editions" / "marvel.rules"), "md")
    assert "A player never returns “time stone” tokens." in _section(marvel, "M-4.1a")
    assert "- colour white is now mind" in marvel
    assert "### Removed: reveal noble (C-2.3)" in marvel


def test_markdown_escapes_markup_and_fences_any_backquotes():
    assert md("a_b *c* | d") == r"a\_b \*c\* \| d"
    assert code(["x ``` y"]).startswith("````\n")


def test_doc_prints_or_writes_atomically(tmp_path: Path):
    printed = invoke("classic")
    assert printed.exit_code == 0 and printed.output.startswith("# Splendor\n")
    assert invoke("classic", "-o", "-").output == printed.output
    out = tmp_path / "classic.html"
    out.write_text("old")
    written = invoke("classic", "-o", str(out))
    assert written.exit_code == 0, written.output
    assert out.read_text().startswith("<!DOCTYPE html>")  # the format from the name
    assert invoke("classic", "--format", "md", "-o", str(out)).exit_code == 0
    assert out.read_text() == printed.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["classic.html"]  # no temporary left


def test_doc_takes_a_rule_file_outside_the_project(tmp_path: Path):
    house = _house(tmp_path, "  override [S-4.1] step token_limit: return tokens above 12\n")
    result = invoke(str(house), "--format", "html")
    assert result.exit_code == 0, result.output
    assert "<h1>House rules</h1>" in result.output
    assert "What changes from classic" in result.output


def test_doc_refuses_bad_input_clearly(tmp_path: Path):
    unknown = invoke("nosuch")
    assert unknown.exit_code == 2 and "unknown edition 'nosuch'" in unknown.output
    broken = _house(tmp_path, "  players 2..5\n")
    out = tmp_path / "out.md"
    result = invoke(str(broken), "-o", str(out))
    assert result.exit_code == 1
    assert "house.rules:2:3: error: players is already declared" in result.output
    assert "Traceback" not in result.output and not out.exists()
    with pytest.raises(CannotDocument):
        make_rulebook(broken)
    unwritable = invoke("classic", "-o", str(tmp_path / "no" / "such" / "x.md"))
    assert unwritable.exit_code == 2 and "cannot write" in unwritable.output
    assert invoke("classic", "--format", "pdf").exit_code == 2


@settings(
    max_examples=EXAMPLES or 10,
    deadline=None,
    derandomize=not EXAMPLES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(editions())
def test_random_editions_read_as_rulebooks(drawn: Any):
    """The fuzz generator's editions, which use every construct of the
    language: each has an English sentence for every declaration and
    statement, in both formats, with every rule id."""
    with tempfile.TemporaryDirectory() as folder:
        path = drawn.write(Path(folder))
        model = compile_file(path).model
        assert model is not None
        book = make_rulebook(path)
        assert {r.rule_id for r in book.rules} == set(model.rule_ids)
        for format in ("md", "html"):
            render_rulebook(book, format)


def test_titles_are_escaped_and_every_construct_is_read(tmp_path: Path):
    """A title's markup is shown, never run (HTML escaped, Markdown
    escaped); `not`, a unary minus, `did` and `max` of three are words."""
    odd = tmp_path / "odd.rules"
    odd.write_text(
        'edition odd "A <b>bold</b> | *title*" extends classic {\n'
        "  define spare = -count(reserved) + max(1, 2, tokens(gold))\n"
        '  action shout "say <script>x</script>" {\n'
        "    choose c from colours\n"
        '    require not (supply(c) == 0 and did(take_two)) else "no"\n'
        "    gain 1 c\n"
        "  }\n"
        "}\n"
    )
    book = make_rulebook(odd)
    html, markdown = render_rulebook(book, "html"), render_rulebook(book, "md")
    assert "<script>" not in html and "<b>" not in html
    assert "<h1>A &lt;b&gt;bold&lt;/b&gt; | *title*</h1>" in html
    assert markdown.startswith(r"# A \<b\>bold\</b\> \| \*title\*")
    assert (
        "A player's spare is minus the number of the player's reserved cards plus the "
        "greatest of 1, 2 and the number of gold tokens the player holds." in markdown
    )
    assert (
        "legal only if not (the number of c tokens in the supply is 0 and the player took "
        "the action “take 2 tokens of one colour” this round)" in markdown
    )


def test_arithmetic_in_words_keeps_its_grouping():
    from splendor_rules.compiler.frontend import model as m
    from splendor_rules.compiler.tools.rulebook.english import English
    from splendor_rules.dsl.syntax import Span

    span = Span("x", 1, 1, 1, 1)

    def n(value: int) -> m.Expr:
        return m.Const(type=m.INT, span=span, value=value)

    def op(symbol: str, left: m.Expr, right: m.Expr) -> m.Expr:
        return m.Binary(type=m.INT, span=span, op=symbol, left=left, right=right)

    model = compile_file(CLASSIC).model
    assert model is not None
    english = English(model)
    assert english.expr(op("-", n(1), op("+", n(2), n(3)))) == "1 minus (2 plus 3)"
    assert english.expr(op("-", op("-", n(1), n(2)), n(3))) == "1 minus 2 minus 3"
    assert english.expr(op("*", op("+", n(2), n(3)), n(4))) == "(2 plus 3) times 4"
    assert english.expr(op("+", op("*", n(2), n(3)), n(4))) == "2 times 3 plus 4"


@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: p.stem)
def test_the_markdown_reads_as_markdown(path: Path):
    """Read by a CommonMark parser (markdown-it, with tables): a table per
    card or tile table with a row per card, a heading per rule, and every
    escape consumed (the words come out as written)."""
    from markdown_it import MarkdownIt

    book = _book(path)
    parser = MarkdownIt("commonmark").enable("table")
    tokens = parser.parse(render_rulebook(book, "md"))
    tables = [i for i, t in enumerate(tokens) if t.type == "table_open"]
    assert len(tables) == len(book.tables)
    for start, table in zip(tables, book.tables, strict=True):
        end = next(i for i in range(start, len(tokens)) if tokens[i].type == "table_close")
        rows = sum(t.type == "tr_open" for t in tokens[start:end])
        assert rows == len(table.rows) + 1  # and the header
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    for rule in book.rules:
        assert f"{rule.rule_id} {rule.title}".strip() in headings
    text = parser.render(render_rulebook(book, "md"))
    assert "\\" not in text
