package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots"
	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

func TestBotReport_SummarisesASeatsThinkTimesTimeoutsRejectionsAndNotes(t *testing.T) {
	r := &orreryv1.GetReplayResponse{Match: &orreryv1.MatchSummary{
		MatchId: "m1", Game: "icetraders", Seats: 2,
		SeatInfo: []*orreryv1.SeatInfo{{Seat: 0, Name: "alice"}, {Seat: 1, Name: "bob"}},
		Result:   &orreryv1.Result{Ranks: []int32{2, 1}},
	}}
	for i := range 100 {
		s := &orreryv1.ReplayStep{Seat: int32(i % 2), Notation: "pass"}
		switch {
		case i == 40:
			s.TimedOut = orreryv1.TimeoutPolicy_TIMEOUT_POLICY_RANDOM
		default:
			s.ThinkTime = durationpb.New(time.Duration(i+1) * time.Millisecond)
		}
		if i == 10 {
			s.Rejections = []orreryv1.RejectCode{orreryv1.RejectCode_REJECT_CODE_ILLEGAL, orreryv1.RejectCode_REJECT_CODE_MALFORMED, orreryv1.RejectCode_REJECT_CODE_ILLEGAL}
		}
		if i%10 == 0 {
			s.Note = "note " + string(rune('a'+i/10))
		}
		r.Steps = append(r.Steps, s)
	}
	rep, err := reportSeat(r, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Seat 0 made steps 0, 2, ..., 98, step 40 by its clock: 49 think times of 1, 3, ... ms
	// without 41.
	if rep.Name != "alice" || rep.Rank != 2 || rep.Decisions != 50 || rep.Answered != 49 || rep.Timeouts != 1 {
		t.Errorf("report: %+v", rep)
	}
	if rep.ThinkP50 != 51 || rep.ThinkP99 != 99 || rep.ThinkMax != 99 {
		t.Errorf("think p50 %g, p99 %g, max %g: want 51, 99, 99", rep.ThinkP50, rep.ThinkP99, rep.ThinkMax)
	}
	if rep.Rejections["illegal"] != 2 || rep.Rejections["malformed"] != 1 || rep.Policies["random"] != 1 {
		t.Errorf("rejections %v, policies %v", rep.Rejections, rep.Policies)
	}
	if len(rep.LastNotes) != lastNotes || rep.LastNotes[lastNotes-1] != (reportNote{Step: 90, Note: "note j"}) {
		t.Errorf("last notes %v", rep.LastNotes)
	}
	var out bytes.Buffer
	printReport(&out, rep)
	for _, want := range []string{"seat 0: alice, rank 2", "p50 51.0 ms, p99 99.0 ms", "timeouts 1 (chosen by 1 random)", "rejected answers 3 (2 illegal, 1 malformed)", `step 90: "note j"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if _, err := reportSeat(r, 2); err == nil {
		t.Error("seat 2 of 2 reported")
	}
}

// TestReplay_PrintsNotesAndThinkTimes: a bot's notes and the think times the server measured
// round-trip through the stored replay: orrery replay prints them from the database, and
// orrery bot report sums them up from the server.
func TestReplay_PrintsNotesAndThinkTimes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "orrery.db")
	a, err := startArena(arenaConfig{addr: "127.0.0.1:0", dbPath: db})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := a.dial()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	nine := uint64(9)
	created, err := orreryv1.NewArenaServiceClient(conn).CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: "planet", Seats: 2, Seed: &nine})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for s, tok := range created.GetSeats() {
		r := random.New(uint64(s))
		bot := bots.Func(func(d *orreryv1.Decision) *orreryv1.Answer {
			return bots.Noted(r.Act(d), "seat %d weighed %d placements", s, bots.Count(d))
		})
		wg.Go(func() {
			if _, err := sdk.Play(ctx, conn, tok.GetToken(), bot, sdk.Options{}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	var report bytes.Buffer
	if err := runCmd(ctx, "bot", &report, []string{"report", created.GetMatchId(), "--server", a.lis.Addr().String(), "--seat", "1"}); err != nil {
		t.Fatalf("%v\n%s", err, report.String())
	}
	for _, want := range []string{"seat 1:", "decisions 12, answered 12; think time p50 ", "timeouts 0", "rejected answers 0", `"seat 1 weighed `} {
		if !strings.Contains(report.String(), want) {
			t.Errorf("bot report lacks %q:\n%s", want, report.String())
		}
	}
	conn.Close()
	a.stop()
	var out bytes.Buffer
	if err := runCmd(ctx, "replay", &out, []string{created.GetMatchId(), "--db", db}); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	noted := regexp.MustCompile(`(?m)^ +\d+  seat 0: tile \d+ face \d+ rot \d   \[\d+\.\d ms\]\n +note "seat 0 weighed \d+ placements"$`)
	if n := len(noted.FindAllString(out.String(), -1)); n != 12 {
		t.Errorf("%d of seat 0's 12 moves printed with a think time and a note:\n%s", n, out.String())
	}
}
