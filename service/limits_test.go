package service

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/limits"
)

// Each bound refuses with its own code and a message naming the limit and its serve flag.
func TestLimits_EachBoundNamesItsLimit(t *testing.T) {
	ctx := context.Background()
	createN := func(h *harness, n int) error {
		for range n {
			if _, err := h.client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2}); err != nil {
				return err
			}
		}
		return nil
	}
	tests := []struct {
		name   string
		limits limits.Config
		do     func(h *harness) error
		code   codes.Code
		flag   string
	}{
		{"live matches", limits.Config{LiveMatches: 2}, func(h *harness) error { return createN(h, 3) },
			codes.ResourceExhausted, "--max-matches"},
		{"creates per caller per minute", limits.Config{CreatesPerMinute: 3}, func(h *harness) error { return createN(h, 4) },
			codes.ResourceExhausted, "--max-creates-per-minute"},
		{"spectators per match", limits.Config{SpectatorsPerMatch: 1}, func(h *harness) error {
			created := h.create(&orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2})
			wctx, cancel := context.WithCancel(ctx)
			defer cancel()
			first, err := h.client.Watch(wctx, &orreryv1.WatchRequest{MatchId: created.GetMatchId()})
			if err != nil {
				return err
			}
			if _, err := first.Recv(); err != nil { // the first spectator is in
				return err
			}
			second, err := h.client.Watch(wctx, &orreryv1.WatchRequest{MatchId: created.GetMatchId()})
			if err != nil {
				return err
			}
			_, err = second.Recv()
			return err
		}, codes.ResourceExhausted, "--max-spectators"},
		{"seat name length", limits.Config{}, func(h *harness) error {
			_, err := h.client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2, SeatNames: []string{strings.Repeat("n", 65)}})
			return err
		}, codes.InvalidArgument, "--max-seat-name"},
		{"seat name characters", limits.Config{}, func(h *harness) error {
			_, err := h.client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2, SeatNames: []string{"bot\n[INFO] forged log line"}})
			return err
		}, codes.InvalidArgument, "printable"},
		{"option value", limits.Config{}, func(h *harness) error {
			_, err := h.client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: testGame, Seats: 2,
				Options: map[string]string{"turn_cap": strings.Repeat("9", 100000)}})
			return err
		}, codes.InvalidArgument, "--max-option-value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, Config{Limits: tt.limits})
			err := tt.do(h)
			if status.Code(err) != tt.code || !strings.Contains(err.Error(), tt.flag) {
				t.Errorf("got %v, want %v naming %s", err, tt.code, tt.flag)
			}
			if len(err.Error()) > 400 {
				t.Errorf("the error echoes %d bytes", len(err.Error()))
			}
		})
	}
}

// Client text quoted back in an error is clipped: an unknown option named with 100 KB.
func TestLimits_EchoedClientTextIsClipped(t *testing.T) {
	h := newHarness(t, Config{})
	_, err := h.client.CreateMatch(context.Background(), &orreryv1.CreateMatchRequest{Game: testGame, Seats: 2,
		Options: map[string]string{strings.Repeat("x", 100000): "1"}})
	if status.Code(err) != codes.InvalidArgument || len(err.Error()) > 1000 {
		t.Errorf("got %d bytes: %.200v", len(err.Error()), err)
	}
}

// A match nobody joins ends as aborted after the configured time, and a joined one does not.
func TestLimits_UnjoinedMatchExpiresAborted(t *testing.T) {
	h := newHarness(t, Config{Limits: limits.Config{Unjoined: 20 * time.Millisecond}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	lonely := h.create(&orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2})
	sum, err := h.srv.AwaitEnd(ctx, lonely.GetMatchId())
	if err != nil || sum.GetResult().GetReason() != orreryv1.EndReason_END_REASON_ABORTED || !strings.Contains(sum.GetResult().GetDetail(), "no seat joined") {
		t.Errorf("unjoined match: %v, %v", sum.GetResult(), err)
	}
	joined := h.create(&orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2})
	ends := h.playRandom(ctx, joined, nil)
	if ends[0].GetResult().GetReason() != orreryv1.EndReason_END_REASON_NORMAL {
		t.Errorf("joined match ended %v", ends[0].GetResult())
	}
}

// Every distinct option set (a Planet inline data set, say) once kept an action cache of up
// to 65,536 actions for the server's life: a client creating matches with ever new options
// grew the server's memory without bound. Now the caches of option sets not used lately go.
func TestLimits_ActionCachesOfOldOptionSetsAreDropped(t *testing.T) {
	srv, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	first := srv.actionCache("planet", map[string]string{"a": "1", "b": "2"})
	if again := srv.actionCache("planet", map[string]string{"b": "2", "a": "1"}); again != first {
		t.Fatal("the same options in another order got another cache")
	}
	// Keys and values are delimited: "a"="1\x00b=2" is not "a"="1","b"="2".
	if other := srv.actionCache("planet", map[string]string{"a": "1\x00b=2"}); other == first {
		t.Fatal("different options share a cache")
	}
	for i := range 10 * maxActionCaches {
		srv.actionCache("planet", map[string]string{"data": strings.Repeat("x", i)})
	}
	if n := srv.actions.Len(); n > maxActionCaches {
		t.Fatalf("%d action caches kept, want at most %d", n, maxActionCaches)
	}
}
