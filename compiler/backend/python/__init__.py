"""The Python target: every edition's engine as a typed, pure-Python module.

`target.PYTHON` is the target; `lower` turns a model into the template's
context, building each function as Python syntax trees (`nodes`, printed by
`printer`) in explicit scopes (`frame`); `templates/` holds the module's layout.
"""
