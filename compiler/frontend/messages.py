"""Every diagnostic of the front end, worded in one place.

The checks, the edition resolver (editions.py), the data reader (data.py)
and the rule-id checks (rule_ids.py) decide what is wrong and where; the
functions here say it, each returning the Diagnostic to report, as mypy's
messages.py does for mypy. With the wording in one module it can be read and
kept consistent as a whole (the golden files in tests/broken hold it word for
word), and no check builds a sentence of its own. The parser's syntax
messages are in dsl/messages.py.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

import attrs

from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.frontend.limits import Limit
from splendor_rules.dsl import syntax as s
from splendor_rules.dsl.diagnostics import Diagnostic, Note, did_you_mean
from splendor_rules.dsl.syntax import Span

Key = tuple[str, str | None]


def _error(message: str, span: Span, hint: str | None = None) -> Diagnostic:
    return Diagnostic("error", message, span, hint)


def _warning(message: str, span: Span, hint: str | None = None) -> Diagnostic:
    return Diagnostic("warning", message, span, hint)


def _first_here(diagnostic: Diagnostic, first: Span | None) -> Diagnostic:
    """A diagnostic about a second declaration, with a note at the first."""
    if first is None:
        return diagnostic
    return attrs.evolve(diagnostic, notes=(Note("first declared here", first),))


def _plural(count: int, word: str) -> str:
    return word + ("s" if count != 1 else "")


def listed(words: Sequence[str]) -> str:
    """Words as a sentence lists them: `a`, `a and b`, `a, b and c`."""
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def describe_key(key: Key) -> str:
    """A declaration by its key, as messages name it: `zone 'bought'`, `market`."""
    kind, name = key
    return f"{kind} '{name}'" if name is not None else kind


# ----------------------------------------------------------- rule files


def not_utf8(span: Span, reason: str) -> Diagnostic:
    return _error(f"the file is not UTF-8 text ({reason})", span)


def unknown_edition(span: Span, name: str, known: Iterable[str]) -> Diagnostic:
    hint = did_you_mean(name, known) or f"no {name}.rules beside this file or in the editions"
    return _error(f"unknown edition '{name}'", span, hint)


def extends_itself(span: Span, edition: str, parent: str) -> Diagnostic:
    return _error(f"edition '{edition}' extends itself through '{parent}'", span)


def too_many_ancestors(span: Span, limit: int) -> Diagnostic:
    return _error(
        f"this edition's parent, its parent's parent and so on are over {limit} editions",
        span,
        f"an edition has at most {limit} ancestors",
    )


# Why a name cannot name an edition (its engine is a Python module named after it).
EDITION_NAME_FORM = (
    "an edition's name is lower-case letters, digits and '_', starting with a letter"
)
EDITION_NAME_KEYWORD = "it is a keyword of Python"
EDITION_NAME_TAKEN = "the package of the engines has that name for its own use"


def edition_name_too_long(limit: int) -> str:
    return f"an edition's name is at most {limit} characters"


def bad_edition_name(span: Span, name: str, reason: str, valid: str) -> Diagnostic:
    return _error(
        f"'{name}' cannot name an edition: {reason}",
        span,
        f"its engine is a Python module named after it; say '{valid}'",
    )


def same_edition_name(span: Span, name: str, other: str) -> Diagnostic:
    return _error(
        f"edition '{name}' is declared by {other} too",
        span,
        "an edition is found by its name, so two files in a folder need two names",
    )


# --------------------------------------------------------- inheritance


def needs_parent(span: Span, item: str) -> Diagnostic:
    """An override, remove or rename in an edition that extends none."""
    return _error(
        f"'{item}' needs an edition to inherit from",
        span,
        "add 'extends <edition>' to the edition line",
    )


def declared_twice(span: Span, key: Key, first: Span) -> Diagnostic:
    return _first_here(_error(f"{describe_key(key)} is declared twice", span), first)


def declared_by_parent(span: Span, key: Key, parent: str, first: Span | None) -> Diagnostic:
    diagnostic = _error(
        f"{describe_key(key)} is already declared by edition '{parent}'",
        span,
        "write 'override' to replace it",
    )
    return _first_here(diagnostic, first)


def nothing_to_rename(
    span: Span, parent: str, kind: str, old: str, known: Iterable[str]
) -> Diagnostic:
    return _error(
        f"edition '{parent}' has no {kind} '{old}' to rename", span, did_you_mean(old, known)
    )


def renamed_twice(span: Span, kind: str, old: str) -> Diagnostic:
    return _error(f"{kind} '{old}' is renamed twice", span)


def rename_to_taken_name(span: Span, kind: str, old: str, new: str) -> Diagnostic:
    return _error(f"cannot rename {kind} '{old}' to '{new}': that name is taken", span)


def nothing_to_change(
    span: Span, parent: str, key: Key, change: str, candidates: Iterable[str]
) -> Diagnostic:
    """A remove or override of a declaration the parent does not have."""
    hint = did_you_mean(key[1], candidates) if key[1] else None
    return _error(f"edition '{parent}' declares no {describe_key(key)} to {change}", span, hint)


def step_placed_beside_itself(span: Span, name: str, side: str) -> Diagnostic:
    return _error(
        f"step '{name}' cannot go {side} itself",
        span,
        "name another step; with no placement, an override keeps its place and a new"
        " step goes last",
    )


def no_step_to_place_beside(
    span: Span, name: str, side: str, other: str, known: Iterable[str], later: bool
) -> Diagnostic:
    """`step NAME before/after OTHER` with no step OTHER (inherited, or
    declared earlier in the file); `later`: the file declares it further on."""
    steps = list(known)
    listed = ", ".join(f"'{n}'" for n in steps) if steps else "none"
    if later:
        hint = f"step '{other}' is declared further on in this file: declare it first"
    else:
        hint = did_you_mean(other, steps) or f"the steps before this one are {listed}"
    return _error(f"no step '{other}' to put step '{name}' {side}", span, hint)


def already_removed(span: Span, key: Key) -> Diagnostic:
    return _error(f"{describe_key(key)} is already removed", span)


def override_of_removed(span: Span, key: Key) -> Diagnostic:
    return _error(
        f"{describe_key(key)} is removed, so it cannot be overridden",
        span,
        "drop the 'remove' or the 'override'",
    )


# ------------------------------------------------------------ data files


def unreadable_data_file(span: Span, path: str, reason: str, hint: str | None = None) -> Diagnostic:
    return _error(f"cannot read data file '{path}': {reason}", span, hint)


# Why a file could not be read, when the system gives no reason, or why it
# may not be (compiler/frontend/files.py).
CANNOT_OPEN = "cannot open it"
NOT_UTF8 = "not UTF-8 text"
NOT_A_PATH = "not a valid path"
NOT_A_REGULAR_FILE = "it is not a regular file"
ABSOLUTE_PATH = "it is named by an absolute path"
HINT_RELATIVE_PATH = 'name it relative to the folder of the rule file, as in "data/cards.csv"'
HINT_INSIDE_FOLDER = "a rule file reads files in its own folder and the folders below it only"


def outside_folder(rule_file: str) -> str:
    return f"it is outside the folder of {rule_file}"


def too_large(limit: int) -> str:
    return f"it is larger than {limit // (1024 * 1024)} MiB"


def unreadable_rule_file(span: Span, reason: str) -> Diagnostic:
    return _error(f"cannot read the rule file: {reason}", span)


def empty_data_file(span: Span, path: str) -> Diagnostic:
    return _error(f"data file '{path}' is empty", span)


def undeclared_data_column(span: Span, heading: str, file: str) -> Diagnostic:
    return _warning(f"column '{heading}' of {file} is not declared", span)


def unreadable_record(span: Span, reason: str) -> Diagnostic:
    return _error(f"cannot read this CSV record: {reason}", span)


LONE_CARRIAGE_RETURN = "a line ends with a carriage return alone; end lines with '\\n' or '\\r\\n'"


def cell_too_long(limit: int) -> str:
    return f"a cell is longer than {limit} characters"


def row_length(span: Span, cells: int, header: int) -> Diagnostic:
    return _error(f"row has {cells} cells; the header has {header}", span)


def row_count(span: Span, file: str, found: int, declared: int) -> Diagnostic:
    return _error(f"{file} has {found} rows; the rule file says {declared}", span)


def missing_data_column(
    span: Span, path: str, source: str, header: Sequence[str], per_colour_unmapped: bool
) -> Diagnostic:
    hint = did_you_mean(source, header)
    if hint is None and per_colour_unmapped:
        hint = (
            "a 'per colour' column reads one data column named after each "
            'colour, unless mapped: {colour: "column", ...}'
        )
    return _error(f"data file '{path}' has no column '{source}'", span, hint)


def empty_range(span: Span, low: int, high: int) -> Diagnostic:
    return _error(f"empty range {low}..{high}", span)


def unmapped_colours(span: Span, column: str, missing: Sequence[str]) -> Diagnostic:
    return _error(
        f"column '{column}' maps no data column to {_plural(len(missing), 'colour')} "
        f"{', '.join(repr(c) for c in missing)}",
        span,
        "a mapping names a data column for every colour",
    )


def not_a_whole_number(span: Span, cell: str, column: str) -> Diagnostic:
    return _error(f"'{cell}' is not a whole number (column '{column}')", span)


def out_of_range(
    span: Span, value: int, low: int | None, high: int | None, column: str
) -> Diagnostic:
    return _error(f"{value} is outside {low}..{high} (column '{column}')", span)


def not_a_flag(span: Span, cell: str, column: str) -> Diagnostic:
    return _error(f"'{cell}' is not 0 or 1 (column '{column}')", span)


def unknown_colour_cell(span: Span, cell: str, column: str, known: Iterable[str]) -> Diagnostic:
    return _error(f"unknown colour '{cell}' (column '{column}')", span, did_you_mean(cell, known))


def map_key_in_no_row(
    span: Span, key: str, column: str, at: Span, cell: str, lines: Sequence[int]
) -> Diagnostic:
    """A key of a colour column's map that no cell has, where cells have a
    word close to it that is no colour: most likely the key is misspelt (its
    hint) but the rows may be; the note shows the first of them."""
    count = len(lines)
    shown = ", ".join(map(str, lines[:5])) + (", ..." if count > 5 else "")
    rows = f"{count} {_plural(count, 'row')}" + (" has" if count == 1 else " have")
    note = Note(f"{rows} '{cell}', which is no colour (line{'s' if count > 1 else ''} {shown})", at)
    return attrs.evolve(
        _error(
            f"no row has '{key}', which the map of column '{column}' names",
            span,
            f"did you mean '{cell}'?",
        ),
        notes=(note,),
    )


def not_one_of(span: Span, cell: str, column: str, values: Sequence[str]) -> Diagnostic:
    hint = did_you_mean(cell, values) or "it may be " + ", ".join(f'"{v}"' for v in values)
    return _error(f"'{cell}' is not one of the values of column '{column}'", span, hint)


def value_twice(span: Span, value: str, column: str) -> Diagnostic:
    return _error(f"'{value}' is given twice (column '{column}')", span)


def none_is_no_token(span: Span) -> Diagnostic:
    return _error("this may be none (no colour), which is no token kind", span)


def bad_default(span: Span, column: str, kind: str) -> Diagnostic:
    return _error(f"the default of column '{column}' is not {kind}", span)


def text_not_a_value(span: Span, text: str, column: str, values: Sequence[str]) -> Diagnostic:
    hint = did_you_mean(text, values) or "it may be " + ", ".join(f'"{v}"' for v in values)
    return _error(f"\"{text}\" is never a value of column '{column}'", span, hint)


def column_type_differs(
    span: Span, column: str, table: str, kind: str, first: str, first_kind: str
) -> Diagnostic:
    return _error(
        f"column '{column}' of {table} is {kind}, but {first} declares it {first_kind}",
        span,
        "a column of several card tables has one type",
    )


def card_table(name: str | None) -> str:
    """A card table as messages name it."""
    return f"card table '{name}'" if name is not None else "the unnamed card table"


def no_default(span: Span, column: str, lacking: str) -> Diagnostic:
    return _error(
        f"column '{column}' has no default, and {lacking} lacks it",
        span,
        f"add one: '{column}: ... default VALUE'",
    )


def repeated_name(span: Span, column: str, value: object, first_line: int) -> Diagnostic:
    return _error(
        f"two rows have the {column} '{value}' (column '{column}')",
        span,
        f"line {first_line} has it first",
    )


def no_sides_column(span: Span, sides: str) -> Diagnostic:
    return _error(f"double-sided by '{sides}', but no column '{sides}' is declared", span)


def tile_faces(span: Span, tile: object, lines: Sequence[int], sides: str) -> Diagnostic:
    count = f"{len(lines)} {_plural(len(lines), 'face')}"
    return _error(
        f"tile {tile} has {count}; a double-sided tile has 2 (column '{sides}')",
        span,
        f"its faces are on lines {', '.join(map(str, lines))}" if len(lines) > 1 else None,
    )


def with_repeats(diagnostic: Diagnostic, lines: Sequence[int]) -> Diagnostic:
    """A cell error, telling the other rows that repeat it word for word."""
    plural = "s" if len(lines) != 1 else ""
    shown = ", ".join(map(str, lines[:5])) + (", ..." if len(lines) > 5 else "")
    also = f"lso in {len(lines)} more row{plural}, line{plural} {shown}"
    hint = diagnostic.hint
    if hint is None:
        hint = "a" + also
    else:
        hint += f" A{also}" if hint.endswith("?") else f"; a{also}"
    return Diagnostic(diagnostic.severity, diagnostic.message, diagnostic.span, hint)


# --------------------------------------------------------------- rule ids


def malformed_rule_id(span: Span, text: str, meant: str | None) -> Diagnostic:
    return _error(
        f"malformed rule id '{text}'",
        span,
        f"did you mean '{meant}'?"
        if meant
        else "a rule id is a capital letter, a dash and numbers, like S-3.1 or M-4.1a",
    )


def rule_id_twice(span: Span, rule_id: str, first: Span) -> Diagnostic:
    return _error(
        f"rule id {rule_id} is stated twice",
        span,
        f"it is already stated at {first}; a requirement that enforces it elsewhere cites it: "
        f"[see {rule_id}]",
    )


def cited_rule_stated_nowhere(span: Span, rule_id: str) -> Diagnostic:
    return _error(
        f"rule {rule_id} is cited but stated nowhere in this edition",
        span,
        f"`see {rule_id}` names a rule that another place states; to state it here, "
        f"write [{rule_id}]",
    )


def citation_off_a_requirement(span: Span, rule_id: str) -> Diagnostic:
    return _error(
        f"a citation, `see {rule_id}`, may stand on a requirement only",
        span,
        f"a citation names the rule in a requirement's refusal; to state the rule here, "
        f"write [{rule_id}]",
    )


def rule_stated_nowhere(
    span: Span, rule_id: str, hint: str | None, reference: str | None = None
) -> Diagnostic:
    """`reference`: the file, named when an edition has several references."""
    which = f" '{reference}'" if reference else ""
    return _error(
        f"rule {rule_id} of the reference{which} is stated nowhere in this edition", span, hint
    )


def rule_id_not_in_reference(
    span: Span, rule_id: str, wanted: Iterable[str], references: Sequence[str] | None = None
) -> Diagnostic:
    """`references`: the files, named when an edition has several."""
    where = (
        f"in none of this edition's references ({listed(references)})"
        if references
        else "not in the reference for this edition"
    )
    return _error(f"rule id {rule_id} is {where}", span, did_you_mean(rule_id, wanted))


def prefix_claimed_twice(
    span: Span, prefixes: Sequence[str], file: str, first: str, at: Span
) -> Diagnostic:
    which = "prefixes" if len(prefixes) > 1 else "prefix"
    return _error(
        f"the reference '{file}' claims the {which} {listed(prefixes)},"
        f" which the reference '{first}' claims already",
        span,
        f"'{first}' is declared at {at}; each prefix belongs to one reference",
    )


def unreadable_reference(
    span: Span, path: str, reason: str | None = None, hint: str | None = None
) -> Diagnostic:
    because = f": {reason}" if reason else ""
    return _error(f"cannot read the reference '{path}'{because}", span, hint)


def dropped_by_remove(what: Key, parent: str) -> str:
    """Hints: where a rule id of the reference went."""
    return f"it was stated by the {describe_key(what)} of edition '{parent}'"


def dropped_by_override(what: Key, parent: str, rule_id: str) -> str:
    return f"the {describe_key(what)} of edition '{parent}' stated it; tag this one [{rule_id}]"


def reference_declared_at(span: Span) -> str:
    return f"the reference is declared at {span}"


PARENT = "the parent"  # an edition's parent, when it has none to name


# ------------------------------------------------------------ components

# What each declaration an edition must have looks like, for the message
# saying it is missing.
_REQUIRED = {
    s.Players: "player counts ('players 2..4')",
    s.Colours: "payable colours ('colours a, b, c')",
    s.Supply: "supply",
    s.Cards: "cards ('cards from \"file.csv\" { ... }')",
    s.Market: "market ('market by tier {1: 40, ...}, 4 face up each')",
    s.Score: "score ('score = ...')",
    s.Winners: "winners ('winners: highest score, ties share')",
}


def missing_declaration(span: Span, edition: str, kind: type) -> Diagnostic:
    return _error(f"edition '{edition}' declares no {_REQUIRED[kind]}", span)


def no_action(span: Span, edition: str) -> Diagnostic:
    return _error(f"edition '{edition}' declares no action", span)


def turn_ending_never_checked(span: Span, name: str) -> Diagnostic:
    return _warning(
        f"the ending '{name}' is checked at the end of the turn, but no step checks the game"
        " end: it can never end the game",
        span,
        "add a step such as 'step end_check: check game end'",
    )


def no_ending(span: Span, edition: str) -> Diagnostic:
    return _error(
        f"edition '{edition}' declares no way for the game to end",
        span,
        "add 'end NAME: after the round once ...'",
    )


def empty_player_counts(span: Span, low: int, high: int) -> Diagnostic:
    return _error(f"player counts {low}..{high} are empty or below 1", span)


def too_many_players(span: Span, low: int, high: int, limit: int) -> Diagnostic:
    return _error(f"player counts {low}..{high} go above {limit}", span)


def colour_twice(span: Span, colour: str) -> Diagnostic:
    return _error(f"colour '{colour}' is listed twice", span)


def builtin_declared(span: Span, name: str) -> Diagnostic:
    return _error(f"'{name}' is a built-in name and cannot be declared", span)


def name_twice(span: Span, name: str, first: Span | None) -> Diagnostic:
    return _first_here(_error(f"the name '{name}' is declared twice", span), first)


def token_role(span: Span, token: str) -> Diagnostic:
    return _error(f"token '{token}' must be exactly one of 'wild' or 'special'", span)


def limit_below_one(span: Span) -> Diagnostic:
    return _error("a limit per player must be at least 1", span)


def no_supply_for_token(span: Span, token: str) -> Diagnostic:
    return _error(f"the supply has no line for token '{token}'", span)


def no_supply_for_colour(span: Span, colour: str) -> Diagnostic:
    return _error(f"the supply has no line for colour '{colour}'", span)


def supply_twice(span: Span, target: str) -> Diagnostic:
    return _error(f"the supply of '{target}' is given twice", span)


def two_wild_tokens(span: Span) -> Diagnostic:
    return _error("an edition has at most one wild token kind", span)


def no_amount_for(span: Span, count: int, counts: range) -> Diagnostic:
    return _error(
        f"no amount for {count} players",
        span,
        f"the game is for {counts.start}..{counts.stop - 1} players",
    )


def amount_outside_counts(span: Span, count: int, counts: range) -> Diagnostic:
    return _error(
        f"an amount for {count} players, outside the player counts "
        f"{counts.start}..{counts.stop - 1}",
        span,
    )


def column_twice(span: Span, column: str, first: Span | None = None) -> Diagnostic:
    return _first_here(_error(f"column '{column}' is declared twice", span), first)


def card_value_clash(span: Span, name: str) -> Diagnostic:
    return _error(
        f"card value '{name}' has the name of a column of the cards",
        span,
        "a card value is read like a column, as k.NAME: choose another name",
    )


def unknown(span: Span, what: str, name: str, known: Iterable[str]) -> Diagnostic:
    """A name that names no declaration of the kind wanted: `what` is 'zone',
    'token', 'tile set', 'colour', 'name', 'function', 'decision'..."""
    return _error(f"unknown {what} '{name}'", span, did_you_mean(name, known))


def zone_content(span: Span, zone: str, holds: str, wanted: str) -> Diagnostic:
    return _error(f"zone '{zone}' holds {holds}, not {wanted}", span)


# ----------------------------------------------------------------- setup


def market_face_up(span: Span) -> Diagnostic:
    return _error("the market shows at least 1 card per deck", span)


def no_deck_column(span: Span, group: str, columns: Iterable[str]) -> Diagnostic:
    return _error(
        f"the cards have no whole-number column '{group}' to make decks by",
        span,
        did_you_mean(group, columns),
    )


def table_in_two_markets(span: Span, table: str, market: str) -> Diagnostic:
    return _error(f"the cards of card table '{table}' are already market '{market}'s", span)


def table_in_no_market(span: Span, table: str) -> Diagnostic:
    return _error(
        f"the cards of card table '{table}' are in no market",
        span,
        f"add 'market NAME from {table} by COLUMN {{...}}, N face up each'",
    )


def deck_sizes(span: Span, group: str, counts: dict[int, int]) -> Diagnostic:
    found = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
    return _error(f"the decks by {group} hold {{{found}}}, not the sizes given", span)


def face_not_said(span: Span, tiles: str) -> Diagnostic:
    return _error(
        f"tiles '{tiles}' are double-sided: say which face shows",
        span,
        "add ', one random face each'",
    )


def one_face(span: Span, tiles: str) -> Diagnostic:
    return _error(f"tiles '{tiles}' have one face", span)


def unknown_decision(span: Span, name: str, decisions: Sequence[str]) -> Diagnostic:
    return _error(
        f"unknown decision '{name}'",
        span,
        did_you_mean(name, decisions) or f"the decisions are {', '.join(decisions)}",
    )


# --------------------------------------------------------------- actions


def second_fallback(span: Span) -> Diagnostic:
    return _error("only one action can be legal only when no other is", span)


def no_main_action(span: Span) -> Diagnostic:
    return _error(
        "every action is taken before the main action: a turn would never end",
        span,
        "declare at least one action without 'before the main action'",
    )


def move_before_main(span: Span) -> Diagnostic:
    return _error(
        "an action before the main action cannot move a card",
        span,
        "a card entering a zone runs its triggers; move it in a main action",
    )


def follow_up_before_main(span: Span) -> Diagnostic:
    return _error(
        "an action before the main action cannot make a follow-up choice",
        span,
        "choose at the top of the action, before its effects",
    )


def choice_after_effect(span: Span, effect: Span) -> Diagnostic:
    return _error(
        "choices and requirements come before the effects",
        span,
        f"move it above line {effect.line}",
    )


def declined_in_move(span: Span) -> Diagnostic:
    return _error(
        "only a follow-up choice may be declined",
        span,
        "a choice at the top of an action is part of its move; write `may choose` inside"
        " an `if` among the effects, or in a trigger",
    )


def second_payment(span: Span) -> Diagnostic:
    return _error("an action pays at most once", span)


def payment_after_effect(span: Span, effect: Span) -> Diagnostic:
    return _error(
        "the payment comes before the other effects", span, f"move it above line {effect.line}"
    )


def follow_up_name_taken(span: Span, name: str, first: Span) -> Diagnostic:
    """Two follow-up choices that would be answered by moves of one name."""
    diagnostic = _error(
        f"a follow-up choice is answered by a move named '{name}', and another one already is",
        span,
        "choose another name",
    )
    return attrs.evolve(diagnostic, notes=(Note(f"the other choice answered by '{name}'", first),))


def trigger_move_cycle(span: Span, zones: Sequence[str]) -> Diagnostic:
    """A move in a trigger that can run the triggers again without end."""
    cycle = " -> ".join(f"'{z}'" for z in zones)
    return _error(
        "this move can run triggers without end",
        span,
        f"a card that may already be in a zone goes round {cycle}; move only cards "
        "chosen from the market or deck tops here, or break the cycle",
    )


def claim_into_its_source(span: Span, zone: str) -> Diagnostic:
    return _error(f"a tile claimed from zone '{zone}' cannot be claimed into it", span)


def return_in_trigger(span: Span) -> Diagnostic:
    return _error(
        "a trigger cannot return a card to the box",
        span,
        "cards are returned to the box in an action",
    )


def not_cards_to_return(span: Span, name: str, actual: m.Type) -> Diagnostic:
    return _error(
        f"'{name}' is a {actual}, not a card or a set of cards the action chose",
        span,
        "choose them first: `choose x: 2 distinct from ZONE`, then `return x to the box`",
    )


def not_held(span: Span, what: str) -> Diagnostic:
    """Cards returned to the box, or spent in a payment, that may not be the player's."""
    return _error(
        f"only the player's own cards can be {what}",
        span,
        "choose them from the player's zones: a zone, or `x in ZONE where ...`",
    )


