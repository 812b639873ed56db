from google.protobuf import timestamp_pb2 as _timestamp_pb2
from orrery.v1 import arena_pb2 as _arena_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
SPRT_STATUS_FAILED: SPRTStatus
SPRT_STATUS_FINISHED: SPRTStatus
SPRT_STATUS_RUNNING: SPRTStatus
SPRT_STATUS_STOPPED: SPRTStatus
SPRT_STATUS_UNSPECIFIED: SPRTStatus

class GetSPRTRequest(_message.Message):
    __slots__ = ["sprt_id"]
    SPRT_ID_FIELD_NUMBER: _ClassVar[int]
    sprt_id: str
    def __init__(self, sprt_id: _Optional[str] = ...) -> None: ...

class GetSPRTResponse(_message.Message):
    __slots__ = ["sprt"]
    SPRT_FIELD_NUMBER: _ClassVar[int]
    sprt: SPRT
    def __init__(self, sprt: _Optional[_Union[SPRT, _Mapping]] = ...) -> None: ...

class ListSPRTsRequest(_message.Message):
    __slots__ = ["page_size", "page_token"]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListSPRTsResponse(_message.Message):
    __slots__ = ["next_page_token", "sprts"]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SPRTS_FIELD_NUMBER: _ClassVar[int]
    next_page_token: str
    sprts: _containers.RepeatedCompositeFieldContainer[SPRT]
    def __init__(self, sprts: _Optional[_Iterable[_Union[SPRT, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class SPRT(_message.Message):
    __slots__ = ["alpha", "baseline", "baseline_version", "beta", "candidate", "candidate_version", "decision", "elo", "elo0", "elo1", "elo_high", "elo_low", "error", "finished", "game", "games", "llr", "llr_history", "llr_lower", "llr_upper", "los", "max_games", "opponents", "options", "pair_list", "pair_scores", "pairs", "parallel", "seats", "seed", "sprt_id", "started", "status"]
    class OptionsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ALPHA_FIELD_NUMBER: _ClassVar[int]
    BASELINE_FIELD_NUMBER: _ClassVar[int]
    BASELINE_VERSION_FIELD_NUMBER: _ClassVar[int]
    BETA_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_VERSION_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    ELO0_FIELD_NUMBER: _ClassVar[int]
    ELO1_FIELD_NUMBER: _ClassVar[int]
    ELO_FIELD_NUMBER: _ClassVar[int]
    ELO_HIGH_FIELD_NUMBER: _ClassVar[int]
    ELO_LOW_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    LLR_FIELD_NUMBER: _ClassVar[int]
    LLR_HISTORY_FIELD_NUMBER: _ClassVar[int]
    LLR_LOWER_FIELD_NUMBER: _ClassVar[int]
    LLR_UPPER_FIELD_NUMBER: _ClassVar[int]
    LOS_FIELD_NUMBER: _ClassVar[int]
    MAX_GAMES_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PAIRS_FIELD_NUMBER: _ClassVar[int]
    PAIR_LIST_FIELD_NUMBER: _ClassVar[int]
    PAIR_SCORES_FIELD_NUMBER: _ClassVar[int]
    PARALLEL_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SPRT_ID_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    alpha: float
    baseline: str
    baseline_version: int
    beta: float
    candidate: str
    candidate_version: int
    decision: str
    elo: float
    elo0: float
    elo1: float
    elo_high: float
    elo_low: float
    error: str
    finished: _timestamp_pb2.Timestamp
    game: str
    games: int
    llr: float
    llr_history: _containers.RepeatedScalarFieldContainer[float]
    llr_lower: float
    llr_upper: float
    los: float
    max_games: int
    opponents: _containers.RepeatedScalarFieldContainer[str]
    options: _containers.ScalarMap[str, str]
    pair_list: _containers.RepeatedCompositeFieldContainer[SPRTPair]
    pair_scores: _containers.RepeatedScalarFieldContainer[int]
    pairs: int
    parallel: int
    seats: int
    seed: int
    sprt_id: str
    started: _timestamp_pb2.Timestamp
    status: SPRTStatus
    def __init__(self, sprt_id: _Optional[str] = ..., game: _Optional[str] = ..., candidate: _Optional[str] = ..., baseline: _Optional[str] = ..., opponents: _Optional[_Iterable[str]] = ..., seats: _Optional[int] = ..., elo0: _Optional[float] = ..., elo1: _Optional[float] = ..., alpha: _Optional[float] = ..., beta: _Optional[float] = ..., max_games: _Optional[int] = ..., parallel: _Optional[int] = ..., status: _Optional[_Union[SPRTStatus, str]] = ..., decision: _Optional[str] = ..., games: _Optional[int] = ..., pairs: _Optional[int] = ..., llr: _Optional[float] = ..., llr_lower: _Optional[float] = ..., llr_upper: _Optional[float] = ..., elo: _Optional[float] = ..., elo_low: _Optional[float] = ..., elo_high: _Optional[float] = ..., los: _Optional[float] = ..., pair_scores: _Optional[_Iterable[int]] = ..., started: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., finished: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., error: _Optional[str] = ..., seed: _Optional[int] = ..., pair_list: _Optional[_Iterable[_Union[SPRTPair, _Mapping]]] = ..., llr_history: _Optional[_Iterable[float]] = ..., options: _Optional[_Mapping[str, str]] = ..., candidate_version: _Optional[int] = ..., baseline_version: _Optional[int] = ...) -> None: ...

class SPRTPair(_message.Message):
    __slots__ = ["baseline_match_id", "baseline_ranks", "candidate_match_id", "candidate_ranks", "deal", "seat"]
    BASELINE_MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    BASELINE_RANKS_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_RANKS_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    baseline_match_id: str
    baseline_ranks: _containers.RepeatedScalarFieldContainer[int]
    candidate_match_id: str
    candidate_ranks: _containers.RepeatedScalarFieldContainer[int]
    deal: int
    seat: int
    def __init__(self, deal: _Optional[int] = ..., seat: _Optional[int] = ..., candidate_ranks: _Optional[_Iterable[int]] = ..., baseline_ranks: _Optional[_Iterable[int]] = ..., candidate_match_id: _Optional[str] = ..., baseline_match_id: _Optional[str] = ...) -> None: ...

class StartSPRTRequest(_message.Message):
    __slots__ = ["alpha", "baseline", "baseline_version", "beta", "candidate", "candidate_version", "clock", "elo0", "elo1", "game", "max_games", "opponents", "options", "parallel", "seats", "seed", "timeout_policy"]
    class OptionsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ALPHA_FIELD_NUMBER: _ClassVar[int]
    BASELINE_FIELD_NUMBER: _ClassVar[int]
    BASELINE_VERSION_FIELD_NUMBER: _ClassVar[int]
    BETA_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_VERSION_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    ELO0_FIELD_NUMBER: _ClassVar[int]
    ELO1_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MAX_GAMES_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PARALLEL_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_POLICY_FIELD_NUMBER: _ClassVar[int]
    alpha: float
    baseline: str
    baseline_version: int
    beta: float
    candidate: str
    candidate_version: int
    clock: _arena_pb2.Clock
    elo0: float
    elo1: float
    game: str
    max_games: int
    opponents: _containers.RepeatedScalarFieldContainer[str]
    options: _containers.ScalarMap[str, str]
    parallel: int
    seats: int
    seed: int
    timeout_policy: _arena_pb2.TimeoutPolicy
    def __init__(self, game: _Optional[str] = ..., candidate: _Optional[str] = ..., baseline: _Optional[str] = ..., opponents: _Optional[_Iterable[str]] = ..., seats: _Optional[int] = ..., elo0: _Optional[float] = ..., elo1: _Optional[float] = ..., alpha: _Optional[float] = ..., beta: _Optional[float] = ..., max_games: _Optional[int] = ..., parallel: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., clock: _Optional[_Union[_arena_pb2.Clock, _Mapping]] = ..., timeout_policy: _Optional[_Union[_arena_pb2.TimeoutPolicy, str]] = ..., seed: _Optional[int] = ..., candidate_version: _Optional[int] = ..., baseline_version: _Optional[int] = ...) -> None: ...

class StartSPRTResponse(_message.Message):
    __slots__ = ["sprt"]
    SPRT_FIELD_NUMBER: _ClassVar[int]
    sprt: SPRT
    def __init__(self, sprt: _Optional[_Union[SPRT, _Mapping]] = ...) -> None: ...

class StopSPRTRequest(_message.Message):
    __slots__ = ["sprt_id"]
    SPRT_ID_FIELD_NUMBER: _ClassVar[int]
    sprt_id: str
    def __init__(self, sprt_id: _Optional[str] = ...) -> None: ...

class StopSPRTResponse(_message.Message):
    __slots__ = ["sprt"]
    SPRT_FIELD_NUMBER: _ClassVar[int]
    sprt: SPRT
    def __init__(self, sprt: _Optional[_Union[SPRT, _Mapping]] = ...) -> None: ...

class WatchSPRTRequest(_message.Message):
    __slots__ = ["sprt_id"]
    SPRT_ID_FIELD_NUMBER: _ClassVar[int]
    sprt_id: str
    def __init__(self, sprt_id: _Optional[str] = ...) -> None: ...

class WatchSPRTResponse(_message.Message):
    __slots__ = ["sprt"]
    SPRT_FIELD_NUMBER: _ClassVar[int]
    sprt: SPRT
    def __init__(self, sprt: _Optional[_Union[SPRT, _Mapping]] = ...) -> None: ...

class SPRTStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
