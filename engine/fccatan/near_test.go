package fccatan

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestGrid_NearHoldsEverySpotInRange: on every map, at every point of a fine lattice over the
// field (and off it), the grid's candidates hold every pile within reach and every hoop the
// point stands in, so a tick that measures only the candidates finds what a scan of all finds.
func TestGrid_NearHoldsEverySpotInRange(t *testing.T) {
	for name, f := range fields {
		for _, reach := range []int32{1, 100, 257, 1000} {
			t.Run(fmt.Sprintf("%s/reach=%d", name, reach), func(t *testing.T) {
				sp := newSpots(f, reach)
				missed := 0
				for x := int32(-300); x <= f.Width+300 && missed < 5; x += 7 {
					for y := int32(-300); y <= f.Height+300 && missed < 5; y += 7 {
						p := Vec{x, y}
						piles, hoops := sp.piles.near(p), sp.hoops.near(p)
						for k, pile := range f.Piles {
							if within(p, pile.Pos, reach) && piles&(1<<k) == 0 {
								t.Errorf("%v: pile %d is within reach, not a candidate", p, k)
								missed++
							}
						}
						for h, hp := range f.Hoops {
							if within(p, hp.Center, hp.Radius) && hoops&(1<<h) == 0 {
								t.Errorf("%v: stands in hoop %d, not a candidate", p, h)
								missed++
							}
						}
					}
				}
			})
		}
	}
}

// TestNearestPiles_AsAScanOfEveryPile: with every map and many sets of emptied piles, the
// nearest pile of each resource measured in a cell's order is the one a scan of every pile
// finds, on and off the field, ties (the maps are symmetric about their middle) included.
func TestNearestPiles_AsAScanOfEveryPile(t *testing.T) {
	for _, ruleset := range []string{RulesetSeed, RulesetPublished} {
		s := newMatch(t, 4, map[string]string{"ruleset": ruleset})
		f := s.c.field
		for empty := 0; empty < 64; empty++ {
			for k := range f.Piles {
				s.piles[k] = int8(f.Piles[k].Balls)
				if (k*7+empty*13)%5 < empty%4 {
					s.piles[k] = 0
				}
			}
			sets := s.pileSets()
			for x := int32(-100); x <= f.Width+100; x += 50 {
				for y := int32(-100); y <= f.Height+100; y += 50 {
					p := Vec{x, y}
					if got, want := s.nearestPiles(p, &sets), s.scanPiles(p); got != want {
						t.Fatalf("%s, empty set %d, at %v: nearest piles %v, a scan finds %v", ruleset, empty, p, got, want)
					}
				}
			}
		}
	}
}

// TestNearestWithin_AsAScanOfEveryPlayer: the knights' search by column finds what a scan of
// every free opponent finds (the nearest within reach, the lowest ref on ties), for reaches
// from 1 cm to 10 m, with players on the field, on its edges, off it and on top of each other.
func TestNearestWithin_AsAScanOfEveryPlayer(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	found := 0
	for _, ruleset := range []string{RulesetSeed, RulesetPublished} {
		s := newMatch(t, 4, map[string]string{"ruleset": ruleset})
		f := s.c.field
		coord := func(side int32) int32 {
			switch r.IntN(6) {
			case 0:
				return -r.Int32N(2000)
			case 1:
				return side + r.Int32N(2000)
			case 2:
				return side
			}
			return r.Int32N(side + 1)
		}
		for trial := 0; trial < 3000; trial++ {
			s.c.reach = []int32{1, 2, 100, 127, 128, 129, 300, 1000}[trial%8]
			s.c.spots = newSpots(f, s.c.reach)
			for u := range s.teams[:s.c.teams] {
				for j := range s.teams[u].av[:s.teams[u].size] {
					v := &s.teams[u].av[j]
					v.frozen = r.IntN(4) == 0
					if r.IntN(2) == 0 {
						v.pos = Vec{coord(f.Width), coord(f.Height)}
					} else { // near another player
						w := s.teams[r.IntN(4)].av[r.IntN(4)].pos
						v.pos = Vec{w.X + r.Int32N(2*s.c.reach+1) - s.c.reach, w.Y + r.Int32N(2*s.c.reach+1) - s.c.reach}
					}
				}
			}
			var free freePlayers
			free.gather(s)
			for u := range s.teams[:s.c.teams] {
				p := s.teams[u].av[r.IntN(4)].pos
				want, wantD := ref(-1), int64(s.c.reach)*int64(s.c.reach)+1
				for o := range s.teams[:s.c.teams] {
					for j := range s.teams[o].av[:s.teams[o].size] {
						if v := &s.teams[o].av[j]; o != u && !v.frozen {
							if d := dist2(p, v.pos); d < wantD {
								want, wantD = ref(o*maxAvatars+j), d
							}
						}
					}
				}
				if want >= 0 {
					found++
				}
				if got := free.nearestWithin(p, u, s.c.reach); got != want {
					t.Fatalf("%s, reach %d, team %d at %v: nearest within reach %d, a scan finds %d", ruleset, s.c.reach, u, p, got, want)
				}
			}
		}
	}
	if found < 1000 {
		t.Errorf("only %d searches found someone within reach", found)
	}
}