def already_boxed(span: Span, name: str, returned: Span) -> Diagnostic:
    return _error(
        f"'{name}' was returned to the box at line {returned.line}: it is out of the game",
        span,
    )


def wild_cards_not_cards(span: Span, actual: m.Type) -> Diagnostic:
    return _error(f"a payment spends cards, not a {actual}", span)


def wild_units_below_one(span: Span, units: int) -> Diagnostic:
    return _error(f"a card spent in a payment is worth at least 1 unit, not {units}", span)


def top_level_only(span: Span, statement: s.Require | s.Pay) -> Diagnostic:
    """A requirement or payment inside a trigger or an 'if'."""
    what = "a requirement" if isinstance(statement, s.Require) else "a payment"
    return _error(
        f"{what} cannot be made here",
        span,
        f"{what} belongs at the top level of an action, not in a trigger or 'if'",
    )


def not_a_token_kind(span: Span, name: str, actual: m.Type) -> Diagnostic:
    return _error(f"'{name}' is a {actual}, not a token kind", span)


def gain_each_needs_tokens(span: Span, actual: m.Type) -> Diagnostic:
    return _error(f"gain each needs a set of token kinds, not a {actual}", span)


def not_a_card(span: Span, name: str, actual: m.Type) -> Diagnostic:
    return _error(f"'{name}' is a {actual}, not a card", span)


