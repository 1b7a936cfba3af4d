"""Hostile states and seats: what an engine refuses at its door, on every
engine of every edition (issue 9, section 4).

`from_json` is where a state enters an engine from outside. A state that
breaks the game's invariants (a negative count, a bool or a string where a
number or a flag belongs, a card or a tile in two places, card -1, ten
players, a seat or a step out of range, an unknown key, kind, card or tile,
a seat over a kind's cap; and, with `complete=True`, tokens or cards that are
nowhere) is refused with a ValueError naming what is wrong, and the
generated engine, the interpreter and the native engine (where it is built)
refuse the same states in the same words (docs/engine.md, "JSON form of a
state").

The corpus, tests/hostile/states/*.json, holds one broken state per file,
as edits of a valid state of the edition (`base_state`, which has a card in
each kind of zone, a hidden card, a tile won, tokens held and an action
done), with the fragment of the refusal it must get; see its README.md.
A Hypothesis test breaks one thing at random in a valid state's JSON: all
engines refuse it, or all accept it and then behave identically.

States are immutable in fact: no attribute of a state can be set, nothing
mutable is reachable from one, and what the API returns (lists, dicts) is
the caller's to change. A seat is an int from 0 to players - 1 (a bool is
not one): `view` and `new_game` refuse any other.
"""

from __future__ import annotations

import copy
import inspect
import json
import pickle
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import attrs
import pytest
from edition_facts import EDITIONS, ENGINES, engine_or_skip
from hypothesis import HealthCheck, assume, event, given, note, settings
from hypothesis import strategies as st

from splendor_rules.compiler.frontend import identities
from splendor_rules.compiler.frontend import model as m
from splendor_rules.compiler.runtime.api import Engine
from splendor_rules.compiler.runtime.interpreter import load_interpreted
from splendor_rules.compiler.runtime.loading import EngineKind, EngineUnavailable, load_engine

Json = dict[str, Any]
CORPUS = Path(__file__).resolve().parent / "states"
CASES = sorted(path.stem for path in CORPUS.glob("*.json"))


def engine_of(edition: str, kind: EngineKind) -> Engine:
    return load_engine(edition, kind)


def native_of(edition: str) -> Engine | None:
    """The native engine of the edition; None where it is not built."""
    try:
        return load_engine(edition, "native")
    except EngineUnavailable:
        return None


@cache
def model_of(edition: str) -> m.Edition:
    """The checked model: the facts the corpus names (caps, zones, steps)."""
    return load_interpreted(edition).model


# ------------------------------------------------------------ a valid state


def _cards_zone(model: m.Edition, hides: bool) -> str:
    return next(z.name for z in model.zones if z.content == "cards" and z.hidden_from_deck == hides)


