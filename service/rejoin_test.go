package service

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// joinEnd joins with token and reads until the stream ends: the MatchEnded it got, or the
// stream's error.
func joinEnd(ctx context.Context, h *harness, token string) (*orreryv1.MatchEnded, error) {
	stream, err := h.client.Play(ctx)
	if err != nil {
		return nil, err
	}
	if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: token}}}); err != nil {
		return nil, err
	}
	for {
		resp, err := stream.Recv()
		if err != nil {
			return nil, err
		}
		if e := resp.GetEnded(); e != nil {
			return e, nil
		}
	}
}

// A seat of a stored match is always recognised. The soak's open failure: a bot whose stream
// a kill -9 cut before it read MatchEnded rejoined the restarted server, which resumes only
// unfinished matches, and was refused as "unknown seat token". It is told how the match
// ended, with the seed revealed, exactly as the seats that were still connected were.
func TestJoin_EndedMatchAfterRestartTellsTheSeatItsResult(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db := memStore(t)
	before := newHarness(t, Config{Store: db})
	created := before.create(&orreryv1.CreateMatchRequest{Seed: seed(7)})
	ends := before.playRandom(ctx, created, nil)
	before.srv.Close() // the result is stored; the server goes away

	after := newHarness(t, Config{Store: db})
	for i, st := range created.GetSeats() {
		got, err := joinEnd(ctx, after, st.GetToken())
		if err != nil {
			t.Errorf("seat %d rejoining after the restart: %v; want MatchEnded", i, err)
			continue
		}
		got.Seat = ends[i].GetSeat()
		if !proto.Equal(got, ends[i]) {
			t.Errorf("seat %d told %v after the restart; it was told %v", i, got, ends[i])
		}
	}
	// The SDK's own rejoin sees the end and stops, rather than failing the bot.
	end, err := sdk.Play(ctx, after.conn, created.GetSeats()[0].GetToken(), random.New(1), sdk.Options{})
	if err != nil || end.GetResult() == nil {
		t.Errorf("sdk.Play after the end = %v, %v", end, err)
	}
	// A token of no stored match is still a stranger.
	if _, err := joinEnd(ctx, after, randomToken()); status.Code(err) != codes.Unauthenticated {
		t.Errorf("an unknown token: %v, want Unauthenticated", err)
	}
}

// A match's tokens are durable before CreateMatch answers: a server that stops at once after
// it (nothing of the match played) resumes the match, and its seats join and play it out.
func TestJoin_MatchCreatedJustBeforeARestartResumes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db := memStore(t)
	before := newHarness(t, Config{Store: db})
	created := before.create(&orreryv1.CreateMatchRequest{Seed: seed(8)})
	before.srv.Close()

	after := newHarness(t, Config{Store: db})
	for i, end := range after.playRandom(ctx, created, nil) {
		if end.GetResult() == nil {
			t.Errorf("seat %d: no result after the restart", i)
		}
	}
}
