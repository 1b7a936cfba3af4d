"""The native target: each edition's rules as a C extension module.

`lower` builds the rule-specific functions as C syntax trees (`cnodes`),
`templates/engine.c.j2` holds what every engine shares (the state, the
moves, the Python type and functions), and `templates/engine.py.j2` makes
the compiled module an engine with the API of docs/engine.md.
"""
