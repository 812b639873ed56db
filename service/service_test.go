package service

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/sdk"
	"github.com/orrery/orrery/engine"
	planetv1 "github.com/orrery/orrery/proto/orrery/planet/v1"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
	"github.com/orrery/orrery/service/match"
	"github.com/orrery/orrery/service/seedcommit"
	"github.com/orrery/orrery/service/store"
	"github.com/orrery/orrery/service/store/pgtest"
)

func TestMain(m *testing.M) {
	if target := os.Getenv(garbageChildEnv); target != "" { // BenchmarkGarbageSeatsRatio's clients
		os.Exit(garbageChild(target))
	}
	code := pgtest.Run(m) // stops the shared PostgreSQL, if a test started one, before the leak check
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

func TestPlay_FullMatchEndsWithVerifiableReplay(t *testing.T) {
	h := newHarness(t, Config{Store: memStore(t)})
	ctx := context.Background()
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(7)})
	if _, err := h.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: created.GetMatchId()}); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("replay of a running match: got %v, want FailedPrecondition", err)
	}
	ends := h.playRandom(ctx, created, nil)
	for i, e := range ends {
		if !proto.Equal(e.GetResult(), ends[0].GetResult()) || e.GetSeed() != ends[0].GetSeed() || e.GetSeat() != int32(i) {
			t.Errorf("seat %d saw a different end: %v vs %v", i, e, ends[0])
		}
	}
	end := ends[0]
	// Commit-reveal: the published hash is SHA-256 of the revealed seed and salt, and not
	// of the seed alone, which a client that chose it could match.
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], end.GetSeed())
	sum := sha256.Sum256(b[:])
	if end.GetSeed() != 7 || seedcommit.Verify(created.GetSeedHash(), end.GetSeed(), end.GetSeedSalt()) != nil ||
		end.GetSeedHash() != created.GetSeedHash() || hex.EncodeToString(sum[:]) == created.GetSeedHash() {
		t.Errorf("seed %d salt %q / hash %s does not match the published %s", end.GetSeed(), end.GetSeedSalt(), end.GetSeedHash(), created.GetSeedHash())
	}
	r, err := h.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: created.GetMatchId()})
	if err != nil {
		t.Fatal(err)
	}
	// Anyone can re-run the log with the engine and get the recorded result.
	st, err := engine.New(testGame, engine.Config{Seats: testSeats, Seed: r.GetSeed(), Options: r.GetMatch().GetOptions()})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.GetSteps() {
		a, err := st.ParseAction(s.GetNotation())
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Apply(engine.Seat(s.GetSeat()), a); err != nil {
			t.Fatal(err)
		}
	}
	if !st.Terminal() || !proto.Equal(wire.Result(st.Result()), end.GetResult()) {
		t.Errorf("re-run result %v, recorded %v", st.Result(), end.GetResult())
	}
	got, err := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()})
	if err != nil || got.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_FINISHED || got.GetMatch().GetPly() != int64(len(r.GetSteps())) {
		t.Errorf("GetMatch = %v, %v", got, err)
	}
	h.srv.Sync()
	list, err := h.client.ListMatches(ctx, &orreryv1.ListMatchesRequest{Game: testGame, Status: orreryv1.MatchStatus_MATCH_STATUS_FINISHED})
	if err != nil || len(list.GetMatches()) != 1 || list.GetMatches()[0].GetMatchId() != created.GetMatchId() {
		t.Errorf("ListMatches = %v, %v", list, err)
	}
}

func TestPlay_BadJoinsGetSpecificCodes(t *testing.T) {
	h := newHarness(t, Config{})
	h.create(&orreryv1.CreateMatchRequest{})
	cases := []struct {
		name string
		req  *orreryv1.PlayRequest
		want codes.Code
	}{
		{"answer before join", &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{}}}, codes.InvalidArgument},
		{"empty request", &orreryv1.PlayRequest{}, codes.InvalidArgument},
		{"empty token", &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{}}}, codes.InvalidArgument},
		{"wrong token", &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: "not-a-token"}}}, codes.Unauthenticated},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stream, err := h.client.Play(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			stream.Send(c.req)
			_, err = stream.Recv()
			if status.Code(err) != c.want {
				t.Errorf("got %v, want %v", err, c.want)
			}
		})
	}
}

