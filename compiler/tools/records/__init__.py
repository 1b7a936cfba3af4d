"""Game records: a game or a rules scenario as JSON, replayed against an engine.

A record is the portable, engine-independent form of a game: the setup
(edition, players, seed, first player, optionally a patched or a full
starting state), the actions in order and what must hold along the way. The
same record can be replayed on the generated engine, on the interpreter and
on the native engine, which is what makes it useful as a test: docs/records.md is the reference.

The package is a library: it returns results and raises RecordError for a
record that cannot be read; the command line (compiler/cli) prints and
chooses exit codes. Its modules, in the order a record goes through them:
form (keys, errors, JSON), catalog (what an edition lets a record name),
actions (short and JSON forms), setup (hand-made positions), load (a record
validated and set up), replay (expectations checked), play (games with bots).
"""

from splendor_rules.compiler.tools.records.actions import (
    action_data,
    canonical,
    parse_short,
    short_form,
    to_action,
)
from splendor_rules.compiler.tools.records.catalog import (
    Catalog,
    EngineNotAvailable,
    catalog,
    catalog_of,
    catalog_of_description,
    editions,
    engine,
    engine_catalog,
)
from splendor_rules.compiler.tools.records.form import (
    CHECK_KEYS,
    RECORD_KEYS,
    REQUIRED_KEYS,
    STEP_KEYS,
    RecordError,
    dump_record,
    read_json,
)
from splendor_rules.compiler.tools.records.load import Record, Step, load_record
from splendor_rules.compiler.tools.records.play import (
    BOT_KINDS,
    Bot,
    GameStopped,
    StopGame,
    check_bot,
    describe_position,
    play_game,
    random_bot,
    read_move,
)
from splendor_rules.compiler.tools.records.replay import (
    Failure,
    check_file,
    check_state,
    leading_ids,
    replay_record,
)
from splendor_rules.compiler.tools.records.setup import apply_setup

__all__ = [
    "BOT_KINDS",
    "CHECK_KEYS",
    "RECORD_KEYS",
    "REQUIRED_KEYS",
    "STEP_KEYS",
    "Bot",
    "Catalog",
    "EngineNotAvailable",
    "Failure",
    "GameStopped",
    "Record",
    "RecordError",
    "Step",
    "StopGame",
    "action_data",
    "apply_setup",
    "canonical",
    "catalog",
    "catalog_of",
    "catalog_of_description",
    "check_bot",
    "check_file",
    "check_state",
    "describe_position",
    "dump_record",
    "editions",
    "engine",
    "engine_catalog",
    "leading_ids",
    "load_record",
    "parse_short",
    "play_game",
    "random_bot",
    "read_json",
    "read_move",
    "replay_record",
    "short_form",
    "to_action",
]
