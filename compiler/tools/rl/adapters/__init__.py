"""Adapters to PettingZoo, Gymnasium and OpenSpiel: the only modules that import
them or numpy (the `rl` extra, docs/rl.md)."""
