package service

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
	"github.com/orrery/orrery/service/match"
)

// playInProcess plays every seat of a new 2-seat match of testGame with random bots through
// Seat.Play, as the ladder's house seats are, to its end; check, if
// set, sees every decision first.
func playInProcess(t *testing.T, srv *Server, n uint64, check func(*match.Match, engine.Seat, *orreryv1.Decision)) {
	t.Helper()
	ctx := context.Background()
	id, tokens, _, err := srv.Create(ctx, MatchSpec{Game: testGame, Seats: 2, Seed: &n,
		Clock: &orreryv1.Clock{PerMove: durationpb.New(time.Minute)}})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i, tok := range tokens {
		seat, err := srv.Attach(tok, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := random.New(n*7 + uint64(i))
		reply := func(resp *orreryv1.PlayResponse) (*orreryv1.Answer, error) {
			d := resp.GetDecision()
			if d == nil {
				return nil, nil
			}
			if check != nil {
				check(srv.reg.lookup(id), engine.Seat(i), d)
			}
			return r.Act(d), nil
		}
		wg.Go(func() {
			defer seat.Detach()
			if err := seat.Play(ctx, reply); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}

// A seat whose decision lists a recurring legal list (every match opens with the same
// choices) holds the list shared by every match, not a copy; its next decisions, and the
// seats of later matches reusing its decision (Server.recycle), write lists of their own and
// never into the shared one.
func TestRefresh_SharedLegalListIsNeverWritten(t *testing.T) {
	srv, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	// The lists of the match's opening choices: alignments, then opening picks.
	var openings [][]engine.Action
	st, err := engine.New(testGame, engine.Config{Seats: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for range 4 {
		seat := st.ToAct(nil)[0]
		legal := st.Legal(seat, nil)
		openings = append(openings, legal)
		if err := st.Apply(seat, legal[0]); err != nil {
			t.Fatal(err)
		}
	}
	shared := make([][]engine.Action, len(openings))
	for n := range uint64(12) {
		playInProcess(t, srv, n, nil)
		cache := srv.actionCache(testGame, nil)
		for i, opening := range openings {
			if shared[i] == nil {
				shared[i] = cache.SharedList(opening, wire.ListHash(opening))
			} else if !slices.Equal(shared[i], opening) {
				t.Fatalf("after match %d the shared list of choice %d reads %v; want %v", n, i, shared[i], opening)
			}
		}
	}
	if shared[0] == nil || shared[2] == nil {
		t.Fatal("the opening lists were never shared")
	}
}

// A seat run in process that lends its decisions back (Seat.Lend) has each built in the
// memory of its last, view and all: every one is still exactly its seat's decision as the
// match stood.
func TestRun_LentDecisionsAreEachBuiltAfresh(t *testing.T) {
	srv, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	total := 0
	for n := range uint64(6) {
		var once sync.Once // the match is known once its seats play
		var check func(engine.Seat, *orreryv1.Decision)
		var checked func() int
		playInProcess(t, srv, n, func(m *match.Match, seat engine.Seat, d *orreryv1.Decision) {
			once.Do(func() { check, checked = decisionChecker(t, m, nil) })
			check(seat, d)
		})
		total += checked()
	}
	if total < 24 {
		t.Errorf("checked %d decisions; want the matches'", total)
	}
}