func TestRPCs_UnknownMatchIsNotFound(t *testing.T) {
	h := newHarness(t, Config{Store: memStore(t)})
	ctx := context.Background()
	if _, err := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: "nope"}); status.Code(err) != codes.NotFound {
		t.Errorf("GetMatch: %v", err)
	}
	if _, err := h.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: "nope"}); status.Code(err) != codes.NotFound {
		t.Errorf("GetReplay: %v", err)
	}
	w, _ := h.client.Watch(ctx, &orreryv1.WatchRequest{MatchId: "nope"})
	if _, err := w.Recv(); status.Code(err) != codes.NotFound {
		t.Errorf("Watch: %v", err)
	}
}

func TestCreateMatch_BadRequestsAreInvalidArgument(t *testing.T) {
	h := newHarness(t, Config{})
	for name, req := range map[string]*orreryv1.CreateMatchRequest{
		"no game":             {Seats: 2},
		"unknown game":        {Game: "chess", Seats: 2},
		"no seats":            {Game: testGame},
		"too many seats":      {Game: testGame, Seats: 99},
		"unknown option":      {Game: testGame, Seats: testSeats, Options: map[string]string{"nope": "1"}},
		"negative clock":      {Game: testGame, Seats: testSeats, Clock: &orreryv1.Clock{PerMove: durationpb.New(-time.Second)}},
		"wall clock on turns": {Game: testGame, Seats: testSeats, Clock: &orreryv1.Clock{WallClock: true}},
		"bad policy":          {Game: testGame, Seats: testSeats, TimeoutPolicy: 99},
	} {
		if _, err := h.client.CreateMatch(context.Background(), req); status.Code(err) != codes.InvalidArgument {
			t.Errorf("%s: got %v, want InvalidArgument", name, err)
		}
	}
}

// seatToAct joins every seat and returns the first seat with a decision, its stream and the
// decision, closing the other streams.
func seatToAct(t *testing.T, h *harness, ctx context.Context, created *orreryv1.CreateMatchResponse) (int, grpc.BidiStreamingClient[orreryv1.PlayRequest, orreryv1.PlayResponse], *orreryv1.Decision) {
	t.Helper()
	for i, s := range created.GetSeats() {
		cctx, cancel := context.WithCancel(ctx)
		stream := h.join(cctx, s.GetToken())
		owes := owes(h.srv.reg.lookup(created.GetMatchId()), engine.Seat(i))
		if owes {
			d, _ := nextDecision(t, stream)
			t.Cleanup(cancel)
			return i, stream, d
		}
		cancel()
	}
	t.Fatal("no seat owes a decision")
	return 0, nil, nil
}

