from orrery.v1 import arena_pb2 as _arena_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
VIEWER_OMNISCIENT: Viewer
VIEWER_SEAT: Viewer
VIEWER_UNSPECIFIED: Viewer

class GetViewRequest(_message.Message):
    __slots__ = ["from_event", "match_id", "max_events", "ply", "seat", "viewer"]
    FROM_EVENT_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    MAX_EVENTS_FIELD_NUMBER: _ClassVar[int]
    PLY_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    from_event: int
    match_id: str
    max_events: int
    ply: int
    seat: int
    viewer: Viewer
    def __init__(self, match_id: _Optional[str] = ..., ply: _Optional[int] = ..., viewer: _Optional[_Union[Viewer, str]] = ..., seat: _Optional[int] = ..., from_event: _Optional[int] = ..., max_events: _Optional[int] = ...) -> None: ...

class GetViewResponse(_message.Message):
    __slots__ = ["event_count", "events", "observation", "plies", "ply", "text", "to_act"]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    EVENT_COUNT_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    PLIES_FIELD_NUMBER: _ClassVar[int]
    PLY_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    event_count: int
    events: _containers.RepeatedCompositeFieldContainer[_arena_pb2.Event]
    observation: _arena_pb2.Observation
    plies: int
    ply: int
    text: str
    to_act: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, observation: _Optional[_Union[_arena_pb2.Observation, _Mapping]] = ..., text: _Optional[str] = ..., ply: _Optional[int] = ..., to_act: _Optional[_Iterable[int]] = ..., events: _Optional[_Iterable[_Union[_arena_pb2.Event, _Mapping]]] = ..., event_count: _Optional[int] = ..., plies: _Optional[int] = ...) -> None: ...

class Viewer(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
