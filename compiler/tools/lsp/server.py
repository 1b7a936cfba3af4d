"""The language server: pygls over stdin and stdout, answering from the
Analysis of each open rule file (checked again after each edit).

Diagnostics are the front end's, with their notes as related places, and
are published on open and after each change for every file they fall in
(the rule file, a parent, a data file). pygls speaks the protocol; this
module only converts between its types and the features' spans."""

from __future__ import annotations

import asyncio
from importlib import metadata
from pathlib import Path

from lsprotocol import types as t
from pygls.exceptions import JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.workspace import PositionCodec, TextDocument

from splendor_rules.compiler.tools.lsp import completion, features
from splendor_rules.compiler.tools.lsp.analysis import Analysis, Trees, analyse, locate
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import Diagnostic
from splendor_rules.dsl.formatting import Unparsable, format_source

LANGUAGE = "splendor-rules"


class RulesServer(LanguageServer):
    """A pygls server that keeps, per open document, its latest analysis
    and the latest one whose file parsed (for completion while typing)."""

    def __init__(self) -> None:
        try:
            version = metadata.version("splendor-rules")
        except metadata.PackageNotFoundError:  # pragma: no cover - run from a checkout
            version = "0"
        super().__init__(LANGUAGE, version)
        self.trees = Trees()
        self.analyses: dict[str, tuple[int | None, Analysis]] = {}
        self.parsed: dict[str, Analysis] = {}
        self.published: dict[str, set[str]] = {}  # a document -> the files it published for

    def analysis(self, uri: str) -> Analysis:
        """The analysis of a document's current text, made if it is stale."""
        document = self.workspace.get_text_document(uri)
        kept = self.analyses.get(uri)
        if kept is not None and kept[0] == document.version and kept[1].text == document.source:
            return kept[1]
        found = analyse(_path_of(uri, document), document.source, self.trees)
        self.analyses[uri] = (document.version, found)
        if found.index is not None:
            self.parsed[uri] = found
        return found

    def places(self, analysis: Analysis) -> Places:
        return Places(self.workspace.position_codec, analysis)

    def place(self, uri: str, position: t.Position) -> tuple[int, int]:
        """A client's position as a span counts it: 1-based, in characters."""
        lines = self.workspace.get_text_document(uri).lines
        found = self.workspace.position_codec.position_from_client_units(lines, position)
        return found.line + 1, found.character + 1

    def publish(self, uri: str) -> None:
        """Check a document and publish its diagnostics, by file."""
        found = self.analysis(uri)
        by_file: dict[str, list[t.Diagnostic]] = {uri: []}
        places = self.places(found)
        for diagnostic in found.diagnostics:
            target = uri if diagnostic.span.file == found.file else _uri(diagnostic.span.file)
            by_file.setdefault(target, []).append(lsp_diagnostic(diagnostic, places))
        for stale in self.published.get(uri, set()) - set(by_file):
            by_file[stale] = []
        self.published[uri] = set(by_file) - {uri}
        for target, diagnostics in by_file.items():
            params = t.PublishDiagnosticsParams(
                target, diagnostics, found_version(self, uri, target)
            )
            self.text_document_publish_diagnostics(params)


def _path_of(uri: str, document: TextDocument) -> Path:
    """A document's file; for one not saved yet (an `untitled:` document),
    a file of that name in the working folder, where its parents are looked for."""
    if uri.startswith("file:"):
        return Path(document.path)
    return Path.cwd() / (Path(document.path).name or "untitled.rules")


def found_version(server: RulesServer, uri: str, target: str) -> int | None:
    if target != uri:
        return None
    kept = server.analyses.get(uri)
    return kept[0] if kept else None


# ----------------------------------------------------------------- conversions


def _uri(file: str) -> str:
    return locate(file).as_uri()