def set_needs_card(span: Span, name: str, actual: m.Type) -> Diagnostic:
    return _error(
        f"'{name}' is a {actual}, not a card", span, "'set' changes a card value of a card"
    )


def unknown_card_value(span: Span, name: str, known: Iterable[str]) -> Diagnostic:
    names = list(known)
    hint = did_you_mean(name, names) or (
        f"the card values are {', '.join(names)}"
        if names
        else "declare it first: card value NAME: colour, int or bool"
    )
    return _error(f"unknown card value '{name}'", span, hint)


def set_column(span: Span, name: str) -> Diagnostic:
    return _error(
        f"'{name}' is a column of the cards, fixed by the data",
        span,
        "only a card value ('card value NAME: TYPE') can be set",
    )


def mixed_choice(span: Span, first: m.Type, other: m.Type) -> Diagnostic:
    return _error(f"cannot choose among both {first} and {other}", span)


def placeholder(part: s.BrokenPlaceholder) -> Diagnostic:
    """A `{...}` part of a message that the parser could not read."""
    return _error(part.problem, part.span, part.hint)


# ---------------------------------------------------------------- scopes


def bound_twice(span: Span, name: str, first: Span) -> Diagnostic:
    diagnostic = _error(f"'{name}' is already bound here", span, "choose another name")
    return attrs.evolve(diagnostic, notes=(Note("first bound here", first),))


