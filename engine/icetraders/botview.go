package icetraders

import pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"

// A read-only, allocation-free view of the board for bots that simulate on a State rebuilt
// with FromObservation: scoring thousands of simulated states through Observe would build a
// protobuf message for each. Everything here is public in every seat's observation.

// ShipInfo is one ship.
type ShipInfo struct {
	ID, Loc int16 // the ship's id; the id of the location it is in
	Owner   int8  // a seat, or -1: nobody's
	Piece   Piece
}

// LocInfo is one location: a system with its marker (and second marker, Size 0 if none),
// or a hyperspace.
type LocInfo struct {
	ID             int16
	Hyper          bool
	Marker, Second Piece
}

// AppendShips appends every ship, ascending id.
func (s *State) AppendShips(buf []ShipInfo) []ShipInfo {
	for i := range s.ships {
		x := &s.ships[i]
		buf = append(buf, ShipInfo{ID: x.id, Loc: x.loc, Owner: x.owner, Piece: x.piece})
	}
	return buf
}

// AppendLocations appends every location, ascending id.
func (s *State) AppendLocations(buf []LocInfo) []LocInfo {
	for i := range s.locs {
		l := &s.locs[i]
		buf = append(buf, LocInfo{ID: l.id, Hyper: l.hyper, Marker: l.marker, Second: l.second})
	}
	return buf
}

// StashCount is how many pieces p the stash holds.
func (s *State) StashCount(p Piece) int {
	if !p.valid() {
		return 0
	}
	return int(s.stash[p.kind()])
}

// PlayerStatus is seat's public standing: whether it has placed its first ship, has ever
// owned a large ship (its large ships are then the ones whose loss eliminates it), and has
// been eliminated.
func (s *State) PlayerStatus(seat int) (placed, everLarge, out bool) {
	if seat < 0 || seat >= len(s.players) {
		return false, false, false
	}
	p := &s.players[seat]
	return p.placed, p.everLarge, p.out
}

// Winners is a bit per winning seat once the match is over.
func (s *State) Winners() uint8 { return s.winners }

// MidAction reports whether the seat to act is still inside an action: a sacrifice with uses
// left, or an Enterprise or Revolt to take or decline.
func (s *State) MidAction() bool {
	return s.phase == phasePlay && (s.sac.active || s.pend.kind != pb.ConcentrationKind_CONCENTRATION_KIND_UNSPECIFIED)
}

// CopyFrom makes s a deep copy of src, as Clone does, reusing s's buffers: simulation loops
// that try many actions from one state copy it into one scratch state without allocating.
func (s *State) CopyFrom(src *State) {
	locs, ships, players, events, scratch := s.locs[:0], s.ships[:0], s.players[:0], s.events[:0], s.scratch
	*s = *src
	s.locs = append(locs, src.locs...)
	s.ships = append(ships, src.ships...)
	s.players = append(players, src.players...)
	s.events = append(events, src.events...)
	s.scratch = scratch
}

// Turns is how many turns seat has taken, and the turn cap after which the match is drawn.
func (s *State) Turns(seat int) (taken, turnCap int) {
	if seat < 0 || seat >= len(s.players) {
		return 0, s.cfg.turnCap
	}
	return int(s.players[seat].turns), s.cfg.turnCap
}
