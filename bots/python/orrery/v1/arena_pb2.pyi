from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from orrery.fccatan.v1 import fccatan_pb2 as _fccatan_pb2
from orrery.icetraders.v1 import icetraders_pb2 as _icetraders_pb2
from orrery.pantropia.v1 import pantropia_pb2 as _pantropia_pb2
from orrery.planet.v1 import planet_pb2 as _planet_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
END_REASON_ABORTED: EndReason
END_REASON_CAP: EndReason
END_REASON_FAILED: EndReason
END_REASON_FORFEIT: EndReason
END_REASON_NORMAL: EndReason
END_REASON_UNSPECIFIED: EndReason
MATCH_STATUS_FAILED: MatchStatus
MATCH_STATUS_FINISHED: MatchStatus
MATCH_STATUS_PAUSED: MatchStatus
MATCH_STATUS_RUNNING: MatchStatus
MATCH_STATUS_UNSPECIFIED: MatchStatus
REJECT_CODE_ILLEGAL: RejectCode
REJECT_CODE_MALFORMED: RejectCode
REJECT_CODE_NOT_YOUR_TURN: RejectCode
REJECT_CODE_STALE_DECISION: RejectCode
REJECT_CODE_UNSPECIFIED: RejectCode
TIMEOUT_POLICY_DEFAULT: TimeoutPolicy
TIMEOUT_POLICY_FORFEIT: TimeoutPolicy
TIMEOUT_POLICY_RANDOM: TimeoutPolicy
TIMEOUT_POLICY_UNSPECIFIED: TimeoutPolicy

class AbortMatchRequest(_message.Message):
    __slots__ = ["creator_token", "match_id", "reason", "seat_tokens"]
    CREATOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    creator_token: str
    match_id: str
    reason: str
    seat_tokens: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, match_id: _Optional[str] = ..., reason: _Optional[str] = ..., seat_tokens: _Optional[_Iterable[str]] = ..., creator_token: _Optional[str] = ...) -> None: ...

