"""The language server of rule files (`splendor-rules lsp`): diagnostics as
the file is typed, hover, go to definition, references, rename, completion
and document symbols (docs/editors.md). pygls is an optional dependency,
imported by `server` only."""
