from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
HABITAT_DESERT: Habitat
HABITAT_FOREST: Habitat
HABITAT_GLACIER: Habitat
HABITAT_MOUNTAIN: Habitat
HABITAT_OCEAN: Habitat
HABITAT_UNSPECIFIED: Habitat
REQUIREMENT_KIND_LARGEST_NOT_TOUCHING: RequirementKind
REQUIREMENT_KIND_LARGEST_TOUCHING: RequirementKind
REQUIREMENT_KIND_MOST_REGIONS: RequirementKind
REQUIREMENT_KIND_UNSPECIFIED: RequirementKind

class Action(_message.Message):
    __slots__ = ["place"]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    place: Place
    def __init__(self, place: _Optional[_Union[Place, _Mapping]] = ...) -> None: ...

class AnimalCard(_message.Message):
    __slots__ = ["habitat", "id", "kind", "name", "other", "requirement"]
    HABITAT_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    OTHER_FIELD_NUMBER: _ClassVar[int]
    REQUIREMENT_FIELD_NUMBER: _ClassVar[int]
    habitat: Habitat
    id: int
    kind: RequirementKind
    name: str
    other: Habitat
    requirement: str
    def __init__(self, id: _Optional[int] = ..., name: _Optional[str] = ..., habitat: _Optional[_Union[Habitat, str]] = ..., kind: _Optional[_Union[RequirementKind, str]] = ..., other: _Optional[_Union[Habitat, str]] = ..., requirement: _Optional[str] = ...) -> None: ...

class AnimalCarried(_message.Message):
    __slots__ = ["card", "to_turn", "turn"]
    CARD_FIELD_NUMBER: _ClassVar[int]
    TO_TURN_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    card: AnimalCard
    to_turn: int
    turn: int
    def __init__(self, turn: _Optional[int] = ..., card: _Optional[_Union[AnimalCard, _Mapping]] = ..., to_turn: _Optional[int] = ...) -> None: ...

class AnimalReturned(_message.Message):
    __slots__ = ["card", "turn"]
    CARD_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    card: AnimalCard
    turn: int
    def __init__(self, turn: _Optional[int] = ..., card: _Optional[_Union[AnimalCard, _Mapping]] = ...) -> None: ...

class AnimalWon(_message.Message):
    __slots__ = ["card", "seat", "tie_break", "turn", "value"]
    CARD_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TIE_BREAK_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    card: AnimalCard
    seat: int
    tie_break: int
    turn: int
    value: int
    def __init__(self, turn: _Optional[int] = ..., card: _Optional[_Union[AnimalCard, _Mapping]] = ..., seat: _Optional[int] = ..., value: _Optional[int] = ..., tie_break: _Optional[int] = ...) -> None: ...

class Area(_message.Message):
    __slots__ = ["corners", "edge", "face", "id", "neighbours"]
    CORNERS_FIELD_NUMBER: _ClassVar[int]
    EDGE_FIELD_NUMBER: _ClassVar[int]
    FACE_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    NEIGHBOURS_FIELD_NUMBER: _ClassVar[int]
    corners: _containers.RepeatedCompositeFieldContainer[Point]
    edge: int
    face: int
    id: int
    neighbours: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, id: _Optional[int] = ..., face: _Optional[int] = ..., edge: _Optional[int] = ..., corners: _Optional[_Iterable[_Union[Point, _Mapping]]] = ..., neighbours: _Optional[_Iterable[int]] = ...) -> None: ...

