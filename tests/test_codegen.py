"""Code generation (issue "Code generation: typed, fast engine modules").

- the committed engines in generated/ are exactly what the compiler renders
  now (golden), and `splendor-rules build --check` says so;
- rendering (both targets) is deterministic: twice, from another working directory, under
  another hash seed;
- every rule id an edition states is tied to its source by a comment
  `# editions/<file>.rules:<line> <ids>` (rule ids on declarations that the
  engine carries as data are listed, with the reason, in DATA_CARRIED);
- nothing in a rule file's strings can inject code: titles and messages come
  out of the generated module as data, exactly.

These tests read the generated text only through the documented comment
format and the engine API (docs/engine.md), never through internal names.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import splendor_rules.compiler.cli as cli
from splendor_rules import generated
from splendor_rules.compiler.backend.build import render_engines
from splendor_rules.compiler.backend.native.target import NATIVE
from splendor_rules.compiler.backend.python.codegen import render_engine
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.pipeline import (
    Compiled,
    compile_file,
    edition_files,
    editions_folder,
)
from splendor_rules.compiler.tools.loader import module_from_source

ROOT = Path(__file__).resolve().parent.parent
# Every edition that ships (editions/*.rules): adding one needs no edit here.
EDITIONS = tuple(path.stem for path in edition_files(editions_folder()))


def generated_folder() -> Path:
    return Path(generated.__file__).resolve().parent


@pytest.fixture(scope="module")
def fresh() -> dict[Path, str]:
    """A fresh render of every edition, keyed by its path in generated/."""
    return render_engines(editions_folder(), generated_folder())


# ------------------------------------------------------------------ golden


def test_committed_engines_are_a_fresh_render(fresh: dict[Path, str]):
    """generated/*.py equal, byte for byte, what the compiler renders now."""
    committed = {path for path in generated_folder().glob("*.py") if path.name != "__init__.py"}
    assert set(fresh) == committed, "run splendor-rules build"
    for path, text in fresh.items():
        on_disk = path.read_bytes()
        assert on_disk == text.encode("utf-8"), (
            f"{path.name} differs from a fresh render: run splendor-rules build"
        )


def test_every_edition_has_an_engine(fresh: dict[Path, str]):
    assert sorted(p.stem for p in fresh) == sorted(EDITIONS)
    assert set(EDITIONS) <= set(generated.editions())


@pytest.mark.parametrize("name", EDITIONS)
def test_rendered_engine_is_valid_python(fresh: dict[Path, str], name: str):
    text = fresh[generated_folder() / f"{name}.py"]
    ast.parse(text)
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert all(line == line.rstrip() for line in text.splitlines()), "trailing spaces"


# ------------------------------------------------------------- determinism


def _render_all() -> dict[str, str]:
    return {p.name: t for p, t in render_engines(editions_folder(), generated_folder()).items()}


def _render_native() -> dict[str, str]:
    """The native target's files (C sources, stubs, engine modules) by name."""
    out = generated_folder() / "native"
    return {p.name: t for p, t in render_engines(editions_folder(), out, NATIVE).items()}


def test_rendering_twice_gives_the_same_text(fresh: dict[Path, str]):
    again = _render_all()
    assert again == {p.name: t for p, t in fresh.items()}
    assert _render_native() == _render_native()
    for name in EDITIONS:
        model = compile_file(editions_folder() / f"{name}.rules").model
        assert model is not None
        assert render_engine(model, ROOT) == render_engine(model, ROOT)


def test_rendering_does_not_depend_on_the_working_directory(
    fresh: dict[Path, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    native = _render_native()
    monkeypatch.chdir(tmp_path)
    assert _render_all() == {p.name: t for p, t in fresh.items()}
    assert _render_native() == native


def test_rendering_does_not_depend_on_the_hash_seed(fresh: dict[Path, str]):
    """Set and dict orders must not leak into the text (PYTHONHASHSEED)."""
    script = (
        "import hashlib, generated, pathlib\n"
        "from splendor_rules.compiler.backend.build import render_engines\n"
        "from splendor_rules.compiler.backend.native.target import NATIVE\n"
        "from splendor_rules.compiler.frontend.pipeline import editions_folder\n"
        "out = pathlib.Path(generated.__file__).resolve().parent\n"
        "for p, t in sorted(render_engines(editions_folder(), out).items()):\n"
        "    print(p.name, hashlib.sha256(t.encode()).hexdigest())\n"
        "native = render_engines(editions_folder(), out / 'native', NATIVE)\n"
        "for p, t in sorted(native.items()):\n"
        "    print(p.name, hashlib.sha256(t.encode()).hexdigest())\n"
    )
    native = render_engines(editions_folder(), generated_folder() / "native", NATIVE)
    both = [*sorted(fresh.items()), *sorted(native.items())]
    expected = "".join(f"{p.name} {hashlib.sha256(t.encode()).hexdigest()}\n" for p, t in both)
    for seed in ("1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout == expected, f"PYTHONHASHSEED={seed}"


# ------------------------------------------------- rule ids tied to the source

# A comment tying code to the rule file: `# editions/classic.rules:58 S-3.3`.
SOURCE_COMMENT = re.compile(r"^\s*# (?P<file>\S+\.rules):(?P<line>\d+)\b(?P<rest>.*)$")
RULE_ID = re.compile(r"\b[A-Z]-\d+(?:\.\d+)*[a-z]?\b")


# Rule ids stated on declarations that have no code of their own in an engine
# (data tables, markets, the supply, token kinds, policies): the engine
# carries them as tables, constants or fixed behaviour, so there is no line to
# put a `# file:line id` comment on. They are read from the model, so that no
# edition's ids are listed here; every other id must be commented.
def data_carried(model: m.Edition) -> set[str]:
    parts: list[Any] = [model.market, *model.markets, model.cards, *model.card_tables]
    parts += [*model.policies, *model.tile_sets]
    found = {i for part in parts for i in part.rule_ids} | set(model.market.refill_ids)
    if model.board is not None:  # the board's size and fill order, the bag's tokens
        found |= set(model.board.rule_ids) | set(model.board.bag_ids)
    for token in model.tokens:
        found |= set(token.rule_ids) | set(token.returnable_ids) | set(token.cap_ids)
    for rule_id, span in model.rule_ids.items():  # the supply declaration's
        line = (ROOT / span.file).read_text(encoding="utf-8").splitlines()[span.line - 1]
        # the supply, the player counts and the colours: constants of the engine
        if re.search(r"\bsupply\s*\{|^\s*(\[[^]]*\]\s*)?(players|colours)\b", line):
            found.add(rule_id)
    return found


# Ids stated on code that the generator does not comment (none now: a
# statement with ids of its own gets its own comment). Strict xfails if any.
NOT_COMMENTED: dict[str, str] = {}


@pytest.fixture(scope="module")
def compiled() -> dict[str, Compiled]:
    return {name: compile_file(editions_folder() / f"{name}.rules") for name in EDITIONS}


def _source_comments(text: str) -> list[tuple[str, int, set[str]]]:
    found = []
    for line in text.splitlines():
        match = SOURCE_COMMENT.match(line)
        if match:
            ids = set(RULE_ID.findall(match["rest"]))
            found.append((match["file"], int(match["line"]), ids))
    return found


def _id_cases() -> list[object]:
    cases = []
    for name in EDITIONS:
        model = compile_file(editions_folder() / f"{name}.rules").model
        assert model is not None
        for rule_id in model.rule_ids:
            marks = []
            if rule_id in NOT_COMMENTED:
                marks.append(pytest.mark.xfail(strict=True, reason=NOT_COMMENTED[rule_id]))
            cases.append(pytest.param(name, rule_id, marks=marks, id=f"{name}-{rule_id}"))
    return cases


@pytest.mark.parametrize(("name", "rule_id"), _id_cases())
def test_rule_id_is_tied_to_its_source_line(
    fresh: dict[Path, str], compiled: dict[str, Compiled], name: str, rule_id: str
):
    """Each rule id is named by a comment `# <file>:<line> ...` pointing at the
    line of the rule file that states it."""
    model = compiled[name].model
    assert model is not None
    if rule_id in data_carried(model):
        pytest.skip(f"{rule_id} is stated on a declaration carried as data")
    span = model.rule_ids[rule_id]
    comments = _source_comments(fresh[generated_folder() / f"{name}.py"])
    places = [(f, n) for f, n, ids in comments if rule_id in ids]
    assert places, f"no `# editions/...:<line> {rule_id}` comment in generated/{name}.py"
    assert (span.file, span.line) in places, (
        f"{rule_id} is stated at {span.file}:{span.line}; comments name {places}"
    )


@pytest.mark.parametrize("name", EDITIONS)
def test_data_carried_ids_are_stated_on_no_rule_with_code(compiled: dict[str, Compiled], name: str):
    """The exemption is honest: no id it skips is stated on an action, a
    trigger, a step, a definition, an ending or the winners."""
    model = compiled[name].model
    assert model is not None
    parts: list[Any] = [*model.actions, *model.triggers, *model.steps, *model.defines]
    parts += [*model.endings, model.winners, model.score]
    with_code = {i for part in parts for i in part.rule_ids}
    assert not (data_carried(model) & with_code)


@pytest.mark.parametrize("name", EDITIONS)
def test_source_comments_point_at_real_lines_stating_their_ids(fresh: dict[Path, str], name: str):
    comments = _source_comments(fresh[generated_folder() / f"{name}.py"])
    assert len(comments) >= 10
    for file, line, ids in comments:
        assert file.startswith("editions/") and not Path(file).is_absolute()
        lines = (ROOT / file).read_text(encoding="utf-8").splitlines()
        assert 1 <= line <= len(lines), (file, line)
        for rule_id in ids:
            assert rule_id in lines[line - 1], (file, line, rule_id, lines[line - 1])


# --------------------------------------------------------------------- CLI


@pytest.fixture
def generated_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of generated/ that the CLI builds into and checks instead."""
    copy = tmp_path / "generated"
    shutil.copytree(generated_folder(), copy, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    monkeypatch.setattr(cli, "_generated_folder", lambda: copy)
    monkeypatch.chdir(ROOT)
    return copy


def test_build_check_passes_on_the_committed_tree(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli.main, ["build", "--check"])
    assert result.exit_code == 0, result.output
    assert "is current" in result.stdout
    assert result.stderr == ""


def test_build_check_names_a_modified_engine(generated_copy: Path):
    target = generated_copy / "classic.py"
    target.write_text(target.read_text(encoding="utf-8") + "# edited by hand\n", "utf-8")
    result = CliRunner().invoke(cli.main, ["build", "--check"])
    assert result.exit_code == 1
    assert f"{target} is not current: run splendor-rules build" in result.stderr
    assert "marvel.py" not in result.stderr
    # --check writes nothing
    assert target.read_text(encoding="utf-8").endswith("# edited by hand\n")


def test_build_check_names_a_missing_engine_and_an_extra_one(generated_copy: Path):
    (generated_copy / "marvel.py").unlink()
    (generated_copy / "no_such_edition.py").write_text("# no edition\n", "utf-8")
    result = CliRunner().invoke(cli.main, ["build", "--check"])
    assert result.exit_code == 1
    assert f"{generated_copy / 'marvel.py'} is not current" in result.stderr
    assert f"{generated_copy / 'no_such_edition.py'} has no edition: remove it" in result.stderr
    assert "classic.py" not in result.stderr


def test_build_rewrites_only_the_stale_engine(generated_copy: Path):
    target = generated_copy / "classic.py"
    target.write_text("# stale\n", "utf-8")
    result = CliRunner().invoke(cli.main, ["build"])
    assert result.exit_code == 0, result.output
    assert re.search(r"classic\.py: \d+ lines, written", result.stdout)
    assert re.search(r"marvel\.py: \d+ lines, unchanged", result.stdout)
    assert target.read_bytes() == (generated_folder() / "classic.py").read_bytes()
    again = CliRunner().invoke(cli.main, ["build", "--check"])
    assert again.exit_code == 0, again.output


# --------------------------------------------------------- injection safety

HOSTILE = '"); import os; os.system("echo pwned"); ("'
# Quotes of both kinds and tripled, a backslash, a newline, braces, and code.
NASTY = "q\"d 's' \\ b\\n n\nline {brace} }{ \"\"\" ''' " + HOSTILE
# In a message `{...}` shows a value, so a message's braces must not pair up.
NASTY_MESSAGE = NASTY.replace("{brace} ", "")
# A title written to escape a triple-quoted string and run code if pasted raw.
ESCAPE_DOCSTRING = 'x"""\nimport os\nos.system("echo pwned")\n"""'


def rules_string(value: str) -> str:
    """`value` as a rule-file string literal (double quotes, Python escapes)."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def hostile_edition(folder: Path, title: str, text: str) -> Path:
    """A variant of classic whose action title, rename title and requirement
    message are `text`, and whose edition title is `title`."""
    for name in ("classic.rules", "RULES.md"):
        shutil.copy(editions_folder() / name, folder / name)
    shutil.copytree(
        editions_folder() / "data",
        folder / "data",
        ignore=shutil.ignore_patterns("__pycache__", "*.py", "*.pyc"),
    )
    message = text.replace("{brace} ", "") + " has {supply(c)}"
    path = folder / "hostile.rules"
    path.write_text(
        f"edition hostile {rules_string(title)} extends classic {{\n"
        f"  rename token gold -> joker {rules_string(text)}\n"
        f"  action gamble {rules_string(text)} {{\n"
        "    choose c from colours\n"
        f"    require supply(c) >= 100 else {rules_string(message)}\n"
        "    gain 1 c\n"
        "  }\n"
        "}\n",
        encoding="utf-8",
    )
    return path


def render_hostile(tmp_path: Path, title: str, text: str) -> tuple[str, Compiled]:
    path = hostile_edition(tmp_path, title, text)
    result = compile_file(path)
    assert result.ok, result.diagnostics
    assert result.model is not None
    # The rule file's escapes decode exactly as Python's would.
    assert result.model.title == title
    assert any(a.name == "gamble" and a.title == text for a in result.model.actions)
    assert any(t.name == "joker" and t.title == text for t in result.model.tokens)
    return render_engine(result.model, tmp_path), result


def system_calls(tree: ast.AST) -> list[str]:
    """Calls of os.system (or anything named system) and imports of os."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("system", "popen", "exec", "eval"):
                found.append(ast.unparse(node))
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names]
            module = getattr(node, "module", None)
            if "os" in names or "subprocess" in names or module in ("os", "subprocess"):
                found.append(ast.unparse(node))
    return found


def load_module(text: str, name: str) -> types.ModuleType:
    """An engine module's source, run in memory (not left in sys.modules)."""
    return module_from_source(text, name, register=False)


def test_hostile_strings_in_action_rename_and_message_stay_data(tmp_path: Path):
    """Action title, rename title and require message full of quotes,
    backslashes, newlines, braces and code: the module parses, holds no call
    to os.system, and the message comes out verbatim."""
    text, _ = render_hostile(tmp_path, "A plain title", NASTY)
    tree = ast.parse(text)
    assert system_calls(tree) == []
    engine = load_module(text, "hostile_engine")
    assert engine.TITLE == "A plain title"
    assert engine.TOKENS[-1] == "joker"
    state = engine.new_game(2, 7)
    assert not [a for a in engine.legal_actions(state) if a[0] == "gamble"]
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(state, ("gamble", "red"))
    assert str(error.value).endswith(NASTY_MESSAGE + " has 4"), str(error.value)
    assert isinstance(error.value, ValueError)


@pytest.mark.parametrize("title", [NASTY, ESCAPE_DOCSTRING], ids=["nasty", "escape-docstring"])
def test_hostile_edition_title_stays_data(tmp_path: Path, title: str):
    """The edition title, the action title, the rename title and the message
    all hostile: the module parses, runs no code, and TITLE is the title."""
    text, _ = render_hostile(tmp_path, title, NASTY)
    tree = ast.parse(text)  # never exec before this check and the next
    assert system_calls(tree) == []
    engine = load_module(text, "hostile_title_engine")
    assert title == engine.TITLE
    with pytest.raises(engine.IllegalAction) as error:
        engine.apply(engine.new_game(2, 7), ("gamble", "red"))
    assert str(error.value).endswith(NASTY_MESSAGE + " has 4")


def test_a_title_with_newlines_quotes_and_braces_is_data(tmp_path: Path):
    """A title with a newline, braces and single quotes (no triple quote, no
    backslash) is carried exactly."""
    title = "Two\nlines {and braces} 'single' and \"double\""
    text, _ = render_hostile(tmp_path, title, "plain")
    engine = load_module(text, "newline_title_engine")
    assert title == engine.TITLE
