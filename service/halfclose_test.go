package service

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// TestPlay_HalfCloseEndsCleanly: a bot that closes its side of the stream (grpcurl reading
// its answers from a pipe that ends, say), on a match no other stream ever joined, is sent
// every reply, then told it closed its side and to rejoin with the token (CANCELLED), not
// that a newer stream replaced it (ABORTED, which the docs say never to retry); the seat is
// kept, and a rejoin with the same token plays on from the same decision.
func TestPlay_HalfCloseEndsCleanly(t *testing.T) {
	h := newHarness(t, Config{})
	created, err := h.client.CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	token := created.GetSeats()[0].GetToken()
	for try := range 3 { // the issue saw ABORTED 3 times in 3: a race, so more than once
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		stream, err := h.client.Play(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := stream.Send(join(token, nil)); err != nil {
			t.Fatal(err)
		}
		// An answer to a decision that does not exist, then the half-close: its rejection is
		// a reply queued when the bot closed, and must still arrive.
		if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{DecisionId: "d-none"}}}); err != nil {
			t.Fatal(err)
		}
		if err := stream.CloseSend(); err != nil {
			t.Fatal(err)
		}
		var joined, rejected bool
		for {
			resp, err := stream.Recv()
			if err != nil {
				st := status.Convert(err)
				if st.Code() != codes.Canceled || !strings.Contains(st.Message(), "you closed your side") ||
					!strings.Contains(st.Message(), "rejoin with the token") {
					t.Errorf("try %d: the stream ended with %v, want CANCELLED saying the bot closed its side", try, err)
				}
				break
			}
			joined = joined || resp.GetJoined() != nil
			rejected = rejected || resp.GetRejected() != nil
		}
		cancel()
		if !joined || !rejected {
			t.Errorf("try %d: joined %v, rejected %v: the replies queued before the close must be sent", try, joined, rejected)
		}
	}
	// The seat is kept: a rejoin gets its decision and plays on.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stream := h.join(ctx, token)
	for {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatalf("after the rejoin: %v", err)
		}
		if d := resp.GetDecision(); d != nil {
			if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{
				DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}}}}); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	got, err := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()})
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); got.GetMatch().GetPly() == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if got, err = h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()}); err != nil {
			t.Fatal(err)
		}
	}
	if got.GetMatch().GetPly() == 0 {
		t.Error("the rejoined seat's answer was not applied")
	}
}
