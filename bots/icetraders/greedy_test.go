package icetraders

import (
	"testing"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/local"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/engine"
	_ "github.com/orrery/orrery/engine/icetraders"
)

// winRate plays games 4-seat matches, greedy in a rotating seat against three random bots.
// Greedy "beats" the table when its rank is strictly better than every random seat's rank:
// it is the sole winner (shared wins and capped draws do not count).
func winRate(t testing.TB, games int) (beats int, reasons map[string]int) {
	reasons = map[string]int{}
	for g := 0; g < games; g++ {
		seat := g % 4
		players := make([]bots.Bot, 4)
		for i := range players {
			players[i] = random.New(uint64(1000*g + i))
		}
		players[seat] = NewGreedy(uint64(g))
		st, _, err := local.Play("icetraders", engine.Config{Seats: 4, Seed: uint64(g + 1)}, players)
		if err != nil {
			t.Fatal(err)
		}
		res := st.Result()
		won := true
		for i, r := range res.Ranks {
			if i != seat && r <= res.Ranks[seat] {
				won = false
			}
		}
		if won {
			beats++
		} else {
			reasons[res.Detail]++
		}
	}
	return beats, reasons
}

func TestGreedy_BeatsRandom(t *testing.T) {
	games := 200
	if testing.Short() {
		games = 40
	}
	beats, reasons := winRate(t, games)
	rate := float64(beats) / float64(games)
	t.Logf("greedy beat three random bots in %d of %d 4-seat games (%.1f%%)", beats, games, 100*rate)
	if len(reasons) > 0 {
		t.Logf("other outcomes: %v", reasons)
	}
	if rate < 0.8 {
		t.Errorf("win rate %.1f%% is under 80%%", 100*rate)
	}
}
