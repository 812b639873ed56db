package planet

import (
	"math/rand/v2"
	"testing"

	"github.com/orrery/orrery/engine"
)

// randomPositions plays seeded games of 2-4 seats with random placements and hands each
// position (every decision of the game) to visit.
func randomPositions(t *testing.T, games int, visit func(s *state, seat engine.Seat, legal []engine.Action)) {
	t.Helper()
	var legal []engine.Action
	for g := 0; g < games; g++ {
		s := newGame(t, 2+g%3, uint64(100+g), nil)
		r := rand.New(rand.NewPCG(uint64(g), 3))
		for !s.over {
			seat := s.toAct()
			legal = s.Legal(seat, legal[:0])
			visit(s, seat, legal)
			if err := s.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestReply_PlacementChangeEqualsMeasuringTheWholePlanet: what the reply model works out from
// the regions across a face's edges (each requirement's value, the areas of each habitat,
// each habitat's largest region) equals a full survey of the planet with the tile laid, for
// every legal placement and every requirement of the deck, at every decision of random games.
func TestReply_PlacementChangeEqualsMeasuringTheWholePlanet(t *testing.T) {
	var m regionMap
	var c placementChange
	checked := 0
	randomPositions(t, 6, func(s *state, seat engine.Seat, legal []engine.Action) {
		if s.turn%3 != 0 { // every third turn keeps the test quick
			return
		}
		base := s.planets[seat].surface
		m.measure(&base)
		for _, a := range legal {
			sf := base
			tile, f, rot := int(a.Arg[0]), int(a.Arg[1]), int(a.Arg[2])
			sf.Place(f, s.d.Tiles[tile], rot)
			var sv Survey
			sv.Measure(&sf)
			c.place(&m, &s.d.Tiles[tile], f, rot)
			for _, animal := range s.d.Animals {
				q := animal.Req
				if got, want := c.value(&m, q, m.valueNow(q)), sv.Value(q); got != want {
					t.Fatalf("turn %d seat %d, %s: value of %+v is %d, a survey says %d", s.turn, seat, FormatAction(a), q, got, want)
				}
			}
			var largest [Glacier + 1]int
			for _, r := range sv.Regions[:sv.N] {
				largest[r.Habitat] = max(largest[r.Habitat], int(r.Size))
			}
			for h := Ocean; h <= Glacier; h++ {
				l := int(m.largest[h])
				if c.tileHabs&(1<<h) != 0 {
					l = max(l, c.size[h])
				}
				if l != largest[h] || m.count[h]+c.tileArea[h] != sf.Count(h) {
					t.Fatalf("turn %d seat %d, %s: %v largest %d areas %d, a survey says %d and %d", s.turn, seat, FormatAction(a), h, l, m.count[h]+c.tileArea[h], largest[h], sf.Count(h))
				}
			}
			checked++
		}
	})
	if checked < 1000 {
		t.Errorf("only %d placements checked", checked)
	}
}

// TestReply_DoesNotAllocateOnceWarm: the reply model, called as the search calls it for every
// other seat's move, allocates nothing once its buffers have grown.
func TestReply_DoesNotAllocateOnceWarm(t *testing.T) {
	s := newGame(t, 4, 5, nil)
	r := rand.New(rand.NewPCG(1, 2))
	var p Reply
	var legal []engine.Action
	playTurns(t, s, 4)
	seat := s.toAct()
	legal = s.Legal(seat, legal[:0])
	p.Choose(s, seat, legal, r)
	if n := testing.AllocsPerRun(20, func() { p.Choose(s, seat, legal, r) }); n != 0 {
		t.Errorf("Choose allocates %.1f times a call", n)
	}
}

// forget empties p's memory of seat's tiles on display in s, as if the position were new.
func (p *Reply) forget(s *state, seat engine.Seat) {
	key := s.replyKey(int(seat))
	for _, tile := range s.display[:s.displayN] {
		if p.best != nil {
			p.best[(mix64(key^uint64(tile))|1)%replyCache].key = 0
		}
	}
}

// BenchmarkReply is the reply model's cost for one seat's move at a few points of a four-seat
// game, in a position it has not met (new) and in one it remembers (again): a search asks
// it about three times per iteration.
func BenchmarkReply(b *testing.B) {
	for _, turns := range []int{2, 5, 8} {
		b.Run("turn"+string(rune('0'+turns+1)), func(b *testing.B) {
			st, err := engine.New("planet", engine.Config{Seats: 4, Seed: 9})
			if err != nil {
				b.Fatal(err)
			}
			s := st.(*state)
			var legal []engine.Action
			r := rand.New(rand.NewPCG(1, 2))
			for i := 0; i < turns*4; i++ {
				seat := s.toAct()
				legal = s.Legal(seat, legal[:0])
				if err := s.Apply(seat, legal[r.IntN(len(legal))]); err != nil {
					b.Fatal(err)
				}
			}
			var p Reply
			seat := s.toAct()
			legal = s.Legal(seat, legal[:0])
			for _, again := range []bool{false, true} {
				name := "new"
				if again {
					name = "again"
				}
				b.Run(name, func(b *testing.B) {
					b.ReportAllocs()
					defer reportCPU(b)()
					for b.Loop() {
						if !again {
							p.forget(s, seat)
						}
						p.Choose(s, seat, legal, r)
					}
					b.ReportMetric(float64(len(legal)), "placements")
				})
			}
		})
	}
}

// TestReply_RemembersTheSameWhateverCameBefore: a Reply that has answered other positions
// first answers a position as a fresh one does with the same random source: what it
// remembers depends on the position alone, so a search's choice depends on its decision and
// seed, not on the decisions before.
func TestReply_RemembersTheSameWhateverCameBefore(t *testing.T) {
	var positions []*state
	randomPositions(t, 3, func(s *state, seat engine.Seat, legal []engine.Action) {
		positions = append(positions, s.Clone().(*state))
	})
	var used Reply
	for i, s := range positions {
		seat := s.toAct()
		legal := s.Legal(seat, nil)
		var fresh Reply
		want := fresh.Choose(s, seat, legal, rand.New(rand.NewPCG(uint64(i), 1)))
		if got := used.Choose(s, seat, legal, rand.New(rand.NewPCG(uint64(i), 1))); got != want {
			t.Errorf("position %d: after %d others the reply is %s, fresh %s", i, i, FormatAction(got), FormatAction(want))
		}
		if again := used.Choose(s, seat, legal, rand.New(rand.NewPCG(uint64(i), 1))); again != want {
			t.Errorf("position %d: asked again the reply is %s, first %s", i, FormatAction(again), FormatAction(want))
		}
	}
}

// TestReply_DrawnDisplaysPlacedAtRandom: with Drawn, a sample's seat answers the display its
// searching seat saw as greedy does (one placement, whatever the random source), and a
// display the sample drew (a later turn) with placements drawn at random.
func TestReply_DrawnDisplaysPlacedAtRandom(t *testing.T) {
	s := newGame(t, 4, 3, nil)
	playTurns(t, s, 4)
	det, err := NewDeterminizer(observe(s, 0), 0)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(2, 2))
	sample := det.Sample(nil, r).(*state)
	p := Reply{Drawn: true}
	distinct := func(st *state) int {
		seat := st.toAct()
		legal := st.Legal(seat, nil)
		seen := map[engine.Action]bool{}
		for i := 0; i < 20; i++ {
			seen[p.Choose(st, seat, legal, rand.New(rand.NewPCG(uint64(i), 9)))] = true
		}
		return len(seen)
	}
	if n := distinct(sample); n != 1 {
		t.Errorf("on the display seen: %d distinct placements in 20 draws, want greedy's one", n)
	}
	playTurns(t, sample, 1)
	if sample.turn <= sample.known {
		t.Fatalf("turn %d is not past the turn seen, %d", sample.turn, sample.known)
	}
	if n := distinct(sample); n < 10 {
		t.Errorf("on a drawn display: %d distinct placements in 20 draws, want them random", n)
	}
}

// TestReply_DrawnTilePlacesTheFirstTileDrawn: with DrawnTile, a seat on a drawn display
// places that display's first tile, where greedy would.
func TestReply_DrawnTilePlacesTheFirstTileDrawn(t *testing.T) {
	s := newGame(t, 4, 3, nil)
	playTurns(t, s, 4)
	det, err := NewDeterminizer(observe(s, 0), 0)
	if err != nil {
		t.Fatal(err)
	}
	sample := det.Sample(nil, rand.New(rand.NewPCG(2, 2))).(*state)
	playTurns(t, sample, 1)
	seat := sample.toAct()
	legal := sample.Legal(seat, nil)
	p := Reply{Drawn: true, DrawnTile: true}
	a := p.Choose(sample, seat, legal, rand.New(rand.NewPCG(1, 1)))
	if a.Arg[0] != sample.display[0] {
		t.Fatalf("placed tile %d, the display's first is %d", a.Arg[0], sample.display[0])
	}
	// Greedy's best for that tile alone: the same Reply without Drawn, on a display of it.
	one := sample.Clone().(*state)
	one.displayN, one.known = 1, 0
	var greedy Reply
	if want := greedy.Choose(one, seat, one.Legal(seat, nil), rand.New(rand.NewPCG(1, 1))); a != want {
		t.Errorf("placed %s, greedy places that tile %s", FormatAction(a), FormatAction(want))
	}
}