def builtin_bound(span: Span, name: str) -> Diagnostic:
    return _error(f"'{name}' is a built-in name", span)


def reserved_local(span: Span, name: str) -> Diagnostic:
    # The JSON form of a move names its choices beside these keys.
    return _error(f"'{name}' is reserved in the JSON form of moves", span, "choose another name")


# ------------------------------------------------ turns and the game's end


def majority_needs(span: Span, majority: str, line: str) -> Diagnostic:
    return _error(f"majority tile '{majority}' needs '{line}'", span)


# The lines of a majority declaration, as the message naming a missing one says them.
MAJORITY_LINES = {
    "points": "points",
    "measure": "measure",
    "threshold": "threshold",
    "event_zone": "contested after a card enters",
    "zone": "kept in",
}


def step_named_like_action(span: Span, step: str) -> Diagnostic:
    return _error(
        f"step '{step}' has the name of an action",
        span,
        "a step's decision is a move named after the step",
    )


def token_limit_below_one(span: Span) -> Diagnostic:
    return _error("a token limit must be at least 1", span)


def no_such_place(span: Span, position: int, most: int | None) -> Diagnostic:
    games = f"a game of this edition has at most {most} players" if most else "places start at 1"
    return _error(
        f"there is no player {position} in the turn order",
        span,
        f"{games}: player 1 is the first player, player 2 the next, and so on",
    )


