"""Checks, lowering, code generation and the command line."""
