from google.protobuf import timestamp_pb2 as _timestamp_pb2
from orrery.v1 import arena_pb2 as _arena_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

ABSENT_POLICY_FORFEIT: AbsentPolicy
ABSENT_POLICY_UNSPECIFIED: AbsentPolicy
DESCRIPTOR: _descriptor.FileDescriptor
TOURNAMENT_FORMAT_ROUND_ROBIN: TournamentFormat
TOURNAMENT_FORMAT_SWISS: TournamentFormat
TOURNAMENT_FORMAT_UNSPECIFIED: TournamentFormat
TOURNAMENT_STATUS_FINISHED: TournamentStatus
TOURNAMENT_STATUS_RUNNING: TournamentStatus
TOURNAMENT_STATUS_UNSPECIFIED: TournamentStatus

class CreateTournamentRequest(_message.Message):
    __slots__ = ["absent", "clock", "duplicate", "entrants", "format", "game", "games", "options", "parallel", "seats", "seed", "timeout_policy"]
    class OptionsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ABSENT_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    ENTRANTS_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PARALLEL_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_POLICY_FIELD_NUMBER: _ClassVar[int]
    absent: AbsentPolicy
    clock: _arena_pb2.Clock
    duplicate: bool
    entrants: _containers.RepeatedScalarFieldContainer[str]
    format: TournamentFormat
    game: str
    games: int
    options: _containers.ScalarMap[str, str]
    parallel: int
    seats: int
    seed: int
    timeout_policy: _arena_pb2.TimeoutPolicy
    def __init__(self, game: _Optional[str] = ..., format: _Optional[_Union[TournamentFormat, str]] = ..., seats: _Optional[int] = ..., entrants: _Optional[_Iterable[str]] = ..., duplicate: bool = ..., games: _Optional[int] = ..., parallel: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., clock: _Optional[_Union[_arena_pb2.Clock, _Mapping]] = ..., timeout_policy: _Optional[_Union[_arena_pb2.TimeoutPolicy, str]] = ..., absent: _Optional[_Union[AbsentPolicy, str]] = ..., seed: _Optional[int] = ...) -> None: ...

