package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// TestForeignCreate_CreatorTokenAborts creates a match as a person does, with the Python
// and JavaScript clients' create, keeps the creator line it prints and nothing else, and
// aborts the match with `orrery matches --abort --tokens` on that line alone.
func TestForeignCreate_CreatorTokenAborts(t *testing.T) {
	root, node := foreignEnv(t)
	addr, client, _ := testArena(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	for _, lang := range []string{"python", "js"} {
		t.Run(lang, func(t *testing.T) {
			var cmd *exec.Cmd
			if lang == "python" {
				cmd = exec.CommandContext(ctx, foreignPython, "-m", "orrery_bot", "create", "--game", "planet", "--seats", "2", "--server", addr)
				cmd.Dir = filepath.Join(root, "bots", "python")
				cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
			} else {
				cmd = exec.CommandContext(ctx, node, "bot.js", "create", "--game", "planet", "--seats", "2", "--server", addr)
				cmd.Dir = filepath.Join(root, "bots", "js")
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("create: %v\n%s", err, stderr.String())
			}
			var match, creator string
			seats := 0
			for line := range strings.Lines(string(out)) {
				f := strings.Fields(line)
				switch {
				case len(f) == 2 && f[0] == "match":
					match = f[1]
				case len(f) == 3 && f[0] == "seat":
					seats++
				case len(f) == 2 && f[0] == "creator":
					creator = line
				default:
					t.Errorf("create printed a line of no known form: %q", line)
				}
			}
			if match == "" || seats != 2 || creator == "" {
				t.Fatalf("create printed match %q, %d seat lines, creator line %q; want a match, 2 seats and a creator line:\n%s", match, seats, creator, out)
			}
			file := filepath.Join(t.TempDir(), "creator.txt")
			if err := os.WriteFile(file, []byte(creator), 0o600); err != nil {
				t.Fatal(err)
			}
			var printed bytes.Buffer
			if err := runCmd(ctx, "matches", &printed, []string{"--abort", match, "--tokens", file, "--server", addr}); err != nil {
				t.Fatalf("abort with the creator line alone: %v", err)
			}
			got, err := client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: match})
			if err != nil {
				t.Fatal(err)
			}
			if r := got.GetMatch().GetResult(); r.GetReason() != orreryv1.EndReason_END_REASON_ABORTED || r.GetDetail() != "aborted by its creator" {
				t.Errorf("after the creator's abort the match ended %v, %q; want aborted, \"aborted by its creator\" (abort printed %q)", r.GetReason(), r.GetDetail(), printed.String())
			}
		})
	}
}
