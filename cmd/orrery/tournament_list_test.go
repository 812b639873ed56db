package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// TestTournaments_ListAndFollow: a tournament the server runs is listed by `orrery
// tournaments` and followed again to its end by `orrery tournament --follow ID`, which prints
// the same result as the command that created it.
func TestTournaments_ListAndFollow(t *testing.T) {
	a, err := startArena(arenaConfig{addr: "127.0.0.1:0", dbPath: filepath.Join(t.TempDir(), "o.db"), ladder: &ladderOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.stop()
	addr := a.lis.Addr().String()
	ctx := context.Background()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	var out bytes.Buffer
	if err := runCmd(ctx, "tournaments", &out, []string{"--server", addr}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "no tournaments") {
		t.Errorf("an empty server's list:\n%s", out.String())
	}

	created, err := orreryv1.NewTournamentServiceClient(conn).CreateTournament(ctx,
		&orreryv1.CreateTournamentRequest{Game: "planet", Entrants: []string{"greedy", "random"}, Games: 4, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetTournament().GetTournamentId()
	out.Reset()
	if err := runCmd(ctx, "tournaments", &out, []string{"--server", addr}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tournament", id, "planet", "greedy, random"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the list lacks %q:\n%s", want, out.String())
		}
	}

	// Followed while it runs (or once it has finished: the same result either way).
	out.Reset()
	if err := runCmd(ctx, "tournament", &out, []string{"--follow", id, "--server", addr, "--json", "--no-progress"}); err != nil {
		t.Fatal(err)
	}
	var res tournamentResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if res.TournamentID != id || res.Matches != 4 || len(res.Standings) != 2 || len(res.MatchIDs) != 4 {
		t.Errorf("followed: id %s, %d matches, %d standings, %d match ids; want %s, 4, 2, 4", res.TournamentID, res.Matches, len(res.Standings), len(res.MatchIDs), id)
	}
	out.Reset()
	if err := runCmd(ctx, "tournament", &out, []string{"--follow", id, "--server", addr, "--no-progress"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "greedy") || !strings.Contains(out.String(), id) {
		t.Errorf("the followed tournament's standings:\n%s", out.String())
	}
	out.Reset()
	if err := runCmd(ctx, "tournaments", &out, []string{"--server", addr}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "finished") {
		t.Errorf("the finished tournament's row:\n%s", out.String())
	}

	var usage usageError
	if err := runCmd(ctx, "tournament", &out, []string{"--follow", id, "--game", "planet", "--server", addr}); !errors.As(err, &usage) {
		t.Errorf("--follow with --game: %v, want a usage error", err)
	}
	if err := runCmd(ctx, "tournament", &out, []string{"--follow", "tnosuch", "--server", addr}); err == nil {
		t.Error("--follow of an unknown tournament: no error")
	} else if msg := explain(err, addr).Error(); !strings.Contains(msg, "not found") {
		t.Errorf("--follow of an unknown tournament: %q", msg)
	}
}
