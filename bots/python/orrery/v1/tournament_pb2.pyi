from orrery.v1 import arena_pb2 as _arena_pb2
from orrery.v1 import ladder_pb2 as _ladder_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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
    absent: _ladder_pb2.AbsentPolicy
    clock: _arena_pb2.Clock
    duplicate: bool
    entrants: _containers.RepeatedScalarFieldContainer[str]
    format: _ladder_pb2.TournamentFormat
    game: str
    games: int
    options: _containers.ScalarMap[str, str]
    parallel: int
    seats: int
    seed: int
    timeout_policy: _arena_pb2.TimeoutPolicy
    def __init__(self, game: _Optional[str] = ..., format: _Optional[_Union[_ladder_pb2.TournamentFormat, str]] = ..., seats: _Optional[int] = ..., entrants: _Optional[_Iterable[str]] = ..., duplicate: bool = ..., games: _Optional[int] = ..., parallel: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., clock: _Optional[_Union[_arena_pb2.Clock, _Mapping]] = ..., timeout_policy: _Optional[_Union[_arena_pb2.TimeoutPolicy, str]] = ..., absent: _Optional[_Union[_ladder_pb2.AbsentPolicy, str]] = ..., seed: _Optional[int] = ...) -> None: ...

class CreateTournamentResponse(_message.Message):
    __slots__ = ["tournament"]
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: _ladder_pb2.Tournament
    def __init__(self, tournament: _Optional[_Union[_ladder_pb2.Tournament, _Mapping]] = ...) -> None: ...

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
    tournaments: _containers.RepeatedCompositeFieldContainer[_ladder_pb2.Tournament]
    def __init__(self, tournaments: _Optional[_Iterable[_Union[_ladder_pb2.Tournament, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class WatchTournamentRequest(_message.Message):
    __slots__ = ["tournament_id"]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class WatchTournamentResponse(_message.Message):
    __slots__ = ["tournament"]
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: _ladder_pb2.Tournament
    def __init__(self, tournament: _Optional[_Union[_ladder_pb2.Tournament, _Mapping]] = ...) -> None: ...