func TestAnswer_RejectionsLeaveTheMatchUnchanged(t *testing.T) {
	h := newHarness(t, Config{})
	ctx := context.Background()
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(3)})
	seat, stream, d := seatToAct(t, h, ctx, created)
	m := h.srv.reg.lookup(created.GetMatchId())
	before := func() (b []byte) {
		m.Inspect(func(in match.Inspection) { b, _ = in.State.MarshalBinary() })
		return b
	}
	state := before()
	otherGame := &orreryv1.Action{Game: &orreryv1.Action_Planet{Planet: &planetv1.Action{}}}
	cases := []struct {
		name string
		ans  *orreryv1.Answer
		want orreryv1.RejectCode
	}{
		{"stale decision id", &orreryv1.Answer{DecisionId: "d0", Choice: &orreryv1.Answer_LegalIndex{}}, orreryv1.RejectCode_REJECT_CODE_STALE_DECISION},
		{"index out of range", &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: int32(len(d.GetLegal()))}}, orreryv1.RejectCode_REJECT_CODE_MALFORMED},
		{"negative index", &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: -1}}, orreryv1.RejectCode_REJECT_CODE_MALFORMED},
		{"no choice", &orreryv1.Answer{DecisionId: d.GetDecisionId()}, orreryv1.RejectCode_REJECT_CODE_MALFORMED},
		{"empty typed action", &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_Action{Action: &orreryv1.Action{}}}, orreryv1.RejectCode_REJECT_CODE_MALFORMED},
		{"another game's action", &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_Action{Action: otherGame}}, orreryv1.RejectCode_REJECT_CODE_MALFORMED},
		{"garbage notation", &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_Notation{Notation: "\x00garbage 99 99"}}, orreryv1.RejectCode_REJECT_CODE_MALFORMED},
		// Well formed, but the opening asks for an alignment, not a pass.
		{"illegal action", &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_Notation{Notation: "pass"}}, orreryv1.RejectCode_REJECT_CODE_ILLEGAL},
	}
	for _, c := range cases {
		resp := answer(t, stream, c.ans)
		if rej := resp.GetRejected(); rej == nil || rej.GetCode() != c.want || rej.GetReason() == "" {
			t.Errorf("%s: got %v, want rejection %v with a reason", c.name, resp, c.want)
		}
	}
	// Garbage bytes inside a typed action: valid protobuf framing, nonsense values.
	garbage := &orreryv1.Action{}
	if err := proto.Unmarshal([]byte{0x12, 0x06, 0x08, 0xff, 0xff, 0xff, 0xff, 0x0f}, garbage); err == nil {
		resp := answer(t, stream, &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_Action{Action: garbage}})
		if resp.GetRejected() == nil {
			t.Errorf("garbage typed action accepted: %v", resp)
		}
	}
	// A legal action with one argument moved is illegal here, reported with a reason.
	if bytes.Equal(before(), state) == false {
		t.Fatal("a rejected answer changed the match")
	}
	// A seat that owes nothing is told so.
	other := (seat + 1) % testSeats
	if !owes(m, engine.Seat(other)) {
		os := h.join(ctx, created.GetSeats()[other].GetToken())
		resp := answer(t, os, &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{}})
		if rej := resp.GetRejected(); rej == nil || rej.GetCode() != orreryv1.RejectCode_REJECT_CODE_NOT_YOUR_TURN {
			t.Errorf("out of turn: %v", resp)
		}
	}
	// The decision still stands: a good answer is accepted.
	resp := answer(t, stream, bots0(d))
	if resp.GetAccepted() == nil || resp.GetAccepted().GetNotation() != d.GetLegalNotation()[0] {
		t.Errorf("good answer after rejections: %v", resp)
	}
}

func bots0(d *orreryv1.Decision) *orreryv1.Answer {
	return &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}}
}

func TestReconnect_ResumesDecisionAndMissedEvents(t *testing.T) {
	h := newHarness(t, Config{})
	ctx := context.Background()
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(11)})
	seat, stream, d := seatToAct(t, h, ctx, created)
	// Answer one decision, then drop the stream before reading anything more. The bot has seen
	// the events that came with its decision and its acknowledgement (the server may push more
	// down the old stream before it notices the close, so the bot says what it has seen).
	resp := answer(t, stream, bots0(d))
	if resp.GetAccepted() == nil {
		t.Fatal(resp)
	}
	stream.CloseSend()
	delivered := int64(0)
	for _, e := range append(d.GetEvents(), resp.GetAccepted().GetEvents()...) {
		delivered = max(delivered, e.GetSeq()+1)
	}
	m := h.srv.reg.lookup(created.GetMatchId())
	// Others play on while this seat is away, until it owes a decision again and has missed
	// events; then they stop, so the match stands still while the seat rejoins.
	ctx2, cancel := context.WithCancel(ctx)
	played := make(chan struct{})
	go func() { h.playRandom(ctx2, created, map[int]bool{seat: true}); close(played) }()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var ready bool
		m.Inspect(func(in match.Inspection) {
			_, _, owed := in.Owed(engine.Seat(seat))
			ready = in.Ended || owed && int64(in.Events) > delivered
		})
		if ready {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-played
	var owed bool
	var total int64
	var pid string
	m.Inspect(func(in match.Inspection) {
		pid, _, owed = in.Owed(engine.Seat(seat))
		total = int64(in.Events)
	})
	if !owed {
		t.Fatal("the seat owes no decision: the test's seed no longer leads to one")
	}
	rejoined, err := h.client.Play(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rejoined.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{
		Token: created.GetSeats()[seat].GetToken(), EventsSeen: &delivered}}})
	if r, err := rejoined.Recv(); err != nil || r.GetJoined() == nil {
		t.Fatalf("rejoin: %v %v", r, err)
	}
	d2, events := nextDecision(t, rejoined)
	// An answer a stopped bot had already sent may still land, so the match can have moved
	// on by a step or two since it was read above: the rejoin then sees those too.
	var now string
	var owedNow bool
	m.Inspect(func(in match.Inspection) { now, _, owedNow = in.Owed(engine.Seat(seat)) })
	if d2.GetDecisionId() != pid && (!owedNow || d2.GetDecisionId() != now) {
		t.Errorf("rejoin got decision %s, want the current %s", d2.GetDecisionId(), pid)
	}
	if int64(len(events)) < total-delivered {
		t.Errorf("rejoin got %d events, want at least the %d missed", len(events), total-delivered)
	}
	for i, e := range events {
		if e.GetSeq() != delivered+int64(i) {
			t.Fatalf("rejoin event %d has seq %d, want %d: the missed events in order, from the first unseen", i, e.GetSeq(), delivered+int64(i))
		}
	}
}

