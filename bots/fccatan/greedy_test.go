package fccatan

import (
	"runtime"
	"sync"
	"testing"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/local"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/engine"
)

// playVsRandom plays one lockstep match of default rules with greedy in seat g%4 and random
// bots in the other three. Greedy beats the randoms when its rank is strictly better than
// every random seat's rank: a first place shared with a random bot does not count.
func playVsRandom(t testing.TB, g int, opts map[string]string) (beats bool, st engine.State, actions int) {
	seat := g % 4
	seats := make([]bots.Bot, 4)
	for i := range seats {
		if i == seat {
			seats[i] = NewGreedy(uint64(g))
		} else {
			seats[i] = random.New(uint64(g*4 + i))
		}
	}
	st, log, err := local.Play("fccatan", engine.Config{Seats: 4, Seed: uint64(g), Options: opts}, seats)
	if err != nil {
		t.Errorf("game %d: %v", g, err)
		return false, st, len(log)
	}
	r := st.Result()
	for i, rank := range r.Ranks {
		if i != seat && rank <= r.Ranks[seat] {
			return false, st, len(log)
		}
	}
	return true, st, len(log)
}

// winRate plays games 0..n-1 on every core and returns the share greedy beats the randoms.
func winRate(t testing.TB, n int) float64 {
	var (
		mu    sync.Mutex // guards wins
		wins  int
		wg    sync.WaitGroup
		games = make(chan int)
	)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range games {
				if beats, _, _ := playVsRandom(t, g, nil); beats {
					mu.Lock()
					wins++
					mu.Unlock()
				}
			}
		}()
	}
	for g := 0; g < n; g++ {
		games <- g
	}
	close(games)
	wg.Wait()
	return float64(wins) / float64(n)
}

// TestGreedy_BeatsRandomInFourTeamGames: greedy in one rotating seat against three random bots,
// 200 seeded lockstep games under the default rules (40 with -short); the target is 80%.
func TestGreedy_BeatsRandomInFourTeamGames(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	rate := winRate(t, n)
	t.Logf("greedy beats 3 random teams in %.1f%% of %d games", 100*rate, n)
	if rate < 0.8 {
		t.Errorf("win rate %.1f%% under the 80%% target", 100*rate)
	}
}

// BenchmarkLockstepGame plays whole default-rules lockstep games in process through
// bots/local.Play, greedy against three random bots: every decision built as a server would
// (observation, text, typed legal actions). It reports allocations per action.
func BenchmarkLockstepGame(b *testing.B) {
	b.ReportAllocs()
	actions := 0
	start := mallocs()
	for i := 0; i < b.N; i++ {
		_, _, n := playVsRandom(b, i, nil)
		actions += n
	}
	b.ReportMetric(float64(mallocs()-start)/float64(actions), "allocs/action")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

func mallocs() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs
}

// BenchmarkGreedyWinRate prints the win rate over 200 games as a metric.
func BenchmarkGreedyWinRate(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.ReportMetric(100*winRate(b, 200), "win%")
	}
}

// TestGreedy_PlaysEveryConfiguration: greedy never sends an illegal action, against itself and
// random bots, in both rulesets, with 3 or 4 teams of 3 or 4 players.
func TestGreedy_PlaysEveryConfiguration(t *testing.T) {
	for _, tc := range []struct {
		seats  int
		greedy int // how many greedy seats, the rest random
		opts   map[string]string
	}{
		{4, 4, nil},
		{3, 3, map[string]string{"team_size": "3"}},
		{4, 2, map[string]string{"ruleset": "published"}},
		{3, 1, map[string]string{"ruleset": "published", "team_size": "4,3,4", "knights": "any"}},
		{4, 4, map[string]string{"round_seconds": "6", "tick_rate": "5", "trade_steps": "0"}},
	} {
		for seed := uint64(1); seed <= 2; seed++ {
			seats := make([]bots.Bot, tc.seats)
			for i := range seats {
				seats[i] = random.New(seed*10 + uint64(i))
				if i < tc.greedy {
					seats[i] = NewGreedy(seed)
				}
			}
			st, _, err := local.Play("fccatan", engine.Config{Seats: tc.seats, Seed: seed, Options: tc.opts}, seats)
			if err != nil {
				t.Errorf("%d teams %v seed %d: %v", tc.seats, tc.opts, seed, err)
				continue
			}
			t.Logf("%d teams (%d greedy) %v seed %d: %s", tc.seats, tc.greedy, tc.opts, seed, st.Result().Detail)
		}
	}
}
