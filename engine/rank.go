package engine

import (
	"fmt"
	"math/rand/v2"
	"strconv"
)

// RanksByScore ranks seats by descending score, tied scores sharing a rank (1, 1, 3, ...).
func RanksByScore(scores []float64) []int {
	ranks := make([]int, len(scores))
	for i, si := range scores {
		ranks[i] = 1
		for _, sj := range scores {
			if sj > si {
				ranks[i]++
			}
		}
	}
	return ranks
}

// NewRand is the random source every engine draws chance from: a PCG seeded from the match
// seed, serialisable with MarshalBinary and copied by value on Clone.
func NewRand(seed uint64) *rand.PCG {
	return rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
}

// Step is one applied action of a match log.
type Step struct {
	Seat   Seat
	Action Action
}

// Replay starts game with cfg and applies log, stopping at the first action that fails.
func Replay(game string, cfg Config, log []Step) (State, error) {
	st, err := New(game, cfg)
	if err != nil {
		return nil, err
	}
	for i, step := range log {
		if err := ApplyStep(st, step); err != nil {
			return st, &ReplayError{Index: i, Err: err}
		}
	}
	return st, nil
}

// ReplayError says which logged action failed to apply.
type ReplayError struct {
	Index int
	Err   error
}

func (e *ReplayError) Error() string {
	return "replay: action " + strconv.Itoa(e.Index) + ": " + e.Err.Error()
}
func (e *ReplayError) Unwrap() error { return e.Err }

// ApplyStep applies one logged step: a seat's action, or a wall-clock Advance.
func ApplyStep(st State, step Step) error {
	if step.Seat == Spectator && step.Action.IsZero() {
		t, ok := st.(Ticker)
		if !ok {
			return fmt.Errorf("%w: advance logged for a game that does not tick", ErrIllegalAction)
		}
		return t.Advance()
	}
	return st.Apply(step.Seat, step.Action)
}