def gift_of_nothing(span: Span) -> Diagnostic:
    return _error("a player gains at least 1 token at setup", span)


def kind_counted_twice(span: Span, kind: str) -> Diagnostic:
    return _error(f"token kind '{kind}' is named twice in this token limit", span)


def limit_counts_nothing(span: Span) -> Diagnostic:
    return _error(
        "this token limit counts no kind of token",
        span,
        "`not counting` names the kinds left out: leave at least one kind counted",
    )


def definition_too_deep(span: Span, name: str, limit: int) -> Diagnostic:
    return _error(
        f"definition '{name}' nests over {limit} levels, read with the definitions"
        " it uses written out in place",
        span,
        "a chain of definitions, each using the next, is at most"
        f" {limit} levels deep; shorten the chain",
    )


def definition_cycle(span: Span, name: str, cycle: Sequence[str]) -> Diagnostic:
    return _error(f"definition '{name}' depends on itself ({' -> '.join(cycle)})", span)


def rank_key_type(span: Span, actual: m.Type) -> Diagnostic:
    return _error(f"players are ranked by numbers or conditions, not a {actual}", span)


# --------------------------------------------------------- unused names


def never_used(span: Span, name: str) -> Diagnostic:
    """A local name: bound by let, choose, a filter, a quantifier..."""
    return _warning(f"'{name}' is never used", span)


