package service

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/bots"
	planetbot "github.com/orrery/orrery/bots/planet"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/match"
)

// noting is a bot that writes a note on every answer.
type noting struct {
	bots.Bot
	note func(d *orreryv1.Decision) string
}

func (n noting) Act(d *orreryv1.Decision) *orreryv1.Answer {
	return bots.Noted(n.Bot.Act(d), "%s", n.note(d))
}

// received records what a seat is sent, minus what depends on the clock: each decision
// (without its deadline, bank, round trip, match id and the events, recorded apart), each
// event and
// the end's ranks.
type received struct {
	bots.Bot
	mu  sync.Mutex // guards got
	got []string
}

func (r *received) add(kind string, m proto.Message) {
	b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, kind+" "+string(b))
}

func (r *received) Act(d *orreryv1.Decision) *orreryv1.Answer {
	c := proto.CloneOf(d)
	c.Deadline, c.TimeBank, c.LastRoundTrip, c.Events, c.MatchId = nil, nil, nil, nil, ""
	r.add("decision", c)
	return r.Bot.Act(d)
}

// playNoted plays a three-seat Planet match on seed 17, greedy bots in every seat, seat 0
// writing note(d) on each answer, while a spectator watches. It returns what seats 1 and 2
// were sent, the spectator's views by ply and events by number (both before the end), and
// the match.
func playNoted(t *testing.T, h *harness, note func(*orreryv1.Decision) string) (seats [][]string, views, events map[int64]string, id string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	created := h.create(&orreryv1.CreateMatchRequest{Game: "planet", Seats: 3, Seed: seed(17)})
	w, err := h.client.Watch(ctx, &orreryv1.WatchRequest{MatchId: created.GetMatchId()})
	if err != nil {
		t.Fatal(err)
	}
	views, events = map[int64]string{}, map[int64]string{}
	watched := make(chan error, 1)
	go func() {
		for {
			resp, err := w.Recv()
			if err != nil {
				watched <- err
				return
			}
			b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(resp)
			if note != nil && strings.Contains(string(b), "SECRET") {
				watched <- fmt.Errorf("the spectator was sent a note: %s", b)
				return
			}
			switch m := resp.GetMsg().(type) {
			case *orreryv1.WatchResponse_View:
				v, _ := proto.MarshalOptions{Deterministic: true}.Marshal(m.View)
				views[m.View.GetPly()] = string(v)
			case *orreryv1.WatchResponse_Events:
				for _, e := range m.Events.GetEvents() {
					v, _ := proto.MarshalOptions{Deterministic: true}.Marshal(e)
					events[e.GetSeq()] = string(v)
				}
			case *orreryv1.WatchResponse_Ended:
				watched <- nil
				return
			}
		}
	}()
	rec := []*received{{Bot: planetbot.NewGreedy(2)}, {Bot: planetbot.NewGreedy(3)}}
	var wg sync.WaitGroup
	for s, tok := range created.GetSeats() {
		var b bots.Bot
		o := sdk.Options{}
		if s == 0 {
			b = noting{Bot: planetbot.NewGreedy(1), note: note}
		} else {
			r := rec[s-1]
			b = r
			o.OnEvent = func(e *orreryv1.Event) { r.add("event", e) }
		}
		wg.Go(func() {
			end, err := sdk.Play(ctx, h.conn, tok.GetToken(), b, o)
			if err != nil {
				t.Error(err)
				return
			}
			if s > 0 {
				rec[s-1].add("ranks", end.GetResult())
			}
		})
	}
	wg.Wait()
	if err := <-watched; err != nil {
		t.Fatal(err)
	}
	return [][]string{rec[0].got, rec[1].got}, views, events, created.GetMatchId()
}

