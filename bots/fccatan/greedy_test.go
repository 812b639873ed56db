package fccatan

import (
	"flag"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/local"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/engine"
	fcc "github.com/orrery/orrery/engine/fccatan"
	fccatanv1 "github.com/orrery/orrery/proto/orrery/fccatan/v1"
	"github.com/orrery/orrery/proto/wire"
)

var full = flag.Bool("full", false, "play the full-size runs (200 games each) and print their rates")

// games is how many seeded games a rate test plays: 20 by default, 200 with -args -full (or
// ORRERY_FULL=1), so CI stays quick and the full figures are one flag away:
//
//	go test ./bots/fccatan -run 'Greedy_' -v -args -full
func games() int {
	if *full || os.Getenv("ORRERY_FULL") == "1" {
		return 200
	}
	return 20
}

// playVsRandom plays one lockstep match with greedy in seat g%4 and random bots in the other
// three. Greedy beats the randoms when its rank is strictly better than every random seat's
// rank: a first place shared with a random bot does not count.
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

// parallel runs play(g) for games 0..n-1 on every core.
func parallel(n int, play func(g int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				play(g)
			}
		}()
	}
	for g := 0; g < n; g++ {
		next <- g
	}
	close(next)
	wg.Wait()
}

// winRate plays games 0..n-1 and returns the share in which greedy beats the randoms.
func winRate(t testing.TB, n int, opts map[string]string) float64 {
	var (
		mu   sync.Mutex // guards wins
		wins int
	)
	parallel(n, func(g int) {
		if beats, _, _ := playVsRandom(t, g, opts); beats {
			mu.Lock()
			wins++
			mu.Unlock()
		}
	})
	return float64(wins) / float64(n)
}

// TestGreedy_BeatsRandomInFourTeamGames: greedy in one rotating seat against three random
// bots, in seeded lockstep games of each ruleset; the target is 80%.
func TestGreedy_BeatsRandomInFourTeamGames(t *testing.T) {
	n := games()
	for _, ruleset := range []string{"seed", "published"} {
		rate := winRate(t, n, map[string]string{"ruleset": ruleset})
		t.Logf("%s ruleset: greedy beats 3 random teams in %.1f%% of %d games", ruleset, 100*rate, n)
		if rate < 0.8 {
			t.Errorf("%s ruleset: win rate %.1f%% under the 80%% target", ruleset, 100*rate)
		}
	}
}

// fourGreedy plays games 0..n-1 of four greedy teams and counts the games ended by the VP win,
// the games in which every kind of resource was delivered, and the balls delivered by resource.
func fourGreedy(t testing.TB, n int, opts map[string]string) (won, allKinds int, delivered [4]int, rounds int) {
	var mu sync.Mutex // guards the counts
	parallel(n, func(g int) {
		seats := []bots.Bot{NewGreedy(1), NewGreedy(2), NewGreedy(3), NewGreedy(4)}
		st, _, err := local.Play("fccatan", engine.Config{Seats: 4, Seed: uint64(g), Options: opts}, seats)
		if err != nil {
			t.Errorf("game %d: %v", g, err)
			return
		}
		var d [4]int
		for _, m := range st.Events(engine.Spectator, 0, nil) {
			if e := m.(*fccatanv1.Event).GetDelivered(); e != nil {
				d[int(e.GetResource())-1]++
			}
		}
		o := st.Observe(engine.Spectator).(*fccatanv1.Observation)
		mu.Lock()
		defer mu.Unlock()
		if st.Result().Reason == engine.EndNormal {
			won++
		}
		if d[0] > 0 && d[1] > 0 && d[2] > 0 && d[3] > 0 {
			allKinds++
		}
		for r := range d {
			delivered[r] += d[r]
		}
		rounds += int(o.GetRound())
	})
	return won, allKinds, delivered, rounds
}

// TestGreedy_PublishedRulesetPlaysToTheVPWin: four greedy teams in the published ruleset on its
// own map end at least 90% of seeded games by the 8-VP win, not a cap, and deliver every kind
// of resource in every game.
func TestGreedy_PublishedRulesetPlaysToTheVPWin(t *testing.T) {
	n := games()
	won, allKinds, delivered, rounds := fourGreedy(t, n, map[string]string{"ruleset": "published"})
	t.Logf("published ruleset, 4 greedy: %d of %d games (%.1f%%) end by the VP win, %.1f rounds a game; every resource delivered in %d games; balls delivered: wood %d, brick %d, ore %d, sheep %d",
		won, n, 100*float64(won)/float64(n), float64(rounds)/float64(n), allKinds, delivered[0], delivered[1], delivered[2], delivered[3])
	if allKinds != n {
		t.Errorf("every kind of resource was delivered in only %d of %d games", allKinds, n)
	}
	if float64(won) < 0.9*float64(n) {
		t.Errorf("%d of %d games end by the VP win, under the 90%% target", won, n)
	}
	for r, k := range delivered {
		if k == 0 {
			t.Errorf("no %s ball was delivered in %d games", [4]string{"wood", "brick", "ore", "sheep"}[r], n)
		}
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

// BenchmarkGreedyWinRate prints the win rate over 200 games of each ruleset as metrics.
func BenchmarkGreedyWinRate(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.ReportMetric(100*winRate(b, 200, nil), "seed-win%")
		b.ReportMetric(100*winRate(b, 200, map[string]string{"ruleset": "published"}), "published-win%")
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
		{4, 4, map[string]string{"map": "published", "round_seconds": "8", "tick_rate": "5", "trade_steps": "0"}},
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

// TestSteer_PlaysAsGreedy: the engine's Steer, which search planners simulate greedy players
// with, gives every team at every tick of whole greedy matches the intents greedy sends, in
// both rulesets, with three and four teams, and with knights to buy.
func TestSteer_PlaysAsGreedy(t *testing.T) {
	for _, tc := range []struct {
		name  string
		seats int
		opts  map[string]string
	}{
		{"seed", 4, nil},
		{"published", 4, map[string]string{"ruleset": "published"}},
		{"three teams, no knights", 3, map[string]string{"knights": "0", "round_cap": "12"}},
		{"mixed team sizes", 4, map[string]string{"team_size": "4,3,4,3", "round_cap": "12"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := engine.New("fccatan", engine.Config{Seats: tc.seats, Seed: 7, Options: tc.opts})
			if err != nil {
				t.Fatal(err)
			}
			g := NewGreedy(0)
			ticks, misses := 0, 0
			for ply := 0; !st.Terminal() && ply < 20000; ply++ {
				seat := st.ToAct(nil)[0]
				legal := st.Legal(seat, nil)
				d := wire.Decision(st, seat, legal, int64(ply))
				a, _, err := wire.Answer(st, legal, g.Act(d))
				if err != nil {
					t.Fatal(err)
				}
				if fs := st.(*fcc.State); fs.Phase() == fcc.PhaseTick {
					ticks++
					if got := fs.Steer(int(seat)); got != a && misses < 5 {
						misses++
						t.Errorf("ply %d, team %d: Steer %s, greedy %s", ply, seat, st.FormatAction(got), st.FormatAction(a))
					}
				}
				if err := st.Apply(seat, a); err != nil {
					t.Fatal(err)
				}
			}
			if ticks < 1000 {
				t.Errorf("only %d team ticks compared", ticks)
			}
		})
	}
}
