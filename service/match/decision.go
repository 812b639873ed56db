package match

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"go.opentelemetry.io/otel/trace"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
	"github.com/orrery/orrery/service/store"
)

// pending is a decision a seat owes.
type pending struct {
	id       string
	cpu      time.Duration // what the server's own bot spent on it (Seat.Measured)
	issued   time.Time
	deadline time.Time
	bank     time.Duration
	legal    []engine.Action
	// shared: legal is a recurring list shared by every match of the game
	// (wire.ActionCache.SharedList), to be read and never written, not one of its own.
	shared   bool
	hash     uint64     // legal's (wire.ListHash)
	budgeted bool       // the game set a short deadline; the time bank is neither used nor charged
	sent     time.Time  // when it was first built for the seat's stream (lab.go)
	rejected []byte     // the codes of the answers to it rejected so far
	span     trace.Span // from issue to answer, with Env.Tracer (spans.go); nil otherwise
	// seen is how many events the seat's stream had been sent with it, the last time it was
	// sent: the seat's answer to it acknowledges them (seatState.acked).
	seen int64
}

// refreshLocked issues, keeps or withdraws each seat's decision after a change. A decision
// keeps its id while its legal list is unchanged, so an answer in flight stays valid.
func (m *Match) refreshLocked(now time.Time) {
	defer m.scheduleLocked()
	if m.ended {
		for i := range m.seats {
			m.env.Pools.recycle(&m.seats[i])
		}
		return
	}
	m.toAct = m.st.ToAct(m.toAct[:0])
	var step int64
	if m.clock.Wall {
		step = m.st.(engine.Ticker).Step()
	}
	var buf *[]engine.Action
	defer func() {
		if buf != nil {
			m.env.Pools.legalBufs.Put(buf)
		}
	}()
	for i := range m.seats {
		s := &m.seats[i]
		if !slices.Contains(m.toAct, engine.Seat(i)) {
			s.withdraw()
			continue
		}
		if m.clock.Wall && s.answered {
			if s.answeredIn == step {
				continue // its intents stand until the step resolves
			}
			s.answered = false
		}
		if buf == nil {
			buf, _ = m.env.Pools.legalBufs.Get().(*[]engine.Action)
			if buf == nil {
				buf = new([]engine.Action)
			}
		}
		*buf = m.st.Legal(engine.Seat(i), (*buf)[:0])
		if s.pending != nil && slices.Equal(s.pending.legal, *buf) {
			continue
		}
		m.issueLocked(now, engine.Seat(i), *buf)
	}
}

// issueLocked issues seat a new decision of legal (in refreshLocked's scratch buffer), in
// place of the one it owes if any. It is a function of its own so that refreshLocked's frame,
// on the stack while the game lists the legal actions, stays small: the chain from a Play
// stream's reader (read, Seat.Answer ... refreshLocked, the game's Legal) then fits the
// goroutine's first stack, which a stack grown once keeps as long as the stream lives.
func (m *Match) issueLocked(now time.Time, seat engine.Seat, legal []engine.Action) {
	s := &m.seats[seat]
	// The new decision reuses the one the seat last answered, legal list and all.
	p := s.spare
	if p == nil {
		p, _ = m.env.Pools.pendings.Get().(*pending)
		if p == nil {
			p = new(pending)
		}
	}
	s.spare = nil
	own := p.legal[:0]
	if p.shared {
		own = nil
	}
	h := wire.ListHash(legal)
	*p = pending{id: m.decisionID(), legal: m.actions.SharedList(legal, h), hash: h}
	if p.legal != nil {
		p.shared = true
	} else {
		p.legal = append(own, legal...)
	}
	m.decisionSpanLocked(p, seat)
	if s.pending != nil { // the choice changed under the seat: its clock keeps running
		p.issued, p.deadline, p.bank = s.pending.issued, s.pending.deadline, s.pending.bank
		p.sent, p.rejected = s.pending.sent, s.pending.rejected
		s.withdraw()
	} else if m.clock.Wall {
		p.issued, p.bank, p.deadline = now, s.bank, m.nextAdvance
	} else {
		p.issued, p.bank = now, s.bank
		p.deadline = now.Add(m.clock.PerMove + s.bank)
		if b, ok := m.st.(engine.Budgeter); ok {
			if d := b.Budget(seat); d > 0 {
				p.deadline, p.budgeted = now.Add(d), true
			}
		}
	}
	s.pending = p
}

