package match

import "github.com/orrery/orrery/engine"

// Inspection is a read-only look inside a match, for tests and debugging: what its state
// is, how far it went, and what each seat owes.
type Inspection struct {
	State  engine.State // the match's state: read, never changed, never kept
	Plies  int          // steps applied
	Events int          // events numbered
	Ended  bool
	m      *Match
}

// Owed is the decision seat owes, its id and legal list (shared: read, never written), or
// ok false when it owes none.
func (in Inspection) Owed(seat engine.Seat) (id string, legal []engine.Action, ok bool) {
	p := in.m.seats[seat].pending
	if p == nil {
		return "", nil, false
	}
	return p.id, p.legal, true
}

// Inspect calls f under the match's lock with a look inside it. f must change nothing and
// keep nothing it is shown.
func (m *Match) Inspect(f func(Inspection)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f(Inspection{State: m.st, Plies: len(m.steps), Events: len(m.ev.refs), Ended: m.ended, m: m})
}
