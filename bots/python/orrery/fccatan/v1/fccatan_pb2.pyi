from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

BUILDING_CITY: Building
BUILDING_SETTLEMENT: Building
BUILDING_UNSPECIFIED: Building
CARD_BARBARIANS: Card
CARD_MONOPOLY: Card
CARD_ROBBER: Card
CARD_UNSPECIFIED: Card
CARD_VICTORY_POINT: Card
CARD_YEAR_OF_PLENTY: Card
DESCRIPTOR: _descriptor.FileDescriptor
PHASE_BUY: Phase
PHASE_CARD_CHOICE: Phase
PHASE_DEPLOY: Phase
PHASE_DISCARD: Phase
PHASE_OFFER: Phase
PHASE_OVER: Phase
PHASE_REPLY: Phase
PHASE_SETUP: Phase
PHASE_TICK: Phase
PHASE_UNSPECIFIED: Phase
PURCHASE_KIND_CARD: PurchaseKind
PURCHASE_KIND_CITY: PurchaseKind
PURCHASE_KIND_HANDOVER: PurchaseKind
PURCHASE_KIND_KNIGHT: PurchaseKind
PURCHASE_KIND_SETTLEMENT: PurchaseKind
PURCHASE_KIND_UNSPECIFIED: PurchaseKind
RESOURCE_BRICK: Resource
RESOURCE_ORE: Resource
RESOURCE_SHEEP: Resource
RESOURCE_UNSPECIFIED: Resource
RESOURCE_WOOD: Resource

class Action(_message.Message):
    __slots__ = ["barbarians", "buy", "deploy", "discard", "intents", "monopoly", "offer", "reply", "setup", "year_of_plenty"]
    BARBARIANS_FIELD_NUMBER: _ClassVar[int]
    BUY_FIELD_NUMBER: _ClassVar[int]
    DEPLOY_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    INTENTS_FIELD_NUMBER: _ClassVar[int]
    MONOPOLY_FIELD_NUMBER: _ClassVar[int]
    OFFER_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    REPLY_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    YEAR_OF_PLENTY_FIELD_NUMBER: _ClassVar[int]
    barbarians: Barbarians
    buy: Buy
    deploy: Deploy
    discard: Discard
    intents: Intents
    monopoly: Monopoly
    offer: Offer
    reply: Reply
    setup: Setup
    year_of_plenty: YearOfPlenty
    def __init__(self, setup: _Optional[_Union[Setup, _Mapping]] = ..., deploy: _Optional[_Union[Deploy, _Mapping]] = ..., intents: _Optional[_Union[Intents, _Mapping]] = ..., offer: _Optional[_Union[Offer, _Mapping]] = ..., reply: _Optional[_Union[Reply, _Mapping]] = ..., buy: _Optional[_Union[Buy, _Mapping]] = ..., year_of_plenty: _Optional[_Union[YearOfPlenty, _Mapping]] = ..., monopoly: _Optional[_Union[Monopoly, _Mapping]] = ..., discard: _Optional[_Union[Discard, _Mapping]] = ..., barbarians: _Optional[_Union[Barbarians, _Mapping]] = ..., **kwargs) -> None: ...

class Avatar(_message.Message):
    __slots__ = ["carrying", "collected", "frozen", "index", "intent", "knight", "markers", "position", "velocity"]
    CARRYING_FIELD_NUMBER: _ClassVar[int]
    COLLECTED_FIELD_NUMBER: _ClassVar[int]
    FROZEN_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    INTENT_FIELD_NUMBER: _ClassVar[int]
    KNIGHT_FIELD_NUMBER: _ClassVar[int]
    MARKERS_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    VELOCITY_FIELD_NUMBER: _ClassVar[int]
    carrying: Resource
    collected: bool
    frozen: bool
    index: int
    intent: AvatarIntent
    knight: bool
    markers: int
    position: Vec
    velocity: Vec
    def __init__(self, index: _Optional[int] = ..., knight: bool = ..., position: _Optional[_Union[Vec, _Mapping]] = ..., velocity: _Optional[_Union[Vec, _Mapping]] = ..., carrying: _Optional[_Union[Resource, str]] = ..., collected: bool = ..., frozen: bool = ..., markers: _Optional[int] = ..., intent: _Optional[_Union[AvatarIntent, _Mapping]] = ...) -> None: ...

