from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

ALIGNMENT_EVIL: Alignment
ALIGNMENT_GOOD: Alignment
ALIGNMENT_UNSPECIFIED: Alignment
COLOR_BLUE: Color
COLOR_GREEN: Color
COLOR_RED: Color
COLOR_UNSPECIFIED: Color
COLOR_YELLOW: Color
CONCENTRATION_KIND_ARMAGEDDON: ConcentrationKind
CONCENTRATION_KIND_ENTERPRISE: ConcentrationKind
CONCENTRATION_KIND_HYPERSPACE: ConcentrationKind
CONCENTRATION_KIND_REVOLT: ConcentrationKind
CONCENTRATION_KIND_UNSPECIFIED: ConcentrationKind
DESCRIPTOR: _descriptor.FileDescriptor
END_KIND_EVIL_WINS: EndKind
END_KIND_GOOD_WINS: EndKind
END_KIND_LAST_SURVIVOR: EndKind
END_KIND_NO_SURVIVOR: EndKind
END_KIND_PASS_CAP: EndKind
END_KIND_TURN_CAP: EndKind
END_KIND_UNSPECIFIED: EndKind
PHASE_ALIGNMENT: Phase
PHASE_OPENING_PICKS: Phase
PHASE_OVER: Phase
PHASE_PLAY: Phase
PHASE_REPICKS: Phase
PHASE_UNSPECIFIED: Phase
SIZE_LARGE: Size
SIZE_MEDIUM: Size
SIZE_SMALL: Size
SIZE_UNSPECIFIED: Size

class Action(_message.Message):
    __slots__ = ["add_ship", "attack", "choose_alignment", "choose_picks", "decline", "discover", "end_sacrifice", "enterprise", "grow", "move", "place_first_ship", "repick", "research", "revolt", "sacrifice", "trade"]
    ADD_SHIP_FIELD_NUMBER: _ClassVar[int]
    ATTACK_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_ALIGNMENT_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_PICKS_FIELD_NUMBER: _ClassVar[int]
    DECLINE_FIELD_NUMBER: _ClassVar[int]
    DISCOVER_FIELD_NUMBER: _ClassVar[int]
    END_SACRIFICE_FIELD_NUMBER: _ClassVar[int]
    ENTERPRISE_FIELD_NUMBER: _ClassVar[int]
    GROW_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIRST_SHIP_FIELD_NUMBER: _ClassVar[int]
    REPICK_FIELD_NUMBER: _ClassVar[int]
    RESEARCH_FIELD_NUMBER: _ClassVar[int]
    REVOLT_FIELD_NUMBER: _ClassVar[int]
    SACRIFICE_FIELD_NUMBER: _ClassVar[int]
    TRADE_FIELD_NUMBER: _ClassVar[int]
    add_ship: AddShip
    attack: Attack
    choose_alignment: ChooseAlignment
    choose_picks: ChoosePicks
    decline: Decline
    discover: Discover
    end_sacrifice: EndSacrifice
    enterprise: Enterprise
    grow: Grow
    move: Move
    place_first_ship: PlaceFirstShip
    repick: Repick
    research: Research
    revolt: Revolt
    sacrifice: Sacrifice
    trade: Trade
    def __init__(self, choose_alignment: _Optional[_Union[ChooseAlignment, _Mapping]] = ..., choose_picks: _Optional[_Union[ChoosePicks, _Mapping]] = ..., repick: _Optional[_Union[Repick, _Mapping]] = ..., place_first_ship: _Optional[_Union[PlaceFirstShip, _Mapping]] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., trade: _Optional[_Union[Trade, _Mapping]] = ..., grow: _Optional[_Union[Grow, _Mapping]] = ..., add_ship: _Optional[_Union[AddShip, _Mapping]] = ..., attack: _Optional[_Union[Attack, _Mapping]] = ..., discover: _Optional[_Union[Discover, _Mapping]] = ..., sacrifice: _Optional[_Union[Sacrifice, _Mapping]] = ..., research: _Optional[_Union[Research, _Mapping]] = ..., end_sacrifice: _Optional[_Union[EndSacrifice, _Mapping]] = ..., enterprise: _Optional[_Union[Enterprise, _Mapping]] = ..., revolt: _Optional[_Union[Revolt, _Mapping]] = ..., decline: _Optional[_Union[Decline, _Mapping]] = ..., **kwargs) -> None: ...