def _build_base(edition: str) -> tuple[Json, dict[str, Any]]:
    """A valid, complete 2-player state with something everywhere, and the
    facts the corpus's placeholders name."""
    model = model_of(edition)
    engine = engine_of(edition, "generated")
    data = engine.to_json(engine.new_game(2, 5))
    tiers = list(data["decks"])  # the decks in the engine's order, the main market's first
    tier = tiers[0]
    bought, reserved = _cards_zone(model, False), _cards_zone(model, True)
    tile_zone = next((z.name for z in model.zones if z.content == "tiles"), None)
    # seat 0 bought a market card (the slot refilled from the deck) ...
    row, deck = data["market"][tier], data["decks"][tier]
    card_bought = row[0]
    row[0] = deck.pop()
    data["seats"][0]["zones"][bought].append(card_bought)
    # ... seat 1 reserved the top of a deck, unseen by the others ...
    card_hidden = deck.pop()
    data["seats"][1]["zones"][reserved].append(card_hidden)
    data["hidden"] = [card_hidden]
    # ... seat 0 won a tile (in an edition with tiles); both hold tokens
    # taken from the supply.
    tile_set = model.tile_sets[0].name if model.tile_sets and tile_zone else None
    tile_won = tile_in_play = other_face = None
    if tile_set is not None and tile_zone is not None:
        tile_won = data["tiles"][tile_set].pop(0)
        data["seats"][0]["zones"][tile_zone].append(tile_won)
    colour, colour2 = engine.COLOURS[0], engine.COLOURS[1]
    for seat, kind, n in ((0, colour, 2), (1, colour2, 1)):
        if data["supply"][kind] >= n:
            data["supply"][kind] -= n
        else:  # the tokens are on a board of cells: taken from its cells
            cells = [i for i, held in enumerate(data["board"]) if held == kind][:n]
            assert len(cells) == n, (edition, kind)
            for i in cells:
                data["board"][i] = None
        data["seats"][seat]["tokens"][kind] = n
    data["seats"][0]["did"] = [model.actions[0].name]
    data["current_player"], data["turn"] = 1, 1

    numbering = identities.tile_numbering(model)
    if tile_set is not None:
        tile_in_play = data["tiles"][tile_set][0]
        faces = next(f for f in numbering.set_tiles[tile_set] if tile_in_play in f)
        other_face = next((f for f in faces if f != tile_in_play), None)
    capped = next((t for t in model.tokens if t.cap is not None), None)
    decisions = [s.name for s in model.steps if identities.decision_kind(s) is not None]
    plain = [s.name for s in model.steps if identities.decision_kind(s) is None]
    total: Any = model.tokens[0].supply[2]
    if model.board is not None:  # the tokens start on the board: no supply-total case
        total = None
    facts: dict[str, Any] = {
        "edition": edition,
        "players_max": engine.PLAYERS.stop - 1,
        "three_players": 3 if 3 in engine.PLAYERS else None,
        "colour": colour,
        "colour2": colour2,
        "supply_total": total,
        "supply_total_plus": None if total is None else total + 1,
        "supply_total_minus": None if total is None else total - 1,
        "supply_plus": data["supply"][colour] + 1,
        "supply_minus": data["supply"][colour] - 1 if data["supply"][colour] else None,
        "capped": capped.name if capped else None,
        "cap": capped.cap if capped else None,
        "cap_over": capped.cap + 1 if capped and capped.cap is not None else None,
        "tier": tier,
        "tier2": tiers[1] if len(tiers) > 1 else None,
        "card_tier2": data["decks"][tiers[1]][0] if len(tiers) > 1 else None,
        "card_market": data["market"][tier][2],
        "card_deck": data["decks"][tier][0],
        "card_bought": card_bought,
        "card_hidden": card_hidden,
        "card_zone": bought,
        "hiding_zone": reserved,
        "card_count": len(model.cards.rows),
        # a card in no place is an error, unless cards can go to the box
        "no_box": None if identities.boxes_cards(model) else True,
        "box": True if identities.boxes_cards(model) else None,
        "last_card": len(model.cards.rows) - 1,
        "slots": model.market.face_up,
        "slots_plus": model.market.face_up + 1,
        "tile_set": tile_set,
        "tile_zone": tile_zone,
        "tile_in_play": tile_in_play,
        "tile_won": tile_won,
        "other_face": other_face,
        "majority_tile": next(iter(numbering.majority_tile.values()), None),
        "last_tile": numbering.count - 1 if numbering.count else None,
        "action": model.actions[0].name,
        "decision": decisions[0],
        "decisions": ", ".join(decisions),
        "plain_step": plain[0] if plain else None,
    }
    return data, facts


@cache
def _base(edition: str) -> tuple[str, dict[str, Any]]:
    data, facts = _build_base(edition)
    return json.dumps(data), facts


def base_state(edition: str) -> Json:
    """A fresh copy of the edition's valid state (the caller may change it)."""
    data: Json = json.loads(_base(edition)[0])
    return data


def facts_of(edition: str) -> dict[str, Any]:
    return _base(edition)[1]


# ------------------------------------------------------------- the corpus


def _resolve(item: Any, facts: dict[str, Any]) -> Any:
    """A placeholder "{name}" is the fact of that name, with its type."""
    if isinstance(item, str) and item.startswith("{") and item.endswith("}"):
        value = facts[item[1:-1]]
        return str(value) if item[1:-1] in ("tier", "tier2") else value
    return item


def edited(edition: str, edits: list[list[Any]]) -> Any:
    """The edition's valid state with the case's edits made."""
    facts = facts_of(edition)
    root: Any = {"state": base_state(edition)}
    for op, path, *args in edits:
        keys = ["state", *(_resolve(k, facts) for k in path)]
        parent = root
        for key in keys[:-1]:
            parent = parent[key]
        last = keys[-1]
        if op == "set":
            parent[last] = _resolve(args[0], facts)
        elif op == "append":
            parent[last].append(_resolve(args[0], facts))
        elif op == "delete":
            del parent[last]
        else:
            raise AssertionError(f"unknown edit {op!r}")
    return root["state"]


