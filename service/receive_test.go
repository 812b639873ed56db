package service

import (
	"context"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/orrery/orrery/bots/random"
	"github.com/orrery/orrery/bots/sdk"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// seatLog is what one seat's stream delivered: the kinds of message in order, the events,
// and each decision's id and legal count.
type seatLog struct {
	kinds     []string
	events    []*orreryv1.Event
	decisions []string
	counts    []int32
	first     *orreryv1.Decision
}

// playSeatZero plays seat 0 of a seeded 4-seat match, always answering index 0, with recv,
// while random bots that take everything play the other seats; then it joins the ended
// match again from event 0, taking everything, and returns both logs.
func playSeatZero(t *testing.T, recv *orreryv1.Receive) (played, again seatLog) {
	t.Helper()
	h := newHarness(t, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	created := h.create(&orreryv1.CreateMatchRequest{Seed: seed(11)})
	for i, s := range created.GetSeats()[1:] {
		go sdk.Play(ctx, h.conn, s.GetToken(), random.New(uint64(i)), sdk.Options{Receive: &orreryv1.Receive{}})
	}
	token := created.GetSeats()[0].GetToken()
	played = readSeat(t, ctx, h, &orreryv1.Join{Token: token, Receive: recv})
	from := int64(0)
	again = readSeat(t, ctx, h, &orreryv1.Join{Token: token, EventsSeen: &from})
	return played, again
}

func readSeat(t *testing.T, ctx context.Context, h *harness, join *orreryv1.Join) seatLog {
	stream, err := h.client.Play(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Join{Join: join}}); err != nil {
		t.Fatal(err)
	}
	var log seatLog
	for {
		resp, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		switch m := resp.GetMsg().(type) {
		case *orreryv1.PlayResponse_Joined:
			log.kinds = append(log.kinds, "joined")
		case *orreryv1.PlayResponse_Accepted:
			log.kinds = append(log.kinds, "accepted")
			log.events = append(log.events, m.Accepted.GetEvents()...)
		case *orreryv1.PlayResponse_Events:
			log.kinds = append(log.kinds, "events")
			log.events = append(log.events, m.Events.GetEvents()...)
		case *orreryv1.PlayResponse_Rejected:
			t.Fatalf("index 0 rejected: %v", m.Rejected)
		case *orreryv1.PlayResponse_Decision:
			d := m.Decision
			log.kinds = append(log.kinds, "decision")
			log.events = append(log.events, d.GetEvents()...)
			log.decisions = append(log.decisions, d.GetDecisionId())
			log.counts = append(log.counts, d.GetLegalCount())
			if log.first == nil {
				log.first = d
			}
			ans := &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: 0}}
			if err := stream.Send(&orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: ans}}); err != nil {
				t.Fatal(err)
			}
		case *orreryv1.PlayResponse_Ended:
			log.kinds = append(log.kinds, "ended")
			return log
		}
	}
}

func TestReceive_QuietSeatGetsEveryEventInFewerMessages(t *testing.T) {
	lean, all := playSeatZero(t, &orreryv1.Receive{OmitLegal: true, OmitLegalNotation: true, OmitText: true, OmitObservation: true, Quiet: true})
	if len(all.events) == 0 || len(lean.events) != len(all.events) {
		t.Fatalf("events: the quiet seat got %d, the seat's whole log has %d", len(lean.events), len(all.events))
	}
	for i := range all.events {
		if lean.events[i].GetSeq() != int64(i) || !proto.Equal(lean.events[i], all.events[i]) {
			t.Fatalf("event %d differs: quiet %v, log %v", i, lean.events[i], all.events[i])
		}
	}
	if len(lean.decisions) == 0 {
		t.Fatal("no decisions")
	}
	for i, n := range lean.counts {
		if n <= 0 {
			t.Errorf("decision %s has legal_count %d", lean.decisions[i], n)
		}
	}
	d := lean.first
	if len(d.GetLegal()) != 0 || len(d.GetLegalNotation()) != 0 || d.GetText() != "" || d.GetObservation() != nil {
		t.Errorf("quiet decision carries what it left out: %d typed, %d notation, text %d bytes, observation %v",
			len(d.GetLegal()), len(d.GetLegalNotation()), len(d.GetText()), d.GetObservation() != nil)
	}
	// One message per change at most: no acknowledgements, events alone only just before the end.
	for i, k := range lean.kinds {
		if k == "accepted" || k == "events" && (i+1 >= len(lean.kinds) || lean.kinds[i+1] != "ended") {
			t.Errorf("quiet stream sent %q at message %d: %v", k, i, lean.kinds)
			break
		}
	}
	if want := len(lean.decisions) + 3; len(lean.kinds) > want {
		t.Errorf("quiet stream sent %d messages for %d decisions, want at most %d", len(lean.kinds), len(lean.decisions), want)
	}
}

func TestReceive_DefaultDecisionCarriesEveryPart(t *testing.T) {
	full, _ := playSeatZero(t, nil)
	f := full.first
	if int(f.GetLegalCount()) != len(f.GetLegal()) || len(f.GetLegal()) != len(f.GetLegalNotation()) || f.GetText() == "" || f.GetObservation() == nil {
		t.Errorf("default decision lacks a part: count %d, %d typed, %d notation, text %d bytes", f.GetLegalCount(), len(f.GetLegal()), len(f.GetLegalNotation()), len(f.GetText()))
	}
	accepted := 0
	for _, k := range full.kinds {
		if k == "accepted" {
			accepted++
		}
	}
	if accepted != len(full.decisions) {
		t.Errorf("default stream acknowledged %d of %d answers", accepted, len(full.decisions))
	}
}

func TestReceive_OmitEventsSendsDecisionsAlone(t *testing.T) {
	lean, all := playSeatZero(t, &orreryv1.Receive{OmitLegal: true, OmitText: true, Quiet: true, OmitEvents: true})
	if len(lean.events) != 0 || len(all.events) == 0 {
		t.Errorf("events: %d sent to a seat that omits them (its log has %d)", len(lean.events), len(all.events))
	}
	if want := len(lean.decisions) + 2; len(lean.kinds) != want {
		t.Errorf("stream sent %d messages for %d decisions, want %d (joined, decisions, ended): %v", len(lean.kinds), len(lean.decisions), want, lean.kinds)
	}
	if lean.first.GetObservation() == nil || len(lean.first.GetLegalNotation()) == 0 {
		t.Error("decision lost a part the seat asked for")
	}
}