class Places:
    """Spans to the protocol's ranges, in the units the client counts
    columns in (UTF-16 for VS Code; spans count characters), by the text of
    each line the analysis read."""

    def __init__(self, codec: PositionCodec, analysis: Analysis) -> None:
        self.codec = codec
        self.sources = analysis.sources

    def column(self, file: str, line: int, column: int) -> int:
        text = self.sources.line(file, line)
        if text is None:
            return max(0, column - 1)
        position = t.Position(0, max(0, column - 1))
        return self.codec.position_to_client_units([text], position).character

    def range(self, span: s.Span) -> t.Range:
        return t.Range(
            t.Position(max(0, span.line - 1), self.column(span.file, span.line, span.column)),
            t.Position(
                max(0, span.end_line - 1), self.column(span.file, span.end_line, span.end_column)
            ),
        )

    def at(self, span: s.Span) -> t.Location:
        return t.Location(_uri(span.file), self.range(span))


def lsp_diagnostic(diagnostic: Diagnostic, places: Places) -> t.Diagnostic:
    hint = f" ({diagnostic.hint})" if diagnostic.hint else ""
    severity = (
        t.DiagnosticSeverity.Error
        if diagnostic.severity == "error"
        else t.DiagnosticSeverity.Warning
    )
    related = [
        t.DiagnosticRelatedInformation(places.at(n.span), n.message) for n in diagnostic.notes
    ]
    return t.Diagnostic(
        range=places.range(diagnostic.span),
        message=diagnostic.message + hint,
        severity=severity,
        source=LANGUAGE,
        related_information=related or None,
    )


_SYMBOL_KINDS = {
    "action": t.SymbolKind.Function,
    "trigger": t.SymbolKind.Event,
    "define": t.SymbolKind.Function,
    "zone": t.SymbolKind.Array,
    "token": t.SymbolKind.Constant,
    "colours": t.SymbolKind.Enum,
    "cards": t.SymbolKind.Struct,
    "tiles": t.SymbolKind.Struct,
    "column": t.SymbolKind.Field,
    "step": t.SymbolKind.Method,
    "cardvalue": t.SymbolKind.Property,
    "ending": t.SymbolKind.Event,
    "majority": t.SymbolKind.Class,
}

_ITEM_KINDS = {
    "keyword": t.CompletionItemKind.Keyword,
    "rule": t.CompletionItemKind.Reference,
    "column": t.CompletionItemKind.Field,
    "value": t.CompletionItemKind.Property,
    "local": t.CompletionItemKind.Variable,
    "colour": t.CompletionItemKind.EnumMember,
    "define": t.CompletionItemKind.Function,
    "action": t.CompletionItemKind.Function,
    "zone": t.CompletionItemKind.Variable,
    "token": t.CompletionItemKind.Constant,
}


def document_symbol(symbol: features.Symbol, places: Places) -> t.DocumentSymbol:
    return t.DocumentSymbol(
        name=symbol.name,
        kind=_SYMBOL_KINDS.get(symbol.kind, t.SymbolKind.Object),
        range=places.range(symbol.span),
        selection_range=places.range(symbol.selection),
        detail=symbol.kind,
        children=[document_symbol(c, places) for c in symbol.children] or None,
    )


# ------------------------------------------------------------------- features


def make_server() -> RulesServer:
    """A server with every feature registered."""
    server = RulesServer()
    _documents(server)
    _reading(server)
    _editing(server)
    return server


def _documents(server: RulesServer) -> None:
    """Open, change, save, close: each publishes the diagnostics."""

    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulesServer, params: t.DidOpenTextDocumentParams) -> None:
        ls.publish(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: RulesServer, params: t.DidChangeTextDocumentParams) -> None:
        # Edits that arrive together are checked once, after the last.
        await asyncio.sleep(0)
        document: TextDocument = ls.workspace.get_text_document(params.text_document.uri)
        if document.version == params.text_document.version:
            ls.publish(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RulesServer, params: t.DidSaveTextDocumentParams) -> None:
        ls.publish(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulesServer, params: t.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        for target in {uri} | ls.published.pop(uri, set()):
            ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(target, []))
        ls.analyses.pop(uri, None)
        ls.parsed.pop(uri, None)


