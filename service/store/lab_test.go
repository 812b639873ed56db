package store

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// A step's think time, rejections, note and a hosted bot's CPU are kept with it in the log
// and in runs; a step
// without them packs as it did before they existed, so rows written by an older server read
// the same and cost the same.
func TestStepLog_KeepsThinkTimeRejectionsAndNotes(t *testing.T) {
	eachBackend(t, testKeepsThinkTimeRejectionsAndNotes)
}

func testKeepsThinkTimeRejectionsAndNotes(t *testing.T, target string) {
	ctx := context.Background()
	db := leaseStore(t, target, "a", "b")
	db.compactAfter = 5
	want := map[string][]Step{}
	for i := range 4 {
		var batch []MatchStep
		for _, m := range []string{"a", "b"} {
			s := Step{Seq: int64(i), Seat: i % 2, Notation: fmt.Sprintf("%s %d", m, i), Bank: time.Second}
			if m == "a" {
				s.Think = time.Duration(i+1) * 1234 * time.Microsecond
				s.Rejected = Rejections(3, 4)[:i%3]
				s.Note = strings.Repeat("é", 200*i) // past 128 bytes: a body of a long length
			}
			if i%2 == 1 {
				s.CPU = time.Duration(i) * 789 * time.Microsecond // in b's steps, alone of the lab
			}
			want[m] = append(want[m], s)
			batch = append(batch, MatchStep{Match: m, Step: s})
		}
		if err := db.AppendStepBatch(ctx, batch); err != nil {
			t.Fatal(err)
		}
		wantSteps(t, db, want, fmt.Sprintf("after batch %d", i))
	}
	if err := db.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	wantSteps(t, db, want, "after Compact")
	if got := want["a"][2].Rejected.Codes(); len(got) != 2 || got[0] != 3 || got[1] != 4 {
		t.Errorf("Codes() = %v, want [3 4]", got)
	}
}

func TestPacked_AStepWithoutTheLabPacksAsBefore(t *testing.T) {
	s := MatchStep{Match: "m", Step: Step{Seq: 7, Seat: 1, Notation: "pass", TimedOut: 1, Bank: time.Second}}
	// The format byte, the match id, then the body: its length, seq, seat, notation,
	// timeout policy and bank, as packed before the lab's fields.
	want := []byte{stepsFormat, 1, 'm', 13, 14, 2, 4, 'p', 'a', 's', 's', 2, 0x80, 0xa8, 0xd6, 0xb9, 0x07}
	if got := appendPacked(nil, []MatchStep{s}); !bytes.Equal(got, want) {
		t.Errorf("packed % x, want % x", got, want)
	}
	s.Note = "n"
	got, err := unpackSteps(nil, appendPacked(nil, []MatchStep{s}), "")
	if err != nil || len(got) != 1 || got[0] != s {
		t.Errorf("with a note: %+v, %v", got, err)
	}
	withCPU := s
	withCPU.CPU = 1500 * time.Microsecond
	if got, err := unpackSteps(nil, appendPacked(nil, []MatchStep{withCPU}), ""); err != nil || len(got) != 1 || got[0] != withCPU {
		t.Errorf("with a CPU time: %+v, %v", got, err)
	}
	// A body cut inside the lab's fields is damaged, not read short.
	b := appendPacked(nil, []MatchStep{s})
	b[3]-- // the body's length, one byte less: the note's byte falls outside it
	if _, err := unpackSteps(nil, b[:len(b)-1], ""); err == nil {
		t.Error("a body cut in its note was read")
	}
}
