package tournament

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/limits"
	"github.com/orrery/orrery/service/seedcommit"
	"github.com/orrery/orrery/service/store"
)

func slowClock() *orreryv1.Clock { return &orreryv1.Clock{PerMove: durationpb.New(time.Minute)} }

func standing(t *orreryv1.Tournament, name string) *orreryv1.TournamentStanding {
	for _, s := range t.GetStandings() {
		if s.GetEntrant() == name {
			return s
		}
	}
	return nil
}

// TestTournament_RegisteredAndBuiltinEntrants runs a round robin between a registered bot on
// its ladder stream and two built-in bots: every match ends, with the entrants' names on its
// seats, and everyone is in the standings.
func TestTournament_RegisteredAndBuiltinEntrants(t *testing.T) {
	e := newEnv(t, nil, "")
	alice := e.connect(e.register("alice"), nil)
	tour := e.create(context.Background(), &orreryv1.CreateTournamentRequest{
		Game: testGame, Seats: 2, Entrants: []string{"alice", "random", "random"}, Games: 6, Parallel: 3, Clock: slowClock(),
	})
	if got := tour.GetEntrants(); !slices.Equal(got, []string{"alice", "random#1", "random#2"}) {
		t.Errorf("entrants %v", got)
	}
	got := e.waitFinished(tour.GetTournamentId())
	if got.GetMatchesEnded() != 6 || got.GetMatchesTotal() != 6 || len(got.GetMatches()) != 6 {
		t.Fatalf("%d of %d matches ended, %d listed", got.GetMatchesEnded(), got.GetMatchesTotal(), len(got.GetMatches()))
	}
	for _, m := range got.GetMatches() {
		sum, err := e.client.GetMatch(context.Background(), &orreryv1.GetMatchRequest{MatchId: m.GetMatchId()})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range sum.GetMatch().GetSeatInfo() {
			names = append(names, s.GetName())
		}
		if !m.GetEnded() || !slices.Equal(names, m.GetEntrants()) || sum.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_FINISHED {
			t.Errorf("match %s: ended %v, seats %v, entrants %v, status %v", m.GetMatchId(), m.GetEnded(), names, m.GetEntrants(), sum.GetMatch().GetStatus())
		}
	}
	for _, name := range got.GetEntrants() {
		if s := standing(got, name); s == nil || s.GetMatches() != 4 {
			t.Errorf("standing of %s: %v (want 4 matches)", name, s)
		}
	}
	alice.until("alice saw every match of hers end", func() bool { return len(alice.ended) == 4 })
	if got.GetSeed() == 0 {
		t.Error("a finished tournament shows its seed")
	}
	list, err := e.tours.ListTournaments(context.Background(), &orreryv1.ListTournamentsRequest{})
	if err != nil || len(list.GetTournaments()) != 1 || list.GetTournaments()[0].GetTournamentId() != tour.GetTournamentId() {
		t.Errorf("ListTournaments: %v, %v", list, err)
	}
}

// TestTournament_SurvivesRestart stops the server in the middle of a tournament, with a
// match running, and starts it again on the same database: the tournament carries on from
// where it stopped, the running match is resumed (not replayed from scratch under a new id)
// and the rest is played.
func TestTournament_SurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "orrery.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, db, "")
	key := e.register("alice")
	// Alice plays her first two matches and sits on her third.
	alice := e.connect(key, func(_ string, nth int) bool { return nth >= 2 })
	tour := e.create(context.Background(), &orreryv1.CreateTournamentRequest{
		Game: testGame, Seats: 2, Entrants: []string{"alice", "random"}, Games: 4, Parallel: 1, Clock: slowClock(),
	})
	alice.until("alice holds a decision of her third match", func() bool { return len(alice.held) == 1 })
	before := e.get(tour.GetTournamentId())
	if before.GetMatchesEnded() != 2 || before.GetMatches()[2].GetMatchId() == "" || before.GetMatches()[2].GetEnded() {
		t.Fatalf("before the restart: %d ended, third match %v", before.GetMatchesEnded(), before.GetMatches()[2])
	}
	alice.close()
	e.stop()
	db.Close()

	db2, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	e2 := newEnv(t, db2, "")
	e2.connect(key, nil)
	after := e2.waitFinished(tour.GetTournamentId())
	if after.GetMatchesEnded() != 4 {
		t.Fatalf("after the restart %d of 4 matches ended", after.GetMatchesEnded())
	}
	for i := range 3 {
		if got, want := after.GetMatches()[i].GetMatchId(), before.GetMatches()[i].GetMatchId(); got != want {
			t.Errorf("match %d is %s after the restart, %s before", i, got, want)
		}
	}
	if s := standing(after, "alice"); s.GetMatches() != 4 {
		t.Errorf("alice's standing: %v", s)
	}
}

