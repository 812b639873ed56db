package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestHosted_ModulesAreVersionedAndContentAddressed(t *testing.T) {
	db, err := Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	put := func(bot, digest string, wasm []byte) int {
		v, err := db.PutModule(ctx, &Module{Bot: bot, Digest: digest, Size: int64(len(wasm)), Games: []string{"icetraders"}, Uploaded: time.Unix(100, 0), Wasm: wasm})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := put("alpha", "d1", []byte("one")); v != 1 {
		t.Errorf("first upload is version %d", v)
	}
	if v := put("alpha", "d2", []byte("two")); v != 2 {
		t.Errorf("second upload is version %d", v)
	}
	if v := put("beta", "d1", []byte("one")); v != 1 {
		t.Errorf("another bot's first upload is version %d", v)
	}
	var blobs int
	if err := db.SQL().QueryRow(`SELECT COUNT(*) FROM module_blobs`).Scan(&blobs); err != nil || blobs != 2 {
		t.Errorf("%d blobs stored (%v), want 2: one per content", blobs, err)
	}
	newest, err := db.ModuleVersion(ctx, "alpha", 0)
	if err != nil || newest.Version != 2 || string(newest.Wasm) != "two" || newest.Games[0] != "icetraders" {
		t.Errorf("newest: %+v, %v", newest, err)
	}
	first, err := db.ModuleVersion(ctx, "alpha", 1)
	if err != nil || string(first.Wasm) != "one" {
		t.Errorf("pinned version 1: %+v, %v", first, err)
	}
	if _, err := db.ModuleVersion(ctx, "gamma", 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("a bot with no module: %v", err)
	}
	if list, err := db.Modules(ctx, "alpha"); err != nil || len(list) != 2 || list[0].Version != 2 || list[0].Wasm != nil {
		t.Errorf("Modules: %+v, %v", list, err)
	}
	if hb, err := db.HostedBots(ctx); err != nil || len(hb) != 2 || hb[0].Bot != "alpha" || hb[0].Version != 2 {
		t.Errorf("HostedBots: %+v, %v", hb, err)
	}
	for i, verdict := range []string{"", "TIME_LIMIT", "TIME_LIMIT"} {
		s := &HostedSeat{MatchID: "m", Seat: i, Bot: "alpha", Version: 2, Verdict: verdict, Stderr: "line", Decisions: 3, CPU: time.Millisecond, Ended: time.Unix(int64(200+i), 0)}
		if err := db.RecordHostedSeat(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.RecordHostedSeat(ctx, &HostedSeat{MatchID: "m", Seat: 2, Bot: "alpha", Version: 2, Verdict: "BAD_ANSWER", Ended: time.Unix(300, 0)}); err != nil {
		t.Fatal(err)
	}
	counts, err := db.HostedVerdicts(ctx, "alpha")
	if err != nil || counts["TIME_LIMIT"] != 1 || counts["BAD_ANSWER"] != 1 || len(counts) != 2 {
		t.Errorf("verdict counts %v, %v; want one of each (seat 2 recorded again)", counts, err)
	}
	seats, err := db.HostedSeats(ctx, "alpha", 2)
	if err != nil || len(seats) != 2 || seats[0].Seat != 2 || seats[1].CPU != time.Millisecond {
		t.Errorf("HostedSeats: %+v, %v", seats, err)
	}
}
