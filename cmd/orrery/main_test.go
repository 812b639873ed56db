package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/orrery/orrery/bots/house"
	"github.com/orrery/orrery/engine"
)

func TestMain(m *testing.M) {
	if args := os.Getenv(soakChildEnv); args != "" { // the chaos soak's server (soak_test.go)
		limitFileSize(os.Getenv(fileSizeEnv))
		serveSoakDebug(os.Getenv(soakDebugEnv))
		os.Exit(exitCode(execute(context.Background(), io.Discard, os.Stderr, strings.Split(args, "\x1f"))))
	}
	goleak.VerifyTestMain(m)
}

// runCmd runs `orrery name args...` as main does, with its output in out.
func runCmd(ctx context.Context, name string, out io.Writer, args []string) error {
	return execute(ctx, out, io.Discard, append([]string{name}, args...))
}

func TestPlay_SeededJSONIsIdentical(t *testing.T) {
	run := func() []byte {
		var out bytes.Buffer
		err := runCmd(context.Background(), "play", &out, []string{"--game", "icetraders", "--bots", "random,random,random,random", "--seed", "7", "--json"})
		if err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	// The seed's commitment is salted afresh for every match; everything else is the same.
	saltless := func(out []byte) []byte {
		return regexp.MustCompile(`"seed_hash": "[0-9a-f]+"`).ReplaceAll(out, []byte(`"seed_hash": "…"`))
	}
	a, b := run(), run()
	if !bytes.Equal(saltless(a), saltless(b)) {
		t.Errorf("two seeded runs differ:\n%s\n%s", a, b)
	}
	if bytes.Equal(a, b) {
		t.Error("two matches published the same seed hash: the commitment is not salted")
	}
	var r playResult
	if err := json.Unmarshal(a, &r); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(a, []byte(`"seed": "7"`)) || !bytes.Contains(a, []byte(`"end_reason": "`)) {
		t.Errorf("the seed is not a JSON string, or no end reason:\n%s", a)
	}
	if r.Game != "icetraders" || r.Seed != 7 || len(r.Ranks) != 4 || r.SeedHash == "" || r.Decisions == 0 || (r.EndReason != "normal" && r.EndReason != "cap") {
		t.Errorf("result %+v", r)
	}
}

func TestPlay_IceTradersTwoToSixMixedSeats(t *testing.T) {
	mix := []string{"greedy", "random", "greedy", "random", "random", "greedy"}
	for n := 2; n <= 6; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var out bytes.Buffer
			err := runCmd(context.Background(), "play", &out, []string{"--game", "icetraders", "--bots", strings.Join(mix[:n], ","), "--seed", fmt.Sprint(n)})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "ended: ") {
				t.Errorf("no result in:\n%s", out.String())
			}
		})
	}
}

func TestPlay_EveryGameEndsOverGRPC(t *testing.T) {
	for _, name := range engine.Names() {
		g, _ := engine.Lookup(name)
		seats := make([]string, g.Info().MinSeats)
		for i := range seats {
			seats[i] = "random"
		}
		var out bytes.Buffer
		if err := runCmd(context.Background(), "play", &out, []string{"--game", name, "--bots", strings.Join(seats, ","), "--seed", "3", "--json"}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestPlay_BadFlagsSayWhatIsWrong(t *testing.T) {
	for _, args := range [][]string{
		{"--bots", "random"},
		{"--game", "icetraders"},
		{"--game", "nope", "--bots", "random,random"},
		{"--game", "icetraders", "--bots", "random,nobot"},
	} {
		if err := runCmd(context.Background(), "play", &bytes.Buffer{}, args); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

func TestGames_ListsEveryGame(t *testing.T) {
	var out bytes.Buffer
	if err := runCmd(context.Background(), "games", &out, nil); err != nil {
		t.Fatal(err)
	}
	for _, name := range engine.Names() {
		if !strings.Contains(out.String(), name+" (") {
			t.Errorf("%s missing from:\n%s", name, out.String())
		}
	}
	out.Reset()
	if err := runCmd(context.Background(), "games", &out, []string{"--json"}); err != nil || !strings.Contains(out.String(), `"catalog"`) {
		t.Errorf("--json: %v\n%.300s", err, out.String())
	}
}

func TestGames_LinesFitTheWidthAndNameTheRules(t *testing.T) {
	for _, width := range []int{50, 80, 132} {
		var out bytes.Buffer
		printGames(&out, width)
		for _, line := range strings.Split(out.String(), "\n") {
			if n := len([]rune(line)); n > width && strings.Contains(strings.TrimSpace(line), " ") {
				t.Errorf("width %d: a line of %d columns: %q", width, n, line)
			}
		}
		for _, want := range []string{"docs/rules/icetraders.md", "docs/rules/full-contact-catan.md", "docs/rules/pantropia.md", "docs/rules/planet.md"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("width %d: no %s in:\n%s", width, want, out.String())
			}
		}
		if strings.Contains(out.String(), "[") {
			t.Errorf("Go formatting in:\n%s", out.String())
		}
	}
}

func TestReplay_PrintsAndVerifiesAStoredMatch(t *testing.T) {
	db := filepath.Join(t.TempDir(), "orrery.db")
	a, err := startArena(arenaConfig{addr: "127.0.0.1:0", dbPath: db})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := a.dial()
	if err != nil {
		t.Fatal(err)
	}
	seed := uint64(5)
	out, err := house.Play(context.Background(), conn, house.Match{Game: "icetraders", Bots: []string{"random", "greedy", "random"}, Seed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	a.stop()
	var buf bytes.Buffer
	if err := runCmd(context.Background(), "replay", &buf, []string{out.MatchID, "--db", db}); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	for _, want := range []string{"seed 5", "seat 1: greedy", "verified", "default options", "seat 0 rank "} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("replay output lacks %q:\n%s", want, buf.String())
		}
	}
	if strings.Contains(buf.String(), "map[") || strings.Contains(buf.String(), "ranks [") {
		t.Errorf("Go formatting in the replay:\n%s", buf.String())
	}
	if err := runCmd(context.Background(), "replay", &buf, []string{"nope", "--db", db}); err == nil {
		t.Errorf("unknown match: no error")
	}
}
