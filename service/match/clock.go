package match

import (
	"fmt"
	"time"

	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/service/store"
)

// expire applies the timeout policy to every decision past its deadline.
func (m *Match) expire(now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.seats {
		if m.ended || m.paused {
			return
		}
		if p := m.seats[i].pending; p != nil && !now.Before(p.deadline) {
			m.timeoutLocked(now, engine.Seat(i))
		}
	}
}

// timeoutLocked acts for seat under the match's timeout policy.
func (m *Match) timeoutLocked(now time.Time, seat engine.Seat) {
	s := &m.seats[seat]
	p := s.pending
	if !p.budgeted {
		s.bank = 0
	}
	s.timeouts++
	m.env.Metrics.Timeouts.WithLabelValues(m.game).Inc()
	policy := m.policy
	m.ev.refs = append(m.ev.refs, eventRef{engine: -1, timedOut: int(seat), policy: policy})
	if policy == orreryv1.TimeoutPolicy_TIMEOUT_POLICY_FORFEIT {
		m.forfeitLocked(now, seat, fmt.Sprintf("seat %d forfeited on time", seat))
		return
	}
	a := p.legal[m.timeouts.IntN(len(p.legal))]
	if policy == orreryv1.TimeoutPolicy_TIMEOUT_POLICY_DEFAULT {
		if d, ok := m.st.(engine.Defaulter); ok {
			if da, ok := d.DefaultAction(seat); ok {
				a = da
			}
		}
	}
	if err := m.applyLocked(now, seat, a, policy, &stepLab{rejected: store.RejectCodes(p.rejected)}); err != nil {
		// A listed action must apply; if the game disagrees, end the match rather than loop.
		m.env.Log.Error("timeout action rejected", "match", m.id, "seat", seat, "err", err)
		m.endLocked(now, m.aborted("internal error: timeout action rejected"), false)
	}
}

// forfeitLocked ends the match with seat last and everyone else sharing first: the seat ran
// out of time under the forfeit policy, or resigned.
func (m *Match) forfeitLocked(now time.Time, seat engine.Seat, why string) {
	r := engine.Result{Ranks: make([]int, len(m.seats)), Scores: make([]float64, len(m.seats)), Reason: engine.EndForfeit, Detail: why}
	for i := range r.Ranks {
		r.Ranks[i] = 1
		r.Scores[i] = 1
	}
	r.Ranks[seat], r.Scores[seat] = len(m.seats), 0
	m.endLocked(now, r, false)
}

// advance moves a real-time game on by one wall-clock step if it is due.
func (m *Match) advance() {
	now := m.env.Host.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.st.(engine.Ticker)
	due := m.nextAdvance
	if m.ended || m.paused || !ok || now.Before(due) {
		return
	}
	m.env.Metrics.TickLateness.WithLabelValues(m.game).Observe(now.Sub(due).Seconds())
	before := m.st.EventCount()
	if err := t.Advance(); err != nil {
		m.env.Log.Error("advance", "match", m.id, "err", err)
		m.nextAdvance = now.Add(time.Second)
		return
	}
	// The next step is due one step after this one was: the pace holds even when a tick fires
	// late, unless the match fell a whole step behind.
	m.nextAdvance = due.Add(t.AdvanceAfter())
	if m.nextAdvance.Before(now) {
		m.nextAdvance = now.Add(t.AdvanceAfter())
	}
	for i := range m.seats {
		m.seats[i].withdraw() // a new step is a new decision for everyone
		m.seats[i].answered = false
	}
	m.recordLocked(now, engine.Step{Seat: engine.Spectator}, "", orreryv1.TimeoutPolicy_TIMEOUT_POLICY_UNSPECIFIED, before, &stepLab{})
}

// scheduleLocked points the match's clock at the next thing due: the earliest deadline of an
// owed decision, or for a wall-clock game the next advance. The clock is a timer, not a
// goroutine, so a change that moves no deadline wakes nothing.
func (m *Match) scheduleLocked() {
	var next time.Time
	if !m.ended && !m.paused {
		if m.clock.Wall {
			next = m.nextAdvance
		} else {
			for i := range m.seats {
				if p := m.seats[i].pending; p != nil && (next.IsZero() || p.deadline.Before(next)) {
					next = p.deadline
				}
			}
		}
	}
	if next.Equal(m.timerAt) {
		return
	}
	m.timerAt = next
	if next.IsZero() {
		if m.timer != nil {
			m.timer.Stop()
		}
		return
	}
	wait := max(next.Sub(m.env.Host.Now()), 0)
	if m.timer == nil {
		m.timer = time.AfterFunc(wait, m.fire)
	} else {
		m.timer.Reset(wait)
	}
}

// fire runs when the match's clock is due: it advances a wall-clock game or applies the
// timeout policy to the decisions past their deadline.
func (m *Match) fire() {
	if !m.env.Host.Enter() {
		return // the server is closing
	}
	defer m.env.Host.Leave()
	m.mu.Lock()
	m.timerAt = time.Time{}
	m.mu.Unlock()
	if m.clock.Wall {
		m.advance()
	} else {
		m.expire(m.env.Host.Now())
	}
	m.mu.Lock()
	m.scheduleLocked()
	m.mu.Unlock()
}

// expireUnjoined ends a match that no seat joined in time, as aborted: nobody plays it, so
// it should not hold the server's resources (or play itself out on timeouts).
func (m *Match) expireUnjoined() {
	if !m.env.Host.Enter() {
		return
	}
	defer m.env.Host.Leave()
	now := m.env.Host.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.joined || m.ended {
		return
	}
	m.endLocked(now, m.aborted(unjoinedDetail(m.env.Limits.Unjoined())), false)
}

// expireAbandoned ends a match whose connected seats all left and stayed away, as aborted:
// a match joined once and abandoned held a place of --max-matches for days.
func (m *Match) expireAbandoned() {
	if !m.env.Host.Enter() {
		return
	}
	defer m.env.Host.Leave()
	now := m.env.Host.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ended || m.connectedLocked() {
		return
	}
	m.endLocked(now, m.aborted(abandonedDetail(m.env.Limits.Abandoned())), false)
}

// connectedLocked reports whether any seat has a connection.
func (m *Match) connectedLocked() bool {
	for i := range m.seats {
		if m.seats[i].stream != 0 {
			return true
		}
	}
	return false
}

// StopClock stops the match's timers.
func (m *Match) StopClock() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.timer != nil {
		m.timer.Stop()
	}
	if m.unjoined != nil {
		m.unjoined.Stop()
	}
	if m.abandoned != nil {
		m.abandoned.Stop()
	}
}
