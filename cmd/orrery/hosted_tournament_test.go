package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
)

// hostedEntrants are the two hosted bots of the tournament tests, built from the C kit:
// random (a pick from the host's source at each decision) and greedy. Neither reads the
// clock, so a tournament of theirs plays the same games again from its seed.
type hostedEntrants struct {
	random, greedy string // the modules' files
}

func buildHostedEntrants(t *testing.T) hostedEntrants {
	dir := t.TempDir()
	return hostedEntrants{random: clangWasm(t, dir, "random", "random.c", "orrery.c"),
		greedy: clangWasm(t, dir, "greedy", "icetraders_greedy.c", "greedy.c", "orrery.c")}
}

// enter registers the hosted bots on the server at addr and uploads their modules; it
// returns their keys.
func (h hostedEntrants) enter(t *testing.T, ctx context.Context, addr string) map[string]string {
	t.Helper()
	keys := map[string]string{}
	for name, file := range map[string]string{"wasm-random": h.random, "wasm-greedy": h.greedy} {
		var out bytes.Buffer
		if err := runCmd(ctx, "bot", &out, []string{"register", name, "--server", addr}); err != nil {
			t.Fatal(err)
		}
		_, key, ok := strings.Cut(out.String(), "api key: ")
		if !ok {
			t.Fatalf("register printed:\n%s", out.String())
		}
		keys[name], _, _ = strings.Cut(key, "\n")
		uploadModule(t, ctx, addr, name, keys[name], file)
	}
	return keys
}

func uploadModule(t *testing.T, ctx context.Context, addr, name, key, file string) {
	t.Helper()
	var out bytes.Buffer
	if err := runCmd(ctx, "bot", &out, []string{"upload", name, "--wasm", file, "--game", "icetraders", "--key", key, "--server", addr}); err != nil {
		t.Fatal(err)
	}
}

// hostedTournament is the tournament both tests play: two hosted bots and two built-ins,
// one match at a time, from seed 11.
func hostedTournament(games int32) *orreryv1.CreateTournamentRequest {
	seed := uint64(11)
	return &orreryv1.CreateTournamentRequest{Game: "icetraders", Seats: 4, Games: games, Parallel: 1, Seed: &seed,
		Entrants: []string{"wasm-random", "wasm-greedy", "builtin:random", "builtin:greedy"}}
}