class ActionTaken(_message.Message):
    __slots__ = ["action", "notation", "redacted", "seat"]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    REDACTED_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    action: Action
    notation: str
    redacted: bool
    seat: int
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., notation: _Optional[str] = ..., redacted: bool = ...) -> None: ...

class AddShip(_message.Message):
    __slots__ = ["ship_id", "size", "system_id"]
    SHIP_ID_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    ship_id: int
    size: Size
    system_id: int
    def __init__(self, ship_id: _Optional[int] = ..., size: _Optional[_Union[Size, str]] = ..., system_id: _Optional[int] = ...) -> None: ...

class AlignmentAssigned(_message.Message):
    __slots__ = ["alignment", "seat"]
    ALIGNMENT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    alignment: Alignment
    seat: int
    def __init__(self, seat: _Optional[int] = ..., alignment: _Optional[_Union[Alignment, str]] = ...) -> None: ...

class AlignmentsRevealed(_message.Message):
    __slots__ = ["alignments"]
    ALIGNMENTS_FIELD_NUMBER: _ClassVar[int]
    alignments: _containers.RepeatedScalarFieldContainer[Alignment]
    def __init__(self, alignments: _Optional[_Iterable[_Union[Alignment, str]]] = ...) -> None: ...

class Attack(_message.Message):
    __slots__ = ["reduce_to", "ship_id", "target_id"]
    REDUCE_TO_FIELD_NUMBER: _ClassVar[int]
    SHIP_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_ID_FIELD_NUMBER: _ClassVar[int]
    reduce_to: Color
    ship_id: int
    target_id: int
    def __init__(self, ship_id: _Optional[int] = ..., target_id: _Optional[int] = ..., reduce_to: _Optional[_Union[Color, str]] = ...) -> None: ...

class Catalog(_message.Message):
    __slots__ = ["colors", "powers", "sizes"]
    COLORS_FIELD_NUMBER: _ClassVar[int]
    POWERS_FIELD_NUMBER: _ClassVar[int]
    SIZES_FIELD_NUMBER: _ClassVar[int]
    colors: _containers.RepeatedScalarFieldContainer[Color]
    powers: _containers.RepeatedCompositeFieldContainer[Power]
    sizes: _containers.RepeatedScalarFieldContainer[Size]
    def __init__(self, powers: _Optional[_Iterable[_Union[Power, _Mapping]]] = ..., colors: _Optional[_Iterable[_Union[Color, str]]] = ..., sizes: _Optional[_Iterable[_Union[Size, str]]] = ...) -> None: ...

class ChooseAlignment(_message.Message):
    __slots__ = ["alignment"]
    ALIGNMENT_FIELD_NUMBER: _ClassVar[int]
    alignment: Alignment
    def __init__(self, alignment: _Optional[_Union[Alignment, str]] = ...) -> None: ...

class ChoosePicks(_message.Message):
    __slots__ = ["first", "second"]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    SECOND_FIELD_NUMBER: _ClassVar[int]
    first: Piece
    second: Piece
    def __init__(self, first: _Optional[_Union[Piece, _Mapping]] = ..., second: _Optional[_Union[Piece, _Mapping]] = ...) -> None: ...

class Concentration(_message.Message):
    __slots__ = ["catalyst_ship_id", "causer", "effect", "in_hyperspace", "kind", "location_id"]
    CATALYST_SHIP_ID_FIELD_NUMBER: _ClassVar[int]
    CAUSER_FIELD_NUMBER: _ClassVar[int]
    EFFECT_FIELD_NUMBER: _ClassVar[int]
    IN_HYPERSPACE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOCATION_ID_FIELD_NUMBER: _ClassVar[int]
    catalyst_ship_id: int
    causer: int
    effect: str
    in_hyperspace: bool
    kind: ConcentrationKind
    location_id: int
    def __init__(self, kind: _Optional[_Union[ConcentrationKind, str]] = ..., location_id: _Optional[int] = ..., causer: _Optional[int] = ..., catalyst_ship_id: _Optional[int] = ..., in_hyperspace: bool = ..., effect: _Optional[str] = ...) -> None: ...

