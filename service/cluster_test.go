package service

import (
	"context"
	"errors"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/seedcommit"
	"github.com/orrery/orrery/service/store"
	"github.com/orrery/orrery/service/store/pgtest"
)

// waitFor polls cond until it holds; the bound only stops a broken test, it measures nothing.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
	}
}

// Two nodes share one PostgreSQL store. While the node that created a match lives, the other
// leaves it alone; once it dies (stops renewing), its lease expires and the other node takes
// the match, rebuilds it from its log as a restart does, and the same tokens finish it there.
func TestNode_DeadNodesMatchIsTakenOverFromItsLog(t *testing.T) {
	target := pgtest.Shared(t).NewDB(t)
	open := func() *store.DB {
		db, err := store.Open(target)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	db1, db2 := open(), open()
	const ttl = 3 * time.Second
	h1 := newHarness(t, Config{Store: db1, Node: &Node{ID: "n1", Addr: "n1:7070", LeaseTTL: ttl}})
	ctx := context.Background()
	created := h1.create(&orreryv1.CreateMatchRequest{Seed: seed(13)})
	id := created.GetMatchId()
	_, stream, d := seatToAct(t, h1, ctx, created)
	if resp := answer(t, stream, bots0(d)); resp.GetAccepted() == nil {
		t.Fatal(resp)
	}
	h1.srv.Sync()

	h2 := newHarness(t, Config{Store: db2, Node: &Node{ID: "n2", Addr: "n2:7070", LeaseTTL: ttl}})
	if h2.srv.reg.lookup(id) != nil {
		t.Fatal("n2 took a match whose owner is alive")
	}
	if l, err := db2.Owner(ctx, id); err != nil || l.Node.ID != "n1" || l.Node.Addr != "n1:7070" {
		t.Fatalf("Owner = %+v, %v; want n1", l, err)
	}

	h1.srv.Close() // n1 dies: its leases are no longer renewed
	waitFor(t, "n2 takes over the match", func() bool { return h2.srv.reg.lookup(id) != nil })
	if l, err := db2.Owner(ctx, id); err != nil || l.Node.ID != "n2" {
		t.Errorf("Owner after the takeover = %+v, %v; want n2", l, err)
	}
	got, err := h2.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: id})
	if err != nil || got.GetMatch().GetPly() != 1 || got.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_RUNNING {
		t.Fatalf("on n2: %v, %v; want running at ply 1", got, err)
	}
	ends := h2.playRandom(ctx, created, nil)
	if ends[0].GetSeed() != 13 {
		t.Errorf("the match ended on n2 with seed %d, want 13", ends[0].GetSeed())
	}
	h2.srv.Sync()
	live, err := h2.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := LoadReplay(ctx, db1, id) // what any node reads back
	if err != nil || len(stored.GetEvents()) != len(live.GetEvents()) || stored.GetFinalText() != live.GetFinalText() {
		t.Fatalf("stored replay: %d events, %v; live %d", len(stored.GetEvents()), err, len(live.GetEvents()))
	}
	for i := range live.GetEvents() {
		if !proto.Equal(live.GetEvents()[i], stored.GetEvents()[i]) {
			t.Fatalf("event %d: live %v, stored %v", i, live.GetEvents()[i], stored.GetEvents()[i])
		}
	}
	if err := seedcommit.Verify(stored.GetMatch().GetSeedHash(), stored.GetSeed(), stored.GetSeedSalt()); err != nil {
		t.Errorf("the seed does not verify against its commitment: %v", err)
	}
	if _, err := db2.Owner(ctx, id); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an ended match keeps a lease: %v", err)
	}
}
