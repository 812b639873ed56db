package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// protoName is a .proto field name: lower snake_case.
var protoName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// jsonKeys collects every object key of a JSON document but those of maps keyed by data
// (options, end_reasons), whose keys are names a user chose.
func jsonKeys(v any, path string, keys map[string]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			keys[k] = path
			if k == "options" || k == "end_reasons" {
				continue
			}
			jsonKeys(e, path+"."+k, keys)
		}
	case []any:
		for _, e := range v {
			jsonKeys(e, path+"[]", keys)
		}
	}
}

// TestJSON_UsesProtoFieldNames runs every command with --json against one server and checks
// that each key is a .proto field name (snake_case, as UseProtoNames prints them and the HTTP
// API sends them), never protojson's default camelCase.
func TestJSON_UsesProtoFieldNames(t *testing.T) {
	// House matches, so that the leaderboard has rows to print.
	a, err := startArena(arenaConfig{addr: "127.0.0.1:0", dbPath: filepath.Join(t.TempDir(), "o.db"),
		ladder: &ladderOptions{houseMatches: 2, fillAfter: time.Millisecond}})
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
	if _, err := orreryv1.NewLadderServiceClient(conn).RegisterBot(ctx, &orreryv1.RegisterBotRequest{Name: "ada"}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := runCmd(ctx, "play", &out, []string{"--server", addr, "--game", "planet", "--bots", "greedy,random", "--seed", "3"}); err != nil {
		t.Fatal(err)
	}
	tours := orreryv1.NewTournamentServiceClient(conn)
	created, err := tours.CreateTournament(ctx, &orreryv1.CreateTournamentRequest{Game: "planet", Entrants: []string{"greedy", "random"}, Games: 2})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetTournament().GetTournamentId()
	lad := orreryv1.NewLadderServiceClient(conn)
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		board, err := lad.GetLeaderboard(ctx, &orreryv1.GetLeaderboardRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if len(board.GetEntries()) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no house match was rated within 2 minutes")
		}
	}
	for _, args := range [][]string{
		{"games"},
		{"play", "--game", "planet", "--bots", "greedy,random", "--seed", "3"},
		{"matches"},
		{"standings"},
		{"bot", "list"},
		{"bot", "info", "ada"},
		{"tournaments"},
		{"tournament", "--follow", id, "--no-progress"},
		{"tournament", "--game", "planet", "--bots", "greedy,random", "--games", "2", "--no-progress", "--db", ""},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out bytes.Buffer
			rest := append(args[1:], "--json")
			if args[0] != "games" && !(args[0] == "tournament" && args[1] == "--game") {
				rest = append(rest, "--server", addr)
			}
			if err := runCmd(ctx, args[0], &out, rest); err != nil {
				t.Fatal(err)
			}
			var doc any
			if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out.String())
			}
			keys := map[string]string{}
			jsonKeys(doc, "", keys)
			if len(keys) == 0 {
				t.Fatalf("no keys in:\n%s", out.String())
			}
			for k, at := range keys {
				if !protoName.MatchString(k) {
					t.Errorf("key %q (at %q) is not a .proto field name", k, at)
				}
			}
		})
	}
}
