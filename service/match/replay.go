package match

import (
	"context"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"time"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
	"github.com/orrery/orrery/service/store"
)

// Log is a match's state and the steps and numbered events that led to it: a new match's
// opening (NewLog), or a stored match re-run from its log (Replay). Resuming a match,
// loading a finished one, GetReplay and GetView all build state this one way.
type Log struct {
	st     engine.State
	steps  []logged
	events []eventRef
	banks  map[int]time.Duration // each seat's time bank after its last logged step
	// timeouts counts each seat's timed-out steps, and timeoutRand is the timeout policy's
	// generator as it stood after them, so that a resumed match goes on choosing as it would
	// have without the restart.
	timeouts    map[int]int
	timeoutRand *mrand.Rand
}

// NewLog is the log of a match about to start at st: the events its game emits as it starts
// (Planet deals the objectives), before any step, and nothing else.
func NewLog(st engine.State) *Log {
	return &Log{st: st, events: openingEvents(st)}
}

// State is the state the log leads to.
func (l *Log) State() engine.State { return l.st }

// Plies is how many steps the log holds.
func (l *Log) Plies() int { return len(l.steps) }

// openingEvents numbers the events a game emits as it starts, before any step: seats and
// spectators are told them like any other.
func openingEvents(st engine.State) []eventRef {
	n := st.EventCount()
	if n == 0 {
		return nil
	}
	refs := make([]eventRef, n)
	for i := range refs {
		refs[i] = eventRef{engine: i}
	}
	return refs
}

// timeoutRand is the generator of a match's timeout policy, seeded from the match seed.
func timeoutRand(seed uint64) *mrand.Rand { return mrand.New(engine.NewRand(seed ^ 0x7173)) }

// Steps is where a stored match's log is read from (store.DB).
type Steps interface {
	Steps(ctx context.Context, match string) ([]store.Step, error)
}

// ReplayError is a log that no longer replays. It names the step and the kind of fault, not
// the action, which may be hidden information.
type ReplayError struct {
	Seq int64
	Err error
}

func (e *ReplayError) Error() string {
	kind := "does not apply"
	switch {
	case errors.Is(e.Err, engine.ErrBadNotation):
		kind = "does not parse"
	case errors.Is(e.Err, engine.ErrNotYourTurn):
		kind = "is out of turn"
	case errors.Is(e.Err, engine.ErrGameOver):
		kind = "comes after the end"
	}
	return fmt.Sprintf("logged step %d %s", e.Seq, kind)
}

func (e *ReplayError) Unwrap() error { return e.Err }

// Replay rebuilds a stored match's state from its log.
func Replay(ctx context.Context, db Steps, rec *store.Match) (*Log, error) {
	stored, err := db.Steps(ctx, rec.ID)
	if err != nil {
		return nil, err
	}
	return Rerun(rec.Game, engine.Config{Seats: rec.Seats, Seed: rec.Seed, Options: rec.Options}, stored)
}

// Rerun plays stored, a match's logged steps (or the first of them), from the start of a
// match of game configured as cfg.
func Rerun(game string, cfg engine.Config, stored []store.Step) (*Log, error) {
	st, err := engine.New(game, cfg)
	if err != nil {
		return nil, fmt.Errorf("the match's game or options no longer start: %w", err)
	}
	r := &Log{st: st, steps: make([]logged, 0, len(stored)), events: openingEvents(st), banks: make(map[int]time.Duration),
		timeouts: make(map[int]int), timeoutRand: timeoutRand(cfg.Seed)}
	for _, sp := range stored {
		step := engine.Step{Seat: engine.Seat(sp.Seat)}
		if !(sp.Seat == int(engine.Spectator) && sp.Notation == "") {
			if step.Action, err = st.ParseAction(sp.Notation); err != nil {
				return nil, &ReplayError{Seq: sp.Seq, Err: fmt.Errorf("%w: %w", engine.ErrBadNotation, err)}
			}
		}
		// Events are numbered as they were live: a timeout's event before its action's.
		if sp.TimedOut != 0 {
			r.events = append(r.events, eventRef{engine: -1, timedOut: sp.Seat, policy: orreryv1.TimeoutPolicy(sp.TimedOut)})
			r.timeouts[sp.Seat]++
			// The policy drew from the seat's legal list then (timeoutLocked), forfeits aside.
			if sp.TimedOut != int32(orreryv1.TimeoutPolicy_TIMEOUT_POLICY_FORFEIT) && sp.Seat >= 0 {
				if n := len(st.Legal(engine.Seat(sp.Seat), nil)); n > 0 {
					r.timeoutRand.IntN(n)
				}
			}
		}
		before := st.EventCount()
		if err := engine.ApplyStep(st, step); err != nil {
			return nil, &ReplayError{Seq: sp.Seq, Err: err}
		}
		for i := before; i < st.EventCount(); i++ {
			r.events = append(r.events, eventRef{engine: i})
		}
		r.steps = append(r.steps, logged{step: step, notation: sp.Notation, timedOut: orreryv1.TimeoutPolicy(sp.TimedOut), lab: labOf(sp)})
		if sp.Seat >= 0 {
			r.banks[sp.Seat] = sp.Bank
		}
	}
	return r, nil
}

// Events is seat's view of the log's events numbered from on, as seat saw them live.
func (l *Log) Events(seat engine.Seat, from int64) []*orreryv1.Event {
	events := eventLog{refs: l.events}
	return events.build(l.st, seat, from)
}

// Replay is an ended match's replay: its summary, seed, steps, public events and final text.
func (l *Log) Replay(sum *orreryv1.MatchSummary, seed uint64, salt string) *orreryv1.GetReplayResponse {
	out := &orreryv1.GetReplayResponse{Match: sum}
	out.Seed, out.SeedSalt = RevealSeed(true, seed, salt)
	for _, s := range l.steps {
		step := &orreryv1.ReplayStep{Seat: int32(s.step.Seat), Notation: s.notation, TimedOut: s.timedOut}
		s.lab.fill(step)
		if !s.step.Action.IsZero() {
			step.Action = wire.Action(l.st.ActionProto(s.step.Action))
		}
		out.Steps = append(out.Steps, step)
	}
	out.Events = l.Events(engine.Spectator, 0)
	out.FinalText = l.st.Render(engine.Spectator)
	return out
}