def load_case(name: str) -> Json:
    case: Json = json.loads((CORPUS / f"{name}.json").read_text(encoding="utf-8"))
    return case


def missing(case: Json, edition: str) -> list[str]:
    """The facts the case needs, or names in its edits and message, that the
    edition lacks (an edition without tiles, say, has no tile to misplace)."""
    named = re.findall(r"\{(\w+)\}", json.dumps([case.get("edit"), case.get("refused")]))
    facts = facts_of(edition)
    return [need for need in [*case.get("needs", ()), *named] if facts[need] is None]


def applies(case: Json, edition: str) -> bool:
    return not missing(case, edition)


def outcome(engine: Engine, data: Any, complete: bool = False) -> tuple[Any, str | None]:
    """The state, or the message of the ValueError refusing it."""
    try:
        return engine.from_json(copy.deepcopy(data), complete=complete), None
    except ValueError as error:
        return None, str(error)


@pytest.fixture(params=ENGINES, ids="-".join)
def engine(request: pytest.FixtureRequest) -> Engine:
    return engine_or_skip(*request.param)


def test_the_corpus_is_well_formed():
    """Each case has an `about`, its edits and one verdict; every fact a case
    names exists (None: the edition lacks it, and `needs` says so)."""
    assert len(CASES) >= 50
    for name in CASES:
        case = load_case(name)
        assert set(case) <= {"about", "needs", "complete", "edit", "refused", "accepted"}, name
        assert case["about"] and case["edit"], name
        assert ("refused" in case) != ("accepted" in case), name


def test_the_base_state_is_valid_and_complete(engine: Engine):
    """The state the corpus breaks is accepted whole, and reads back the same."""
    data = base_state(str(engine.EDITION))
    state = engine.from_json(copy.deepcopy(data), complete=True)
    assert engine.to_json(state) == data
    assert engine.from_json(engine.to_json(state)) == state


@pytest.mark.parametrize("name", CASES)
def test_a_broken_state_is_refused_naming_what_is_broken(engine: Engine, name: str):
    """tests/hostile/states/<name>.json: refused with a ValueError whose message
    has the case's fragment (or accepted, for a case that says so)."""
    edition = str(engine.EDITION)
    case = load_case(name)
    if not applies(case, edition):
        pytest.skip(f"{edition} has no {', '.join(missing(case, edition))}")
    data = edited(edition, case["edit"])
    state, message = outcome(engine, data, case.get("complete", False))
    if "accepted" in case:
        assert message is None, message
        assert engine.to_json(state) == data
        return
    assert message is not None, f"{name}: accepted"
    assert case["refused"].format(**facts_of(edition)) in message


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("name", CASES)
def test_every_engine_refuses_in_the_same_words(edition: str, name: str):
    case = load_case(name)
    if not applies(case, edition):
        pytest.skip(f"{edition} has no {', '.join(missing(case, edition))}")
    data = edited(edition, case["edit"])
    complete = case.get("complete", False)
    _, generated = outcome(engine_of(edition, "generated"), data, complete)
    _, interpreted = outcome(engine_of(edition, "interpreted"), data, complete)
    assert generated == interpreted
    native = native_of(edition)
    if native is not None:
        assert outcome(native, data, complete)[1] == generated


def test_from_json_takes_complete_by_keyword_only(engine: Engine):
    parameter = inspect.signature(engine.from_json).parameters["complete"]
    assert parameter.kind is inspect.Parameter.KEYWORD_ONLY and parameter.default is True


def test_a_state_of_a_whole_game_reads_back_exactly(engine: Engine):
    """Every state of a random game: from_json(to_json(s)) is s, complete,
    and its JSON form is unchanged (valid round trips are exact)."""
    rng = random.Random(str(engine.EDITION))
    state = engine.new_game(3 if 3 in engine.PLAYERS else engine.PLAYERS.start, 9)
    for _ in range(300):
        data = engine.to_json(state)
        back = engine.from_json(json.loads(json.dumps(data)), complete=True)
        assert back == state and engine.to_json(back) == data
        if engine.is_over(state):
            break
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))


