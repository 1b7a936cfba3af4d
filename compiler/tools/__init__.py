"""Tools over the compiler and its engines, as libraries: game records and
scenarios (records/), edition diff and conformance (conformance/), engine
speed (bench.py, random_games.py). They return results and raise errors;
compiler/cli is the command line over them."""
