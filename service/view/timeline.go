package view

import (
	"fmt"
	"sync"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// marks is how many checkpoints a timeline keeps at most: a view re-runs at most
// plies/marks steps from the nearest one (a 6,000-ply match: 375), not the whole match.
const marks = 16

// minEvery is the fewest plies between checkpoints: short matches need few.
const minEvery = 32

// timeline is a finished match re-run once: states every `every` plies, and each ply's event
// numbering, so that a view at any ply re-runs only the steps since the checkpoint before it.
// A replay never changes, so neither does its timeline. A person playing a replay forward asks
// for ply after ply: the cursor, the state of the last view, moves on from where it was.
type timeline struct {
	rep   *orreryv1.GetReplayResponse
	every int
	// refs numbers the events as they were live: per event its engine event number, or
	// -1-seat for a timeout (whose event comes before its action's). refsAt[p] is how many
	// events the first p plies made.
	refs   []int
	refsAt []int

	mu      sync.Mutex     // guards checks and the cursor
	checks  []engine.State // checks[i]: the state after i*every plies; never applied to
	cursor  engine.State   // the state after cursorAt plies, or nil
	cursorA int
}

// newTimeline re-runs the whole replay once.
func newTimeline(rep *orreryv1.GetReplayResponse) (*timeline, error) {
	steps := rep.GetSteps()
	tl := &timeline{rep: rep, every: max(minEvery, (len(steps)+marks-1)/marks), refsAt: make([]int, 0, len(steps)+1)}
	st, err := tl.start()
	if err != nil {
		return nil, err
	}
	tl.refsAt = append(tl.refsAt, 0)
	for i := range steps {
		if i%tl.every == 0 {
			tl.checks = append(tl.checks, st.Clone())
		}
		if err := tl.apply(st, i, true); err != nil {
			return nil, err
		}
		tl.refsAt = append(tl.refsAt, len(tl.refs))
	}
	if len(steps)%tl.every == 0 {
		tl.checks = append(tl.checks, st.Clone())
	}
	tl.cursor, tl.cursorA = st, len(steps)
	return tl, nil
}

func (tl *timeline) start() (engine.State, error) {
	m := tl.rep.GetMatch()
	st, err := engine.New(m.GetGame(), engine.Config{Seats: int(m.GetSeats()), Seed: tl.rep.GetSeed(), Options: m.GetOptions()})
	if err != nil {
		return nil, status.Errorf(codes.DataLoss, "replay of %s: %v", m.GetMatchId(), err)
	}
	return st, nil
}

// apply applies step i to st, numbering its events when number is set (the first run).
func (tl *timeline) apply(st engine.State, i int, number bool) error {
	sp := tl.rep.GetSteps()[i]
	step := engine.Step{Seat: engine.Seat(sp.GetSeat())}
	var err error
	if !(step.Seat == engine.Spectator && sp.GetNotation() == "") {
		if step.Action, err = st.ParseAction(sp.GetNotation()); err != nil {
			return tl.lost(i, sp, err)
		}
	}
	if number && sp.GetTimedOut() != orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED {
		tl.refs = append(tl.refs, -1-int(sp.GetSeat()))
	}
	before := st.EventCount()
	if err := engine.ApplyStep(st, step); err != nil {
		return tl.lost(i, sp, err)
	}
	if number {
		for e := before; e < st.EventCount(); e++ {
			tl.refs = append(tl.refs, e)
		}
	}
	return nil
}

func (tl *timeline) lost(i int, sp *orreryv1.ReplayStep, err error) error {
	return status.Errorf(codes.DataLoss, "replay of %s, step %d %q: %v", tl.rep.GetMatch().GetMatchId(), i, sp.GetNotation(), err)
}

// at calls f with the state after ply plies, under the timeline's lock: f must not keep it.
func (tl *timeline) at(ply int, f func(engine.State) error) error {
	if ply < 0 || ply > len(tl.rep.GetSteps()) {
		return fmt.Errorf("ply %d out of range", ply)
	}
	tl.mu.Lock()
	defer tl.mu.Unlock()
	// On from the cursor when it is behind the ply and no farther than a checkpoint would be.
	if tl.cursor == nil || tl.cursorA > ply || ply-tl.cursorA > ply%tl.every {
		tl.cursor, tl.cursorA = tl.checks[ply/tl.every].Clone(), ply/tl.every*tl.every
	}
	for ; tl.cursorA < ply; tl.cursorA++ {
		if err := tl.apply(tl.cursor, tl.cursorA, false); err != nil {
			tl.cursor = nil
			return err
		}
	}
	return f(tl.cursor)
}
