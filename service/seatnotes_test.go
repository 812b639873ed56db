package service

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/orrery/orrery/bots"
	planetbot "github.com/orrery/orrery/bots/planet"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
)

// pausing is a noting bot that stops before its answer number at until release closes.
type pausing struct {
	noting
	at      int
	reached chan struct{}
	release chan struct{}
	n       int
}

func (p *pausing) Act(d *orreryv1.Decision) *orreryv1.Answer {
	if p.n++; p.n == p.at {
		close(p.reached)
		<-p.release
	}
	return p.noting.Act(d)
}

// playPaused plays a two-seat Planet match with greedy bots noting "<prefix><seat> ...",
// seat 0 pausing before its fourth answer; it returns once seat 0 has paused, with the
// match's seat tokens and a function that lets it go on and waits for the end.
func playPaused(t *testing.T, h *harness, tokens []string, prefix string) (finish func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	p := &pausing{noting: noting{Bot: planetbot.NewGreedy(1), note: func(d *orreryv1.Decision) string { return prefix + "0 " + d.GetDecisionId() }},
		at: 4, reached: make(chan struct{}), release: make(chan struct{})}
	players := []bots.Bot{p, noting{Bot: planetbot.NewGreedy(2), note: func(d *orreryv1.Decision) string { return prefix + "1 " + d.GetDecisionId() }}}
	var wg sync.WaitGroup
	for s, tok := range tokens {
		wg.Go(func() {
			if _, err := sdk.Play(ctx, h.conn, tok, players[s], sdk.Options{}); err != nil {
				t.Error(err)
			}
		})
	}
	select {
	case <-p.reached:
	case <-ctx.Done():
		t.Fatal("seat 0 never reached its fourth decision")
	}
	return func() { close(p.release); wg.Wait(); cancel() }
}

// TestLab_ASeatReadsItsOwnNotesWhileItsMatchRuns: while a match runs, a seat's token reads
// that seat's own steps (think time, note) and nothing of the other seat's; another seat's
// token, a spectator (no token), a wrong token and a token of another match read nothing of
// it. Once the match has ended, the seat's record is the replay's.
func TestLab_ASeatReadsItsOwnNotesWhileItsMatchRuns(t *testing.T) {
	h := newHarness(t, Config{})
	ctx := context.Background()
	created := h.create(&orreryv1.CreateMatchRequest{Game: "planet", Seats: 2, Seed: seed(5)})
	other := h.create(&orreryv1.CreateMatchRequest{Game: "planet", Seats: 2, Seed: seed(6)})
	id := created.GetMatchId()
	tokens := []string{created.GetSeats()[0].GetToken(), created.GetSeats()[1].GetToken()}
	finish := playPaused(t, h, tokens, "SECRET-")

	mine, err := h.client.GetSeatNotes(ctx, &orreryv1.GetSeatNotesRequest{MatchId: id, SeatToken: tokens[0]})
	if err != nil {
		t.Fatal(err)
	}
	if !mine.GetRunning() || mine.GetSeat() != 0 || len(mine.GetSteps()) != 3 {
		t.Fatalf("seat 0's notes while paused before its fourth answer: running %v, seat %d, %d steps", mine.GetRunning(), mine.GetSeat(), len(mine.GetSteps()))
	}
	for _, st := range mine.GetSteps() {
		if !strings.HasPrefix(st.GetNote(), "SECRET-0 ") || st.GetThinkTime() == nil {
			t.Errorf("seat 0's step %d: note %q, think time %v", st.GetStep(), st.GetNote(), st.GetThinkTime())
		}
	}
	theirs, err := h.client.GetSeatNotes(ctx, &orreryv1.GetSeatNotesRequest{MatchId: id, SeatToken: tokens[1]})
	if err != nil {
		t.Fatal(err)
	}
	if theirs.GetSeat() != 1 || len(theirs.GetSteps()) == 0 {
		t.Errorf("seat 1's notes: seat %d, %d steps", theirs.GetSeat(), len(theirs.GetSteps()))
	}
	for _, st := range theirs.GetSteps() {
		if strings.Contains(st.GetNote(), "SECRET-0") || !strings.HasPrefix(st.GetNote(), "SECRET-1 ") {
			t.Errorf("seat 1 read note %q at step %d", st.GetNote(), st.GetStep())
		}
	}
	for _, tc := range []struct {
		name string
		req  *orreryv1.GetSeatNotesRequest
	}{
		{"a spectator", &orreryv1.GetSeatNotesRequest{MatchId: id}},
		{"seat 1 asking for seat 0", &orreryv1.GetSeatNotesRequest{MatchId: id, SeatToken: tokens[1], Seat: ptr[int32](0)}},
		{"a wrong token", &orreryv1.GetSeatNotesRequest{MatchId: id, SeatToken: tokens[0] + "x"}},
		{"another match's token", &orreryv1.GetSeatNotesRequest{MatchId: id, SeatToken: other.GetSeats()[0].GetToken()}},
		{"the token on another match", &orreryv1.GetSeatNotesRequest{MatchId: other.GetMatchId(), SeatToken: tokens[0]}},
	} {
		resp, err := h.client.GetSeatNotes(ctx, tc.req)
		if status.Code(err) != codes.PermissionDenied || resp != nil {
			t.Errorf("%s: %v, %v; want PermissionDenied", tc.name, resp, err)
		}
	}
	finish() // the seats return once the match has ended and its result is stored
	ended, err := h.client.GetSeatNotes(ctx, &orreryv1.GetSeatNotesRequest{MatchId: id, SeatToken: tokens[0]})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := h.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
	if err != nil {
		t.Fatal(err)
	}
	var want []int64
	for i, st := range rep.GetSteps() {
		if st.GetSeat() == 0 {
			want = append(want, int64(i))
		}
	}
	if ended.GetRunning() || len(ended.GetSteps()) != len(want) {
		t.Fatalf("after the end: running %v, %d steps; the replay has %d of seat 0's", ended.GetRunning(), len(ended.GetSteps()), len(want))
	}
	for i, st := range ended.GetSteps() {
		if st.GetStep() != want[i] || st.GetNote() != rep.GetSteps()[want[i]].GetNote() {
			t.Errorf("step %d: %d %q; the replay's step %d has %q", i, st.GetStep(), st.GetNote(), want[i], rep.GetSteps()[want[i]].GetNote())
		}
	}
}

