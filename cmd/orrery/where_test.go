package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var playedID = regexp.MustCompile(`match: (m[0-9a-z]+)`)

// TestPlay_SaysWhereTheMatchLives: `orrery play` names where its match can be read again, and
// the command it names finds it; a match played in memory is said to be gone.
func TestPlay_SaysWhereTheMatchLives(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "played.db")
	addr, _, _ := testArena(t)
	for _, c := range []struct {
		args, want []string
		replay     func(id string) []string
	}{
		{nil, []string{"played in memory and is gone", "--db FILE stores it"}, nil},
		{[]string{"--db", db}, []string{"stored in " + db, "orrery replay "}, func(id string) []string { return []string{id, "--db", db} }},
		{[]string{"--server", addr}, []string{"on " + addr, "orrery replay "}, func(id string) []string { return []string{id, "--server", addr} }},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var out bytes.Buffer
			if err := runCmd(ctx, "play", &out, append([]string{"--game", "planet", "--bots", "greedy,random"}, c.args...)); err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("no %q in:\n%s", w, out.String())
				}
			}
			m := playedID.FindStringSubmatch(out.String())
			if m == nil {
				t.Fatalf("no match id in:\n%s", out.String())
			}
			if c.replay == nil {
				return
			}
			if !strings.Contains(out.String(), "orrery replay "+strings.Join(c.replay(m[1]), " ")) {
				t.Errorf("the replay command is not the one that finds it:\n%s", out.String())
			}
			var rep bytes.Buffer
			if err := runCmd(ctx, "replay", &rep, c.replay(m[1])); err != nil {
				t.Fatalf("orrery replay %v: %v", c.replay(m[1]), err)
			}
			if !strings.Contains(rep.String(), "verified:") {
				t.Errorf("replay:\n%s", rep.String())
			}
		})
	}
	var out bytes.Buffer
	if err := runCmd(ctx, "play", &out, []string{"--game", "planet", "--bots", "greedy,random", "--db", db, "--server", addr}); err == nil {
		t.Error("--db with --server: no error")
	}
}

// TestReplay_SaysWhereItLooked: a replay read from a file names the file, not a server, and a
// missing file is not created.
func TestReplay_SaysWhereItLooked(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.db")
	err := runCmd(ctx, "replay", &bytes.Buffer{}, []string{"mnosuch", "--db", missing})
	if err == nil || !strings.Contains(err.Error(), "no database "+missing) || !strings.Contains(err.Error(), "--server ADDR") {
		t.Errorf("a missing file: %v", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("replay created %s", missing)
	}
	db := filepath.Join(dir, "played.db")
	if err := runCmd(ctx, "play", &bytes.Buffer{}, []string{"--game", "planet", "--bots", "random,random", "--db", db}); err != nil {
		t.Fatal(err)
	}
	err = runCmd(ctx, "replay", &bytes.Buffer{}, []string{"mnosuch", "--db", db})
	if err == nil {
		t.Fatal("an unknown match: no error")
	}
	msg := explain(err, "").Error()
	for _, want := range []string{"no match mnosuch in the database " + db, "--server ADDR"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "on the server") {
		t.Errorf("%q speaks of a server after reading a file", msg)
	}
}
