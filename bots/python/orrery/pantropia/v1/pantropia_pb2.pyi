from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

CARD_KIND_AQUIFER: CardKind
CARD_KIND_GUIDED_COMET: CardKind
CARD_KIND_LUDDITE_LEGISLATION: CardKind
CARD_KIND_ORBITAL_MIRROR: CardKind
CARD_KIND_SHUTTLE: CardKind
CARD_KIND_SOLAR_SHADE: CardKind
CARD_KIND_SPACE_ELEVATOR: CardKind
CARD_KIND_TECHNOCALYPSE: CardKind
CARD_KIND_UNSPECIFIED: CardKind
COLOR_BLACK: Color
COLOR_BLUE: Color
COLOR_GREEN: Color
COLOR_ORANGE: Color
COLOR_PURPLE: Color
COLOR_RED: Color
COLOR_UNSPECIFIED: Color
COLOR_YELLOW: Color
DESCRIPTOR: _descriptor.FileDescriptor
DIE_D10: Die
DIE_D12: Die
DIE_D20: Die
DIE_D4: Die
DIE_D6: Die
DIE_UNSPECIFIED: Die
EVENT_KIND_ABANDON: EventKind
EVENT_KIND_ACCEPT: EventKind
EVENT_KIND_AQUIFER: EventKind
EVENT_KIND_ARCOLOGY: EventKind
EVENT_KIND_BUY_CARD: EventKind
EVENT_KIND_CARD_CANCELLED: EventKind
EVENT_KIND_COMET: EventKind
EVENT_KIND_COUNTDOWN: EventKind
EVENT_KIND_DECLINE: EventKind
EVENT_KIND_DEMOTE: EventKind
EVENT_KIND_DISCARD: EventKind
EVENT_KIND_DRAW: EventKind
EVENT_KIND_EARTH_TRADE: EventKind
EVENT_KIND_ELEVATOR: EventKind
EVENT_KIND_ELEVATOR_DISCARDED: EventKind
EVENT_KIND_END_TURN: EventKind
EVENT_KIND_GAME_OVER: EventKind
EVENT_KIND_HABITAT: EventKind
EVENT_KIND_LUDDITE: EventKind
EVENT_KIND_LUDDITE_PASS: EventKind
EVENT_KIND_MIRROR_SKIP: EventKind
EVENT_KIND_OFFER: EventKind
EVENT_KIND_PANTROPY: EventKind
EVENT_KIND_PLAY_CARD: EventKind
EVENT_KIND_PRODUCE: EventKind
EVENT_KIND_REMOVE_RING: EventKind
EVENT_KIND_RING: EventKind
EVENT_KIND_ROLL: EventKind
EVENT_KIND_SETTLE: EventKind
EVENT_KIND_SHADE_SKIP: EventKind
EVENT_KIND_SHUTTLE: EventKind
EVENT_KIND_SHUTTLE_MOVED: EventKind
EVENT_KIND_SHUTTLE_RETURNED: EventKind
EVENT_KIND_SKIP_SETUP: EventKind
EVENT_KIND_TECHNOCALYPSE: EventKind
EVENT_KIND_TERRAFORM: EventKind
EVENT_KIND_UNSPECIFIED: EventKind
ITEM_ARCOLOGY: Item
ITEM_ATMOSPHERE: Item
ITEM_CARD: Item
ITEM_HABITAT: Item
ITEM_SHUTTLE: Item
ITEM_UNSPECIFIED: Item
PHASE_BLACK_CHOICE: Phase
PHASE_LUDDITE_WINDOW: Phase
PHASE_MAIN: Phase
PHASE_OFFER: Phase
PHASE_ORBITAL_MIRROR: Phase
PHASE_OVER: Phase
PHASE_SETUP: Phase
PHASE_SOLAR_SHADE: Phase
PHASE_TECHNOCALYPSE: Phase
PHASE_UNSPECIFIED: Phase

