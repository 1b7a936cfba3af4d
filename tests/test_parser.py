"""Unit tests of the parser: the real editions, expressions, syntax errors."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.building import chain_depth
from splendor_rules.dsl.diagnostics import Diagnostic
from splendor_rules.dsl.parser import MAX_DEPTH, MAX_DIGITS, parse_edition, parse_expression
from splendor_rules.dsl.visitor import walk

EDITIONS = Path(__file__).resolve().parent.parent / "editions"


def _text(name: str) -> str:
    return (EDITIONS / f"{name}.rules").read_text(encoding="utf-8")


def _parse(name: str) -> s.Edition:
    tree, diagnostics = parse_edition(_text(name), f"{name}.rules")
    assert diagnostics == []
    assert tree is not None
    return tree


def _where(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """The 1-based line and column of `needle` in `text`."""
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


def _named(edition: s.Edition, kind: type, name: str) -> s.Decl:
    for item in edition.items:
        decl = item.decl if isinstance(item, s.Override) else item
        written = getattr(decl, "name", None)
        if isinstance(decl, kind) and isinstance(written, s.Name) and written.text == name:
            return decl
    raise AssertionError(f"no {kind.__name__} {name}")


def _expr(text: str) -> s.Expr:
    expr, diagnostics = parse_expression(text, "e", 1, 1)
    assert diagnostics == []
    assert expr is not None
    return expr


def _error(text: str) -> Diagnostic:
    tree, diagnostics = parse_edition(text, "bad.rules")
    assert tree is None
    assert len(diagnostics) == 1
    (diagnostic,) = diagnostics
    assert diagnostic.severity == "error"
    assert diagnostic.span.file == "bad.rules"
    return diagnostic


# ------------------------------------------------------------ the editions


def test_classic_top_level() -> None:
    classic = _parse("classic")
    assert classic.name.text == "classic"
    assert classic.title.value == "Splendor"
    assert classic.parent is None
    assert len(classic.items) == 30
    kinds = [type(item).__name__ for item in classic.items]
    assert kinds[:4] == ["Reference", "Players", "Colours", "Token"]
    assert kinds.count("Action") == 5
    assert kinds.count("Step") == 3
    assert kinds.count("Ending") == 2


def test_marvel_top_level() -> None:
    marvel = _parse("marvel")
    assert marvel.name.text == "marvel"
    assert marvel.title.value == "Splendor: Marvel"
    assert marvel.parent is not None and marvel.parent.text == "classic"
    assert len(marvel.items) == 18
    kinds = [type(item).__name__ for item in marvel.items]
    assert kinds.count("Override") == 6
    assert kinds.count("Remove") == 3
    assert kinds.count("Rename") == 2


def test_classic_component_details() -> None:
    classic = _parse("classic")
    players = next(i for i in classic.items if isinstance(i, s.Players))
    assert (players.low, players.high) == (2, 4)
    colours = next(i for i in classic.items if isinstance(i, s.Colours))
    assert [n.text for n in colours.names] == ["white", "blue", "green", "red", "black"]
    cards = next(i for i in classic.items if isinstance(i, s.Cards))
    assert cards.path.value == "data/classic_cards.csv"
    assert cards.rows == 90
    assert [(c.name.text, c.type.kind) for c in cards.columns] == [
        ("tier", "int_range"), ("bonus", "colour"), ("points", "int"), ("cost", "per_colour")
    ]
    assert (cards.columns[0].type.low, cards.columns[0].type.high) == (1, 3)
    supply = next(i for i in classic.items if isinstance(i, s.Supply))
    assert supply.lines[0].target is None
    assert isinstance(supply.lines[0].amount, s.IntMap)
    assert supply.lines[0].amount.entries == ((2, 4), (3, 5), (4, 7))
    assert supply.lines[1].target is not None and supply.lines[1].target.text == "gold"
    assert supply.lines[1].amount == 5
    market = next(i for i in classic.items if isinstance(i, s.Market))
    assert market.group_by.text == "tier"
    assert market.deck_sizes.entries == ((1, 40), (2, 30), (3, 20))
    assert market.face_up == 4


def test_tags_land_on_their_declaration() -> None:
    classic = _parse("classic")
    take_distinct = _named(classic, s.Action, "take_distinct")
    assert [t.text for t in take_distinct.tags] == ["S-3.1"]
    # [S-3.2] tags a statement inside the action, not the action.
    assert isinstance(take_distinct, s.Action) and take_distinct.body is not None
    tagged = [st for st in take_distinct.body if st.tags]
    assert len(tagged) == 1
    assert isinstance(tagged[0], s.ChooseDistinct)
    assert [t.text for t in tagged[0].tags] == ["S-3.2"]
    assert [t.text for t in _named(classic, s.Action, "take_two").tags] == ["S-3.3"]
    # Untagged declarations have no tags.
    assert next(i for i in classic.items if isinstance(i, s.Players)).tags == ()


def test_tags_in_marvel() -> None:
    marvel = _parse("marvel")
    time_stone = _named(marvel, s.Token, "time_stone")
    assert isinstance(time_stone, s.Token)
    assert [t.text for t in time_stone.tags] == ["M-3.7"]
    properties = [(p.kind, [t.text for t in p.tags], p.amount) for p in time_stone.properties]
    assert properties == [
        ("special", [], None), ("never_returned", ["M-4.1a"], None), ("at_most", [], 1)
    ]
    gauntlet = _named(marvel, s.Ending, "gauntlet")
    assert [t.text for t in gauntlet.tags] == ["M-5.3", "M-5.5"]
    # The tags of an override sit on the declaration it carries.
    supply = next(i for i in marvel.items
                  if isinstance(i, s.Override) and isinstance(i.decl, s.Supply))
    assert [t.text for t in supply.decl.tags] == ["M-2.2"]


def test_take_two_statements() -> None:
    classic = _parse("classic")
    take_two = _named(classic, s.Action, "take_two")
    assert isinstance(take_two, s.Action)
    assert take_two.title is not None and take_two.title.value == "take 2 tokens of one colour"
    assert take_two.body is not None
    choose, require, gain = take_two.body
    assert isinstance(choose, s.Choose)
    assert choose.name.text == "c"
    assert choose.sources == (s.NameRef(span=choose.span, name="colours"),)
    assert isinstance(require, s.Require)
    assert require.message.value == (
        "take two needs at least 4 {c} in the supply; there are {supply(c)}"
    )
    condition = require.condition
    assert isinstance(condition, s.Binary) and condition.op == ">="
    assert isinstance(condition.left, s.Call) and condition.left.function.text == "supply"
    assert condition.right == s.IntLit(span=condition.span, value=4)
    assert isinstance(gain, s.Gain)
    assert gain.amount == s.IntLit(span=gain.span, value=2)
    assert gain.token.text == "c"


def test_reserve_has_a_nested_if_and_two_sources() -> None:
    reserve = _named(_parse("classic"), s.Action, "reserve")
    assert isinstance(reserve, s.Action) and reserve.body is not None
    kinds = [type(st).__name__ for st in reserve.body]
    assert kinds == ["Require", "Choose", "Move", "If"]
    choose = reserve.body[1]
    assert isinstance(choose, s.Choose)
    assert isinstance(choose.sources[0], s.NameRef) and choose.sources[0].name == "market"
    assert isinstance(choose.sources[1], s.DeckTops)
    branch = reserve.body[3]
    assert isinstance(branch, s.If)
    assert len(branch.body) == 1 and isinstance(branch.body[0], s.Gain)


def test_pass_is_a_fallback_action() -> None:
    fallback = _named(_parse("classic"), s.Action, "pass")
    assert isinstance(fallback, s.Action)
    assert fallback.body is None
    assert [t.text for t in fallback.tags] == ["E-3.8"]


def test_marvel_items() -> None:
    marvel = _parse("marvel")
    rename = next(i for i in marvel.items if isinstance(i, s.Rename))
    assert rename.kind == "colour"
    assert [(r.old.text, r.new.text) for r in rename.renamings] == [
        ("white", "mind"), ("blue", "space"), ("green", "soul"), ("red", "reality"),
        ("black", "power"),
    ]
    token_rename = [i for i in marvel.items if isinstance(i, s.Rename)][1]
    assert token_rename.renamings[0].title is not None
    assert token_rename.renamings[0].title.value == "S.H.I.E.L.D."
    removes = [(i.kind.text, i.name.text if i.name else None)
               for i in marvel.items if isinstance(i, s.Remove)]
    assert removes == [("tiles", "noble"), ("reveal", "noble"), ("end", "target")]
    location = _named(marvel, s.Tiles, "location")
    assert isinstance(location, s.Tiles)
    assert location.sides_by is not None and location.sides_by.text == "tile"
    assert location.rows == 8
    majority = _named(marvel, s.Majority, "avengers_assemble")
    assert isinstance(majority, s.Majority)
    assert (majority.points, majority.threshold, majority.ties_keep_holder) == (3, 3, True)
    assert majority.zone is not None and majority.zone.text == "won"
    winners = next(i.decl for i in marvel.items
                   if isinstance(i, s.Override) and isinstance(i.decl, s.Winners))
    assert isinstance(winners, s.Winners)
    assert winners.among == s.NameRef(span=winners.span, name="qualifies")
    assert [k.order for k in winners.keys] == ["highest", "highest", "lowest"]


def test_spans_point_into_the_file() -> None:
    text = _text("classic")
    classic = _parse("classic")
    assert (classic.span.line, classic.span.column) == _where(text, "edition classic")
    assert (classic.name.span.line, classic.name.span.column) == _where(text, "classic \"")
    take_two = _named(classic, s.Action, "take_two")
    # A declaration's span starts at its tags.
    assert (take_two.span.line, take_two.span.column) == _where(text, "[S-3.3]")
    assert (take_two.tags[0].span.line, take_two.tags[0].span.column) == _where(text, "S-3.3")
    assert isinstance(take_two, s.Action) and take_two.body is not None
    require = take_two.body[1]
    assert isinstance(require, s.Require)
    assert (require.span.line, require.span.column) == _where(text, "require supply(c)")
    message = require.message
    assert (message.span.line, message.span.column) == _where(text, '"take two needs')
    # The span covers the whole string, quotes included.
    assert message.span.end_line == message.span.line
    length = len('"take two needs at least 4 {c} in the supply; there are {supply(c)}"')
    assert message.span.end_column - message.span.column == length
    score = next(i for i in classic.items if isinstance(i, s.Score))
    assert isinstance(score.value, s.Binary)
    right = score.value.right
    assert isinstance(right, s.Call)
    assert (right.span.line, right.span.column) == _where(text, "sum(won.points)")
    # A multi-line declaration ends on its closing brace.
    cards = next(i for i in classic.items if isinstance(i, s.Cards))
    assert cards.span.line == _where(text, "cards from")[0]
    assert cards.span.end_line == _where(text, "cost: per colour")[0] + 1


def test_spans_in_marvel() -> None:
    text = _text("marvel")
    marvel = _parse("marvel")
    assert marvel.parent is not None
    assert (marvel.parent.span.line, marvel.parent.span.column) == _where(text, "classic {")
    qualifies = _named(marvel, s.Define, "qualifies")
    assert (qualifies.span.line, qualifies.span.column) == _where(text, "[M-5.2]")
    assert qualifies.span.file == "marvel.rules"
    trigger = _named(marvel, s.Trigger, "first_time_icon")
    assert isinstance(trigger, s.Trigger)
    branch = trigger.body[0]
    assert isinstance(branch, s.If)
    assert (branch.span.line, branch.span.column) == _where(text, "if k.time_icon")


def test_every_span_is_located() -> None:
    for name in sorted(p.stem for p in EDITIONS.glob("*.rules")):
        lines = _text(name).splitlines()
        for node in walk(_parse(name)):
            span = node.span
            assert span.file == f"{name}.rules"
            assert 1 <= span.line <= span.end_line <= len(lines)
            assert 1 <= span.column <= len(lines[span.line - 1]) + 1
            if span.line == span.end_line:
                assert span.column < span.end_column


def test_message_parts_are_parsed_where_they_are_written() -> None:
    text = _text("classic")
    take_two = _named(_parse("classic"), s.Action, "take_two")
    assert isinstance(take_two, s.Action) and take_two.body is not None
    require = take_two.body[1]
    assert isinstance(require, s.Require)
    before, colour, between, supply = require.message.parts
    assert (before, between) == ("take two needs at least 4 ", " in the supply; there are ")
    assert isinstance(colour, s.NameRef) and colour.name == "c"
    assert isinstance(supply, s.Call) and supply.function.text == "supply"
    assert (colour.span.line, colour.span.column) == _where(text, "c} in the supply")
    assert (supply.span.line, supply.span.column) == _where(text, "supply(c)}")
    assert supply.span.end_column == supply.span.column + len("supply(c)")


def test_escapes_before_a_placeholder_do_not_shift_it() -> None:
    tree, diagnostics = parse_edition(
        'edition x "X" {\n  action a {\n    require true else "\\"\\t{n}"\n  }\n}\n', "x.rules"
    )
    assert diagnostics == [] and tree is not None
    action = tree.items[0]
    assert isinstance(action, s.Action) and action.body is not None
    require = action.body[0]
    assert isinstance(require, s.Require)
    assert require.message.value == '"\t{n}'
    text, name = require.message.parts
    assert text == '"\t' and isinstance(name, s.NameRef)
    assert (name.span.line, name.span.column) == (3, len('    require true else "\\"\\t{') + 1)


def test_a_broken_placeholder_is_kept_for_the_checker() -> None:
    tree, diagnostics = parse_edition(
        'edition x "X" {\n  action a {\n    require true else "a {b +} c {\\n}"\n  }\n}\n',
        "x.rules",
    )
    assert diagnostics == [] and tree is not None
    action = tree.items[0]
    assert isinstance(action, s.Action) and action.body is not None
    require = action.body[0]
    assert isinstance(require, s.Require)
    text, syntax, between, line_break = require.message.parts
    assert (text, between) == ("a ", " c ")
    assert isinstance(syntax, s.BrokenPlaceholder) and "a number" in syntax.problem
    placeholder = len('    require true else "a {') + 1
    assert syntax.span.line == 3
    assert placeholder <= syntax.span.column <= placeholder + len("b +")
    assert isinstance(line_break, s.BrokenPlaceholder)
    assert line_break.problem == "a {...} part of a message cannot hold a line break"
    assert line_break.span == require.message.span


def test_row_count_has_its_span() -> None:
    text = _text("classic")
    cards = next(i for i in _parse("classic").items if isinstance(i, s.Cards))
    assert cards.row_count is not None and cards.row_count.count == cards.rows == 90
    span = cards.row_count.span
    assert (span.line, span.column) == _where(text, "with 90 rows")
    assert span.end_column - span.column == len("with 90 rows")


# ------------------------------------------------------------- expressions


def test_precedence_product_over_sum() -> None:
    e = _expr("a + b * c")
    assert isinstance(e, s.Binary) and e.op == "+"
    assert e.left == s.NameRef(span=e.span, name="a")
    assert isinstance(e.right, s.Binary) and e.right.op == "*"
    assert e.left.span.column == 1 and e.right.span.column == 5


def test_sums_associate_to_the_left() -> None:
    e = _expr("a - b - c")
    assert isinstance(e, s.Binary) and e.op == "-"
    assert isinstance(e.left, s.Binary) and e.left.op == "-"
    assert e.right == s.NameRef(span=e.span, name="c")


def test_precedence_and_over_or() -> None:
    e = _expr("a and b or c")
    assert isinstance(e, s.Logic) and e.op == "or"
    assert isinstance(e.operands[0], s.Logic) and e.operands[0].op == "and"
    assert len(e.operands) == 2


def test_chained_and_is_flat() -> None:
    e = _expr("a and b and c")
    assert isinstance(e, s.Logic) and e.op == "and" and len(e.operands) == 3


def test_not_binds_tighter_than_and() -> None:
    e = _expr("not a and b")
    assert isinstance(e, s.Logic) and e.op == "and"
    assert isinstance(e.operands[0], s.Not)
    assert e.operands[0].operand == s.NameRef(span=e.span, name="a")


def test_not_binds_looser_than_comparison() -> None:
    e = _expr("not a == b")
    assert isinstance(e, s.Not)
    assert isinstance(e.operand, s.Binary) and e.operand.op == "=="


def test_conditional() -> None:
    e = _expr("x if c else y")
    assert isinstance(e, s.Conditional)
    assert e.then == s.NameRef(span=e.span, name="x")
    assert e.condition == s.NameRef(span=e.span, name="c")
    assert e.otherwise == s.NameRef(span=e.span, name="y")


def test_conditional_is_loosest() -> None:
    e = _expr("a + 1 if b or c else 2 * d")
    assert isinstance(e, s.Conditional)
    assert isinstance(e.then, s.Binary) and e.then.op == "+"
    assert isinstance(e.condition, s.Logic) and e.condition.op == "or"
    assert isinstance(e.otherwise, s.Binary) and e.otherwise.op == "*"


def test_negation_and_literals() -> None:
    e = _expr("-3 < -x")
    assert isinstance(e, s.Binary) and e.op == "<"
    assert isinstance(e.left, s.Negate) and e.left.operand == s.IntLit(span=e.span, value=3)
    assert isinstance(e.right, s.Negate)
    assert _expr("true") == s.BoolLit(span=e.span, value=True)
    assert _expr("false") == s.BoolLit(span=e.span, value=False)


def test_postfix_chain() -> None:
    e = _expr("k.cost[c]")
    assert isinstance(e, s.Index)
    assert isinstance(e.subject, s.Attribute)
    assert e.subject.subject == s.NameRef(span=e.span, name="k")
    assert e.subject.attribute.text == "cost"
    assert e.index == s.NameRef(span=e.span, name="c")


def test_call_with_attribute_argument() -> None:
    e = _expr("sum(bought.points)")
    assert isinstance(e, s.Call) and e.function.text == "sum"
    (argument,) = e.arguments
    assert isinstance(argument, s.Attribute)
    assert argument.subject == s.NameRef(span=e.span, name="bought")
    assert argument.attribute.text == "points"


def test_call_with_no_and_several_arguments() -> None:
    e = _expr("f()")
    assert isinstance(e, s.Call) and e.arguments == ()
    e = _expr("min(3, count(open))")
    assert isinstance(e, s.Call) and len(e.arguments) == 2
    assert isinstance(e.arguments[1], s.Call)


def test_all_over_a_set() -> None:
    e = _expr("all(c in colours: bonus[c] >= 1)")
    assert isinstance(e, s.Call) and e.function.text == "all"
    (argument,) = e.arguments
    assert isinstance(argument, s.OverSet)
    assert argument.variable.text == "c"
    assert argument.source == s.NameRef(span=e.span, name="colours")
    body = argument.body
    assert isinstance(body, s.Binary) and body.op == ">="
    assert isinstance(body.left, s.Index)


def test_any_over_players() -> None:
    e = _expr("any(player: score >= 15)")
    assert isinstance(e, s.Call) and e.function.text == "any"
    (argument,) = e.arguments
    assert isinstance(argument, s.OverPlayers)
    assert isinstance(argument.body, s.Binary)
    assert argument.body.right == s.IntLit(span=e.span, value=15)


def test_count_of_a_filter() -> None:
    e = _expr("count(k in bought where k.bonus == c)")
    assert isinstance(e, s.Call) and e.function.text == "count"
    (argument,) = e.arguments
    assert isinstance(argument, s.Filter)
    assert argument.variable.text == "k"
    assert argument.source == s.NameRef(span=e.span, name="bought")
    assert isinstance(argument.condition, s.Binary) and argument.condition.op == "=="


def test_line_breaks_inside_parentheses_are_ignored() -> None:
    flat = _expr("min(3, count(k in bought where k.bonus == c))")
    broken = _expr("min(\n  3,\n  count(k in bought\n        where k.bonus == c)\n)")
    assert broken == flat
    e = _expr("(a +\n b) * c")
    assert isinstance(e, s.Binary) and e.op == "*"
    assert e.right.span.line == 2


def test_line_breaks_inside_parentheses_in_a_rule_file() -> None:
    text = (
        'edition x "X" {\n'
        "  define d = all(c in colours:\n"
        "                 bonus[c] >= 1)\n"
        "  score = (1 +\n"
        "           2)\n"
        "}\n"
    )
    tree, diagnostics = parse_edition(text, "x.rules")
    assert diagnostics == [] and tree is not None
    assert len(tree.items) == 2
    define = tree.items[0]
    assert isinstance(define, s.Define) and isinstance(define.value, s.Call)
    assert (define.span.line, define.span.end_line) == (2, 3)


def test_embedded_expression_spans_are_shifted() -> None:
    e, diagnostics = parse_expression("supply(c)", "f.rules", 10, 42)
    assert diagnostics == [] and e is not None
    assert (e.span.file, e.span.line, e.span.column) == ("f.rules", 10, 42)
    assert e.span.end_column == 42 + len("supply(c)")
    assert isinstance(e, s.Call)
    (argument,) = e.arguments
    assert (argument.span.line, argument.span.column) == (10, 49)


def test_expression_syntax_error_is_shifted() -> None:
    e, diagnostics = parse_expression("a +", "f.rules", 10, 42)
    assert e is None
    (diagnostic,) = diagnostics
    assert diagnostic.span.file == "f.rules"
    assert diagnostic.span.line == 10
    assert diagnostic.span.column >= 42
    assert "a number" in diagnostic.message


# ----------------------------------------------------------- syntax errors


def test_misspelled_keyword_at_the_start_of_a_declaration() -> None:
    d = _error('edition x "X" {\n  playres 2..4\n}\n')
    assert (d.span.line, d.span.column) == (2, 3)
    assert "'playres'" in d.message
    assert d.hint == "did you mean 'players'?"


def test_misspelled_keyword_at_the_start_of_a_statement() -> None:
    d = _error('edition x "X" {\n  action a {\n    requir x else "m"\n  }\n}\n')
    assert (d.span.line, d.span.column) == (3, 5)
    assert d.hint == "did you mean 'require'?"


def test_misspelled_keyword_inside_a_declaration() -> None:
    d = _error('edition x "X" {\n  turn order: fixed, frist player chosen at setup\n}\n')
    assert (d.span.line, d.span.column) == (2, 22)
    assert d.hint == "did you mean 'first'?"


def test_misspelled_edition_keyword() -> None:
    d = _error('editon x "X" {\n}\n')
    assert (d.span.line, d.span.column) == (1, 1)
    assert d.hint == "did you mean 'edition'?"


def test_misspelled_word_of_a_word_list() -> None:
    d = _error('edition x "X" {\n  winners: higest score, ties share\n}\n')
    assert (d.span.line, d.span.column) == (2, 12)
    assert d.hint == "did you mean 'highest'?"


def test_single_equals_in_a_comparison() -> None:
    d = _error('edition x "X" {\n  action a {\n    require x = 1 else "m"\n  }\n}\n')
    assert (d.span.line, d.span.column) == (3, 15)
    assert (d.span.end_line, d.span.end_column) == (3, 16)
    assert "'='" in d.message
    assert d.hint is not None and "use '=='" in d.hint


def test_unclosed_brace() -> None:
    d = _error('edition x "X" {\n  action a {\n    gain 1 c\n}\n')
    assert "end of file" in d.message
    assert d.hint is not None and "never closed" in d.hint
    assert d.span.line == 4


def test_unclosed_parenthesis() -> None:
    d = _error('edition x "X" {\n  score = (1 + 2\n}\n')
    assert (d.span.line, d.span.column) == (3, 1)
    assert "')'" in d.message


def test_single_quoted_string() -> None:
    d = _error("edition x \"X\" {\n  token g 'gold': wild\n}\n")
    assert (d.span.line, d.span.column) == (2, 11)
    assert "unexpected character" in d.message
    assert d.hint == "strings are written in double quotes"


def test_unterminated_string() -> None:
    d = _error('edition x "X" {\n  token g "gold: wild\n}\n')
    assert (d.span.line, d.span.column) == (2, 11)
    assert "unexpected character" in d.message


def test_line_ends_too_early() -> None:
    d = _error('edition x "X" {\n  players 2..\n}\n')
    assert (d.span.line, d.span.column) == (2, 14)
    assert "end of line" in d.message
    assert "a number" in d.message
    assert d.hint == "the line ends before the statement is complete"


def test_empty_file() -> None:
    d = _error("")
    assert (d.span.line, d.span.column) == (1, 1)
    assert "'edition'" in d.message


def test_missing_title() -> None:
    d = _error("edition x {\n}\n")
    assert (d.span.line, d.span.column) == (1, 11)
    assert "a string" in d.message


def test_error_at_the_end_of_a_file_without_a_newline() -> None:
    d = _error('edition x "X" {\n  players 2..4')
    assert d.span.line == 2
    assert d.span.column >= 1
    assert d.hint is not None and "never closed" in d.hint


@pytest.mark.parametrize(
    "text",
    ["", "\n", "edition", "}", "{", "(((", '"', "#", "\x00", "\u200bedition x \"X\" {}",
     'edition x "X" {\n  [S-1\n}', 'edition x "X" {\n  define a = )\n}'],
)
def test_bad_input_gives_one_located_error(text: str) -> None:
    tree, diagnostics = parse_edition(text, "bad.rules")
    assert tree is None
    assert len(diagnostics) == 1
    span = diagnostics[0].span
    assert span.line >= 1 and span.column >= 1
    assert span.line <= max(1, text.count("\n") + 1)
    assert diagnostics[0].message


def test_a_byte_order_mark_that_starts_the_file_is_no_part_of_it() -> None:
    tree, diagnostics = parse_edition('\ufeffedition x "X" {\n  players 2..4\n}\n', "x.rules")
    assert diagnostics == [] and tree is not None
    assert (tree.name.span.line, tree.name.span.column) == (1, 9)
    # Anywhere else it is a stray character, shown escaped.
    d = _error('edition x "X" {\n  players\ufeff 2..4\n}\n')
    assert d.message == "unexpected character '\\ufeff'"


# ------------------------------------------------------------------ limits


def test_remove_without_a_name_parses() -> None:
    tree, diagnostics = parse_edition('edition x "X" extends y {\n  remove players\n}\n', "x.rules")
    assert diagnostics == [] and tree is not None
    (remove,) = tree.items
    assert isinstance(remove, s.Remove)
    assert remove.kind.text == "players" and remove.name is None
    assert (remove.span.line, remove.span.column) == (2, 3)


@pytest.mark.parametrize(
    "body",
    ["(" * 60 + "1" + ")" * 60, "-" * 200 + "1", "not " * 200 + "true", "bought" + ".points" * 200,
     "max(1, " * 60 + "1" + ")" * 60, "(1 + " * 60 + "1" + ")" * 60,
     "1 if true else " * 120 + "1"],
)
def test_too_deep_nesting_is_a_located_error(body: str) -> None:
    text = f'edition x "X" {{\n  players 2..4\n  score = {body}\n}}\n'
    d = _error(text)
    assert d.message == f"this nests too deeply (over {MAX_DEPTH} levels)"
    assert d.span.line == 3
    assert 11 <= d.span.column <= len(text.split("\n")[2])


def test_nesting_below_the_limit_is_fine() -> None:
    for body in ["(" * 30 + "1" + ")" * 30, "1" + " + 1" * 60, "-" * 60 + "1"]:
        tree, diagnostics = parse_edition(f'edition x "X" {{\n  score = {body}\n}}\n', "x.rules")
        assert diagnostics == [] and tree is not None


def _value(e: s.Expr) -> int:
    """The value of a tree of whole-number literals and + - *, without recursion
    (a chain built wrongly could be deep)."""
    stack: list[tuple[s.Expr, bool]] = [(e, False)]
    values: list[int] = []
    while stack:
        node, done = stack.pop()
        if isinstance(node, s.IntLit):
            values.append(node.value)
        elif not done:
            assert isinstance(node, s.Binary)
            stack += [(node, True), (node.right, False), (node.left, False)]
        else:
            right, left = values.pop(), values.pop()
            assert isinstance(node, s.Binary)
            values.append({"+": left + right, "-": left - right, "*": left * right}[node.op])
    return values[0]


def _depth(e: s.Expr) -> int:
    stack, deepest = [(e, 1)], 0
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(node, s.Binary):
            stack += [(node.left, depth + 1), (node.right, depth + 1)]
    return deepest


@pytest.mark.parametrize("terms", [2, 8, 9, 95, 300, 5000])
def test_a_flat_chain_counts_as_little_nesting_and_keeps_its_value(terms: int) -> None:
    """`1 + 1 + ... + 1` is one level of writing, not `terms` levels: it is
    built in groups, as deep as the logarithm of its length, and the regrouping
    keeps the value of every mix of + and - (and of *)."""
    rng = random.Random(terms)
    numbers = [rng.randrange(10) for _ in range(terms)]
    ops = [rng.choice("+-") for _ in range(terms - 1)]
    pairs = list(zip(ops, numbers[1:], strict=True))
    written = str(numbers[0]) + "".join(f" {op} {n}" for op, n in pairs)
    expected = numbers[0] + sum(n if op == "+" else -n for op, n in pairs)
    tree, diagnostics = parse_edition(f'edition x "X" {{\n  score = {written}\n}}\n', "x.rules")
    assert diagnostics == [] and tree is not None
    (score,) = tree.items
    assert isinstance(score, s.Score)
    assert _value(score.value) == expected
    assert _depth(score.value) <= 1 + chain_depth(terms) <= 1 + 7 * math.ceil(math.log(terms, 8))
    product, diagnostics = parse_expression(" * ".join(["2"] * terms), "x.rules", 1, 1)
    assert diagnostics == [] and product is not None
    assert _value(product) == 2**terms


def test_a_short_chain_associates_to_the_left_as_written() -> None:
    e, diagnostics = parse_expression("1 - 2 + 3", "x.rules", 1, 1)
    assert diagnostics == [] and isinstance(e, s.Binary) and e.op == "+"
    assert isinstance(e.left, s.Binary) and e.left.op == "-"


def test_deep_nesting_in_a_message_placeholder() -> None:
    e, diagnostics = parse_expression("(" * 80 + "1" + ")" * 80, "f.rules", 7, 20)
    assert e is None
    (d,) = diagnostics
    assert d.span.line == 7 and d.span.column > 20
    assert "nests too deeply" in d.message


def test_too_long_number_is_a_located_error() -> None:
    d = _error('edition x "X" {\n  players 2..' + "4" * (MAX_DIGITS + 1) + "\n}\n")
    assert (d.span.line, d.span.column) == (2, 14)
    assert d.message == f"a number of {MAX_DIGITS + 1} digits is too long"
    tree, diagnostics = parse_edition(
        'edition x "X" {\n  players 2..' + "4" * MAX_DIGITS + "\n}\n", "x.rules")
    assert diagnostics == [] and tree is not None
