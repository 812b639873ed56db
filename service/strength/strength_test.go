package strength

import (
	"context"
	"math"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/builtin"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/sprt"
	"github.com/orrery/orrery/service/store"
)

// TestSPRTServer_RegisteredBotAgainstABuiltinDecidesOnPairedDeals: a registered bot, playing
// greedy on its own ladder stream, tested on the server against the built-in random, is
// accepted as stronger (H1). Each counted pair is two finished arena matches on one seed, the
// bot in the tested seat of the first and random in the same seat of the second, with the
// ranks the pair records; the LLR the server reports is the one service/sprt counts from the
// pairs, and the test's seed is shown once it has ended.
func TestSPRTServer_RegisteredBotAgainstABuiltinDecidesOnPairedDeals(t *testing.T) {
	e := newEnv(t, nil)
	e.connect(e.register("sharp"), "greedy")
	s := e.start(&orreryv1.StartSPRTRequest{Game: testGame, Candidate: "sharp", Baseline: "random", Opponents: []string{"random"}, Seats: 2,
		Elo1: ptr(100.0), MaxGames: 400, Parallel: 2, Seed: ptr[uint64](7)})
	if s.GetStatus() != orreryv1.SPRTStatus_SPRT_STATUS_RUNNING || s.GetSeats() != 2 || s.GetSeed() != 0 || s.Seed != nil {
		t.Fatalf("started: %v", s)
	}
	end := e.watch(s.GetSprtId(), nil)
	if end.GetStatus() != orreryv1.SPRTStatus_SPRT_STATUS_FINISHED || end.GetDecision() != string(sprt.AcceptH1) {
		t.Fatalf("ended %v with %q after %d games (LLR %.3f)", end.GetStatus(), end.GetDecision(), end.GetGames(), end.GetLlr())
	}
	got := e.get(s.GetSprtId())
	if got.Seed == nil || got.GetSeed() != 7 {
		t.Errorf("the finished test shows seed %v, want 7", got.Seed)
	}
	pairs := got.GetPairList()
	if len(pairs) != int(got.GetPairs()) || len(got.GetLlrHistory()) != len(pairs) || got.GetGames() != 2*got.GetPairs() {
		t.Fatalf("%d pairs, %d LLRs, for %d pairs and %d games", len(pairs), len(got.GetLlrHistory()), got.GetPairs(), got.GetGames())
	}
	bounds := sprt.Bounds{Elo0: 0, Elo1: 100, Alpha: 0.05, Beta: 0.05}
	tally := sprt.NewTally(2)
	ctx := context.Background()
	for i, p := range pairs {
		tally.Add(counted(p).Points())
		if llr := tally.LLR(bounds); math.Abs(llr-got.GetLlrHistory()[i]) > 1e-9 {
			t.Errorf("pair %d: LLR %.6f reported, %.6f counted", i, got.GetLlrHistory()[i], llr)
		}
		if int(p.GetSeat()) != i%2 {
			t.Errorf("pair %d tests seat %d", i, p.GetSeat())
		}
		var seeds [2]uint64
		for side, id := range []string{p.GetCandidateMatchId(), p.GetBaselineMatchId()} {
			rp, err := e.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
			if err != nil {
				t.Fatalf("pair %d, replay %s: %v", i, id, err)
			}
			m := rp.GetMatch()
			want := []string{"sharp", "random"}[side]
			if name := m.GetSeatInfo()[p.GetSeat()].GetName(); name != want {
				t.Errorf("pair %d: the tested seat of %s is %q, want %q", i, id, name, want)
			}
			ranks := []int32{p.GetCandidateRanks()[0], p.GetCandidateRanks()[1]}
			if side == 1 {
				ranks = []int32{p.GetBaselineRanks()[0], p.GetBaselineRanks()[1]}
			}
			for seat, r := range m.GetResult().GetRanks() {
				if r != ranks[seat] {
					t.Errorf("pair %d: match %s ranks %v, the pair records %v", i, id, m.GetResult().GetRanks(), ranks)
					break
				}
			}
			seeds[side] = rp.GetSeed()
		}
		if seeds[0] != seeds[1] {
			t.Errorf("pair %d was dealt twice: seeds %d and %d", i, seeds[0], seeds[1])
		}
	}
	if llr := tally.LLR(bounds); math.Abs(llr-got.GetLlr()) > 1e-9 || llr < got.GetLlrUpper() {
		t.Errorf("LLR %.6f reported, %.6f counted, upper bound %.3f", got.GetLlr(), llr, got.GetLlrUpper())
	}
}

