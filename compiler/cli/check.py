"""`splendor-rules check`: rule files checked, every mistake located, and a
one-line summary of each edition that checks."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from splendor_rules.compiler.frontend.identities import tile_numbering
from splendor_rules.compiler.frontend.messages import listed
from splendor_rules.compiler.frontend.pipeline import Compiled, compile_file, edition_files
from splendor_rules.dsl.diagnostics import Sources, display_path, render


def _summary(compiled: Compiled) -> str:
    model = compiled.model
    assert model is not None and compiled.resolved is not None
    numbering = tile_numbering(model)
    faces = sum(len(faces) for faces in numbering.set_faces.values())
    tiles = numbering.physical_count
    parts = [
        f"{len(model.tokens)} token kinds",
        f"{len(model.cards.rows)} cards",
        f"{tiles} tiles ({faces} faces)" if faces != tiles else f"{tiles} tiles",
        f"{len(model.actions)} actions",
        _coverage(compiled),
    ]
    if model.board is not None:  # beside the tiles, in a board's words
        parts.insert(3, f"a board of {model.board.rows} by {model.board.columns} cells")
    parent = f", extends {model.parent}" if model.parent else ""
    return f"{model.name} ({display_path(compiled.path)}{parent}): " + ", ".join(parts)


def _coverage(compiled: Compiled) -> str:
    model = compiled.model
    assert model is not None
    if not model.references:
        return f"{len(model.rule_ids)} rule ids"
    wanted = [i for _, ids in model.references for i in ids]
    present = sum(1 for i in wanted if i in model.rule_ids)
    files = listed([file for file, _ in model.references])
    return f"rule ids {present}/{len(wanted)} of {files} present"


@click.command("check")
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--quiet", "-q", is_flag=True, help="Print errors only, no summaries or warnings.")
def command(files: tuple[Path, ...], quiet: bool) -> None:
    """Check rule files and report every mistake, located.

    With no FILES, checks every edition in the editions folder. A rule file
    may be anywhere (`check my.rules`); an `extends` names an edition beside
    it or one of the editions folder.
    """
    paths = list(files) or edition_files()
    if not paths:
        raise click.UsageError("no rule files given and none found in the editions folder")
    failed = False
    declared: dict[str, Path] = {}  # an edition's name -> the first file that declares it
    for path in paths:
        sources = Sources()
        compiled = compile_file(path, sources)
        for diagnostic in compiled.diagnostics:
            if quiet and diagnostic.severity != "error":
                continue
            click.echo(render(diagnostic, sources), err=True)
        name = compiled.model.name if compiled.model is not None else None
        if compiled.ok and name in declared:
            failed = True
            click.echo(
                f"{display_path(path)}: declares the edition {name!r}, as "
                f"{display_path(declared[name])} does: rename one",
                err=True,
            )
        elif compiled.ok and name is not None:
            declared[name] = path
            if not quiet:
                click.echo(_summary(compiled))
        else:
            failed = True
            errors = sum(d.severity == "error" for d in compiled.diagnostics)
            click.echo(
                f"{display_path(path)}: {errors} error{'s' if errors != 1 else ''}", err=True
            )
    sys.exit(1 if failed else 0)