class AvatarIntent(_message.Message):
    __slots__ = ["pick_up", "place", "stay", "tag", "tag_target", "target", "throw", "throw_to", "velocity"]
    PICK_UP_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    STAY_FIELD_NUMBER: _ClassVar[int]
    TAG_FIELD_NUMBER: _ClassVar[int]
    TAG_TARGET_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    THROW_FIELD_NUMBER: _ClassVar[int]
    THROW_TO_FIELD_NUMBER: _ClassVar[int]
    VELOCITY_FIELD_NUMBER: _ClassVar[int]
    pick_up: bool
    place: bool
    stay: Stay
    tag: bool
    tag_target: AvatarRef
    target: Vec
    throw: bool
    throw_to: int
    velocity: Vec
    def __init__(self, stay: _Optional[_Union[Stay, _Mapping]] = ..., target: _Optional[_Union[Vec, _Mapping]] = ..., velocity: _Optional[_Union[Vec, _Mapping]] = ..., pick_up: bool = ..., place: bool = ..., tag: bool = ..., tag_target: _Optional[_Union[AvatarRef, _Mapping]] = ..., throw: bool = ..., throw_to: _Optional[int] = ...) -> None: ...

class AvatarRef(_message.Message):
    __slots__ = ["avatar", "seat"]
    AVATAR_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    avatar: int
    seat: int
    def __init__(self, seat: _Optional[int] = ..., avatar: _Optional[int] = ...) -> None: ...

class BallReturned(_message.Message):
    __slots__ = ["pile", "resource"]
    PILE_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    pile: int
    resource: Resource
    def __init__(self, resource: _Optional[_Union[Resource, str]] = ..., pile: _Optional[int] = ...) -> None: ...

class Barbarians(_message.Message):
    __slots__ = ["hoop"]
    HOOP_FIELD_NUMBER: _ClassVar[int]
    hoop: int
    def __init__(self, hoop: _Optional[int] = ...) -> None: ...

class Bought(_message.Message):
    __slots__ = ["dropped", "purchase", "seat"]
    DROPPED_FIELD_NUMBER: _ClassVar[int]
    PURCHASE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    dropped: bool
    purchase: Purchase
    seat: int
    def __init__(self, seat: _Optional[int] = ..., purchase: _Optional[_Union[Purchase, _Mapping]] = ..., dropped: bool = ...) -> None: ...

class Buy(_message.Message):
    __slots__ = ["purchases"]
    PURCHASES_FIELD_NUMBER: _ClassVar[int]
    purchases: _containers.RepeatedCompositeFieldContainer[Purchase]
    def __init__(self, purchases: _Optional[_Iterable[_Union[Purchase, _Mapping]]] = ...) -> None: ...

class CardDrawn(_message.Message):
    __slots__ = ["card", "seat"]
    CARD_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    card: Card
    seat: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ...) -> None: ...

class CardEffect(_message.Message):
    __slots__ = ["card", "hoop", "resources", "seat", "victim"]
    CARD_FIELD_NUMBER: _ClassVar[int]
    HOOP_FIELD_NUMBER: _ClassVar[int]
    RESOURCES_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VICTIM_FIELD_NUMBER: _ClassVar[int]
    card: Card
    hoop: int
    resources: Resources
    seat: int
    victim: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[_Union[Card, str]] = ..., resources: _Optional[_Union[Resources, _Mapping]] = ..., hoop: _Optional[int] = ..., victim: _Optional[int] = ...) -> None: ...

