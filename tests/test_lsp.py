"""The language server, `splendor-rules lsp`, through a real JSON-RPC client
over pipes (compiler/tools/lsp/client.py), on every shipped edition: the
buffer's unsaved text is what is checked, edits come as ranges in the
middle of the file, and every answer is compared with the front end's own
reading of the same text. One server process serves the whole module."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls", reason="the language server needs pygls: pip install -e '.[lsp]'")

from splendor_rules.compiler.frontend.pipeline import compile_file, edition_files
from splendor_rules.compiler.tools.lsp.client import Client, ServerError
from splendor_rules.dsl.formatting import format_source

EDITIONS = edition_files()
IDS = [path.stem for path in EDITIONS]
COMMAND = [sys.executable, "-c", "from splendor_rules.compiler.cli import main; main()", "lsp"]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    """One server for the module, started in a folder of its own (so that
    no path is relative to the working folder)."""
    folder = tmp_path_factory.mktemp("lsp")
    with (folder / "stderr").open("wb") as stderr:
        started = Client(COMMAND, cwd=folder, stderr=stderr)
        started.initialize(folder)
        yield started
        assert started.close() == 0


class Document:
    """An open rule file, edited in the server's buffer only."""

    def __init__(self, client: Client, path: Path) -> None:
        self.client = client
        self.path = path.resolve()
        self.uri = self.path.as_uri()
        self.text = self.path.read_text(encoding="utf-8")
        self.version = 1
        item = {"uri": self.uri, "languageId": "splendor-rules", "version": 1, "text": self.text}
        client.notify("textDocument/didOpen", {"textDocument": item})
        self.diagnostics = client.diagnostics(self.uri, 1)

    def edit(self, line: int, start: int, end: int, new: str) -> list[Any]:
        """Replace characters start..end of a line (0-based) and wait for
        the diagnostics of the new version."""
        lines = self.text.split("\n")
        lines[line] = lines[line][:start] + new + lines[line][end:]
        self.text = "\n".join(lines)
        self.version += 1
        change = {"range": _range(line, start, line, end), "text": new}
        params = {"textDocument": {"uri": self.uri, "version": self.version}}
        self.client.notify("textDocument/didChange", {**params, "contentChanges": [change]})
        self.diagnostics = self.client.diagnostics(self.uri, self.version)
        return self.diagnostics

    def insert_line(self, line: int, new: str) -> list[Any]:
        lines = self.text.split("\n")
        lines.insert(line, new)
        self.text = "\n".join(lines)
        self.version += 1
        change = {"range": _range(line, 0, line, 0), "text": new + "\n"}
        params = {"textDocument": {"uri": self.uri, "version": self.version}}
        self.client.notify("textDocument/didChange", {**params, "contentChanges": [change]})
        self.diagnostics = self.client.diagnostics(self.uri, self.version)
        return self.diagnostics

    def ask(self, method: str, line: int, character: int, **more: Any) -> Any:
        position = {"line": line, "character": character}
        return self.client.request(
            method, {"textDocument": {"uri": self.uri}, "position": position, **more}
        )

    def close(self) -> None:
        self.client.notify("textDocument/didClose", {"textDocument": {"uri": self.uri}})

    def checked(self) -> Any:
        """The front end's reading of the buffer's text."""
        return compile_file(self.path, texts={self.path: self.text})


@pytest.fixture
def opened(client: Client, request: pytest.FixtureRequest) -> Iterator[Document]:
    document = Document(client, request.param)
    yield document
    document.close()


def _range(line: int, start: int, end_line: int, end: int) -> dict[str, dict[str, int]]:
    return {
        "start": {"line": line, "character": start},
        "end": {"line": end_line, "character": end},
    }


def find(text: str, pattern: str, group: int = 1, after: int = 0) -> tuple[int, int, int]:
    """The 0-based line and columns of a regex group's first match at or after a line."""
    lines = text.split("\n")
    for number in range(after, len(lines)):
        found = re.search(pattern, lines[number].split("#")[0])
        if found:
            return number, found.start(group), found.end(group)
    raise AssertionError(f"{pattern!r} not found")


EXTENDS = r'^edition\s+\w+\s+"[^"]*"\s+extends\s+(\w+)'


def ancestors(path: Path) -> list[Path]:
    """A rule file and the files it extends, found beside it, itself first."""
    chain = [path.resolve()]
    while True:
        found = re.search(
            r'^edition\s+\w+\s+"[^"]*"\s+extends\s+(\w+)', chain[-1].read_text(), re.M
        )
        if not found:
            return chain
        chain.append(chain[-1].with_name(f"{found.group(1)}.rules"))


