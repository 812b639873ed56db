package service

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"
	"weak"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
)

// joinEnd joins with token and reads until the stream ends: the MatchEnded it got, or the
// stream's error.
func joinEnd(ctx context.Context, h *harness, token string) (*orreryv1.MatchEnded, error) {
	stream, err := h.client.Play(ctx)
	if err != nil {
		return nil, err
	}
	if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: &orreryv1.Join{Token: token}}}); err != nil {
		return nil, err
	}
	for {
		resp, err := stream.Recv()
		if err != nil {
			return nil, err
		}
		if e := resp.GetEnded(); e != nil {
			return e, nil
		}
	}
}

// A seat of a stored match is always recognised. The soak's open failure: a bot whose stream
// a kill -9 cut before it read MatchEnded rejoined the restarted server, which resumes only
// unfinished matches, and was refused as "unknown seat token". It is told how the match
// ended, with the seed revealed, exactly as the seats that were still connected were.
func TestJoin_EndedMatchAfterRestartTellsTheSeatItsResult(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db := memStore(t)
	before := newHarness(t, Config{Store: db})
	created := before.create(&orreryv1.CreateMatchRequest{Seed: seed(7)})
	ends := before.playRandom(ctx, created, nil)
	before.srv.Close() // the result is stored; the server goes away

	after := newHarness(t, Config{Store: db})
	for i, st := range created.GetSeats() {
		got, err := joinEnd(ctx, after, st.GetToken())
		if err != nil {
			t.Errorf("seat %d rejoining after the restart: %v; want MatchEnded", i, err)
			continue
		}
		got.Seat = ends[i].GetSeat()
		if !proto.Equal(got, ends[i]) {
			t.Errorf("seat %d told %v after the restart; it was told %v", i, got, ends[i])
		}
	}
	// The SDK's own rejoin sees the end and stops, rather than failing the bot.
	end, err := sdk.Play(ctx, after.conn, created.GetSeats()[0].GetToken(), random.New(1), sdk.Options{})
	if err != nil || end.GetResult() == nil {
		t.Errorf("sdk.Play after the end = %v, %v", end, err)
	}
	// A token of no stored match is still a stranger.
	if _, err := joinEnd(ctx, after, randomToken()); status.Code(err) != codes.Unauthenticated {
		t.Errorf("an unknown token: %v, want Unauthenticated", err)
	}
}

// A match's tokens are durable before CreateMatch answers: a server that stops at once after
// it (nothing of the match played) resumes the match, and its seats join and play it out.
func TestJoin_MatchCreatedJustBeforeARestartResumes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db := memStore(t)
	before := newHarness(t, Config{Store: db})
	created := before.create(&orreryv1.CreateMatchRequest{Seed: seed(8)})
	before.srv.Close()

	after := newHarness(t, Config{Store: db})
	for i, end := range after.playRandom(ctx, created, nil) {
		if end.GetResult() == nil {
			t.Errorf("seat %d: no result after the restart", i)
		}
	}
}

// released waits until the server has dropped match id from memory.
func released(ctx context.Context, t *testing.T, s *Server, id string) {
	t.Helper()
	for s.reg.lookup(id) != nil {
		if ctx.Err() != nil {
			t.Fatalf("match %s still in memory after it ended and its seats left", id)
		}
		time.Sleep(time.Millisecond)
	}
}

// An ended match leaves memory once its result is stored and no seat is connected, and every
// call is then served from the store as before: the same summary (each seat's timeouts and
// time bank included), the replay, a spectator's end, a seat's end.
func TestRelease_EndedMatchLeavesMemoryAndIsServedFromTheStore(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := newHarness(t, Config{Store: memStore(t)})
	// A short clock with no bank, and one seat absent: its decisions time out.
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(9), Seats: 2,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(20 * time.Millisecond), TimeBank: durationpb.New(0)}})
	id := created.GetMatchId()
	ends := h.playRandom(ctx, created, map[int]bool{1: true})
	inMemory, err := h.srv.AwaitEnd(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	replayBefore, err := h.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
	if err != nil {
		t.Fatal(err)
	}
	released(ctx, t, h.srv, id)

	got, err := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: id})
	if err != nil {
		t.Fatal(err)
	}
	disconnected(inMemory, got.GetMatch())
	if !proto.Equal(got.GetMatch(), inMemory) {
		t.Errorf("summary from the store:\n%v\nin memory it was:\n%v", got.GetMatch(), inMemory)
	}
	if inMemory.GetSeatInfo()[1].GetTimeouts() == 0 {
		t.Errorf("the absent seat has no timeouts: %v", inMemory.GetSeatInfo()[1])
	}
	replay, err := h.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id})
	disconnected(replay.GetMatch(), replayBefore.GetMatch())
	if err != nil || !proto.Equal(replay, replayBefore) {
		t.Errorf("replay from the store differs (%v)", err)
	}
	w, err := h.client.Watch(ctx, &orreryv1.WatchRequest{MatchId: id})
	if err != nil {
		t.Fatal(err)
	}
	for {
		resp, err := w.Recv()
		if err != nil {
			t.Fatalf("Watch of a released match: %v", err)
		}
		if e := resp.GetEnded(); e != nil {
			if e.GetSeed() != 9 || !proto.Equal(e.GetResult(), ends[0].GetResult()) {
				t.Errorf("a spectator is told %v", e)
			}
			break
		}
	}
	if e, err := joinEnd(ctx, h, created.GetSeats()[1].GetToken()); err != nil || !proto.Equal(e.GetResult(), ends[0].GetResult()) {
		t.Errorf("the absent seat joining after the release: %v, %v", e, err)
	}
	released(ctx, t, h.srv, id) // a seat's rejoin rebuilds it for that stream only
}