class Catalog(_message.Message):
    __slots__ = ["deck", "maps", "rulesets"]
    DECK_FIELD_NUMBER: _ClassVar[int]
    MAPS_FIELD_NUMBER: _ClassVar[int]
    RULESETS_FIELD_NUMBER: _ClassVar[int]
    deck: _containers.RepeatedCompositeFieldContainer[DeckEntry]
    maps: _containers.RepeatedCompositeFieldContainer[FieldMap]
    rulesets: _containers.RepeatedCompositeFieldContainer[RulesetInfo]
    def __init__(self, maps: _Optional[_Iterable[_Union[FieldMap, _Mapping]]] = ..., rulesets: _Optional[_Iterable[_Union[RulesetInfo, _Mapping]]] = ..., deck: _Optional[_Iterable[_Union[DeckEntry, _Mapping]]] = ...) -> None: ...

class Costs(_message.Message):
    __slots__ = ["card", "city", "city_sheep_or_ore", "knight", "settlement"]
    CARD_FIELD_NUMBER: _ClassVar[int]
    CITY_FIELD_NUMBER: _ClassVar[int]
    CITY_SHEEP_OR_ORE_FIELD_NUMBER: _ClassVar[int]
    KNIGHT_FIELD_NUMBER: _ClassVar[int]
    SETTLEMENT_FIELD_NUMBER: _ClassVar[int]
    card: Resources
    city: Resources
    city_sheep_or_ore: bool
    knight: Resources
    settlement: Resources
    def __init__(self, settlement: _Optional[_Union[Resources, _Mapping]] = ..., city: _Optional[_Union[Resources, _Mapping]] = ..., knight: _Optional[_Union[Resources, _Mapping]] = ..., card: _Optional[_Union[Resources, _Mapping]] = ..., city_sheep_or_ore: bool = ...) -> None: ...

class DeckEntry(_message.Message):
    __slots__ = ["card", "count"]
    CARD_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    card: Card
    count: int
    def __init__(self, card: _Optional[_Union[Card, str]] = ..., count: _Optional[int] = ...) -> None: ...

class Delivered(_message.Message):
    __slots__ = ["hoop", "player", "resource"]
    HOOP_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    hoop: int
    player: AvatarRef
    resource: Resource
    def __init__(self, player: _Optional[_Union[AvatarRef, _Mapping]] = ..., hoop: _Optional[int] = ..., resource: _Optional[_Union[Resource, str]] = ...) -> None: ...

class Deploy(_message.Message):
    __slots__ = ["hoops"]
    HOOPS_FIELD_NUMBER: _ClassVar[int]
    hoops: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, hoops: _Optional[_Iterable[int]] = ...) -> None: ...