// TestDuplicateSet_SeedWithheldUntilSetEnds plays a duplicate set of two matches on one
// seed, one fast and one slow: until the slow one ends, no RPC shows the seed to anyone
// (its seats included), and the fast one's MatchEnded carries the hash only. Once the set
// has ended, GetReplay reveals the seed, which matches the published hash.
func TestDuplicateSet_SeedWithheldUntilSetEnds(t *testing.T) {
	e := newEnv(t, nil, "")
	key := e.register("alice")
	var slow string
	alice := e.connect(key, func(match string, nth int) bool {
		if nth == 1 && slow == "" {
			slow = match
		}
		return match == slow
	})
	tour := e.create(context.Background(), &orreryv1.CreateTournamentRequest{
		Game: testGame, Seats: 2, Entrants: []string{"alice", "random"}, Games: 2, Duplicate: true, Parallel: 2, Clock: slowClock(),
	})
	alice.until("the fast match has ended and the slow one waits", func() bool { return len(alice.ended) == 1 && len(alice.held) == 1 })
	got := e.get(tour.GetTournamentId())
	var fast string
	for _, m := range got.GetMatches() {
		if m.GetMatchId() != slow {
			fast = m.GetMatchId()
		}
	}
	alice.mu.Lock()
	fastEnd := alice.ended[fast]
	alice.mu.Unlock()
	if fastEnd == nil || !fastEnd.GetSeedWithheld() || fastEnd.GetSeed() != 0 || fastEnd.GetSeedHash() == "" {
		t.Fatalf("the fast match's end: %v", fastEnd)
	}

	// Everything a seat (or anyone) can ask while the set runs, kept to search for the seed.
	ctx := context.Background()
	var seen []proto.Message
	for _, id := range []string{fast, slow} {
		if _, err := e.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id}); status.Code(err) != codes.FailedPrecondition {
			t.Errorf("GetReplay %s while the set runs: %v", id, err)
		}
		m, err := e.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: id})
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, m)
	}
	w, err := e.client.Watch(ctx, &orreryv1.WatchRequest{MatchId: fast})
	if err != nil {
		t.Fatal(err)
	}
	for {
		msg, err := w.Recv()
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, msg)
		if end := msg.GetEnded(); end != nil {
			if !end.GetSeedWithheld() || end.GetSeed() != 0 {
				t.Errorf("Watch's end of the fast match: %v", end)
			}
			break
		}
	}
	list, err := e.client.ListMatches(ctx, &orreryv1.ListMatchesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	lt, err := e.tours.ListTournaments(ctx, &orreryv1.ListTournamentsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	seen = append(seen, list, lt, e.get(tour.GetTournamentId()), fastEnd)
	if e.get(tour.GetTournamentId()).GetSeed() != 0 {
		t.Error("a running tournament shows its seed")
	}

	alice.release()
	e.waitFinished(tour.GetTournamentId())
	var seeds []uint64
	var salts []string
	for _, id := range []string{fast, slow} {
		rep, err := e.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
		if err != nil {
			t.Fatalf("GetReplay %s after the set: %v", id, err)
		}
		if err := seedcommit.Verify(rep.GetMatch().GetSeedHash(), rep.GetSeed(), rep.GetSeedSalt()); err != nil {
			t.Errorf("match %s: seed %d and salt %q do not open %s: %v", id, rep.GetSeed(), rep.GetSeedSalt(), rep.GetMatch().GetSeedHash(), err)
		}
		seeds, salts = append(seeds, rep.GetSeed()), append(salts, rep.GetSeedSalt())
	}
	if seeds[0] != seeds[1] {
		t.Errorf("a duplicate set's matches have seeds %v", seeds)
	}
	secrets := append([]string{strconv.FormatUint(seeds[0], 10)}, salts...)
	for _, m := range seen {
		txt := protojson.Format(m)
		for _, secret := range secrets {
			if secret != "" && strings.Contains(txt, secret) {
				t.Errorf("%s (the seed or a salt) was shown while the set ran: %s", secret, txt)
			}
		}
	}
}

// TestAbsent_Forfeit: with ABSENT_POLICY_FORFEIT a registered entrant with no open stream
// forfeits its matches unplayed, last behind the present entrant.
func TestAbsent_Forfeit(t *testing.T) {
	e := newEnv(t, nil, "")
	e.register("alice")
	tour := e.create(context.Background(), &orreryv1.CreateTournamentRequest{
		Game: testGame, Seats: 2, Entrants: []string{"alice", "greedy"}, Games: 2, Absent: orreryv1.AbsentPolicy_ABSENT_POLICY_FORFEIT,
	})
	got := e.waitFinished(tour.GetTournamentId())
	for _, m := range got.GetMatches() {
		seat := slices.Index(m.GetEntrants(), "alice")
		if m.GetMatchId() != "" || !slices.Equal(m.GetForfeited(), []string{"alice"}) || m.GetRanks()[seat] != 2 || m.GetRanks()[1-seat] != 1 {
			t.Errorf("match %v: want alice to forfeit unplayed", m)
		}
	}
	if s := standing(got, "alice"); s.GetMatches() != 2 || s.GetWins() != 0 || s.GetPlace() != 2 {
		t.Errorf("alice's standing: %v", s)
	}
}

// TestAbsent_ClockRuns: by default an absent entrant's match is played, its clock running
// and the timeout policy playing for it.
func TestAbsent_ClockRuns(t *testing.T) {
	e := newEnv(t, nil, "")
	e.register("alice")
	tour := e.create(context.Background(), &orreryv1.CreateTournamentRequest{
		Game: testGame, Seats: 2, Entrants: []string{"alice", "random"}, Games: 1,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Millisecond), TimeBank: durationpb.New(0)},
	})
	got := e.waitFinished(tour.GetTournamentId())
	m := got.GetMatches()[0]
	sum, err := e.client.GetMatch(context.Background(), &orreryv1.GetMatchRequest{MatchId: m.GetMatchId()})
	if err != nil {
		t.Fatal(err)
	}
	seat := slices.Index(m.GetEntrants(), "alice")
	if sum.GetMatch().GetSeatInfo()[seat].GetTimeouts() == 0 || len(m.GetForfeited()) != 0 {
		t.Errorf("alice's seat: %v, forfeited %v", sum.GetMatch().GetSeatInfo()[seat], m.GetForfeited())
	}
}