def top_level_line(text: str) -> int:
    """A line near the middle of the file that sits between declarations."""
    depth, starts = 0, []
    for number, line in enumerate(text.split("\n")):
        if depth == 1:
            starts.append(number)
        code = re.sub(r'"([^"\\]|\\.)*"', "", line).split("#")[0]
        depth += code.count("{") - code.count("}")
    middle = len(text.split("\n")) // 2
    return min(starts, key=lambda number: abs(number - middle))


def editions(test: Any) -> Any:
    return pytest.mark.parametrize("opened", EDITIONS, ids=IDS, indirect=True)(test)


# ---------------------------------------------------------------- diagnostics


def _published(diagnostics: list[Any]) -> list[tuple[int, int, str]]:
    return sorted(
        (d["range"]["start"]["line"], d["range"]["start"]["character"], d["message"])
        for d in diagnostics
    )


def _expected(document: Document) -> list[tuple[int, int, str]]:
    compiled = document.checked()
    own = [d for d in compiled.diagnostics if Path(d.span.file).resolve() == document.path]
    return sorted(
        (d.span.line - 1, d.span.column - 1, d.message + (f" ({d.hint})" if d.hint else ""))
        for d in own
    )


@editions
def test_an_edition_opens_with_the_diagnostics_of_check(opened: Document) -> None:
    assert _published(opened.diagnostics) == _expected(opened)
    assert not any(d["severity"] == 1 for d in opened.diagnostics)


@editions
def test_an_edit_in_the_middle_is_checked_as_typed_and_undone(opened: Document) -> None:
    """A zone misspelt in a statement mid-file: the error at its place, the
    file on disk unchanged; taken back, the error goes."""
    lines = opened.text.split("\n")
    middle = len(lines) // 2
    line, start, end = _a_use_near(opened.text, middle, opened.path)
    name = lines[line][start:end]
    found = opened.edit(line, start, end, name + "q")
    assert any(d["severity"] == 1 for d in found)
    assert _published(found) == _expected(opened)
    at = [d for d in found if d["range"]["start"] == {"line": line, "character": start}]
    assert at and f"'{name}q'" in at[0]["message"]
    assert opened.path.read_text(encoding="utf-8") != opened.text  # the buffer, not the disk
    assert opened.edit(line, start, end + 1, name) == [] or _published(
        opened.diagnostics
    ) == _expected(opened)
    assert not any(d["severity"] == 1 for d in opened.diagnostics)


def _zones(path: Path) -> set[str]:
    return {z for p in ancestors(path) for z in re.findall(r"^\s*zone (\w+):", p.read_text(), re.M)}


def _code(line: str) -> str:
    """A line without its comment and with its strings blanked (same length)."""
    blanked = re.sub(r'"([^"\\]|\\.)*"', lambda found: " " * len(found.group()), line)
    return blanked.split("#")[0]


def _a_use_near(text: str, middle: int, path: Path) -> tuple[int, int, int]:
    """A use of a zone of the edition's (not its declaration) nearest a line."""
    zones = _zones(path)
    uses = [
        (abs(number - middle), number, found.start(), found.end())
        for number, line in enumerate(text.split("\n"))
        if not re.match(r"\s*zone ", line)
        for found in re.finditer(r"\b\w+\b", _code(line))
        if found.group() in zones and not line[: found.start()].rstrip().endswith(".")
    ]
    if not uses:
        pytest.skip("no use of a zone in this file")
    _, number, start, end = min(uses)
    return number, start, end


_BINDERS = (
    r"\b(?:choose|let) (\w+)|\b(\w+) in [\w(]|per colour (\w+):|card (\w+) enters|one \w+ (\w+) "
)


def _a_local(text: str) -> tuple[int, int, int, int, int]:
    """A local's binding and its first use after it: (line, start, end,
    use's line, use's start), 0-based."""
    lines = text.split("\n")
    for number, line in enumerate(lines):
        for found in re.finditer(_BINDERS, _code(line)):
            group = next(i for i in range(1, 6) if found.group(i))
            name, start, end = found.group(group), found.start(group), found.end(group)
            later = number  # the same line, then those of the same block
            while later == number or (later < len(lines) and lines[later].startswith("    ")):
                code = _code(lines[later])
                for use in re.finditer(rf"\b{name}\b", code):
                    if (later, use.start()) > (number, start):
                        return number, start, end, later, use.start()
                later += 1
    raise AssertionError("no local name with a use in this file")


