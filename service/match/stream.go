package match

import (
	"context"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
)

// Run sends the seat what it has missed, each decision it owes and the events as they come,
// and applies the answers that arrive on answers, until the match ends (nil), the answers
// channel closes (ErrStreamClosed), a send fails, or ctx ends.
func (st *Seat) Run(ctx context.Context, answers <-chan *orreryv1.PlayRequest, send func(*orreryv1.PlayResponse) error) error {
	st.live()
	for {
		msgs, final, err := st.next(false)
		if err != nil {
			return err
		}
		for _, r := range msgs {
			if err := send(r); err != nil {
				return err
			}
		}
		clear(msgs) // sent: the list is reused, and must not keep them alive
		if final {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-st.m.env.Done:
			return ErrShuttingDown
		case <-st.wake:
		case req, ok := <-answers:
			if !ok {
				return ErrStreamClosed
			}
			if err := st.Answer(req); err != nil {
				return err
			}
		}
	}
}

// live makes Run's seat the one woken when the match gives it something new.
func (st *Seat) live() {
	m := st.m
	m.mu.Lock()
	defer m.mu.Unlock()
	st.wake = make(chan struct{}, 1)
	if m.seats[st.seat].stream == st.gen {
		m.seats[st.seat].live = st
	}
}

// Stream starts sending the seat's messages with send, from a goroutine of its own while
// there is something to send. It gives the stream's end once on end, which must have room
// for it: nil when the match has ended and the seat was told, or why the stream must close.
func (st *Seat) Stream(send func(*orreryv1.PlayResponse) error, end chan<- error) {
	m := st.m
	m.mu.Lock()
	defer m.mu.Unlock()
	st.out = &sender{send: send, end: end}
	if m.seats[st.seat].stream == st.gen {
		m.seats[st.seat].live = st
	}
	st.out.running = true
	m.env.Pools.sendFor(st)
}

// CloseSend says the bot closed its side of the stream: the replies queued are sent, then
// the stream ends.
func (st *Seat) CloseSend() {
	m := st.m
	m.mu.Lock()
	defer m.mu.Unlock()
	st.out.closing = true
	st.wakeLocked()
}

// wakeLocked starts the seat's sender if the seat has something new and none runs, or
// wakes Run's loop.
func (st *Seat) wakeLocked() {
	o := st.out
	if o == nil {
		if st.wake != nil && st.hasNewsLocked() {
			select {
			case st.wake <- struct{}{}:
			default: // already woken
			}
		}
		return
	}
	if o.running || o.done || !st.hasNewsLocked() {
		return
	}
	o.running = true
	if c := st.m.chain; c != nil && c.take(st) {
		return // sent by the goroutine that applies the answer (Seat.Play, AnswerHere)
	}
	st.m.env.Pools.sendFor(st)
}

// hasNewsLocked reports whether the seat's stream has anything to send (or to find out, as
// that it was replaced): a change that gives a seat nothing wakes nothing.
func (st *Seat) hasNewsLocked() bool {
	m := st.m
	s := &m.seats[st.seat]
	switch {
	case st.out != nil && st.out.closing, s.stream != st.gen, len(st.outbox) > 0, m.overLocked(), m.gone.Load():
		return true
	case s.pending != nil && s.pending.id != st.sent:
		return true
	}
	return !st.recv.GetQuiet() && !st.recv.GetOmitEvents() && int64(len(m.ev.refs)) > st.cursor
}

// flush sends what the seat has new, until it has nothing (the goroutine ends) or the stream
// ends; a seat the server plays (Seat.Play) answers on the way. It returns a seat of the
// match that the answers woke, for the goroutine to send next: in a seat's match against the
// house, the house's decision and its answer cost no further hand-off to another goroutine.
// On a stream's reader (AnswerHere: reader is its seat), a seat the server plays is handed
// to a sender goroutine once the reader's seat owes a decision, so that its answer is read,
// or once its bot has thought for longer than quickReply.
func (st *Seat) flush(reader *Seat) (then *Seat) {
	o := st.out
	for {
		if reader != nil && reader != st && st.leaves(reader) {
			return then
		}
		msgs, final, err := st.next(true)
		if then != nil && hasDecision(msgs) {
			// This seat's bot thinks again: the other seat does not wait for it.
			st.m.env.Pools.sendFor(then)
			then = nil
		}
		for _, r := range msgs {
			if err := o.send(r); err != nil {
				st.end(err)
				return then
			}
		}
		clear(msgs) // sent: the list is reused, and must not keep them alive
		switch {
		case err != nil || final:
			st.end(err)
			return then
		case len(msgs) == 0:
			return then // next stopped the sender, under the lock
		}
		if l := o.local; l != nil && l.answer != nil {
			woke, err := st.answerLocal(l)
			if woke != nil {
				if then != nil {
					st.m.env.Pools.sendFor(then)
				}
				then = woke // sent even if this seat's stream ends: it is marked running
			}
			if err != nil {
				st.end(err)
				return then
			}
		}
	}
}

// leaves reports whether a stream's reader (reader) leaves the seat, one the server plays,
// to a sender goroutine: its bot has just thought long, or the reader's own seat owes a
// decision, whose answer the reader must be free to read. A seat left with nothing new (most
// often: it has just answered, and the answer gave the reader's seat its decision) stops
// here, as next would stop it, rather than wake a goroutine to find nothing.
func (st *Seat) leaves(reader *Seat) bool {
	m := st.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if st.out.local.quick.Load() && reader.freeLocked() {
		return false
	}
	if !st.out.done && st.hasNewsLocked() {
		m.env.Pools.sendFor(st) // still marked running: the sender goes on from here
	} else {
		st.idleLocked()
	}
	return true
}

