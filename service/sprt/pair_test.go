package sprt

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"sync/atomic"
	"testing"
	"time"
)

func TestDeal_BothGamesShareTheDealSeatAndOpponents(t *testing.T) {
	p := Pairing{Candidate: "mcts", Baseline: "greedy", Opponents: []string{"greedy", "random", "random"}, Seed: 7}
	seeds := map[uint64]bool{}
	for i := range 8 {
		a, b := p.Deal(i)
		if a.Seed != b.Seed || a.Seat != b.Seat || a.Deal != i || b.Deal != i {
			t.Fatalf("deal %d: candidate's game %+v, baseline's %+v", i, a, b)
		}
		if a.Seat != i%4 {
			t.Errorf("deal %d tests seat %d, want %d: the seats rotate", i, a.Seat, i%4)
		}
		if a.Side != Candidate || b.Side != Baseline {
			t.Errorf("deal %d: sides %s and %s", i, a.Side, b.Side)
		}
		for s := range a.Seats {
			if s == a.Seat {
				if a.Seats[s].Bot != "mcts" || b.Seats[s].Bot != "greedy" || a.Seats[s].Seed == b.Seats[s].Seed {
					t.Errorf("deal %d tested seat: %+v and %+v, want mcts and greedy on seeds of their own", i, a.Seats[s], b.Seats[s])
				}
				continue
			}
			if a.Seats[s] != b.Seats[s] {
				t.Errorf("deal %d seat %d: opponent %+v with the candidate, %+v with the baseline", i, s, a.Seats[s], b.Seats[s])
			}
			if want := p.Opponents[(s-a.Seat+3)%4]; a.Seats[s].Bot != want {
				t.Errorf("deal %d seat %d: %s, want %s (the opponents in order after the tested seat)", i, s, a.Seats[s].Bot, want)
			}
		}
		seeds[a.Seed] = true
	}
	if len(seeds) != 8 {
		t.Errorf("8 deals on %d seeds", len(seeds))
	}
}

// fakePlayer ranks the tested seat from the deal's seed: the candidate first in a third of
// its games, the baseline in a quarter, everyone else tied behind; it sleeps a random while
// first so games finish out of order.
func fakePlayer(calls *atomic.Int64) Player {
	return func(ctx context.Context, g Game) ([]int, error) {
		calls.Add(1)
		time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
		ranks := make([]int, len(g.Seats))
		for s := range ranks {
			ranks[s] = 1
		}
		won := g.Seed%3 == 0
		if g.Side == Baseline {
			won = g.Seed%4 == 0
		}
		for s := range ranks {
			if (s == g.Seat) != won {
				ranks[s] = 2
			}
		}
		return ranks, ctx.Err()
	}
}

