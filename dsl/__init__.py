"""The rule language front end: grammar, parser and typed syntax tree."""