@editions
def test_a_name_declared_twice_points_to_the_first_declaration(opened: Document) -> None:
    """Related information: the note's place, in this file or a parent."""
    zone = None
    for path in ancestors(opened.path)[::-1]:
        found = re.search(r"^\s*zone (\w+):", path.read_text(), re.M)
        if found:
            zone = found.group(1)
            break
    if zone is None:
        pytest.skip("no zone in this edition's chain")
    line = top_level_line(opened.text)
    found_diagnostics = opened.insert_line(line, f"  zone {zone}: cards of each player")
    assert _published(found_diagnostics) == _expected(opened)
    errors = [d for d in found_diagnostics if d["range"]["start"]["line"] == line]
    assert errors and errors[0].get("relatedInformation")
    related = errors[0]["relatedInformation"][0]["location"]
    declared = [p for p in ancestors(opened.path) if re.search(rf"zone {zone}:", p.read_text())]
    assert related["uri"] in {p.as_uri() for p in declared}


@editions
def test_a_syntax_error_is_located_and_completion_still_answers(opened: Document) -> None:
    line = top_level_line(opened.text)
    found = opened.insert_line(line, "  action {")
    assert any(d["severity"] == 1 for d in found)
    assert _published(found) == _expected(opened)
    items = opened.ask("textDocument/completion", line, len("  action {"))["items"]
    assert items  # from the last text that parsed
    opened.edit(line, 0, len("  action {"), "  players 2..")  # a mistake above the cursor
    statement = _probe_action(opened, "    ", line + 1)
    labels = _labels(opened.ask("textDocument/completion", statement, 4))
    assert {"require", "choose", "let", "move"} <= labels
    assert "action" not in labels


# ---------------------------------------------------------------------- hover


@editions
def test_hover_on_a_rule_id_shows_its_rulebook_text(opened: Document) -> None:
    compiled = opened.checked()
    assert compiled.model is not None
    texts = {t.rule_id: t for t in compiled.model.rule_texts}
    line, start, _ = find(opened.text, r"\[([A-Z]-[0-9.]+[a-z]?)")
    rule_id = re.match(r"[A-Z]-[0-9.]+[a-z]?", opened.text.split("\n")[line][start:])
    assert rule_id is not None
    answer = opened.ask("textDocument/hover", line, start + 1)
    value = answer["contents"]["value"]
    assert rule_id.group() in value
    assert texts[rule_id.group()].text in value