func TestJoin_NewerStreamReplacesOlder(t *testing.T) {
	h := newHarness(t, Config{})
	ctx := context.Background()
	created := h.create(&orreryv1.CreateMatchRequest{})
	tok := created.GetSeats()[0].GetToken()
	old := h.join(ctx, tok)
	h.join(ctx, tok)
	for {
		_, err := old.Recv()
		if err != nil {
			if status.Code(err) != codes.Aborted {
				t.Errorf("replaced stream ended with %v, want Aborted", err)
			}
			return
		}
	}
}

func TestTimeout_RandomPolicyPlaysForSilentSeat(t *testing.T) {
	h := newHarness(t, Config{})
	ctx := context.Background()
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(5),
		Clock: &orreryv1.Clock{PerMove: durationpb.New(2 * time.Millisecond), TimeBank: durationpb.New(0)}})
	// Seat 0 never connects; the others play. The match still ends.
	ends := h.playRandom(ctx, created, map[int]bool{0: true})
	if ends[1].GetResult().GetReason() != orreryv1.EndReason_END_REASON_NORMAL && ends[1].GetResult().GetReason() != orreryv1.EndReason_END_REASON_CAP {
		t.Errorf("end reason %v", ends[1].GetResult().GetReason())
	}
	got, _ := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()})
	if got.GetMatch().GetSeatInfo()[0].GetTimeouts() == 0 {
		t.Errorf("silent seat has no timeouts")
	}
	r, _ := h.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: created.GetMatchId()})
	timedOut := 0
	for _, s := range r.GetSteps() {
		if s.GetSeat() != 0 {
			continue // a playing seat may time out too on a loaded machine: 2ms is short
		}
		if s.GetTimedOut() != orreryv1.TimeoutPolicy_TIMEOUT_POLICY_RANDOM {
			t.Errorf("seat 0 never connected, yet its step %q is not marked as timed out", s.GetNotation())
		}
		timedOut++
	}
	if timedOut == 0 {
		t.Errorf("no step in the replay is marked as timed out")
	}
}

func TestTimeout_ForfeitRanksSeatLast(t *testing.T) {
	h := newHarness(t, Config{})
	ctx := context.Background()
	// The clock is short for the silent seat but long enough that the random bots, which
	// answer at once, never time out even on a loaded machine under the race detector.
	created := h.create(&orreryv1.CreateMatchRequest{TimeoutPolicy: orreryv1.TimeoutPolicy_TIMEOUT_POLICY_FORFEIT,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(500 * time.Millisecond), TimeBank: durationpb.New(0)}})
	ends := h.playRandom(ctx, created, map[int]bool{0: true})
	res := ends[1].GetResult()
	if res.GetReason() != orreryv1.EndReason_END_REASON_FORFEIT {
		// Seat 0 may not owe a decision before the others finish; then the match ends normally.
		t.Skipf("seat 0 never owed a decision: %v", res)
	}
	if res.GetRanks()[0] != testSeats || res.GetRanks()[1] != 1 {
		t.Errorf("forfeit ranks %v", res.GetRanks())
	}
}

