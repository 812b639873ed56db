package icetraders

import (
	"encoding/binary"
	"math/rand/v2"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// phase is where the match is.
type phase uint8

const (
	phaseAlign phase = iota + 1
	phasePicks
	phaseRepick
	phasePlay
	phaseOver
)

// ship is a piece lying down, in one location, owned by a seat or by nobody (-1).
type ship struct {
	id    int16
	loc   int16
	owner int8
	piece Piece
}

// location is a system (a marker, maybe a second one) or a hyperspace (no marker).
type location struct {
	id     int16
	hyper  bool
	marker Piece
	second Piece // Size 0: not a dual system
}

// player is one seat's standing.
type player struct {
	align      Alignment // Unknown until chosen; Evil once turned
	turnedEvil bool
	picked     bool
	revealed   [2]Piece // the opening picks as chosen and revealed
	picks      [2]Piece // the opening systems as they stand after any repick
	served     [2]bool  // whether the stash has served each pick
	repicked   [2]bool  // the pick was not served at the reveal and was chosen again
	placed     bool     // the first turn is done
	everLarge  bool
	out        bool // eliminated
	outBy      int8 // the credited seat, or -1
	turns      int16
}

// sacrifice is a sacrifice in progress.
type sacrifice struct {
	active bool
	piece  Piece // the sacrificed ship
	left   int8  // uses left
}

// pending is an Enterprise or a Revolt awaiting the causer's choice.
type pending struct {
	kind     pb.ConcentrationKind // UNSPECIFIED: none
	loc      int16
	catalyst int16
}

// State is an IceTraders match in progress.
type State struct {
	cfg     config
	rng     rand.PCG
	phase   phase
	stash   [numKinds]int8
	locs    []location // ascending id
	ships   []ship     // ascending id
	nextLoc int16
	nextShp int16
	players []player
	cur     int8 // whose turn in phasePlay
	first   int8 // the first player, -1 until known
	turn    int32
	passes  int32 // passes in a row
	shown   bool  // alignments revealed
	sac     sacrifice
	pend    pending
	end     pb.EndKind
	winners uint8 // bit per seat
	events  []event

	scratch []engine.Action // Legal's buffer for internal checks; not copied by Clone
}

var (
	_ engine.State      = (*State)(nil)
	_ engine.Defaulter  = (*State)(nil)
	_ engine.Omniscient = (*State)(nil)
)

// freshMatch is a State with room for a short match's players and board, allocated in one
// piece: a random game is over in about twenty actions, and growing each slice from nothing
// was ten allocations a game, more than all its moves made. A longer match outgrows the room
// and its slices move out as any slice grows. The log has its own array, so that the one it
// outgrows is freed.
type freshMatch struct {
	State
	players [maxSeats]player
	locs    [16]location // 2 a seat, then the systems discovered
	ships   [16]ship
}

func newState(c config, seed uint64) *State {
	m := &freshMatch{}
	s := &m.State
	*s = State{
		cfg:     c,
		rng:     *engine.NewRand(seed),
		phase:   phaseAlign,
		players: m.players[:c.seats],
		locs:    m.locs[:0],
		ships:   m.ships[:0],
		nextLoc: int16(2 * c.seats),
		first:   -1,
		cur:     -1,
		events:  make([]event, 0, 32), // a few a turn: most random games log 17-40
	}
	for k := range s.stash {
		s.stash[k] = int8(c.perKind)
	}
	for i := range s.players {
		s.players[i].outBy = -1
	}
	if c.randomAlign {
		r := rand.New(&s.rng)
		for i := range s.players {
			s.players[i].align = Good + Alignment(r.IntN(2))
			s.log(event{kind: evAssigned, seat: int8(i)})
		}
		s.phase = phasePicks
	}
	return s
}

// Seats is the number of seats.
func (s *State) Seats() int { return s.cfg.seats }

// ToAct lists the seats that owe a decision.
func (s *State) ToAct(buf []engine.Seat) []engine.Seat {
	switch s.phase {
	case phaseAlign:
		for i := range s.players {
			if s.players[i].align == Unknown {
				buf = append(buf, engine.Seat(i))
			}
		}
	case phasePicks:
		for i := range s.players {
			if !s.players[i].picked {
				buf = append(buf, engine.Seat(i))
			}
		}
	case phaseRepick:
		if seat, _, ok := s.repickSlot(); ok {
			buf = append(buf, engine.Seat(seat))
		}
	case phasePlay:
		buf = append(buf, engine.Seat(s.cur))
	}
	return buf
}

// owes reports whether seat owes a decision now.
func (s *State) owes(seat engine.Seat) bool {
	if seat < 0 || int(seat) >= s.cfg.seats {
		return false
	}
	p := &s.players[seat]
	switch s.phase {
	case phaseAlign:
		return p.align == Unknown
	case phasePicks:
		return !p.picked
	case phaseRepick:
		r, _, ok := s.repickSlot()
		return ok && r == int(seat)
	case phasePlay:
		return int(s.cur) == int(seat)
	}
	return false
}

// repickSlot is the next unserved opening pick: lowest seat first, first pick before second
// (under either repick_order: it orders only which picks the stash serves at the reveal).
func (s *State) repickSlot() (seat, slot int, ok bool) {
	for i := range s.players {
		for j := 0; j < 2; j++ {
			if !s.players[i].served[j] {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

// Terminal reports whether the match is over.
func (s *State) Terminal() bool { return s.phase == phaseOver }

// Result is the outcome: winners score 1 and rank first, everyone else scores 0.
func (s *State) Result() engine.Result {
	n := s.cfg.seats
	r := engine.Result{Scores: make([]float64, n)}
	for i := 0; i < n; i++ {
		if s.winners&(1<<i) != 0 {
			r.Scores[i] = 1
		}
	}
	r.Ranks = engine.RanksByScore(r.Scores)
	if s.phase == phaseOver && s.winners == 0 {
		// Nobody wins (Precise resolution 9): every seat is ranked last together.
		for i := range r.Ranks {
			r.Ranks[i] = n
		}
	}
	switch s.end {
	case pb.EndKind_END_KIND_UNSPECIFIED:
		r.Reason = engine.EndNone
	case pb.EndKind_END_KIND_TURN_CAP, pb.EndKind_END_KIND_PASS_CAP:
		r.Reason = engine.EndCap
	default:
		r.Reason = engine.EndNormal
	}
	r.Detail = s.endDetail()
	return r
}

// DefaultAction is the pass (or the end of a sacrifice, or a decline) where there is one.
func (s *State) DefaultAction(seat engine.Seat) (engine.Action, bool) {
	if s.phase != phasePlay || !s.owes(seat) || !s.players[seat].placed {
		return engine.Action{}, false
	}
	switch {
	case s.pend.kind != pb.ConcentrationKind_CONCENTRATION_KIND_UNSPECIFIED:
		return Decline(), true
	case s.sac.active:
		return EndSacrifice(), true
	}
	return Pass(), true
}

// Clone is a deep copy.
func (s *State) Clone() engine.State { return s.clone() }

func (s *State) clone() *State {
	c := *s
	c.locs = append([]location(nil), s.locs...)
	c.ships = append([]ship(nil), s.ships...)
	c.players = append([]player(nil), s.players...)
	c.events = append([]event(nil), s.events...)
	c.scratch = nil
	return &c
}

// MarshalBinary is the whole state, hidden information and random source included.
func (s *State) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 256+8*len(s.ships)+8*len(s.locs)+48*len(s.events))
	rb, err := s.rng.MarshalBinary()
	if err != nil {
		return nil, err
	}
	b = append(b, rb...)
	b = append(b, byte(s.cfg.seats), byte(s.cfg.perKind), bool8(s.cfg.randomAlign))
	b = binary.LittleEndian.AppendUint16(b, uint16(s.cfg.turnCap))
	b = binary.LittleEndian.AppendUint16(b, uint16(s.cfg.passRounds))
	b = append(b, s.cfg.ruleBits())
	b = append(b, byte(s.phase), byte(s.cur), byte(s.first), bool8(s.shown), byte(s.end), s.winners)
	b = binary.LittleEndian.AppendUint32(b, uint32(s.turn))
	b = binary.LittleEndian.AppendUint32(b, uint32(s.passes))
	for _, n := range s.stash {
		b = append(b, byte(n))
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(s.nextLoc))
	b = binary.LittleEndian.AppendUint16(b, uint16(s.nextShp))
	b = append(b, bool8(s.sac.active), pieceByte(s.sac.piece), byte(s.sac.left), byte(s.pend.kind))
	b = binary.LittleEndian.AppendUint16(b, uint16(s.pend.loc))
	b = binary.LittleEndian.AppendUint16(b, uint16(s.pend.catalyst))
	for _, p := range s.players {
		b = append(b, byte(p.align), bool8(p.turnedEvil), bool8(p.picked),
			pieceByte(p.revealed[0]), pieceByte(p.revealed[1]), pieceByte(p.picks[0]), pieceByte(p.picks[1]),
			bool8(p.served[0]), bool8(p.served[1]), bool8(p.repicked[0]), bool8(p.repicked[1]), bool8(p.placed), bool8(p.everLarge), bool8(p.out), byte(p.outBy))
		b = binary.LittleEndian.AppendUint16(b, uint16(p.turns))
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(len(s.locs)))
	for _, l := range s.locs {
		b = binary.LittleEndian.AppendUint16(b, uint16(l.id))
		b = append(b, bool8(l.hyper), pieceByte(l.marker), pieceByte(l.second))
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(len(s.ships)))
	for _, sh := range s.ships {
		b = binary.LittleEndian.AppendUint16(b, uint16(sh.id))
		b = binary.LittleEndian.AppendUint16(b, uint16(sh.loc))
		b = append(b, byte(sh.owner), pieceByte(sh.piece))
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s.events)))
	for _, e := range s.events {
		b = e.append(b)
	}
	return b, nil
}

// ruleBits packs the [decision] options, one bit each.
func (c *config) ruleBits() byte {
	return bool8(c.addAnySystem) | bool8(c.reduceChoose)<<1 | bool8(c.rndAnySystem)<<2 |
		bool8(c.repickPairs)<<3 | bool8(c.goodWinAliveOnly)<<4 | bool8(c.tiebreakSeat)<<5
}

func bool8(v bool) byte {
	if v {
		return 1
	}
	return 0
}

func pieceByte(p Piece) byte { return byte(p.Color)<<4 | byte(p.Size) }

// ---- lookups ----

// shipIdx is the index in s.ships of ship id, or -1.
func (s *State) shipIdx(id int) int {
	lo, hi := 0, len(s.ships)
	for lo < hi {
		m := (lo + hi) / 2
		if int(s.ships[m].id) < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(s.ships) && int(s.ships[lo].id) == id {
		return lo
	}
	return -1
}

// locIdx is the index in s.locs of location id, or -1.
func (s *State) locIdx(id int) int {
	lo, hi := 0, len(s.locs)
	for lo < hi {
		m := (lo + hi) / 2
		if int(s.locs[m].id) < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(s.locs) && int(s.locs[lo].id) == id {
		return lo
	}
	return -1
}

// insertLoc adds l keeping s.locs sorted by id.
func (s *State) insertLoc(l location) {
	i := len(s.locs)
	s.locs = append(s.locs, l)
	for i > 0 && s.locs[i-1].id > l.id {
		s.locs[i] = s.locs[i-1]
		i--
	}
	s.locs[i] = l
}

// removeShipAt deletes s.ships[i], keeping order.
func (s *State) removeShipAt(i int) {
	copy(s.ships[i:], s.ships[i+1:])
	s.ships = s.ships[:len(s.ships)-1]
}

// removeLocAt deletes s.locs[i], keeping order.
func (s *State) removeLocAt(i int) {
	copy(s.locs[i:], s.locs[i+1:])
	s.locs = s.locs[:len(s.locs)-1]
}

// shipsAt counts the ships in location id.
func (s *State) shipsAt(id int16) int {
	n := 0
	for i := range s.ships {
		if s.ships[i].loc == id {
			n++
		}
	}
	return n
}

// colorAt counts the ships of color c in location id.
func (s *State) colorAt(id int16, c Color) int {
	n := 0
	for i := range s.ships {
		if s.ships[i].loc == id && s.ships[i].piece.Color == c {
			n++
		}
	}
	return n
}

// hasPower reports whether a ship in location l may use color c's system power.
func (l *location) hasPower(c Color) bool {
	if l.hyper {
		return false
	}
	return l.marker.Color == c || (l.second.Size != 0 && l.second.Color == c)
}

// fleet counts seat's ships and large ships.
func (s *State) fleet(seat int) (ships, large int) {
	for i := range s.ships {
		if int(s.ships[i].owner) == seat {
			ships++
			if s.ships[i].piece.Size == Large {
				large++
			}
		}
	}
	return
}

// take moves one piece from the stash into play; the caller has checked it is there.
func (s *State) take(p Piece) { s.stash[p.kind()]-- }

// put returns a piece to the stash.
func (s *State) put(p Piece) { s.stash[p.kind()]++ }

// gain records that seat now owns piece p (a large one counts for elimination).
func (s *State) gain(seat int, p Piece) {
	if seat >= 0 && p.Size == Large {
		s.players[seat].everLarge = true
	}
}