@editions
def test_hover_on_an_expression_shows_its_type(opened: Document) -> None:
    """A name or number shows its own type; an operator, its expression's."""
    compiled = opened.checked()
    assert compiled.model is not None
    from splendor_rules.compiler.frontend import model as m
    from splendor_rules.compiler.tools.lsp.index import model_expressions

    own = [
        e
        for e in model_expressions(compiled.model).values()
        if Path(e.span.file).resolve() == opened.path and e.span.line == e.span.end_line
    ]
    leaves = [e for e in own if isinstance(e, m.Ref | m.Const)]
    operators = [e for e in own if isinstance(e, m.Binary) and e.left.span.line == e.span.line]
    assert leaves
    for expression in leaves[:: max(1, len(leaves) // 6)] + operators[:3]:
        span = expression.span
        column = span.column - 1
        if isinstance(expression, m.Binary):
            row = opened.text.split("\n")[span.line - 1]
            column = row.index(expression.op, expression.left.span.end_column - 1)
        answer = opened.ask("textDocument/hover", span.line - 1, column)
        assert answer is not None
        assert f": {expression.type}" in answer["contents"]["value"]


@editions
def test_hover_on_a_column_shows_its_type_and_range(opened: Document) -> None:
    try:
        line, start, _ = find(opened.text, r"^\s+(\w+): int( [0-9]+\.\.[0-9]+)?\b")
    except AssertionError:
        pytest.skip("no number column declared in this file")
    value = opened.ask("textDocument/hover", line, start)["contents"]["value"]
    assert "column" in value and "number" in value
    assert re.search(r"in the data: -?[0-9]+\.\.-?[0-9]+ over [0-9]+ rows", value)


@editions
def test_hover_on_an_override_shows_what_it_replaces(opened: Document) -> None:
    """On the word `override` of each override (and on a definition's name)."""
    lines = opened.text.split("\n")
    overrides = [n for n, line in enumerate(lines) if re.match(r"\s*override\b", line)]
    if not overrides:
        pytest.skip("no override in this file")
    parents = [p.name for p in ancestors(opened.path)[1:]]
    for number in overrides:
        column = lines[number].index("override")
        value = opened.ask("textDocument/hover", number, column)["contents"]["value"]
        assert "overrides, from" in value
        assert any(parent in value for parent in parents)
    try:
        line, start, _ = find(opened.text, r"^\s*override (?:\[[^\]]*\] )?define (\w+)")
    except AssertionError:
        return
    value = opened.ask("textDocument/hover", line, start)["contents"]["value"]
    assert "overrides, from" in value


# ----------------------------------------------------- definition, references


def _declared(path: Path, pattern: str) -> tuple[Path, int, int] | None:
    for file in ancestors(path):
        lines = file.read_text().split("\n")
        for number, line in enumerate(lines):
            found = re.search(pattern, line.split("#")[0])
            if found:
                return file, number, found.start(1)
    return None


@editions
def test_definition_of_a_zone_across_parent_editions(opened: Document) -> None:
    line, start, end = _a_use_near(opened.text, 0, opened.path)
    zone = opened.text.split("\n")[line][start:end]
    declared = _declared(opened.path, rf"^\s*(?:override )?zone ({zone}):")
    answer = opened.ask("textDocument/definition", line, start)
    if declared is None:  # renamed from the parent's name
        assert answer and answer[0]["uri"] != opened.uri
        return
    file, number, column = declared
    assert answer == [
        {"uri": file.as_uri(), "range": _range(number, column, number, column + len(zone))}
    ]
    found = opened.ask("textDocument/references", line, start, context={"includeDeclaration": True})
    files = {place["uri"] for place in found}
    assert {opened.uri, file.as_uri()} <= files


@editions
def test_definition_of_a_column_leads_into_its_data_file(opened: Document) -> None:
    try:
        line, start, end = find(opened.text, r"^\s+(\w+): (?:int|colour|one of|bool)\b")
    except AssertionError:
        pytest.skip("no card or tile table declared in this file")
    name = opened.text.split("\n")[line][start:end]
    source = re.search(r'from "([^"]+)"', opened.text.split("\n")[line])
    answer = opened.ask("textDocument/definition", line, start)
    assert len(answer) == 1
    data = Path(answer[0]["uri"].removeprefix("file://"))
    assert data.suffix == ".csv"
    header = data.read_text(encoding="utf-8").split("\n")[0]
    cell = answer[0]["range"]
    assert cell["start"]["line"] == 0
    written = header[cell["start"]["character"] : cell["end"]["character"]]
    assert written == (source.group(1) if source else name)
    found = opened.ask("textDocument/references", line, start, context={"includeDeclaration": True})
    assert answer[0] in found


@editions
def test_definition_of_a_local_is_its_binding(opened: Document) -> None:
    line, start, end, use_line, use_start = _a_local(opened.text)
    answer = opened.ask("textDocument/definition", use_line, use_start)
    assert answer == [{"uri": opened.uri, "range": _range(line, start, line, end)}]


@editions
def test_definition_of_a_rule_id_is_its_rulebook(opened: Document) -> None:
    line, start, _ = find(opened.text, r"\[([A-Z]-[0-9.]+[a-z]?)")
    answer = opened.ask("textDocument/definition", line, start + 1)
    assert len(answer) == 1 and answer[0]["uri"].endswith(".md")
    book = Path(answer[0]["uri"].removeprefix("file://")).read_text(encoding="utf-8")
    at = answer[0]["range"]["start"]
    rule_id = re.match(r"[A-Z]-[0-9.]+[a-z]?", opened.text.split("\n")[line][start:])
    assert rule_id is not None
    assert book.split("\n")[at["line"]][at["character"] :].startswith(rule_id.group())


# ------------------------------------------------------------------ completion


def _labels(answer: Any) -> set[str]:
    return {item["label"] for item in answer["items"]}


def _probe_action(opened: Document, body: str, line: int | None = None) -> int:
    """Insert, between declarations (or at a line), an action whose body is
    one line; the line's number (0-based)."""
    line = top_level_line(opened.text) if line is None else line
    for offset, text in enumerate(['  action probe "p" {', body, "  }"]):
        opened.insert_line(line + offset, text)
    return line + 1


@editions
def test_completion_offers_the_keywords_valid_at_the_cursor(opened: Document) -> None:
    line = top_level_line(opened.text)
    opened.insert_line(line, "  ")
    labels = _labels(opened.ask("textDocument/completion", line, 2))
    assert {"action", "define", "zone", "override"} <= labels
    assert not {"require", "choose", "edition"} & labels
    statement = _probe_action(opened, "    ")
    labels = _labels(opened.ask("textDocument/completion", statement, 4))
    assert {"require", "choose", "let", "move"} <= labels
    assert "action" not in labels


@editions
def test_completion_offers_names_columns_and_rule_ids(opened: Document) -> None:
    compiled = opened.checked()
    assert compiled.model is not None
    line = _probe_action(opened, "    choose k from market")
    opened.insert_line(line + 1, "    move k to ")
    labels = _labels(opened.ask("textDocument/completion", line + 1, len("    move k to ")))
    assert {zone.name for zone in compiled.model.zones} <= labels
    assert set(compiled.model.colours) <= labels
    opened.insert_line(line + 2, "    require k.")
    labels = _labels(opened.ask("textDocument/completion", line + 2, len("    require k.")))
    assert {c.name for c in compiled.model.cards.columns} <= labels
    top = top_level_line(opened.text)
    opened.insert_line(top, "  [")
    labels = _labels(opened.ask("textDocument/completion", top, 3))
    assert {t.rule_id for t in compiled.model.rule_texts} <= labels


# ------------------------------------------------------------ symbols, rename


@editions
def test_document_symbols_list_every_declaration(opened: Document) -> None:
    answer = opened.client.request(
        "textDocument/documentSymbol", {"textDocument": {"uri": opened.uri}}
    )
    names = {symbol["name"] for symbol in answer}
    declared = re.findall(
        r"^\s*(?:override )?(?:\[[^\]]*\] )?(?:action|define|zone) (\w+)", opened.text, re.M
    )
    assert set(declared) <= names


def _apply(text: str, edits: list[Any]) -> str:
    lines = text.split("\n")
    for edit in sorted(
        edits,
        key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]),
        reverse=True,
    ):
        start, end = edit["range"]["start"], edit["range"]["end"]
        assert start["line"] == end["line"]
        row = lines[start["line"]]
        lines[start["line"]] = row[: start["character"]] + edit["newText"] + row[end["character"] :]
    return "\n".join(lines)