func TestStream_ClientThatNeverReadsDoesNotStallOthers(t *testing.T) {
	h := newHarness(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(9),
		Clock: &orreryv1.Clock{PerMove: durationpb.New(2 * time.Millisecond), TimeBank: durationpb.New(0)}})
	// Seat 0 joins and then never reads its stream.
	stream, err := h.client.Play(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: created.GetSeats()[0].GetToken()}}})
	ends := h.playRandom(context.Background(), created, map[int]bool{0: true})
	if ends[1].GetResult() == nil {
		t.Fatal("no result")
	}
	// And the server still serves a second match.
	other := h.create(&orreryv1.CreateMatchRequest{Seed: seed(10)})
	h.playRandom(context.Background(), other, nil)
	cancel()
}

func TestWatch_SpectatorSeesOnlyThePublicView(t *testing.T) {
	h := newHarness(t, Config{})
	ctx := context.Background()
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(21)})
	w, err := h.client.Watch(ctx, &orreryv1.WatchRequest{MatchId: created.GetMatchId()})
	if err != nil {
		t.Fatal(err)
	}
	played := make(chan struct{})
	go func() { h.playRandom(ctx, created, nil); close(played) }()
	defer func() { <-played }()
	var views []*orreryv1.Spectate
	var end *orreryv1.MatchEnded
	for end == nil {
		resp, err := w.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if v := resp.GetView(); v != nil {
			views = append(views, v)
		}
		end = resp.GetEnded()
	}
	r, err := h.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: created.GetMatchId()})
	if err != nil {
		t.Fatal(err)
	}
	// Every view while the match ran is exactly the engine's spectator view at that ply.
	st, _ := engine.New(testGame, engine.Config{Seats: testSeats, Seed: r.GetSeed(), Options: r.GetMatch().GetOptions()})
	ply := int64(0)
	for _, v := range views {
		for ; ply < v.GetPly(); ply++ {
			s := r.GetSteps()[ply]
			a, _ := st.ParseAction(s.GetNotation())
			if err := st.Apply(engine.Seat(s.GetSeat()), a); err != nil {
				t.Fatal(err)
			}
		}
		if st.Terminal() {
			break
		}
		want := wire.Observation(st.Observe(engine.Spectator))
		if !proto.Equal(v.GetObservation(), want) {
			t.Fatalf("spectator view at ply %d is not the public view", ply)
		}
	}
	if end.GetSeed() != 21 {
		t.Errorf("the end reveals seed %d, want 21", end.GetSeed())
	}
}

// answeredAndStopped creates req's match on a server that stores to a new file, answers one
// decision and stops the server: the file, to restart from, and the match.
func answeredAndStopped(t *testing.T, req *orreryv1.CreateMatchRequest) (string, *orreryv1.CreateMatchResponse) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "orrery.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, Config{Store: db})
	created := h.create(req)
	_, stream, d := seatToAct(t, h, context.Background(), created)
	if resp := answer(t, stream, bots0(d)); resp.GetAccepted() == nil {
		t.Fatal(resp)
	}
	h.srv.Sync()
	h.srv.Close()
	db.Close()
	return path, created
}

func TestRestart_ResumesUnfinishedMatchFromItsLog(t *testing.T) {
	path, created := answeredAndStopped(t, &orreryv1.CreateMatchRequest{Seed: seed(13)})
	ctx := context.Background()
	db2, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	h2 := newHarness(t, Config{Store: db2})
	got, err := h2.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()})
	if err != nil || got.GetMatch().GetPly() != 1 || got.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_RUNNING {
		t.Fatalf("after restart: %v, %v", got, err)
	}
	// The same tokens rejoin and finish the match.
	ends := h2.playRandom(ctx, created, nil)
	if ends[0].GetSeed() != 13 {
		t.Errorf("resumed match ended with seed %d", ends[0].GetSeed())
	}
}

func TestSDK_ReconnectsAfterTheConnectionDrops(t *testing.T) {
	h := newHarness(t, Config{})
	ctx := context.Background()
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(17)})
	// Cut every client connection after a few decisions: the SDK must rejoin and finish.
	var decisions atomic.Int32
	bot := bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer {
		if decisions.Add(1) == 3 {
			h.dropConnections()
		}
		return bots0(d)
	})
	ends := make(chan *orreryv1.MatchEnded, testSeats)
	errs := make(chan error, testSeats)
	for _, s := range created.GetSeats() {
		go func() {
			e, err := sdk.Play(ctx, h.conn, s.GetToken(), bot, sdk.Options{})
			ends <- e
			errs <- err
		}()
	}
	for range testSeats {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		if e := <-ends; e.GetResult() == nil {
			t.Errorf("a seat saw no result")
		}
	}
	if h.drops.Load() == 0 {
		t.Errorf("no connection was dropped")
	}
}