class AbortMatchResponse(_message.Message):
    __slots__ = ["match"]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: MatchSummary
    def __init__(self, match: _Optional[_Union[MatchSummary, _Mapping]] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ["fccatan", "icetraders", "pantropia", "planet"]
    FCCATAN_FIELD_NUMBER: _ClassVar[int]
    ICETRADERS_FIELD_NUMBER: _ClassVar[int]
    PANTROPIA_FIELD_NUMBER: _ClassVar[int]
    PLANET_FIELD_NUMBER: _ClassVar[int]
    fccatan: _fccatan_pb2.Action
    icetraders: _icetraders_pb2.Action
    pantropia: _pantropia_pb2.Action
    planet: _planet_pb2.Action
    def __init__(self, icetraders: _Optional[_Union[_icetraders_pb2.Action, _Mapping]] = ..., planet: _Optional[_Union[_planet_pb2.Action, _Mapping]] = ..., pantropia: _Optional[_Union[_pantropia_pb2.Action, _Mapping]] = ..., fccatan: _Optional[_Union[_fccatan_pb2.Action, _Mapping]] = ...) -> None: ...

class ActionAccepted(_message.Message):
    __slots__ = ["decision_id", "events", "match_id", "notation"]
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    decision_id: str
    events: _containers.RepeatedCompositeFieldContainer[Event]
    match_id: str
    notation: str
    def __init__(self, decision_id: _Optional[str] = ..., notation: _Optional[str] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., match_id: _Optional[str] = ...) -> None: ...

class ActionRejected(_message.Message):
    __slots__ = ["code", "decision_id", "match_id", "reason"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    code: RejectCode
    decision_id: str
    match_id: str
    reason: str
    def __init__(self, decision_id: _Optional[str] = ..., code: _Optional[_Union[RejectCode, str]] = ..., reason: _Optional[str] = ..., match_id: _Optional[str] = ...) -> None: ...

class Answer(_message.Message):
    __slots__ = ["action", "decision_id", "legal_index", "match_id", "notation", "note"]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    LEGAL_INDEX_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    action: Action
    decision_id: str
    legal_index: int
    match_id: str
    notation: str
    note: str
    def __init__(self, decision_id: _Optional[str] = ..., match_id: _Optional[str] = ..., legal_index: _Optional[int] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., notation: _Optional[str] = ..., note: _Optional[str] = ...) -> None: ...

class Catalog(_message.Message):
    __slots__ = ["fccatan", "icetraders", "pantropia", "planet"]
    FCCATAN_FIELD_NUMBER: _ClassVar[int]
    ICETRADERS_FIELD_NUMBER: _ClassVar[int]
    PANTROPIA_FIELD_NUMBER: _ClassVar[int]
    PLANET_FIELD_NUMBER: _ClassVar[int]
    fccatan: _fccatan_pb2.Catalog
    icetraders: _icetraders_pb2.Catalog
    pantropia: _pantropia_pb2.Catalog
    planet: _planet_pb2.Catalog
    def __init__(self, icetraders: _Optional[_Union[_icetraders_pb2.Catalog, _Mapping]] = ..., planet: _Optional[_Union[_planet_pb2.Catalog, _Mapping]] = ..., pantropia: _Optional[_Union[_pantropia_pb2.Catalog, _Mapping]] = ..., fccatan: _Optional[_Union[_fccatan_pb2.Catalog, _Mapping]] = ...) -> None: ...

class Clock(_message.Message):
    __slots__ = ["increment", "per_move", "time_bank", "wall_clock"]
    INCREMENT_FIELD_NUMBER: _ClassVar[int]
    PER_MOVE_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_FIELD_NUMBER: _ClassVar[int]
    WALL_CLOCK_FIELD_NUMBER: _ClassVar[int]
    increment: _duration_pb2.Duration
    per_move: _duration_pb2.Duration
    time_bank: _duration_pb2.Duration
    wall_clock: bool
    def __init__(self, per_move: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., increment: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., time_bank: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., wall_clock: bool = ...) -> None: ...

class CreateMatchRequest(_message.Message):
    __slots__ = ["bots", "clock", "game", "options", "seat_names", "seats", "seed", "timeout_policy"]
    class OptionsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    BOTS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAMES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_POLICY_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedCompositeFieldContainer[SeatBot]
    clock: Clock
    game: str
    options: _containers.ScalarMap[str, str]
    seat_names: _containers.RepeatedScalarFieldContainer[str]
    seats: int
    seed: int
    timeout_policy: TimeoutPolicy
    def __init__(self, game: _Optional[str] = ..., seats: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., seed: _Optional[int] = ..., clock: _Optional[_Union[Clock, _Mapping]] = ..., timeout_policy: _Optional[_Union[TimeoutPolicy, str]] = ..., seat_names: _Optional[_Iterable[str]] = ..., bots: _Optional[_Iterable[_Union[SeatBot, _Mapping]]] = ...) -> None: ...

class CreateMatchResponse(_message.Message):
    __slots__ = ["creator_token", "match_id", "seats", "seed_hash"]
    CREATOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEED_HASH_FIELD_NUMBER: _ClassVar[int]
    creator_token: str
    match_id: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatToken]
    seed_hash: str
    def __init__(self, match_id: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatToken, _Mapping]]] = ..., seed_hash: _Optional[str] = ..., creator_token: _Optional[str] = ...) -> None: ...

class Decision(_message.Message):
    __slots__ = ["deadline", "decision_id", "events", "last_round_trip", "legal", "legal_count", "legal_notation", "match_id", "observation", "ply", "seat", "text", "time_bank"]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    DECISION_ID_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    LAST_ROUND_TRIP_FIELD_NUMBER: _ClassVar[int]
    LEGAL_COUNT_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    LEGAL_NOTATION_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    PLY_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_FIELD_NUMBER: _ClassVar[int]
    deadline: _timestamp_pb2.Timestamp
    decision_id: str
    events: _containers.RepeatedCompositeFieldContainer[Event]
    last_round_trip: _duration_pb2.Duration
    legal: _containers.RepeatedCompositeFieldContainer[Action]
    legal_count: int
    legal_notation: _containers.RepeatedScalarFieldContainer[str]
    match_id: str
    observation: Observation
    ply: int
    seat: int
    text: str
    time_bank: _duration_pb2.Duration
    def __init__(self, decision_id: _Optional[str] = ..., deadline: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., time_bank: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., observation: _Optional[_Union[Observation, _Mapping]] = ..., legal: _Optional[_Iterable[_Union[Action, _Mapping]]] = ..., legal_notation: _Optional[_Iterable[str]] = ..., text: _Optional[str] = ..., ply: _Optional[int] = ..., seat: _Optional[int] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., match_id: _Optional[str] = ..., legal_count: _Optional[int] = ..., last_round_trip: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ["game", "seq", "timed_out"]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    TIMED_OUT_FIELD_NUMBER: _ClassVar[int]
    game: GameEvent
    seq: int
    timed_out: SeatTimedOut
    def __init__(self, seq: _Optional[int] = ..., game: _Optional[_Union[GameEvent, _Mapping]] = ..., timed_out: _Optional[_Union[SeatTimedOut, _Mapping]] = ...) -> None: ...

class EventBatch(_message.Message):
    __slots__ = ["events", "match_id"]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    match_id: str
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., match_id: _Optional[str] = ...) -> None: ...

