package icetraders

import (
	"errors"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
)

// pc reads a piece shorthand: a color letter (r y g b) and a size digit, "r3" = red large.
func pc(s string) Piece {
	c := strings.IndexByte("rygb", s[0])
	if len(s) != 2 || c < 0 || s[1] < '1' || s[1] > '3' {
		panic("bad piece shorthand " + s)
	}
	return Piece{Color(c), Size(s[1] - '0')}
}

// board builds play-phase positions directly: an empty board, a full stash, every player
// Good, placed and with a first turn behind them, and seat 0 to act.
type board struct {
	*State
	t *testing.T
}

func newBoard(t *testing.T, seats int, opts ...string) board {
	t.Helper()
	o := map[string]string{}
	for i := 0; i+1 < len(opts); i += 2 {
		o[opts[i]] = opts[i+1]
	}
	c, err := parseConfig(engine.Config{Seats: seats, Options: o})
	if err != nil {
		t.Fatal(err)
	}
	s := newState(c, 1)
	s.phase = phasePlay
	s.first, s.cur = 0, 0
	s.nextLoc = 0
	for i := range s.players {
		p := &s.players[i]
		p.align, p.picked, p.placed, p.turns = Good, true, true, 1
		p.served = [2]bool{true, true}
	}
	return board{s, t}
}

// sys adds a system with marker m (and second marker m2, if given) and returns its id.
func (b board) sys(m string, m2 ...string) int {
	l := location{id: b.nextLoc, marker: pc(m)}
	b.take(l.marker)
	if len(m2) > 0 {
		l.second = pc(m2[0])
		b.take(l.second)
	}
	b.nextLoc++
	b.insertLoc(l)
	return int(l.id)
}

// hyper adds an (as yet empty) hyperspace and returns its id; give it ships at once.
func (b board) hyper() int {
	l := location{id: b.nextLoc, hyper: true}
	b.nextLoc++
	b.insertLoc(l)
	return int(l.id)
}

// ship adds a ship of owner (-1: nobody) at loc and returns its id.
func (b board) ship(loc, owner int, p string) int {
	return int(b.newShip(int16(loc), owner, pc(p)))
}

// addShips adds several ships of one owner at loc.
func (b board) addShips(loc, owner int, ps ...string) []int {
	var ids []int
	for _, p := range ps {
		ids = append(ids, b.ship(loc, owner, p))
	}
	return ids
}

// do applies notation for seat and fails the test on error.
func (b board) do(seat int, text string) {
	b.t.Helper()
	a, err := ParseAction(text)
	if err != nil {
		b.t.Fatalf("parse %q: %v", text, err)
	}
	if err := b.Apply(engine.Seat(seat), a); err != nil {
		b.t.Fatalf("%q for seat %d: %v\n%s", text, seat, err, b.Render(engine.Spectator))
	}
	checkConservation(b.t, b.State)
}

// refuse applies notation for seat and wants ErrIllegalAction with no change to the state.
func (b board) refuse(seat int, text string) {
	b.t.Helper()
	a, err := ParseAction(text)
	if err != nil {
		b.t.Fatalf("parse %q: %v", text, err)
	}
	before, _ := b.MarshalBinary()
	err = b.Apply(engine.Seat(seat), a)
	if !errors.Is(err, engine.ErrIllegalAction) {
		b.t.Errorf("%q for seat %d: got %v, want an illegal action", text, seat, err)
	}
	if after, _ := b.MarshalBinary(); string(before) != string(after) {
		b.t.Errorf("rejected %q changed the state", text)
	}
	if b.listed(seat, text) {
		b.t.Errorf("rejected %q is listed as legal", text)
	}
}

// listed reports whether notation is among seat's legal actions.
func (b board) listed(seat int, text string) bool {
	for _, a := range b.Legal(engine.Seat(seat), nil) {
		if FormatAction(a) == text {
			return true
		}
	}
	return false
}

// legalTexts lists seat's legal actions as notation.
func (b board) legalTexts(seat int) []string {
	var out []string
	for _, a := range b.Legal(engine.Seat(seat), nil) {
		out = append(out, FormatAction(a))
	}
	return out
}

// shipOf returns the ship with id, failing if it is gone.
func (b board) shipOf(id int) ship {
	b.t.Helper()
	i := b.shipIdx(id)
	if i < 0 {
		b.t.Fatalf("ship s%d is gone", id)
	}
	return b.ships[i]
}

func (b board) gone(id int) bool { return b.shipIdx(id) < 0 }

func (b board) locOf(id int) *location {
	i := b.locIdx(id)
	if i < 0 {
		return nil
	}
	return &b.locs[i]
}

func (b board) stashOf(p string) int { return int(b.stash[pc(p).kind()]) }

// evil makes seats Evil.
func (b board) evil(seats ...int) {
	for _, s := range seats {
		b.players[s].align = Evil
	}
}

// countEvents counts events of kind k.
func (b board) countEvents(k evKind) int {
	n := 0
	for _, e := range b.events {
		if e.kind == k {
			n++
		}
	}
	return n
}

// lastConcentration is the newest concentration event, or nil.
func (b board) lastConcentration() *event {
	for i := len(b.events) - 1; i >= 0; i-- {
		if b.events[i].kind == evConcentration {
			return &b.events[i]
		}
	}
	return nil
}

// act is an action of kind with leading arguments args, built without the constructors, so
// that tests can name actions the constructors would never make.
func act(kind uint16, args ...int) engine.Action {
	a := engine.Action{Kind: kind}
	for i, v := range args {
		a.Arg[i] = int16(v)
	}
	return a
}