// maxPooledLegal is the longest legal list an ended match's decision keeps for the next
// match: a seat holds its lists all match long, so the pool must not grow every seat's to
// the longest a game ever lists.
const maxPooledLegal = 256

// recycle takes an ended match's seat's decisions, current, answered and withdrawn, for the
// seats of later matches. Nothing reads them once the match has ended (answerLocked, expire
// and viewLocked stop at ended), and nothing outside the match's lock ever holds one.
func (s *Pools) recycle(seat *seatState) {
	endDecisionSpan(seat.pending, "ended") // the match ended with the decision open
	put := func(p *pending) {
		if p != nil && cap(p.legal) <= maxPooledLegal {
			own := p.legal[:0]
			if p.shared {
				own = nil
			}
			*p = pending{legal: own}
			s.pendings.Put(p)
		}
	}
	put(seat.pending)
	put(seat.spare)
	for i, p := range seat.late {
		put(p)
		seat.late[i] = nil
	}
	seat.pending, seat.spare = nil, nil
}

// decisionID names a new decision by the ply it is issued at and its number within that ply.
// The same state issues the same ids, so after a restart a resent answer to a decision of
// the log's last position still names that decision, and no other.
func (m *Match) decisionID() string {
	ply := int64(len(m.steps))
	if ply != m.idPly {
		m.idPly, m.idSeq = ply, 0
	}
	m.idSeq++
	return "d" + strconv.FormatInt(ply, 10) + "." + strconv.FormatInt(m.idSeq, 10)
}

// withdraw drops the seat's decision, keeping it a while among the late ones.
func (s *seatState) withdraw() {
	if s.pending == nil {
		return
	}
	endDecisionSpan(s.pending, "withdrawn")
	copy(s.late[1:], s.late[:len(s.late)-1])
	s.late[0], s.pending = s.pending, nil
}

// lateDecision is the withdrawn decision called id, or nil.
func (s *seatState) lateDecision(id string) *pending {
	for _, p := range s.late {
		if p != nil && p.id == id {
			return p
		}
	}
	return nil
}

// applyLocked plays a for seat, logs it, and updates clocks and decisions.
func (m *Match) applyLocked(now time.Time, seat engine.Seat, a engine.Action, timedOut orreryv1.TimeoutPolicy, lab *stepLab) error {
	notation := m.actions.Notation(m.st, a)
	before := m.st.EventCount()
	var stepBefore int64
	if t, ok := m.st.(engine.Ticker); ok && m.clock.Wall {
		stepBefore = t.Step()
	}
	if err := m.st.Apply(seat, a); err != nil {
		return err
	}
	// Answered: whatever the seat owes next is a new decision, built in this one's place.
	endDecisionSpan(m.seats[seat].pending, answeredOutcome(timedOut))
	if p := m.seats[seat].pending; p != nil && timedOut == orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED {
		m.seats[seat].acked = max(m.seats[seat].acked, p.seen)
	}
	m.seats[seat].spare, m.seats[seat].pending = m.seats[seat].pending, nil
	if t, ok := m.st.(engine.Ticker); ok && m.clock.Wall {
		m.seats[seat].answered, m.seats[seat].answeredIn = true, stepBefore
		if t.Step() != stepBefore { // everyone answered: the step resolved without the clock
			m.nextAdvance = now.Add(t.AdvanceAfter())
		}
	}
	m.recordLocked(now, engine.Step{Seat: seat, Action: a}, notation, timedOut, before, lab)
	return nil
}

// recordLocked logs an applied step and its events, then moves the match on.
func (m *Match) recordLocked(now time.Time, step engine.Step, notation string, timedOut orreryv1.TimeoutPolicy, eventsBefore int, lab *stepLab) {
	if m.steps == nil {
		// A match is tens of steps at least: grown from one, its log was five allocations
		// before it held sixteen (as is the list of its events).
		m.steps = make([]logged, 0, 16)
		m.ev.refs = slices.Grow(m.ev.refs, 16)
	}
	m.steps = append(m.steps, logged{step: step, notation: notation, timedOut: timedOut, lab: *lab})
	if m.env.Durable {
		m.journalLocked(&m.steps[len(m.steps)-1])
	}
	for i := eventsBefore; i < m.st.EventCount(); i++ {
		m.ev.refs = append(m.ev.refs, eventRef{engine: i})
	}
	if m.decided == nil {
		m.decided = m.env.Metrics.Decisions.WithLabelValues(m.game)
	}
	m.decided.Inc()
	if m.st.Terminal() {
		m.endByRulesLocked(now)
		return
	}
	m.refreshLocked(now)
	m.notifyLocked()
}

