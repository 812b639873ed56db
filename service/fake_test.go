package service

import (
	"context"
	"fmt"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/engine"
	icetradersv1 "github.com/orrery/orrery/proto/orrery/icetraders/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// repeatGame is a test double: seat 0 acts three times in a row with the same single legal
// action, then seat 1 once, for 8 actions. It borrows IceTraders' messages for the envelope.
type repeatGame struct{}

func (repeatGame) Info() engine.Info {
	return engine.Info{Name: "test-repeat", Title: "Repeat", MinSeats: 2, MaxSeats: 2}
}
func (repeatGame) New(cfg engine.Config) (engine.State, error) { return &repeatState{}, nil }
func (repeatGame) Catalog() proto.Message                      { return nil }

type repeatState struct{ ply int }

var pass = engine.Action{Kind: 1}

func (s *repeatState) Seats() int { return 2 }
func (s *repeatState) owner() engine.Seat {
	if s.ply%4 == 3 {
		return 1
	}
	return 0
}
func (s *repeatState) ToAct(buf []engine.Seat) []engine.Seat {
	if s.Terminal() {
		return buf
	}
	return append(buf, s.owner())
}
func (s *repeatState) Legal(seat engine.Seat, buf []engine.Action) []engine.Action {
	if s.Terminal() || seat != s.owner() {
		return buf
	}
	return append(buf, pass)
}
func (s *repeatState) Apply(seat engine.Seat, a engine.Action) error {
	if s.Terminal() {
		return engine.ErrGameOver
	}
	if seat != s.owner() {
		return engine.ErrNotYourTurn
	}
	if a != pass {
		return engine.ErrIllegalAction
	}
	s.ply++
	return nil
}
func (s *repeatState) Observe(engine.Seat) proto.Message { return &icetradersv1.Observation{} }
func (s *repeatState) Render(engine.Seat) string         { return fmt.Sprint("ply ", s.ply) }
func (s *repeatState) EventCount() int                   { return 0 }
func (s *repeatState) Events(engine.Seat, int, []proto.Message) []proto.Message {
	return nil
}
func (s *repeatState) Terminal() bool { return s.ply >= 8 }
func (s *repeatState) Result() engine.Result {
	return engine.Result{Ranks: []int{1, 1}, Scores: []float64{0, 0}, Reason: engine.EndNormal}
}
func (s *repeatState) Clone() engine.State               { c := *s; return &c }
func (s *repeatState) MarshalBinary() ([]byte, error)    { return []byte{byte(s.ply)}, nil }
func (s *repeatState) FormatAction(engine.Action) string { return "pass" }
func (s *repeatState) ParseAction(t string) (engine.Action, error) {
	if t != "pass" {
		return engine.Action{}, engine.ErrBadNotation
	}
	return pass, nil
}
func (s *repeatState) ActionProto(engine.Action) proto.Message { return &icetradersv1.Action{} }
func (s *repeatState) ActionFromProto(proto.Message) (engine.Action, error) {
	return pass, nil
}

func init() { engine.Register(repeatGame{}) }

// A seat that owes the same choice twice running gets a new decision each time: answering
// one must never leave the next looking already sent.
func TestDecision_SameChoiceTwiceIsTwoDecisions(t *testing.T) {
	h := newHarness(t, Config{})
	created := h.create(&orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Minute)}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ends := h.playRandom(ctx, created, nil)
	if ends[0].GetResult() == nil {
		t.Fatal("no result")
	}
	got, _ := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()})
	for _, s := range got.GetMatch().GetSeatInfo() {
		if s.GetTimeouts() != 0 {
			t.Errorf("seat %d timed out: a decision was never sent", s.GetSeat())
		}
	}
}
