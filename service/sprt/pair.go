package sprt

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// Pairing says who sits where in a test's deals.
type Pairing struct {
	Candidate, Baseline string
	// Opponents sit in the other seats, in this order from the seat after the tested one.
	Opponents []string
	// Seed is the test's: every deal's seed and every bot's own seed follow from it.
	Seed uint64
}

// Seats is the number of seats of the test's games.
func (p Pairing) Seats() int { return 1 + len(p.Opponents) }

// Entrant is one seat of a game: a bot by name and its own seed.
type Entrant struct {
	Bot  string
	Seed uint64
}

// Game is one game of a pair.
type Game struct {
	Deal  int
	Seed  uint64 // the engine's seed: the same for both games of a pair
	Seat  int    // the tested seat
	Seats []Entrant
	Side  Side // whose game of the pair this is
}

// Side is the candidate's or the baseline's game of a pair.
type Side string

// The sides.
const (
	Candidate Side = "candidate"
	Baseline  Side = "baseline"
)

// Deal is the i-th pair: the deal played with the candidate and with the baseline in seat i
// mod seats. The opponents keep their seeds across the pair, so they play alike until the
// tested seat's choices make the games differ. The candidate's and the baseline's own seeds
// differ: a bot tested against itself then plays its own dice twice, as two versions of a
// bot would, instead of replaying one game move for move (which says nothing about its
// variance).
func (p Pairing) Deal(i int) (candidate, baseline Game) {
	k := p.Seats()
	seed := mix(p.Seed + uint64(i+1)*golden)
	at := i % k
	seats := make([]Entrant, k)
	for j, name := range p.Opponents {
		seats[(at+1+j)%k] = Entrant{Bot: name, Seed: mix(seed ^ uint64(j+1)*golden)}
	}
	candidate = Game{Deal: i, Seed: seed, Seat: at, Seats: seats, Side: Candidate}
	baseline = Game{Deal: i, Seed: seed, Seat: at, Seats: append([]Entrant(nil), seats...), Side: Baseline}
	candidate.Seats[at] = Entrant{Bot: p.Candidate, Seed: mix(seed ^ 0xca9d1da7e)}
	baseline.Seats[at] = Entrant{Bot: p.Baseline, Seed: mix(seed ^ 0xba5e11e)}
	return candidate, baseline
}

const golden = 0x9e3779b97f4a7c15