class Catalog(_message.Message):
    __slots__ = ["animals", "areas", "faces", "layout", "objectives", "tiles", "vertices"]
    ANIMALS_FIELD_NUMBER: _ClassVar[int]
    AREAS_FIELD_NUMBER: _ClassVar[int]
    FACES_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVES_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    VERTICES_FIELD_NUMBER: _ClassVar[int]
    animals: _containers.RepeatedCompositeFieldContainer[AnimalCard]
    areas: _containers.RepeatedCompositeFieldContainer[Area]
    faces: _containers.RepeatedCompositeFieldContainer[Face]
    layout: _containers.RepeatedScalarFieldContainer[int]
    objectives: _containers.RepeatedCompositeFieldContainer[Objective]
    tiles: _containers.RepeatedCompositeFieldContainer[Tile]
    vertices: _containers.RepeatedCompositeFieldContainer[Point]
    def __init__(self, vertices: _Optional[_Iterable[_Union[Point, _Mapping]]] = ..., faces: _Optional[_Iterable[_Union[Face, _Mapping]]] = ..., areas: _Optional[_Iterable[_Union[Area, _Mapping]]] = ..., tiles: _Optional[_Iterable[_Union[Tile, _Mapping]]] = ..., animals: _Optional[_Iterable[_Union[AnimalCard, _Mapping]]] = ..., objectives: _Optional[_Iterable[_Union[Objective, _Mapping]]] = ..., layout: _Optional[_Iterable[int]] = ...) -> None: ...

class Column(_message.Message):
    __slots__ = ["cards", "face_down", "turn"]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[AnimalCard]
    face_down: int
    turn: int
    def __init__(self, turn: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[AnimalCard, _Mapping]]] = ..., face_down: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ["animal_carried", "animal_returned", "animal_won", "first_player_passed", "game_ended", "leftover_stored", "mystery_revealed", "objective_dealt", "tile_placed", "turn_started"]
    ANIMAL_CARRIED_FIELD_NUMBER: _ClassVar[int]
    ANIMAL_RETURNED_FIELD_NUMBER: _ClassVar[int]
    ANIMAL_WON_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_PASSED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    LEFTOVER_STORED_FIELD_NUMBER: _ClassVar[int]
    MYSTERY_REVEALED_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_DEALT_FIELD_NUMBER: _ClassVar[int]
    TILE_PLACED_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    animal_carried: AnimalCarried
    animal_returned: AnimalReturned
    animal_won: AnimalWon
    first_player_passed: FirstPlayerPassed
    game_ended: GameEnded
    leftover_stored: LeftoverStored
    mystery_revealed: MysteryRevealed
    objective_dealt: ObjectiveDealt
    tile_placed: TilePlaced
    turn_started: TurnStarted
    def __init__(self, objective_dealt: _Optional[_Union[ObjectiveDealt, _Mapping]] = ..., turn_started: _Optional[_Union[TurnStarted, _Mapping]] = ..., tile_placed: _Optional[_Union[TilePlaced, _Mapping]] = ..., leftover_stored: _Optional[_Union[LeftoverStored, _Mapping]] = ..., animal_won: _Optional[_Union[AnimalWon, _Mapping]] = ..., animal_carried: _Optional[_Union[AnimalCarried, _Mapping]] = ..., animal_returned: _Optional[_Union[AnimalReturned, _Mapping]] = ..., first_player_passed: _Optional[_Union[FirstPlayerPassed, _Mapping]] = ..., mystery_revealed: _Optional[_Union[MysteryRevealed, _Mapping]] = ..., game_ended: _Optional[_Union[GameEnded, _Mapping]] = ...) -> None: ...

class Face(_message.Message):
    __slots__ = ["areas", "center", "id", "neighbours", "vertices"]
    AREAS_FIELD_NUMBER: _ClassVar[int]
    CENTER_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    NEIGHBOURS_FIELD_NUMBER: _ClassVar[int]
    VERTICES_FIELD_NUMBER: _ClassVar[int]
    areas: _containers.RepeatedScalarFieldContainer[int]
    center: Point
    id: int
    neighbours: _containers.RepeatedScalarFieldContainer[int]
    vertices: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, id: _Optional[int] = ..., vertices: _Optional[_Iterable[int]] = ..., center: _Optional[_Union[Point, _Mapping]] = ..., neighbours: _Optional[_Iterable[int]] = ..., areas: _Optional[_Iterable[int]] = ...) -> None: ...