// endByRulesLocked ends the match as its rules did (out of recordLocked, whose frame is on the
// stack while the game lists the legal actions: see issueLocked).
//
//go:noinline
func (m *Match) endByRulesLocked(now time.Time) { m.endLocked(now, m.st.Result(), false) }

// journalLocked queues the step just logged for the store (out of recordLocked, whose frame
// is on the stack while the game lists the legal actions: see issueLocked).
func (m *Match) journalLocked(l *logged) {
	rec := store.Step{Seq: int64(len(m.steps) - 1), Seat: int(l.step.Seat), Notation: l.notation, TimedOut: int32(l.timedOut)}
	l.lab.store(&rec)
	if l.step.Seat >= 0 {
		rec.Bank = m.seats[l.step.Seat].bank // so that a restart gives the seat back its bank
	}
	m.env.Host.Step(m.id, rec)
}

// answerLocked handles a seat's answer; it returns the accepted notation or a rejection. Its
// checks are admitLocked's, whose frame (the rejections' formatting) is off the stack by the
// time the action applies and the game lists what follows (see issueLocked).
func (m *Match) answerLocked(seat engine.Seat, ans *orreryv1.Answer) (string, *orreryv1.ActionRejected) {
	now := m.env.Host.Now()
	p, late, a, rej := m.admitLocked(now, seat, ans)
	if rej != nil {
		return "", rej
	}
	if late != nil {
		return m.applyLate(now, seat, p, late, a, ans)
	}
	s := &m.seats[seat]
	// The bank is charged before the action applies, so that the seat's next decision (and the
	// logged step) already count with it.
	elapsed, bank := now.Sub(p.issued), s.bank
	if !p.budgeted {
		if over := elapsed - m.clock.PerMove; over > 0 {
			s.bank = max(p.bank-over, 0)
		}
		s.bank += m.clock.Increment
	}
	// The trip is set first, as the bank is: the seat's next decision is built as it applies.
	lab, trip := p.answeredLab(now, ans), s.trip
	s.trip = lab.think
	if err := m.applyLocked(now, seat, a, orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED, &lab); err != nil {
		s.bank, s.trip = bank, trip
		return "", m.rejectAnswer(p, ans, RejectCode(err), err.Error())
	}
	if m.latency == nil {
		m.latency = m.env.Metrics.DecisionLatency.WithLabelValues(m.game)
	}
	m.latency.Observe(elapsed.Seconds())
	return m.steps[len(m.steps)-1].notation, nil
}

// admitLocked checks seat's answer: the decision it answers (p, the one owed; or on the wall
// clock late, a withdrawn one that may still apply) and its action, or why it is rejected.
func (m *Match) admitLocked(now time.Time, seat engine.Seat, ans *orreryv1.Answer) (p, late *pending, a engine.Action, rej *orreryv1.ActionRejected) {
	reject := func(code orreryv1.RejectCode, format string, args ...any) (*pending, *pending, engine.Action, *orreryv1.ActionRejected) {
		return p, nil, engine.Action{}, m.rejectAnswer(p, ans, code, fmt.Sprintf(format, args...))
	}
	if m.ended {
		return reject(orreryv1.RejectCode_REJECT_CODE_NOT_YOUR_TURN, "seat %d owes no decision now", seat)
	}
	if m.paused {
		return reject(orreryv1.RejectCode_REJECT_CODE_STALE_DECISION, "the match is paused (the server cannot write to its database, or is still starting); a new decision follows when it goes on")
	}
	s := &m.seats[seat]
	p = s.pending // the decision owed, once known: a rejection is noted on it
	if m.clock.Wall && (p == nil || ans.GetDecisionId() != p.id) {
		// On the wall clock a late answer applies to the step now running, if it still can.
		if late := s.lateDecision(ans.GetDecisionId()); late != nil {
			a, code, err := wire.Answer(m.st, late.legal, ans)
			if err != nil {
				return reject(code, "%v", err)
			}
			return p, late, a, nil
		}
	}
	if p == nil {
		return reject(orreryv1.RejectCode_REJECT_CODE_NOT_YOUR_TURN, "seat %d owes no decision now", seat)
	}
	if ans.GetDecisionId() != p.id {
		return reject(orreryv1.RejectCode_REJECT_CODE_STALE_DECISION, "decision %q is not current; answer decision %q", m.env.Limits.Clip(ans.GetDecisionId()), p.id)
	}
	if now.After(p.deadline) {
		id := p.id // the timeout answers p, which the seat's next decision then reuses
		m.timeoutLocked(now, seat)
		return reject(orreryv1.RejectCode_REJECT_CODE_STALE_DECISION, "decision %q passed its deadline; the timeout policy acted", id)
	}
	a, code, err := wire.Answer(m.st, p.legal, ans)
	if err != nil {
		return reject(code, "%v", err)
	}
	return p, nil, a, nil
}