// TestCreateTournament_Refusals: a bad request is InvalidArgument (or PermissionDenied
// without the admin key) and stores nothing.
func TestCreateTournament_Refusals(t *testing.T) {
	const admin = "adm"
	e := newEnv(t, nil, admin)
	e.register("alice")
	ctx := withKey(context.Background(), admin)
	good := &orreryv1.CreateTournamentRequest{Game: testGame, Entrants: []string{"alice", "random"}, Games: 2}
	tests := []struct {
		name   string
		ctx    context.Context
		mutate func(*orreryv1.CreateTournamentRequest)
		want   codes.Code
	}{
		{"without the admin key", context.Background(), func(*orreryv1.CreateTournamentRequest) {}, codes.PermissionDenied},
		{"an unknown game", ctx, func(r *orreryv1.CreateTournamentRequest) { r.Game = "chess" }, codes.InvalidArgument},
		{"one entrant", ctx, func(r *orreryv1.CreateTournamentRequest) { r.Entrants = r.Entrants[:1] }, codes.InvalidArgument},
		{"an unknown entrant", ctx, func(r *orreryv1.CreateTournamentRequest) { r.Entrants[1] = "nobody" }, codes.InvalidArgument},
		{"a registered bot twice", ctx, func(r *orreryv1.CreateTournamentRequest) { r.Entrants = []string{"alice", "alice"} }, codes.InvalidArgument},
		{"more seats than entrants", ctx, func(r *orreryv1.CreateTournamentRequest) { r.Seats = 3 }, codes.InvalidArgument},
		{"more seats than the game", ctx, func(r *orreryv1.CreateTournamentRequest) { r.Seats = 7 }, codes.InvalidArgument},
		{"an unknown format", ctx, func(r *orreryv1.CreateTournamentRequest) { r.Format = 9 }, codes.InvalidArgument},
		{"too many games", ctx, func(r *orreryv1.CreateTournamentRequest) { r.Games = maxGames + 1 }, codes.InvalidArgument},
		{"negative parallel", ctx, func(r *orreryv1.CreateTournamentRequest) { r.Parallel = -1 }, codes.InvalidArgument},
		{"an unknown option", ctx, func(r *orreryv1.CreateTournamentRequest) { r.Options = map[string]string{"nope": "1"} }, codes.InvalidArgument},
		{"a zero per-move", ctx, func(r *orreryv1.CreateTournamentRequest) { r.Clock = &orreryv1.Clock{PerMove: durationpb.New(0)} }, codes.InvalidArgument},
		{"an unknown absent policy", ctx, func(r *orreryv1.CreateTournamentRequest) { r.Absent = 7 }, codes.InvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := proto.Clone(good).(*orreryv1.CreateTournamentRequest)
			tt.mutate(r)
			if _, err := e.tours.CreateTournament(tt.ctx, r); status.Code(err) != tt.want {
				t.Errorf("got %v, want %v", err, tt.want)
			}
		})
	}
	list, err := e.tours.ListTournaments(context.Background(), &orreryv1.ListTournamentsRequest{})
	if err != nil || len(list.GetTournaments()) != 0 {
		t.Errorf("refused requests stored %v (%v)", list.GetTournaments(), err)
	}
	if _, err := e.tours.GetTournament(context.Background(), &orreryv1.GetTournamentRequest{TournamentId: "tNope"}); status.Code(err) != codes.NotFound {
		t.Errorf("an unknown tournament: %v", err)
	}
}