def definition_never_used(span: Span, name: str) -> Diagnostic:
    return _warning(f"definition '{name}' is never used", span)


def zone_never_used(span: Span, name: str) -> Diagnostic:
    return _warning(f"zone '{name}' is never used", span)


def tiles_never_revealed(span: Span, tiles: str) -> Diagnostic:
    return _warning(f"tiles '{tiles}' are never revealed", span)


# ----------------------------------------------------------- expressions


def expected_type(span: Span, expected: m.Type, actual: m.Type) -> Diagnostic:
    return _error(f"expected a {expected}, found a {actual}", span)


def expected_collection(span: Span, actual: m.Type, sets_only: bool) -> Diagnostic:
    what = "a set" if sets_only else "a set or list"
    if actual.kind == "player":  # `choose p from next player`
        hint = "a move chooses from a set of players: other players, x in other players where ..."
        return _error(f"expected {what}, found a {actual}", span, hint)
    return _error(f"expected {what}, found a {actual}", span)


def not_a_value(span: Span, name: str, kind: str, function: str) -> Diagnostic:
    """A majority or an action used as a value, not through holds() or did()."""
    return _error(f"'{name}' is a {kind}, not a value", span, f"write {function}({name})")


def no_player(span: Span, what: str) -> Diagnostic:
    return _error(
        f"'{what}' belongs to a player, and no player is meant here",
        span,
        "read it for each player with any(player: ...) or all(player: ...)",
    )


def no_attributes(span: Span, actual: m.Type) -> Diagnostic:
    return _error(f"a {actual} has no attributes", span)


def no_attribute(span: Span, item: m.Type, attribute: str, known: Iterable[str]) -> Diagnostic:
    return _error(f"a {item} has no attribute '{attribute}'", span, did_you_mean(attribute, known))


def not_comparable(span: Span, actual: m.Type, op: str) -> Diagnostic:
    return _error(f"a {actual} cannot be compared with '{op}'", span)


def cannot_compare(span: Span, left: m.Type, right: m.Type) -> Diagnostic:
    return _error(f"cannot compare a {left} with a {right}", span)


def branch_types(span: Span, then: m.Type, otherwise: m.Type) -> Diagnostic:
    return _error(f"both branches must have one type: {then} and {otherwise}", span)


def quantified_outside_call(span: Span, written: s.OverPlayers | s.OverSet) -> Diagnostic:
    if isinstance(written, s.OverPlayers):
        return _error("'player: ...' can only be an argument of any or all", span)
    what = "'x in ... where ...: ...'" if written.condition else "'x in ...: ...'"
    return _error(
        f"{what} can only be an argument of any, all or sum",
        span,
        "sum(x in set where condition: number) adds the number up over the elements that"
        " pass; count(x in set where condition) counts them",
    )


def definition_arity(span: Span, name: str, wanted: int, given: int) -> Diagnostic:
    if wanted == 0:
        return _error(f"definition '{name}' takes no arguments", span, f"write '{name}' alone")
    return _error(
        f"definition '{name}' takes {wanted} argument{'s' if wanted != 1 else ''}, not {given}",
        span,
    )


def parameter_shadows(span: Span, name: str, kind: str) -> Diagnostic:
    what = _KIND_WORDS.get(kind, "a " + kind)  # (the table is below, with holds and did)
    return _error(
        f"parameter '{name}' names {what} of the edition already",
        span,
        "a parameter may not hide another name; choose another",
    )


def parameter_twice(span: Span, name: str) -> Diagnostic:
    return _error(f"parameter '{name}' is declared twice", span)


def arity(span: Span, function: str, given: int, at_least_two: bool) -> Diagnostic:
    wanted = "2 or more arguments" if at_least_two else "1 argument"
    return _error(f"{function} takes {wanted}; {given} given", span)


def needs_token_kind(span: Span, function: str, actual: m.Type) -> Diagnostic:
    return _error(f"{function} needs a token kind, not a {actual}", span)


def sum_needs_numbers(span: Span, actual: m.Type) -> Diagnostic:
    return _error(
        f"sum needs numbers, not a {actual}",
        span,
        "sum the values of an attribute, like sum(bought.points), or a number per element,"
        " like sum(k in bought where k.tier == 2: k.points)",
    )


def total_needs_number(span: Span, expected: m.Type, actual: m.Type) -> Diagnostic:
    """The body of `sum(x in set: body)` is no number."""
    hint = None
    if actual == m.BOOL:
        hint = "to count the elements for which it holds, write count(x in set where condition)"
    return _error(f"sum adds up a {expected} per element, not a {actual}", span, hint)


def quantifier_argument(span: Span, function: str) -> Diagnostic:
    return _error(f"{function} needs 'x in set: condition' or 'player: condition'", span)


def needs_name_of(span: Span, function: str, wanted: str) -> Diagnostic:
    return _error(f"{function} needs the name of a {wanted}", span)


# How the messages of holds() and did() name what a name names instead.
_KIND_WORDS = {
    "colour": "a colour",
    "token": "a token",
    "zone": "a zone",
    "tiles": "a set of tiles",
    "action": "an action",
    "define": "a definition",
    "majority": "a majority tile",
    "colours": "the set of colours",
    "players": "the number of players",
    "market": "the market",
    "score": "a player's score",
}


def wrong_named_argument(
    span: Span,
    function: str,
    wanted: str,
    name: str,
    written: str,
    kind: str,
    known: Collection[str],
) -> Diagnostic:
    """holds() or did() given a name that is no majority tile or action:
    `kind` is what it names instead ('' for nothing at all)."""
    what = "majority tile" if wanted == "majority" else wanted
    hint = did_you_mean(name, known) or (
        f"the {what}s are: {', '.join(known)}" if known else f"this edition declares no {what}"
    )
    if kind:
        return _error(
            f"{function} needs the name of a {what}; '{name}' is "
            f"{_KIND_WORDS.get(kind, 'a ' + kind)}",
            span,
            hint,
        )
    return _error(f"unknown {what} '{written}'", span, hint)


# ------------------------------------------------------------------ limits
# The bounds of compiler/frontend/limits.py: each message names what passes
# which bound, and the hint says why the bound is there.