class FirstPlayerPassed(_message.Message):
    __slots__ = ["seat"]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ["planets", "ranks", "result"]
    PLANETS_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    planets: _containers.RepeatedCompositeFieldContainer[Planet]
    ranks: _containers.RepeatedScalarFieldContainer[int]
    result: str
    def __init__(self, planets: _Optional[_Iterable[_Union[Planet, _Mapping]]] = ..., ranks: _Optional[_Iterable[int]] = ..., result: _Optional[str] = ...) -> None: ...

class LeftoverStored(_message.Message):
    __slots__ = ["stack", "tile"]
    STACK_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    stack: int
    tile: int
    def __init__(self, tile: _Optional[int] = ..., stack: _Optional[int] = ...) -> None: ...

class MysteryRevealed(_message.Message):
    __slots__ = ["card", "turn"]
    CARD_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    card: AnimalCard
    turn: int
    def __init__(self, turn: _Optional[int] = ..., card: _Optional[_Union[AnimalCard, _Mapping]] = ...) -> None: ...

class Objective(_message.Message):
    __slots__ = ["habitat", "steps"]
    HABITAT_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    habitat: Habitat
    steps: _containers.RepeatedCompositeFieldContainer[ScaleStep]
    def __init__(self, habitat: _Optional[_Union[Habitat, str]] = ..., steps: _Optional[_Iterable[_Union[ScaleStep, _Mapping]]] = ...) -> None: ...

