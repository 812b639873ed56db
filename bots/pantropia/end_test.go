package pantropia

import (
	"flag"
	"fmt"
	"testing"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/local"
	"github.com/orrery/orrery/engine"
	pb "github.com/orrery/orrery/proto/orrery/pantropia/v1"
)

var full = flag.Bool("full", false, "play the full-size runs (200 games each) and print their rates")

// endRate plays n seeded games of greedy bots in every seat and reports the share that
// ended by the rules (every joint holding a ring), not by the stall rule or the turn cap,
// and the average number of turns played.
func endRate(t testing.TB, seats, n int) (rate, turns float64) {
	ended := 0
	total := 0
	for i := 0; i < n; i++ {
		players := make([]bots.Bot, seats)
		for s := range players {
			players[s] = NewGreedy(uint64(100*i + s))
		}
		st, _, err := local.Play("pantropia", engine.Config{Seats: seats, Seed: uint64(i)}, players)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		r := st.Result()
		if r.Reason == engine.EndNormal {
			ended++
		} else if testing.Verbose() {
			t.Logf("game %d (%d seats) ended by a cap: %s", i, seats, r.Detail)
		}
		total += int(st.Observe(engine.Spectator).(*pb.Observation).GetTurn())
	}
	return float64(ended) / float64(n), float64(total) / float64(n)
}

// TestGreedy_PlaysToTheEnd: games of greedy bots end as the rules intend, with the sphere
// full, in at least 90% of seeded games with 4 seats and with 3. The default runs 20 games
// each; -args -full runs the 200 of the target and prints the rates:
//
//	go test ./bots/pantropia -run PlaysToTheEnd -v -args -full
func TestGreedy_PlaysToTheEnd(t *testing.T) {
	n := 20
	if *full {
		n = 200
	}
	for _, seats := range []int{4, 3} {
		t.Run(fmt.Sprintf("%d_seats", seats), func(t *testing.T) {
			rate, turns := endRate(t, seats, n)
			t.Logf("%d greedy: %.1f%% of %d games ended with the sphere full (%.0f turns on average)", seats, 100*rate, n, turns)
			if rate < 0.9 {
				t.Errorf("%.2f of games ended with the sphere full, want at least 0.90", rate)
			}
		})
	}
}
