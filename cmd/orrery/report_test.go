package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

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