class GameEvent(_message.Message):
    __slots__ = ["fccatan", "icetraders", "pantropia", "planet"]
    FCCATAN_FIELD_NUMBER: _ClassVar[int]
    ICETRADERS_FIELD_NUMBER: _ClassVar[int]
    PANTROPIA_FIELD_NUMBER: _ClassVar[int]
    PLANET_FIELD_NUMBER: _ClassVar[int]
    fccatan: _fccatan_pb2.Event
    icetraders: _icetraders_pb2.Event
    pantropia: _pantropia_pb2.Event
    planet: _planet_pb2.Event
    def __init__(self, icetraders: _Optional[_Union[_icetraders_pb2.Event, _Mapping]] = ..., planet: _Optional[_Union[_planet_pb2.Event, _Mapping]] = ..., pantropia: _Optional[_Union[_pantropia_pb2.Event, _Mapping]] = ..., fccatan: _Optional[_Union[_fccatan_pb2.Event, _Mapping]] = ...) -> None: ...

class GameInfo(_message.Message):
    __slots__ = ["bots", "catalog", "max_seats", "min_seats", "name", "options", "real_time", "simultaneous", "title"]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    CATALOG_FIELD_NUMBER: _ClassVar[int]
    MAX_SEATS_FIELD_NUMBER: _ClassVar[int]
    MIN_SEATS_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    REAL_TIME_FIELD_NUMBER: _ClassVar[int]
    SIMULTANEOUS_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedScalarFieldContainer[str]
    catalog: Catalog
    max_seats: int
    min_seats: int
    name: str
    options: _containers.RepeatedCompositeFieldContainer[GameOption]
    real_time: bool
    simultaneous: bool
    title: str
    def __init__(self, name: _Optional[str] = ..., title: _Optional[str] = ..., min_seats: _Optional[int] = ..., max_seats: _Optional[int] = ..., simultaneous: bool = ..., real_time: bool = ..., options: _Optional[_Iterable[_Union[GameOption, _Mapping]]] = ..., catalog: _Optional[_Union[Catalog, _Mapping]] = ..., bots: _Optional[_Iterable[str]] = ...) -> None: ...

class GameOption(_message.Message):
    __slots__ = ["default_value", "help", "name"]
    DEFAULT_VALUE_FIELD_NUMBER: _ClassVar[int]
    HELP_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    default_value: str
    help: str
    name: str
    def __init__(self, name: _Optional[str] = ..., default_value: _Optional[str] = ..., help: _Optional[str] = ...) -> None: ...

class GetMatchRequest(_message.Message):
    __slots__ = ["match_id"]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class GetMatchResponse(_message.Message):
    __slots__ = ["match"]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: MatchSummary
    def __init__(self, match: _Optional[_Union[MatchSummary, _Mapping]] = ...) -> None: ...

class GetReplayRequest(_message.Message):
    __slots__ = ["match_id"]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class GetReplayResponse(_message.Message):
    __slots__ = ["events", "final_text", "match", "seed", "seed_salt", "steps"]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    FINAL_TEXT_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEED_SALT_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    final_text: str
    match: MatchSummary
    seed: int
    seed_salt: str
    steps: _containers.RepeatedCompositeFieldContainer[ReplayStep]
    def __init__(self, match: _Optional[_Union[MatchSummary, _Mapping]] = ..., seed: _Optional[int] = ..., steps: _Optional[_Iterable[_Union[ReplayStep, _Mapping]]] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., final_text: _Optional[str] = ..., seed_salt: _Optional[str] = ...) -> None: ...