def number_beyond(span: Span, value: int, limit: Limit) -> Diagnostic:
    return _error(
        f"{value} is beyond the whole numbers an engine holds ({limit.low}..{limit.high})",
        span,
        limit.why,
    )


def count_beyond(span: Span, what: str, value: int, limit: Limit) -> Diagnostic:
    return _error(
        f"{value} {what} is more than {limit.high}, the largest count a state holds",
        span,
        limit.why,
    )


def too_many(span: Span, what: str, count: int, limit: Limit) -> Diagnostic:
    return _error(
        f"{count} {what}, more than the {limit.high} an edition may have", span, limit.why
    )


def state_too_large(span: Span, players: int, size: int, limit: Limit) -> Diagnostic:
    return _error(
        f"a state of a {players}-player game would take at least {size} bytes, more than "
        f"the {limit.high} a state may take",
        span,
        limit.why,
    )


def value_beyond(span: Span, bound: tuple[int, int], limit: Limit) -> Diagnostic:
    return _error(
        f"this value may be anywhere from {bound[0]} to {bound[1]}, beyond the whole numbers "
        f"an engine holds ({limit.low}..{limit.high})",
        span,
        "bounded by its parts: literals, data cells, counts of a state, the most cards or tiles",
    )


def divisor_not_positive(span: Span, bound: tuple[int, int]) -> Diagnostic:
    return _error(
        f"the divisor may be 0 or less: it is from {bound[0]} to {bound[1]}",
        span,
        "a divisor must be at least 1, bounded by its parts: write a positive number, "
        "or max(1, ...)",
    )


# ---------------------------------------------------------------- players


def player_without_player(span: Span, words: str) -> Diagnostic:
    return _error(
        f"'{words}' is named from the player in context, and no player is meant here",
        span,
        "read it for each player with any(player: ...) or all(player: ...)",
    )


def opponent_needs_two(span: Span, low: int, high: int) -> Diagnostic:
    counts = f"{low} players" if low == high else f"{low} to {high} players"
    return _error(
        f"'opponent' is the other player of a two-player game; this edition has {counts}",
        span,
        "name a player by turn order: 'next player', 'previous player', or 'other players'",
    )


def hidden_of_other(span: Span, zone: str, via: str | None) -> Diagnostic:
    through = f" (through '{via}')" if via else ""
    return _error(
        f"this reads the cards of zone '{zone}' of another player{through}, which may be "
        "hidden from the player in context",
        span,
        f"another player's hidden cards can be counted only: count({zone}) of PLAYER",
    )


def transfer_supply_to_supply(span: Span) -> Diagnostic:
    return _error("tokens given from the supply to the supply move nowhere", span)


def transfer_to_itself(span: Span) -> Diagnostic:
    return _error(
        "tokens taken from a player and given to the same player move nowhere",
        span,
        "'take' gives to you, 'give' takes from you unless it says 'from'",
    )


def cards_of_other_named(span: Span, what: str) -> Diagnostic:
    return _error(
        f"{what} of another player can be read, not chosen or named here",
        span,
        "moves and returns take the player's own cards and tiles; read another's with 'of'",
    )


# ----------------------------------------------------------------- board


def bag_without_board(span: Span) -> Diagnostic:
    return _error(
        "a bag needs a board to fill",
        span,
        "declare the board: `board 5 by 5, filled in order (0, 0), (0, 1), ...`",
    )


def board_without_bag(span: Span) -> Diagnostic:
    return _error(
        "a board is filled from a bag, and this edition declares none",
        span,
        "declare what the bag holds at setup: `bag { each colour: 4 }`",
    )


def board_name_taken(span: Span, name: str, first: Span | None) -> Diagnostic:
    """`board` or `bag`, the board's names, declared by the edition too."""
    return _first_here(
        _error(
            f"an edition with a board reads '{name}' as its own; the name is declared already",
            span,
            f"rename the other declaration of '{name}'",
        ),
        first,
    )


def board_side(span: Span, side: int, most: int) -> Diagnostic:
    return _error(f"a board has 1 to {most} rows and 1 to {most} columns, not {side}", span)


def cell_off_board(span: Span, row: int, column: int, board: s.Board) -> Diagnostic:
    return _error(
        f"cell ({row}, {column}) is not on the board",
        span,
        f"rows are 0 to {board.rows - 1} and columns 0 to {board.columns - 1}",
    )


def cell_twice(span: Span, row: int, column: int, first: Span) -> Diagnostic:
    return _first_here(
        _error(f"cell ({row}, {column}) is listed twice in the fill order", span), first
    )


def cell_not_filled(span: Span, row: int, column: int, missing: int) -> Diagnostic:
    others = f" and {missing - 1} other {_plural(missing - 1, 'cell')}" if missing > 1 else ""
    return _error(
        f"the fill order does not list cell ({row}, {column}){others}",
        span,
        "the fill order lists every cell of the board once",
    )


def bag_twice(span: Span, target: str) -> Diagnostic:
    return _error(f"the bag's amount of '{target}' is given twice", span)


def no_bag(span: Span, what: str) -> Diagnostic:
    """A statement or step that uses the bag, in an edition without a board."""
    return _error(
        f"{what} needs a bag, and this edition has no board",
        span,
        "declare a board and its bag, or leave the tokens to the supply",
    )


def line_needs_cells(span: Span, actual: m.Type) -> Diagnostic:
    return _error(
        f"a line is chosen from a set of cells, not a {actual}",
        span,
        "choose from the board: `x in board where x.token != ...`",
    )


def line_lengths(span: Span, low: int, high: int) -> Diagnostic:
    return _error(
        f"a line of {low} to {high} cells is no line",
        span,
        "a line has at least 1 cell, and the most is at least the least: `1 to 3`",
    )


def line_choice_here(span: Span) -> Diagnostic:
    return _error(
        "a choice of cells in a line cannot be made here",
        span,
        "it belongs at the top level of an action, not in a trigger or 'if'",
    )


def not_cells(span: Span, name: str, actual: m.Type) -> Diagnostic:
    return _error(
        f"'{name}' is a {actual}, not a cell or a set of cells the action chose",
        span,
        "choose them first: `choose x: 1 to 3 in a line from board`, then `take the tokens of x`",
    )


