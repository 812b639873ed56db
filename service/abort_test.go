package service

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

func seatTokens(c *orreryv1.CreateMatchResponse) []string {
	var out []string
	for _, s := range c.GetSeats() {
		out = append(out, s.GetToken())
	}
	return out
}

// TestAbortMatch_AdminOrCreator: the admin key aborts any running match; without it, the
// creator does, showing its creator token (even after a restart) or every seat's token in
// order; anyone else is refused, and a match that is not running cannot be aborted.
func TestAbortMatch_AdminOrCreator(t *testing.T) {
	ctx := context.Background()
	t.Run("admin key", func(t *testing.T) {
		h := newHarnessWith(t, Config{Store: memStore(t)}, GRPCOptions{Authorize: AdminKey("sesame")})
		admin := metadata.AppendToOutgoingContext(ctx, "authorization", "bearer sesame")
		created, err := h.client.CreateMatch(admin, &orreryv1.CreateMatchRequest{Game: testGame, Seats: 2})
		if err != nil {
			t.Fatal(err)
		}
		req := &orreryv1.AbortMatchRequest{MatchId: created.GetMatchId(), Reason: "stuck"}
		if _, err := h.client.AbortMatch(ctx, req); status.Code(err) != codes.PermissionDenied {
			t.Errorf("no key, no tokens: %v, want PermissionDenied", err)
		}
		wrong := metadata.AppendToOutgoingContext(ctx, "authorization", "bearer nope")
		if _, err := h.client.AbortMatch(wrong, req); status.Code(err) != codes.Unauthenticated {
			t.Errorf("a wrong key: %v, want Unauthenticated", err)
		}
		resp, err := h.client.AbortMatch(admin, req)
		if err != nil {
			t.Fatal(err)
		}
		res := resp.GetMatch().GetResult()
		if resp.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_FINISHED || res.GetReason() != orreryv1.EndReason_END_REASON_ABORTED ||
			res.GetDetail() != "aborted by the server's admin: stuck" {
			t.Errorf("aborted match: %v, result %v", resp.GetMatch().GetStatus(), res)
		}
		if _, err := h.client.AbortMatch(admin, req); status.Code(err) != codes.FailedPrecondition {
			t.Errorf("aborting it again: %v, want FailedPrecondition", err)
		}
		if _, err := h.client.AbortMatch(admin, &orreryv1.AbortMatchRequest{MatchId: "mnosuch"}); status.Code(err) != codes.NotFound {
			t.Errorf("an unknown match: %v, want NotFound", err)
		}
		if _, err := h.client.AbortMatch(admin, &orreryv1.AbortMatchRequest{MatchId: created.GetMatchId(), Reason: strings.Repeat("x", 201)}); status.Code(err) != codes.InvalidArgument {
			t.Errorf("a reason too long: %v, want InvalidArgument", err)
		}
	})
	t.Run("creator token", func(t *testing.T) {
		db := memStore(t)
		before := newHarness(t, Config{Store: db})
		created := before.create(&orreryv1.CreateMatchRequest{Seats: 2})
		other := before.create(&orreryv1.CreateMatchRequest{Seats: 2})
		inProcess, _, _, err := before.srv.Create(ctx, MatchSpec{Game: testGame, Seats: 2})
		if err != nil {
			t.Fatal(err)
		}
		if created.GetCreatorToken() == "" || created.GetCreatorToken() == other.GetCreatorToken() {
			t.Fatalf("creator tokens %q and %q: want one of its own for each match", created.GetCreatorToken(), other.GetCreatorToken())
		}
		for _, st := range created.GetSeats() {
			if st.GetToken() == created.GetCreatorToken() {
				t.Fatalf("seat %d's token is the creator token", st.GetSeat())
			}
		}
		// The creator token plays no seat.
		stream, err := before.client.Play(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: created.GetCreatorToken()}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := stream.Recv(); status.Code(err) != codes.Unauthenticated {
			t.Errorf("joining with the creator token: %v, want Unauthenticated", err)
		}
		before.srv.Close() // the proof outlives a restart: the store keeps its hash
		h := newHarness(t, Config{Store: db})
		id := created.GetMatchId()
		for name, bad := range map[string]string{
			"another match's": other.GetCreatorToken(),
			"a seat's":        created.GetSeats()[0].GetToken(),
			"made up":         "x" + created.GetCreatorToken(),
		} {
			if _, err := h.client.AbortMatch(ctx, &orreryv1.AbortMatchRequest{MatchId: id, CreatorToken: bad}); status.Code(err) != codes.PermissionDenied {
				t.Errorf("%s token: %v, want PermissionDenied", name, err)
			}
		}
		// A match made in process (the ladder's) has no creator: no token aborts it.
		if _, err := h.client.AbortMatch(ctx, &orreryv1.AbortMatchRequest{MatchId: inProcess, CreatorToken: created.GetCreatorToken()}); status.Code(err) != codes.PermissionDenied {
			t.Errorf("a creator token on a match made in process: %v, want PermissionDenied", err)
		}
		resp, err := h.client.AbortMatch(ctx, &orreryv1.AbortMatchRequest{MatchId: id, CreatorToken: created.GetCreatorToken(), Reason: "no time"})
		if err != nil {
			t.Fatal(err)
		}
		if got := resp.GetMatch().GetResult(); got.GetReason() != orreryv1.EndReason_END_REASON_ABORTED || got.GetDetail() != "aborted by its creator: no time" {
			t.Errorf("result %v", got)
		}
		if sum, err := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: other.GetMatchId()}); err != nil || sum.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_RUNNING {
			t.Errorf("the other match: %v %v, want it running", sum.GetMatch().GetStatus(), err)
		}
	})
	t.Run("creator's tokens", func(t *testing.T) {
		h := newHarness(t, Config{Store: memStore(t)})
		created := h.create(&orreryv1.CreateMatchRequest{Seats: 3})
		other := h.create(&orreryv1.CreateMatchRequest{Seats: 3})
		tokens := seatTokens(created)
		id := created.GetMatchId()
		for name, bad := range map[string][]string{
			"none":               nil,
			"one seat's":         tokens[:1],
			"out of order":       {tokens[1], tokens[0], tokens[2]},
			"another match's":    seatTokens(other),
			"one of another's":   {tokens[0], tokens[1], seatTokens(other)[2]},
			"not a token at all": {"a", "b", "c"},
		} {
			if _, err := h.client.AbortMatch(ctx, &orreryv1.AbortMatchRequest{MatchId: id, SeatTokens: bad}); status.Code(err) != codes.PermissionDenied {
				t.Errorf("%s tokens: %v, want PermissionDenied", name, err)
			}
		}
		resp, err := h.client.AbortMatch(ctx, &orreryv1.AbortMatchRequest{MatchId: id, SeatTokens: tokens})
		if err != nil {
			t.Fatal(err)
		}
		if got := resp.GetMatch().GetResult(); got.GetReason() != orreryv1.EndReason_END_REASON_ABORTED || got.GetDetail() != "aborted by its creator" {
			t.Errorf("result %v", got)
		}
		// A seat told so: its stream gets the end.
		stream := h.join(ctx, tokens[0])
		for {
			msg, err := stream.Recv()
			if err != nil {
				t.Fatalf("the aborted match's seat: %v before the end", err)
			}
			if e := msg.GetEnded(); e != nil {
				if e.GetResult().GetReason() != orreryv1.EndReason_END_REASON_ABORTED {
					t.Errorf("the seat was told %v", e.GetResult())
				}
				break
			}
		}
		if sum, err := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: other.GetMatchId()}); err != nil || sum.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_RUNNING {
			t.Errorf("the other match: %v %v, want it running", sum.GetMatch().GetStatus(), err)
		}
	})
}
