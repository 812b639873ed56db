package icetraders

import (
	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// Legal appends seat's legal actions in a stable order:
//   - alignment: good, evil;
//   - opening picks: every (first, second) pair of pieces, kind order (red small .. blue large);
//   - repick: every piece the stash holds;
//   - first turn: for each system, each color of small piece the stash holds;
//   - a turn: for each of seat's ships by id, its power uses (red, yellow, green, blue, as its
//     color or its system gives them), then discover and sacrifice; then every R&D; then pass
//     (a named color or target system, where an option asks for one, varies fastest);
//   - a sacrifice: each eligible ship's uses of the power, then end sacrifice;
//   - an Enterprise or Revolt: its choices, then decline.
func (s *State) Legal(seat engine.Seat, buf []engine.Action) []engine.Action {
	if !s.owes(seat) {
		return buf
	}
	sn := int(seat)
	switch s.phase {
	case phaseAlign:
		return append(buf, ChooseAlignment(Good), ChooseAlignment(Evil))
	case phasePicks:
		if s.cfg.perKind < 2 {
			return append(buf, distinctPicks...)
		}
		return append(buf, openingPicks...)
	case phaseRepick:
		for k := 0; k < numKinds; k++ {
			if s.stash[k] > 0 {
				buf = append(buf, Repick(pieceOfKind(k)))
			}
		}
		return buf
	}
	switch {
	case s.pend.kind != pb.ConcentrationKind_CONCENTRATION_KIND_UNSPECIFIED:
		return s.legalChoice(sn, buf)
	case s.sac.active:
		buf = s.legalUses(sn, buf, s.sac.piece.Color)
		return append(buf, EndSacrifice())
	case !s.players[sn].placed:
		for i := range s.locs {
			if s.locs[i].hyper {
				continue
			}
			for c := Red; c < numColors; c++ {
				if s.stash[Piece{c, Small}.kind()] > 0 {
					buf = append(buf, Place(c, int(s.locs[i].id)))
				}
			}
		}
		return buf
	}
	return s.legalTurn(sn, buf)
}

// openingPicks and distinctPicks (no piece twice, for a stash of one piece a kind) are the
// opening picks' legal actions, listed once: every seat's Legal lists up to 144 of them, and
// building each was most of a random game's work.
var openingPicks, distinctPicks = func() (all, distinct []engine.Action) {
	for k1 := 0; k1 < numKinds; k1++ {
		for k2 := 0; k2 < numKinds; k2++ {
			a := ChoosePicks(pieceOfKind(k1), pieceOfKind(k2))
			all = append(all, a)
			if k1 != k2 {
				distinct = append(distinct, a)
			}
		}
	}
	return all, distinct
}()

// legalTurn lists a normal turn's actions.
func (s *State) legalTurn(sn int, buf []engine.Action) []engine.Action {
	for i := range s.ships {
		x := s.ships[i]
		if int(x.owner) != sn {
			continue
		}
		l := &s.locs[s.locIdx(int(x.loc))]
		for c := Red; c < numColors; c++ {
			if x.piece.Color == c || l.hasPower(c) {
				buf = s.legalPower(buf, x, c)
			}
		}
		buf = append(buf, Discover(int(x.id)), Sacrifice(int(x.id)))
	}
	buf = s.legalResearch(sn, buf)
	return append(buf, Pass())
}

// legalUses lists the uses of color c's power a sacrifice gives: by sn's ships of other colors.
func (s *State) legalUses(sn int, buf []engine.Action, c Color) []engine.Action {
	for i := range s.ships {
		x := s.ships[i]
		if int(x.owner) == sn && x.piece.Color != c {
			buf = s.legalPower(buf, x, c)
		}
	}
	return buf
}

// legalPower lists ship x's uses of color c's power.
func (s *State) legalPower(buf []engine.Action, x ship, c Color) []engine.Action {
	l := &s.locs[s.locIdx(int(x.loc))]
	switch c {
	case Red:
		for j := range s.ships {
			t := &s.ships[j]
			if t.loc != x.loc || t.id == x.id {
				continue
			}
			switch {
			case t.piece.Size <= x.piece.Size:
				buf = append(buf, Attack(int(x.id), int(t.id)))
			case !s.cfg.reduceChoose:
				if s.stash[Piece{t.piece.Color, t.piece.Size - 1}.kind()] > 0 {
					buf = append(buf, Attack(int(x.id), int(t.id)))
				}
			default:
				for c := Red; c < numColors; c++ {
					if s.stash[Piece{c, t.piece.Size - 1}.kind()] > 0 {
						buf = append(buf, AttackInto(int(x.id), int(t.id), c))
					}
				}
			}
		}
	case Yellow:
		for j := range s.locs {
			d := &s.locs[j]
			if d.id != l.id && canMove(l, d) {
				buf = append(buf, Move(int(x.id), int(d.id)))
			}
		}
	case Green:
		if x.piece.Size < Large && s.stash[Piece{x.piece.Color, x.piece.Size + 1}.kind()] > 0 {
			buf = append(buf, Grow(int(x.id)))
		}
		if !s.cfg.addAnySystem {
			if !l.hyper && s.shipsAt(l.id) < 4 {
				for z := Small; z <= x.piece.Size; z++ {
					if s.stash[Piece{x.piece.Color, z}.kind()] > 0 {
						buf = append(buf, Add(int(x.id), z))
					}
				}
			}
			break
		}
		for j := range s.locs {
			d := &s.locs[j]
			if d.hyper || s.shipsAt(d.id) >= 4 {
				continue
			}
			for z := Small; z <= x.piece.Size; z++ {
				if s.stash[Piece{x.piece.Color, z}.kind()] > 0 {
					buf = append(buf, AddTo(int(x.id), z, int(d.id)))
				}
			}
		}
	case Blue:
		for k := 0; k < numKinds; k++ {
			p := pieceOfKind(k)
			if p.Size <= x.piece.Size && p != x.piece && s.stash[k] > 0 {
				buf = append(buf, Trade(int(x.id), p))
			}
		}
	}
	return buf
}

// canMove reports whether a yellow move may go from l to d (d != l): to a connected system,
// or from a hyperspace to any system or other hyperspace.
func canMove(l, d *location) bool {
	if l.hyper {
		return true
	}
	return !d.hyper && Connected(l.marker, d.marker)
}

// legalResearch lists every R&D: three of sn's ships in one system, for any piece the stash
// holds once they are back in it, and under rnd_where=any for every system to put it in.
func (s *State) legalResearch(sn int, buf []engine.Action) []engine.Action {
	// Most turns' seat has too few ships for any R&D: counting them first spares those turns
	// a scan of every system (and the zeroing of ids).
	mine := 0
	for i := range s.ships {
		if int(s.ships[i].owner) == sn {
			mine++
		}
	}
	if mine < 3 {
		return buf
	}
	var ids [numKinds * maxPerKind]int16
	for li := range s.locs {
		l := &s.locs[li]
		if l.hyper {
			continue
		}
		n := 0
		for i := range s.ships {
			if s.ships[i].loc == l.id && int(s.ships[i].owner) == sn {
				ids[n] = int16(i) // index; ids ascend with indices
				n++
			}
		}
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				for c := b + 1; c < n; c++ {
					pa, pb, pc := s.ships[ids[a]].piece, s.ships[ids[b]].piece, s.ships[ids[c]].piece
					for k := 0; k < numKinds; k++ {
						have := int(s.stash[k])
						if pa.kind() == k {
							have++
						}
						if pb.kind() == k {
							have++
						}
						if pc.kind() == k {
							have++
						}
						if have == 0 {
							continue
						}
						ia, ib, ic := int(s.ships[ids[a]].id), int(s.ships[ids[b]].id), int(s.ships[ids[c]].id)
						if !s.cfg.rndAnySystem {
							buf = append(buf, Research(ia, ib, ic, pieceOfKind(k)))
							continue
						}
						for d := range s.locs {
							if !s.locs[d].hyper {
								buf = append(buf, ResearchAt(ia, ib, ic, pieceOfKind(k), int(s.locs[d].id)))
							}
						}
					}
				}
			}
		}
	}
	return buf
}

// legalChoice lists an Enterprise's or a Revolt's choices, then decline.
func (s *State) legalChoice(sn int, buf []engine.Action) []engine.Action {
	switch s.pend.kind {
	case pb.ConcentrationKind_CONCENTRATION_KIND_ENTERPRISE:
		l := &s.locs[s.locIdx(int(s.pend.loc))]
		for k := 0; k < numKinds; k++ {
			if p := pieceOfKind(k); p.Size < l.marker.Size && s.stash[k] > 0 {
				buf = append(buf, Enterprise(p))
			}
		}
	case pb.ConcentrationKind_CONCENTRATION_KIND_REVOLT:
		for i := range s.ships {
			t := &s.ships[i]
			if t.loc == s.pend.loc && t.id != s.pend.catalyst && int(t.owner) != sn {
				buf = append(buf, Revolt(int(t.id)))
			}
		}
	}
	return append(buf, Decline())
}

// hasUse reports whether the sacrifice in progress has any use left to make.
func (s *State) hasUse(sn int) bool {
	s.scratch = s.legalUses(sn, s.scratch[:0], s.sac.piece.Color)
	return len(s.scratch) > 0
}
