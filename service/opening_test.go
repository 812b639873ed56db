package service

import (
	"context"
	"testing"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// The events a game emits as it starts (Planet deals the objectives) reach the seats like
// any other, numbered from 0, before their first decision.
func TestEvents_OpeningEventsReachTheSeats(t *testing.T) {
	st, err := engine.New("planet", engine.Config{Seats: 2, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	opening := st.EventCount()
	if opening == 0 {
		t.Fatal("planet emits no event as it starts: this test needs a game that does")
	}
	h := newHarness(t, Config{})
	created := h.create(&orreryv1.CreateMatchRequest{Game: "planet", Seats: 2, Seed: seed(7)})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream := h.join(ctx, created.GetSeats()[0].GetToken())
	_, events := nextDecision(t, stream)
	if len(events) < opening {
		t.Fatalf("the seat got %d events before its first decision; the game opened with %d", len(events), opening)
	}
	for i, e := range events[:opening] {
		if e.GetSeq() != int64(i) || e.GetGame() == nil {
			t.Errorf("event %d: seq %d, %v; want the game's opening event %d", i, e.GetSeq(), e, i)
		}
	}
}
