package service

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
)

// fullDisk is the store seen through a disk that fills up: while full, every write fails
// with ENOSPC, as SQLite reports a full file system. It counts the failed result writes.
type fullDisk struct {
	db            *store.DB
	full          atomic.Bool
	failedResults atomic.Int32
	failedOnce    chan struct{}
	once          sync.Once
}

func (f *fullDisk) fail() error {
	f.once.Do(func() { close(f.failedOnce) })
	return fmt.Errorf("disk I/O error: %w", syscall.ENOSPC)
}

func (f *fullDisk) WriteBatch(ctx context.Context, b store.Batch) error {
	if f.full.Load() {
		f.failedResults.Add(int32(len(b.Results)))
		return f.fail()
	}
	return f.db.WriteBatch(ctx, b)
}

// A result is told only once it is stored: while the disk is full the match's end reaches
// nobody, new matches are refused, and the match shows PAUSED; once the disk has room the
// result is written and then told, and what every seat was told is what the database holds.
func TestStoreFull_ResultToldOnlyOnceStored(t *testing.T) {
	db := memStore(t)
	disk := &fullDisk{db: db, failedOnce: make(chan struct{})}
	h := newHarness(t, Config{Store: db, logStore: disk})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	created := h.create(&orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Hour)}})
	id := created.GetMatchId()

	// Seat 0 is a bot; seat 1 is played here, and the disk fills before its last action.
	var told atomic.Int32
	ends := make([]*orreryv1.MatchEnded, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		end, err := sdk.Play(ctx, h.conn, created.GetSeats()[0].GetToken(), random.New(0), sdk.Options{})
		if err != nil {
			t.Error(err)
		}
		ends[0] = end
		told.Add(1)
	}()
	stream := h.join(ctx, created.GetSeats()[1].GetToken())
	for {
		d, _ := nextDecision(t, stream)
		last := d.GetPly() == 7
		if last {
			h.srv.Sync()
			disk.full.Store(true)
		}
		if resp := answer(t, stream, &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}}); resp.GetAccepted() == nil {
			t.Fatalf("answer: %v", resp)
		}
		if last {
			break
		}
	}
	go func() {
		defer wg.Done()
		for {
			resp, err := stream.Recv()
			if err != nil {
				t.Errorf("seat 1 stream: %v", err)
				return
			}
			if e := resp.GetEnded(); e != nil {
				ends[1] = e
				told.Add(1)
				return
			}
		}
	}()
	<-disk.failedOnce // the last step's write failed: the result waits behind it
	// The match ended in memory, but its result is not stored: nobody hears of it.
	got, err := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: id})
	if err != nil || got.GetMatch().GetStatus() == orreryv1.MatchStatus_MATCH_STATUS_FINISHED || got.GetMatch().GetResult() != nil {
		t.Errorf("GetMatch while the disk is full = %v, %v; want no result", got, err)
	}
	for got.GetMatch().GetStatus() != orreryv1.MatchStatus_MATCH_STATUS_PAUSED {
		time.Sleep(time.Millisecond)
		got, _ = h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: id})
	}
	if _, err := h.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: id}); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("GetReplay while the result is unstored: %v", err)
	}
	if _, err := h.client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2}); status.Code(err) != codes.Unavailable {
		t.Errorf("CreateMatch while the disk is full: %v, want Unavailable", err)
	}
	if n := told.Load(); n != 0 {
		t.Errorf("%d seats were told the match ended before its result was stored", n)
	}
	if rec, _ := db.Match(ctx, id); rec.Result != nil {
		t.Fatal("the result was stored through a full disk")
	}

	disk.full.Store(false) // room again
	wg.Wait()
	rec, err := db.Match(ctx, id)
	if err != nil || rec.Result == nil {
		t.Fatalf("stored match %v, %v: no result", rec, err)
	}
	for seat, e := range ends {
		if e == nil || !proto.Equal(e.GetResult(), summaryFromStore(rec).GetResult()) {
			t.Errorf("seat %d was told %v; the database holds %v", seat, e.GetResult(), rec.Result)
		}
	}
	if _, err := h.client.CreateMatch(ctx, &orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2}); err != nil {
		t.Errorf("CreateMatch after the disk has room: %v", err)
	}
}

// While the store cannot write, a running match pauses: its clock stops (no timeout fires),
// answers are refused as stale, and it goes on with fresh decisions when writes work again.
func TestStoreFull_RunningMatchesPauseAndResume(t *testing.T) {
	db := memStore(t)
	disk := &fullDisk{db: db, failedOnce: make(chan struct{})}
	h := newHarness(t, Config{Store: db, logStore: disk})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	created := h.create(&orreryv1.CreateMatchRequest{Game: "test-repeat", Seats: 2,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Hour)}})
	stream := h.join(ctx, created.GetSeats()[0].GetToken())
	d, _ := nextDecision(t, stream)
	disk.full.Store(true)
	resp := answer(t, stream, &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}})
	if resp.GetAccepted() == nil {
		t.Fatalf("first answer: %v", resp)
	}
	<-disk.failedOnce // the step's write failed: the match pauses
	var paused *orreryv1.Decision
	for {
		got, _ := h.client.GetMatch(ctx, &orreryv1.GetMatchRequest{MatchId: created.GetMatchId()})
		if got.GetMatch().GetStatus() == orreryv1.MatchStatus_MATCH_STATUS_PAUSED {
			break
		}
		time.Sleep(time.Millisecond)
	}
	paused, _ = nextDecision(t, stream)
	resp = answer(t, stream, &orreryv1.Answer{DecisionId: paused.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}})
	if resp.GetRejected().GetCode() != orreryv1.RejectCode_REJECT_CODE_STALE_DECISION {
		t.Errorf("answer while paused: %v, want STALE_DECISION", resp)
	}
	disk.full.Store(false)
	next, _ := nextDecision(t, stream)
	if next.GetDecisionId() == paused.GetDecisionId() {
		t.Errorf("decision %s issued again under its old id", next.GetDecisionId())
	}
	resp = answer(t, stream, &orreryv1.Answer{DecisionId: next.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}})
	if resp.GetAccepted() == nil {
		t.Errorf("answer after resuming: %v", resp)
	}
	h.srv.Sync()
	steps, err := db.Steps(ctx, created.GetMatchId())
	if err != nil || len(steps) != 2 {
		t.Errorf("stored %d steps, %v; want both answers", len(steps), err)
	}
}