// mix is SplitMix64's finaliser: nearby inputs give unrelated seeds.
func mix(x uint64) uint64 {
	x += golden
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Player plays one game and returns every seat's rank (1 is first; tied seats share one).
type Player func(ctx context.Context, g Game) (ranks []int, err error)

// Pair is one played pair. Its JSON is a line of orrery sprt --pairs and of this package's
// recorded outcomes.
type Pair struct {
	Deal      int    `json:"deal"`
	Seed      uint64 `json:"seed,string"`
	Seat      int    `json:"seat"`            // the tested seat
	Candidate []int  `json:"candidate_ranks"` // every seat's rank in the candidate's game
	Baseline  []int  `json:"baseline_ranks"`  // and in the baseline's
}

// Points are the tested seat's points with the candidate and with the baseline.
func (p Pair) Points() (candidate, baseline float64) {
	return Points(p.Candidate, p.Seat), Points(p.Baseline, p.Seat)
}

// Config is how a test runs.
type Config struct {
	Bounds   Bounds
	MaxGames int // the budget of games (two a pair); 0: none
	Parallel int // pairs played at once; at least 1
	// Progress, if set, is told the status after each pair, and Played each pair, in deal
	// order, from Run's goroutine.
	Progress func(Status)
	Played   func(Pair)
	// Counted are pairs already counted, deals 0 to len-1 in order (a resumed test): Run
	// counts them again and plays on from the next deal.
	Counted []Pair
}

// Run plays pairs until the test decides or the budget runs out, Parallel pairs at a time,
// and counts them in deal order: the outcome does not depend on which game finished first.
// Pairs still playing when it decides are left unfinished and not counted.
func Run(ctx context.Context, p Pairing, cfg Config, play Player) (Status, error) {
	if err := cfg.Bounds.Check(); err != nil {
		return Status{}, err
	}
	if p.Seats() < 2 {
		return Status{}, errors.New("sprt: a test needs at least one opponent")
	}
	if cfg.MaxGames < 0 {
		return Status{}, fmt.Errorf("sprt: max games %d is negative", cfg.MaxGames)
	}
	maxPairs := (cfg.MaxGames + 1) / 2
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	results := make(chan playedPair)
	// A worker takes a slot before a deal, and the count gives it back once it has counted
	// a pair: a slow game then holds the others back by at most the window, instead of the
	// rest racing ahead into pairs that wait, uncounted, behind it.
	parallel := max(cfg.Parallel, 1)
	slots := make(chan struct{}, 2*parallel)
	tally := NewTally(p.Seats())
	for i, r := range cfg.Counted {
		if r.Deal != i || r.Seat != i%p.Seats() {
			return Status{}, fmt.Errorf("sprt: counted pair %d is deal %d in seat %d", i, r.Deal, r.Seat)
		}
		if err := errors.Join(checkRanks(r.Candidate, p.Seats()), checkRanks(r.Baseline, p.Seats())); err != nil {
			return Status{}, fmt.Errorf("sprt: counted deal %d: %w", r.Deal, err)
		}
		if err := tally.Add(r.Points()); err != nil {
			return Status{}, fmt.Errorf("sprt: deal %d: %w", r.Deal, err)
		}
	}
	st := tally.Assess(cfg.Bounds, maxPairs)
	if st.Decision != Undecided {
		return st, nil
	}
	var next atomic.Int64
	next.Store(int64(len(cfg.Counted)))
	var wg sync.WaitGroup
	for range parallel {
		wg.Go(func() {
			for {
				select {
				case slots <- struct{}{}:
				case <-ctx.Done():
					return
				}
				i := int(next.Add(1) - 1)
				if (maxPairs > 0 && i >= maxPairs) || ctx.Err() != nil {
					return
				}
				r := playPair(ctx, p, i, play)
				select {
				case results <- r:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	// finish stops the players and waits for them, so no game outlives Run.
	finish := func(st Status, err error) (Status, error) {
		cancel()
		for range results {
		}
		return st, err
	}

	pending := map[int]playedPair{}
	for r := range results {
		if r.err != nil {
			return finish(st, r.err)
		}
		pending[r.pair.Deal] = r
		for {
			r, ok := pending[st.Pairs]
			if !ok {
				break
			}
			delete(pending, st.Pairs)
			<-slots
			if err := tally.Add(r.pair.Points()); err != nil {
				return finish(st, fmt.Errorf("sprt: deal %d: %w", r.pair.Deal, err))
			}
			st = tally.Assess(cfg.Bounds, maxPairs)
			if cfg.Played != nil {
				cfg.Played(r.pair)
			}
			if cfg.Progress != nil {
				cfg.Progress(st)
			}
			if st.Decision != Undecided {
				return finish(st, nil)
			}
		}
	}
	// The players stopped before a decision: the caller's context ended.
	return st, ctx.Err()
}

type playedPair struct {
	pair Pair
	err  error
}

// playPair plays deal i with the candidate, then with the baseline.
func playPair(ctx context.Context, p Pairing, i int, play Player) playedPair {
	a, b := p.Deal(i)
	var ranks [2][]int
	for k, g := range []Game{a, b} {
		r, err := play(ctx, g)
		if err == nil {
			err = checkRanks(r, len(g.Seats))
		}
		if err != nil {
			return playedPair{err: fmt.Errorf("sprt: deal %d (seed %d), the %s in seat %d: %w", i, g.Seed, g.Side, g.Seat, err)}
		}
		ranks[k] = r
	}
	return playedPair{pair: Pair{Deal: i, Seed: a.Seed, Seat: a.Seat, Candidate: ranks[0], Baseline: ranks[1]}}
}

// checkRanks says what is wrong with a game's ranks, if anything.
func checkRanks(ranks []int, seats int) error {
	if len(ranks) != seats {
		return fmt.Errorf("%d ranks for %d seats", len(ranks), seats)
	}
	for _, r := range ranks {
		if r < 1 || r > seats {
			return fmt.Errorf("ranks %v: want 1 to %d", ranks, seats)
		}
	}
	return nil
}
