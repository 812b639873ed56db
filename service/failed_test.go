package service

import (
	"context"
	"encoding/hex"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/seedcommit"
	"github.com/orrery/orrery/service/store"
)

// storeMatch writes a running icetraders match straight into db, with a log of steps, and
// returns its seat tokens.
func storeMatch(t *testing.T, db *store.DB, id string, created time.Time, steps []store.Step) []string {
	t.Helper()
	ctx := context.Background()
	tokens := []string{seatToken(id), seatToken(id)} // as the server issues them
	var hashes []string
	for _, tok := range tokens {
		h := hashToken(tok)
		hashes = append(hashes, hex.EncodeToString(h[:]))
	}
	rec := &store.Match{ID: id, Game: testGame, Seats: 2, Options: map[string]string{}, Seed: 42, SeedHash: seedcommit.Hash(42, nil),
		Names: []string{"", ""}, TokenHashes: hashes, PerMove: time.Minute, TimeBank: time.Minute, TimeoutPolicy: 1, Created: created}
	if err := db.CreateMatch(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if len(steps) > 0 {
		if err := db.AppendSteps(ctx, id, steps); err != nil {
			t.Fatal(err)
		}
	}
	return tokens
}

// watchFirst opens Watch and returns its first message or the stream's error.
func watchFirst(t *testing.T, h *harness, id string) (*orreryv1.WatchResponse, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	w, err := h.client.Watch(ctx, &orreryv1.WatchRequest{MatchId: id})
	if err != nil {
		return nil, err
	}
	return w.Recv()
}

// A match whose log no longer replays is marked failed at start-up: every RPC shows it
// failed, no viewer gets its seed or an all-seeing view, and its seats are told so.
func TestResume_UnreplayableMatchIsMarkedFailed(t *testing.T) {
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "orrery.db")
	db, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tokens := storeMatch(t, db, "mbroken", time.Unix(100, 0), []store.Step{{Seq: 0, Seat: 0, Notation: "no such action"}})
	h := newHarness(t, Config{Store: db})

	got, err := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: "mbroken"})
	if err != nil || got.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_FAILED ||
		got.GetMatch().GetResult().GetReason() != orreryv1.EndReason_END_REASON_FAILED {
		t.Errorf("GetMatch = %v, %v; want FAILED", got, err)
	}
	for _, tt := range []struct {
		status orreryv1.MatchStatus
		want   int
	}{
		{orreryv1.MatchStatus_MATCH_STATUS_FAILED, 1},
		{orreryv1.MatchStatus_MATCH_STATUS_RUNNING, 0},
		{orreryv1.MatchStatus_MATCH_STATUS_FINISHED, 0},
		{orreryv1.MatchStatus_MATCH_STATUS_UNSPECIFIED, 1},
	} {
		list, err := h.client.ListMatches(ctx, &orreryv1.ListMatchesRequest{Status: tt.status})
		if err != nil || len(list.GetMatches()) != tt.want {
			t.Errorf("ListMatches(%v) = %d matches, %v; want %d", tt.status, len(list.GetMatches()), err, tt.want)
		}
		for _, m := range list.GetMatches() {
			if m.GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_FAILED {
				t.Errorf("ListMatches(%v) shows it %v", tt.status, m.GetStatus())
			}
		}
	}
	if resp, err := watchFirst(t, h, "mbroken"); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("Watch = %v, %v; want FailedPrecondition", resp, err)
	}
	if r, err := h.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: "mbroken"}); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("GetReplay = seed %d, %v; want FailedPrecondition", r.GetSeed(), err)
	}
	stream, err := h.client.Play(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: tokens[1]}}})
	if _, err := stream.Recv(); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("a seat joining a failed match: %v, want FailedPrecondition", err)
	}
	// It stays failed over the next restart: never resumed again.
	un, err := db.Unfinished(ctx)
	if err != nil || len(un) != 0 {
		t.Errorf("Unfinished = %d, %v", len(un), err)
	}
}

// A match stored as running but not held by this server (its resume did not happen) is
// never served: before, Watch sent any spectator the all-seeing view and the seed.
func TestWatch_StoredRunningMatchNotInMemoryIsNeverServed(t *testing.T) {
	ctx := context.Background()
	db := memStore(t)
	h := newHarness(t, Config{Store: db})
	storeMatch(t, db, "morphan", time.Unix(100, 0), nil)
	resp, err := watchFirst(t, h, "morphan")
	if err == nil || resp.GetEnded().GetSeed() != 0 || resp.GetView() != nil {
		t.Errorf("Watch = %v, %v; want an error and no view", resp, err)
	}
	if _, err := h.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: "morphan"}); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("GetReplay: %v", err)
	}
	got, err := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: "morphan"})
	if err != nil || got.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_FAILED {
		t.Errorf("GetMatch = %v, %v; want FAILED, never RUNNING", got, err)
	}
}
