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

class BotInfo(_message.Message):
    __slots__ = ["connected", "created", "description", "house", "live_match_ids", "modules", "name", "pause_reason", "paused", "paused_until", "queued_games", "revoked", "timeout_streak"]
    CONNECTED_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    HOUSE_FIELD_NUMBER: _ClassVar[int]
    LIVE_MATCH_IDS_FIELD_NUMBER: _ClassVar[int]
    MODULES_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PAUSED_FIELD_NUMBER: _ClassVar[int]
    PAUSED_UNTIL_FIELD_NUMBER: _ClassVar[int]
    PAUSE_REASON_FIELD_NUMBER: _ClassVar[int]
    QUEUED_GAMES_FIELD_NUMBER: _ClassVar[int]
    REVOKED_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_STREAK_FIELD_NUMBER: _ClassVar[int]
    connected: bool
    created: _timestamp_pb2.Timestamp
    description: str
    house: bool
    live_match_ids: _containers.RepeatedScalarFieldContainer[str]
    modules: _containers.RepeatedCompositeFieldContainer[BotModule]
    name: str
    pause_reason: str
    paused: bool
    paused_until: _timestamp_pb2.Timestamp
    queued_games: _containers.RepeatedScalarFieldContainer[str]
    revoked: bool
    timeout_streak: int
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., house: bool = ..., created: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., revoked: bool = ..., paused: bool = ..., pause_reason: _Optional[str] = ..., paused_until: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., timeout_streak: _Optional[int] = ..., connected: bool = ..., queued_games: _Optional[_Iterable[str]] = ..., live_match_ids: _Optional[_Iterable[str]] = ..., modules: _Optional[_Iterable[_Union[BotModule, _Mapping]]] = ...) -> None: ...

class BotModule(_message.Message):
    __slots__ = ["digest", "games", "size", "uploaded", "version"]
    DIGEST_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    UPLOADED_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    digest: str
    games: _containers.RepeatedScalarFieldContainer[str]
    size: int
    uploaded: _timestamp_pb2.Timestamp
    version: int
    def __init__(self, version: _Optional[int] = ..., digest: _Optional[str] = ..., size: _Optional[int] = ..., games: _Optional[_Iterable[str]] = ..., uploaded: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class BotRating(_message.Message):
    __slots__ = ["game", "games", "last_match_id", "mu", "provisional", "score", "sigma", "wins"]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    LAST_MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    PROVISIONAL_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    game: str
    games: int
    last_match_id: str
    mu: float
    provisional: bool
    score: float
    sigma: float
    wins: int
    def __init__(self, game: _Optional[str] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., score: _Optional[float] = ..., games: _Optional[int] = ..., wins: _Optional[int] = ..., last_match_id: _Optional[str] = ..., provisional: bool = ...) -> None: ...

class GetBotRequest(_message.Message):
    __slots__ = ["match_id", "name", "recent_matches"]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    RECENT_MATCHES_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    name: str
    recent_matches: int
    def __init__(self, name: _Optional[str] = ..., recent_matches: _Optional[int] = ..., match_id: _Optional[str] = ...) -> None: ...

class GetBotResponse(_message.Message):
    __slots__ = ["bot", "hosted_seats", "ratings", "recent", "stderr", "verdicts"]
    class VerdictsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    BOT_FIELD_NUMBER: _ClassVar[int]
    HOSTED_SEATS_FIELD_NUMBER: _ClassVar[int]
    RATINGS_FIELD_NUMBER: _ClassVar[int]
    RECENT_FIELD_NUMBER: _ClassVar[int]
    STDERR_FIELD_NUMBER: _ClassVar[int]
    VERDICTS_FIELD_NUMBER: _ClassVar[int]
    bot: BotInfo
    hosted_seats: _containers.RepeatedCompositeFieldContainer[HostedSeat]
    ratings: _containers.RepeatedCompositeFieldContainer[BotRating]
    recent: _containers.RepeatedCompositeFieldContainer[RatedMatch]
    stderr: str
    verdicts: _containers.ScalarMap[str, int]
    def __init__(self, bot: _Optional[_Union[BotInfo, _Mapping]] = ..., ratings: _Optional[_Iterable[_Union[BotRating, _Mapping]]] = ..., recent: _Optional[_Iterable[_Union[RatedMatch, _Mapping]]] = ..., verdicts: _Optional[_Mapping[str, int]] = ..., hosted_seats: _Optional[_Iterable[_Union[HostedSeat, _Mapping]]] = ..., stderr: _Optional[str] = ...) -> None: ...

class GetLeaderboardRequest(_message.Message):
    __slots__ = ["exclude_house", "game", "page_size"]
    EXCLUDE_HOUSE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    exclude_house: bool
    game: str
    page_size: int
    def __init__(self, game: _Optional[str] = ..., page_size: _Optional[int] = ..., exclude_house: bool = ...) -> None: ...

class GetLeaderboardResponse(_message.Message):
    __slots__ = ["entries"]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedCompositeFieldContainer[LeaderboardEntry]
    def __init__(self, entries: _Optional[_Iterable[_Union[LeaderboardEntry, _Mapping]]] = ...) -> None: ...

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

class HostedSeat(_message.Message):
    __slots__ = ["cpu_ns", "decisions", "match_id", "seat", "verdict", "verdict_detail", "version"]
    CPU_NS_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VERDICT_DETAIL_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    cpu_ns: int
    decisions: int
    match_id: str
    seat: int
    verdict: str
    verdict_detail: str
    version: int
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., version: _Optional[int] = ..., verdict: _Optional[str] = ..., verdict_detail: _Optional[str] = ..., decisions: _Optional[int] = ..., cpu_ns: _Optional[int] = ...) -> None: ...

