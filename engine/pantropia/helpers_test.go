package pantropia

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/orrery/orrery/engine"
)

// blank is a game in the main phase of seat 0's first turn with nothing on the sphere, no
// chips, no cards in hand, and no roll: positions are built on it directly.
func blank(t *testing.T, seats int, opts ...string) *state {
	t.Helper()
	m := map[string]string{}
	for _, o := range opts {
		k, v, _ := strings.Cut(o, "=")
		m[k] = v
	}
	st, err := engine.New("pantropia", engine.Config{Seats: seats, Seed: 1, Options: m})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*state)
	s.setupStep = 2 * s.seats
	s.phase = PhaseMain
	s.active = 0
	s.lastRoll = roll{}
	s.events = eventLog{}
	return s
}

// site is the first intersection of a color pair.
func site(a, b Color) int { return int(Geo.PairSites[pairIndex(a, b)][0]) }

// build puts p's habitat (or arcology) at x.
func (s *state) build(p int8, x int, arcology bool) {
	s.site[x] = p
	s.arco[x] = arcology
	if arcology {
		s.pl[p].arcologies++
	} else {
		s.pl[p].habitats++
	}
}

// rings puts p's rings on joints.
func (s *state) rings(p int8, joints ...int) {
	for _, j := range joints {
		if o := s.joints[j]; o >= 0 {
			s.pl[o].rings--
		}
		s.setJoint(j, p)
		s.pl[p].rings++
	}
}

// strutJoints lists strut st's joints starting from its end at intersection from.
func strutJoints(st int, from int) []int {
	if int(Geo.Struts[st].A) == from {
		return []int{3 * st, 3*st + 1, 3*st + 2}
	}
	return []int{3*st + 2, 3*st + 1, 3 * st}
}

// strutBetween is the strut joining intersections a and b, -1 if none.
func strutBetween(a, b int) int {
	for k, n := range Geo.Intersections[a].Neighbors {
		if int(n) == b {
			return int(Geo.Intersections[a].Struts[k])
		}
	}
	return -1
}

func chips(r, o, y, g, b, p int32) [NumColors]int32 { return [NumColors]int32{r, o, y, g, b, p} }

func rich() [NumColors]int32 { return chips(50, 50, 50, 50, 50, 50) }

func mustApply(t *testing.T, s *state, seat int8, a engine.Action) {
	t.Helper()
	if err := s.Apply(engine.Seat(seat), a); err != nil {
		t.Fatalf("p%d %s: %v", seat, s.FormatAction(a), err)
	}
}

// mustFail applies a and expects an error wrapping want, with the state unchanged.
func mustFail(t *testing.T, s *state, seat int8, a engine.Action, want error) {
	t.Helper()
	before, _ := s.MarshalBinary()
	err := s.Apply(engine.Seat(seat), a)
	if err == nil {
		t.Errorf("p%d %s accepted, want %v", seat, s.FormatAction(a), want)
		return
	}
	if !errors.Is(err, want) {
		t.Errorf("p%d %s: got %v, want %v", seat, s.FormatAction(a), err, want)
	}
	if after, _ := s.MarshalBinary(); !bytes.Equal(before, after) {
		t.Errorf("p%d %s: rejected action changed the state", seat, s.FormatAction(a))
	}
}

func legalHas(s *state, seat int8, a engine.Action) bool {
	for _, b := range s.Legal(engine.Seat(seat), nil) {
		if b == a {
			return true
		}
	}
	return false
}

func countKind(s *state, seat int8, kind uint16) int {
	n := 0
	for _, a := range s.Legal(engine.Seat(seat), nil) {
		if a.Kind == kind {
			n++
		}
	}
	return n
}

func toAct(s *state) []engine.Seat { return s.ToAct(nil) }

func lastEvent(s *state, kind uint8) *event {
	for i := s.events.n - 1; i >= 0; i-- {
		if s.events.at(i).kind == kind {
			return s.events.at(i)
		}
	}
	return nil
}

// give puts cards into p's hand, taking them out of the deck so cards stay conserved.
func (s *state) give(p int8, cards ...Card) {
	for _, c := range cards {
		for i := int8(0); i < s.deckN; i++ {
			if s.deck[i] == c {
				copy(s.deck[i:s.deckN-1], s.deck[i+1:s.deckN])
				s.deckN--
				s.deck[s.deckN] = cardNone
				break
			}
		}
		s.pl[p].hand[c]++
	}
}

// stack puts cards on top of the deck, in order (first on top).
func (s *state) stack(cards ...Card) {
	for i := len(cards) - 1; i >= 0; i-- {
		copy(s.deck[1:s.deckN+1], s.deck[:s.deckN])
		s.deck[0] = cards[i]
		s.deckN++
	}
}

// removeFromDeck takes every card of kind c out of the deck and returns how many.
func (s *state) removeFromDeck(c Card) int {
	n := 0
	k := int8(0)
	for i := int8(0); i < s.deckN; i++ {
		if s.deck[i] == c {
			n++
			continue
		}
		s.deck[k] = s.deck[i]
		k++
	}
	for i := k; i < s.deckN; i++ {
		s.deck[i] = cardNone
	}
	s.deckN = k
	return n
}

// all is the whole log, flattened.
func (l *eventLog) all() []event {
	var out []event
	for _, c := range l.chunks {
		out = append(out, c...)
	}
	return out
}

func TestEventLog_ClonesShareNothingTheyWrite(t *testing.T) {
	var a eventLog
	for i := 0; i < 300; i++ {
		a.add(event{a: int16(i)})
	}
	b := a.clone()
	for i := 0; i < 200; i++ {
		a.add(event{a: int16(1000 + i)})
		b.add(event{a: int16(2000 + i)})
	}
	for i := 0; i < 500; i++ {
		wa, wb := int16(i), int16(i)
		if i >= 300 {
			wa, wb = int16(1000+i-300), int16(2000+i-300)
		}
		if a.at(i).a != wa || b.at(i).a != wb {
			t.Fatalf("event %d: %d and %d, want %d and %d", i, a.at(i).a, b.at(i).a, wa, wb)
		}
	}
	for _, c := range append(a.chunks, b.chunks...) {
		if len(c) > eventChunk {
			t.Fatalf("a chunk of %d events", len(c))
		}
	}
}
