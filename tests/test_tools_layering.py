"""The layers of the tools and the command line (issue 8): only compiler/cli
imports click, prints and exits; the tools return results and raise errors."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLI = ROOT / "compiler" / "cli"
LIBRARIES = [
    p
    for folder in ("compiler", "dsl", "generated")
    for p in sorted((ROOT / folder).rglob("*.py"))
    if CLI not in p.parents
]


def _terminal_use(node: ast.AST) -> str | None:
    """What a node does with the terminal, if anything."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names if a.name.split(".")[0] == "click"]
        return f"import {names[0]}" if names else None
    if isinstance(node, ast.ImportFrom):
        return f"from {node.module}" if (node.module or "").split(".")[0] == "click" else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return f"{node.func.id}()" if node.func.id in ("print", "exit", "quit") else None
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        used = node.value.id == "sys" and node.attr in ("exit", "stdout", "stderr")
        return f"sys.{node.attr}" if used else None
    return None


def _terminal_uses(tree: ast.AST) -> list[str]:
    return [
        f"{use} at line {getattr(node, 'lineno', '?')}"
        for node in ast.walk(tree)
        if (use := _terminal_use(node)) is not None
    ]


@pytest.mark.parametrize("path", LIBRARIES, ids=lambda p: str(p.relative_to(ROOT)))
def test_only_the_command_line_uses_the_terminal(path: Path) -> None:
    assert _terminal_uses(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_command_line_has_one_module_per_command() -> None:
    from splendor_rules.compiler.cli import main

    # Beside the commands: the options they share, and Ctrl-C's handling (interrupts.py).
    # A command of two words is a module with an underscore (bench_bots: bench-bots).
    modules = {p.stem.replace("_", "-") for p in CLI.glob("*.py")} - {
        "--init--",
        "options",
        "interrupts",
    }
    assert modules == set(main.commands)