@editions
def test_rename_of_a_local_edits_its_uses_and_the_file_still_checks(opened: Document) -> None:
    line, start, end, _, _ = _a_local(opened.text)
    name = opened.text.split("\n")[line][start:end]
    answer = opened.ask("textDocument/rename", line, start, newName="renamed_local")
    edits = answer["changes"][opened.uri]
    assert len(answer["changes"]) == 1 and len(edits) >= 2
    renamed = _apply(opened.text, edits)
    assert renamed.count("renamed_local") == len(edits)
    compiled = compile_file(opened.path, texts={opened.path: renamed})
    assert compiled.ok, [d.message for d in compiled.diagnostics]
    words = [len(re.findall(rf"\b{name}\b", _code(line))) for line in opened.text.split("\n")]
    left = [len(re.findall(rf"\b{name}\b", _code(line))) for line in renamed.split("\n")]
    assert sum(left) == sum(words) - len(edits)


@editions
def test_rename_of_a_definition_of_this_file_and_refusal_of_a_parents(opened: Document) -> None:
    try:
        line, start, _ = find(opened.text, r"^\s*define (\w+)")
    except AssertionError:
        pytest.skip("no definition declared in this file")
    answer = opened.ask("textDocument/rename", line, start, newName="renamed_definition")
    renamed = _apply(opened.text, answer["changes"][opened.uri])
    compiled = compile_file(opened.path, texts={opened.path: renamed})
    assert compiled.ok, [d.message for d in compiled.diagnostics]
    assert compiled.model is not None
    assert "renamed_definition" in {d.name for d in compiled.model.defines}
    with pytest.raises(ServerError, match="not a name"):
        opened.ask("textDocument/rename", line, start, newName="zone")
    if len(ancestors(opened.path)) > 1:
        use_line, use_start, _ = _a_use_near(opened.text, 0, opened.path)
        with pytest.raises(ServerError, match="declared in"):
            opened.ask("textDocument/rename", use_line, use_start, newName="other_zone")


# ------------------------------------------------------------- command line


def test_without_pygls_the_command_says_how_to_install_it() -> None:
    code = (
        "import sys; sys.modules['pygls'] = None; "
        "from splendor_rules.compiler.cli import main; main()"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code, "lsp"], capture_output=True, text=True, timeout=120
    )
    assert ran.returncode == 2
    assert "pip install 'splendor-rules[lsp]'" in ran.stderr
    assert "Traceback" not in ran.stderr