class AbandonSite(_message.Message):
    __slots__ = ["intersection"]
    INTERSECTION_FIELD_NUMBER: _ClassVar[int]
    intersection: int
    def __init__(self, intersection: _Optional[int] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ["abandon_site", "arcology", "buy_card", "discard", "earth_trade", "end_turn", "habitat", "offer", "pantropy", "play_card", "react", "remove_ring", "reply", "ring", "settle", "shuttle", "terraform"]
    ABANDON_SITE_FIELD_NUMBER: _ClassVar[int]
    ARCOLOGY_FIELD_NUMBER: _ClassVar[int]
    BUY_CARD_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    EARTH_TRADE_FIELD_NUMBER: _ClassVar[int]
    END_TURN_FIELD_NUMBER: _ClassVar[int]
    HABITAT_FIELD_NUMBER: _ClassVar[int]
    OFFER_FIELD_NUMBER: _ClassVar[int]
    PANTROPY_FIELD_NUMBER: _ClassVar[int]
    PLAY_CARD_FIELD_NUMBER: _ClassVar[int]
    REACT_FIELD_NUMBER: _ClassVar[int]
    REMOVE_RING_FIELD_NUMBER: _ClassVar[int]
    REPLY_FIELD_NUMBER: _ClassVar[int]
    RING_FIELD_NUMBER: _ClassVar[int]
    SETTLE_FIELD_NUMBER: _ClassVar[int]
    SHUTTLE_FIELD_NUMBER: _ClassVar[int]
    TERRAFORM_FIELD_NUMBER: _ClassVar[int]
    abandon_site: AbandonSite
    arcology: BuildArcology
    buy_card: BuyCard
    discard: Discard
    earth_trade: EarthTrade
    end_turn: EndTurn
    habitat: BuildHabitat
    offer: Offer
    pantropy: Pantropy
    play_card: PlayCard
    react: React
    remove_ring: RemoveRing
    reply: Reply
    ring: BuildRing
    settle: Settle
    shuttle: BuildShuttle
    terraform: Terraform
    def __init__(self, settle: _Optional[_Union[Settle, _Mapping]] = ..., react: _Optional[_Union[React, _Mapping]] = ..., terraform: _Optional[_Union[Terraform, _Mapping]] = ..., pantropy: _Optional[_Union[Pantropy, _Mapping]] = ..., earth_trade: _Optional[_Union[EarthTrade, _Mapping]] = ..., offer: _Optional[_Union[Offer, _Mapping]] = ..., reply: _Optional[_Union[Reply, _Mapping]] = ..., ring: _Optional[_Union[BuildRing, _Mapping]] = ..., habitat: _Optional[_Union[BuildHabitat, _Mapping]] = ..., arcology: _Optional[_Union[BuildArcology, _Mapping]] = ..., shuttle: _Optional[_Union[BuildShuttle, _Mapping]] = ..., buy_card: _Optional[_Union[BuyCard, _Mapping]] = ..., play_card: _Optional[_Union[PlayCard, _Mapping]] = ..., remove_ring: _Optional[_Union[RemoveRing, _Mapping]] = ..., abandon_site: _Optional[_Union[AbandonSite, _Mapping]] = ..., discard: _Optional[_Union[Discard, _Mapping]] = ..., end_turn: _Optional[_Union[EndTurn, _Mapping]] = ...) -> None: ...

class BuildArcology(_message.Message):
    __slots__ = ["intersection"]
    INTERSECTION_FIELD_NUMBER: _ClassVar[int]
    intersection: int
    def __init__(self, intersection: _Optional[int] = ...) -> None: ...

class BuildHabitat(_message.Message):
    __slots__ = ["intersection"]
    INTERSECTION_FIELD_NUMBER: _ClassVar[int]
    intersection: int
    def __init__(self, intersection: _Optional[int] = ...) -> None: ...

class BuildRing(_message.Message):
    __slots__ = ["joint"]
    JOINT_FIELD_NUMBER: _ClassVar[int]
    joint: int
    def __init__(self, joint: _Optional[int] = ...) -> None: ...

class BuildShuttle(_message.Message):
    __slots__ = ["intersection"]
    INTERSECTION_FIELD_NUMBER: _ClassVar[int]
    intersection: int
    def __init__(self, intersection: _Optional[int] = ...) -> None: ...

class BuyCard(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class Catalog(_message.Message):
    __slots__ = ["default_deck", "default_dice", "default_menu", "intersections", "joints", "slots", "struts"]
    DEFAULT_DECK_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_DICE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_MENU_FIELD_NUMBER: _ClassVar[int]
    INTERSECTIONS_FIELD_NUMBER: _ClassVar[int]
    JOINTS_FIELD_NUMBER: _ClassVar[int]
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    STRUTS_FIELD_NUMBER: _ClassVar[int]
    default_deck: _containers.RepeatedCompositeFieldContainer[DeckEntry]
    default_dice: _containers.RepeatedCompositeFieldContainer[DieFaces]
    default_menu: _containers.RepeatedScalarFieldContainer[Color]
    intersections: _containers.RepeatedCompositeFieldContainer[Intersection]
    joints: _containers.RepeatedCompositeFieldContainer[Joint]
    slots: _containers.RepeatedCompositeFieldContainer[Slot]
    struts: _containers.RepeatedCompositeFieldContainer[Strut]
    def __init__(self, intersections: _Optional[_Iterable[_Union[Intersection, _Mapping]]] = ..., struts: _Optional[_Iterable[_Union[Strut, _Mapping]]] = ..., joints: _Optional[_Iterable[_Union[Joint, _Mapping]]] = ..., slots: _Optional[_Iterable[_Union[Slot, _Mapping]]] = ..., default_menu: _Optional[_Iterable[_Union[Color, str]]] = ..., default_dice: _Optional[_Iterable[_Union[DieFaces, _Mapping]]] = ..., default_deck: _Optional[_Iterable[_Union[DeckEntry, _Mapping]]] = ...) -> None: ...

class Chips(_message.Message):
    __slots__ = ["blue", "green", "orange", "purple", "red", "yellow"]
    BLUE_FIELD_NUMBER: _ClassVar[int]
    GREEN_FIELD_NUMBER: _ClassVar[int]
    ORANGE_FIELD_NUMBER: _ClassVar[int]
    PURPLE_FIELD_NUMBER: _ClassVar[int]
    RED_FIELD_NUMBER: _ClassVar[int]
    YELLOW_FIELD_NUMBER: _ClassVar[int]
    blue: int
    green: int
    orange: int
    purple: int
    red: int
    yellow: int
    def __init__(self, red: _Optional[int] = ..., orange: _Optional[int] = ..., yellow: _Optional[int] = ..., green: _Optional[int] = ..., blue: _Optional[int] = ..., purple: _Optional[int] = ...) -> None: ...

class DeckEntry(_message.Message):
    __slots__ = ["card", "count"]
    CARD_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    card: CardKind
    count: int
    def __init__(self, card: _Optional[_Union[CardKind, str]] = ..., count: _Optional[int] = ...) -> None: ...

class DieFaces(_message.Message):
    __slots__ = ["die", "faces"]
    DIE_FIELD_NUMBER: _ClassVar[int]
    FACES_FIELD_NUMBER: _ClassVar[int]
    die: Die
    faces: Chips
    def __init__(self, die: _Optional[_Union[Die, str]] = ..., faces: _Optional[_Union[Chips, _Mapping]] = ...) -> None: ...

class Discard(_message.Message):
    __slots__ = ["color", "count"]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    color: Color
    count: int
    def __init__(self, color: _Optional[_Union[Color, str]] = ..., count: _Optional[int] = ...) -> None: ...

class EarthTrade(_message.Message):
    __slots__ = ["give", "take"]
    GIVE_FIELD_NUMBER: _ClassVar[int]
    TAKE_FIELD_NUMBER: _ClassVar[int]
    give: Color
    take: Color
    def __init__(self, give: _Optional[_Union[Color, str]] = ..., take: _Optional[_Union[Color, str]] = ...) -> None: ...

class EndTurn(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class Event(_message.Message):
    __slots__ = ["action", "card", "chips", "chips2", "color", "color2", "count", "die", "die2", "intersection", "joint", "kind", "other_seat", "seat", "slot", "slot2", "strut", "text"]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    CHIPS2_FIELD_NUMBER: _ClassVar[int]
    CHIPS_FIELD_NUMBER: _ClassVar[int]
    COLOR2_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    DIE2_FIELD_NUMBER: _ClassVar[int]
    DIE_FIELD_NUMBER: _ClassVar[int]
    INTERSECTION_FIELD_NUMBER: _ClassVar[int]
    JOINT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    OTHER_SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SLOT2_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    STRUT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    action: Action
    card: CardKind
    chips: Chips
    chips2: Chips
    color: Color
    color2: Color
    count: int
    die: Die
    die2: Die
    intersection: int
    joint: int
    kind: EventKind
    other_seat: int
    seat: int
    slot: int
    slot2: int
    strut: int
    text: str
    def __init__(self, kind: _Optional[_Union[EventKind, str]] = ..., seat: _Optional[int] = ..., other_seat: _Optional[int] = ..., intersection: _Optional[int] = ..., strut: _Optional[int] = ..., joint: _Optional[int] = ..., color: _Optional[_Union[Color, str]] = ..., color2: _Optional[_Union[Color, str]] = ..., die: _Optional[_Union[Die, str]] = ..., die2: _Optional[_Union[Die, str]] = ..., card: _Optional[_Union[CardKind, str]] = ..., chips: _Optional[_Union[Chips, _Mapping]] = ..., chips2: _Optional[_Union[Chips, _Mapping]] = ..., slot: _Optional[int] = ..., slot2: _Optional[int] = ..., count: _Optional[int] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., text: _Optional[str] = ...) -> None: ...

class Intersection(_message.Message):
    __slots__ = ["antipode", "color_a", "color_b", "id", "neighbors", "struts", "x", "y", "z"]
    ANTIPODE_FIELD_NUMBER: _ClassVar[int]
    COLOR_A_FIELD_NUMBER: _ClassVar[int]
    COLOR_B_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    NEIGHBORS_FIELD_NUMBER: _ClassVar[int]
    STRUTS_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    Z_FIELD_NUMBER: _ClassVar[int]
    antipode: int
    color_a: Color
    color_b: Color
    id: int
    neighbors: _containers.RepeatedScalarFieldContainer[int]
    struts: _containers.RepeatedScalarFieldContainer[int]
    x: float
    y: float
    z: float
    def __init__(self, id: _Optional[int] = ..., x: _Optional[float] = ..., y: _Optional[float] = ..., z: _Optional[float] = ..., color_a: _Optional[_Union[Color, str]] = ..., color_b: _Optional[_Union[Color, str]] = ..., struts: _Optional[_Iterable[int]] = ..., neighbors: _Optional[_Iterable[int]] = ..., antipode: _Optional[int] = ...) -> None: ...

class Joint(_message.Message):
    __slots__ = ["id", "neighbors", "strut", "x", "y", "z"]
    ID_FIELD_NUMBER: _ClassVar[int]
    NEIGHBORS_FIELD_NUMBER: _ClassVar[int]
    STRUT_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    Z_FIELD_NUMBER: _ClassVar[int]
    id: int
    neighbors: _containers.RepeatedScalarFieldContainer[int]
    strut: int
    x: float
    y: float
    z: float
    def __init__(self, id: _Optional[int] = ..., strut: _Optional[int] = ..., x: _Optional[float] = ..., y: _Optional[float] = ..., z: _Optional[float] = ..., neighbors: _Optional[_Iterable[int]] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ["abandon_left", "active", "awaiting", "card_played", "countdown", "deck_size", "discard_left", "empty_joints", "hand", "joints", "last_roll", "lost_cards", "menu_items", "mirror_left", "offer", "offers_made", "offers_per_turn", "options", "pending_black", "pending_by", "pending_card", "phase", "players", "reserve", "seat", "stall_turns", "structures", "technocalypse_reserve", "technocalypses_in_deck", "turn", "turn_cap"]
    class OptionsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ABANDON_LEFT_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    AWAITING_FIELD_NUMBER: _ClassVar[int]
    CARD_PLAYED_FIELD_NUMBER: _ClassVar[int]
    COUNTDOWN_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_LEFT_FIELD_NUMBER: _ClassVar[int]
    EMPTY_JOINTS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    JOINTS_FIELD_NUMBER: _ClassVar[int]
    LAST_ROLL_FIELD_NUMBER: _ClassVar[int]
    LOST_CARDS_FIELD_NUMBER: _ClassVar[int]
    MENU_ITEMS_FIELD_NUMBER: _ClassVar[int]
    MIRROR_LEFT_FIELD_NUMBER: _ClassVar[int]
    OFFERS_MADE_FIELD_NUMBER: _ClassVar[int]
    OFFERS_PER_TURN_FIELD_NUMBER: _ClassVar[int]
    OFFER_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    PENDING_BLACK_FIELD_NUMBER: _ClassVar[int]
    PENDING_BY_FIELD_NUMBER: _ClassVar[int]
    PENDING_CARD_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    RESERVE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STALL_TURNS_FIELD_NUMBER: _ClassVar[int]
    STRUCTURES_FIELD_NUMBER: _ClassVar[int]
    TECHNOCALYPSES_IN_DECK_FIELD_NUMBER: _ClassVar[int]
    TECHNOCALYPSE_RESERVE_FIELD_NUMBER: _ClassVar[int]
    TURN_CAP_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    abandon_left: _containers.RepeatedScalarFieldContainer[int]
    active: int
    awaiting: _containers.RepeatedScalarFieldContainer[int]
    card_played: bool
    countdown: int
    deck_size: int
    discard_left: _containers.RepeatedScalarFieldContainer[int]
    empty_joints: int
    hand: _containers.RepeatedScalarFieldContainer[CardKind]
    joints: _containers.RepeatedScalarFieldContainer[int]
    last_roll: Roll
    lost_cards: int
    menu_items: _containers.RepeatedScalarFieldContainer[Item]
    mirror_left: int
    offer: OpenOffer
    offers_made: int
    offers_per_turn: int
    options: _containers.ScalarMap[str, str]
    pending_black: bool
    pending_by: int
    pending_card: Action
    phase: Phase
    players: _containers.RepeatedCompositeFieldContainer[Player]
    reserve: _containers.RepeatedScalarFieldContainer[Die]
    seat: int
    stall_turns: int
    structures: _containers.RepeatedCompositeFieldContainer[Structure]
    technocalypse_reserve: int
    technocalypses_in_deck: int
    turn: int
    turn_cap: int
    def __init__(self, seat: _Optional[int] = ..., phase: _Optional[_Union[Phase, str]] = ..., active: _Optional[int] = ..., awaiting: _Optional[_Iterable[int]] = ..., turn: _Optional[int] = ..., turn_cap: _Optional[int] = ..., joints: _Optional[_Iterable[int]] = ..., structures: _Optional[_Iterable[_Union[Structure, _Mapping]]] = ..., players: _Optional[_Iterable[_Union[Player, _Mapping]]] = ..., hand: _Optional[_Iterable[_Union[CardKind, str]]] = ..., reserve: _Optional[_Iterable[_Union[Die, str]]] = ..., last_roll: _Optional[_Union[Roll, _Mapping]] = ..., deck_size: _Optional[int] = ..., technocalypses_in_deck: _Optional[int] = ..., countdown: _Optional[int] = ..., technocalypse_reserve: _Optional[int] = ..., lost_cards: _Optional[int] = ..., card_played: bool = ..., offers_made: _Optional[int] = ..., offers_per_turn: _Optional[int] = ..., offer: _Optional[_Union[OpenOffer, _Mapping]] = ..., pending_card: _Optional[_Union[Action, _Mapping]] = ..., pending_black: bool = ..., pending_by: _Optional[int] = ..., mirror_left: _Optional[int] = ..., abandon_left: _Optional[_Iterable[int]] = ..., discard_left: _Optional[_Iterable[int]] = ..., empty_joints: _Optional[int] = ..., stall_turns: _Optional[int] = ..., menu_items: _Optional[_Iterable[_Union[Item, str]]] = ..., options: _Optional[_Mapping[str, str]] = ...) -> None: ...

class Offer(_message.Message):
    __slots__ = ["give", "take", "to"]
    GIVE_FIELD_NUMBER: _ClassVar[int]
    TAKE_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    give: Chips
    take: Chips
    to: int
    def __init__(self, to: _Optional[int] = ..., give: _Optional[_Union[Chips, _Mapping]] = ..., take: _Optional[_Union[Chips, _Mapping]] = ...) -> None: ...

class OpenOffer(_message.Message):
    __slots__ = ["give", "take", "to"]
    FROM_FIELD_NUMBER: _ClassVar[int]
    GIVE_FIELD_NUMBER: _ClassVar[int]
    TAKE_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    give: Chips
    take: Chips
    to: int
    def __init__(self, to: _Optional[int] = ..., give: _Optional[_Union[Chips, _Mapping]] = ..., take: _Optional[_Union[Chips, _Mapping]] = ..., **kwargs) -> None: ...

class Pantropy(_message.Message):
    __slots__ = ["none", "slot_from", "slot_to"]
    NONE_FIELD_NUMBER: _ClassVar[int]
    SLOT_FROM_FIELD_NUMBER: _ClassVar[int]
    SLOT_TO_FIELD_NUMBER: _ClassVar[int]
    none: bool
    slot_from: int
    slot_to: int
    def __init__(self, slot_from: _Optional[int] = ..., slot_to: _Optional[int] = ..., none: bool = ...) -> None: ...

class PlayCard(_message.Message):
    __slots__ = ["card", "color", "intersection", "shuttle_owner", "slot"]
    CARD_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    INTERSECTION_FIELD_NUMBER: _ClassVar[int]
    SHUTTLE_OWNER_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    card: CardKind
    color: Color
    intersection: int
    shuttle_owner: int
    slot: int
    def __init__(self, card: _Optional[_Union[CardKind, str]] = ..., shuttle_owner: _Optional[int] = ..., intersection: _Optional[int] = ..., color: _Optional[_Union[Color, str]] = ..., slot: _Optional[int] = ...) -> None: ...

class Player(_message.Message):
    __slots__ = ["arcologies_left", "chips", "die", "earth_rates", "habitats_left", "hand", "hand_size", "menu", "rings", "rings_left", "seat", "shuttle_at", "space_elevator"]
    ARCOLOGIES_LEFT_FIELD_NUMBER: _ClassVar[int]
    CHIPS_FIELD_NUMBER: _ClassVar[int]
    DIE_FIELD_NUMBER: _ClassVar[int]
    EARTH_RATES_FIELD_NUMBER: _ClassVar[int]
    HABITATS_LEFT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    MENU_FIELD_NUMBER: _ClassVar[int]
    RINGS_FIELD_NUMBER: _ClassVar[int]
    RINGS_LEFT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SHUTTLE_AT_FIELD_NUMBER: _ClassVar[int]
    SPACE_ELEVATOR_FIELD_NUMBER: _ClassVar[int]
    arcologies_left: int
    chips: Chips
    die: Die
    earth_rates: _containers.RepeatedScalarFieldContainer[int]
    habitats_left: int
    hand: _containers.RepeatedScalarFieldContainer[CardKind]
    hand_size: int
    menu: _containers.RepeatedScalarFieldContainer[Color]
    rings: int
    rings_left: int
    seat: int
    shuttle_at: int
    space_elevator: bool
    def __init__(self, seat: _Optional[int] = ..., chips: _Optional[_Union[Chips, _Mapping]] = ..., rings: _Optional[int] = ..., habitats_left: _Optional[int] = ..., arcologies_left: _Optional[int] = ..., rings_left: _Optional[int] = ..., shuttle_at: _Optional[int] = ..., hand_size: _Optional[int] = ..., menu: _Optional[_Iterable[_Union[Color, str]]] = ..., die: _Optional[_Union[Die, str]] = ..., space_elevator: bool = ..., earth_rates: _Optional[_Iterable[int]] = ..., hand: _Optional[_Iterable[_Union[CardKind, str]]] = ...) -> None: ...

class React(_message.Message):
    __slots__ = ["play_luddite"]
    PLAY_LUDDITE_FIELD_NUMBER: _ClassVar[int]
    play_luddite: bool
    def __init__(self, play_luddite: bool = ...) -> None: ...

class RemoveRing(_message.Message):
    __slots__ = ["joint", "skip"]
    JOINT_FIELD_NUMBER: _ClassVar[int]
    SKIP_FIELD_NUMBER: _ClassVar[int]
    joint: int
    skip: bool
    def __init__(self, joint: _Optional[int] = ..., skip: bool = ...) -> None: ...

class Reply(_message.Message):
    __slots__ = ["accept"]
    ACCEPT_FIELD_NUMBER: _ClassVar[int]
    accept: bool
    def __init__(self, accept: bool = ...) -> None: ...

class Roll(_message.Message):
    __slots__ = ["die", "permanent", "seat", "swappable"]
    DIE_FIELD_NUMBER: _ClassVar[int]
    PERMANENT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SWAPPABLE_FIELD_NUMBER: _ClassVar[int]
    die: Die
    permanent: Color
    seat: int
    swappable: Color
    def __init__(self, seat: _Optional[int] = ..., permanent: _Optional[_Union[Color, str]] = ..., die: _Optional[_Union[Die, str]] = ..., swappable: _Optional[_Union[Color, str]] = ...) -> None: ...

class Settle(_message.Message):
    __slots__ = ["intersection", "strut"]
    INTERSECTION_FIELD_NUMBER: _ClassVar[int]
    STRUT_FIELD_NUMBER: _ClassVar[int]
    intersection: int
    strut: int
    def __init__(self, intersection: _Optional[int] = ..., strut: _Optional[int] = ...) -> None: ...

class Slot(_message.Message):
    __slots__ = ["id", "item", "name"]
    ID_FIELD_NUMBER: _ClassVar[int]
    ITEM_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    id: int
    item: Item
    name: str
    def __init__(self, id: _Optional[int] = ..., item: _Optional[_Union[Item, str]] = ..., name: _Optional[str] = ...) -> None: ...

class Structure(_message.Message):
    __slots__ = ["arcology", "intersection", "owner"]
    ARCOLOGY_FIELD_NUMBER: _ClassVar[int]
    INTERSECTION_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    arcology: bool
    intersection: int
    owner: int
    def __init__(self, intersection: _Optional[int] = ..., owner: _Optional[int] = ..., arcology: bool = ...) -> None: ...

class Strut(_message.Message):
    __slots__ = ["a", "b", "color", "id"]
    A_FIELD_NUMBER: _ClassVar[int]
    B_FIELD_NUMBER: _ClassVar[int]
    COLOR_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    a: int
    b: int
    color: Color
    id: int
    def __init__(self, id: _Optional[int] = ..., color: _Optional[_Union[Color, str]] = ..., a: _Optional[int] = ..., b: _Optional[int] = ...) -> None: ...

class Terraform(_message.Message):
    __slots__ = ["die_a", "die_b"]
    DIE_A_FIELD_NUMBER: _ClassVar[int]
    DIE_B_FIELD_NUMBER: _ClassVar[int]
    die_a: Die
    die_b: Die
    def __init__(self, die_a: _Optional[_Union[Die, str]] = ..., die_b: _Optional[_Union[Die, str]] = ...) -> None: ...

class Color(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Die(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class CardKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Item(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class EventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