# ------------------------------------------------------------ immutability


def _fields(state: Any) -> dict[str, Any]:
    """The state's own attributes a caller can name (not the private memo)."""
    if attrs.has(type(state)):
        return {f.name: getattr(state, f.name) for f in attrs.fields(type(state))}
    names = [n for c in type(state).__mro__ for n in getattr(c, "__slots__", ())]
    return {n: getattr(state, n) for n in names if not n.startswith("_")}


def _immutable(value: Any, path: str) -> None:
    if attrs.has(type(value)):  # a frozen attrs class (the interpreter's seats)
        for name, item in _fields(value).items():
            _immutable(item, f"{path}.{name}")
            with pytest.raises(AttributeError):
                setattr(value, name, item)
    elif isinstance(value, tuple | frozenset):
        for i, item in enumerate(value):
            _immutable(item, f"{path}[{i}]")
    else:
        assert value is None or type(value) in (int, bool, str), f"{path}: {type(value)}"


def _a_position(engine: Engine) -> Any:
    return engine.from_json(base_state(str(engine.EDITION)))


def test_no_attribute_of_a_state_can_be_set(engine: Engine):
    state = _a_position(engine)
    before = engine.to_json(state), engine.legal_actions(state), engine.scores(state)
    for name, value in _fields(state).items():
        with pytest.raises(AttributeError):
            setattr(state, name, value)
        with pytest.raises(AttributeError):
            delattr(state, name)
    for name in ("memo", "_memo", "supply", "anything"):
        with pytest.raises(AttributeError):
            setattr(state, name, {})
    assert (engine.to_json(state), engine.legal_actions(state), engine.scores(state)) == before


def test_assigning_the_supply_or_the_memo_changes_no_later_answer(engine: Engine):
    """The finding: `s.supply = ...` and `s.memo["legal"] = ...` used to change
    what the engine answered for s. Both now raise, and the answers stand."""
    state = _a_position(engine)
    legal, data = engine.legal_actions(state), engine.to_json(state)
    with pytest.raises(AttributeError):
        state.supply = (0,) * len(engine.TOKENS)
    with pytest.raises(AttributeError):
        state.memo["legal"] = [("pass",)]
    assert engine.legal_actions(state) == legal and engine.to_json(state) == data


def test_nothing_mutable_is_reachable_from_a_state(engine: Engine):
    """Tuples, frozensets, numbers and names all the way down (and frozen
    attrs classes in the interpreter): no dict or list to change."""
    state = _a_position(engine)
    assert not hasattr(state, "memo") and not hasattr(state, "__dict__")
    for name, value in _fields(state).items():
        _immutable(value, name)


def test_what_the_api_returns_is_the_callers_to_change(engine: Engine):
    """Changing a returned list or dict, or the JSON a state was read from,
    changes no later answer (the memoised legal moves included)."""
    data = base_state(str(engine.EDITION))
    state = engine.from_json(data)
    legal = engine.legal_actions(state)
    expected = (list(legal), engine.to_json(state), engine.view(state, 0))
    engine.legal_actions(state).clear()
    engine.legal_actions(state).append(("steal",))
    engine.to_json(state)["supply"].clear()
    engine.view(state, 0)["seats"].clear()
    data["supply"].clear()
    data["seats"][0]["zones"].clear()
    assert (engine.legal_actions(state), engine.to_json(state), engine.view(state, 0)) == expected
    with pytest.raises(engine.IllegalAction):
        engine.apply(state, ("steal",))


def test_apply_leaves_its_state_as_it_was(engine: Engine):
    state = _a_position(engine)
    before = engine.to_json(state)
    for action in engine.legal_actions(state):
        after = engine.apply(state, action)
        assert after is not state and engine.to_json(state) == before
        for name, value in _fields(after).items():
            with pytest.raises(AttributeError):
                setattr(after, name, value)


def test_a_state_copies_and_pickles_as_a_value(engine: Engine):
    state = _a_position(engine)
    for twin in (copy.copy(state), copy.deepcopy(state)):
        assert twin == state and engine.to_json(twin) == engine.to_json(state)
    assert pickle.loads(pickle.dumps(state)) == state


