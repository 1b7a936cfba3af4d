"""The VS Code folder's TextMate grammar (editors/vscode/syntaxes), run as
VS Code runs it: every shipped edition tokenised by vscode-textmate under
node (editors/vscode/test/grammar.test.js), and each token the language's
own lexer finds (keywords, names, numbers, strings, rule ids, and the
comments) checked against the scope it gets; no character of a line may be
left without a scope. Needs node and `npm ci` in editors/vscode/test."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from splendor_rules.compiler.frontend.checks.scopes import BUILTINS
from splendor_rules.compiler.frontend.pipeline import edition_files
from splendor_rules.compiler.tools.lsp.completion import grammar_words
from splendor_rules.dsl.parser import grammar_parser

ROOT = Path(__file__).resolve().parent.parent
VSCODE = ROOT / "editors" / "vscode"
TEST = VSCODE / "test"
KINDS = {"INT": "number", "STRING": "string", "RULE_ID": "rule", "RULE_PREFIX": "rule"}


def _tokens(text: str) -> list[list[object]]:
    """Each token of a rule file as the parser's contextual lexer reads it,
    and each comment: [line, column, length, kind], 0-based."""
    parser = grammar_parser().parse_interactive(text, start="start")
    words = grammar_words()
    found: list[list[object]] = []
    for token in parser.lexer_thread.lex(parser.parser_state):
        parser.feed_token(token)
        kind = KINDS.get(token.type) or (
            "keyword" if token.type in words else "name" if token.type == "NAME" else None
        )
        if kind is not None and token.line is not None and token.column is not None:
            found.append([token.line - 1, token.column - 1, len(token), kind])
    for number, line in enumerate(text.split("\n")):
        code = re.sub(r'"([^"\\]|\\.)*"', lambda m: " " * len(m.group()), line)
        if "#" in code:
            start = code.index("#")
            found.append([number, start, len(line) - start, "comment"])
    return found


def test_the_grammar_scopes_every_construct_of_every_edition(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the VS Code grammar's test needs it")
    if not (TEST / "node_modules" / "vscode-textmate").is_dir():
        pytest.skip("run `npm ci` in editors/vscode/test first (vscode-textmate is missing)")
    files = [
        {"path": str(path), "tokens": _tokens(path.read_text(encoding="utf-8"))}
        for path in edition_files()
    ]
    assert files and all(f["tokens"] for f in files)
    expected = {
        "grammar": str(VSCODE / "syntaxes" / "splendor-rules.tmLanguage.json"),
        "keywords": sorted({w for found in grammar_words().values() for w in found}),
        "files": files,
    }
    (tmp_path / "expected.json").write_text(json.dumps(expected), encoding="utf-8")
    ran = subprocess.run(
        [node, "grammar.test.js", str(tmp_path / "expected.json")],
        cwd=TEST,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert f"{len(files)} files" in ran.stdout


def test_the_package_names_the_grammar_and_the_language_configuration() -> None:
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    contributes = package["contributes"]
    language = contributes["languages"][0]
    assert ".rules" in language["extensions"]
    assert (VSCODE / language["configuration"]).is_file()
    grammar = contributes["grammars"][0]
    assert grammar["language"] == language["id"]
    assert (VSCODE / grammar["path"]).is_file()
    assert (VSCODE / package["main"]).is_file()
    configuration = json.loads((VSCODE / language["configuration"]).read_text(encoding="utf-8"))
    assert configuration["comments"]["lineComment"] == "#"
    node = shutil.which("node")
    if node is not None:  # the client is valid JavaScript (its modules come with VS Code)
        ran = subprocess.run([node, "--check", str(VSCODE / package["main"])], capture_output=True)
        assert ran.returncode == 0, ran.stderr


def test_the_grammar_colours_every_built_in_function_as_one() -> None:
    """Its list of built-in functions, written by hand, is the checker's
    (a new built-in is added to both)."""
    grammar = json.loads((VSCODE / "syntaxes" / "splendor-rules.tmLanguage.json").read_text())
    (builtin,) = [
        p
        for p in grammar["repository"]["call"]["patterns"]
        if p["name"].startswith("support.function.builtin")
    ]
    listed = re.fullmatch(r"\\b\((.*)\)\(\?=.*", builtin["match"])
    assert listed is not None, builtin["match"]
    assert sorted(listed.group(1).split("|")) == sorted(BUILTINS)