// TestSPRTServer_SeedsStayWithheldUntilTheTestEnds: every deal follows from the test's seed,
// so while a test runs its finished matches reveal neither their seed nor their replay; once
// it is stopped they do, and the stopped test keeps its counted pairs.
func TestSPRTServer_SeedsStayWithheldUntilTheTestEnds(t *testing.T) {
	e := newEnv(t, nil)
	// The same bot on both sides with narrow bounds: far from deciding in a few pairs.
	s := e.start(&orreryv1.StartSPRTRequest{Game: testGame, Candidate: "random", Baseline: "random", Seats: 2, MaxGames: 100000, Parallel: 1})
	run := e.watch(s.GetSprtId(), func(s *orreryv1.SPRT) bool { return s.GetPairs() >= 1 })
	if run.GetStatus() != orreryv1.SPRTStatus_SPRT_STATUS_RUNNING {
		t.Fatalf("the A/A test ended after %d pairs: %v %s", run.GetPairs(), run.GetStatus(), run.GetDecision())
	}
	ctx := context.Background()
	first := e.get(s.GetSprtId()).GetPairList()[0]
	ids := []string{first.GetCandidateMatchId(), first.GetBaselineMatchId()}
	for _, id := range ids {
		m, err := e.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: id})
		if err != nil || m.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_FINISHED {
			t.Fatalf("match %s of a counted pair: %v, %v", id, m.GetMatch().GetStatus(), err)
		}
		if _, err := e.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id}); status.Code(err) != codes.FailedPrecondition {
			t.Errorf("the replay of %s while its test runs: %v, want FailedPrecondition", id, err)
		}
	}
	if e.get(s.GetSprtId()).Seed != nil {
		t.Error("a running test shows its seed")
	}
	stopped, err := e.sprts.StopSPRT(ctx, &orreryv1.StopSPRTRequest{SprtId: s.GetSprtId()})
	if err != nil {
		t.Fatal(err)
	}
	if st := stopped.GetSprt(); st.GetStatus() != orreryv1.SPRTStatus_SPRT_STATUS_STOPPED || st.GetPairs() < 1 || st.Seed == nil {
		t.Fatalf("stopped: %v after %d pairs, seed %v", st.GetStatus(), st.GetPairs(), st.Seed)
	}
	for _, id := range ids {
		if _, err := e.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id}); err != nil {
			t.Errorf("the replay of %s once its test was stopped: %v", id, err)
		}
	}
	if _, err := e.sprts.StopSPRT(ctx, &orreryv1.StopSPRTRequest{SprtId: s.GetSprtId()}); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("stopping a stopped test: %v, want FailedPrecondition", err)
	}
}

