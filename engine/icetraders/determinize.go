package icetraders

import (
	"fmt"
	"sort"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// FromObservation rebuilds a playable State from one seat's observation, for bots that
// simulate: what the seat does not know (other seats' unrevealed alignments and picks) is
// filled in by guess (nil guesses Good). The result has no event history and a fresh random
// source; ids and the board are as observed.
func FromObservation(o *pb.Observation, guess func(seat int) Alignment) (*State, error) {
	n := int(o.GetSeats())
	if n < 2 || n > 6 || len(o.GetPlayers()) != n || len(o.GetStash()) != numKinds {
		return nil, fmt.Errorf("icetraders: observation is not a whole view (%d seats, %d players, %d stash kinds)", n, len(o.GetPlayers()), len(o.GetStash()))
	}
	s := &State{
		cfg: config{
			seats:            n,
			perKind:          int(o.GetStashPerKind()),
			turnCap:          int(o.GetTurnCap()),
			passRounds:       int(o.GetPassRoundsCap()),
			addAnySystem:     o.GetRules().GetGreenAddAny(),
			reduceChoose:     o.GetRules().GetReduceColorChoose(),
			rndAnySystem:     o.GetRules().GetRndAnySystem(),
			repickPairs:      o.GetRules().GetRepickPairs(),
			goodWinAliveOnly: o.GetRules().GetGoodWinAliveOnly(),
			tiebreakSeat:     o.GetRules().GetFirstTiebreakLowestSeat(),
		},
		rng:     *engine.NewRand(0),
		phase:   phase(o.GetPhase()),
		players: make([]player, n),
		first:   int8(o.GetFirstSeat()),
		cur:     int8(o.GetCurrentSeat()),
		turn:    o.GetTurn(),
		passes:  o.GetConsecutivePasses(),
		shown:   o.GetAlignmentsRevealed(),
		nextLoc: int16(2 * n),
	}
	if s.phase < phaseAlign || s.phase > phaseOver {
		return nil, fmt.Errorf("icetraders: observation has no phase")
	}
	piece := func(p *pb.Piece) Piece {
		if p == nil {
			return Piece{}
		}
		return Piece{Color(p.GetColor() - 1), Size(p.GetSize())}
	}
	for k, sc := range o.GetStash() {
		if piece(sc.GetPiece()).kind() != k {
			return nil, fmt.Errorf("icetraders: stash out of order")
		}
		s.stash[k] = int8(sc.GetCount())
	}
	addShips := func(loc int16, ships []*pb.Ship) {
		for _, x := range ships {
			s.ships = append(s.ships, ship{id: int16(x.GetId()), loc: loc, owner: int8(x.GetOwner()), piece: piece(x.GetPiece())})
			if int16(x.GetId()) >= s.nextShp {
				s.nextShp = int16(x.GetId()) + 1
			}
		}
	}
	for _, sys := range o.GetSystems() {
		s.locs = append(s.locs, location{id: int16(sys.GetId()), marker: piece(sys.GetMarker()), second: piece(sys.GetSecondMarker())})
		addShips(int16(sys.GetId()), sys.GetShips())
	}
	for _, h := range o.GetHyperspaces() {
		s.locs = append(s.locs, location{id: int16(h.GetId()), hyper: true})
		addShips(int16(h.GetId()), h.GetShips())
	}
	sort.Slice(s.locs, func(i, j int) bool { return s.locs[i].id < s.locs[j].id })
	sort.Slice(s.ships, func(i, j int) bool { return s.ships[i].id < s.ships[j].id })
	for _, l := range s.locs {
		if l.id >= s.nextLoc {
			s.nextLoc = l.id + 1
		}
	}
	for i, pp := range o.GetPlayers() {
		p := &s.players[i]
		p.align = Alignment(pp.GetAlignment())
		if p.align == Unknown && pp.GetAlignmentChosen() {
			p.align = Good
			if guess != nil {
				p.align = guess(i)
			}
		}
		p.turnedEvil = pp.GetTurnedEvil()
		p.picked = pp.GetPicksChosen()
		p.picks = [2]Piece{piece(pp.GetFirstPick()), piece(pp.GetSecondPick())}
		p.revealed = p.picks
		p.served = [2]bool{s.phase >= phasePlay, s.phase >= phasePlay}
		p.placed = pp.GetPlacedFirstShip()
		p.everLarge = pp.GetEverLarge()
		p.out = pp.GetEliminated()
		p.outBy = int8(pp.GetEliminatedBy())
		p.turns = int16(pp.GetTurnsTaken())
	}
	if r := o.GetPendingRepick(); r != nil && s.phase == phaseRepick {
		// Mark the picks before the pending one served, so repickSlot finds it.
		for i := range s.players {
			for j := 0; j < 2; j++ {
				s.players[i].served[j] = i < int(r.GetSeat()) || (i == int(r.GetSeat()) && j < int(r.GetSlot())-1)
			}
		}
	}
	if ps := o.GetPendingSacrifice(); ps != nil {
		s.sac = sacrifice{active: true, piece: piece(ps.GetSacrificed()), left: int8(ps.GetUsesLeft())}
	}
	if pc := o.GetPendingConcentration(); pc != nil {
		s.pend = pending{kind: pc.GetKind(), loc: int16(pc.GetSystemId()), catalyst: int16(pc.GetCatalystShipId())}
	}
	if g := o.GetGameOver(); g != nil {
		s.end = g.GetKind()
		for _, w := range g.GetWinners() {
			s.winners |= 1 << w
		}
	}
	for _, x := range s.ships {
		if s.locIdx(int(x.loc)) < 0 || !x.piece.valid() {
			return nil, fmt.Errorf("icetraders: ship s%d is malformed", x.id)
		}
	}
	return s, nil
}

// GuessHidden sets every alignment viewer cannot see to Good, as FromObservation without a
// guess does: a bot that models another seat's greedy play on a sampled state then reads it
// as that seat's own rebuilt view would.
func (s *State) GuessHidden(viewer int) {
	if s.shown || s.phase == phaseOver {
		return
	}
	for i := range s.players {
		if i != viewer && s.players[i].align != Unknown {
			s.players[i].align = Good
		}
	}
}
