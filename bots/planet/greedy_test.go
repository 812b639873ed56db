package planet

import (
	"testing"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/local"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/engine"
	_ "github.com/orrery/orrery/engine/planet"
)

// TestGreedy_BeatsRandom plays 200 seeded 4-seat games, greedy in a rotating seat against three
// random bots. Greedy "beats" random in a game when its rank is strictly better than every
// random seat's rank: it wins alone (a shared first place does not count). The target is 80%.
func TestGreedy_BeatsRandom(t *testing.T) {
	games := 200
	if testing.Short() {
		games = 40
	}
	beats := 0
	for game := 0; game < games; game++ {
		seed := uint64(game + 1)
		greedy := game % 4
		seats := make([]bots.Bot, 4)
		for s := range seats {
			if s == greedy {
				seats[s] = NewGreedy(seed)
			} else {
				seats[s] = random.New(seed*10 + uint64(s))
			}
		}
		st, _, err := local.Play("planet", engine.Config{Seats: 4, Seed: seed}, seats)
		if err != nil {
			t.Fatalf("game %d: %v", game, err)
		}
		ranks := st.Result().Ranks
		won := true
		for s, r := range ranks {
			if s != greedy && r <= ranks[greedy] {
				won = false
			}
		}
		if won {
			beats++
		}
	}
	rate := float64(beats) / float64(games)
	t.Logf("greedy beat 3 random bots in %d of %d 4-seat games: %.1f%%", beats, games, 100*rate)
	if rate < 0.8 {
		t.Errorf("greedy win rate %.1f%%, want at least 80%%", 100*rate)
	}
}

// TestGreedy_PlaysEveryVariant: the bot finishes games of every variant and seat count with
// only legal answers.
func TestGreedy_PlaysEveryVariant(t *testing.T) {
	for _, opts := range []map[string]string{nil, {"mystery": "true"}, {"beginners": "true"}, {"turn_cap": "4"}} {
		for seats := 2; seats <= 4; seats++ {
			players := make([]bots.Bot, seats)
			for s := range players {
				players[s] = NewGreedy(uint64(s))
			}
			if _, _, err := local.Play("planet", engine.Config{Seats: seats, Seed: 7, Options: opts}, players); err != nil {
				t.Errorf("%v, %d seats: %v", opts, seats, err)
			}
		}
	}
}