// TestLab_ARunningMatchsNotesReachNoOtherSeatNorSpectator: the perturbation test for notes.
// Seat 0's notes change from short to long and secret; nothing seats 1 and 2 are sent
// changes by a byte, nor any view or event a spectator is sent, and no note reaches the
// spectator while the match runs. Once it has ended, the replay holds them.
func TestLab_ARunningMatchsNotesReachNoOtherSeatNorSpectator(t *testing.T) {
	h := newHarness(t, Config{})
	plain, plainViews, plainEvents, _ := playNoted(t, h, func(*orreryv1.Decision) string { return "x" })
	noted, notedViews, notedEvents, id := playNoted(t, h, func(d *orreryv1.Decision) string {
		return "SECRET " + d.GetDecisionId() + " " + strings.Repeat("hidden plans ", 100)
	})
	for s := range plain {
		if !slices.Equal(plain[s], noted[s]) {
			i := 0
			for i < min(len(plain[s]), len(noted[s])) && plain[s][i] == noted[s][i] {
				i++
			}
			t.Errorf("seat %d was sent something else when seat 0's notes changed (%d and %d messages), from message %d:\n%q\n%q", s+1, len(plain[s]), len(noted[s]), i, plain[s][i], noted[s][i])
		}
		if len(plain[s]) < 10 {
			t.Errorf("seat %d was sent %d messages", s+1, len(plain[s]))
		}
	}
	for ply, v := range notedViews {
		if p, ok := plainViews[ply]; ok && p != v {
			t.Errorf("the spectator's view at ply %d changed with seat 0's notes", ply)
		}
	}
	if !maps.Equal(plainEvents, notedEvents) {
		t.Errorf("the spectator's events changed with seat 0's notes")
	}
	rep, err := h.client.GetReplay(context.Background(), &orreryv1.GetReplayRequest{MatchId: id})
	if err != nil {
		t.Fatal(err)
	}
	notes := 0
	for _, st := range rep.GetSteps() {
		switch {
		case st.GetSeat() == 0 && st.GetTimedOut() == orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED:
			notes++
			if !strings.HasPrefix(st.GetNote(), "SECRET ") || len(st.GetNote()) > match.NoteLimit || !strings.HasSuffix(st.GetNote(), "bytes]") {
				t.Fatalf("seat 0's note in the replay: %q (%d bytes)", st.GetNote(), len(st.GetNote()))
			}
			if st.GetThinkTime() == nil {
				t.Errorf("a step of seat 0 without its think time")
			}
		case st.GetNote() != "":
			t.Errorf("seat %d's step holds a note %q", st.GetSeat(), st.GetNote())
		}
	}
	if notes == 0 {
		t.Error("the replay holds none of seat 0's notes")
	}
}

// TestLab_DecisionsCarryTheLastRoundTripAndStepsTheirRejections: a seat's first decision
// carries no round trip; after an answer rejected and one applied, its next decision carries
// the think time the replay's step then holds, with the rejection's code and the note.
func TestLab_DecisionsCarryTheLastRoundTripAndStepsTheirRejections(t *testing.T) {
	h := newHarness(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	created := h.create(&orreryv1.CreateMatchRequest{Game: "planet", Seats: 2, Seed: seed(3)})
	other := make(chan error, 1)
	go func() {
		_, err := sdk.Play(ctx, h.conn, created.GetSeats()[1].GetToken(), planetbot.NewGreedy(1), sdk.Options{})
		other <- err
	}()
	s0 := h.join(ctx, created.GetSeats()[0].GetToken())
	d, _ := nextDecision(t, s0)
	if d.GetLastRoundTrip() != nil {
		t.Errorf("a first decision carries a round trip %v", d.GetLastRoundTrip())
	}
	bad := &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 1 << 20}}
	if r := answer(t, s0, bad); r.GetRejected().GetCode() != orreryv1.RejectCode_REJECT_CODE_MALFORMED {
		t.Fatalf("an index out of range: %v", r)
	}
	time.Sleep(20 * time.Millisecond)
	good := &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}, Note: "first"}
	if r := answer(t, s0, good); r.GetAccepted() == nil {
		t.Fatalf("answer: %v", r)
	}
	next, _ := nextDecision(t, s0)
	trip := next.GetLastRoundTrip().AsDuration()
	if trip < 20*time.Millisecond || trip > time.Minute {
		t.Errorf("the next decision's last round trip is %v, want at least the 20ms slept", trip)
	}
	s0.CloseSend()
	if _, err := sdk.Play(ctx, h.conn, created.GetSeats()[0].GetToken(), planetbot.NewGreedy(2), sdk.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := <-other; err != nil {
		t.Fatal(err)
	}
	rep, err := h.client.GetReplay(ctx, &orreryv1.GetReplayRequest{MatchId: created.GetMatchId()})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range rep.GetSteps() {
		if st.GetSeat() != 0 {
			continue
		}
		if st.GetThinkTime().AsDuration() != trip || st.GetNote() != "first" ||
			!slices.Equal(st.GetRejections(), []orreryv1.RejectCode{orreryv1.RejectCode_REJECT_CODE_MALFORMED}) {
			t.Errorf("seat 0's first step: think %v (the round trip told %v), note %q, rejections %v",
				st.GetThinkTime().AsDuration(), trip, st.GetNote(), st.GetRejections())
		}
		break
	}
}