# ------------------------------------------------------------------ seats


@pytest.mark.parametrize("player", [99, 2, -1, None, True, False, 1.0, "0", (0,)])
def test_view_refuses_a_player_who_is_not_a_seat(engine: Engine, player: Any):
    state = engine.new_game(2, 0)
    with pytest.raises(ValueError, match="seat"):
        engine.view(state, player)


def test_view_of_each_seat(engine: Engine):
    state = engine.new_game(2, 0)
    assert [engine.view(state, p)["players"] for p in (0, 1)] == [2, 2]


@pytest.mark.parametrize(
    ("players", "first"),
    [(2, True), (2, False), (2, 1.0), (2, "1"), (2, None), (True, 0), (2.0, 0)],
)
def test_new_game_refuses_a_bool_or_a_float_for_a_count_or_a_seat(
    engine: Engine, players: Any, first: Any
):
    with pytest.raises(ValueError):
        engine.new_game(players, 1, first_player=first)


# ----------------------------------------------- random single corruptions

MAX_COMPARED = 12  # legal actions applied in both, per accepted state


@cache
def _words(edition: str) -> tuple[str, ...]:
    """Names a corruption may use: the edition's own, and some it lacks."""
    model = model_of(edition)
    names = [t.name for t in model.tokens] + [z.name for z in model.zones]
    names += [a.name for a in model.actions] + [s.name for s in model.steps]
    names += [t.name for t in model.tile_sets] + [str(t) for t in model.market.deck_sizes]
    return (*names, "x", "", "true", "false", "0", "1", "-1", "9")