class Decline(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class Discover(_message.Message):
    __slots__ = ["ship_id"]
    SHIP_ID_FIELD_NUMBER: _ClassVar[int]
    ship_id: int
    def __init__(self, ship_id: _Optional[int] = ...) -> None: ...

class Eliminated(_message.Message):
    __slots__ = ["by", "seat"]
    BY_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    by: int
    seat: int
    def __init__(self, seat: _Optional[int] = ..., by: _Optional[int] = ...) -> None: ...

class EndSacrifice(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class Enterprise(_message.Message):
    __slots__ = ["piece"]
    PIECE_FIELD_NUMBER: _ClassVar[int]
    piece: Piece
    def __init__(self, piece: _Optional[_Union[Piece, _Mapping]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ["action_taken", "alignment_assigned", "alignments_revealed", "concentration", "eliminated", "first_player", "game_over", "hyperspace_closed", "picks_revealed", "turned_evil"]
    ACTION_TAKEN_FIELD_NUMBER: _ClassVar[int]
    ALIGNMENTS_REVEALED_FIELD_NUMBER: _ClassVar[int]
    ALIGNMENT_ASSIGNED_FIELD_NUMBER: _ClassVar[int]
    CONCENTRATION_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    FIRST_PLAYER_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    HYPERSPACE_CLOSED_FIELD_NUMBER: _ClassVar[int]
    PICKS_REVEALED_FIELD_NUMBER: _ClassVar[int]
    TURNED_EVIL_FIELD_NUMBER: _ClassVar[int]
    action_taken: ActionTaken
    alignment_assigned: AlignmentAssigned
    alignments_revealed: AlignmentsRevealed
    concentration: Concentration
    eliminated: Eliminated
    first_player: FirstPlayer
    game_over: GameOver
    hyperspace_closed: HyperspaceClosed
    picks_revealed: PicksRevealed
    turned_evil: TurnedEvil
    def __init__(self, action_taken: _Optional[_Union[ActionTaken, _Mapping]] = ..., alignment_assigned: _Optional[_Union[AlignmentAssigned, _Mapping]] = ..., picks_revealed: _Optional[_Union[PicksRevealed, _Mapping]] = ..., first_player: _Optional[_Union[FirstPlayer, _Mapping]] = ..., concentration: _Optional[_Union[Concentration, _Mapping]] = ..., hyperspace_closed: _Optional[_Union[HyperspaceClosed, _Mapping]] = ..., eliminated: _Optional[_Union[Eliminated, _Mapping]] = ..., alignments_revealed: _Optional[_Union[AlignmentsRevealed, _Mapping]] = ..., turned_evil: _Optional[_Union[TurnedEvil, _Mapping]] = ..., game_over: _Optional[_Union[GameOver, _Mapping]] = ...) -> None: ...

class FirstPlayer(_message.Message):
    __slots__ = ["first_pick_connections", "seat", "second_pick_connections"]
    FIRST_PICK_CONNECTIONS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SECOND_PICK_CONNECTIONS_FIELD_NUMBER: _ClassVar[int]
    first_pick_connections: _containers.RepeatedScalarFieldContainer[int]
    seat: int
    second_pick_connections: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., first_pick_connections: _Optional[_Iterable[int]] = ..., second_pick_connections: _Optional[_Iterable[int]] = ...) -> None: ...

class GameOver(_message.Message):
    __slots__ = ["alignments", "detail", "kind", "winners"]
    ALIGNMENTS_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    alignments: _containers.RepeatedScalarFieldContainer[Alignment]
    detail: str
    kind: EndKind
    winners: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, kind: _Optional[_Union[EndKind, str]] = ..., winners: _Optional[_Iterable[int]] = ..., alignments: _Optional[_Iterable[_Union[Alignment, str]]] = ..., detail: _Optional[str] = ...) -> None: ...

class Grow(_message.Message):
    __slots__ = ["ship_id"]
    SHIP_ID_FIELD_NUMBER: _ClassVar[int]
    ship_id: int
    def __init__(self, ship_id: _Optional[int] = ...) -> None: ...

class Hyperspace(_message.Message):
    __slots__ = ["id", "ships"]
    ID_FIELD_NUMBER: _ClassVar[int]
    SHIPS_FIELD_NUMBER: _ClassVar[int]
    id: int
    ships: _containers.RepeatedCompositeFieldContainer[Ship]
    def __init__(self, id: _Optional[int] = ..., ships: _Optional[_Iterable[_Union[Ship, _Mapping]]] = ...) -> None: ...

class HyperspaceClosed(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: int
    def __init__(self, id: _Optional[int] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ["ship_id", "to_id"]
    SHIP_ID_FIELD_NUMBER: _ClassVar[int]
    TO_ID_FIELD_NUMBER: _ClassVar[int]
    ship_id: int
    to_id: int
    def __init__(self, ship_id: _Optional[int] = ..., to_id: _Optional[int] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ["alignments_revealed", "consecutive_passes", "current_seat", "first_seat", "game_over", "hyperspaces", "pass_rounds_cap", "pending_concentration", "pending_repick", "pending_sacrifice", "phase", "players", "rules", "seat", "seats", "stash", "stash_per_kind", "systems", "to_act", "turn", "turn_cap"]
    ALIGNMENTS_REVEALED_FIELD_NUMBER: _ClassVar[int]
    CONSECUTIVE_PASSES_FIELD_NUMBER: _ClassVar[int]
    CURRENT_SEAT_FIELD_NUMBER: _ClassVar[int]
    FIRST_SEAT_FIELD_NUMBER: _ClassVar[int]
    GAME_OVER_FIELD_NUMBER: _ClassVar[int]
    HYPERSPACES_FIELD_NUMBER: _ClassVar[int]
    PASS_ROUNDS_CAP_FIELD_NUMBER: _ClassVar[int]
    PENDING_CONCENTRATION_FIELD_NUMBER: _ClassVar[int]
    PENDING_REPICK_FIELD_NUMBER: _ClassVar[int]
    PENDING_SACRIFICE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STASH_FIELD_NUMBER: _ClassVar[int]
    STASH_PER_KIND_FIELD_NUMBER: _ClassVar[int]
    SYSTEMS_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    TURN_CAP_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    alignments_revealed: bool
    consecutive_passes: int
    current_seat: int
    first_seat: int
    game_over: GameOver
    hyperspaces: _containers.RepeatedCompositeFieldContainer[Hyperspace]
    pass_rounds_cap: int
    pending_concentration: PendingConcentration
    pending_repick: PendingRepick
    pending_sacrifice: PendingSacrifice
    phase: Phase
    players: _containers.RepeatedCompositeFieldContainer[Player]
    rules: Rules
    seat: int
    seats: int
    stash: _containers.RepeatedCompositeFieldContainer[StashCount]
    stash_per_kind: int
    systems: _containers.RepeatedCompositeFieldContainer[System]
    to_act: _containers.RepeatedScalarFieldContainer[int]
    turn: int
    turn_cap: int
    def __init__(self, seat: _Optional[int] = ..., seats: _Optional[int] = ..., phase: _Optional[_Union[Phase, str]] = ..., turn: _Optional[int] = ..., current_seat: _Optional[int] = ..., first_seat: _Optional[int] = ..., to_act: _Optional[_Iterable[int]] = ..., stash: _Optional[_Iterable[_Union[StashCount, _Mapping]]] = ..., systems: _Optional[_Iterable[_Union[System, _Mapping]]] = ..., hyperspaces: _Optional[_Iterable[_Union[Hyperspace, _Mapping]]] = ..., players: _Optional[_Iterable[_Union[Player, _Mapping]]] = ..., alignments_revealed: bool = ..., pending_sacrifice: _Optional[_Union[PendingSacrifice, _Mapping]] = ..., pending_concentration: _Optional[_Union[PendingConcentration, _Mapping]] = ..., pending_repick: _Optional[_Union[PendingRepick, _Mapping]] = ..., turn_cap: _Optional[int] = ..., pass_rounds_cap: _Optional[int] = ..., consecutive_passes: _Optional[int] = ..., stash_per_kind: _Optional[int] = ..., game_over: _Optional[_Union[GameOver, _Mapping]] = ..., rules: _Optional[_Union[Rules, _Mapping]] = ...) -> None: ...

class Pass(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class PendingConcentration(_message.Message):
    __slots__ = ["catalyst_ship_id", "kind", "system_id"]
    CATALYST_SHIP_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    catalyst_ship_id: int
    kind: ConcentrationKind
    system_id: int
    def __init__(self, kind: _Optional[_Union[ConcentrationKind, str]] = ..., system_id: _Optional[int] = ..., catalyst_ship_id: _Optional[int] = ...) -> None: ...

class PendingRepick(_message.Message):
    __slots__ = ["seat", "slot"]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    slot: int
    def __init__(self, seat: _Optional[int] = ..., slot: _Optional[int] = ...) -> None: ...

class PendingSacrifice(_message.Message):
    __slots__ = ["sacrificed", "uses_left", "uses_total"]
    SACRIFICED_FIELD_NUMBER: _ClassVar[int]
    USES_LEFT_FIELD_NUMBER: _ClassVar[int]
    USES_TOTAL_FIELD_NUMBER: _ClassVar[int]
    sacrificed: Piece
    uses_left: int
    uses_total: int
    def __init__(self, sacrificed: _Optional[_Union[Piece, _Mapping]] = ..., uses_left: _Optional[int] = ..., uses_total: _Optional[int] = ...) -> None: ...

class PicksRevealed(_message.Message):
    __slots__ = ["picks"]
    PICKS_FIELD_NUMBER: _ClassVar[int]
    picks: _containers.RepeatedCompositeFieldContainer[SeatPicks]
    def __init__(self, picks: _Optional[_Iterable[_Union[SeatPicks, _Mapping]]] = ...) -> None: ...

class Piece(_message.Message):
    __slots__ = ["color", "size"]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    color: Color
    size: Size
    def __init__(self, color: _Optional[_Union[Color, str]] = ..., size: _Optional[_Union[Size, str]] = ...) -> None: ...

class PlaceFirstShip(_message.Message):
    __slots__ = ["color", "system_id"]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    color: Color
    system_id: int
    def __init__(self, color: _Optional[_Union[Color, str]] = ..., system_id: _Optional[int] = ...) -> None: ...

class Player(_message.Message):
    __slots__ = ["alignment", "alignment_chosen", "eliminated", "eliminated_by", "ever_large", "first_pick", "large_ships", "picks_chosen", "placed_first_ship", "seat", "second_pick", "ships", "turned_evil", "turns_taken"]
    ALIGNMENT_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    ALIGNMENT_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_BY_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    EVER_LARGE_FIELD_NUMBER: _ClassVar[int]
    FIRST_PICK_FIELD_NUMBER: _ClassVar[int]
    LARGE_SHIPS_FIELD_NUMBER: _ClassVar[int]
    PICKS_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    PLACED_FIRST_SHIP_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SECOND_PICK_FIELD_NUMBER: _ClassVar[int]
    SHIPS_FIELD_NUMBER: _ClassVar[int]
    TURNED_EVIL_FIELD_NUMBER: _ClassVar[int]
    TURNS_TAKEN_FIELD_NUMBER: _ClassVar[int]
    alignment: Alignment
    alignment_chosen: bool
    eliminated: bool
    eliminated_by: int
    ever_large: bool
    first_pick: Piece
    large_ships: int
    picks_chosen: bool
    placed_first_ship: bool
    seat: int
    second_pick: Piece
    ships: int
    turned_evil: bool
    turns_taken: int
    def __init__(self, seat: _Optional[int] = ..., alignment: _Optional[_Union[Alignment, str]] = ..., alignment_chosen: bool = ..., picks_chosen: bool = ..., first_pick: _Optional[_Union[Piece, _Mapping]] = ..., second_pick: _Optional[_Union[Piece, _Mapping]] = ..., eliminated: bool = ..., eliminated_by: _Optional[int] = ..., placed_first_ship: bool = ..., ever_large: bool = ..., turns_taken: _Optional[int] = ..., turned_evil: bool = ..., ships: _Optional[int] = ..., large_ships: _Optional[int] = ...) -> None: ...

class Power(_message.Message):
    __slots__ = ["color", "name", "summary"]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    color: Color
    name: str
    summary: str
    def __init__(self, color: _Optional[_Union[Color, str]] = ..., name: _Optional[str] = ..., summary: _Optional[str] = ...) -> None: ...

class Repick(_message.Message):
    __slots__ = ["piece"]
    PIECE_FIELD_NUMBER: _ClassVar[int]
    piece: Piece
    def __init__(self, piece: _Optional[_Union[Piece, _Mapping]] = ...) -> None: ...

class Research(_message.Message):
    __slots__ = ["piece", "ship_ids", "system_id"]
    PIECE_FIELD_NUMBER: _ClassVar[int]
    SHIP_IDS_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_ID_FIELD_NUMBER: _ClassVar[int]
    piece: Piece
    ship_ids: _containers.RepeatedScalarFieldContainer[int]
    system_id: int
    def __init__(self, ship_ids: _Optional[_Iterable[int]] = ..., piece: _Optional[_Union[Piece, _Mapping]] = ..., system_id: _Optional[int] = ...) -> None: ...

class Revolt(_message.Message):
    __slots__ = ["ship_id"]
    SHIP_ID_FIELD_NUMBER: _ClassVar[int]
    ship_id: int
    def __init__(self, ship_id: _Optional[int] = ...) -> None: ...

class Rules(_message.Message):
    __slots__ = ["first_tiebreak_lowest_seat", "good_win_alive_only", "green_add_any", "reduce_color_choose", "repick_pairs", "rnd_any_system"]
    FIRST_TIEBREAK_LOWEST_SEAT_FIELD_NUMBER: _ClassVar[int]
    GOOD_WIN_ALIVE_ONLY_FIELD_NUMBER: _ClassVar[int]
    GREEN_ADD_ANY_FIELD_NUMBER: _ClassVar[int]
    REDUCE_COLOR_CHOOSE_FIELD_NUMBER: _ClassVar[int]
    REPICK_PAIRS_FIELD_NUMBER: _ClassVar[int]
    RND_ANY_SYSTEM_FIELD_NUMBER: _ClassVar[int]
    first_tiebreak_lowest_seat: bool
    good_win_alive_only: bool
    green_add_any: bool
    reduce_color_choose: bool
    repick_pairs: bool
    rnd_any_system: bool
    def __init__(self, green_add_any: bool = ..., reduce_color_choose: bool = ..., rnd_any_system: bool = ..., repick_pairs: bool = ..., good_win_alive_only: bool = ..., first_tiebreak_lowest_seat: bool = ...) -> None: ...

class Sacrifice(_message.Message):
    __slots__ = ["ship_id"]
    SHIP_ID_FIELD_NUMBER: _ClassVar[int]
    ship_id: int
    def __init__(self, ship_id: _Optional[int] = ...) -> None: ...

class SeatPicks(_message.Message):
    __slots__ = ["first", "first_served", "seat", "second", "second_served"]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    FIRST_SERVED_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SECOND_FIELD_NUMBER: _ClassVar[int]
    SECOND_SERVED_FIELD_NUMBER: _ClassVar[int]
    first: Piece
    first_served: bool
    seat: int
    second: Piece
    second_served: bool
    def __init__(self, seat: _Optional[int] = ..., first: _Optional[_Union[Piece, _Mapping]] = ..., second: _Optional[_Union[Piece, _Mapping]] = ..., first_served: bool = ..., second_served: bool = ...) -> None: ...

class Ship(_message.Message):
    __slots__ = ["id", "owner", "piece"]
    ID_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    PIECE_FIELD_NUMBER: _ClassVar[int]
    id: int
    owner: int
    piece: Piece
    def __init__(self, id: _Optional[int] = ..., owner: _Optional[int] = ..., piece: _Optional[_Union[Piece, _Mapping]] = ...) -> None: ...

class StashCount(_message.Message):
    __slots__ = ["count", "piece"]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    PIECE_FIELD_NUMBER: _ClassVar[int]
    count: int
    piece: Piece
    def __init__(self, piece: _Optional[_Union[Piece, _Mapping]] = ..., count: _Optional[int] = ...) -> None: ...

class System(_message.Message):
    __slots__ = ["connected_ids", "id", "marker", "second_marker", "ships"]
    CONNECTED_IDS_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    MARKER_FIELD_NUMBER: _ClassVar[int]
    SECOND_MARKER_FIELD_NUMBER: _ClassVar[int]
    SHIPS_FIELD_NUMBER: _ClassVar[int]
    connected_ids: _containers.RepeatedScalarFieldContainer[int]
    id: int
    marker: Piece
    second_marker: Piece
    ships: _containers.RepeatedCompositeFieldContainer[Ship]
    def __init__(self, id: _Optional[int] = ..., marker: _Optional[_Union[Piece, _Mapping]] = ..., second_marker: _Optional[_Union[Piece, _Mapping]] = ..., ships: _Optional[_Iterable[_Union[Ship, _Mapping]]] = ..., connected_ids: _Optional[_Iterable[int]] = ...) -> None: ...

class Trade(_message.Message):
    __slots__ = ["piece", "ship_id"]
    PIECE_FIELD_NUMBER: _ClassVar[int]
    SHIP_ID_FIELD_NUMBER: _ClassVar[int]
    piece: Piece
    ship_id: int
    def __init__(self, ship_id: _Optional[int] = ..., piece: _Optional[_Union[Piece, _Mapping]] = ...) -> None: ...

class TurnedEvil(_message.Message):
    __slots__ = ["seat"]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class Color(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Size(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Alignment(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ConcentrationKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class EndKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