// end ends the stream's sending with err (nil: the match ended and the seat was told).
func (st *Seat) end(err error) {
	st.m.mu.Lock()
	st.out.done, st.out.running = true, false
	st.out.stoppedLocked()
	st.m.mu.Unlock()
	st.out.end <- err
}

// next takes what the seat has new: the replies queued, then the events, its decision or
// the end; final says the end is among them. For a Play stream's sender (stream), nothing
// new stops the sender, under the lock, so that a change after it starts a new one.
func (st *Seat) next(stream bool) (msgs []*orreryv1.PlayResponse, final bool, err error) {
	m := st.m
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.gone.Load() {
		return nil, false, &GoneError{ID: m.id}
	}
	if stream && st.out.closing {
		// Before the replacement's check: the reader detaches the seat as soon as the bot
		// has closed its side, which a sender that asked which stream is current would
		// take for a newer stream's join.
		return st.takeRepliesLocked(), true, ErrStreamClosed
	}
	if stream && st.out.local != nil && st.out.done {
		st.out.running = false // Play has returned: its bot is given nothing more
		st.out.stoppedLocked()
		return nil, false, nil
	}
	if m.seats[st.seat].stream != st.gen {
		return nil, false, ErrReplaced
	}
	msgs = st.takeRepliesLocked()
	if stream && st.built != nil {
		// The sender calls again only once it has sent everything it took.
		st.spare, st.built = st.built, nil
	}
	if st.ackState == ackHanded {
		st.ackState = ackFree // sent, likewise
	}
	v := m.viewLocked(st.seat, st.gen, st.cursor, st.sent, st.recv, &st.spare)
	st.cursor = v.cursor
	if len(v.events) > 0 && v.decision == nil {
		msgs = append(msgs, newEventsMsg(v.events, m.id))
	}
	if v.ended != nil {
		if stream && st.spare != nil {
			// Sent, and the seat is sent nothing more: another seat's decisions are built in it.
			m.env.Pools.decisions.Put(st.spare)
			st.spare = nil
		}
		v.ended.Seat = int32(st.seat)
		return append(msgs, &orreryv1.PlayResponse{Msg: &orreryv1.PlayResponse_Ended{Ended: v.ended}}), true, nil
	}
	if v.decision != nil {
		d := v.decision.arm.Decision
		d.Events = v.events
		msgs = append(msgs, &v.decision.resp)
		st.sent = d.GetDecisionId()
		if stream {
			st.built = v.decision
		}
	}
	if stream && len(msgs) == 0 {
		st.idleLocked()
	}
	st.sending = msgs[:0]
	return msgs, false, nil
}

// idleLocked stops the seat's sender, everything sent and nothing new. The seat waits,
// maybe long (a bot thinking, its rivals' turns): its sent decision goes to the server's
// pool, for whichever seat decides next, rather than wait here, so a server of waiting
// seats holds no decisions it has sent, and the pool gives back what stays unused for two
// collections.
func (st *Seat) idleLocked() {
	if st.built != nil {
		st.spare, st.built = st.built, nil
	}
	if st.ackState == ackHanded {
		st.ackState = ackFree
	}
	if st.spare != nil {
		st.m.env.Pools.decisions.Put(st.spare)
		st.spare = nil
	}
	st.out.running = false
	st.out.stoppedLocked()
}

// view is what a stream sends next, copied under the lock and sent outside it.
type view struct {
	events   []*orreryv1.Event
	decision *decisionMsg
	ended    *orreryv1.MatchEnded
	replaced bool
	cursor   int64
}

// viewLocked collects what seat has not been sent: events from cursor, the current decision
// if it differs from sentDecision (built in *spare if there is one, which it then takes),
// and the end.
func (m *Match) viewLocked(seat engine.Seat, gen int64, cursor int64, sentDecision string, recv *orreryv1.Receive, spare **decisionMsg) view {
	v := view{cursor: cursor}
	if m.seats[seat].stream != gen {
		v.replaced = true
		return v
	}
	if p := m.seats[seat].pending; p != nil && p.id != sentDecision {
		v.decision = m.decisionLocked(seat, p, recv, *spare)
		*spare = nil
		if p.sent.IsZero() {
			p.sent = m.env.Host.Now() // the think time runs from here (lab.go)
		}
	}
	if m.overLocked() {
		v.ended = m.endedLocked()
	}
	switch {
	case recv.GetOmitEvents():
		v.cursor = int64(len(m.ev.refs))
		m.seats[seat].delivered = v.cursor
	case !recv.GetQuiet() || v.decision != nil || v.ended != nil:
		// A quiet seat takes its events only with a decision or the end: one message per change.
		v.events, v.cursor = m.deliverLocked(seat, cursor)
	}
	if v.decision != nil {
		m.seats[seat].pending.seen = v.cursor // the events go before the decision, or with it
	}
	return v
}

// deliverLocked is seat's events from cursor on, marked delivered, and the new cursor.
func (m *Match) deliverLocked(seat engine.Seat, cursor int64) ([]*orreryv1.Event, int64) {
	evs := m.eventsLocked(seat, cursor)
	cursor += int64(len(evs))
	if seat != engine.Spectator {
		m.seats[seat].delivered = cursor
	}
	return evs, cursor
}
