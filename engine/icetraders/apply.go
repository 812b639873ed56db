package icetraders

import (
	"fmt"

	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/icetraders/v1"
)

// Apply plays a for seat. It validates in full before it changes anything, so an error leaves
// the state as it was; error texts name only public things and the seat's own choices.
func (s *State) Apply(seat engine.Seat, a engine.Action) error {
	if s.phase == phaseOver {
		return fmt.Errorf("%w: the match is over", engine.ErrGameOver)
	}
	if !s.owes(seat) {
		return fmt.Errorf("%w: seat %d owes no decision now", engine.ErrNotYourTurn, seat)
	}
	if a.Kind == kindNone || a.Kind >= numKinds_ {
		return illegal("unknown action kind %d", a.Kind)
	}
	// The arguments past the kind's must be zero: compared at once, as this runs every action.
	unused := a.Arg
	for i := range argCount[a.Kind] {
		unused[i] = 0
	}
	if unused != [len(a.Arg)]int16{} {
		return illegal("%s takes %d arguments", kindName(a.Kind), argCount[a.Kind])
	}
	sn := int(seat)
	switch s.phase {
	case phaseAlign:
		return s.applyAlign(sn, a)
	case phasePicks:
		return s.applyPicks(sn, a)
	case phaseRepick:
		return s.applyRepick(sn, a)
	}
	switch {
	case s.pend.kind != pb.ConcentrationKind_CONCENTRATION_KIND_UNSPECIFIED:
		return s.applyChoice(sn, a)
	case s.sac.active:
		return s.applyUse(sn, a)
	case !s.players[sn].placed:
		return s.applyPlace(sn, a)
	}
	return s.applyTurn(sn, a)
}

func illegal(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{engine.ErrIllegalAction}, args...)...)
}

// applyPlace is the first turn: a small ship of any color beside any system.
func (s *State) applyPlace(sn int, a engine.Action) error {
	if a.Kind != KindPlace {
		return illegal("your first turn places a small ship beside a system")
	}
	if a.Arg[0] < 0 || a.Arg[0] >= int16(numColors) {
		return illegal("no such color")
	}
	p := Piece{Color(a.Arg[0]), Small}
	li := s.locIdx(int(a.Arg[1]))
	if li < 0 || s.locs[li].hyper {
		return illegal("no system sys%d", a.Arg[1])
	}
	if s.stash[p.kind()] == 0 {
		return illegal("the stash has no %s", p)
	}
	s.log(event{kind: evAction, seat: int8(sn), a: a})
	id := s.newShip(s.locs[li].id, sn, p)
	s.players[sn].placed = true
	s.concentrate(sn, id)
	s.afterStep(sn)
	return nil
}

// newShip takes p from the stash as a new ship of owner in location loc.
func (s *State) newShip(loc int16, owner int, p Piece) int16 {
	id := s.nextShp
	s.nextShp++
	s.take(p)
	s.ships = append(s.ships, ship{id: id, loc: loc, owner: int8(owner), piece: p})
	s.gain(owner, p)
	return id
}

// ownShip finds seat's ship id, or explains why it cannot act.
func (s *State) ownShip(sn int, id int16) (int, error) {
	i := s.shipIdx(int(id))
	if i < 0 {
		return -1, illegal("no ship s%d", id)
	}
	if int(s.ships[i].owner) != sn {
		return -1, illegal("ship s%d is not yours", id)
	}
	return i, nil
}

