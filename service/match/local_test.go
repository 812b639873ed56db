package match

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// firstLegal answers every decision with its first legal action.
func firstLegal(resp *orreryv1.PlayResponse) (*orreryv1.Answer, error) {
	d := resp.GetDecision()
	if d == nil {
		return nil, nil
	}
	return &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}}, nil
}

// Two seats the server plays itself answer each other's decisions on the sender goroutines
// (each hands the other's stream on to its own goroutine), to the end: Play returns nil.
func TestPlay_TwoSeatsInProcessPlayToTheEnd(t *testing.T) {
	m := newTestMatch(t, testGame, 2, 3)
	var wg sync.WaitGroup
	var decisions atomic.Int64
	for seat := range engine.Seat(2) {
		st := m.Connect(seat, nil)
		wg.Go(func() {
			defer st.Detach()
			err := st.Play(context.Background(), func(resp *orreryv1.PlayResponse) (*orreryv1.Answer, error) {
				if resp.GetDecision() != nil {
					decisions.Add(1)
				}
				return firstLegal(resp)
			})
			if err != nil {
				t.Errorf("seat %d: Play = %v, want nil at the end", seat, err)
			}
		})
	}
	wg.Wait()
	if !m.Over() {
		t.Error("Play returned before the match was over")
	}
	if decisions.Load() == 0 {
		t.Error("no decision was given to the seats' bots")
	}
}

// Once Play has returned on its context's end, its bot is not running (Play waited for the
// decision it was thinking over) and is given nothing more, however the match goes on.
func TestPlay_ReturnsWithItsBotStoppedWhenItsContextEnds(t *testing.T) {
	m := newTestMatch(t, testGame, 2, 4)
	ctx, cancel := context.WithCancel(context.Background())
	var stopped atomic.Bool
	var late atomic.Int64
	first := make(chan struct{})
	var once sync.Once
	house := m.Connect(0, nil)
	done := make(chan error, 1)
	go func() {
		done <- house.Play(ctx, func(resp *orreryv1.PlayResponse) (*orreryv1.Answer, error) {
			if stopped.Load() {
				late.Add(1)
			}
			if resp.GetDecision() != nil {
				once.Do(func() {
					close(first)
					<-ctx.Done() // the bot thinks until Play is told to stop
				})
			}
			return firstLegal(resp)
		})
	}()
	other := m.Connect(1, nil)
	otherDone := make(chan error, 1)
	otherCtx, stopOther := context.WithCancel(context.Background())
	defer stopOther()
	go func() { otherDone <- other.Play(otherCtx, firstLegal) }()
	<-first
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Play = %v, want context.Canceled", err)
	}
	stopped.Store(true)
	stopOther() // the other seat plays on until here: its answers give seat 0 decisions
	<-otherDone
	if n := late.Load(); n > 0 {
		t.Errorf("the bot was given %d messages after Play returned", n)
	}
}