class ObjectiveDealt(_message.Message):
    __slots__ = ["habitat", "seat"]
    HABITAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    habitat: Habitat
    seat: int
    def __init__(self, seat: _Optional[int] = ..., habitat: _Optional[_Union[Habitat, str]] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ["beginners", "box", "columns", "display", "first_player", "last_turn", "mystery", "mystery_ahead", "over", "planets", "result", "returned", "rotate_first_player", "seat", "seats", "stacks", "to_act", "turn"]
    BEGINNERS_FIELD_NUMBER: _ClassVar[int]
    BOX_FIELD_NUMBER: _ClassVar[int]
    COLUMNS_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    LAST_TURN_FIELD_NUMBER: _ClassVar[int]
    MYSTERY_AHEAD_FIELD_NUMBER: _ClassVar[int]
    MYSTERY_FIELD_NUMBER: _ClassVar[int]
    OVER_FIELD_NUMBER: _ClassVar[int]
    PLANETS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    RETURNED_FIELD_NUMBER: _ClassVar[int]
    ROTATE_FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STACKS_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    beginners: bool
    box: _containers.RepeatedCompositeFieldContainer[Tile]
    columns: _containers.RepeatedCompositeFieldContainer[Column]
    display: _containers.RepeatedCompositeFieldContainer[Tile]
    first_player: int
    last_turn: int
    mystery: bool
    mystery_ahead: int
    over: bool
    planets: _containers.RepeatedCompositeFieldContainer[Planet]
    result: str
    returned: _containers.RepeatedCompositeFieldContainer[AnimalCard]
    rotate_first_player: bool
    seat: int
    seats: int
    stacks: _containers.RepeatedCompositeFieldContainer[Stack]
    to_act: _containers.RepeatedScalarFieldContainer[int]
    turn: int
    def __init__(self, seat: _Optional[int] = ..., seats: _Optional[int] = ..., turn: _Optional[int] = ..., last_turn: _Optional[int] = ..., first_player: _Optional[int] = ..., to_act: _Optional[_Iterable[int]] = ..., display: _Optional[_Iterable[_Union[Tile, _Mapping]]] = ..., stacks: _Optional[_Iterable[_Union[Stack, _Mapping]]] = ..., box: _Optional[_Iterable[_Union[Tile, _Mapping]]] = ..., planets: _Optional[_Iterable[_Union[Planet, _Mapping]]] = ..., columns: _Optional[_Iterable[_Union[Column, _Mapping]]] = ..., returned: _Optional[_Iterable[_Union[AnimalCard, _Mapping]]] = ..., beginners: bool = ..., mystery: bool = ..., over: bool = ..., result: _Optional[str] = ..., rotate_first_player: bool = ..., mystery_ahead: _Optional[int] = ...) -> None: ...

class Place(_message.Message):
    __slots__ = ["face", "rotation", "tile"]
    FACE_FIELD_NUMBER: _ClassVar[int]
    ROTATION_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    face: int
    rotation: int
    tile: int
    def __init__(self, tile: _Optional[int] = ..., face: _Optional[int] = ..., rotation: _Optional[int] = ...) -> None: ...

class PlacedTile(_message.Message):
    __slots__ = ["face", "rotation", "tile"]
    FACE_FIELD_NUMBER: _ClassVar[int]
    ROTATION_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    face: int
    rotation: int
    tile: Tile
    def __init__(self, face: _Optional[int] = ..., tile: _Optional[_Union[Tile, _Mapping]] = ..., rotation: _Optional[int] = ...) -> None: ...

class Planet(_message.Message):
    __slots__ = ["animal_points", "animals", "areas", "objective", "objective_points", "score", "seat", "tiles"]
    ANIMALS_FIELD_NUMBER: _ClassVar[int]
    ANIMAL_POINTS_FIELD_NUMBER: _ClassVar[int]
    AREAS_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_POINTS_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    animal_points: int
    animals: _containers.RepeatedCompositeFieldContainer[AnimalCard]
    areas: _containers.RepeatedScalarFieldContainer[Habitat]
    objective: Objective
    objective_points: int
    score: int
    seat: int
    tiles: _containers.RepeatedCompositeFieldContainer[PlacedTile]
    def __init__(self, seat: _Optional[int] = ..., tiles: _Optional[_Iterable[_Union[PlacedTile, _Mapping]]] = ..., areas: _Optional[_Iterable[_Union[Habitat, str]]] = ..., animals: _Optional[_Iterable[_Union[AnimalCard, _Mapping]]] = ..., objective: _Optional[_Union[Objective, _Mapping]] = ..., objective_points: _Optional[int] = ..., animal_points: _Optional[int] = ..., score: _Optional[int] = ...) -> None: ...

class Point(_message.Message):
    __slots__ = ["x", "y", "z"]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    Z_FIELD_NUMBER: _ClassVar[int]
    x: float
    y: float
    z: float
    def __init__(self, x: _Optional[float] = ..., y: _Optional[float] = ..., z: _Optional[float] = ...) -> None: ...

class ScaleStep(_message.Message):
    __slots__ = ["areas", "points"]
    AREAS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    areas: int
    points: int
    def __init__(self, areas: _Optional[int] = ..., points: _Optional[int] = ...) -> None: ...

class Stack(_message.Message):
    __slots__ = ["number", "size", "tiles"]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    number: int
    size: int
    tiles: _containers.RepeatedCompositeFieldContainer[Tile]
    def __init__(self, number: _Optional[int] = ..., size: _Optional[int] = ..., tiles: _Optional[_Iterable[_Union[Tile, _Mapping]]] = ...) -> None: ...

class Tile(_message.Message):
    __slots__ = ["areas", "id"]
    AREAS_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    areas: _containers.RepeatedScalarFieldContainer[Habitat]
    id: int
    def __init__(self, id: _Optional[int] = ..., areas: _Optional[_Iterable[_Union[Habitat, str]]] = ...) -> None: ...

class TilePlaced(_message.Message):
    __slots__ = ["place", "seat"]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    place: Place
    seat: int
    def __init__(self, seat: _Optional[int] = ..., place: _Optional[_Union[Place, _Mapping]] = ...) -> None: ...

class TurnStarted(_message.Message):
    __slots__ = ["display", "first_player", "turn"]
    DISPLAY_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    display: _containers.RepeatedCompositeFieldContainer[Tile]
    first_player: int
    turn: int
    def __init__(self, turn: _Optional[int] = ..., first_player: _Optional[int] = ..., display: _Optional[_Iterable[_Union[Tile, _Mapping]]] = ...) -> None: ...

class Habitat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class RequirementKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