// A match re-run from its stored log numbers its events exactly as they were live, seat
// timeouts included: what a restart resumes and what a replay shows.
func TestReplay_StoredLogRebuildsTheLiveEvents(t *testing.T) {
	db := memStore(t)
	h := newHarness(t, Config{Store: db})
	ctx := context.Background()
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(6),
		Clock: &orreryv1.Clock{PerMove: durationpb.New(2 * time.Millisecond), TimeBank: durationpb.New(0)}})
	h.playRandom(ctx, created, map[int]bool{0: true})
	live, err := h.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: created.GetMatchId()})
	if err != nil {
		t.Fatal(err)
	}
	h.srv.Sync()
	stored, err := LoadReplay(ctx, db, created.GetMatchId())
	if err != nil {
		t.Fatal(err)
	}
	timeouts := 0
	for _, e := range live.GetEvents() {
		if e.GetTimedOut() != nil {
			timeouts++
		}
	}
	if timeouts == 0 {
		t.Fatal("no timeout events: the test needs a silent seat")
	}
	if len(live.GetEvents()) != len(stored.GetEvents()) {
		t.Fatalf("%d live events, %d rebuilt", len(live.GetEvents()), len(stored.GetEvents()))
	}
	for i := range live.GetEvents() {
		if !proto.Equal(live.GetEvents()[i], stored.GetEvents()[i]) {
			t.Fatalf("event %d: live %v, rebuilt %v", i, live.GetEvents()[i], stored.GetEvents()[i])
		}
	}
}

// A restart gives each seat back the time bank it had, and re-issues the decision owed at the
// last position under the same id, so an answer sent again after the rejoin still applies.
func TestRestart_KeepsTimeBanksAndDecisionIDs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "orrery.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, Config{Store: db})
	ctx := context.Background()
	// test-repeat: seat 0 owes three decisions in a row, then seat 1 one.
	created := h.create(&orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Millisecond), TimeBank: durationpb.New(time.Hour)}})
	stream := h.join(ctx, created.GetSeats()[0].GetToken())
	d, _ := nextDecision(t, stream)
	time.Sleep(5 * time.Millisecond) // over the per-move budget: the bank pays
	if resp := answer(t, stream, bots0(d)); resp.GetAccepted() == nil {
		t.Fatal(resp)
	}
	next, _ := nextDecision(t, stream)
	before, _ := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()})
	bank := before.GetMatch().GetSeatInfo()[0].GetTimeBank().AsDuration()
	if bank >= time.Hour {
		t.Fatalf("bank %v was not charged", bank)
	}
	h.srv.Sync()
	h.srv.Close()
	db.Close()

	db2, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	h2 := newHarness(t, Config{Store: db2})
	after, err := h2.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()})
	if err != nil {
		t.Fatal(err)
	}
	if got := after.GetMatch().GetSeatInfo()[0].GetTimeBank().AsDuration(); got != bank {
		t.Errorf("after the restart seat 0 has bank %v, want %v", got, bank)
	}
	rejoined := h2.join(ctx, created.GetSeats()[0].GetToken())
	again, _ := nextDecision(t, rejoined)
	if again.GetDecisionId() != next.GetDecisionId() {
		t.Errorf("decision %s became %s over the restart", next.GetDecisionId(), again.GetDecisionId())
	}
	if resp := answer(t, rejoined, bots0(next)); resp.GetAccepted() == nil {
		t.Errorf("the answer to %s, sent again after the restart: %v", next.GetDecisionId(), resp)
	}
}

