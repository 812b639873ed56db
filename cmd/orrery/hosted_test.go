package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/durationpb"

	botladder "github.com/orrery/orrery/bots/ladder"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// clangWasm builds a C bot with the C kit's helpers into dir. Without clang the test is
// skipped on a developer's machine and fails under CI, which installs it (.ci/run).
func clangWasm(t *testing.T, dir, name string, srcs ...string) string {
	t.Helper()
	if _, err := exec.LookPath("clang"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("clang is not installed, and CI must build the C kit: .ci/run installs clang lld wasi-libc libclang-rt-14-dev-wasm32")
		}
		t.Skip("clang is not installed: apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32")
	}
	kit, err := filepath.Abs("../../bots/wasm/c")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, name+".wasm")
	args := []string{"--target=wasm32-wasi", "-O2", "-I", kit, "-o", out}
	for _, s := range srcs {
		if !filepath.IsAbs(s) {
			s = filepath.Join(kit, s)
		}
		args = append(args, s)
	}
	if b, err := exec.Command("clang", args...).CombinedOutput(); err != nil {
		t.Fatalf("clang: %v\n%s", err, b)
	}
	return out
}

// TestHosted_UploadPlaysOnTheLadder: a module built from the C kit, uploaded with `orrery bot
// upload`, is played by the server itself on the ladder, and `orrery bot info` shows its
// version and seats; a module that prints garbage gets BAD_ANSWER, recorded with the match,
// and its stderr goes to its own key only; orrery bot report gives each hosted seat's verdict.
func TestHosted_UploadPlaysOnTheLadder(t *testing.T) {
	dir := t.TempDir()
	random := clangWasm(t, dir, "random", "random.c", "orrery.c")
	badSrc := filepath.Join(dir, "bad.c")
	if err := os.WriteFile(badSrc, []byte("#include <stdio.h>\nint main(void) {\n\tchar line[1 << 16];\n\twhile (fgets(line, sizeof line, stdin)) {\n\t\tfprintf(stderr, \"bad: thinking hard\\n\");\n\t\tputs(\"hello, host\");\n\t\tfflush(stdout);\n\t}\n\treturn 0;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := clangWasm(t, dir, "bad", badSrc)

	a, err := startArena(arenaConfig{addr: "127.0.0.1:0", dbPath: filepath.Join(dir, "o.db"),
		// Short moves: a seat that broke a limit plays on by the timeout policy, and its
		// match (which records the seat when it ends) must not take minutes to finish.
		ladder: &ladderOptions{houseMatches: 3, fillAfter: time.Millisecond,
			clock: &orreryv1.Clock{PerMove: durationpb.New(300 * time.Millisecond), TimeBank: durationpb.New(time.Second)}}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.stop()
	addr := a.lis.Addr().String()
	ctx := context.Background()
	register := func(name string) string {
		var out bytes.Buffer
		if err := runCmd(ctx, "bot", &out, []string{"register", name, "--server", addr}); err != nil {
			t.Fatal(err)
		}
		_, key, ok := strings.Cut(out.String(), "api key: ")
		if !ok {
			t.Fatalf("register printed:\n%s", out.String())
		}
		key, _, _ = strings.Cut(key, "\n")
		return key
	}
	games := "icetraders,planet,pantropia,fccatan"
	keys := map[string]string{}
	for name, file := range map[string]string{"wasm-random": random, "wasm-bad": bad} {
		keys[name] = register(name)
		var out bytes.Buffer
		if err := runCmd(ctx, "bot", &out, []string{"upload", name, "--wasm", file, "--game", games, "--key", keys[name], "--server", addr}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), name+" version 1:") {
			t.Errorf("upload printed %q", out.String())
		}
	}
	// Garbage is refused, with why; another bot's key may not upload.
	junk := filepath.Join(dir, "junk.wasm")
	os.WriteFile(junk, []byte("not a module"), 0o644)
	var out bytes.Buffer
	if err := runCmd(ctx, "bot", &out, []string{"upload", "wasm-random", "--wasm", junk, "--game", "icetraders", "--key", keys["wasm-random"], "--server", addr}); err == nil || !strings.Contains(err.Error(), "invalid module") {
		t.Errorf("uploading garbage: %v", err)
	}
	if err := runCmd(ctx, "bot", &out, []string{"upload", "wasm-random", "--wasm", random, "--game", "icetraders", "--key", keys["wasm-bad"], "--server", addr}); err == nil {
		t.Error("a bot's key uploaded another bot's module")
	}

	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := orreryv1.NewLadderServiceClient(conn)
	played := func(name string, key string) *orreryv1.GetBotResponse {
		c := ctx
		if key != "" {
			c = botladder.Key(ctx, key)
		}
		r, err := client.GetBot(c, &orreryv1.GetBotRequest{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	deadline := time.Now().Add(5 * time.Minute)
	for len(played("wasm-random", "").GetHostedSeats()) == 0 || played("wasm-bad", "").GetVerdicts()["BAD_ANSWER"] == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the hosted bots were not seated within 5 minutes (a loaded machine plays slowly): %v / %v", played("wasm-random", ""), played("wasm-bad", ""))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if s := played("wasm-random", "").GetHostedSeats()[0]; s.GetVerdict() != "" || s.GetDecisions() == 0 || s.GetVersion() != 1 {
		t.Errorf("wasm-random's seat: %v", s)
	}
	mine, theirs := played("wasm-bad", keys["wasm-bad"]), played("wasm-bad", keys["wasm-random"])
	if !strings.Contains(mine.GetStderr(), "bad: thinking hard") || !strings.Contains(mine.GetStderr(), `orrery: BAD_ANSWER`) {
		t.Errorf("the owner's stderr: %q", mine.GetStderr())
	}
	if theirs.GetStderr() != "" || played("wasm-bad", "").GetStderr() != "" {
		t.Errorf("another key, or none, read the stderr: %q", theirs.GetStderr())
	}
	out.Reset()
	if err := runCmd(ctx, "bot", &out, []string{"info", "wasm-bad", "--key", keys["wasm-bad"], "--server", addr}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"hosted version", "BAD_ANSWER", "bad: thinking hard"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("bot info lacks %q:\n%s", want, out.String())
		}
	}

	// A server tournament seats hosted bots beside built-in ones, and finishes.
	tours := orreryv1.NewTournamentServiceClient(conn)
	seed := uint64(9)
	created, err := tours.CreateTournament(ctx, &orreryv1.CreateTournamentRequest{Game: "icetraders", Seats: 4, Games: 4, Seed: &seed,
		Entrants: []string{"wasm-random", "wasm-bad", "builtin:random", "builtin:greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetTournament().GetTournamentId()
	var tour *orreryv1.Tournament
	for deadline := time.Now().Add(2 * time.Minute); tour.GetStatus() != orreryv1.TournamentStatus_TOURNAMENT_STATUS_FINISHED; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the tournament did not finish within 2 minutes: %v", tour)
		}
		r, err := tours.GetTournament(ctx, &orreryv1.GetTournamentRequest{TournamentId: id})
		if err != nil {
			t.Fatal(err)
		}
		tour = r.GetTournament()
	}
	if len(tour.GetStandings()) != 4 {
		t.Errorf("standings %v, want the four entrants", tour.GetStandings())
	}
	for _, st := range tour.GetStandings() {
		if st.GetMatches() != 4 {
			t.Errorf("%s played %d matches, want 4", st.GetEntrant(), st.GetMatches())
		}
	}
	// Each hosted entrant's seats in the tournament's matches are recorded.
	inTour := map[string]bool{}
	for _, m := range tour.GetMatchIds() {
		inTour[m] = true
	}
	for _, name := range []string{"wasm-random", "wasm-bad"} {
		n := 0
		for _, s := range played(name, "").GetHostedSeats() {
			if inTour[s.GetMatchId()] {
				n++
			}
		}
		if n != 4 {
			t.Errorf("%s: %d hosted seats recorded in the tournament's 4 matches", name, n)
		}
	}

	// orrery bot report gives each hosted seat's verdict, from the server's record of the seat.
	for _, tc := range []struct{ bot, verdict string }{{"wasm-bad", "BAD_ANSWER"}, {"wasm-random", ""}} {
		var seat *orreryv1.HostedSeat
		for _, s := range played(tc.bot, "").GetHostedSeats() {
			if _, err := orreryv1.NewArenaServiceClient(conn).GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: s.GetMatchId()}); err == nil &&
				s.GetVerdict() == tc.verdict {
				seat = s
				break
			}
		}
		if seat == nil {
			t.Fatalf("%s has no finished seat with verdict %q", tc.bot, tc.verdict)
		}
		out.Reset()
		if err := runCmd(ctx, "bot", &out, []string{"report", seat.GetMatchId(), "--seat", fmt.Sprint(seat.GetSeat()), "--server", addr, "--json"}); err != nil {
			t.Fatal(err)
		}
		var rep seatReport
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		if rep.Name != tc.bot || rep.Hosted == nil || rep.Hosted.Verdict != tc.verdict || rep.Hosted.Version != 1 || rep.Hosted.Decisions != int(seat.GetDecisions()) {
			t.Errorf("the report of %s's seat %d in %s: %s; the server recorded %v", tc.bot, seat.GetSeat(), seat.GetMatchId(), out.String(), seat)
		}
		out.Reset()
		if err := runCmd(ctx, "bot", &out, []string{"report", seat.GetMatchId(), "--seat", fmt.Sprint(seat.GetSeat()), "--server", addr}); err != nil {
			t.Fatal(err)
		}
		want := "hosted module version 1: no verdict"
		if tc.verdict != "" {
			want = "hosted module version 1: verdict " + tc.verdict
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}

}
