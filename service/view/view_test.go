package view

import (
	"context"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/builtin"
	"github.com/orrery/orrery/bots/local"
	"github.com/orrery/orrery/engine"
	_ "github.com/orrery/orrery/engine/games"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// fakeReplays serves replays made by playing matches in process.
type fakeReplays map[string]*orreryv1.GetReplayResponse

func (f fakeReplays) GetReplay(_ context.Context, req *orreryv1.GetReplayRequest) (*orreryv1.GetReplayResponse, error) {
	if req.GetMatchId() == "running" {
		return nil, status.Error(codes.FailedPrecondition, "the match is still running")
	}
	r, ok := f[req.GetMatchId()]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "no match %q", req.GetMatchId())
	}
	return r, nil
}

// played plays a seeded match of game with built-in bots and returns its replay and log.
func played(t testing.TB, game string, seats int, seed uint64) (*orreryv1.GetReplayResponse, []engine.Step) {
	t.Helper()
	players := make([]bots.Bot, seats)
	for i := range players {
		b, err := builtin.New(game, builtin.Names(game)[0], seed+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		players[i] = b
	}
	cfg := engine.Config{Seats: seats, Seed: seed}
	st, log, err := local.Play(game, cfg, players)
	if err != nil {
		t.Fatal(err)
	}
	rep := &orreryv1.GetReplayResponse{
		Match: &orreryv1.MatchSummary{MatchId: game, Game: game, Seats: int32(seats), Status: orreryv1.MatchStatus_MATCH_STATUS_FINISHED},
		Seed:  seed,
	}
	for _, s := range log {
		rep.Steps = append(rep.Steps, &orreryv1.ReplayStep{Seat: int32(s.Seat), Notation: st.FormatAction(s.Action), Action: wire.Action(st.ActionProto(s.Action))})
	}
	return rep, log
}

// stateAt re-runs log to ply with the engine, the reference the service must agree with.
func stateAt(t testing.TB, game string, seats int, seed uint64, log []engine.Step, ply int) engine.State {
	t.Helper()
	st, err := engine.New(game, engine.Config{Seats: seats, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range log[:ply] {
		if err := engine.ApplyStep(st, s); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func TestGetView_MatchesTheEngineAtEveryViewerAndPly(t *testing.T) {
	const seats, seed = 3, 11
	replays := fakeReplays{}
	logs := map[string][]engine.Step{}
	for _, game := range []string{"icetraders", "planet"} {
		replays[game], logs[game] = played(t, game, seats, seed)
	}
	svc := New(replays)
	for _, game := range []string{"icetraders", "planet"} {
		log := logs[game]
		for _, ply := range []int{0, 1, len(log) / 2, len(log)} {
			for _, viewer := range []engine.Seat{engine.Spectator, 0, 2} {
				req := &orreryv1.GetViewRequest{MatchId: game, Ply: int64(ply)}
				if viewer >= 0 {
					req.Viewer, req.Seat = orreryv1.Viewer_VIEWER_SEAT, int32(viewer)
				}
				got, err := svc.GetView(context.Background(), req)
				if err != nil {
					t.Fatalf("%s ply %d seat %d: %v", game, ply, viewer, err)
				}
				st := stateAt(t, game, seats, seed, log, ply)
				want := wire.Observation(st.Observe(viewer))
				if !proto.Equal(got.GetObservation(), want) {
					t.Errorf("%s ply %d viewer %d: the observation differs from the engine's", game, ply, viewer)
				}
				// As the server numbers them: the events of the steps, not those of the start.
				wantEvents := st.EventCount() - stateAt(t, game, seats, seed, log, 0).EventCount()
				if got.GetEventCount() != int64(wantEvents) || len(got.GetEvents()) != wantEvents {
					t.Errorf("%s ply %d: %d events (count %d), want %d", game, ply, len(got.GetEvents()), got.GetEventCount(), wantEvents)
				}
				if got.GetPlies() != int64(len(log)) {
					t.Errorf("%s: plies %d, want %d", game, got.GetPlies(), len(log))
				}
			}
		}
	}
}

func TestGetView_SeatSeesOnlyItsOwnAlignment(t *testing.T) {
	rep, _ := played(t, "icetraders", 3, 5)
	svc := New(fakeReplays{"icetraders": rep})
	// After the alignments are chosen and before the end, seat 0 knows its own alignment only.
	ply := int64(3)
	got, err := svc.GetView(context.Background(), &orreryv1.GetViewRequest{MatchId: "icetraders", Ply: ply, Viewer: orreryv1.Viewer_VIEWER_SEAT, Seat: 0})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range got.GetObservation().GetIcetraders().GetPlayers() {
		known := p.GetAlignment() != 0
		if known != (p.GetSeat() == 0) {
			t.Errorf("seat 0's view at ply %d: seat %d's alignment known=%v", ply, p.GetSeat(), known)
		}
	}
	spec, err := svc.GetView(context.Background(), &orreryv1.GetViewRequest{MatchId: "icetraders", Ply: ply})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range spec.GetObservation().GetIcetraders().GetPlayers() {
		if p.GetAlignment() != 0 {
			t.Errorf("the spectator's view at ply %d shows seat %d's alignment", ply, p.GetSeat())
		}
	}
}

func TestGetView_MaxEventsKeepsTheLatest(t *testing.T) {
	rep, log := played(t, "planet", 2, 6)
	svc := New(fakeReplays{"m": rep})
	all, err := svc.GetView(context.Background(), &orreryv1.GetViewRequest{MatchId: "m", Ply: int64(len(log))})
	if err != nil {
		t.Fatal(err)
	}
	last, err := svc.GetView(context.Background(), &orreryv1.GetViewRequest{MatchId: "m", Ply: int64(len(log)), MaxEvents: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(last.GetEvents()) != 5 || !proto.Equal(last.GetEvents()[4], all.GetEvents()[len(all.GetEvents())-1]) ||
		last.GetEvents()[0].GetSeq() != all.GetEventCount()-5 {
		t.Errorf("max_events 5: %d events from %d, want the last 5 of %d", len(last.GetEvents()), last.GetEvents()[0].GetSeq(), all.GetEventCount())
	}
}

func TestGetView_RefusesBadRequests(t *testing.T) {
	rep, log := played(t, "icetraders", 2, 3)
	svc := New(fakeReplays{"m": rep})
	cases := []struct {
		name string
		req  *orreryv1.GetViewRequest
		code codes.Code
	}{
		{"no match id", &orreryv1.GetViewRequest{}, codes.InvalidArgument},
		{"negative ply", &orreryv1.GetViewRequest{MatchId: "m", Ply: -1}, codes.InvalidArgument},
		{"past the end", &orreryv1.GetViewRequest{MatchId: "m", Ply: int64(len(log)) + 1}, codes.InvalidArgument},
		{"seat out of range", &orreryv1.GetViewRequest{MatchId: "m", Viewer: orreryv1.Viewer_VIEWER_SEAT, Seat: 2}, codes.InvalidArgument},
		{"negative max_events", &orreryv1.GetViewRequest{MatchId: "m", MaxEvents: -1}, codes.InvalidArgument},
		{"negative seat", &orreryv1.GetViewRequest{MatchId: "m", Viewer: orreryv1.Viewer_VIEWER_SEAT, Seat: -1}, codes.InvalidArgument},
		{"unknown viewer", &orreryv1.GetViewRequest{MatchId: "m", Viewer: 9}, codes.InvalidArgument},
		{"unknown match", &orreryv1.GetViewRequest{MatchId: "nope"}, codes.NotFound},
		{"running match", &orreryv1.GetViewRequest{MatchId: "running"}, codes.FailedPrecondition},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := svc.GetView(context.Background(), c.req)
			if status.Code(err) != c.code {
				t.Errorf("got %v, want %v", err, c.code)
			}
		})
	}
}

func TestGetView_OmniscientShowsEveryAlignmentAfterTheEnd(t *testing.T) {
	rep, _ := played(t, "icetraders", 3, 9)
	svc := New(fakeReplays{"m": rep})
	got, err := svc.GetView(context.Background(), &orreryv1.GetViewRequest{MatchId: "m", Ply: 3, Viewer: orreryv1.Viewer_VIEWER_OMNISCIENT})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := engineOmniscient("icetraders"); !ok {
		t.Skip("icetraders has no omniscient view")
	}
	for _, p := range got.GetObservation().GetIcetraders().GetPlayers() {
		if p.GetAlignment() == 0 {
			t.Errorf("the omniscient view hides seat %d's alignment", p.GetSeat())
		}
	}
}

func engineOmniscient(game string) (engine.Omniscient, bool) {
	st, err := engine.New(game, engine.Config{Seats: 2, Seed: 1})
	if err != nil {
		return nil, false
	}
	o, ok := st.(engine.Omniscient)
	return o, ok
}

func BenchmarkGetView_LastPly(b *testing.B) {
	rep, log := played(b, "pantropia", 4, 1)
	svc := New(fakeReplays{"m": rep})
	// As the web page asks: the position and the recent log.
	req := &orreryv1.GetViewRequest{MatchId: "m", Ply: int64(len(log)), MaxEvents: 150}
	for b.Loop() {
		if _, err := svc.GetView(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(log)), "plies")
}

// Views come from checkpoints and a cursor that moves on: any order of plies (forward as a
// replay plays, backward, jumps) must give what the engine re-run from the start gives.
func TestGetView_AnyOrderOfPliesMatchesTheEngine(t *testing.T) {
	const seats, seed = 3, 5
	rep, log := played(t, "pantropia", seats, seed)
	svc := New(fakeReplays{"pantropia": rep})
	n := len(log)
	if n < 3*minEvery {
		t.Fatalf("a match of %d plies has too few checkpoints for this test", n)
	}
	var plies []int
	for p := 0; p <= n; p += 7 { // forward, as playback asks
		plies = append(plies, p)
	}
	for p := n; p >= 0; p -= 61 { // backward, across checkpoints
		plies = append(plies, p)
	}
	plies = append(plies, n/2, n/2+1, n/2+1, 3, n, minEvery, minEvery-1, minEvery+1)
	ref := stateAt(t, "pantropia", seats, seed, log, 0)
	at := 0
	for _, p := range plies {
		if p < at { // the reference only moves forward: re-run it
			ref, at = stateAt(t, "pantropia", seats, seed, log, 0), 0
		}
		for ; at < p; at++ {
			if err := engine.ApplyStep(ref, log[at]); err != nil {
				t.Fatal(err)
			}
		}
		got, err := svc.GetView(context.Background(), &orreryv1.GetViewRequest{MatchId: "pantropia", Ply: int64(p), Viewer: orreryv1.Viewer_VIEWER_SEAT, Seat: 1})
		if err != nil {
			t.Fatalf("ply %d: %v", p, err)
		}
		if !proto.Equal(got.GetObservation(), wire.Observation(ref.Observe(1))) {
			t.Errorf("ply %d: the observation differs from the engine's", p)
		}
	}
}

// BenchmarkGetView_Playback is a replay played forward ply by ply, as the page asks at any
// speed, against a view per ply re-run from the start (the cost before timelines).
func BenchmarkGetView_Playback(b *testing.B) {
	rep, log := played(b, "pantropia", 3, 5)
	svc := New(fakeReplays{"pantropia": rep})
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := i % (len(log) + 1)
		if _, err := svc.GetView(ctx, &orreryv1.GetViewRequest{MatchId: "pantropia", Ply: int64(p), MaxEvents: 30}); err != nil {
			b.Fatal(err)
		}
	}
}