// disconnected clears whether each seat is connected in the summaries: in memory a seat
// that has been told the end may not have left yet, and none is connected to a match
// served from the store.
func disconnected(sums ...*orreryv1.MatchSummary) {
	for _, sum := range sums {
		for _, si := range sum.GetSeatInfo() {
			si.Connected = false
		}
	}
}

// Without a store nothing else could serve an ended match: it stays in memory.
func TestRelease_WithoutAStoreTheMatchStays(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := newHarness(t, Config{})
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(10)})
	h.playRandom(ctx, created, nil)
	if h.srv.reg.lookup(created.GetMatchId()) == nil {
		t.Error("an ended match left memory with no store to serve it from")
	}
}

// timeoutLog plays a match of seed that nobody joins, every decision taken by the timeout
// policy, restarting the server once its log holds restartAt steps (0: never), and returns
// the stored log and the summary.
func timeoutLog(t *testing.T, seedValue uint64, restartAt int64) ([]store.Step, *orreryv1.MatchSummary) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db := memStore(t)
	h := newHarness(t, Config{Store: db})
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(seedValue), Seats: 2,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Millisecond), TimeBank: durationpb.New(0)}})
	id := created.GetMatchId()
	if restartAt > 0 {
		for {
			got, err := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: id})
			if err != nil {
				t.Fatal(err)
			}
			if got.GetMatch().GetPly() >= restartAt {
				break
			}
			if got.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_RUNNING {
				t.Fatalf("the match ended at ply %d, before the restart", got.GetMatch().GetPly())
			}
			time.Sleep(time.Millisecond)
		}
		h.srv.Close()
		h = newHarness(t, Config{Store: db})
	}
	sum, err := h.srv.AwaitEnd(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := db.Steps(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return steps, sum
}

// A restart changes nothing a match would have done without it: the timeout policy's random
// choices go on from where they stood (before, its generator started again from the seed at
// every resume, so a match with timeouts before a kill -9 went on differently from the same
// match uninterrupted), and each seat's timeouts are counted across it.
func TestResume_TimeoutPolicyChoosesAsWithoutARestart(t *testing.T) {
	clean, cleanSum := timeoutLog(t, 11, 0)
	restarted, restartedSum := timeoutLog(t, 11, 12)
	if len(clean) != len(restarted) {
		t.Errorf("%d steps with a restart, %d without", len(restarted), len(clean))
	}
	for i := range min(len(clean), len(restarted)) {
		a, b := clean[i], restarted[i]
		if a.Seat != b.Seat || a.Notation != b.Notation || a.TimedOut != b.TimedOut {
			t.Fatalf("step %d: %d %q with a restart, %d %q without", i, b.Seat, b.Notation, a.Seat, a.Notation)
		}
	}
	for i, si := range cleanSum.GetSeatInfo() {
		if got := restartedSum.GetSeatInfo()[i].GetTimeouts(); got != si.GetTimeouts() || got == 0 {
			t.Errorf("seat %d: %d timeouts with a restart, %d without", i, got, si.GetTimeouts())
		}
	}
}

// A released match is garbage: nothing of the server keeps it alive. (Before, the store
// writer's reused batch buffer held the callback of the match's result, and with it the
// whole match, until a later batch as long overwrote it.)
func TestRelease_ReleasedMatchIsCollected(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := newHarness(t, Config{Store: memStore(t)})
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(12)})
	gone := weak.Make(h.srv.reg.lookup(created.GetMatchId()))
	h.playRandom(ctx, created, nil)
	released(ctx, t, h.srv, created.GetMatchId())
	h.srv.Sync()
	// The seats' stream handlers let go of it as they return, a moment after the release.
	for runtime.GC(); gone.Value() != nil; runtime.GC() {
		if ctx.Err() != nil {
			t.Fatal("a released match is still reachable")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A restarted server that holds its clocks (Config.HoldClocks, as `orrery serve` does) keeps
// the matches it resumed paused until it serves (StartClocks): however long the start took,
// the seat to act then has its whole move time and the bank its log left it.
func TestRestart_ResumedClocksStartWhenTheServerServes(t *testing.T) {
	const perMove, bank = time.Minute, 30 * time.Second
	path, created := answeredAndStopped(t, &orreryv1.CreateMatchRequest{Seed: seed(13),
		Clock: &orreryv1.Clock{PerMove: durationpb.New(perMove), TimeBank: durationpb.New(bank)}})
	ctx := context.Background()
	db2, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	h2 := newHarness(t, Config{Store: db2, HoldClocks: true, Now: clock})
	status := func() orreryv1.MatchStatus {
		got, err := h2.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()})
		if err != nil {
			t.Fatal(err)
		}
		return got.GetMatch().GetStatus()
	}
	if got := status(); got != orreryv1.MatchStatus_MATCH_STATUS_PAUSED {
		t.Fatalf("resumed and not yet serving: status %v, want paused", got)
	}
	// The start takes ten minutes: far past the move time and the bank.
	mu.Lock()
	now = now.Add(10 * time.Minute)
	mu.Unlock()
	h2.srv.StartClocks()
	if got := status(); got != orreryv1.MatchStatus_MATCH_STATUS_RUNNING {
		t.Fatalf("serving: status %v, want running", got)
	}
	_, stream2, d2 := seatToAct(t, h2, ctx, created)
	if got, want := d2.GetDeadline().AsTime(), clock().Add(perMove+bank); !got.Equal(want) {
		t.Errorf("deadline %v after the clocks start; want %v (the whole move time and bank from then)", got, want)
	}
	if got := d2.GetTimeBank().AsDuration(); got != bank {
		t.Errorf("bank %v; want %v, as the log left it", got, bank)
	}
	if resp := answer(t, stream2, bots0(d2)); resp.GetAccepted() == nil {
		t.Fatalf("answer in time after the restart: %v", resp)
	}
}