class CreateTournamentResponse(_message.Message):
    __slots__ = ["tournament"]
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class GetTournamentRequest(_message.Message):
    __slots__ = ["tournament_id"]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class GetTournamentResponse(_message.Message):
    __slots__ = ["tournament"]
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class ListTournamentsRequest(_message.Message):
    __slots__ = ["page_size", "page_token"]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListTournamentsResponse(_message.Message):
    __slots__ = ["next_page_token", "tournaments"]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENTS_FIELD_NUMBER: _ClassVar[int]
    next_page_token: str
    tournaments: _containers.RepeatedCompositeFieldContainer[Tournament]
    def __init__(self, tournaments: _Optional[_Iterable[_Union[Tournament, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class RecordTournamentRequest(_message.Message):
    __slots__ = ["duplicate", "entrants", "format", "game", "match_ids", "seats", "started"]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    ENTRANTS_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MATCH_IDS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    duplicate: bool
    entrants: _containers.RepeatedScalarFieldContainer[str]
    format: TournamentFormat
    game: str
    match_ids: _containers.RepeatedScalarFieldContainer[str]
    seats: int
    started: _timestamp_pb2.Timestamp
    def __init__(self, game: _Optional[str] = ..., format: _Optional[_Union[TournamentFormat, str]] = ..., seats: _Optional[int] = ..., entrants: _Optional[_Iterable[str]] = ..., duplicate: bool = ..., started: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., match_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class RecordTournamentResponse(_message.Message):
    __slots__ = ["tournament"]
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class Tournament(_message.Message):
    __slots__ = ["absent", "clock", "duplicate", "entrants", "finished", "format", "game", "match_ids", "matches", "matches_ended", "matches_running", "matches_total", "options", "parallel", "recorded", "seats", "seed", "standings", "started", "status", "timeout_policy", "tournament_id"]
    class OptionsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ABSENT_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    ENTRANTS_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MATCHES_ENDED_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    MATCHES_RUNNING_FIELD_NUMBER: _ClassVar[int]
    MATCHES_TOTAL_FIELD_NUMBER: _ClassVar[int]
    MATCH_IDS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PARALLEL_FIELD_NUMBER: _ClassVar[int]
    RECORDED_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_POLICY_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    absent: AbsentPolicy
    clock: _arena_pb2.Clock
    duplicate: bool
    entrants: _containers.RepeatedScalarFieldContainer[str]
    finished: _timestamp_pb2.Timestamp
    format: TournamentFormat
    game: str
    match_ids: _containers.RepeatedScalarFieldContainer[str]
    matches: _containers.RepeatedCompositeFieldContainer[TournamentMatch]
    matches_ended: int
    matches_running: int
    matches_total: int
    options: _containers.ScalarMap[str, str]
    parallel: int
    recorded: bool
    seats: int
    seed: int
    standings: _containers.RepeatedCompositeFieldContainer[TournamentStanding]
    started: _timestamp_pb2.Timestamp
    status: TournamentStatus
    timeout_policy: _arena_pb2.TimeoutPolicy
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ..., game: _Optional[str] = ..., format: _Optional[_Union[TournamentFormat, str]] = ..., seats: _Optional[int] = ..., entrants: _Optional[_Iterable[str]] = ..., duplicate: bool = ..., started: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., finished: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., match_ids: _Optional[_Iterable[str]] = ..., standings: _Optional[_Iterable[_Union[TournamentStanding, _Mapping]]] = ..., status: _Optional[_Union[TournamentStatus, str]] = ..., recorded: bool = ..., matches_total: _Optional[int] = ..., matches_ended: _Optional[int] = ..., matches_running: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., clock: _Optional[_Union[_arena_pb2.Clock, _Mapping]] = ..., timeout_policy: _Optional[_Union[_arena_pb2.TimeoutPolicy, str]] = ..., absent: _Optional[_Union[AbsentPolicy, str]] = ..., parallel: _Optional[int] = ..., seed: _Optional[int] = ..., matches: _Optional[_Iterable[_Union[TournamentMatch, _Mapping]]] = ...) -> None: ...

class TournamentMatch(_message.Message):
    __slots__ = ["end_reason", "ended", "entrants", "forfeited", "match_id", "ranks", "round", "seq", "set"]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    ENTRANTS_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SET_FIELD_NUMBER: _ClassVar[int]
    end_reason: _arena_pb2.EndReason
    ended: bool
    entrants: _containers.RepeatedScalarFieldContainer[str]
    forfeited: _containers.RepeatedScalarFieldContainer[str]
    match_id: str
    ranks: _containers.RepeatedScalarFieldContainer[int]
    round: int
    seq: int
    set: int
    def __init__(self, seq: _Optional[int] = ..., round: _Optional[int] = ..., set: _Optional[int] = ..., entrants: _Optional[_Iterable[str]] = ..., match_id: _Optional[str] = ..., ranks: _Optional[_Iterable[int]] = ..., ended: bool = ..., forfeited: _Optional[_Iterable[str]] = ..., end_reason: _Optional[_Union[_arena_pb2.EndReason, str]] = ...) -> None: ...

class TournamentStanding(_message.Message):
    __slots__ = ["entrant", "matches", "mean_rank", "mean_rank_ci", "place", "points", "win_rate", "win_rate_high", "win_rate_low", "wins"]
    ENTRANT_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    MEAN_RANK_CI_FIELD_NUMBER: _ClassVar[int]
    MEAN_RANK_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    WIN_RATE_FIELD_NUMBER: _ClassVar[int]
    WIN_RATE_HIGH_FIELD_NUMBER: _ClassVar[int]
    WIN_RATE_LOW_FIELD_NUMBER: _ClassVar[int]
    entrant: str
    matches: int
    mean_rank: float
    mean_rank_ci: float
    place: int
    points: float
    win_rate: float
    win_rate_high: float
    win_rate_low: float
    wins: int
    def __init__(self, place: _Optional[int] = ..., entrant: _Optional[str] = ..., matches: _Optional[int] = ..., wins: _Optional[int] = ..., win_rate: _Optional[float] = ..., win_rate_low: _Optional[float] = ..., win_rate_high: _Optional[float] = ..., mean_rank: _Optional[float] = ..., mean_rank_ci: _Optional[float] = ..., points: _Optional[float] = ...) -> None: ...

class WatchTournamentRequest(_message.Message):
    __slots__ = ["tournament_id"]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class WatchTournamentResponse(_message.Message):
    __slots__ = ["tournament"]
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class TournamentFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class TournamentStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class AbsentPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
