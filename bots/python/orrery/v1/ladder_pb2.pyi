from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BotInfo(_message.Message):
    __slots__ = ["connected", "created", "description", "house", "live_match_ids", "name", "pause_reason", "paused", "paused_until", "queued_games", "revoked", "timeout_streak"]
    CONNECTED_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    HOUSE_FIELD_NUMBER: _ClassVar[int]
    LIVE_MATCH_IDS_FIELD_NUMBER: _ClassVar[int]
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
    name: str
    pause_reason: str
    paused: bool
    paused_until: _timestamp_pb2.Timestamp
    queued_games: _containers.RepeatedScalarFieldContainer[str]
    revoked: bool
    timeout_streak: int
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., house: bool = ..., created: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., revoked: bool = ..., paused: bool = ..., pause_reason: _Optional[str] = ..., paused_until: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., timeout_streak: _Optional[int] = ..., connected: bool = ..., queued_games: _Optional[_Iterable[str]] = ..., live_match_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class BotRating(_message.Message):
    __slots__ = ["game", "games", "last_match_id", "mu", "score", "sigma", "wins"]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    LAST_MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    game: str
    games: int
    last_match_id: str
    mu: float
    score: float
    sigma: float
    wins: int
    def __init__(self, game: _Optional[str] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., score: _Optional[float] = ..., games: _Optional[int] = ..., wins: _Optional[int] = ..., last_match_id: _Optional[str] = ...) -> None: ...

class GetBotRequest(_message.Message):
    __slots__ = ["name", "recent_matches"]
    NAME_FIELD_NUMBER: _ClassVar[int]
    RECENT_MATCHES_FIELD_NUMBER: _ClassVar[int]
    name: str
    recent_matches: int
    def __init__(self, name: _Optional[str] = ..., recent_matches: _Optional[int] = ...) -> None: ...

class GetBotResponse(_message.Message):
    __slots__ = ["bot", "ratings", "recent"]
    BOT_FIELD_NUMBER: _ClassVar[int]
    RATINGS_FIELD_NUMBER: _ClassVar[int]
    RECENT_FIELD_NUMBER: _ClassVar[int]
    bot: BotInfo
    ratings: _containers.RepeatedCompositeFieldContainer[BotRating]
    recent: _containers.RepeatedCompositeFieldContainer[RatedMatch]
    def __init__(self, bot: _Optional[_Union[BotInfo, _Mapping]] = ..., ratings: _Optional[_Iterable[_Union[BotRating, _Mapping]]] = ..., recent: _Optional[_Iterable[_Union[RatedMatch, _Mapping]]] = ...) -> None: ...

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

class LeaderboardEntry(_message.Message):
    __slots__ = ["bot", "connected", "game", "games", "house", "last_match_id", "mu", "paused", "rank", "score", "sigma", "wins"]
    BOT_FIELD_NUMBER: _ClassVar[int]
    CONNECTED_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    HOUSE_FIELD_NUMBER: _ClassVar[int]
    LAST_MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    PAUSED_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
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
    rank: int
    score: float
    sigma: float
    wins: int
    def __init__(self, rank: _Optional[int] = ..., game: _Optional[str] = ..., bot: _Optional[str] = ..., house: bool = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., score: _Optional[float] = ..., games: _Optional[int] = ..., wins: _Optional[int] = ..., last_match_id: _Optional[str] = ..., connected: bool = ..., paused: bool = ...) -> None: ...

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