// The reproduction: a final join (the match over and served from the store) without
// events_seen was sent every event from 0. One seat is played by hand, reading every event,
// and leaves at the end; once the match has left memory its final join is sent the events
// from the last one its last answer acknowledged (those sent before its last decision), in
// order, to the end.
func TestJoin_FinalJoinSendsTheEventsSinceTheLastAcknowledged(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := newHarness(t, Config{Store: memStore(t)})
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(14), Seats: 2})
	other := make(chan error, 1)
	go func() {
		_, err := sdk.Play(ctx, h.conn, created.GetSeats()[1].GetToken(), random.New(2), sdk.Options{})
		other <- err
	}()
	stream := h.join(ctx, created.GetSeats()[0].GetToken())
	var seen, acked int64 // events read, and read before the last decision answered
	for ended := false; !ended; {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatalf("seat 0: %v", err)
		}
		switch m := resp.GetMsg().(type) {
		case *orreryv1.PlayResponse_Decision:
			seen += int64(len(m.Decision.GetEvents()))
			acked = seen
			if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: bots0(m.Decision)}}); err != nil {
				t.Fatal(err)
			}
		case *orreryv1.PlayResponse_Accepted:
			seen += int64(len(m.Accepted.GetEvents()))
		case *orreryv1.PlayResponse_Events:
			seen += int64(len(m.Events.GetEvents()))
		case *orreryv1.PlayResponse_Ended:
			ended = true
		}
	}
	stream.CloseSend()
	if err := <-other; err != nil {
		t.Fatal(err)
	}
	if acked == 0 || acked == seen {
		t.Fatalf("seat 0 read %d events, %d before its last decision: the seed no longer gives events after it", seen, acked)
	}
	released(ctx, t, h.srv, created.GetMatchId())

	final := h.join(ctx, created.GetSeats()[0].GetToken())
	var events []*orreryv1.Event
	for {
		resp, err := final.Recv()
		if err != nil {
			t.Fatalf("final join: %v", err)
		}
		events = append(events, resp.GetEvents().GetEvents()...)
		if resp.GetEnded() != nil {
			break
		}
	}
	if int64(len(events)) != seen-acked {
		t.Errorf("the final join was sent %d events, want the %d after the last acknowledged (of %d)", len(events), seen-acked, seen)
	}
	for i, e := range events {
		if e.GetSeq() != acked+int64(i) {
			t.Fatalf("final join's event %d has seq %d, want %d: from the first not acknowledged, in order", i, e.GetSeq(), acked+int64(i))
		}
	}
}