def _locations(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value, the root included."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _locations(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _locations(item, (*path, i))
    return found


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _json_values(words: tuple[str, ...]) -> st.SearchStrategy[Any]:
    scalars = st.one_of(
        st.integers(-3, 100),
        st.booleans(),
        st.none(),
        st.sampled_from(words),
        st.sampled_from([0.0, 1.0, 2.5]),
    )
    return st.one_of(scalars, st.lists(scalars, max_size=3), st.just({}))


@st.composite
def corruptions(draw: st.DrawFn, edition: str) -> tuple[Json, Any, str]:
    """A valid state's JSON (a random game's), and it with one thing broken."""
    engine = engine_of(edition, "generated")
    players = draw(st.sampled_from(list(engine.PLAYERS)))
    rng = random.Random(draw(st.integers(0, 2**16)))
    state = engine.new_game(players, rng.randrange(2**16), rng.randrange(players))
    for _ in range(draw(st.integers(0, 60))):
        if engine.is_over(state):
            break
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    valid = engine.to_json(state)
    data: Any = copy.deepcopy(valid)
    path = draw(st.sampled_from(_locations(data)))
    words = _words(edition)
    holder: Any = {"root": data}
    parent, key = holder, "root"
    for step in path:
        parent, key = parent[key], step
    target = parent[key]
    lists = [p for p in _locations(data) if isinstance(_at(data, p), list) and _at(data, p)]
    moves = ["replace", "nudge", "flip", "delete", "insert", "duplicate", "move"]
    move = draw(st.sampled_from(moves))
    if move == "nudge" and type(target) is int:
        parent[key] = target + draw(st.sampled_from([-1, 1]))
    elif move == "flip" and type(target) is bool:
        parent[key] = not target
    elif move == "move" and lists:  # a card, a tile or a name taken from one list to another
        source = _at(data, draw(st.sampled_from(lists)))
        into = _at(data, draw(st.sampled_from(lists)))
        item = source.pop(draw(st.integers(0, len(source) - 1)))
        into.insert(draw(st.integers(0, len(into))), item)
        path = ()
    elif move == "delete" and path:
        del parent[key]
    elif move == "insert" and isinstance(target, dict):
        target[draw(st.sampled_from(words))] = draw(_json_values(words))
    elif move == "insert" and isinstance(target, list):
        target.insert(draw(st.integers(0, len(target))), draw(_json_values(words)))
    elif move == "duplicate" and isinstance(target, list) and target:
        target.append(copy.deepcopy(target[draw(st.integers(0, len(target) - 1))]))
    else:
        move = "replace"
        parent[key] = draw(_json_values(words))
    return valid, holder["root"], f"{move} at {list(path)}"


def _call(function: Any, *args: Any) -> Any:
    """An answer, or the kind of error raised (compared across the engines)."""
    try:
        return ("ok", function(*args))
    except Exception as error:  # any exception is compared
        return ("error", type(error).__name__, _rule_ids(error))


def _rule_ids(error: Exception) -> str:
    head, _, _ = str(error).partition(": ")
    return head if type(error).__name__ == "IllegalAction" and "-" in head else ""


def _same_behaviour(g: Engine, i: Engine, ga: Any, ia: Any, plies: int = 3) -> None:
    """Two engines answer alike on the states, and after each legal action."""
    for depth in range(plies):
        assert g.to_json(ga) == i.to_json(ia)
        players = g.to_json(ga)["players"]
        for query in ("current_player", "is_over", "scores", "winners", "legal_actions"):
            assert _call(getattr(g, query), ga) == _call(getattr(i, query), ia), query
        for p in range(players):
            assert g.view(ga, p) == i.view(ia, p)
        legal = _call(g.legal_actions, ga)
        if legal[0] != "ok" or not legal[1]:
            return
        after = [(_call(g.apply, ga, a), _call(i.apply, ia, a)) for a in legal[1][:MAX_COMPARED]]
        for (kind_g, *rest_g), (kind_i, *rest_i) in after:
            assert kind_g == kind_i, (rest_g, rest_i)
            if kind_g == "ok":
                assert g.to_json(rest_g[0]) == i.to_json(rest_i[0])
            else:
                assert rest_g == rest_i
        firsts = after[depth % len(after)]
        if firsts[0][0] != "ok":
            return
        ga, ia = firsts[0][1], firsts[1][1]


@pytest.mark.parametrize("edition", EDITIONS)
@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data(), complete=st.booleans())
def test_a_random_corruption_is_refused_by_all_or_accepted_by_all_alike(
    edition: str, data: st.DataObject, complete: bool
):
    """The generated engine and the interpreter, and the native engine where
    it is built (compared with the generated one)."""
    _, broken, what = data.draw(corruptions(edition))
    note(f"{what}: {json.dumps(broken)[:3000]}")
    g, i = engine_of(edition, "generated"), engine_of(edition, "interpreted")
    native = native_of(edition)
    ga, g_refusal = outcome(g, broken, complete)
    ia, i_refusal = outcome(i, broken, complete)
    assert g_refusal == i_refusal
    if native is not None:
        na, n_refusal = outcome(native, broken, complete)
        assert n_refusal == g_refusal
    event("refused by all" if g_refusal is not None else "accepted by all")
    if g_refusal is not None:
        return
    _same_behaviour(g, i, ga, ia)
    again_g = g.from_json(g.to_json(ga), complete=complete)
    assert again_g == ga and i.from_json(i.to_json(ia), complete=complete) == ia
    if native is not None:
        _same_behaviour(g, native, ga, na)
        assert native.from_json(native.to_json(na), complete=complete) == na


# ---------------------------------------- a card or a tile in two places
# Every engine checks the places of cards and tiles by one loop over the
# schema's places (compiler/frontend/schema.py): a card or a tile copied into
# a second place of any kind is refused, in the same words by every engine.


def _item_lists(edition: str, data: Json) -> list[tuple[str, tuple[Any, ...]]]:
    """Every list of cards or tiles in a state's JSON form: what it holds
    ("card" or "tile") and its path."""
    found: list[tuple[str, tuple[Any, ...]]] = []
    for key, holds in (("decks", "card"), ("market", "card"), ("tiles", "tile")):
        found += [(holds, (key, name)) for name in data[key]]
    for p in range(len(data["seats"])):
        for zone in model_of(edition).zones:
            holds = "card" if zone.content == "cards" else "tile"
            found.append((holds, ("seats", p, "zones", zone.name)))
    return found


