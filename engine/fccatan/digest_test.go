package fccatan

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"testing"

	"github.com/orrery/orrery/engine"
)

// digestRuns are the option sets of TestDigest_RandomGames: both rulesets and maps, teams of
// 3 and 4, any number of knights, the wall clock, fast players and short rounds.
var digestRuns = []map[string]string{
	{"round_cap": "3"},
	{"ruleset": "published", "round_cap": "4"},
	{"team_size": "3", "knights": "any", "round_seconds": "12", "round_cap": "4"},
	{"ruleset": "published", "map": "default", "round_seconds": "12", "team_size": "4,3,3", "round_cap": "3"},
	{"map": "published", "knights": "3", "top_speed_cm_s": "2000", "round_seconds": "5", "round_cap": "5"},
	{"clock": "wall", "round_seconds": "12", "round_cap": "3", "reach_cm": "250"},
	{"ruleset": "published", "knights": "0", "tick_rate": "5", "trade_steps": "0", "round_cap": "6"},
	{"ruleset": "published", "clock": "wall", "knights": "any", "throw_range_cm": "3000", "round_cap": "4"},
}

// digestGame plays seeded choices (mostly uniform from the legal lists, sometimes the default
// action, greedy steering or, under the wall clock, Advance) and hashes every legal list, every
// state's bytes and the result.
func digestGame(t *testing.T, seed uint64, seats int, opts map[string]string) uint64 {
	st, err := engine.New("fccatan", engine.Config{Seats: seats, Seed: seed, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	r := rand.New(rand.NewPCG(seed, 48))
	h := fnv.New64a()
	var (
		legal []engine.Action
		toAct []engine.Seat
	)
	for n := 0; !s.Terminal(); n++ {
		if n > 200000 {
			t.Fatalf("seed %d: no end after %d decisions", seed, n)
		}
		toAct = s.ToAct(toAct[:0])
		if len(toAct) == 0 || s.wallTick() && r.IntN(3) == 0 {
			if err := s.Advance(); err != nil {
				t.Fatal(err)
			}
			continue
		}
		seat := toAct[r.IntN(len(toAct))]
		legal = s.Legal(seat, legal[:0])
		fmt.Fprint(h, seat, legal)
		a := legal[r.IntN(len(legal))]
		switch k := r.IntN(16); {
		case k == 0:
			a, _ = s.DefaultAction(seat)
		case k <= 2 && s.phase == PhaseTick:
			a = s.Steer(int(seat))
		}
		if err := s.Apply(seat, a); err != nil {
			t.Fatalf("seed %d decision %d: %s: %v", seed, n, s.FormatAction(a), err)
		}
		b, _ := s.MarshalBinary()
		h.Write(b)
	}
	fmt.Fprint(h, s.Result())
	return h.Sum64()
}

// digests are TestDigest_RandomGames's hashes, one a run, as f9ee37f (before the playouts were
// made faster) plays the games.
var digests = []string{"75fa1f0dcffc553e", "6c86f961f16992f5", "265a09fdce75d062", "fcfa6bab328d1728",
	"5917e1f0981520cb", "6b9020d29dd9d7d5", "96b9f94c68c99bba", "cbfe7ca94f4af5e5"}

// TestDigest_RandomGames: 48 random games play, list and end bit for bit as they always did.
func TestDigest_RandomGames(t *testing.T) {
	for k, opts := range digestRuns {
		h := fnv.New64a()
		for g := 0; g < 6; g++ {
			seed := uint64(k*6 + g)
			seats := 3 + g%2
			if opts["team_size"] == "4,3,3" {
				seats = 3
			}
			fmt.Fprint(h, digestGame(t, seed, seats, opts))
		}
		if got := fmt.Sprintf("%x", h.Sum64()); got != digests[k] {
			t.Errorf("run %d %v: digest %s, want %s", k, opts, got, digests[k])
		}
	}
}
