package fccatan

import (
	"math/rand/v2"
	"testing"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/engine/enginetest"
)

// perturb changes only what seat may not know: the order of the face-down deck, the other
// teams' intents (standing and just sent), and the trade offers seat is not part of.
func perturb(st engine.State, seat engine.Seat, r *rand.Rand) engine.State {
	s := st.(*State)
	before, _ := s.MarshalBinary()
	if rest := s.deck[s.deckTop:]; len(rest) > 1 {
		r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	}
	other := func(t int) bool { return t != int(seat) }
	for t := 0; t < s.c.teams; t++ {
		if !other(t) {
			continue
		}
		tm := &s.teams[t]
		if s.phase == PhaseTick {
			i := r.IntN(int(tm.size))
			o := &tm.av[i].order
			*o = To(int16(r.IntN(int(s.c.field.Width))), int16(r.IntN(int(s.c.field.Height)))).withFlags(o.Flags &^ (flagTo | flagVel))
			if tm.done {
				tm.pending.Arg[3*i] = int16(r.IntN(int(s.c.field.Width)))
				tm.pending.Arg[3*i+1] = int16(r.IntN(int(s.c.field.Height)))
				tm.pending.Arg[3*i+2] = tm.pending.Arg[3*i+2]&^flagVel | flagTo
			}
		}
		if s.phase == PhaseOffer && tm.done && tm.pending.Kind == kindOffer && other(int(tm.pending.Arg[0])) {
			rewant(&tm.pending.Arg, r)
		}
	}
	if s.phase == PhaseReply {
		for i := int(s.stepOffers); i < len(s.offers); i++ {
			if o := &s.offers[i]; !o.seenBy(seat) {
				var arg [15]int16
				for k := 0; k < numRes; k++ {
					arg[1+k], arg[5+k] = int16(o.give[k]), int16(o.want[k])
				}
				rewant(&arg, r)
				for k := 0; k < numRes; k++ {
					o.want[k] = int8(arg[5+k])
				}
			}
		}
	}
	after, _ := s.MarshalBinary()
	if string(before) == string(after) {
		return nil
	}
	return st
}

// rewant changes the wanted balls of an offer (Arg[1:5] give, Arg[5:9] want), keeping it valid.
func rewant(arg *[15]int16, r *rand.Rand) {
	for k := 0; k < numRes; k++ {
		arg[5+k] = 0
	}
	for {
		k := r.IntN(numRes)
		if arg[1+k] == 0 {
			arg[5+k] = int16(1 + r.IntN(3))
			return
		}
	}
}

func (i Intent) withFlags(f int16) Intent { i.Flags |= f; return i }

// checkBalls: balls are conserved, 12 of each resource in piles, in hands and in stocks, and no
// pile holds more than its capacity.
func checkBalls(t *testing.T, st engine.State) {
	s := st.(*State)
	var n [numRes]int
	for p, spot := range s.c.field.Piles {
		if int(s.piles[p]) > s.c.field.PileCapacity || s.piles[p] < 0 {
			t.Fatalf("pile %d holds %d balls", p, s.piles[p])
		}
		n[spot.Resource] += int(s.piles[p])
	}
	for tm := 0; tm < s.c.teams; tm++ {
		for r := 0; r < numRes; r++ {
			if s.teams[tm].res[r] < 0 {
				t.Fatalf("team %d holds %d %s", tm, s.teams[tm].res[r], Resource(r))
			}
			n[r] += int(s.teams[tm].res[r])
		}
		for i := range s.teams[tm].av {
			if c := s.teams[tm].av[i].carry; c != noRes {
				n[c]++
			}
		}
	}
	for r, k := range n {
		if k != s.c.field.BallsPerResource {
			t.Fatalf("%d %s balls exist, want %d", k, Resource(r), s.c.field.BallsPerResource)
		}
	}
}

func TestConformance(t *testing.T) {
	runs := []struct {
		name  string
		seeds int
		opts  map[string]string
	}{
		// Short rounds keep the random playouts quick; one tick a second lets random runners
		// reach the piles, so markets, cards and trades get exercised.
		{"short", 8, map[string]string{"round_seconds": "2", "tick_rate": "5", "top_speed_cm_s": "5000", "round_cap": "8"}},
		{"coarse", 4, map[string]string{"round_seconds": "20", "tick_rate": "1", "round_cap": "20", "idle_markets": "20"}},
		{"published", 6, map[string]string{"ruleset": "published", "tick_rate": "1", "team_size": "3", "knights": "any", "round_cap": "20", "idle_markets": "20"}},
	}
	for _, run := range runs {
		t.Run(run.name, func(t *testing.T) {
			enginetest.Run(t, enginetest.Suite{
				Game:      "fccatan",
				Options:   run.opts,
				Seeds:     run.seeds,
				Perturb:   perturb,
				OpenEnded: true,
				Check:     checkBalls,
			})
		})
	}
}