func (s *State) applyTurn(sn int, a engine.Action) error {
	switch a.Kind {
	case KindMove, KindTrade, KindGrow, KindAdd, KindAttack:
		xi, err := s.checkPower(sn, a, false)
		if err != nil {
			return err
		}
		s.log(event{kind: evAction, seat: int8(sn), a: a})
		s.concentrate(sn, s.doPower(sn, a, xi))
		s.afterStep(sn)
	case KindDiscover:
		xi, err := s.ownShip(sn, a.Arg[0])
		if err != nil {
			return err
		}
		s.log(event{kind: evAction, seat: int8(sn), a: a})
		x := s.ships[xi]
		s.removeShipAt(xi)
		s.insertLoc(location{id: s.nextLoc, marker: x.piece})
		s.nextLoc++
		s.closeIfEmpty(x.loc)
		s.afterStep(sn)
	case KindSacrifice:
		xi, err := s.ownShip(sn, a.Arg[0])
		if err != nil {
			return err
		}
		s.log(event{kind: evAction, seat: int8(sn), a: a})
		x := s.ships[xi]
		s.put(x.piece)
		s.removeShipAt(xi)
		s.closeIfEmpty(x.loc)
		s.sac = sacrifice{active: true, piece: x.piece, left: int8(x.piece.Size)}
		s.afterStep(sn)
	case KindResearch:
		if err := s.checkResearch(sn, a); err != nil {
			return err
		}
		s.log(event{kind: evAction, seat: int8(sn), a: a})
		loc := s.ships[s.shipIdx(int(a.Arg[0]))].loc
		for j := 0; j < 3; j++ {
			i := s.shipIdx(int(a.Arg[j]))
			s.put(s.ships[i].piece)
			s.removeShipAt(i)
		}
		if id, named, _ := argTarget(a, 5); named {
			loc = id
		}
		p, _ := argPiece(a, 3)
		s.concentrate(sn, s.newShip(loc, sn, p))
		s.afterStep(sn)
	case KindPass:
		s.log(event{kind: evAction, seat: int8(sn), a: a})
		s.endAction(sn, true)
	default:
		return illegal("%s is not a turn action", kindName(a.Kind))
	}
	return nil
}

// checkResearch validates an R&D: three of sn's ships, ascending ids, in one system (not a
// hyperspace), for a piece the stash holds once they are back; under rnd_where=any it names
// the system (not a hyperspace) the new ship appears in.
func (s *State) checkResearch(sn int, a engine.Action) error {
	if !(a.Arg[0] < a.Arg[1] && a.Arg[1] < a.Arg[2]) {
		return illegal("R&D lists three different ships by ascending id")
	}
	var loc int16
	have := 0
	p, ok := argPiece(a, 3)
	if !ok {
		return illegal("R&D takes a piece: a color and a size")
	}
	for j := 0; j < 3; j++ {
		i, err := s.ownShip(sn, a.Arg[j])
		if err != nil {
			return err
		}
		x := &s.ships[i]
		if j == 0 {
			loc = x.loc
		} else if x.loc != loc {
			return illegal("R&D needs three ships in the same system")
		}
		if x.piece == p {
			have++
		}
	}
	if s.locs[s.locIdx(int(loc))].hyper {
		return illegal("no R&D in a hyperspace")
	}
	if int(s.stash[p.kind()])+have == 0 {
		return illegal("the stash has no %s", p)
	}
	id, named, ok := argTarget(a, 5)
	switch {
	case !s.cfg.rndAnySystem && named:
		return illegal("%s=same: the new ship appears where the three were, so name no system", OptRndWhere)
	case !s.cfg.rndAnySystem:
	case !named:
		return illegal("%s=any: name the system the new ship appears in", OptRndWhere)
	case !ok || s.locIdx(int(id)) < 0:
		return illegal("R&D names no system the new ship can appear in")
	case s.locs[s.locIdx(int(id))].hyper:
		return illegal("R&D's new ship may not appear in a hyperspace")
	}
	return nil
}

// applyUse is one use of a sacrifice, or its early end.
func (s *State) applyUse(sn int, a engine.Action) error {
	if a.Kind == KindEndSacrifice {
		s.log(event{kind: evAction, seat: int8(sn), a: a})
		s.sac = sacrifice{}
		s.endAction(sn, false)
		return nil
	}
	if !isPower(a.Kind) {
		return illegal("a sacrifice is in progress: use its %s power or end it", s.sac.piece.Color)
	}
	xi, err := s.checkPower(sn, a, true)
	if err != nil {
		return err
	}
	s.log(event{kind: evAction, seat: int8(sn), a: a})
	s.sac.left--
	s.concentrate(sn, s.doPower(sn, a, xi))
	s.afterStep(sn)
	return nil
}

