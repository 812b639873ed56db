package match

import (
	"slices"
	"sync"
	"time"
)

// Pools are what the matches of one server lend each other, so that a new match's seats
// start with memory an ended one grew. The zero value is ready.
type Pools struct {
	// legalBufs lends matches a buffer to list legal actions into: a match keeps only the
	// lists its seats owe (and their last answered one, to reuse), not a scratch buffer as
	// long as the longest list it ever made.
	legalBufs sync.Pool // *[]engine.Action
	// pendings holds the decisions of ended matches, with their legal lists, for the seats of
	// new ones: a seat's first decisions otherwise grew a list from nothing in every match.
	pendings sync.Pool // *pending
	// decisions holds the decision messages of seats whose streams (or Plays) ended,
	// view memory and all, for the seats of new matches (decisionLocked).
	decisions sync.Pool // *decisionMsg
	// senders are the sender goroutines waiting for a seat with something to send (sendFor).
	senders idleSenders
}

// senderIdle is how long a sender goroutine waits for another seat to send for before it
// ends.
const senderIdle = time.Second

// sendFor runs st's flush on an idle sender goroutine, or on a new one if none is idle: a
// goroutine started for every wake-up grew its stack through gRPC's send path each time
// (7% of a decision's round trip), one kept a while has grown it already. Senders wait
// for nothing else, so a seat whose bot does not read holds up only its own.
func (s *Pools) sendFor(st *Seat) {
	if w := s.senders.pop(); w != nil {
		w <- st
		return
	}
	go s.sender(st, st.m.env.Done)
}

// sender flushes st, then each seat handed to it, until it has waited senderIdle for one
// or the server closes.
func (s *Pools) sender(st *Seat, done <-chan struct{}) {
	next := make(chan *Seat, 1) // sendFor's hand-off: never waits
	idle := time.NewTimer(senderIdle)
	defer idle.Stop()
	for {
		for then := st.flush(nil); then != nil; then = then.flush(nil) {
		}
		s.senders.push(next)
		idle.Reset(senderIdle)
		select {
		case st = <-next:
			continue
		case <-idle.C:
		case <-done:
		}
		if s.senders.remove(next) {
			return
		}
		st = <-next // taken off the stack as it stopped waiting: a seat is on its way
	}
}

// idleSenders is a stack of the idle senders' hand-offs, the last to go idle on top: the
// senders a load keeps busy are reused, stacks grown, and the rest end after senderIdle.
// (Waiting together on one channel, they were woken in turn, so that none was ever idle
// for long enough to end: a server kept hundreds, each wake-up worked through a queue of
// them, and each collection scanned their stacks.)
type idleSenders struct {
	mu   sync.Mutex
	idle []chan *Seat
}

func (p *idleSenders) push(next chan *Seat) {
	p.mu.Lock()
	p.idle = append(p.idle, next)
	p.mu.Unlock()
}

// pop takes the sender that went idle last, or nil.
func (p *idleSenders) pop() chan *Seat {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.idle)
	if n == 0 {
		return nil
	}
	next := p.idle[n-1]
	p.idle[n-1] = nil
	p.idle = p.idle[:n-1]
	return next
}

// remove takes next off the stack, unless pop took it: then a seat is being handed to it.
func (p *idleSenders) remove(next chan *Seat) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	// The longest idle, which time out, are at the bottom.
	i := slices.Index(p.idle, next)
	if i < 0 {
		return false
	}
	p.idle = slices.Delete(p.idle, i, i+1)
	return true
}