func dialServer(t *testing.T, addr string) *grpc.ClientConn {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// awaitTournament polls tournament id until it has finished. Calls that fail (a server
// being restarted) are tried again.
func awaitTournament(t *testing.T, ctx context.Context, conn *grpc.ClientConn, id string) *orreryv1.Tournament {
	t.Helper()
	tours := orreryv1.NewTournamentServiceClient(conn)
	deadline := time.Now().Add(4 * time.Minute)
	for {
		r, err := tours.GetTournament(ctx, &orreryv1.GetTournamentRequest{TournamentId: id})
		if err == nil && r.GetTournament().GetStatus() == orreryv1.TournamentStatus_TOURNAMENT_STATUS_FINISHED {
			return r.GetTournament()
		}
		if time.Now().After(deadline) {
			t.Fatalf("tournament %s did not finish within 4 minutes: %v %v", id, r.GetTournament(), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// tournamentGames is each match of a finished tournament, in its order: each seat's moves
// in the order it made them (seat, notation and the timeout policy if one chose), and the
// final position. Seats choosing at once (Ice Traders' alignments and opening picks) are
// logged in the order their answers came, which the server's timing decides; each seat's
// own order is the game's.
func tournamentGames(t *testing.T, ctx context.Context, conn *grpc.ClientConn, tour *orreryv1.Tournament) []string {
	t.Helper()
	arena := orreryv1.NewArenaServiceClient(conn)
	var games []string
	for _, id := range tour.GetMatchIds() {
		r, err := arena.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
		if err != nil {
			t.Fatal(err)
		}
		seats := make([]strings.Builder, r.GetMatch().GetSeats())
		for _, s := range r.GetSteps() {
			if s.GetSeat() >= 0 && int(s.GetSeat()) < len(seats) {
				fmt.Fprintf(&seats[s.GetSeat()], "%s:%d ", s.GetNotation(), s.GetTimedOut())
			}
		}
		var b strings.Builder
		for i := range seats {
			fmt.Fprintf(&b, "seat %d: %s\n", i, seats[i].String())
		}
		b.WriteString(r.GetFinalText())
		games = append(games, b.String())
	}
	return games
}

// sameTournament fails unless two runs of a tournament played the same games and ended in
// the same standings.
func sameTournament(t *testing.T, what string, a, b *orreryv1.Tournament, gamesA, gamesB []string) {
	t.Helper()
	if len(gamesA) != len(gamesB) || len(gamesA) != int(a.GetMatchesTotal()) {
		t.Fatalf("%s: %d and %d matches, want %d", what, len(gamesA), len(gamesB), a.GetMatchesTotal())
	}
	for i := range gamesA {
		if gamesA[i] != gamesB[i] {
			t.Errorf("%s: match %d differs:\n%.600s\n%.600s", what, i, gamesA[i], gamesB[i])
		}
	}
	if !slices.EqualFunc(a.GetStandings(), b.GetStandings(), func(x, y *orreryv1.TournamentStanding) bool { return proto.Equal(x, y) }) {
		t.Errorf("%s: standings differ:\n%v\n%v", what, a.GetStandings(), b.GetStandings())
	}
}

// TestHosted_TournamentRerunsExactlyFromItsSeed: a tournament of two hosted bots (which do
// not read the clock) and two built-ins, run on two servers from one seed, plays the same
// games. On the first, a new version of a hosted bot is uploaded once the tournament has
// started: the tournament plays the version it started with, seat after seat.
func TestHosted_TournamentRerunsExactlyFromItsSeed(t *testing.T) {
	mods := buildHostedEntrants(t)
	ctx := context.Background()
	run := func(upload bool) (*orreryv1.Tournament, []string) {
		a, err := startArena(arenaConfig{addr: "127.0.0.1:0", dbPath: filepath.Join(t.TempDir(), "o.db"), ladder: &ladderOptions{}})
		if err != nil {
			t.Fatal(err)
		}
		defer a.stop()
		addr := a.lis.Addr().String()
		keys := mods.enter(t, ctx, addr)
		conn := dialServer(t, addr)
		tours := orreryv1.NewTournamentServiceClient(conn)
		created, err := tours.CreateTournament(ctx, hostedTournament(6))
		if err != nil {
			t.Fatal(err)
		}
		id := created.GetTournament().GetTournamentId()
		if upload {
			// The greedy module, compiled already (wasm-greedy's): the upload is quick,
			// and done before the later matches start (they run one at a time).
			uploadModule(t, ctx, addr, "wasm-random", keys["wasm-random"], mods.greedy)
			r, err := tours.GetTournament(ctx, &orreryv1.GetTournamentRequest{TournamentId: id})
			if err != nil {
				t.Fatal(err)
			}
			if started := len(r.GetTournament().GetMatchIds()); started >= int(r.GetTournament().GetMatchesTotal()) {
				t.Fatalf("all %d matches had started before the upload returned: nothing shows the pin", started)
			}
		}
		tour := awaitTournament(t, ctx, conn, id)
		games := tournamentGames(t, ctx, conn, tour)
		if upload {
			inTour := map[string]bool{}
			for _, m := range tour.GetMatchIds() {
				inTour[m] = true
			}
			bot, err := orreryv1.NewLadderServiceClient(conn).GetBot(ctx, &orreryv1.GetBotRequest{Name: "wasm-random"})
			if err != nil {
				t.Fatal(err)
			}
			if n := len(bot.GetBot().GetModules()); n != 2 {
				t.Errorf("wasm-random has %d versions, want 2", n)
			}
			seats := 0
			for _, s := range bot.GetHostedSeats() {
				if inTour[s.GetMatchId()] {
					seats++
					if s.GetVersion() != 1 {
						t.Errorf("tournament match %s played wasm-random version %d, uploaded after it started; want 1", s.GetMatchId(), s.GetVersion())
					}
				}
			}
			if seats != len(tour.GetMatchIds()) {
				t.Errorf("wasm-random has %d seats recorded in the tournament's %d matches", seats, len(tour.GetMatchIds()))
			}
		}
		return tour, games
	}
	first, firstGames := run(true)
	again, againGames := run(false)
	if first.GetSeed() != 11 || again.GetSeed() != 11 {
		t.Errorf("seeds %d and %d, want 11", first.GetSeed(), again.GetSeed())
	}
	sameTournament(t, "run again from its seed", first, again, firstGames, againGames)
}

// TestHosted_TournamentSurvivesKill9: the tournament of two hosted bots and two built-ins,
// on `orrery serve` in a child process killed -9 while one of its matches is mid-game, then
// started again, finishes with the same games and standings as on a server left alone. The
// hosted bots of the cut match start afresh on the restarted server; they play on as they
// would have, since the host keys their random source by each decision.
func TestHosted_TournamentSurvivesKill9(t *testing.T) {
	mods := buildHostedEntrants(t)
	ctx := context.Background()
	// An IceTraders match of these bots is a few dozen moves, over in milliseconds: enough
	// games that one is almost always caught mid-game by the poll below, after the first has
	// ended (a tournament that finishes first is followed by another, midGame).
	games := int32(12)

	a, err := startArena(arenaConfig{addr: "127.0.0.1:0", dbPath: filepath.Join(t.TempDir(), "alone.db"), ladder: &ladderOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	addr := a.lis.Addr().String()
	mods.enter(t, ctx, addr)
	conn := dialServer(t, addr)
	created, err := orreryv1.NewTournamentServiceClient(conn).CreateTournament(ctx, hostedTournament(games))
	if err != nil {
		t.Fatal(err)
	}
	alone := awaitTournament(t, ctx, conn, created.GetTournament().GetTournamentId())
	aloneGames := tournamentGames(t, ctx, conn, alone)
	a.stop()

	srv := &soakServer{t: t, addr: freeAddr(t), db: filepath.Join(t.TempDir(), "killed.db")}
	srv.start()
	defer srv.kill()
	mods.enter(t, ctx, srv.addr)
	conn = dialServer(t, srv.addr)
	tours := orreryv1.NewTournamentServiceClient(conn)
	// Kill it once a match has ended and the next is a few moves in. The server is stopped
	// (SIGSTOP) while its database is read, so that the match it says is running is still
	// running when the kill comes: the kill cuts it.
	db, err := sql.Open("sqlite", "file:"+srv.db+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	arena := orreryv1.NewArenaServiceClient(conn)
	// midGame finds a match of tournament id running a few moves in, with the server stopped;
	// none if the tournament finished first (its matches are short: a poll can miss them all).
	midGame := func(id string) string {
		for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				var b strings.Builder
				if r, err := tours.GetTournament(ctx, &orreryv1.GetTournamentRequest{TournamentId: id}); err == nil {
					for _, m := range r.GetTournament().GetMatchIds() {
						if got, err := arena.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: m}); err == nil {
							fmt.Fprintf(&b, "match %s: %v ply %d\n", m, got.GetMatch().GetStatus(), got.GetMatch().GetPly())
						}
					}
				}
				_, stacks := srv.goroutines()
				t.Fatalf("no match of the tournament was mid-game within 2 minutes:\n%s\nthe server's goroutines:\n%s", b.String(), stacks)
			}
			r, err := tours.GetTournament(ctx, &orreryv1.GetTournamentRequest{TournamentId: id})
			if err != nil {
				t.Fatal(err)
			}
			tour := r.GetTournament()
			if tour.GetStatus() == orreryv1.TournamentStatus_TOURNAMENT_STATUS_FINISHED {
				return ""
			}
			if tour.GetMatchesEnded() < 1 {
				continue
			}
			// The newest first: with one match at a time, it is the one that may be running.
			for _, m := range slices.Backward(tour.GetMatchIds()) {
				got, err := arena.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: m})
				if err != nil || got.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_RUNNING || got.GetMatch().GetPly() < 3 {
					continue
				}
				if err := srv.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
					t.Fatal(err)
				}
				var running int
				if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM matches m WHERE m.id = ? AND `+store.IsRunning, m).Scan(&running); err != nil {
					t.Fatal(err)
				}
				if running == 1 {
					return m
				}
				srv.cmd.Process.Signal(syscall.SIGCONT) // it ended meanwhile: wait for the next
			}
		}
	}
	// A tournament that finished before the poll caught one of its matches is followed by
	// another of the same games, which the one played alone still stands for.
	var id, cut string
	for attempt := 1; cut == ""; attempt++ {
		if attempt > 3 {
			t.Fatal("three tournaments finished before the kill: none of their matches was seen mid-game")
		}
		created, err = tours.CreateTournament(ctx, hostedTournament(games))
		if err != nil {
			t.Fatal(err)
		}
		id = created.GetTournament().GetTournamentId()
		if cut = midGame(id); cut == "" {
			t.Logf("tournament %s finished before the kill; another of the same games follows", id)
		}
	}
	srv.kill()
	srv.start()
	killed := awaitTournament(t, ctx, conn, id)
	sameTournament(t, "killed -9 and restarted", alone, killed, aloneGames, tournamentGames(t, ctx, conn, killed))
	// The cut match's hosted seats were taken again by fresh instances, and recorded (the
	// instances killed recorded nothing). A bot already out of the game decides nothing.
	// A seat is recorded once its player has stopped, which may come just after the
	// tournament is seen to end (when the cut match was its last): wait for it a while.
	for _, name := range []string{"wasm-random", "wasm-greedy"} {
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
			bot, err := orreryv1.NewLadderServiceClient(conn).GetBot(ctx, &orreryv1.GetBotRequest{Name: name})
			if err != nil {
				t.Fatal(err)
			}
			if slices.ContainsFunc(bot.GetHostedSeats(), func(s *orreryv1.HostedSeat) bool { return s.GetMatchId() == cut }) {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("%s has no seat of the cut match %s recorded: %v", name, cut, bot.GetHostedSeats())
				break
			}
		}
	}
}
