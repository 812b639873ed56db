from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
OBSERVATION_ENCODING_SPARSE: ObservationEncoding
OBSERVATION_ENCODING_UNSPECIFIED: ObservationEncoding

class EnvironmentSpec(_message.Message):
    __slots__ = ["action_heads", "environments", "first", "observation_shape", "seats", "slices"]
    ACTION_HEADS_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENTS_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_SHAPE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SLICES_FIELD_NUMBER: _ClassVar[int]
    action_heads: _containers.RepeatedScalarFieldContainer[int]
    environments: int
    first: StepResults
    observation_shape: _containers.RepeatedScalarFieldContainer[int]
    seats: int
    slices: _containers.RepeatedCompositeFieldContainer[TensorSlice]
    def __init__(self, environments: _Optional[int] = ..., seats: _Optional[int] = ..., observation_shape: _Optional[_Iterable[int]] = ..., action_heads: _Optional[_Iterable[int]] = ..., slices: _Optional[_Iterable[_Union[TensorSlice, _Mapping]]] = ..., first: _Optional[_Union[StepResults, _Mapping]] = ...) -> None: ...

class OpenEnvironments(_message.Message):
    __slots__ = ["controlled_seats", "game", "max_episode_steps", "mcts_iterations", "observation_encoding", "opponents", "options", "seats", "seeds"]
    class OptionsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    CONTROLLED_SEATS_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MAX_EPISODE_STEPS_FIELD_NUMBER: _ClassVar[int]
    MCTS_ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_ENCODING_FIELD_NUMBER: _ClassVar[int]
    OPPONENTS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEEDS_FIELD_NUMBER: _ClassVar[int]
    controlled_seats: _containers.RepeatedScalarFieldContainer[int]
    game: str
    max_episode_steps: int
    mcts_iterations: int
    observation_encoding: ObservationEncoding
    opponents: _containers.RepeatedScalarFieldContainer[str]
    options: _containers.ScalarMap[str, str]
    seats: int
    seeds: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, game: _Optional[str] = ..., seats: _Optional[int] = ..., options: _Optional[_Mapping[str, str]] = ..., seeds: _Optional[_Iterable[int]] = ..., controlled_seats: _Optional[_Iterable[int]] = ..., opponents: _Optional[_Iterable[str]] = ..., max_episode_steps: _Optional[int] = ..., mcts_iterations: _Optional[int] = ..., observation_encoding: _Optional[_Union[ObservationEncoding, str]] = ...) -> None: ...

class StepEnvironments(_message.Message):
    __slots__ = ["action_ids"]
    ACTION_IDS_FIELD_NUMBER: _ClassVar[int]
    action_ids: bytes
    def __init__(self, action_ids: _Optional[bytes] = ...) -> None: ...

class StepResults(_message.Message):
    __slots__ = ["episode_seeds", "episode_steps", "legal_counts", "legal_ids", "observation_indices", "observation_nonzeros", "observations", "rewards", "seats", "terminated", "truncated"]
    EPISODE_SEEDS_FIELD_NUMBER: _ClassVar[int]
    EPISODE_STEPS_FIELD_NUMBER: _ClassVar[int]
    LEGAL_COUNTS_FIELD_NUMBER: _ClassVar[int]
    LEGAL_IDS_FIELD_NUMBER: _ClassVar[int]
    OBSERVATIONS_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_INDICES_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_NONZEROS_FIELD_NUMBER: _ClassVar[int]
    REWARDS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TERMINATED_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    episode_seeds: _containers.RepeatedScalarFieldContainer[int]
    episode_steps: _containers.RepeatedScalarFieldContainer[int]
    legal_counts: _containers.RepeatedScalarFieldContainer[int]
    legal_ids: bytes
    observation_indices: bytes
    observation_nonzeros: _containers.RepeatedScalarFieldContainer[int]
    observations: bytes
    rewards: bytes
    seats: _containers.RepeatedScalarFieldContainer[int]
    terminated: bytes
    truncated: bytes
    def __init__(self, observations: _Optional[bytes] = ..., seats: _Optional[_Iterable[int]] = ..., legal_ids: _Optional[bytes] = ..., legal_counts: _Optional[_Iterable[int]] = ..., rewards: _Optional[bytes] = ..., terminated: _Optional[bytes] = ..., truncated: _Optional[bytes] = ..., episode_seeds: _Optional[_Iterable[int]] = ..., episode_steps: _Optional[_Iterable[int]] = ..., observation_indices: _Optional[bytes] = ..., observation_nonzeros: _Optional[_Iterable[int]] = ...) -> None: ...

class TensorSlice(_message.Message):
    __slots__ = ["name", "offset", "shape"]
    NAME_FIELD_NUMBER: _ClassVar[int]
    OFFSET_FIELD_NUMBER: _ClassVar[int]
    SHAPE_FIELD_NUMBER: _ClassVar[int]
    name: str
    offset: int
    shape: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, name: _Optional[str] = ..., shape: _Optional[_Iterable[int]] = ..., offset: _Optional[int] = ...) -> None: ...

class TrainRequest(_message.Message):
    __slots__ = ["open", "step"]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    open: OpenEnvironments
    step: StepEnvironments
    def __init__(self, open: _Optional[_Union[OpenEnvironments, _Mapping]] = ..., step: _Optional[_Union[StepEnvironments, _Mapping]] = ...) -> None: ...

class TrainResponse(_message.Message):
    __slots__ = ["results", "spec"]
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    results: StepResults
    spec: EnvironmentSpec
    def __init__(self, spec: _Optional[_Union[EnvironmentSpec, _Mapping]] = ..., results: _Optional[_Union[StepResults, _Mapping]] = ...) -> None: ...

class ObservationEncoding(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