// TestSwiss_RedrawsAsStored: a Swiss tournament loaded from its stored rounds draws them
// again identically, and so draws the same next round as the run that stored them.
func TestSwiss_RedrawsAsStored(t *testing.T) {
	seed := uint64(99)
	spec := &orreryv1.CreateTournamentRequest{Game: testGame, Format: orreryv1.TournamentFormat_TOURNAMENT_FORMAT_SWISS,
		Seats: 2, Games: 12, Parallel: 1, Seed: &seed}
	entrants := []entrant{{Name: "a", Builtin: "random"}, {Name: "b", Builtin: "random"}, {Name: "c", Builtin: "random"}, {Name: "d", Builtin: "random"}, {Name: "e", Builtin: "random"}}
	live := newRun("t1", spec, entrants, time.Now())
	live.drawFirst()
	for round := 0; round < 3; round++ {
		for _, sl := range live.slots {
			if !sl.ended {
				sl.ranks, sl.ended = []int{1 + (sl.seq+round)%2, 2 - (sl.seq+round)%2}, true
			}
		}
		live.drawSwissLocked()
	}
	loaded := newRun("t1", spec, entrants, time.Now())
	for _, sl := range live.slots {
		c := *sl
		loaded.slots = append(loaded.slots, &c)
	}
	if err := loaded.redraw(); err != nil {
		t.Fatal(err)
	}
	for _, sl := range live.slots {
		sl.ranks, sl.ended = []int{1, 2}, true
	}
	for _, sl := range loaded.slots {
		sl.ranks, sl.ended = []int{1, 2}, true
	}
	live.drawSwissLocked()
	loaded.drawSwissLocked()
	if len(live.slots) != len(loaded.slots) {
		t.Fatalf("%d slots live, %d loaded", len(live.slots), len(loaded.slots))
	}
	for i := range live.slots {
		if !slices.Equal(live.slots[i].entrants, loaded.slots[i].entrants) || live.slots[i].seed != loaded.slots[i].seed {
			t.Errorf("slot %d: live %v, loaded %v", i, live.slots[i], loaded.slots[i])
		}
	}
	tampered := newRun("t1", spec, entrants, time.Now())
	for _, sl := range live.slots {
		c := *sl
		tampered.slots = append(tampered.slots, &c)
	}
	tampered.slots[len(tampered.slots)-1].seed++
	if err := tampered.redraw(); err == nil {
		t.Error("a stored round that does not redraw is accepted")
	}
}