class GetSeatNotesRequest(_message.Message):
    __slots__ = ["match_id", "seat", "seat_token"]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    seat_token: str
    def __init__(self, match_id: _Optional[str] = ..., seat_token: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class GetSeatNotesResponse(_message.Message):
    __slots__ = ["match_id", "running", "seat", "steps"]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    RUNNING_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    running: bool
    seat: int
    steps: _containers.RepeatedCompositeFieldContainer[SeatNote]
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., running: bool = ..., steps: _Optional[_Iterable[_Union[SeatNote, _Mapping]]] = ...) -> None: ...

class Join(_message.Message):
    __slots__ = ["events_seen", "receive", "token"]
    EVENTS_SEEN_FIELD_NUMBER: _ClassVar[int]
    RECEIVE_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    events_seen: int
    receive: Receive
    token: str
    def __init__(self, token: _Optional[str] = ..., events_seen: _Optional[int] = ..., receive: _Optional[_Union[Receive, _Mapping]] = ...) -> None: ...

class Joined(_message.Message):
    __slots__ = ["clock", "game", "match_id", "options", "seat", "seats", "seed_hash", "timeout_policy"]
    class OptionsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEED_HASH_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_POLICY_FIELD_NUMBER: _ClassVar[int]
    clock: Clock
    game: str
    match_id: str
    options: _containers.ScalarMap[str, str]
    seat: int
    seats: int
    seed_hash: str
    timeout_policy: TimeoutPolicy
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., game: _Optional[str] = ..., seats: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., seed_hash: _Optional[str] = ..., clock: _Optional[_Union[Clock, _Mapping]] = ..., timeout_policy: _Optional[_Union[TimeoutPolicy, str]] = ...) -> None: ...

class LadderJoin(_message.Message):
    __slots__ = ["games", "max_matches", "receive", "tournaments_only"]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    MAX_MATCHES_FIELD_NUMBER: _ClassVar[int]
    RECEIVE_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENTS_ONLY_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedScalarFieldContainer[str]
    max_matches: int
    receive: Receive
    tournaments_only: bool
    def __init__(self, games: _Optional[_Iterable[str]] = ..., max_matches: _Optional[int] = ..., receive: _Optional[_Union[Receive, _Mapping]] = ..., tournaments_only: bool = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ["games"]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameInfo]
    def __init__(self, games: _Optional[_Iterable[_Union[GameInfo, _Mapping]]] = ...) -> None: ...

class ListMatchesRequest(_message.Message):
    __slots__ = ["bot", "game", "page_size", "page_token", "seat_name", "status"]
    BOT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SEAT_NAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    bot: str
    game: str
    page_size: int
    page_token: str
    seat_name: str
    status: MatchStatus
    def __init__(self, game: _Optional[str] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., seat_name: _Optional[str] = ..., bot: _Optional[str] = ...) -> None: ...

