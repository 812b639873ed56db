package match

import (
	"bytes"
	"context"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orrery/orrery/engine"
	_ "github.com/orrery/orrery/engine/fccatan"
	_ "github.com/orrery/orrery/engine/pantropia"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// randomLegal is a house bot that answers each decision with a legal action at random.
func randomLegal(seed uint64) func(*orreryv1.PlayResponse) (*orreryv1.Answer, error) {
	rng := rand.New(rand.NewPCG(seed, 3))
	return func(resp *orreryv1.PlayResponse) (*orreryv1.Answer, error) {
		d := resp.GetDecision()
		if d == nil {
			return nil, nil
		}
		return &orreryv1.Answer{DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: rng.Int32N(d.GetLegalCount())}}, nil
	}
}

// turnGame is a game of turns, long enough for a house's replies to be counted.
const turnGame = "pantropia"

// goid is the calling goroutine's number, from its stack's first line.
func goid() uint64 {
	var buf [64]byte
	b := bytes.TrimPrefix(buf[:runtime.Stack(buf[:], false)], []byte("goroutine "))
	n, _ := strconv.ParseUint(string(b[:bytes.IndexByte(b, ' ')]), 10, 64)
	return n
}

// streamSeat is seat 0 played as a Play stream's reader plays it: decisions arrive through
// the seat's sender (Stream), and a goroutine of its own (the reader) applies each answer
// with AnswerHere. It answers every decision with a legal action at random.
type streamSeat struct {
	st        *Seat
	rng       *rand.Rand
	decisions chan *orreryv1.Decision
	end       chan error
	reader    atomic.Uint64 // the reader's goroutine
	fromHere  atomic.Int64  // decisions sent on the reader's goroutine
	sent      atomic.Int64
	limit     int // answers after which read returns nil, if set
}

func playStream(t *testing.T, m *Match) *streamSeat {
	s := &streamSeat{st: m.Connect(0, nil), rng: rand.New(rand.NewPCG(1, 2)), decisions: make(chan *orreryv1.Decision, 64), end: make(chan error, 2)}
	s.st.Stream(func(resp *orreryv1.PlayResponse) error {
		if d := resp.GetDecision(); d != nil {
			s.sent.Add(1)
			if goid() == s.reader.Load() {
				s.fromHere.Add(1)
			}
			s.decisions <- &orreryv1.Decision{DecisionId: d.GetDecisionId(), LegalCount: d.GetLegalCount()}
		}
		return nil
	}, s.end)
	return s
}

// read answers each decision until the match ends (or limit answers), and returns how it ended.
func (s *streamSeat) read(t *testing.T) error {
	s.reader.Store(goid())
	for n := 0; s.limit == 0 || n < s.limit; n++ {
		select {
		case d := <-s.decisions:
			req := &orreryv1.PlayRequest{Msg: &orreryv1.PlayRequest_Answer{Answer: &orreryv1.Answer{
				DecisionId: d.GetDecisionId(), Choice: &orreryv1.Answer_LegalIndex{LegalIndex: s.rng.Int32N(d.GetLegalCount())}}}}
			if err := s.st.AnswerHere(req); err != nil {
				return err
			}
		case err := <-s.end:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("seat 0 waited 10 s for a decision or the end: the match stalled")
		}
	}
	return nil
}

// A quick house bot that a stream's answer wakes is played on the stream's reader, and the
// decision its answer gives the stream is sent from there too: no hand-off to another
// goroutine, as an echo server replies on the goroutine that read.
func TestAnswerHere_QuickHousePlaysOnTheReader(t *testing.T) {
	m := newTestMatch(t, turnGame, 3, 5)
	s := playStream(t, m)
	var onReader, replies atomic.Int64
	for seat := engine.Seat(1); seat < 3; seat++ {
		house, bot := m.Connect(seat, nil), randomLegal(uint64(seat))
		go house.Play(context.Background(), func(resp *orreryv1.PlayResponse) (*orreryv1.Answer, error) {
			if resp.GetDecision() != nil {
				replies.Add(1)
				if goid() == s.reader.Load() {
					onReader.Add(1)
				}
			}
			return bot(resp)
		})
	}
	if err := s.read(t); err != nil {
		t.Fatalf("seat 0's stream ended with %v, want nil at the match's end", err)
	}
	if !m.Over() {
		t.Fatal("the stream ended before the match did")
	}
	// Not all: the houses' first decisions come before any answer of seat 0's (and a reply
	// is known to be quick only once one is measured), and a house's decisions while seat 0
	// owes one too (PanTropia's offers) are played on a sender.
	if on, all := onReader.Load(), replies.Load(); on < all/5 {
		t.Errorf("%d of the houses' %d replies ran on seat 0's reader, want a fifth at least", on, all)
	}
	if here, all := s.fromHere.Load(), s.sent.Load(); here < all/5 {
		t.Errorf("%d of seat 0's %d decisions were sent from its reader, want a fifth at least", here, all)
	}
	t.Logf("%d of the houses' %d replies on seat 0's reader; %d of seat 0's %d decisions sent from it",
		onReader.Load(), replies.Load(), s.fromHere.Load(), s.sent.Load())
}