class Discard(_message.Message):
    __slots__ = ["discard"]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    discard: Resources
    def __init__(self, discard: _Optional[_Union[Resources, _Mapping]] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ["ball_returned", "bought", "card_drawn", "card_effect", "delivered", "game_ended", "offers_made", "picked_up", "placed", "round", "round_started", "setup", "tagged", "thrown", "tick", "trades_settled", "whistle"]
    BALL_RETURNED_FIELD_NUMBER: _ClassVar[int]
    BOUGHT_FIELD_NUMBER: _ClassVar[int]
    CARD_DRAWN_FIELD_NUMBER: _ClassVar[int]
    CARD_EFFECT_FIELD_NUMBER: _ClassVar[int]
    DELIVERED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    OFFERS_MADE_FIELD_NUMBER: _ClassVar[int]
    PICKED_UP_FIELD_NUMBER: _ClassVar[int]
    PLACED_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ROUND_STARTED_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    TAGGED_FIELD_NUMBER: _ClassVar[int]
    THROWN_FIELD_NUMBER: _ClassVar[int]
    TICK_FIELD_NUMBER: _ClassVar[int]
    TRADES_SETTLED_FIELD_NUMBER: _ClassVar[int]
    WHISTLE_FIELD_NUMBER: _ClassVar[int]
    ball_returned: BallReturned
    bought: Bought
    card_drawn: CardDrawn
    card_effect: CardEffect
    delivered: Delivered
    game_ended: GameEnded
    offers_made: OffersMade
    picked_up: PickedUp
    placed: Placed
    round: int
    round_started: RoundStarted
    setup: SetupChosen
    tagged: Tagged
    thrown: Thrown
    tick: int
    trades_settled: TradesSettled
    whistle: Whistle
    def __init__(self, round: _Optional[int] = ..., tick: _Optional[int] = ..., setup: _Optional[_Union[SetupChosen, _Mapping]] = ..., round_started: _Optional[_Union[RoundStarted, _Mapping]] = ..., picked_up: _Optional[_Union[PickedUp, _Mapping]] = ..., delivered: _Optional[_Union[Delivered, _Mapping]] = ..., tagged: _Optional[_Union[Tagged, _Mapping]] = ..., ball_returned: _Optional[_Union[BallReturned, _Mapping]] = ..., placed: _Optional[_Union[Placed, _Mapping]] = ..., thrown: _Optional[_Union[Thrown, _Mapping]] = ..., whistle: _Optional[_Union[Whistle, _Mapping]] = ..., offers_made: _Optional[_Union[OffersMade, _Mapping]] = ..., trades_settled: _Optional[_Union[TradesSettled, _Mapping]] = ..., bought: _Optional[_Union[Bought, _Mapping]] = ..., card_drawn: _Optional[_Union[CardDrawn, _Mapping]] = ..., card_effect: _Optional[_Union[CardEffect, _Mapping]] = ..., game_ended: _Optional[_Union[GameEnded, _Mapping]] = ...) -> None: ...

class FieldMap(_message.Message):
    __slots__ = ["balls_per_resource", "height_cm", "hoops", "name", "pile_capacity", "piles", "width_cm"]
    BALLS_PER_RESOURCE_FIELD_NUMBER: _ClassVar[int]
    HEIGHT_CM_FIELD_NUMBER: _ClassVar[int]
    HOOPS_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PILES_FIELD_NUMBER: _ClassVar[int]
    PILE_CAPACITY_FIELD_NUMBER: _ClassVar[int]
    WIDTH_CM_FIELD_NUMBER: _ClassVar[int]
    balls_per_resource: int
    height_cm: int
    hoops: _containers.RepeatedCompositeFieldContainer[Hoop]
    name: str
    pile_capacity: int
    piles: _containers.RepeatedCompositeFieldContainer[PileSpot]
    width_cm: int
    def __init__(self, name: _Optional[str] = ..., width_cm: _Optional[int] = ..., height_cm: _Optional[int] = ..., hoops: _Optional[_Iterable[_Union[Hoop, _Mapping]]] = ..., piles: _Optional[_Iterable[_Union[PileSpot, _Mapping]]] = ..., pile_capacity: _Optional[int] = ..., balls_per_resource: _Optional[int] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ["reason", "vp", "winners"]
    REASON_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    reason: str
    vp: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, vp: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., reason: _Optional[str] = ...) -> None: ...

class Hoop(_message.Message):
    __slots__ = ["center", "id", "radius_cm", "start"]
    CENTER_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    RADIUS_CM_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    center: Vec
    id: int
    radius_cm: int
    start: bool
    def __init__(self, id: _Optional[int] = ..., center: _Optional[_Union[Vec, _Mapping]] = ..., radius_cm: _Optional[int] = ..., start: bool = ...) -> None: ...

class HoopState(_message.Message):
    __slots__ = ["building", "id", "owner"]
    BUILDING_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    building: Building
    id: int
    owner: int
    def __init__(self, id: _Optional[int] = ..., owner: _Optional[int] = ..., building: _Optional[_Union[Building, str]] = ...) -> None: ...

class Intents(_message.Message):
    __slots__ = ["avatars"]
    AVATARS_FIELD_NUMBER: _ClassVar[int]
    avatars: _containers.RepeatedCompositeFieldContainer[AvatarIntent]
    def __init__(self, avatars: _Optional[_Iterable[_Union[AvatarIntent, _Mapping]]] = ...) -> None: ...

class Monopoly(_message.Message):
    __slots__ = ["resource"]
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    resource: Resource
    def __init__(self, resource: _Optional[_Union[Resource, str]] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ["deck_left", "discards", "hoops", "idle_markets", "offers", "pending_card", "pending_seat", "phase", "piles", "round", "rules", "seat", "setup_seat", "submitted", "teams", "tick", "time_left_ms", "trade_step"]
    DECK_LEFT_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    HOOPS_FIELD_NUMBER: _ClassVar[int]
    IDLE_MARKETS_FIELD_NUMBER: _ClassVar[int]
    OFFERS_FIELD_NUMBER: _ClassVar[int]
    PENDING_CARD_FIELD_NUMBER: _ClassVar[int]
    PENDING_SEAT_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    PILES_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SETUP_SEAT_FIELD_NUMBER: _ClassVar[int]
    SUBMITTED_FIELD_NUMBER: _ClassVar[int]
    TEAMS_FIELD_NUMBER: _ClassVar[int]
    TICK_FIELD_NUMBER: _ClassVar[int]
    TIME_LEFT_MS_FIELD_NUMBER: _ClassVar[int]
    TRADE_STEP_FIELD_NUMBER: _ClassVar[int]
    deck_left: int
    discards: _containers.RepeatedScalarFieldContainer[int]
    hoops: _containers.RepeatedCompositeFieldContainer[HoopState]
    idle_markets: int
    offers: _containers.RepeatedCompositeFieldContainer[TradeOffer]
    pending_card: Card
    pending_seat: int
    phase: Phase
    piles: _containers.RepeatedCompositeFieldContainer[Pile]
    round: int
    rules: Rules
    seat: int
    setup_seat: int
    submitted: bool
    teams: _containers.RepeatedCompositeFieldContainer[Team]
    tick: int
    time_left_ms: int
    trade_step: int
    def __init__(self, seat: _Optional[int] = ..., phase: _Optional[_Union[Phase, str]] = ..., rules: _Optional[_Union[Rules, _Mapping]] = ..., round: _Optional[int] = ..., tick: _Optional[int] = ..., time_left_ms: _Optional[int] = ..., trade_step: _Optional[int] = ..., teams: _Optional[_Iterable[_Union[Team, _Mapping]]] = ..., piles: _Optional[_Iterable[_Union[Pile, _Mapping]]] = ..., hoops: _Optional[_Iterable[_Union[HoopState, _Mapping]]] = ..., offers: _Optional[_Iterable[_Union[TradeOffer, _Mapping]]] = ..., pending_card: _Optional[_Union[Card, str]] = ..., pending_seat: _Optional[int] = ..., discards: _Optional[_Iterable[int]] = ..., deck_left: _Optional[int] = ..., idle_markets: _Optional[int] = ..., setup_seat: _Optional[int] = ..., submitted: bool = ...) -> None: ...

class Offer(_message.Message):
    __slots__ = ["give", "to_seat", "want"]
    GIVE_FIELD_NUMBER: _ClassVar[int]
    TO_SEAT_FIELD_NUMBER: _ClassVar[int]
    WANT_FIELD_NUMBER: _ClassVar[int]
    give: Resources
    to_seat: int
    want: Resources
    def __init__(self, to_seat: _Optional[int] = ..., give: _Optional[_Union[Resources, _Mapping]] = ..., want: _Optional[_Union[Resources, _Mapping]] = ...) -> None: ...

class OffersMade(_message.Message):
    __slots__ = ["offers", "trade_step"]
    OFFERS_FIELD_NUMBER: _ClassVar[int]
    TRADE_STEP_FIELD_NUMBER: _ClassVar[int]
    offers: _containers.RepeatedCompositeFieldContainer[TradeOffer]
    trade_step: int
    def __init__(self, trade_step: _Optional[int] = ..., offers: _Optional[_Iterable[_Union[TradeOffer, _Mapping]]] = ...) -> None: ...

class Pass(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class PickedUp(_message.Message):
    __slots__ = ["pile", "player", "resource"]
    PILE_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    pile: int
    player: AvatarRef
    resource: Resource
    def __init__(self, player: _Optional[_Union[AvatarRef, _Mapping]] = ..., pile: _Optional[int] = ..., resource: _Optional[_Union[Resource, str]] = ...) -> None: ...

class Pile(_message.Message):
    __slots__ = ["balls", "id", "resource"]
    BALLS_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    balls: int
    id: int
    resource: Resource
    def __init__(self, id: _Optional[int] = ..., resource: _Optional[_Union[Resource, str]] = ..., balls: _Optional[int] = ...) -> None: ...

class PileSpot(_message.Message):
    __slots__ = ["id", "initial_balls", "position", "resource"]
    ID_FIELD_NUMBER: _ClassVar[int]
    INITIAL_BALLS_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    id: int
    initial_balls: int
    position: Vec
    resource: Resource
    def __init__(self, id: _Optional[int] = ..., resource: _Optional[_Union[Resource, str]] = ..., position: _Optional[_Union[Vec, _Mapping]] = ..., initial_balls: _Optional[int] = ...) -> None: ...

class Placed(_message.Message):
    __slots__ = ["hoop", "player"]
    HOOP_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    hoop: int
    player: AvatarRef
    def __init__(self, player: _Optional[_Union[AvatarRef, _Mapping]] = ..., hoop: _Optional[int] = ...) -> None: ...

class Purchase(_message.Message):
    __slots__ = ["avatar", "hoop", "kind", "pay_with", "to_avatar"]
    AVATAR_FIELD_NUMBER: _ClassVar[int]
    HOOP_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PAY_WITH_FIELD_NUMBER: _ClassVar[int]
    TO_AVATAR_FIELD_NUMBER: _ClassVar[int]
    avatar: int
    hoop: int
    kind: PurchaseKind
    pay_with: Resource
    to_avatar: int
    def __init__(self, kind: _Optional[_Union[PurchaseKind, str]] = ..., avatar: _Optional[int] = ..., hoop: _Optional[int] = ..., to_avatar: _Optional[int] = ..., pay_with: _Optional[_Union[Resource, str]] = ...) -> None: ...

class Reply(_message.Message):
    __slots__ = ["accept_from"]
    ACCEPT_FROM_FIELD_NUMBER: _ClassVar[int]
    accept_from: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, accept_from: _Optional[_Iterable[int]] = ...) -> None: ...

class Resources(_message.Message):
    __slots__ = ["brick", "ore", "sheep", "wood"]
    BRICK_FIELD_NUMBER: _ClassVar[int]
    ORE_FIELD_NUMBER: _ClassVar[int]
    SHEEP_FIELD_NUMBER: _ClassVar[int]
    WOOD_FIELD_NUMBER: _ClassVar[int]
    brick: int
    ore: int
    sheep: int
    wood: int
    def __init__(self, wood: _Optional[int] = ..., brick: _Optional[int] = ..., ore: _Optional[int] = ..., sheep: _Optional[int] = ...) -> None: ...

class RoundStarted(_message.Message):
    __slots__ = ["round"]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    round: int
    def __init__(self, round: _Optional[int] = ...) -> None: ...

class Rules(_message.Message):
    __slots__ = ["costs", "idle_markets", "knights", "map", "max_rounds", "reach_cm", "ruleset", "throw_range_cm", "throwing", "tick_ms", "ticks_per_round", "top_speed_cm_s", "trade_steps", "win_vp"]
    COSTS_FIELD_NUMBER: _ClassVar[int]
    IDLE_MARKETS_FIELD_NUMBER: _ClassVar[int]
    KNIGHTS_FIELD_NUMBER: _ClassVar[int]
    MAP_FIELD_NUMBER: _ClassVar[int]
    MAX_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    REACH_CM_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    THROWING_FIELD_NUMBER: _ClassVar[int]
    THROW_RANGE_CM_FIELD_NUMBER: _ClassVar[int]
    TICKS_PER_ROUND_FIELD_NUMBER: _ClassVar[int]
    TICK_MS_FIELD_NUMBER: _ClassVar[int]
    TOP_SPEED_CM_S_FIELD_NUMBER: _ClassVar[int]
    TRADE_STEPS_FIELD_NUMBER: _ClassVar[int]
    WIN_VP_FIELD_NUMBER: _ClassVar[int]
    costs: Costs
    idle_markets: int
    knights: str
    map: str
    max_rounds: int
    reach_cm: int
    ruleset: str
    throw_range_cm: int
    throwing: bool
    tick_ms: int
    ticks_per_round: int
    top_speed_cm_s: int
    trade_steps: int
    win_vp: int
    def __init__(self, ruleset: _Optional[str] = ..., win_vp: _Optional[int] = ..., ticks_per_round: _Optional[int] = ..., tick_ms: _Optional[int] = ..., top_speed_cm_s: _Optional[int] = ..., reach_cm: _Optional[int] = ..., max_rounds: _Optional[int] = ..., idle_markets: _Optional[int] = ..., trade_steps: _Optional[int] = ..., throwing: bool = ..., throw_range_cm: _Optional[int] = ..., costs: _Optional[_Union[Costs, _Mapping]] = ..., map: _Optional[str] = ..., knights: _Optional[str] = ...) -> None: ...

class RulesetInfo(_message.Message):
    __slots__ = ["costs", "map", "name", "round_seconds", "throwing", "win_vp"]
    COSTS_FIELD_NUMBER: _ClassVar[int]
    MAP_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ROUND_SECONDS_FIELD_NUMBER: _ClassVar[int]
    THROWING_FIELD_NUMBER: _ClassVar[int]
    WIN_VP_FIELD_NUMBER: _ClassVar[int]
    costs: Costs
    map: str
    name: str
    round_seconds: int
    throwing: bool
    win_vp: int
    def __init__(self, name: _Optional[str] = ..., win_vp: _Optional[int] = ..., round_seconds: _Optional[int] = ..., throwing: bool = ..., costs: _Optional[_Union[Costs, _Mapping]] = ..., map: _Optional[str] = ...) -> None: ...

class Setup(_message.Message):
    __slots__ = ["hoop", "knights"]
    HOOP_FIELD_NUMBER: _ClassVar[int]
    KNIGHTS_FIELD_NUMBER: _ClassVar[int]
    hoop: int
    knights: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, hoop: _Optional[int] = ..., knights: _Optional[_Iterable[int]] = ...) -> None: ...

class SetupChosen(_message.Message):
    __slots__ = ["hoop", "knights", "seat"]
    HOOP_FIELD_NUMBER: _ClassVar[int]
    KNIGHTS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    hoop: int
    knights: _containers.RepeatedScalarFieldContainer[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ..., hoop: _Optional[int] = ..., knights: _Optional[_Iterable[int]] = ...) -> None: ...

class Stay(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class Tagged(_message.Message):
    __slots__ = ["knight", "player", "taken"]
    KNIGHT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    knight: AvatarRef
    player: AvatarRef
    taken: Resource
    def __init__(self, knight: _Optional[_Union[AvatarRef, _Mapping]] = ..., player: _Optional[_Union[AvatarRef, _Mapping]] = ..., taken: _Optional[_Union[Resource, str]] = ...) -> None: ...

class Team(_message.Message):
    __slots__ = ["avatars", "cards", "last_purchases", "resources", "seat", "start_hoop", "vp"]
    AVATARS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    LAST_PURCHASES_FIELD_NUMBER: _ClassVar[int]
    RESOURCES_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    START_HOOP_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    avatars: _containers.RepeatedCompositeFieldContainer[Avatar]
    cards: _containers.RepeatedScalarFieldContainer[Card]
    last_purchases: _containers.RepeatedScalarFieldContainer[PurchaseKind]
    resources: Resources
    seat: int
    start_hoop: int
    vp: int
    def __init__(self, seat: _Optional[int] = ..., vp: _Optional[int] = ..., resources: _Optional[_Union[Resources, _Mapping]] = ..., avatars: _Optional[_Iterable[_Union[Avatar, _Mapping]]] = ..., cards: _Optional[_Iterable[_Union[Card, str]]] = ..., start_hoop: _Optional[int] = ..., last_purchases: _Optional[_Iterable[_Union[PurchaseKind, str]]] = ...) -> None: ...

class Thrown(_message.Message):
    __slots__ = ["resource", "to"]
    FROM_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    resource: Resource
    to: AvatarRef
    def __init__(self, to: _Optional[_Union[AvatarRef, _Mapping]] = ..., resource: _Optional[_Union[Resource, str]] = ..., **kwargs) -> None: ...

class TradeOffer(_message.Message):
    __slots__ = ["from_seat", "give", "to_seat", "want"]
    FROM_SEAT_FIELD_NUMBER: _ClassVar[int]
    GIVE_FIELD_NUMBER: _ClassVar[int]
    TO_SEAT_FIELD_NUMBER: _ClassVar[int]
    WANT_FIELD_NUMBER: _ClassVar[int]
    from_seat: int
    give: Resources
    to_seat: int
    want: Resources
    def __init__(self, from_seat: _Optional[int] = ..., to_seat: _Optional[int] = ..., give: _Optional[_Union[Resources, _Mapping]] = ..., want: _Optional[_Union[Resources, _Mapping]] = ...) -> None: ...

class TradesSettled(_message.Message):
    __slots__ = ["accepted", "declined", "failed", "trade_step"]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    DECLINED_FIELD_NUMBER: _ClassVar[int]
    FAILED_FIELD_NUMBER: _ClassVar[int]
    TRADE_STEP_FIELD_NUMBER: _ClassVar[int]
    accepted: _containers.RepeatedCompositeFieldContainer[TradeOffer]
    declined: _containers.RepeatedCompositeFieldContainer[TradeOffer]
    failed: _containers.RepeatedCompositeFieldContainer[TradeOffer]
    trade_step: int
    def __init__(self, trade_step: _Optional[int] = ..., accepted: _Optional[_Iterable[_Union[TradeOffer, _Mapping]]] = ..., declined: _Optional[_Iterable[_Union[TradeOffer, _Mapping]]] = ..., failed: _Optional[_Iterable[_Union[TradeOffer, _Mapping]]] = ...) -> None: ...

class Vec(_message.Message):
    __slots__ = ["x", "y"]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    x: int
    y: int
    def __init__(self, x: _Optional[int] = ..., y: _Optional[int] = ...) -> None: ...

class Whistle(_message.Message):
    __slots__ = ["round"]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    round: int
    def __init__(self, round: _Optional[int] = ...) -> None: ...

class YearOfPlenty(_message.Message):
    __slots__ = ["take"]
    TAKE_FIELD_NUMBER: _ClassVar[int]
    take: Resources
    def __init__(self, take: _Optional[_Union[Resources, _Mapping]] = ...) -> None: ...

class Resource(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Card(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Building(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class PurchaseKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
