package service

import (
	"context"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
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

// Events built once for several seats (engine.PublicEvents) are only those every viewer reads
// alike: over whole matches, with chosen alignments (secret until revealed) and assigned ones,
// each seat receives every event exactly as the engine shows it to that seat.
func TestEvents_EachSeatReadsItsOwnView(t *testing.T) {
	h := newHarness(t, Config{})
	ctx := context.Background()
	for _, align := range []string{"chosen", "random"} {
		created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(31), Options: map[string]string{"alignment": align}})
		got := make([][]*orreryv1.Event, len(created.GetSeats()))
		errs := make(chan error, len(got))
		for i, s := range created.GetSeats() {
			go func() {
				bot := bots.Func(random.New(uint64(i)).Act) // not random's Receive: every event
				_, err := sdk.Play(ctx, h.conn, s.GetToken(), bot,
					sdk.Options{OnEvent: func(e *orreryv1.Event) { got[i] = append(got[i], e) }})
				errs <- err
			}()
		}
		for range got {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		r, err := h.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: created.GetMatchId()})
		if err != nil {
			t.Fatal(err)
		}
		st, err := engine.New(testGame, engine.Config{Seats: testSeats, Seed: r.GetSeed(), Options: r.GetMatch().GetOptions()})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range r.GetSteps() {
			a, err := st.ParseAction(s.GetNotation())
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Apply(engine.Seat(s.GetSeat()), a); err != nil {
				t.Fatal(err)
			}
		}
		for seat, evs := range got {
			want := st.Events(engine.Seat(seat), 0, nil)
			if len(evs) != len(want) {
				t.Fatalf("%s: seat %d got %d events, the engine shows it %d", align, seat, len(evs), len(want))
			}
			for i, e := range evs {
				if !proto.Equal(e.GetGame(), wire.GameEvent(want[i])) {
					t.Fatalf("%s: seat %d's event %d is %v; the engine shows it %v", align, seat, i, e.GetGame(), want[i])
				}
			}
		}
	}
}
