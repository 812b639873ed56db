package pantropia

import (
	"testing"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/local"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/engine"
	_ "github.com/orrery/orrery/engine/pantropia"
)

// winRate plays n seeded 4-seat games, greedy in a rotating seat against three random bots.
// Greedy "beats" the random bots in a game when its rank is strictly better than every
// random seat's rank: it wins alone, a shared first place does not count.
func winRate(t testing.TB, n int, opts map[string]string) float64 {
	wins := 0
	for i := 0; i < n; i++ {
		seat := i % 4
		players := make([]bots.Bot, 4)
		for s := range players {
			if s == seat {
				players[s] = NewGreedy(uint64(i))
			} else {
				players[s] = random.New(uint64(1000*i + s))
			}
		}
		st, _, err := local.Play("pantropia", engine.Config{Seats: 4, Seed: uint64(i), Options: opts}, players)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		r := st.Result()
		beat := true
		for s, rank := range r.Ranks {
			if s != seat && rank <= r.Ranks[seat] {
				beat = false
			}
		}
		if beat {
			wins++
		}
	}
	return float64(wins) / float64(n)
}

// TestGreedy_BeatsRandom: greedy in a rotating seat beats three random bots in at least 80%
// of seeded 4-seat games. The default runs 40 games (12 with -short); -args -full runs the
// 200 of the target and prints the rate:
//
//	go test ./bots/pantropia -run BeatsRandom -v -args -full
func TestGreedy_BeatsRandom(t *testing.T) {
	n := 40
	switch {
	case *full:
		n = 200
	case testing.Short():
		n = 12
	}
	rate := winRate(t, n, nil)
	t.Logf("greedy beat three random bots in %.1f%% of %d 4-seat games", 100*rate, n)
	if rate < 0.8 {
		t.Errorf("win rate %.2f, want at least 0.80", rate)
	}
}
