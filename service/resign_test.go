package service

import (
	"context"
	"testing"

	"google.golang.org/grpc"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

type playStream = grpc.BidiStreamingClient[orreryv1.PlayRequest, orreryv1.PlayResponse]

// endedOn reads the stream until the match's end, failing on a rejection.
func endedOn(t *testing.T, stream playStream) *orreryv1.MatchEnded {
	t.Helper()
	for {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if e := resp.GetEnded(); e != nil {
			return e
		}
		if r := resp.GetRejected(); r != nil {
			t.Fatalf("rejected: %s", r.GetReason())
		}
	}
}

func TestResign_EndsTheMatchWithTheSeatLast(t *testing.T) {
	h := newHarness(t, Config{})
	created := h.create(&orreryv1.CreateMatchRequest{Game: "planet", Seats: 3, Seed: seed(2)})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	streams := make([]playStream, 3)
	for i, st := range created.GetSeats() {
		streams[i] = h.join(ctx, st.GetToken())
	}
	// Seat 1 resigns before it is to move: a resignation needs no decision.
	if err := streams[1].Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Resign{Resign: &orreryv1.Resign{}}}); err != nil {
		t.Fatal(err)
	}
	for i, s := range streams {
		e := endedOn(t, s)
		r := e.GetResult()
		if r.GetReason() != orreryv1.EndReason_END_REASON_FORFEIT || r.GetDetail() != "seat 1 resigned" {
			t.Errorf("seat %d is told %v %q, want a forfeit: seat 1 resigned", i, r.GetReason(), r.GetDetail())
		}
		if got := r.GetRanks(); len(got) != 3 || got[0] != 1 || got[1] != 3 || got[2] != 1 {
			t.Errorf("seat %d is told ranks %v, want [1 3 1]", i, got)
		}
	}
}

func TestResign_RefusedForAnotherMatch(t *testing.T) {
	h := newHarness(t, Config{})
	created := h.create(&orreryv1.CreateMatchRequest{Game: "planet", Seats: 2, Seed: seed(3)})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream := h.join(ctx, created.GetSeats()[1].GetToken())
	if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Resign{Resign: &orreryv1.Resign{MatchId: "m_other"}}}); err != nil {
		t.Fatal(err)
	}
	for {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if r := resp.GetRejected(); r != nil {
			if r.GetCode() != orreryv1.RejectCode_REJECT_CODE_MALFORMED {
				t.Errorf("code %v", r.GetCode())
			}
			break
		}
		if resp.GetEnded() != nil {
			t.Fatal("a resignation naming another match ended this one")
		}
	}
}