class ListMatchesResponse(_message.Message):
    __slots__ = ["matches", "next_page_token"]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[MatchSummary]
    next_page_token: str
    def __init__(self, matches: _Optional[_Iterable[_Union[MatchSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class MatchEnded(_message.Message):
    __slots__ = ["match_id", "result", "seat", "seed", "seed_hash", "seed_salt", "seed_withheld"]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEED_HASH_FIELD_NUMBER: _ClassVar[int]
    SEED_SALT_FIELD_NUMBER: _ClassVar[int]
    SEED_WITHHELD_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    result: Result
    seat: int
    seed: int
    seed_hash: str
    seed_salt: str
    seed_withheld: bool
    def __init__(self, result: _Optional[_Union[Result, _Mapping]] = ..., seed: _Optional[int] = ..., seed_hash: _Optional[str] = ..., match_id: _Optional[str] = ..., seat: _Optional[int] = ..., seed_salt: _Optional[str] = ..., seed_withheld: bool = ...) -> None: ...

class MatchSummary(_message.Message):
    __slots__ = ["clock", "created", "ended", "game", "match_id", "options", "ply", "result", "seat_info", "seats", "seed_hash", "status", "timeout_policy"]
    class OptionsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PLY_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEAT_INFO_FIELD_NUMBER: _ClassVar[int]
    SEED_HASH_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_POLICY_FIELD_NUMBER: _ClassVar[int]
    clock: Clock
    created: _timestamp_pb2.Timestamp
    ended: _timestamp_pb2.Timestamp
    game: str
    match_id: str
    options: _containers.ScalarMap[str, str]
    ply: int
    result: Result
    seat_info: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    seats: int
    seed_hash: str
    status: MatchStatus
    timeout_policy: TimeoutPolicy
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., seats: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., seed_hash: _Optional[str] = ..., ply: _Optional[int] = ..., created: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., ended: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., result: _Optional[_Union[Result, _Mapping]] = ..., seat_info: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ..., clock: _Optional[_Union[Clock, _Mapping]] = ..., timeout_policy: _Optional[_Union[TimeoutPolicy, str]] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ["fccatan", "icetraders", "pantropia", "planet"]
    FCCATAN_FIELD_NUMBER: _ClassVar[int]
    ICETRADERS_FIELD_NUMBER: _ClassVar[int]
    PANTROPIA_FIELD_NUMBER: _ClassVar[int]
    PLANET_FIELD_NUMBER: _ClassVar[int]
    fccatan: _fccatan_pb2.Observation
    icetraders: _icetraders_pb2.Observation
    pantropia: _pantropia_pb2.Observation
    planet: _planet_pb2.Observation
    def __init__(self, icetraders: _Optional[_Union[_icetraders_pb2.Observation, _Mapping]] = ..., planet: _Optional[_Union[_planet_pb2.Observation, _Mapping]] = ..., pantropia: _Optional[_Union[_pantropia_pb2.Observation, _Mapping]] = ..., fccatan: _Optional[_Union[_fccatan_pb2.Observation, _Mapping]] = ...) -> None: ...

class PlayRequest(_message.Message):
    __slots__ = ["answer", "join", "ladder", "resign"]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    JOIN_FIELD_NUMBER: _ClassVar[int]
    LADDER_FIELD_NUMBER: _ClassVar[int]
    RESIGN_FIELD_NUMBER: _ClassVar[int]
    answer: Answer
    join: Join
    ladder: LadderJoin
    resign: Resign
    def __init__(self, join: _Optional[_Union[Join, _Mapping]] = ..., answer: _Optional[_Union[Answer, _Mapping]] = ..., ladder: _Optional[_Union[LadderJoin, _Mapping]] = ..., resign: _Optional[_Union[Resign, _Mapping]] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ["accepted", "decision", "ended", "events", "joined", "rejected"]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    JOINED_FIELD_NUMBER: _ClassVar[int]
    REJECTED_FIELD_NUMBER: _ClassVar[int]
    accepted: ActionAccepted
    decision: Decision
    ended: MatchEnded
    events: EventBatch
    joined: Joined
    rejected: ActionRejected
    def __init__(self, joined: _Optional[_Union[Joined, _Mapping]] = ..., decision: _Optional[_Union[Decision, _Mapping]] = ..., accepted: _Optional[_Union[ActionAccepted, _Mapping]] = ..., rejected: _Optional[_Union[ActionRejected, _Mapping]] = ..., events: _Optional[_Union[EventBatch, _Mapping]] = ..., ended: _Optional[_Union[MatchEnded, _Mapping]] = ...) -> None: ...

class Receive(_message.Message):
    __slots__ = ["omit_events", "omit_legal", "omit_legal_notation", "omit_observation", "omit_text", "quiet"]
    OMIT_EVENTS_FIELD_NUMBER: _ClassVar[int]
    OMIT_LEGAL_FIELD_NUMBER: _ClassVar[int]
    OMIT_LEGAL_NOTATION_FIELD_NUMBER: _ClassVar[int]
    OMIT_OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    OMIT_TEXT_FIELD_NUMBER: _ClassVar[int]
    QUIET_FIELD_NUMBER: _ClassVar[int]
    omit_events: bool
    omit_legal: bool
    omit_legal_notation: bool
    omit_observation: bool
    omit_text: bool
    quiet: bool
    def __init__(self, omit_legal: bool = ..., omit_legal_notation: bool = ..., omit_text: bool = ..., omit_observation: bool = ..., quiet: bool = ..., omit_events: bool = ...) -> None: ...

class ReplayStep(_message.Message):
    __slots__ = ["action", "cpu_time", "notation", "note", "rejections", "seat", "think_time", "timed_out"]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    CPU_TIME_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    REJECTIONS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    THINK_TIME_FIELD_NUMBER: _ClassVar[int]
    TIMED_OUT_FIELD_NUMBER: _ClassVar[int]
    action: Action
    cpu_time: _duration_pb2.Duration
    notation: str
    note: str
    rejections: _containers.RepeatedScalarFieldContainer[RejectCode]
    seat: int
    think_time: _duration_pb2.Duration
    timed_out: TimeoutPolicy
    def __init__(self, seat: _Optional[int] = ..., notation: _Optional[str] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., timed_out: _Optional[_Union[TimeoutPolicy, str]] = ..., think_time: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., rejections: _Optional[_Iterable[_Union[RejectCode, str]]] = ..., note: _Optional[str] = ..., cpu_time: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class Resign(_message.Message):
    __slots__ = ["match_id"]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class Result(_message.Message):
    __slots__ = ["detail", "ranks", "reason", "scores"]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    detail: str
    ranks: _containers.RepeatedScalarFieldContainer[int]
    reason: EndReason
    scores: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, ranks: _Optional[_Iterable[int]] = ..., scores: _Optional[_Iterable[float]] = ..., reason: _Optional[_Union[EndReason, str]] = ..., detail: _Optional[str] = ...) -> None: ...

class SeatBot(_message.Message):
    __slots__ = ["bot", "seat"]
    BOT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    bot: str
    seat: int
    def __init__(self, seat: _Optional[int] = ..., bot: _Optional[str] = ...) -> None: ...

class SeatInfo(_message.Message):
    __slots__ = ["connected", "name", "seat", "time_bank", "timeouts"]
    CONNECTED_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TIMEOUTS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_FIELD_NUMBER: _ClassVar[int]
    connected: bool
    name: str
    seat: int
    time_bank: _duration_pb2.Duration
    timeouts: int
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., connected: bool = ..., time_bank: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., timeouts: _Optional[int] = ...) -> None: ...

class SeatNote(_message.Message):
    __slots__ = ["cpu_time", "note", "rejections", "step", "think_time", "timed_out"]
    CPU_TIME_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    REJECTIONS_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    THINK_TIME_FIELD_NUMBER: _ClassVar[int]
    TIMED_OUT_FIELD_NUMBER: _ClassVar[int]
    cpu_time: _duration_pb2.Duration
    note: str
    rejections: _containers.RepeatedScalarFieldContainer[RejectCode]
    step: int
    think_time: _duration_pb2.Duration
    timed_out: TimeoutPolicy
    def __init__(self, step: _Optional[int] = ..., think_time: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., rejections: _Optional[_Iterable[_Union[RejectCode, str]]] = ..., timed_out: _Optional[_Union[TimeoutPolicy, str]] = ..., note: _Optional[str] = ..., cpu_time: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class SeatTimedOut(_message.Message):
    __slots__ = ["policy", "seat"]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    policy: TimeoutPolicy
    seat: int
    def __init__(self, seat: _Optional[int] = ..., policy: _Optional[_Union[TimeoutPolicy, str]] = ...) -> None: ...

class SeatToken(_message.Message):
    __slots__ = ["seat", "token"]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    token: str
    def __init__(self, seat: _Optional[int] = ..., token: _Optional[str] = ...) -> None: ...

class Spectate(_message.Message):
    __slots__ = ["observation", "ply", "text"]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    PLY_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    observation: Observation
    ply: int
    text: str
    def __init__(self, observation: _Optional[_Union[Observation, _Mapping]] = ..., text: _Optional[str] = ..., ply: _Optional[int] = ...) -> None: ...

class WatchRequest(_message.Message):
    __slots__ = ["from_event", "match_id"]
    FROM_EVENT_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    from_event: int
    match_id: str
    def __init__(self, match_id: _Optional[str] = ..., from_event: _Optional[int] = ...) -> None: ...

class WatchResponse(_message.Message):
    __slots__ = ["ended", "events", "view"]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    ended: MatchEnded
    events: EventBatch
    view: Spectate
    def __init__(self, view: _Optional[_Union[Spectate, _Mapping]] = ..., events: _Optional[_Union[EventBatch, _Mapping]] = ..., ended: _Optional[_Union[MatchEnded, _Mapping]] = ...) -> None: ...

class TimeoutPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class RejectCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class EndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class MatchStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