def test_the_benchmark_prints_its_figures(tmp_path: Path) -> None:
    ran = subprocess.run(
        [*COMMAND, "--bench", "--edits", "1", "--file", str(EDITIONS[0])],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert ran.returncode == 0, ran.stderr
    for line in ("diagnostics after an edit", "hover after an edit", "completion after an edit"):
        assert re.search(line + r"\s+median\s+[0-9.]+ ms", ran.stdout), ran.stdout


def test_an_unsaved_document_extending_a_shipped_edition_is_checked(client: Client) -> None:
    """An `untitled:` buffer: its parents are found as for a file in the
    server's working folder, then among the shipped editions."""
    uri = "untitled:Untitled-1"
    root = next(path.stem for path in EDITIONS if len(ancestors(path)) == 1)
    text = f'edition house "House" extends {root} {{\n  define house_score = 1 + 2\n}}\n'
    item = {"uri": uri, "languageId": "splendor-rules", "version": 1, "text": text}
    client.notify("textDocument/didOpen", {"textDocument": item})
    try:
        assert not [d for d in client.diagnostics(uri, 1) if d["severity"] == 1]
        change = {"range": _range(1, 26, 1, 28), "text": "+"}  # `1 + 2` -> `1 ++`
        params = {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [change]}
        client.notify("textDocument/didChange", params)
        found = [d for d in client.diagnostics(uri, 2) if d["severity"] == 1]
        assert [d["range"]["start"]["line"] for d in found] == [1]
    finally:
        client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


@editions
def test_rename_of_a_zone_of_this_file_edits_every_use(opened: Document) -> None:
    try:
        line, start, end = find(opened.text, r"^\s*zone (\w+):")
    except AssertionError:
        pytest.skip("no zone declared in this file")
    zone = opened.text.split("\n")[line][start:end]
    answer = opened.ask("textDocument/rename", line, start, newName="renamed_zone")
    edits = answer["changes"][opened.uri]
    renamed = _apply(opened.text, edits)
    uses = sum(len(re.findall(rf"\b{zone}\b", _code(row))) for row in opened.text.split("\n"))
    assert len(edits) == uses
    compiled = compile_file(opened.path, texts={opened.path: renamed})
    assert compiled.ok, [d.message for d in compiled.diagnostics]
    assert compiled.model is not None
    assert "renamed_zone" in {z.name for z in compiled.model.zones}


@editions
def test_columns_are_counted_in_utf16_units_as_the_client_counts(opened: Document) -> None:
    """A character outside the Basic Multilingual Plane is two units of the
    client's (VS Code's) columns: a place after it is shifted by one."""
    body = '    require true else "\U0001f48e {no_such_name}"'
    line = _probe_action(opened, body)
    errors = [d for d in opened.diagnostics if d["range"]["start"]["line"] == line]
    assert errors, opened.diagnostics
    before = body[: body.index("no_such_name")]
    assert errors[0]["range"]["start"]["character"] == len(before.encode("utf-16-le")) // 2
    assert errors[0]["range"]["start"]["character"] == len(before) + 1


@editions
def test_formatting_gives_the_layout_of_fmt_and_keeps_the_comment(opened: Document) -> None:
    """textDocument/formatting: one edit of the whole buffer to what
    `splendor-rules fmt` writes (dsl/formatting.py), the comment typed kept;
    nothing to do once formatted."""
    line = top_level_line(opened.text)
    opened.insert_line(line, "      # typed   by hand")
    opened.insert_line(line, "")
    options = {"tabSize": 2, "insertSpaces": True}
    params = {"textDocument": {"uri": opened.uri}, "options": options}
    edits = opened.client.request("textDocument/formatting", params)
    assert len(edits) == 1 and edits[0]["range"]["start"] == {"line": 0, "character": 0}
    formatted = edits[0]["newText"]
    assert formatted == format_source(opened.text, str(opened.path))
    assert formatted != opened.text and "# typed   by hand" in formatted
    whole = len(opened.text.split("\n"))
    change = {"range": _range(0, 0, whole, 0), "text": formatted}
    opened.version += 1
    opened.text = formatted
    version = {"uri": opened.uri, "version": opened.version}
    opened.client.notify(
        "textDocument/didChange", {"textDocument": version, "contentChanges": [change]}
    )
    opened.client.diagnostics(opened.uri, opened.version)
    assert opened.client.request("textDocument/formatting", params) == []
