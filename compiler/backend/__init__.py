"""The back end: checked models -> engines.

`analysis` holds the facts about a model that any target needs, `target`
what a target provides, and `build` runs a target over every edition and
writes its files. Each target is a folder (`python/`: its lowering, its
emitter and its templates).
"""