class LeaderboardEntry(_message.Message):
    __slots__ = ["bot", "connected", "game", "games", "house", "last_match_id", "mu", "paused", "provisional", "rank", "revoked", "score", "sigma", "wins"]
    BOT_FIELD_NUMBER: _ClassVar[int]
    CONNECTED_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    HOUSE_FIELD_NUMBER: _ClassVar[int]
    LAST_MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    PAUSED_FIELD_NUMBER: _ClassVar[int]
    PROVISIONAL_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    REVOKED_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    bot: str
    connected: bool
    game: str
    games: int
    house: bool
    last_match_id: str
    mu: float
    paused: bool
    provisional: bool
    rank: int
    revoked: bool
    score: float
    sigma: float
    wins: int
    def __init__(self, rank: _Optional[int] = ..., game: _Optional[str] = ..., bot: _Optional[str] = ..., house: bool = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., score: _Optional[float] = ..., games: _Optional[int] = ..., wins: _Optional[int] = ..., last_match_id: _Optional[str] = ..., connected: bool = ..., paused: bool = ..., provisional: bool = ..., revoked: bool = ...) -> None: ...

class ListBotsRequest(_message.Message):
    __slots__ = ["exclude_house", "page_size", "page_token"]
    EXCLUDE_HOUSE_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    exclude_house: bool
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., exclude_house: bool = ...) -> None: ...

class ListBotsResponse(_message.Message):
    __slots__ = ["bots", "next_page_token"]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedCompositeFieldContainer[BotInfo]
    next_page_token: str
    def __init__(self, bots: _Optional[_Iterable[_Union[BotInfo, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class RatedMatch(_message.Message):
    __slots__ = ["game", "match_id", "mu_after", "mu_before", "rank", "rated", "seat", "seats", "sigma_after", "sigma_before"]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    MU_AFTER_FIELD_NUMBER: _ClassVar[int]
    MU_BEFORE_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SIGMA_AFTER_FIELD_NUMBER: _ClassVar[int]
    SIGMA_BEFORE_FIELD_NUMBER: _ClassVar[int]
    game: str
    match_id: str
    mu_after: float
    mu_before: float
    rank: int
    rated: _timestamp_pb2.Timestamp
    seat: int
    seats: int
    sigma_after: float
    sigma_before: float
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., seat: _Optional[int] = ..., seats: _Optional[int] = ..., rank: _Optional[int] = ..., mu_before: _Optional[float] = ..., sigma_before: _Optional[float] = ..., mu_after: _Optional[float] = ..., sigma_after: _Optional[float] = ..., rated: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

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

class RegisterBotRequest(_message.Message):
    __slots__ = ["description", "name"]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    description: str
    name: str
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ...) -> None: ...

class RegisterBotResponse(_message.Message):
    __slots__ = ["api_key", "bot"]
    API_KEY_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    api_key: str
    bot: BotInfo
    def __init__(self, bot: _Optional[_Union[BotInfo, _Mapping]] = ..., api_key: _Optional[str] = ...) -> None: ...

class ResumeBotRequest(_message.Message):
    __slots__ = ["name"]
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class ResumeBotResponse(_message.Message):
    __slots__ = ["bot"]
    BOT_FIELD_NUMBER: _ClassVar[int]
    bot: BotInfo
    def __init__(self, bot: _Optional[_Union[BotInfo, _Mapping]] = ...) -> None: ...

class RevokeBotRequest(_message.Message):
    __slots__ = ["name"]
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class RevokeBotResponse(_message.Message):
    __slots__ = ["bot"]
    BOT_FIELD_NUMBER: _ClassVar[int]
    bot: BotInfo
    def __init__(self, bot: _Optional[_Union[BotInfo, _Mapping]] = ...) -> None: ...

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
    __slots__ = ["entrant", "matches", "mean_rank", "mean_rank_ci", "place", "points", "win_rate", "win_rate_high", "win_rate_low", "win_share", "win_share_high", "win_share_low", "wins"]
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
    WIN_SHARE_FIELD_NUMBER: _ClassVar[int]
    WIN_SHARE_HIGH_FIELD_NUMBER: _ClassVar[int]
    WIN_SHARE_LOW_FIELD_NUMBER: _ClassVar[int]
    entrant: str
    matches: int
    mean_rank: float
    mean_rank_ci: float
    place: int
    points: float
    win_rate: float
    win_rate_high: float
    win_rate_low: float
    win_share: float
    win_share_high: float
    win_share_low: float
    wins: int
    def __init__(self, place: _Optional[int] = ..., entrant: _Optional[str] = ..., matches: _Optional[int] = ..., wins: _Optional[int] = ..., win_rate: _Optional[float] = ..., win_rate_low: _Optional[float] = ..., win_rate_high: _Optional[float] = ..., mean_rank: _Optional[float] = ..., mean_rank_ci: _Optional[float] = ..., points: _Optional[float] = ..., win_share: _Optional[float] = ..., win_share_low: _Optional[float] = ..., win_share_high: _Optional[float] = ...) -> None: ...

class UploadBotModuleRequest(_message.Message):
    __slots__ = ["games", "name", "wasm"]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    WASM_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedScalarFieldContainer[str]
    name: str
    wasm: bytes
    def __init__(self, name: _Optional[str] = ..., wasm: _Optional[bytes] = ..., games: _Optional[_Iterable[str]] = ...) -> None: ...

class UploadBotModuleResponse(_message.Message):
    __slots__ = ["module"]
    MODULE_FIELD_NUMBER: _ClassVar[int]
    module: BotModule
    def __init__(self, module: _Optional[_Union[BotModule, _Mapping]] = ...) -> None: ...

class TournamentFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class TournamentStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class AbsentPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
