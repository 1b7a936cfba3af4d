"""Values typed by a tile set: a definition's parameter (`define
reached(t: posts) = ...`) and a zone (`zone shelf: posts tiles of each
player`) hold the tiles of one set, read by that set's own columns.

A tile of one set is the type `tile of SET` (model.tile); the expression
checker reads its attributes from the set's columns. The checks here
resolve the set's name, and refuse what would put a tile of another set
(or of any set) where one set's tiles are expected: a move, a claim, a
majority tile kept, an argument.
"""

from __future__ import annotations

from splendor_rules.compiler.frontend import messages as msgs
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.checks.context import Context
from splendor_rules.compiler.frontend.model import ERROR, Type
from splendor_rules.dsl import syntax as s


def _card_tables(context: Context) -> set[str]:
    return {
        e.decl.name.text for e in context.of(s.Cards) if isinstance(e.decl, s.Cards) and e.decl.name
    }


def parameter_type(context: Context, parameter: s.Parameter, words: dict[str, Type]) -> Type:
    """A parameter's type: its word's, or a tile of the set it names."""
    if parameter.typed_by is None:
        return words[parameter.kind]
    name = context.global_name(parameter.typed_by)
    if context.kind_of(name) == "tiles":
        return m.tile(name)
    span = parameter.typed_by.span
    if name in _card_tables(context):
        context.report(msgs.card_table_type(span, name))
    else:
        context.report(msgs.unknown_parameter_type(span, name, context.names_of("tiles")))
    return ERROR


def type_zones(context: Context) -> None:
    """Each zone typed by a tile set holds that set's tiles: its name's type
    is a set of them (an unknown set: reported, and a set of ERROR)."""
    for entry in context.of(s.Zone):
        decl = entry.decl
        assert isinstance(decl, s.Zone)
        if decl.typed_by is None:
            continue
        context.enter(entry)
        zone = context.global_name(decl.name)
        if context.globals.get(zone, ("", None))[0] != "zone":
            continue  # a name declared twice: reported already
        context.globals[zone] = ("zone", m.set_of(zone_element(context, decl)))


def zone_element(context: Context, decl: s.Zone) -> Type:
    assert decl.typed_by is not None
    name = context.global_name(decl.typed_by)
    span = decl.typed_by.span
    if context.kind_of(name) != "tiles":
        if name in _card_tables(context):
            context.report(msgs.card_table_type(span, name))
        else:
            context.report(msgs.unknown_zone_set(span, name, context.names_of("tiles")))
        return ERROR
    if decl.content != "tiles":
        context.report(msgs.typed_zone_of_cards(decl.span, context.global_name(decl.name), name))
        return ERROR
    return m.tile(name)


def zone_set(context: Context, zone: str) -> str | None:
    """The tile set a zone is typed by, if any (a known zone, known set)."""
    _, type_ = context.globals.get(zone, ("", None))
    element = type_.element if type_ is not None else None
    return element.tiles if element is not None and element.kind == "tile" else None


def check_tile_move(context: Context, written: s.Name, tile: Type, zone: str) -> None:
    """A tile moved into a zone typed by a set must be of that set."""
    tiles = zone_set(context, zone)
    if tiles is not None and tile != ERROR and tile.tiles != tiles:
        context.report(msgs.tile_of_another_set(written.span, written.text, tile, zone, tiles))


def check_claim_zones(context: Context, body: s.StepClaim, tiles: str) -> None:
    """A claim's zones, if typed, are typed by the set it claims."""
    for written in (body.source, body.zone):
        if written is None:
            continue
        typed = zone_set(context, context.global_name(written))
        if typed is not None and typed != tiles and context.kind_of(tiles) == "tiles":
            context.report(
                msgs.claim_of_another_set(written.span, context.global_name(written), typed, tiles)
            )


def check_majority_zone(context: Context, written: s.Name) -> None:
    """A majority tile is of no set: it is kept in a zone of any tiles."""
    typed = zone_set(context, context.global_name(written))
    if typed is not None:
        context.report(
            msgs.majority_in_typed_zone(written.span, context.global_name(written), typed)
        )


def check_argument(
    context: Context, define: str, parameter: s.Parameter, expected: Type, argument: m.Expr
) -> bool:
    """An argument of a parameter typed by a tile set: a tile of that set.
    False when it is reported here (so not again as a type mismatch)."""
    actual = argument.type
    if expected.kind != "tile" or expected.tiles is None or actual.kind != "tile":
        return True
    if actual.tiles == expected.tiles:
        return True
    context.report(
        msgs.argument_of_another_set(
            argument.span, define, parameter.name.text, expected.tiles, actual
        )
    )
    return False


def column_of_some_sets(context: Context, written: s.Name, item: Type) -> bool:
    """A tile (of any set, or of one) read by a column that other sets have:
    reported with the sets that have it, since the way to read it is to type
    the tile by its set."""
    if item.kind != "tile":
        return False
    sets = [
        name
        for name, columns in context.columns.items()
        if name != "cards" and written.text in columns
    ]
    if not sets:
        return False
    context.report(msgs.column_of_some_sets(written.span, item, written.text, sets))
    return True


def check_tile_columns(context: Context) -> None:
    """A column several tile sets declare has one type in all of them: the
    engines hold a column's values for every tile number in one table, and a
    tile of any set reads a column its sets share."""
    first: dict[str, tuple[str, Type]] = {}  # a column -> the first set declaring it, its type
    for entry in context.of(s.Tiles):
        decl = entry.decl
        assert isinstance(decl, s.Tiles)
        context.enter(entry)
        tiles = context.global_name(decl.name)
        for column in decl.columns:
            type_ = context.columns.get(tiles, {}).get(column.name.text)
            if type_ is None:
                continue
            seen = first.setdefault(column.name.text, (tiles, type_))
            if seen[1] != type_:
                context.report(
                    msgs.tile_column_types(column.name.span, column.name.text, tiles, type_, *seen)
                )