// maxReason bounds a rejection's reason, which may quote an engine's error about the bot's
// notation.
const maxReason = 512

// rejectAnswer counts a rejected answer, notes it on p (the decision the seat owes, if any)
// and says why.
func (m *Match) rejectAnswer(p *pending, ans *orreryv1.Answer, code orreryv1.RejectCode, reason string) *orreryv1.ActionRejected {
	m.env.Metrics.Rejects.WithLabelValues(m.game, code.String()).Inc()
	p.rejectLocked(code)
	// What the bot sent is quoted cut short: a 3 MB decision id made a 15.7 MB reply.
	return &orreryv1.ActionRejected{DecisionId: m.env.Limits.Clip(ans.GetDecisionId()), Code: code,
		Reason: engine.Clip(reason, maxReason)}
}

// applyLate applies a, a wall-clock answer to the withdrawn decision late, to the current
// state; p is the decision the seat owes, if any.
func (m *Match) applyLate(now time.Time, seat engine.Seat, p, late *pending, a engine.Action, ans *orreryv1.Answer) (string, *orreryv1.ActionRejected) {
	lab := late.answeredLab(now, ans)
	if err := m.applyLocked(now, seat, a, orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED, &lab); err != nil {
		return "", m.rejectAnswer(p, ans, orreryv1.RejectCode_REJECT_CODE_STALE_DECISION,
			fmt.Sprintf("decision %q arrived after its step and no longer applies: %v", late.id, err))
	}
	return m.steps[len(m.steps)-1].notation, nil
}

// decisionMsg is a decision and the message around it, allocated as one block: they were
// seven allocations for every decision.
type decisionMsg struct {
	parts    wire.DecisionParts
	deadline timestamppb.Timestamp
	bank     durationpb.Duration
	trip     durationpb.Duration
	arm      orreryv1.PlayResponse_Decision
	resp     orreryv1.PlayResponse
}

// decisionLocked is seat's decision p as a message to send, built in b, a message nobody
// holds any more, or in a new one when b is nil.
func (m *Match) decisionLocked(seat engine.Seat, p *pending, recv *orreryv1.Receive, b *decisionMsg) *decisionMsg {
	if b == nil {
		b, _ = m.env.Pools.decisions.Get().(*decisionMsg)
	}
	if b == nil {
		b = new(decisionMsg)
	} else {
		b.parts.Reset() // the seat's view is built again in the last one's memory
		b.deadline, b.bank, b.trip = timestamppb.Timestamp{}, durationpb.Duration{}, durationpb.Duration{}
		b.arm, b.resp = orreryv1.PlayResponse_Decision{}, orreryv1.PlayResponse{}
	}
	b.parts.Hashed(p.hash)
	d := b.parts.Build(m.st, seat, p.legal, int64(len(m.steps)), m.actions, recv)
	d.DecisionId = p.id
	d.MatchId = m.id
	b.deadline.Seconds, b.deadline.Nanos = p.deadline.Unix(), int32(p.deadline.Nanosecond())
	d.Deadline = &b.deadline
	b.bank.Seconds, b.bank.Nanos = int64(p.bank/time.Second), int32(p.bank%time.Second)
	d.TimeBank = &b.bank
	if trip := m.seats[seat].trip; trip > 0 {
		b.trip.Seconds, b.trip.Nanos = int64(trip/time.Second), int32(trip%time.Second)
		d.LastRoundTrip = &b.trip
	}
	b.arm.Decision = d
	b.resp.Msg = &b.arm
	return b
}