// checkPower validates a power use by sn's ship: on a turn the ship's color or its system's
// must give the power; in a sacrifice the sacrificed color gives it to a ship of another color.
func (s *State) checkPower(sn int, a engine.Action, sacrificed bool) (int, error) {
	c := powerColor(a.Kind)
	xi, err := s.ownShip(sn, a.Arg[0])
	if err != nil {
		return -1, err
	}
	x := &s.ships[xi]
	l := &s.locs[s.locIdx(int(x.loc))]
	if sacrificed {
		if c != s.sac.piece.Color {
			return -1, illegal("the sacrifice gives the %s power, not %s", s.sac.piece.Color, c)
		}
		if x.piece.Color == c {
			return -1, illegal("ship s%d is %s itself: a sacrifice powers only ships of other colors", x.id, c)
		}
	} else if x.piece.Color != c && !l.hasPower(c) {
		return -1, illegal("ship s%d has no %s power: neither its color nor its system's", x.id, c)
	}
	switch a.Kind {
	case KindMove:
		di := s.locIdx(int(a.Arg[1]))
		if di < 0 {
			return -1, illegal("no system sys%d", a.Arg[1])
		}
		d := &s.locs[di]
		switch {
		case d.id == l.id:
			return -1, illegal("ship s%d is already in sys%d", x.id, d.id)
		case !l.hyper && d.hyper:
			return -1, illegal("a ship may enter a hyperspace only from another hyperspace")
		case !canMove(l, d):
			return -1, illegal("sys%d is not connected to sys%d", d.id, l.id)
		}
	case KindTrade:
		p, ok := argPiece(a, 1)
		switch {
		case !ok:
			return -1, illegal("a trade takes a piece: a color and a size")
		case p.Size > x.piece.Size:
			return -1, illegal("a trade takes an equal- or smaller-sized piece")
		case p == x.piece:
			return -1, illegal("ship s%d is already %s", x.id, p)
		case s.stash[p.kind()] == 0:
			return -1, illegal("the stash has no %s", p)
		}
	case KindGrow:
		if x.piece.Size == Large {
			return -1, illegal("ship s%d is already large", x.id)
		}
		if next := (Piece{x.piece.Color, x.piece.Size + 1}); s.stash[next.kind()] == 0 {
			return -1, illegal("the stash has no %s", next)
		}
	case KindAdd:
		z := Size(a.Arg[1])
		d, err := s.addTarget(x, l, a)
		if err != nil {
			return -1, err
		}
		switch {
		case d.hyper:
			return -1, illegal("no ship may be added in a hyperspace")
		case s.shipsAt(d.id) >= 4:
			return -1, illegal("sys%d already holds four ships", d.id)
		case a.Arg[1] < int16(Small) || z > x.piece.Size:
			return -1, illegal("the new ship is no larger than ship s%d", x.id)
		case s.stash[Piece{x.piece.Color, z}.kind()] == 0:
			return -1, illegal("the stash has no %s", Piece{x.piece.Color, z})
		}
	case KindAttack:
		ti := s.shipIdx(int(a.Arg[1]))
		if ti < 0 {
			return -1, illegal("no ship s%d", a.Arg[1])
		}
		t := &s.ships[ti]
		c, named, ok := argReduceColor(a)
		switch {
		case t.id == x.id:
			return -1, illegal("a ship may not attack itself")
		case t.loc != x.loc:
			return -1, illegal("ship s%d is not in the same place as s%d", t.id, x.id)
		case t.piece.Size <= x.piece.Size && named:
			return -1, illegal("ship s%d is no larger than s%d, so it is discarded: name no color to reduce it to", t.id, x.id)
		case t.piece.Size <= x.piece.Size:
		case !s.cfg.reduceChoose && named:
			return -1, illegal("%s=same: a reduced ship keeps its color, so name none", OptReduceColor)
		case !s.cfg.reduceChoose:
			if next := (Piece{t.piece.Color, t.piece.Size - 1}); s.stash[next.kind()] == 0 {
				return -1, illegal("the stash has no %s to reduce ship s%d to", next, t.id)
			}
		case !named:
			return -1, illegal("%s=choose: name the color ship s%d is reduced to", OptReduceColor, t.id)
		case !ok:
			return -1, illegal("no such color to reduce ship s%d to", t.id)
		default:
			if next := (Piece{c, t.piece.Size - 1}); s.stash[next.kind()] == 0 {
				return -1, illegal("the stash has no %s to reduce ship s%d to", next, t.id)
			}
		}
	}
	return xi, nil
}

// addTarget is where green's add puts the new ship: ship x's own place l under green_add=own,
// the system the action names under green_add=any.
func (s *State) addTarget(x *ship, l *location, a engine.Action) (*location, error) {
	id, named, ok := argTarget(a, 2)
	if !s.cfg.addAnySystem {
		if named {
			return nil, illegal("%s=own: the new ship joins ship s%d's own system, so name none", OptGreenAdd, x.id)
		}
		return l, nil
	}
	if !named {
		return nil, illegal("%s=any: name the system the new ship joins", OptGreenAdd)
	}
	di := -1
	if ok {
		di = s.locIdx(int(id))
	}
	if di < 0 {
		return nil, illegal("the add names no system the new ship can join")
	}
	return &s.locs[di], nil
}

