package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protojson"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// TestMatches_Abort: `orrery matches --abort ID` ends a running match as aborted, with the
// server's admin key or, for its creator, the seat tokens file that create printed or its
// creator token; without either it is a usage error.
func TestMatches_Abort(t *testing.T) {
	ctx := context.Background()
	a, err := startArena(arenaConfig{addr: "127.0.0.1:0", dbPath: filepath.Join(t.TempDir(), "o.db"), adminKey: "sesame-admin-key"})
	if err != nil {
		t.Fatal(err)
	}
	defer a.stop()
	addr := a.lis.Addr().String()
	conn, err := a.dial()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := orreryv1.NewArenaServiceClient(conn)
	admin := metadata.AppendToOutgoingContext(ctx, "authorization", "bearer sesame-admin-key")
	create := func() *orreryv1.CreateMatchResponse {
		c, err := client.CreateMatch(admin, &orreryv1.CreateMatchRequest{Game: "planet", Seats: 2})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	t.Setenv("ORRERY_ADMIN_KEY", "")

	first := create()
	var out bytes.Buffer
	err = runCmd(ctx, "matches", &out, []string{"--abort", first.GetMatchId(), "--server", addr})
	if !isUsageError(err) {
		t.Errorf("no key, no tokens: %v, want a usage error", err)
	}
	if err := runCmd(ctx, "matches", &out, []string{"--abort", first.GetMatchId(), "--reason", "stuck", "--key", "sesame-admin-key", "--server", addr}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "aborted (aborted by the server's admin: stuck)") {
		t.Errorf("the admin's abort printed:\n%s", out.String())
	}

	second := create()
	file := filepath.Join(t.TempDir(), "match.txt")
	var b strings.Builder
	fmt.Fprintf(&b, "match %s\n", second.GetMatchId())
	for _, s := range second.GetSeats() {
		fmt.Fprintf(&b, "seat %d %s\n", s.GetSeat(), s.GetToken())
	}
	os.WriteFile(file, []byte(b.String()), 0o600)
	out.Reset()
	if err := runCmd(ctx, "matches", &out, []string{"--abort", second.GetMatchId(), "--tokens", file, "--json", "--server", addr}); err != nil {
		t.Fatal(err)
	}
	// Parsed, not matched as text: protojson varies its spacing on purpose.
	var printed orreryv1.GetMatchResponse
	if err := protojson.Unmarshal(out.Bytes(), &printed); err != nil {
		t.Fatalf("the creator's abort (--json) is not a match: %v\n%s", err, out.String())
	}
	if m := printed.GetMatch(); m.GetMatchId() != second.GetMatchId() || m.GetResult().GetReason() != orreryv1.EndReason_END_REASON_ABORTED ||
		m.GetResult().GetDetail() != "aborted by its creator" {
		t.Errorf("the creator's abort (--json) printed match %q, reason %v, detail %q; want %s, aborted, \"aborted by its creator\"",
			m.GetMatchId(), m.GetResult().GetReason(), m.GetResult().GetDetail(), second.GetMatchId())
	}
	got, err := client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: second.GetMatchId()})
	if err != nil || got.GetMatch().GetResult().GetReason() != orreryv1.EndReason_END_REASON_ABORTED {
		t.Errorf("GetMatch after the abort: %v %v", got.GetMatch().GetResult(), err)
	}

	// The creator token alone is proof enough: a match with built-in bots has seats whose
	// tokens its creator never held.
	third := create()
	os.WriteFile(file, []byte(fmt.Sprintf("match %s\ncreator %s\n", third.GetMatchId(), third.GetCreatorToken())), 0o600)
	out.Reset()
	if err := runCmd(ctx, "matches", &out, []string{"--abort", third.GetMatchId(), "--tokens", file, "--server", addr}); err != nil {
		t.Fatal(err)
	}
	if got, err := client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: third.GetMatchId()}); err != nil ||
		got.GetMatch().GetResult().GetDetail() != "aborted by its creator" {
		t.Errorf("GetMatch after the creator token's abort: %v %v", got.GetMatch().GetResult(), err)
	}
}