def _reading(server: RulesServer) -> None:
    """Hover, definition, references, the outline."""

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    def hover(ls: RulesServer, params: t.HoverParams) -> t.Hover | None:
        found = ls.analysis(params.text_document.uri)
        text = features.hover(found, *ls.place(params.text_document.uri, params.position))
        if text is None:
            return None
        return t.Hover(t.MarkupContent(t.MarkupKind.Markdown, text))

    @server.feature(t.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: RulesServer, params: t.DefinitionParams) -> list[t.Location]:
        found = ls.analysis(params.text_document.uri)
        spans = features.definition(found, *ls.place(params.text_document.uri, params.position))
        return [ls.places(found).at(span) for span in spans]

    @server.feature(t.TEXT_DOCUMENT_REFERENCES)
    def references(ls: RulesServer, params: t.ReferenceParams) -> list[t.Location]:
        found = ls.analysis(params.text_document.uri)
        at = ls.place(params.text_document.uri, params.position)
        spans = features.references(found, *at, params.context.include_declaration)
        return [ls.places(found).at(span) for span in spans]

    @server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls: RulesServer, params: t.DocumentSymbolParams) -> list[t.DocumentSymbol]:
        found = ls.analysis(params.text_document.uri)
        places = ls.places(found)
        return [document_symbol(symbol, places) for symbol in features.symbols(found)]


def _editing(server: RulesServer) -> None:
    """Rename, completion and formatting."""

    @server.feature(t.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: RulesServer, params: t.DocumentFormattingParams) -> list[t.TextEdit]:
        """The buffer in the layout of `splendor-rules fmt`, as one edit of
        the whole text; none when it is formatted already or does not parse
        (its diagnostics say why)."""
        document = ls.workspace.get_text_document(params.text_document.uri)
        try:
            formatted = format_source(document.source, document.path)
        except Unparsable:
            return []
        if formatted == document.source:
            return []
        lines = document.lines
        end = t.Position(len(lines), 0)
        return [t.TextEdit(t.Range(t.Position(0, 0), end), formatted)]

    @server.feature(t.TEXT_DOCUMENT_PREPARE_RENAME)
    def prepare_rename(ls: RulesServer, params: t.PrepareRenameParams) -> t.Range:
        found = ls.analysis(params.text_document.uri)
        at = ls.place(params.text_document.uri, params.position)
        occurrence = features.occurrence_at(found, *at)
        if occurrence is None:
            raise JsonRpcInvalidRequest("no name to rename here")
        try:
            features.renamable(found, occurrence)
        except features.Refused as refused:
            raise JsonRpcInvalidRequest(str(refused)) from refused
        return ls.places(found).range(occurrence.span)

    @server.feature(t.TEXT_DOCUMENT_RENAME)
    def rename(ls: RulesServer, params: t.RenameParams) -> t.WorkspaceEdit:
        found = ls.analysis(params.text_document.uri)
        try:
            at = ls.place(params.text_document.uri, params.position)
            edits = features.rename(found, *at, params.new_name)
        except features.Refused as refused:
            raise JsonRpcInvalidRequest(str(refused)) from refused
        changes: dict[str, list[t.TextEdit]] = {}
        for span, text in edits:
            edit = t.TextEdit(ls.places(found).range(span), text)
            changes.setdefault(_uri(span.file), []).append(edit)
        return t.WorkspaceEdit(changes=changes)

    @server.feature(
        t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=[".", "[", " "])
    )
    def complete(ls: RulesServer, params: t.CompletionParams) -> t.CompletionList:
        uri = params.text_document.uri
        current = ls.analysis(uri)
        names = current if current.index is not None else ls.parsed.get(uri, current)
        at = ls.place(uri, params.position)
        items = completion.complete(names, current.text, *at)
        return t.CompletionList(
            is_incomplete=False,
            items=[
                t.CompletionItem(
                    label=i.label,
                    kind=_ITEM_KINDS.get(i.kind, t.CompletionItemKind.Text),
                    detail=i.detail or i.kind,
                )
                for i in items
            ],
        )


def serve() -> None:
    """Answer over stdin and stdout until the client says exit."""
    make_server().start_io()
