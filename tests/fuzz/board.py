"""A board of cells in a drawn edition (docs/language.md, "A board of
cells"): its size and fill order, the bag, and the actions that use it: a
choice of cells in a line from a filter of the board, a single cell, the
tokens taken, a refill of the board (with a requirement that reads the bag
by its counts). Payments and token limits of an edition with a board go
into the bag now and then (rule_files.py and statements.py ask
`into_bag`). Each board action gains a clock token, as every drawn action
does, so games still end.
"""

from __future__ import annotations

from typing import Any

from fuzz.components import Generator

BOARD_ACTIONS = ("line", "cell", "replenish")


def declare(gen: Generator, edition: Any) -> None:
    """The board (1 to 4 rows and columns, every cell once in a drawn fill
    order) and its bag (some token kinds, the clock never: its supply
    counts the game's turns)."""
    world = edition.world
    rows, columns = gen.number(1, 4), gen.number(1, 4)
    cells = gen.permuted([(r, c) for r in range(rows) for c in range(columns)])
    order = ", ".join(f"({r}, {c})" for r, c in cells)
    edition.add("board", f"{gen.tag()}board {rows} by {columns}, filled in order {order}")
    kinds = [*world.colours, *(t for t in world.tokens if t != edition.clock)]
    lines = [f"{kind}: {gen.amount(edition.players, 0, 4)[0]}" for kind in gen.subset(kinds)]
    body = "".join(f"\n  {line}" for line in gen.permuted(lines))
    edition.add("bag", f"{gen.tag()}bag {{{body}\n}}")
    world.board = True
    world.bag_kinds = kinds
    gen.shape("board")


def into_bag(gen: Generator, world: Any) -> str:
    """Now and then, where tokens paid or returned go, with a board."""
    return " into the bag" if getattr(world, "board", False) and gen.flip() else ""


def cell_condition(gen: Generator, name: str, kinds: list[str]) -> str:
    """A condition on a cell: its token, row or column."""
    atoms = [
        f"{name}.token != {gen.pick(kinds)}",
        f"{name}.token == {gen.pick(kinds)}",
        f"{name}.row != {gen.number(0, 3)}",
        f"{name}.column <= {gen.number(0, 3)}",
        f"{name}.row + {name}.column >= {gen.number(0, 4)}",
    ]
    first = gen.pick(atoms)
    if gen.flip(3):
        return f"{first} {gen.pick(['and', 'or'])} {gen.pick(atoms)}"
    return first


def bag_condition(gen: Generator, kinds: list[str]) -> str:
    """A requirement on the bag, read by its counts."""
    kind = gen.pick(kinds)
    return gen.pick(
        [
            "count(bag) > 0",
            f"count(t in bag where t == {kind}) >= {gen.number(0, 2)}",
            f"any(t in bag: t != {kind})",
            f"sum(t in bag where t != {kind}: 2) >= {gen.number(0, 4)}",
        ]
    )


def actions(gen: Generator, edition: Any) -> None:
    """One to three actions using the board, each gaining a clock token."""
    world = edition.world
    kinds = [*world.colours, *world.tokens]
    clock = f"gain 1 {edition.clock}"
    for name in gen.subset(BOARD_ACTIONS) or ["line"]:
        if name == "line":
            low = gen.number(1, 2)
            high = low + gen.number(0, 2)
            source = "board"
            if not gen.flip(4):
                source = f"x in board where {cell_condition(gen, 'x', kinds)}"
            body = [f"choose picked: {low} to {high} in a line from {source}"]
            if gen.flip():
                kind = gen.pick(kinds)
                body.append(f"let same = count(y in picked where y.token == {kind})")
                body += ["take the tokens of picked", clock]
                body.append(f"if same >= 2 {{\n  gain 1 {gen.pick(kinds)}\n}}")
            else:
                body += ["take the tokens of picked", clock]
        elif name == "cell":
            condition = cell_condition(gen, "x", kinds)
            body = [f"choose c from x in board where {condition}", "take the tokens of c", clock]
        else:
            message = '"the bag holds {count(bag)}"'
            body = [
                f"require {bag_condition(gen, world.bag_kinds or kinds)} else {message}",
                "refill the board",
                clock,
            ]
        lines = "".join(f"\n  {line.replace(chr(10), chr(10) + '  ')}" for line in body)
        edition.add(f"action {name}", f"{gen.tag()}action {name}{gen.title()} {{{lines}\n}}")
        world.actions.append(name)
