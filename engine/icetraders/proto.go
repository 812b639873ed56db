package icetraders

import (
	"fmt"
	"math"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// pieceProto is p's message, nil for no piece. There are twelve pieces, so each has one
// message, shared by every observation and event: they are never modified once built (the
// engine contract), and an observation lists a piece per stash kind, ship and marker.
func pieceProto(p Piece) *pb.Piece {
	if p.Size == 0 {
		return nil
	}
	return pieceProtos[p.kind()]
}

var pieceProtos = func() (t [numKinds]*pb.Piece) {
	for k := range t {
		p := pieceOfKind(k)
		t[k] = &pb.Piece{Color: pb.Color(p.Color + 1), Size: pb.Size(p.Size)}
	}
	return t
}()

func alignProto(a Alignment) pb.Alignment { return pb.Alignment(a) }

// ActionProto is a as the typed Action message.
func (s *State) ActionProto(a engine.Action) proto.Message { return actionProto(a) }

// ActionToProto is a as the typed Action message, for bots and tools without a state.
func ActionToProto(a engine.Action) *pb.Action { return actionProto(a) }

func actionProto(a engine.Action) *pb.Action {
	id := func(i int) int32 { return int32(a.Arg[i]) }
	rawPiece := func(i int) *pb.Piece {
		return &pb.Piece{Color: pb.Color(a.Arg[i] + 1), Size: pb.Size(a.Arg[i+1])}
	}
	// target is an optional target system stored as 1+id; nil when none is named.
	target := func(i int) *int32 {
		if a.Arg[i] == 0 {
			return nil
		}
		v := int32(a.Arg[i]) - 1
		return &v
	}
	m := &pb.Action{}
	switch a.Kind {
	case KindAlign:
		m.Kind = &pb.Action_ChooseAlignment{ChooseAlignment: &pb.ChooseAlignment{Alignment: pb.Alignment(a.Arg[0])}}
	case KindPicks:
		m.Kind = &pb.Action_ChoosePicks{ChoosePicks: &pb.ChoosePicks{First: rawPiece(0), Second: rawPiece(2)}}
	case KindRepick:
		m.Kind = &pb.Action_Repick{Repick: &pb.Repick{Piece: rawPiece(0)}}
	case KindPlace:
		m.Kind = &pb.Action_PlaceFirstShip{PlaceFirstShip: &pb.PlaceFirstShip{Color: pb.Color(a.Arg[0] + 1), SystemId: id(1)}}
	case KindMove:
		m.Kind = &pb.Action_Move{Move: &pb.Move{ShipId: id(0), ToId: id(1)}}
	case KindTrade:
		m.Kind = &pb.Action_Trade{Trade: &pb.Trade{ShipId: id(0), Piece: rawPiece(1)}}
	case KindGrow:
		m.Kind = &pb.Action_Grow{Grow: &pb.Grow{ShipId: id(0)}}
	case KindAdd:
		m.Kind = &pb.Action_AddShip{AddShip: &pb.AddShip{ShipId: id(0), Size: pb.Size(a.Arg[1]), SystemId: target(2)}}
	case KindAttack:
		// Arg2 is 0 (no color) or 1+color, which is the proto's color numbering.
		m.Kind = &pb.Action_Attack{Attack: &pb.Attack{ShipId: id(0), TargetId: id(1), ReduceTo: pb.Color(a.Arg[2])}}
	case KindDiscover:
		m.Kind = &pb.Action_Discover{Discover: &pb.Discover{ShipId: id(0)}}
	case KindSacrifice:
		m.Kind = &pb.Action_Sacrifice{Sacrifice: &pb.Sacrifice{ShipId: id(0)}}
	case KindResearch:
		m.Kind = &pb.Action_Research{Research: &pb.Research{ShipIds: []int32{id(0), id(1), id(2)}, Piece: rawPiece(3), SystemId: target(5)}}
	case KindPass:
		m.Kind = &pb.Action_Pass{Pass: &pb.Pass{}}
	case KindEndSacrifice:
		m.Kind = &pb.Action_EndSacrifice{EndSacrifice: &pb.EndSacrifice{}}
	case KindEnterprise:
		m.Kind = &pb.Action_Enterprise{Enterprise: &pb.Enterprise{Piece: rawPiece(0)}}
	case KindRevolt:
		m.Kind = &pb.Action_Revolt{Revolt: &pb.Revolt{ShipId: id(0)}}
	case KindDecline:
		m.Kind = &pb.Action_Decline{Decline: &pb.Decline{}}
	}
	return m
}

// ActionFromProto reads a typed Action message.
func (s *State) ActionFromProto(m proto.Message) (engine.Action, error) { return ActionFromProto(m) }

// ActionFromProto reads a typed Action message; malformed ones wrap engine.ErrIllegalAction.
func ActionFromProto(m proto.Message) (engine.Action, error) {
	bad := func(why string) (engine.Action, error) {
		return engine.Action{}, fmt.Errorf("%w: malformed icetraders action: %s", engine.ErrIllegalAction, why)
	}
	pa, ok := m.(*pb.Action)
	if !ok || pa == nil {
		return bad(fmt.Sprintf("want *icetradersv1.Action, got %T", m))
	}
	var err string
	id := func(v int32) int {
		if v < 0 || v > math.MaxInt16 {
			err = fmt.Sprintf("id %d out of range", v)
			return 0
		}
		return int(v)
	}
	// target is an optional target system id, stored as 1+id.
	target := func(v int32) int16 {
		if v < 0 || v > maxTargetID {
			err = fmt.Sprintf("system id %d out of range", v)
			return 0
		}
		return int16(v + 1)
	}
	color := func(c pb.Color) Color {
		if c < pb.Color_COLOR_RED || c > pb.Color_COLOR_BLUE {
			err = fmt.Sprintf("bad color %v", c)
			return 0
		}
		return Color(c - 1)
	}
	size := func(z pb.Size) Size {
		if z < pb.Size_SIZE_SMALL || z > pb.Size_SIZE_LARGE {
			err = fmt.Sprintf("bad size %v", z)
			return 0
		}
		return Size(z)
	}
	piece := func(p *pb.Piece) Piece {
		if p == nil {
			err = "missing piece"
			return Piece{}
		}
		return Piece{color(p.GetColor()), size(p.GetSize())}
	}
	var a engine.Action
	switch k := pa.GetKind().(type) {
	case *pb.Action_ChooseAlignment:
		al := k.ChooseAlignment.GetAlignment()
		if al != pb.Alignment_ALIGNMENT_GOOD && al != pb.Alignment_ALIGNMENT_EVIL {
			return bad("alignment must be good or evil")
		}
		a = ChooseAlignment(Alignment(al))
	case *pb.Action_ChoosePicks:
		a = ChoosePicks(piece(k.ChoosePicks.GetFirst()), piece(k.ChoosePicks.GetSecond()))
	case *pb.Action_Repick:
		a = Repick(piece(k.Repick.GetPiece()))
	case *pb.Action_PlaceFirstShip:
		a = Place(color(k.PlaceFirstShip.GetColor()), id(k.PlaceFirstShip.GetSystemId()))
	case *pb.Action_Move:
		a = Move(id(k.Move.GetShipId()), id(k.Move.GetToId()))
	case *pb.Action_Trade:
		a = Trade(id(k.Trade.GetShipId()), piece(k.Trade.GetPiece()))
	case *pb.Action_Grow:
		a = Grow(id(k.Grow.GetShipId()))
	case *pb.Action_AddShip:
		a = Add(id(k.AddShip.GetShipId()), size(k.AddShip.GetSize()))
		if k.AddShip.SystemId != nil {
			a.Arg[2] = target(k.AddShip.GetSystemId())
		}
	case *pb.Action_Attack:
		a = Attack(id(k.Attack.GetShipId()), id(k.Attack.GetTargetId()))
		if c := k.Attack.GetReduceTo(); c != pb.Color_COLOR_UNSPECIFIED {
			a.Arg[2] = int16(color(c)) + 1
		}
	case *pb.Action_Discover:
		a = Discover(id(k.Discover.GetShipId()))
	case *pb.Action_Sacrifice:
		a = Sacrifice(id(k.Sacrifice.GetShipId()))
	case *pb.Action_Research:
		ids := k.Research.GetShipIds()
		if len(ids) != 3 {
			return bad("research lists exactly three ships")
		}
		a = Research(id(ids[0]), id(ids[1]), id(ids[2]), piece(k.Research.GetPiece()))
		if k.Research.SystemId != nil {
			a.Arg[5] = target(k.Research.GetSystemId())
		}
	case *pb.Action_Pass:
		a = Pass()
	case *pb.Action_EndSacrifice:
		a = EndSacrifice()
	case *pb.Action_Enterprise:
		a = Enterprise(piece(k.Enterprise.GetPiece()))
	case *pb.Action_Revolt:
		a = Revolt(id(k.Revolt.GetShipId()))
	case *pb.Action_Decline:
		a = Decline()
	default:
		return bad("no action kind set")
	}
	if err != "" {
		return bad(err)
	}
	return a, nil
}

// Observe is seat's view: its own alignment and picks, everyone's once revealed, and the
// public board. Observe(engine.Spectator) is the public view.
func (s *State) Observe(seat engine.Seat) proto.Message { return s.observe(seat, false) }

// ObserveInto is Observe built in the memory of the view last built in scratch
// (engine.Reobserver).
func (s *State) ObserveInto(seat engine.Seat, scratch *any) proto.Message {
	sc, _ := (*scratch).(*observeScratch)
	if sc == nil {
		sc = new(observeScratch)
		*scratch = sc
	}
	return s.observeIn(sc, seat, false)
}

var _ engine.Reobserver = (*State)(nil)

// ObserveAll is the omniscient view, for finished matches.
func (s *State) ObserveAll() proto.Message { return s.observe(engine.Spectator, true) }

// observationBlock is an observation's parts of bounded size, allocated as one: an
// observation is built for every decision. The players themselves are allocated as many as
// there are.
type observationBlock struct {
	o          pb.Observation
	stash      [numKinds]pb.StashCount
	stashPtrs  [numKinds]*pb.StashCount
	playerPtrs [maxSeats]*pb.Player
	toAct      [maxSeats]int32
}

// observeScratch is the memory an observation is built in: its parts of bounded size, and
// its lists, as long as the longest built in it, kept for the next (ObserveInto).
type observeScratch struct {
	observationBlock
	ships      []pb.Ship
	shipPtrs   []*pb.Ship
	systems    []pb.System
	systemPtrs []*pb.System
	hypers     []pb.Hyperspace
	hyperPtrs  []*pb.Hyperspace
	connected  []int32
	players    []pb.Player
}

// grown is buf at length n, in its own memory if that holds n.
func grown[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
}

// maxSeats is the most seats a match has (game.Info).
const maxSeats = 6

func (s *State) observe(viewer engine.Seat, all bool) *pb.Observation {
	return s.observeIn(new(observeScratch), viewer, all)
}

// observeIn builds viewer's observation in sc. Every message in it is written whole, so
// nothing of the view sc held before remains.
func (s *State) observeIn(sc *observeScratch, viewer engine.Seat, all bool) *pb.Observation {
	b := &sc.observationBlock
	o := &b.o
	*o = pb.Observation{
		Seat:               int32(viewer),
		Seats:              int32(s.cfg.seats),
		Phase:              pb.Phase(s.phase),
		Turn:               s.turn,
		CurrentSeat:        -1,
		FirstSeat:          int32(s.first),
		TurnCap:            int32(s.cfg.turnCap),
		PassRoundsCap:      int32(s.cfg.passRounds),
		ConsecutivePasses:  s.passes,
		StashPerKind:       int32(s.cfg.perKind),
		Rules:              s.cfg.rulesProto(),
		AlignmentsRevealed: s.shown || s.phase == phaseOver,
	}
	if all {
		o.Seat = -1
	}
	if s.phase == phasePlay {
		o.CurrentSeat = int32(s.cur)
	}
	var toAct [maxSeats]engine.Seat
	if seats := s.ToAct(toAct[:0]); len(seats) > 0 {
		for i, t := range seats {
			b.toAct[i] = int32(t)
		}
		o.ToAct = b.toAct[:len(seats):len(seats)]
	}
	// An observation is built for every decision: its pieces are shared (pieceProto), its
	// parts of bounded size are one block, and its ships, systems and connections one block
	// each.
	piece := pieceProto
	for k := range b.stash {
		b.stash[k] = pb.StashCount{Piece: piece(pieceOfKind(k)), Count: int32(s.stash[k])}
		b.stashPtrs[k] = &b.stash[k]
	}
	o.Stash = b.stashPtrs[:]
	sc.ships = grown(sc.ships, len(s.ships))
	sc.shipPtrs = grown(sc.shipPtrs, len(s.ships))
	shipBlock, shipPtrs := sc.ships, sc.shipPtrs
	nSys := 0
	for li := range s.locs {
		if !s.locs[li].hyper {
			nSys++
		}
	}
	sc.systems = grown(sc.systems, nSys)
	sc.systemPtrs = grown(sc.systemPtrs, nSys)
	sc.hypers = grown(sc.hypers, len(s.locs)-nSys)
	sc.hyperPtrs = grown(sc.hyperPtrs, len(s.locs)-nSys)
	sysBlock := sc.systems
	o.Systems = sc.systemPtrs[:0]
	sc.connected = grown(sc.connected, nSys*max(len(s.locs)-1, 0)) // every system's connections, at most
	connected := sc.connected[:0]
	placed := 0
	for li := range s.locs {
		l := &s.locs[li]
		from := placed
		for i := range s.ships {
			if x := &s.ships[i]; x.loc == l.id {
				shipBlock[placed] = pb.Ship{Id: int32(x.id), Owner: int32(x.owner), Piece: piece(x.piece)}
				shipPtrs[placed] = &shipBlock[placed]
				placed++
			}
		}
		var ships []*pb.Ship
		if placed > from {
			ships = shipPtrs[from:placed:placed]
		}
		if l.hyper {
			h := &sc.hypers[len(o.Hyperspaces)]
			*h = pb.Hyperspace{Id: int32(l.id), Ships: ships}
			if o.Hyperspaces == nil {
				o.Hyperspaces = sc.hyperPtrs[:0]
			}
			o.Hyperspaces = append(o.Hyperspaces, h)
			continue
		}
		sys := &sysBlock[len(o.Systems)]
		*sys = pb.System{Id: int32(l.id), Marker: piece(l.marker), SecondMarker: piece(l.second), Ships: ships}
		at := len(connected)
		for j := range s.locs {
			if d := &s.locs[j]; d.id != l.id && canMove(l, d) {
				connected = append(connected, int32(d.id))
			}
		}
		if len(connected) > at {
			sys.ConnectedIds = connected[at:len(connected):len(connected)]
		}
		o.Systems = append(o.Systems, sys)
	}
	picksShown := s.phase >= phaseRepick
	sc.players = grown(sc.players, len(s.players)) // as many as seated: a player is 104 bytes
	players := sc.players
	for i := range s.players {
		p := &s.players[i]
		own := all || viewer == engine.Seat(i)
		ships, large := s.fleet(i)
		pp := &players[i]
		*pp = pb.Player{
			Seat:            int32(i),
			AlignmentChosen: p.align != Unknown,
			PicksChosen:     p.picked,
			Eliminated:      p.out,
			EliminatedBy:    int32(p.outBy),
			PlacedFirstShip: p.placed,
			EverLarge:       p.everLarge,
			TurnsTaken:      int32(p.turns),
			TurnedEvil:      p.turnedEvil,
			Ships:           int32(ships),
			LargeShips:      int32(large),
		}
		if own || o.AlignmentsRevealed {
			pp.Alignment = alignProto(p.align)
		}
		if own || picksShown {
			pp.FirstPick = piece(p.picks[0])
			pp.SecondPick = piece(p.picks[1])
		}
		b.playerPtrs[i] = pp
	}
	o.Players = b.playerPtrs[:len(s.players):len(s.players)]
	if s.sac.active {
		o.PendingSacrifice = &pb.PendingSacrifice{Sacrificed: pieceProto(s.sac.piece), UsesLeft: int32(s.sac.left), UsesTotal: int32(s.sac.piece.Size)}
	}
	if s.pend.kind != pb.ConcentrationKind_CONCENTRATION_KIND_UNSPECIFIED {
		o.PendingConcentration = &pb.PendingConcentration{Kind: s.pend.kind, SystemId: int32(s.pend.loc), CatalystShipId: int32(s.pend.catalyst)}
	}
	if s.phase == phaseRepick {
		if seat, slot, ok := s.repickSlot(); ok {
			o.PendingRepick = &pb.PendingRepick{Seat: int32(seat), Slot: int32(slot + 1)}
		}
	}
	if s.phase == phaseOver {
		o.GameOver = s.gameOverProto()
	}
	return o
}

// rulesProto is the match's rule options for an observation, nil when all are the defaults.
// It is built for every observation, so the defaults are found from the fields, not by
// comparing messages (proto.Equal cost 8% of a decision).
func (c config) rulesProto() *pb.Rules {
	if !c.addAnySystem && !c.reduceChoose && !c.rndAnySystem && !c.repickPairs && !c.goodWinAliveOnly && !c.tiebreakSeat {
		return nil
	}
	return &pb.Rules{
		GreenAddAny: c.addAnySystem, ReduceColorChoose: c.reduceChoose, RndAnySystem: c.rndAnySystem,
		RepickPairs: c.repickPairs, GoodWinAliveOnly: c.goodWinAliveOnly, FirstTiebreakLowestSeat: c.tiebreakSeat,
	}
}