// keyBots are bots by key, as the ladder knows them.
type keyBots map[string]int64

func (k keyBots) CallerBot(ctx context.Context) (int64, bool) {
	md, _ := metadata.FromIncomingContext(ctx)
	for _, v := range md.Get("authorization") {
		if id, ok := k[strings.TrimPrefix(v, "bearer ")]; ok {
			return id, true
		}
	}
	return 0, false
}

// TestLab_ABotReadsTheNotesOfTheSeatItPlays: a registered bot seated in a match (a ladder,
// tournament or strength test match) reads its seat's notes with its own key while the match
// runs; another bot's key, a wrong seat and no key read nothing.
func TestLab_ABotReadsTheNotesOfTheSeatItPlays(t *testing.T) {
	db, err := store.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h := newHarness(t, Config{Store: db, Callers: keyBots{"key-of-7": 7, "key-of-8": 8}})
	ctx := context.Background()
	id, tokens, _, err := h.srv.Create(ctx, MatchSpec{Game: "planet", Seats: 2, Seed: seed(5), Bots: []int64{7, 8}})
	if err != nil {
		t.Fatal(err)
	}
	finish := playPaused(t, h, tokens, "NOTE-")
	defer finish()
	as := func(key string) context.Context {
		return metadata.AppendToOutgoingContext(ctx, "authorization", "bearer "+key)
	}
	got, err := h.client.GetSeatNotes(as("key-of-7"), &orreryv1.GetSeatNotesRequest{MatchId: id})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetSeat() != 0 || !got.GetRunning() || len(got.GetSteps()) != 3 || !strings.HasPrefix(got.GetSteps()[0].GetNote(), "NOTE-0 ") {
		t.Errorf("bot 7's seat: %v", got)
	}
	for _, tc := range []struct {
		name string
		ctx  context.Context
		seat *int32
	}{
		{"no key", ctx, nil},
		{"a key no bot has", as("key-of-9"), nil},
		{"bot 7 asking for bot 8's seat", as("key-of-7"), ptr[int32](1)},
		{"bot 8 asking for bot 7's seat", as("key-of-8"), ptr[int32](0)},
	} {
		resp, err := h.client.GetSeatNotes(tc.ctx, &orreryv1.GetSeatNotesRequest{MatchId: id, Seat: tc.seat})
		if status.Code(err) != codes.PermissionDenied || resp != nil {
			t.Errorf("%s: %v, %v; want PermissionDenied", tc.name, resp, err)
		}
	}
}

func ptr[T any](v T) *T { return &v }
