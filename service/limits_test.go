package service

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

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
		// One client filled --max-matches with matches it abandoned.
		{"live matches per caller", limits.Config{LivePerCaller: 2}, func(h *harness) error { return createN(h, 3) },
			codes.ResourceExhausted, "--max-matches-per-caller"},
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
		// One client could take all 64 spectator places of a match.
		{"spectators per caller", limits.Config{SpectatorsPerCaller: 1}, func(h *harness) error {
			created := h.create(&orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2})
			wctx, cancel := context.WithCancel(ctx)
			defer cancel()
			first, err := h.client.Watch(wctx, &orreryv1.WatchRequest{MatchId: created.GetMatchId()})
			if err != nil {
				return err
			}
			if _, err := first.Recv(); err != nil {
				return err
			}
			second, err := h.client.Watch(wctx, &orreryv1.WatchRequest{MatchId: created.GetMatchId()})
			if err != nil {
				return err
			}
			_, err = second.Recv()
			return err
		}, codes.ResourceExhausted, "--max-spectators-per-caller"},
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

// A caller's ended match gives its place back: with its limit of live matches running, the
// caller creates again once one has ended.
func TestLimits_LiveMatchesPerCallerComeBackAtTheEnd(t *testing.T) {
	h := newHarness(t, Config{Limits: limits.Config{LivePerCaller: 2}})
	ctx := context.Background()
	first := h.create(&orreryv1.CreateMatchRequest{Game: testGame, Seats: testSeats, Seed: seed(3)})
	h.create(&orreryv1.CreateMatchRequest{Game: testGame, Seats: testSeats})
	if _, err := h.client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: testGame, Seats: testSeats}); status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("a third live match: %v", err)
	}
	h.playRandom(ctx, first, nil)
	waitFor(t, "the ended match gives its place back", func() bool {
		_, err := h.client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: testGame, Seats: testSeats})
		return err == nil
	})
}

// The reproduction: matches joined once and abandoned (24 h a move) were never reaped,
// and 30 of them held --max-matches 30 for days. Now a match whose connected seats all left
// and stayed away past --abandoned-expiry ends as aborted; one whose seat comes back in time
// goes on.
func TestLimits_AbandonedMatchEndsAborted(t *testing.T) {
	const expiry = 2 * time.Second
	h := newHarness(t, Config{Limits: limits.Config{Abandoned: expiry}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	slow := &orreryv1.Clock{PerMove: durationpb.New(24 * time.Hour)}
	left := h.create(&orreryv1.CreateMatchRequest{Game: testGame, Seats: testSeats, Clock: slow})
	sctx, leave := context.WithCancel(ctx)
	h.join(sctx, left.GetSeats()[0].GetToken())
	leave()
	sum, err := h.srv.AwaitEnd(ctx, left.GetMatchId())
	if err != nil || sum.GetResult().GetReason() != orreryv1.EndReason_END_REASON_ABORTED || !strings.Contains(sum.GetResult().GetDetail(), "every connected seat left") {
		t.Errorf("abandoned match: %v, %v", sum.GetResult(), err)
	}

	back := h.create(&orreryv1.CreateMatchRequest{Game: testGame, Seats: testSeats, Clock: slow})
	sctx, leave = context.WithCancel(ctx)
	h.join(sctx, back.GetSeats()[0].GetToken())
	leave()
	time.Sleep(expiry / 10)
	h.join(ctx, back.GetSeats()[0].GetToken()) // back in time, and stays
	time.Sleep(expiry + expiry/2)
	got, err := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: back.GetMatchId()})
	if err != nil || got.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_RUNNING {
		t.Errorf("a match whose seat came back: %v, %v", got.GetMatch().GetStatus(), err)
	}
}