@st.composite
def doubled(draw: st.DrawFn, edition: str) -> tuple[Json, str, int, str]:
    """A valid state's JSON (a random game's) with one card or tile copied
    into a second place: appended to a list, or put in a market slot (the
    card there then in no place); the item, what it is and where it went."""
    engine = engine_of(edition, "generated")
    players = draw(st.sampled_from(list(engine.PLAYERS)))
    rng = random.Random(draw(st.integers(0, 2**16)))
    state = engine.new_game(players, rng.randrange(2**16), rng.randrange(players))
    for _ in range(draw(st.integers(0, 40))):
        if engine.is_over(state):
            break
        state = engine.apply(state, rng.choice(engine.legal_actions(state)))
    data: Json = engine.to_json(state)
    lists = _item_lists(edition, data)
    items = [(h, p, i) for h, p in lists for i, x in enumerate(_at(data, p)) if x is not None]
    holds, path, i = draw(st.sampled_from(items))
    item = _at(data, path)[i]
    target = draw(st.sampled_from([p for h, p in lists if h == holds]))
    row = _at(data, target)
    if target[0] == "market":  # a row of slots: the item put in another slot
        slots = [j for j in range(len(row)) if (target, j) != (path, i)]
        assume(slots)
        row[draw(st.sampled_from(slots))] = item
    else:
        row.insert(draw(st.integers(0, len(row))), item)
    return data, holds, item, "/".join(map(str, target))


@pytest.mark.parametrize("edition", EDITIONS)
@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_a_card_or_a_tile_in_two_places_is_refused_alike(edition: str, data: st.DataObject):
    """Refused by the generated engine, the interpreter and the native engine
    (where built) with the same message, naming the item: in two places, or
    (met first in a deck or set not its own) not of that deck or set."""
    broken, holds, item, into = data.draw(doubled(edition))
    note(f"{holds} {item} into {into}")
    refusals = [
        outcome(engine_of(edition, kind), broken)[1] for kind in ("generated", "interpreted")
    ]
    native = native_of(edition)
    if native is not None:
        refusals.append(outcome(native, broken)[1])
    assert refusals[0] is not None and len(set(refusals)) == 1, refusals
    assert f"{holds} {item} is " in refusals[0], refusals[0]
    event("two places" if "in two places" in refusals[0] else "not of its deck or set")


@pytest.mark.parametrize("edition", EDITIONS)
@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(data=st.data())
def test_the_native_import_refuses_a_card_or_a_tile_in_two_places(
    edition: str, data: st.DataObject
):
    """The native engine's own check (check_places, on `_import`, the way in
    of unpickling): a state's parts with a card or a tile copied into a zone
    or a market slot are refused, naming the item."""
    native: Any = engine_or_skip(edition, "native")
    model = model_of(edition)
    rng = random.Random(data.draw(st.integers(0, 2**16)))
    state = native.new_game(2, rng.randrange(2**16))
    for _ in range(data.draw(st.integers(0, 40))):
        if native.is_over(state):
            break
        state = native.apply(state, rng.choice(native.legal_actions(state)))
    parts = native._c._export(state)
    cards = [k for key in ("decks", "market") for row in parts[key] for k in row if k != -1]
    tiles = [t for row in parts["tiles"] for t in row]
    cards += [
        k
        for z, zone in enumerate(parts["zones"])
        for row in zone
        for k in row
        if model.zones[z].content == "cards"
    ]
    tiles += [
        t
        for z, zone in enumerate(parts["zones"])
        for row in zone
        for t in row
        if model.zones[z].content == "tiles"
    ]
    holds = data.draw(st.sampled_from(["card", "tile"] if tiles else ["card"]))
    item = data.draw(st.sampled_from(cards if holds == "card" else tiles))
    zones = [z for z, zone in enumerate(model.zones) if zone.content == holds + "s"]
    into = data.draw(st.sampled_from([*zones, "market"] if holds == "card" else zones))
    if into == "market":
        market = [list(row) for row in parts["market"]]
        d = data.draw(st.integers(0, len(market) - 1))
        j = data.draw(st.integers(0, len(market[d]) - 1))
        assume(market[d][j] != item)
        market[d][j] = item
        parts["market"] = tuple(tuple(row) for row in market)
    else:
        assert isinstance(into, int)
        p = data.draw(st.integers(0, 1))
        zone = [list(row) for row in parts["zones"][into]]
        zone[p].insert(data.draw(st.integers(0, len(zone[p]))), item)
        zones_ = list(parts["zones"])
        zones_[into] = tuple(tuple(row) for row in zone)
        parts["zones"] = tuple(zones_)
    with pytest.raises(ValueError) as refused:
        native._c._import(parts)
    assert f"{holds} {item} is " in str(refused.value), str(refused.value)
