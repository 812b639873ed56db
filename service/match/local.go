package match

import (
	"context"

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
}

// chained is the stream a local seat's answer woke first (Match.chain), sent next on the
// same goroutine.
type chained struct{ seat *Seat }

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
	a, err := l.reply(resp)
	if a != nil {
		l.answer = a
	}
	return err
}

// answerLocal applies the bot's answer, and returns the stream it woke first, if any, for
// this goroutine to send next (Match.chain).
func (st *Seat) answerLocal(l *local) (*Seat, error) {
	m := st.m
	l.arm.Answer, l.answer = l.answer, nil
	l.req.Msg = &l.arm
	var c chained
	m.mu.Lock()
	m.chain = &c
	m.mu.Unlock()
	err := st.Answer(&l.req)
	m.mu.Lock()
	m.chain = nil
	m.mu.Unlock()
	l.arm.Answer = nil
	return c.seat, err
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