// The seat that answers reads its acknowledgement first, with the events its action caused
// riding on it: no batch of those events goes ahead of it.
func TestAnswer_AcknowledgementCarriesTheEventsOfItsAction(t *testing.T) {
	h := newHarness(t, Config{})
	ctx := context.Background()
	for _, s := range []uint64{3, 11, 21} {
		created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(s)})
		_, stream, d := seatToAct(t, h, ctx, created)
		if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: bots0(d)}}); err != nil {
			t.Fatal(err)
		}
		resp, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		acc := resp.GetAccepted()
		if acc == nil {
			t.Fatalf("seed %d: first message after the answer: %v, want the acknowledgement", s, resp)
		}
		evs := acc.GetEvents()
		if len(evs) == 0 {
			t.Fatalf("seed %d: acknowledgement without the events its action caused", s)
		}
		if got := evs[0].GetGame().GetIcetraders().GetActionTaken().GetNotation(); got != d.GetLegalNotation()[0] {
			t.Errorf("seed %d: first event names %q, want the action answered, %q", s, got, d.GetLegalNotation()[0])
		}
	}
}

// Every acknowledgement names the answer it acknowledges, over whole matches of seats that
// ask for everything: a stream's acknowledgement block is reused once sent (Seat.ackLocked),
// while the seat's reader may already be applying its next answer.
func TestAnswer_EachAcknowledgementNamesItsOwnAnswer(t *testing.T) {
	h := newHarness(t, Config{})
	ctx := context.Background()
	for _, s := range []uint64{3, 11, 21, 40} {
		created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(s)})
		var wg sync.WaitGroup
		for seat, st := range created.GetSeats() {
			stream := h.join(ctx, st.GetToken())
			wg.Go(func() {
				var id, notation string // the answer awaiting its acknowledgement
				acks := 0
				for {
					resp, err := stream.Recv()
					if err != nil {
						t.Errorf("seed %d seat %d: %v", s, seat, err)
						return
					}
					switch m := resp.GetMsg().(type) {
					case *orreryv1.PlayResponse_Decision:
						d := m.Decision
						i := int32(len(d.GetLegalNotation()) - 1) // the last: the notations differ decision to decision
						id, notation = d.GetDecisionId(), d.GetLegalNotation()[i]
						ans := &orreryv1.Answer{DecisionId: id, Choice: &orreryv1.Answer_LegalIndex{LegalIndex: i}}
						if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: ans}}); err != nil {
							t.Error(err)
							return
						}
					case *orreryv1.PlayResponse_Accepted:
						acks++
						if a := m.Accepted; a.GetDecisionId() != id || a.GetNotation() != notation {
							t.Errorf("seed %d seat %d: acknowledgement of %s %q; answered %s %q", s, seat, a.GetDecisionId(), a.GetNotation(), id, notation)
						}
					case *orreryv1.PlayResponse_Rejected:
						t.Errorf("seed %d seat %d: %v", s, seat, m.Rejected)
					case *orreryv1.PlayResponse_Ended:
						if acks == 0 {
							t.Errorf("seed %d seat %d: no acknowledgement in a whole match", s, seat)
						}
						return
					}
				}
			})
		}
		wg.Wait()
	}
}

// A decision answered after its deadline is refused naming that decision: the timeout
// policy has answered it, and the seat's next decision may reuse its place (spare).
func TestAnswer_PastItsDeadlineNamesTheDecisionTimedOut(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1_700_000_000, 0)
	h := newHarness(t, Config{Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }})
	ctx := context.Background()
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(3), Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Hour)},
		TimeoutPolicy: orreryv1.TimeoutPolicy_TIMEOUT_POLICY_RANDOM})
	_, stream, d := seatToAct(t, h, ctx, created)
	mu.Lock()
	now = now.Add(2 * time.Hour)
	mu.Unlock()
	resp := answer(t, stream, bots0(d))
	rej := resp.GetRejected()
	if rej.GetCode() != orreryv1.RejectCode_REJECT_CODE_STALE_DECISION || !strings.Contains(rej.GetReason(), strconv.Quote(d.GetDecisionId())+" passed its deadline") {
		t.Errorf("answer past the deadline: %v, want a stale rejection naming %q", resp, d.GetDecisionId())
	}
}

// owes reports whether seat of m owes a decision.
func owes(m *match.Match, seat engine.Seat) (owed bool) {
	m.Inspect(func(in match.Inspection) { _, _, owed = in.Owed(seat) })
	return owed
}