// TestSPRTServer_ResumesFromTheLastCountedPairAfterARestart: a server stopped mid-test, one
// pair counted and the next deal's game under way, carries on from its stored pair when it
// starts again: the game it was playing is aborted and the deal played again, and the test
// plays out to its budget. The candidate is a registered bot that stops answering in its
// second game, so the server stops exactly there.
func TestSPRTServer_ResumesFromTheLastCountedPairAfterARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "orrery.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, db)
	key := e.register("sharp")
	var games atomic.Int32
	held := make(chan string, 1)
	release := make(chan struct{})
	stopBot := e.connectWith(key, func(j *orreryv1.Joined) (bots.Bot, error) {
		inner, err := builtin.New(j.GetGame(), "greedy", 1)
		if err != nil {
			return nil, err
		}
		if games.Add(1) < 2 {
			return inner, nil
		}
		held <- j.GetMatchId()
		return bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer { <-release; return inner.Act(d) }), nil
	})
	var let sync.Once
	letGo := func() { let.Do(func() { close(release) }) }
	t.Cleanup(letGo) // before stopBot's cleanup, if the test fails first
	s := e.start(&orreryv1.StartSPRTRequest{Game: testGame, Candidate: "sharp", Baseline: "random", Seats: 2, MaxGames: 8, Parallel: 1,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Minute), TimeBank: durationpb.New(10 * time.Minute)}})
	var orphan string
	select {
	case orphan = <-held:
	case <-time.After(2 * time.Minute): // a hung test's bound, not a measurement
		t.Fatal("the bot never reached its second game")
	}
	// The first pair is counted a moment after its second game ends, which may be after the
	// next deal has begun.
	e.watch(s.GetSprtId(), func(s *orreryv1.SPRT) bool { return s.GetPairs() >= 1 })
	if got := e.get(s.GetSprtId()); got.GetPairs() != 1 || got.GetPairList()[0].GetCandidateMatchId() == orphan {
		t.Fatalf("before the restart: %d pairs counted; the second deal's game is %s", got.GetPairs(), orphan)
	}
	first := e.get(s.GetSprtId()).GetPairList()[0]
	e.stop() // first, so that the held game cannot go on when the bot is let go
	letGo()
	stopBot()
	db.Close()

	if db, err = store.Open(path); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	e = newEnv(t, db)
	e.connect(key, "greedy")
	end := e.watch(s.GetSprtId(), nil)
	if end.GetStatus() != orreryv1.SPRTStatus_SPRT_STATUS_FINISHED || end.GetDecision() != string(sprt.MaxGames) || end.GetPairs() != 4 {
		t.Fatalf("resumed test ended %v, %q after %d pairs; want max_games after 4", end.GetStatus(), end.GetDecision(), end.GetPairs())
	}
	got := e.get(s.GetSprtId()).GetPairList()
	if got[0].GetCandidateMatchId() != first.GetCandidateMatchId() || got[0].GetBaselineMatchId() != first.GetBaselineMatchId() {
		t.Errorf("the counted pair was played again after the restart")
	}
	if got[1].GetCandidateMatchId() == orphan {
		t.Errorf("deal 1 counts the game the stopped server was playing")
	}
	m, err := e.client.GetMatch(context.Background(), &orreryv1.GetMatchRequest{MatchId: orphan})
	if err != nil {
		t.Fatal(err)
	}
	if r := m.GetMatch().GetResult().GetReason(); r != orreryv1.EndReason_END_REASON_ABORTED {
		t.Errorf("the interrupted game %s ended %v, want aborted", orphan, r)
	}
}

// TestSPRTServer_RefusesBadRequests: a request wrong in any state is InvalidArgument, with
// the reason.
func TestSPRTServer_RefusesBadRequests(t *testing.T) {
	e := newEnv(t, nil)
	e.register("sharp")
	good := func(edit func(*orreryv1.StartSPRTRequest)) *orreryv1.StartSPRTRequest {
		r := &orreryv1.StartSPRTRequest{Game: testGame, Candidate: "greedy", Baseline: "random"}
		edit(r)
		return r
	}
	for _, tc := range []struct {
		name string
		req  *orreryv1.StartSPRTRequest
	}{
		{"unknown game", good(func(r *orreryv1.StartSPRTRequest) { r.Game = "chess" })},
		{"no candidate", good(func(r *orreryv1.StartSPRTRequest) { r.Candidate = "" })},
		{"unknown baseline", good(func(r *orreryv1.StartSPRTRequest) { r.Baseline = "nobody" })},
		{"a registered opponent", good(func(r *orreryv1.StartSPRTRequest) { r.Opponents = []string{"sharp"} })},
		{"opponents and seats disagree", good(func(r *orreryv1.StartSPRTRequest) { r.Opponents = []string{"random", "greedy"}; r.Seats = 2 })},
		{"too many seats", good(func(r *orreryv1.StartSPRTRequest) { r.Seats = 9 })},
		{"elo1 below elo0", good(func(r *orreryv1.StartSPRTRequest) { r.Elo0 = 20 })},
		{"alpha too large", good(func(r *orreryv1.StartSPRTRequest) { r.Alpha = ptr(0.6) })},
		{"negative max games", good(func(r *orreryv1.StartSPRTRequest) { r.MaxGames = -1 })},
		{"too parallel", good(func(r *orreryv1.StartSPRTRequest) { r.Parallel = 65 })},
		{"an unknown option", good(func(r *orreryv1.StartSPRTRequest) { r.Options = map[string]string{"nonsense": "1"} })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.sprts.StartSPRT(context.Background(), tc.req)
			if st, _ := status.FromError(err); st.Code() != codes.InvalidArgument || st.Message() == "" {
				t.Errorf("%v, want InvalidArgument with a reason", err)
			}
		})
	}
	for _, id := range []string{"", "snobody"} {
		if _, err := e.sprts.GetSPRT(context.Background(), &orreryv1.GetSPRTRequest{SprtId: id}); status.Code(err) == codes.OK {
			t.Errorf("GetSPRT(%q) answered", id)
		}
	}
}

func ptr[T any](v T) *T { return &v }