def not_printed(span: Span, target: str, construct: str) -> Diagnostic:
    """A construct the reference interpreter runs and a target does not print yet."""
    return _error(
        f"the {target} target does not print {construct} yet",
        span,
        "the reference interpreter plays it: --engine interpreted",
    )


# ------------------------------------------------ tiles claimed once per player


def shared_claim_from(span: Span, tiles: str) -> Diagnostic:
    """A claim of a shared tile set from a zone: its claims stay where made."""
    return _error(
        f"the tiles of '{tiles}' are claimed once per player, from play only",
        span,
        f"claim them from play, `claim one {tiles} t into ZONE where …`: a claimed"
        " tile stays in the zone it was claimed into",
    )


def shared_tile_moved(span: Span, name: str, tiles: str) -> Diagnostic:
    """A move of a tile that may be a tile claimed once per player."""
    return _error(
        f"'{name}' may be a tile of '{tiles}', which is claimed once per player"
        " and cannot be moved",
        span,
        f"a tile of '{tiles}' is taken by a claim step and stays in the zone it is"
        " claimed into; move tiles of another set, or chosen from another zone",
    )


# ------------------------------------------- a token's worth in payments


def worth_not_wild(span: Span, name: str) -> Diagnostic:
    return _error(
        f"token '{name}' is not wild: only a wild token can count as more in payments",
        span,
        f"declare it `token {name}: wild, counts as 2 in payments where …`",
    )


def worth_below_two(span: Span, amount: int) -> Diagnostic:
    return _error(
        f"a token counts as at least 2 in payments here, not {amount}",
        span,
        "a token counts as 1 without this property: drop it, or say 2 or more",
    )


def worth_twice(span: Span, name: str) -> Diagnostic:
    return _error(
        f"token '{name}' says twice what it counts as in payments",
        span,
        "join the conditions with `or` in one `counts as N in payments where …`",
    )


def worth_with_cards(span: Span, name: str, amount: int) -> Diagnostic:
    return _error(
        f"a payment that spends cards cannot take '{name}', which counts as {amount}"
        " in payments",
        span,
        "pay without `using …`, or let the token count as 1",
    )


# ------------------------------------------------ values typed by a tile set

TYPE_WORDS = ("card", "tile", "colour", "int", "bool", "player")


def _tile_shown(tile: m.Type) -> str:
    return "tile of any set" if tile.tiles is None else str(tile)


def unknown_parameter_type(span: Span, name: str, tile_sets: Sequence[str]) -> Diagnostic:
    """A parameter typed by a name that is neither a type word nor a tile set."""
    sets = f" or a tile set ({listed(tile_sets)})" if tile_sets else " or a tile set"
    hint = did_you_mean(name, [*TYPE_WORDS, *tile_sets]) or (
        f"a parameter's type is {', '.join(TYPE_WORDS)}{sets}"
    )
    return _error(f"unknown type '{name}' of a parameter", span, hint)


def unknown_zone_set(span: Span, name: str, tile_sets: Sequence[str]) -> Diagnostic:
    hint = did_you_mean(name, tile_sets) or (
        f"a zone is typed by a tile set: {listed(tile_sets)}"
        if tile_sets
        else "a zone is typed by a tile set, and this edition declares none"
    )
    return _error(f"unknown tile set '{name}' typing a zone", span, hint)


def column_of_some_sets(
    span: Span, item: m.Type, attribute: str, sets: Sequence[str]
) -> Diagnostic:
    """A column of some tile sets only, read from a tile of any set or of another set."""
    which = f"of {listed(sets)} only" if len(sets) > 1 else f"of the tile set {sets[0]} only"
    example = sets[0]
    return _error(
        f"a {_tile_shown(item)} has no attribute '{attribute}': it is a column {which}",
        span,
        f"type the tile by its set: a parameter `t: {example}`, a zone "
        f"`zone NAME: {example} tiles of each player`",
    )


def tile_column_types(
    span: Span, column: str, tiles: str, type_: m.Type, first: str, first_type: m.Type
) -> Diagnostic:
    return _error(
        f"column '{column}' of tile set '{tiles}' is a {type_}, and of '{first}' a {first_type}",
        span,
        "a column several tile sets declare has one type in all of them: rename one",
    )


def card_table_type(span: Span, name: str) -> Diagnostic:
    return _error(
        f"'{name}' is a card table: only a tile set types a value",
        span,
        "a card has every card table's columns: write 'card'",
    )


def typed_zone_of_cards(span: Span, zone: str, tiles: str) -> Diagnostic:
    return _error(
        f"zone '{zone}' is typed by the tile set '{tiles}', so it holds tiles, not cards",
        span,
        f"write `zone {zone}: {tiles} tiles of each player`",
    )


def tile_of_another_set(span: Span, name: str, actual: m.Type, zone: str, tiles: str) -> Diagnostic:
    """A tile moved into a zone typed by a set it may not be of."""
    where = f"choose it from {tiles}, or from a zone of {tiles} tiles"
    return _error(
        f"'{name}' is a {_tile_shown(actual)}, and zone '{zone}' holds tiles of {tiles} only",
        span,
        where if actual.tiles is None else f"move a tile of {tiles} there: {where}",
    )


def claim_of_another_set(span: Span, zone: str, tiles: str, claimed: str) -> Diagnostic:
    return _error(
        f"zone '{zone}' holds tiles of {tiles} only, and this step claims tiles of {claimed}",
        span,
        f"claim from and into zones of {claimed} tiles, or of any tiles",
    )


def majority_in_typed_zone(span: Span, zone: str, tiles: str) -> Diagnostic:
    return _error(
        f"a majority tile is of no tile set, and zone '{zone}' holds tiles of {tiles} only",
        span,
        "keep it in a zone of any tiles: `zone NAME: tiles of each player`",
    )


def argument_of_another_set(
    span: Span, define: str, parameter: str, tiles: str, actual: m.Type
) -> Diagnostic:
    """An argument of a definition's parameter typed by a tile set, of another."""
    return _error(
        f"'{parameter}' of '{define}' takes a tile of {tiles}, and this is a {_tile_shown(actual)}",
        span,
        f"choose it from {tiles}, or from a zone typed `{tiles} tiles`",
    )