// A house that has just thought long is not played on a reader (quickReply): the reply
// after a slow one always runs on a sender. A match whose house is sometimes slow, sometimes
// quick, plays to its end, every decision of seat 0 answered, with no seat's stream left
// marked running with nothing to send it (a hang).
func TestAnswerHere_HouseSometimesSlowPlaysToTheEnd(t *testing.T) {
	for seed := range uint64(2) {
		m := newTestMatch(t, turnGame, 3, 10+seed)
		s := playStream(t, m)
		var afterSlowOnReader atomic.Int64
		for seat := engine.Seat(1); seat < 3; seat++ {
			house, bot := m.Connect(seat, nil), randomLegal(seed*8+uint64(seat))
			var n atomic.Int64
			var lastSlow atomic.Bool
			go house.Play(context.Background(), func(resp *orreryv1.PlayResponse) (*orreryv1.Answer, error) {
				if resp.GetDecision() == nil {
					return nil, nil
				}
				if lastSlow.Load() && goid() == s.reader.Load() {
					afterSlowOnReader.Add(1)
				}
				slow := n.Add(1)%3 == 0
				if slow { // thinks past quickReply (a sleep may last a millisecond)
					for t0 := time.Now(); time.Since(t0) < 2*quickReply; {
					}
				}
				lastSlow.Store(slow)
				return bot(resp)
			})
		}
		if err := s.read(t); err != nil {
			t.Fatalf("seed %d: seat 0's stream ended with %v, want nil", seed, err)
		}
		if !m.Over() {
			t.Fatalf("seed %d: the stream ended before the match did", seed)
		}
		if k := afterSlowOnReader.Load(); k > 0 {
			t.Errorf("seed %d: %d replies right after a slow one ran on seat 0's reader", seed, k)
		}
	}
}

// While the reader's own seat owes a decision, a house its answer wakes is played by a
// sender, not the reader: the reader must be free to read that answer. In Full-Contact
// Catan every seat decides each tick, and the last answer of a tick gives every seat its
// next decision: a house woken by seat 0's answer is then never played on seat 0's reader.
func TestAnswerHere_ReaderThatOwesADecisionLeavesTheHouseToASender(t *testing.T) {
	for seed := range uint64(3) {
		m := newTestMatch(t, "fccatan", 3, 20+seed)
		s := playStream(t, m)
		s.limit = 300 // ticks enough: a match is thousands
		var wrong, onReader atomic.Int64
		ctx, stop := context.WithCancel(context.Background())
		var houses sync.WaitGroup
		for seat := engine.Seat(1); seat < 3; seat++ {
			house, bot := m.Connect(seat, nil), randomLegal(seed*8+uint64(seat))
			houses.Go(func() {
				house.Play(ctx, func(resp *orreryv1.PlayResponse) (*orreryv1.Answer, error) {
					if resp.GetDecision() != nil && goid() == s.reader.Load() {
						onReader.Add(1)
						m.mu.Lock()
						owes := m.seats[0].pending != nil
						m.mu.Unlock()
						if owes {
							wrong.Add(1)
						}
					}
					return bot(resp)
				})
			})
		}
		if err := s.read(t); err != nil {
			t.Fatalf("seed %d: seat 0's stream ended with %v, want nil", seed, err)
		}
		stop()
		houses.Wait()
		if w := wrong.Load(); w > 0 {
			t.Errorf("seed %d: the house was given %d decisions on seat 0's reader while seat 0 owed one (%d on it in all)", seed, w, onReader.Load())
		}
	}
}