// TestRestart_UnreadableTournament: a stored tournament that cannot be read back does not
// keep the server from starting, and the seeds of its matches stay withheld.
func TestRestart_UnreadableTournament(t *testing.T) {
	path := filepath.Join(t.TempDir(), "orrery.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, db, "")
	key := e.register("alice")
	alice := e.connect(key, func(_ string, nth int) bool { return nth == 1 })
	tour := e.create(context.Background(), &orreryv1.CreateTournamentRequest{
		Game: testGame, Seats: 2, Entrants: []string{"alice", "random"}, Games: 2, Duplicate: true, Parallel: 2, Clock: slowClock(),
	})
	alice.until("one match of the set has ended, the other waits", func() bool { return len(alice.ended) == 1 && len(alice.held) == 1 })
	var fast string
	alice.mu.Lock()
	for id := range alice.ended {
		fast = id
	}
	alice.mu.Unlock()
	alice.close()
	e.stop()
	if _, err := db.SQL().Exec(`UPDATE tournament_runs SET spec = x'ff' WHERE id = ?`, tour.GetTournamentId()); err != nil {
		t.Fatal(err)
	}
	db.Close()

	db2, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	e2 := newEnv(t, db2, "")
	if _, err := e2.client.GetReplay(context.Background(), &orreryv1.GetReplayRequest{MatchId: fast}); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("GetReplay of a match of an unreadable tournament's set: %v", err)
	}
}

// The reproduction: 16 anonymous CreateTournament calls scheduled 100,000 games each.
// Now, with no admin key, a caller's tournaments count against its hourly budget of
// scheduled matches (serve --open-tournaments).
func TestCreateTournament_AnonymousCountsAgainstTheCallersBudget(t *testing.T) {
	e := newEnvLimits(t, nil, "", limits.Config{TournamentMatches: 10})
	req := func(games int32) *orreryv1.CreateTournamentRequest {
		return &orreryv1.CreateTournamentRequest{Game: testGame, Entrants: []string{"random", "greedy"}, Games: games, Parallel: 1}
	}
	ctx := context.Background()
	if _, err := e.tours.CreateTournament(ctx, req(100_000)); status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "--open-tournaments") {
		t.Errorf("100,000 games: %v", err)
	}
	if _, err := e.tours.CreateTournament(ctx, req(6)); err != nil {
		t.Fatalf("6 games: %v", err)
	}
	if _, err := e.tours.CreateTournament(ctx, req(6)); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("6 more games past a budget of 10: %v", err)
	}
	if _, err := e.tours.CreateTournament(ctx, req(4)); err != nil {
		t.Errorf("the 4 left: %v", err)
	}
}