// doPower performs a validated power use by ship index xi and returns the catalyst it made
// (a ship that arrived somewhere or changed color), or -1.
func (s *State) doPower(sn int, a engine.Action, xi int) int16 {
	x := &s.ships[xi]
	switch a.Kind {
	case KindMove:
		from := x.loc
		x.loc = a.Arg[1]
		id := x.id
		s.closeIfEmpty(from)
		return id
	case KindTrade:
		p, _ := argPiece(a, 1)
		old := x.piece
		s.take(p)
		s.put(old)
		x.piece = p
		s.gain(sn, p)
		if p.Color != old.Color {
			return x.id
		}
	case KindGrow:
		next := Piece{x.piece.Color, x.piece.Size + 1}
		s.take(next)
		s.put(x.piece)
		x.piece = next
		s.gain(sn, next)
	case KindAdd:
		loc := x.loc
		if id, named, _ := argTarget(a, 2); named {
			loc = id
		}
		return s.newShip(loc, sn, Piece{x.piece.Color, Size(a.Arg[1])})
	case KindAttack:
		ti := s.shipIdx(int(a.Arg[1]))
		t := &s.ships[ti]
		s.put(t.piece)
		if t.piece.Size <= x.piece.Size {
			loc := t.loc
			s.removeShipAt(ti)
			s.closeIfEmpty(loc)
			return -1
		}
		old := t.piece
		t.piece.Size--
		if c, named, _ := argReduceColor(a); named {
			t.piece.Color = c // reduce_color=choose
		}
		s.take(t.piece)
		if t.piece.Color != old.Color {
			return t.id // a change of color is a catalyst
		}
	}
	return -1
}

// closeIfEmpty removes location id if it is a hyperspace with no ships left.
func (s *State) closeIfEmpty(id int16) {
	li := s.locIdx(int(id))
	if li < 0 || !s.locs[li].hyper || s.shipsAt(id) > 0 {
		return
	}
	s.removeLocAt(li)
	s.log(event{kind: evHyperClosed, loc: id})
}

// applyChoice takes or declines an Enterprise or a Revolt.
func (s *State) applyChoice(sn int, a engine.Action) error {
	switch s.pend.kind {
	case pb.ConcentrationKind_CONCENTRATION_KIND_ENTERPRISE:
		if a.Kind != KindEnterprise && a.Kind != KindDecline {
			return illegal("take the Enterprise's second marker or decline")
		}
		if a.Kind == KindEnterprise {
			p, ok := argPiece(a, 0)
			l := &s.locs[s.locIdx(int(s.pend.loc))]
			switch {
			case !ok:
				return illegal("a marker is a color and a size")
			case p.Size >= l.marker.Size:
				return illegal("the second marker must be smaller than the system's %s marker", l.marker)
			case s.stash[p.kind()] == 0:
				return illegal("the stash has no %s", p)
			}
			s.log(event{kind: evAction, seat: int8(sn), a: a})
			s.take(p)
			l.second = p
		} else {
			s.log(event{kind: evAction, seat: int8(sn), a: a})
		}
	case pb.ConcentrationKind_CONCENTRATION_KIND_REVOLT:
		if a.Kind != KindRevolt && a.Kind != KindDecline {
			return illegal("take a ship by Revolt or decline")
		}
		if a.Kind == KindRevolt {
			ti := s.shipIdx(int(a.Arg[0]))
			switch {
			case ti < 0:
				return illegal("no ship s%d", a.Arg[0])
			case s.ships[ti].loc != s.pend.loc:
				return illegal("ship s%d is not in sys%d", a.Arg[0], s.pend.loc)
			case s.ships[ti].id == s.pend.catalyst:
				return illegal("the Revolt takes another ship than its catalyst")
			case int(s.ships[ti].owner) == sn:
				return illegal("ship s%d is already yours", a.Arg[0])
			}
			s.log(event{kind: evAction, seat: int8(sn), a: a})
			s.ships[ti].owner = int8(sn)
			s.gain(sn, s.ships[ti].piece)
		} else {
			s.log(event{kind: evAction, seat: int8(sn), a: a})
		}
	}
	s.pend = pending{}
	s.afterStep(sn)
	return nil
}
