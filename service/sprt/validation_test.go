package sprt

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/engine"
	_ "github.com/orrery/orrery/engine/games"
)

var update = flag.Bool("update", false, "play the games of testdata/*-greedy-greedy.pairs again and rewrite them")

// recordings are pair outcomes of real games, greedy against itself (its own seed differing
// between the two games of a pair, as in every test), that the simulations draw from: a
// test of 200 SPRTs on real games would take hours.
var recordings = []struct {
	file, game string
	pairs      int
}{
	{"icetraders-greedy-greedy.pairs", "icetraders", 1000},
	{"planet-greedy-greedy.pairs", "planet", 1000},
}

// TestRecordings_Update plays the recordings' games again with -update.
func TestRecordings_Update(t *testing.T) {
	if !*update {
		t.Skip("plays the recorded pairs again only with -update")
	}
	for _, rec := range recordings {
		p := Pairing{Candidate: "greedy", Baseline: "greedy", Opponents: []string{"greedy", "greedy", "greedy"}, Seed: 20261201}
		play := func(ctx context.Context, g Game) ([]int, error) {
			seats := make([]builtin.Seat, len(g.Seats))
			for s, e := range g.Seats {
				seats[s] = builtin.Seat{Bot: e.Bot, Seed: e.Seed}
			}
			r, err := builtin.Play(ctx, rec.game, engine.Config{Seed: g.Seed}, seats)
			return r.Ranks, err
		}
		f, err := os.Create(filepath.Join("testdata", rec.file))
		if err != nil {
			t.Fatal(err)
		}
		enc := json.NewEncoder(f)
		for i := range rec.pairs {
			r := playPair(context.Background(), p, i, play)
			if r.err != nil {
				t.Fatal(r.err)
			}
			if err := enc.Encode(r.pair); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// recorded reads a file of pairs, one JSON line each, as orrery sprt --pairs writes them.
func recorded(t *testing.T, file string) []Pair {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var pairs []Pair
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var p Pair
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		pairs = append(pairs, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(pairs) == 0 {
		t.Fatalf("%s holds no pairs", file)
	}
	return pairs
}

// nullOf is the distribution of pair scores of recorded pairs made symmetric: with the same
// bot on both sides, a pair and its mirror (the two games swapped) are equally likely, so
// the mirrored distribution has mean exactly 1/2, where the recording's own mean is 1/2
// only up to its sampling error.
func nullOf(t *testing.T, pairs []Pair) []float64 {
	t.Helper()
	tally := NewTally(len(pairs[0].Candidate))
	for _, p := range pairs {
		if err := tally.Add(p.Points()); err != nil {
			t.Fatal(err)
		}
	}
	dist := make([]float64, len(tally.Counts))
	n := float64(tally.Pairs())
	for j := range dist {
		dist[j] = float64(tally.Counts[j]+tally.Counts[tally.Steps-j]) / (2 * n)
	}
	return dist
}

// tilted is dist reweighted by e^(θ a_j), θ chosen for mean s: the distribution nearest
// dist (in relative entropy) of a stronger candidate, with the same shape of luck.
func tilted(dist []float64, s float64) []float64 {
	steps := float64(len(dist) - 1)
	at := func(theta float64) ([]float64, float64) {
		out := make([]float64, len(dist))
		var sum, mean float64
		for j, p := range dist {
			out[j] = p * math.Exp(theta*float64(j)/steps)
			sum += out[j]
		}
		for j := range out {
			out[j] /= sum
			mean += out[j] * float64(j) / steps
		}
		return out, mean
	}
	lo, hi := -50.0, 50.0
	for range 200 {
		mid := (lo + hi) / 2
		if _, m := at(mid); m < s {
			lo = mid
		} else {
			hi = mid
		}
	}
	out, _ := at((lo + hi) / 2)
	return out
}

// simulate runs tests SPRTs, each on pairs drawn from dist by a generator seeded with its
// index, and counts their decisions and the mean games they took.
func simulate(dist []float64, b Bounds, tests, maxPairs int) (decisions map[Decision]int, meanGames float64) {
	decisions = map[Decision]int{}
	cum := make([]float64, len(dist))
	acc := 0.0
	for j, p := range dist {
		acc += p
		cum[j] = acc
	}
	games := 0
	for i := range tests {
		r := rand.New(rand.NewPCG(uint64(i), 0x5e97))
		tally := Tally{Steps: len(dist) - 1, Counts: make([]int, len(dist))}
		for {
			u := r.Float64() * acc
			j := 0
			for j < len(cum)-1 && u >= cum[j] {
				j++
			}
			tally.Counts[j]++
			// LLR alone decides; Assess's estimates would only slow 200 tests down.
			if d := decide(tally.LLR(b), b, tally.Pairs(), maxPairs); d != Undecided {
				decisions[d]++
				games += 2 * tally.Pairs()
				break
			}
		}
	}
	return decisions, float64(games) / float64(tests)
}

// binomialUpper is the least c with P(X > c) < 0.01 for X ~ Binomial(n, p): a count of
// errors above it says the rate is above p.
func binomialUpper(n int, p float64) int {
	tail := 1.0
	pk := math.Pow(1-p, float64(n)) // P(X = 0)
	for c := 0; c <= n; c++ {
		tail -= pk
		if tail < 0.01 {
			return c
		}
		pk *= float64(n-c) / float64(c+1) * p / (1 - p)
	}
	return n
}

var validationBounds = Bounds{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}

// TestSPRT_IdenticalBotsAcceptH1AtMostAtAlpha: greedy against greedy, 200 tests on
// different seeds, each drawing pairs from the recorded outcomes of real games, accept H1
// no more often than α allows.
func TestSPRT_IdenticalBotsAcceptH1AtMostAtAlpha(t *testing.T) {
	const tests, maxPairs = 200, 20000
	for _, rec := range recordings {
		t.Run(rec.game, func(t *testing.T) {
			d, games := simulate(nullOf(t, recorded(t, rec.file)), validationBounds, tests, maxPairs)
			t.Logf("%s greedy against greedy, %d tests: H1 %d, H0 %d, max games %d; %.0f games a test on average",
				rec.game, tests, d[AcceptH1], d[AcceptH0], d[MaxGames], games)
			if limit := binomialUpper(tests, validationBounds.Alpha); d[AcceptH1] > limit {
				t.Errorf("H1 accepted in %d of %d tests: above α = %g (at most %d at 99%%)", d[AcceptH1], tests, validationBounds.Alpha, limit)
			}
		})
	}
}

// TestSPRT_Elo1AcceptsH0AtMostAtBeta: the same luck made elo1 stronger for the candidate
// accepts H0 no more often than β allows.
func TestSPRT_Elo1AcceptsH0AtMostAtBeta(t *testing.T) {
	const tests, maxPairs = 200, 20000
	for _, rec := range recordings {
		t.Run(rec.game, func(t *testing.T) {
			dist := tilted(nullOf(t, recorded(t, rec.file)), Score(validationBounds.Elo1))
			d, games := simulate(dist, validationBounds, tests, maxPairs)
			t.Logf("%s greedy made %g Elo stronger, %d tests: H1 %d, H0 %d, max games %d; %.0f games a test on average",
				rec.game, validationBounds.Elo1, tests, d[AcceptH1], d[AcceptH0], d[MaxGames], games)
			if limit := binomialUpper(tests, validationBounds.Beta); d[AcceptH0] > limit {
				t.Errorf("H0 accepted in %d of %d tests: above β = %g (at most %d at 99%%)", d[AcceptH0], tests, validationBounds.Beta, limit)
			}
		})
	}
}

// TestSPRT_MCTSOverGreedyInIceTradersAcceptsH1 counts, in deal order, the pairs that
// orrery sprt --game icetraders --candidate mcts --baseline greedy --seed 20261201 --pairs
// recorded (real games, mcts at its default 100 ms a decision), and the test accepts H1 at
// the pair where that run stopped: the last one recorded.
func TestSPRT_MCTSOverGreedyInIceTradersAcceptsH1(t *testing.T) {
	pairs := recorded(t, "icetraders-mcts-greedy.pairs")
	tally := NewTally(4)
	for i, p := range pairs {
		if p.Deal != i {
			t.Fatalf("line %d holds deal %d", i+1, p.Deal)
		}
		if err := tally.Add(p.Points()); err != nil {
			t.Fatal(err)
		}
		st := tally.Assess(validationBounds, 0)
		if st.Decision == Undecided {
			continue
		}
		t.Logf("%s after %d games: LLR %.3f, Elo %+.1f [%+.1f, %+.1f], LOS %.4f", st.Decision, st.Games, st.LLR, st.Elo, st.EloLow, st.EloHi, st.LOS)
		if st.Decision != AcceptH1 || i != len(pairs)-1 {
			t.Errorf("%s after %d of %d pairs, want H1 at the last", st.Decision, i+1, len(pairs))
		}
		return
	}
	t.Errorf("undecided after all %d pairs", len(pairs))
}
