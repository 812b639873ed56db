package match

import (
	"context"
	"sync/atomic"
	"time"

	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// local is the bot of a seat the server plays (Seat.Play), with the answer it owes.
type local struct {
	reply func(*orreryv1.PlayResponse) (*orreryv1.Answer, error)
	// answer is the last answer the bot gave to the messages just sent, applied once they
	// are all sent: an earlier one is stale by then (its decision was replaced).
	answer *orreryv1.Answer
	req    orreryv1.PlayRequest // answer's request, reused: Answer keeps no part of it
	arm    orreryv1.PlayRequest_Answer
	// stopped is closed when the seat's sender stops after Play has returned (stop).
	stopped chan struct{}
	chain   chained // Match.chain while the answer applies: in the block, not one a decision
	// quick says the bot's last reply took under quickReply: a stream's reader that wakes
	// the seat may then play it itself (chained.take).
	quick atomic.Bool
}

// quickReply is how long a reply of a seat the server plays may take for a stream's reader
// to play the seat on its own goroutine (Seat.AnswerHere): the reader reads nothing while the
// house thinks, so only a bot as quick as a hand-off to another goroutine is played there.
// (Whether the reader's own seat owes a decision is checked too, chained.take: a slower
// reply than the last then holds up no answer.)
const quickReply = 50 * time.Microsecond

// chained is the stream an answer woke first (Match.chain), sent next on the goroutine that
// applied the answer: a seat's the server plays (Seat.Play), or a stream's reader's (reader).
type chained struct {
	seat   *Seat
	reader *Seat // the reader's seat, for AnswerHere's chain; nil for Seat.Play's
	own    bool  // the reader's seat was woken too: sent last, with what seat's answer gives it
}

// take takes st, woken, for the chain's goroutine to send next, if it sends st. Seat.Play's
// sends the first seat woken. A stream's reader sends its own seat unless replies are queued
// for it (ownLocked), and first a seat the server plays whose bot is quick while the reader's
// seat owes no decision (freeLocked): another bot's stream, which may not read, or a house's
// thinking would hold up the reader's own answers.
func (c *chained) take(st *Seat) bool {
	switch {
	case c.reader != nil && st == c.reader:
		if !st.ownLocked() {
			return false
		}
		c.own = true
	case c.seat != nil:
		return false
	case c.reader == nil || st.out.local != nil && st.out.local.quick.Load() && c.reader.freeLocked():
		c.seat = st
	default:
		return false
	}
	return true
}

// freeLocked reports whether the seat, a stream's, owes no decision: its reader may play a
// house seat meanwhile (AnswerHere).
func (st *Seat) freeLocked() bool {
	s := &st.m.seats[st.seat]
	return s.pending == nil || s.stream != st.gen
}

// ownLocked reports whether a stream's reader may send its own seat's messages itself: not
// while replies are queued (rejections, acceptances), which a bot that sends and does not read
// piles up. Sent by a sender, they block the sender, not the reader, which reads on until
// the stream's queue bound ends the stream (Answer); a decision and its events are sent only
// after an answer to the last, which the bot had to read.
func (st *Seat) ownLocked() bool { return len(st.outbox) == 0 }

// own is ownLocked, taking the match's lock.
func (st *Seat) own() bool {
	st.m.mu.Lock()
	defer st.m.mu.Unlock()
	return st.ownLocked()
}

// Play plays the seat in process with reply, until the match ends (nil), a reply fails, or
// ctx ends. reply is given each message of the seat's stream in turn and returns its answer
// to it, or nil; it keeps nothing it is given once it returns, no part of it, so that the
// seat's next decision is built in the memory of its last. The seat is played as a Play
// stream is sent to: reply runs on one of the server's sender goroutines, only while the seat
// has something new, and its answer is applied there, at once. So a house bot costs no
// goroutine of its own while it waits (none whose stack grows and is copied in every match),
// and a decision of the other seat's, answered by the house, reaches it from two goroutines
// (the reader of its answer, then the one that answers for the house and sends), not three.
// When Play returns, reply is not running and is not called again.
func (st *Seat) Play(ctx context.Context, reply func(*orreryv1.PlayResponse) (*orreryv1.Answer, error)) error {
	m := st.m
	end := make(chan error, 1)
	l := &local{reply: reply}
	m.mu.Lock()
	st.out = &sender{send: l.take, end: end, local: l}
	if m.seats[st.seat].stream == st.gen {
		m.seats[st.seat].live = st
	}
	st.out.running = true
	m.env.Pools.sendFor(st)
	m.mu.Unlock()
	var err error
	select {
	case err = <-end:
		return err
	case <-ctx.Done():
		err = ctx.Err()
	case <-m.env.Done:
		err = ErrShuttingDown
	}
	st.stop()
	return err
}

// take gives the bot one message and keeps its answer.
func (l *local) take(resp *orreryv1.PlayResponse) error {
	t := time.Now()
	a, err := l.reply(resp)
	if resp.GetDecision() != nil { // a bot thinks over decisions alone
		l.quick.Store(time.Since(t) < quickReply)
	}
	if a != nil {
		l.answer = a
	}
	return err
}

// answerLocal applies the bot's answer, and returns the stream it woke first, if any, for
// this goroutine to send next (Match.chain).
func (st *Seat) answerLocal(l *local) (*Seat, error) {
	l.arm.Answer, l.answer = l.answer, nil
	l.req.Msg = &l.arm
	err := st.answer(&l.req, &l.chain)
	woke := l.chain.seat
	l.chain.seat = nil
	l.arm.Answer = nil
	return woke, err
}

// AnswerHere is Answer for a Play stream's reader. A seat the server plays that the answer
// wakes, if its bot is quick, is played on this goroutine, and what it gives this seat is sent
// from here too, as an echo server replies on the goroutine that read: a bot playing house
// bots waits for no hand-off to another goroutine per decision. Anything else woken is sent
// by the server's sender goroutines, as after Answer.
func (st *Seat) AnswerHere(req *orreryv1.PlayRequest) error {
	c := chained{reader: st}
	err := st.answer(req, &c)
	for then := c.seat; then != nil; {
		if then != st && then.out.local == nil || then == st && !st.own() {
			st.m.env.Pools.sendFor(then) // woken by a house's answer (flush's chain)
			break
		}
		then = then.flush(st)
	}
	if c.own {
		st.flush(st) // no house: it chains nothing
	}
	return err
}

// stop stops the seat's sender, and waits for a reply running to return.
func (st *Seat) stop() {
	m := st.m
	m.mu.Lock()
	o := st.out
	o.done = true
	if !o.running {
		m.mu.Unlock()
		return
	}
	stopped := make(chan struct{})
	o.local.stopped = stopped
	m.mu.Unlock()
	<-stopped
}

// stoppedLocked tells a waiting stop that the sender has stopped.
func (o *sender) stoppedLocked() {
	if o.local != nil && o.local.stopped != nil {
		close(o.local.stopped)
		o.local.stopped = nil
	}
}

// hasDecision reports whether msgs hold a decision: a local seat's bot thinks over it.
func hasDecision(msgs []*orreryv1.PlayResponse) bool {
	for _, r := range msgs {
		if r.GetDecision() != nil {
			return true
		}
	}
	return false
}
