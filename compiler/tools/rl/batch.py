"""The table the native batched environment reads (issue 23, docs/rl.md).

The batch code of a native engine is generic C; what each index of the
action space and each slice of the observation means for an edition comes
from this table of int32, computed from the description. Its header's
order is the C enum `BC_*` of compiler/backend/native/templates/batch.c.j2.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from splendor_rules.compiler.frontend.description import DISTINCT_CELLS
from splendor_rules.compiler.tools.rl.actions import ActionSpace, line_direction
from splendor_rules.compiler.tools.rl.observation import Layout

HEADER = (
    "obs", "actions", "players",
    "to_move", "turn", "flags", "pending", "waiting", "supply", "deck_sizes",
    "seat_tokens", "did", "cards", "unseen_cards", "tiles", "choosing", "choosing_counts",
    "token", "card", "tile", "set:token", "count", "count_size", "end",
    "card_zones", "tile_zones", "itemsize", "digit_bits", "turn_digits", "waiting_digits",
    "cell", "set:cell", "board", "bag",
)


def _header(layout: Layout, space: ActionSpace) -> list[int]:
    out = []
    for name in HEADER:
        if name == "obs":
            out.append(layout.size)
        elif name == "actions":
            out.append(space.size)
        elif name == "players":
            out.append(layout.players)
        elif name in layout.at:
            out.append(layout.at[name].start)
        elif name == "count_size":
            out.append(space.shared["count"].size if "count" in space.shared else 0)
        elif name == "card_zones":
            out.append(len(layout.card_zones))
        elif name == "tile_zones":
            out.append(len(layout.tile_zones))
        elif name == "itemsize":
            out.append(layout.itemsize)
        elif name == "digit_bits":
            out.append(layout.bits)
        elif name.endswith("_digits"):
            out.append(layout.at[name.removesuffix("_digits")].size)
        else:
            out.append(space.shared[name].start if name in space.shared else -1)
    return out


def table(description: Mapping[str, Any], players: int) -> list[int]:
    """The batch table of an edition for a player count."""
    d = description
    space = ActionSpace(d)
    layout = Layout(d, players)
    codes = [*(a["name"] for a in d["actions"]), *(s["name"] for s in d["steps"]),
             *(f["name"] for f in d["follow_ups"])]
    heads = [space.heads[c].start if c in space.heads else -1 for c in codes]
    scalar = [int(space.scalar_head(c)) for c in codes]
    steps = [layout.pending.index(s["name"]) if s["decision"] else -1 for s in d["steps"]]
    follows = [layout.pending.index(f["name"]) for f in d["follow_ups"]]
    zones = [
        (layout.card_zones if z["holds"] == "cards" else layout.tile_zones).index(z["name"])
        for z in d["zones"] if z["owner"] == "player"
    ]
    values = [layout.at[f"value {name}"].start for name, _, _ in layout.values]
    colours = [int(kind == "colour") for _, kind, _ in layout.values]
    labels = space.labels("set:token")
    sets = [
        labels.index("+".join(t for i, t in enumerate(space.tokens) if bits >> i & 1) or "none")
        for bits in range(1 << len(space.tokens))
    ]
    return [*_header(layout, space), *heads, *scalar, *steps, *follows, *zones, *values,
            *colours, *sets, *_board(space, codes), *_picks(space, codes)]


def _board(space: ActionSpace, codes: list[str]) -> list[int]:
    """With a board: per move code a bit per value naming cells; per line
    length (1 to the board's longer side), lowest cell and direction, the
    line's place in its block, or -1 (batch.c.j2, BT_CELLS and BT_LINES)."""
    if not space.cells:
        return []
    cells = [sum(1 << i for i, (_, kind) in enumerate(space.shapes.get(c, ()))
                 if kind in ("cell", "set:cell")) for c in codes]
    lines = [-1] * (max(space.rows, space.columns) * space.cells * 4)
    for place, line in enumerate(space.lines):
        lines[((len(line) - 1) * space.cells + min(line)) * 4
              + line_direction(line, space.columns)] = place
    return [*cells, *lines]


# How a value a move's kind code does not tell apart is chosen (batch.c.j2, BT_PICKS).
PICKS = {"player": 1, "set:player": 2, DISTINCT_CELLS: 3}


def _picks(space: ActionSpace, codes: list[str]) -> list[int]:
    """Where a move holds a player, a set of players or a set of cells chosen
    distinct: per move code a nibble per value (PICKS, 0 for the others),
    then the start of the block of players (-1: none)."""
    shapes = [space.shapes.get(c, ()) for c in codes]
    if not any(kind in PICKS for shape in shapes for _, kind in shape):
        return []
    if any(len(shape) > 8 for shape in shapes):
        raise ValueError(f"{space.edition}: a move of more than 8 values has no batch table")
    picks = [sum(PICKS.get(kind, 0) << (4 * i) for i, (_, kind) in enumerate(shape))
             for shape in shapes]
    # a nibble of the eighth value reaches int32's sign bit: the C code reads it unsigned
    return [*(p - (1 << 32) if p >= 1 << 31 else p for p in picks),
            space.shared["player"].start if "player" in space.shared else -1]