func TestRun_CountsPairsInDealOrderWhateverFinishesFirst(t *testing.T) {
	p := Pairing{Candidate: "a", Baseline: "b", Opponents: []string{"o", "o", "o"}, Seed: 11}
	cfg := Config{Bounds: Bounds{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, MaxGames: 300}
	run := func(parallel int) (Status, []Pair) {
		var played []Pair
		var calls atomic.Int64
		c := cfg
		c.Parallel = parallel
		c.Played = func(pr Pair) { played = append(played, pr) }
		st, err := Run(context.Background(), p, c, fakePlayer(&calls))
		if err != nil {
			t.Fatal(err)
		}
		return st, played
	}
	one, onePlayed := run(1)
	four, fourPlayed := run(4)
	if !reflect.DeepEqual(one, four) || !reflect.DeepEqual(onePlayed, fourPlayed) {
		t.Errorf("one at a time: %+v\nfour at a time: %+v", one, four)
	}
	for i, pr := range fourPlayed {
		if pr.Deal != i {
			t.Fatalf("pair %d told is deal %d", i, pr.Deal)
		}
	}
	if one.Pairs != len(onePlayed) || one.Games != 2*one.Pairs {
		t.Errorf("status of %d pairs, %d games after %d told", one.Pairs, one.Games, len(onePlayed))
	}
}

func TestRun_StopsWhenItDecides(t *testing.T) {
	p := Pairing{Candidate: "a", Baseline: "b", Opponents: []string{"o"}, Seed: 3}
	var calls atomic.Int64
	always := func(ctx context.Context, g Game) ([]int, error) {
		calls.Add(1)
		if g.Side == Candidate {
			return rank(g.Seat, 2, 1, 2), nil
		}
		return rank(g.Seat, 2, 2, 1), nil
	}
	st, err := Run(context.Background(), p, Config{Bounds: Bounds{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}, Parallel: 3}, always)
	if err != nil {
		t.Fatal(err)
	}
	if st.Decision != AcceptH1 {
		t.Fatalf("a candidate that always wins: %+v", st)
	}
	// The window is two pairs a worker: at most six pairs of two games beyond the decision.
	if n := calls.Load(); n > int64(2*st.Pairs+2*6) {
		t.Errorf("%d games played for a decision after %d pairs", n, st.Pairs)
	}
}

// rank gives seat the rank mine and every other seat others in a game of seats seats.
func rank(seat, seats, mine, others int) []int {
	r := make([]int, seats)
	for s := range r {
		r[s] = others
	}
	r[seat] = mine
	return r
}

func TestRun_StopsAtMaxGames(t *testing.T) {
	p := Pairing{Candidate: "a", Baseline: "b", Opponents: []string{"o", "o", "o"}, Seed: 5}
	draws := func(ctx context.Context, g Game) ([]int, error) { return []int{1, 1, 1, 1}, nil }
	st, err := Run(context.Background(), p, Config{Bounds: Bounds{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, MaxGames: 19, Parallel: 2}, draws)
	if err != nil {
		t.Fatal(err)
	}
	// 19 games round up to 10 pairs.
	if st.Decision != MaxGames || st.Games != 20 {
		t.Errorf("draws with a budget of 19 games: %s after %d games", st.Decision, st.Games)
	}
}

func TestRun_ReturnsThePlayersError(t *testing.T) {
	p := Pairing{Candidate: "a", Baseline: "b", Opponents: []string{"o"}, Seed: 5}
	broken := errors.New("the bot crashed")
	play := func(ctx context.Context, g Game) ([]int, error) {
		if g.Deal == 3 && g.Side == Baseline {
			return nil, broken
		}
		return []int{1, 2}, nil
	}
	_, err := Run(context.Background(), p, Config{Bounds: Bounds{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, Parallel: 2}, play)
	if !errors.Is(err, broken) {
		t.Errorf("Run: %v, want the player's error", err)
	}
	short := func(ctx context.Context, g Game) ([]int, error) { return []int{1}, nil }
	if _, err := Run(context.Background(), p, Config{Bounds: Bounds{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}}, short); err == nil {
		t.Error("one rank for two seats was counted")
	}
}

func TestRun_EndsWithItsContext(t *testing.T) {
	p := Pairing{Candidate: "a", Baseline: "b", Opponents: []string{"o"}, Seed: 5}
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	slow := func(ctx context.Context, g Game) ([]int, error) {
		if calls.Add(1) == 10 {
			cancel()
		}
		return []int{1, 1}, ctx.Err()
	}
	if _, err := Run(ctx, p, Config{Bounds: Bounds{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, Parallel: 2}, slow); !errors.Is(err, context.Canceled) {
		t.Errorf("Run after its context ended: %v", err)
	}
	if _, err := Run(context.Background(), Pairing{Candidate: "a", Baseline: "b"}, Config{Bounds: Bounds{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}}, slow); err == nil {
		t.Error("a pairing without opponents ran")
	}
}

func TestRun_ASlowGameHoldsTheOthersBackByTheWindow(t *testing.T) {
	p := Pairing{Candidate: "a", Baseline: "b", Opponents: []string{"o"}, Seed: 5}
	const parallel = 3
	var furthest atomic.Int64
	var slowDone atomic.Bool
	play := func(ctx context.Context, g Game) ([]int, error) {
		if g.Deal == 0 && g.Side == Candidate {
			time.Sleep(50 * time.Millisecond)
			slowDone.Store(true)
		} else if !slowDone.Load() && int64(g.Deal) > furthest.Load() {
			furthest.Store(int64(g.Deal))
		}
		return []int{1, 2}, nil
	}
	if _, err := Run(context.Background(), p, Config{Bounds: Bounds{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, MaxGames: 200, Parallel: parallel}, play); err != nil {
		t.Fatal(err)
	}
	if f := furthest.Load(); f >= 2*parallel {
		t.Errorf("while deal 0 played, the others reached deal %d: past the window of %d", f, 2*parallel)
	}
}
