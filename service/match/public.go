package match

import (
	"github.com/orrery/orrery/engine"
	orreryv1 "github.com/orrery/orrery/proto/orrery/v1"
	"github.com/orrery/orrery/proto/wire"
)

// Public is what every spectator of a match is sent, published once per change while the
// match has spectators, and read by them without the match's lock: a spectator that falls
// behind skips to the newest. Nothing in it changes once published.
type Public struct {
	Ply    int64
	View   *orreryv1.Spectate
	Events []*orreryv1.Event // the public events so far, Events[i].Seq == i; shared, appended to only past their length
	Ended  *orreryv1.MatchEnded
	Gone   bool // the match left this node: spectators watch it through another
	// Changed closes when a newer Public is published (Latest).
	Changed <-chan struct{}
}

// Follow counts a spectator in and returns the public view to start from; unfollow counts it
// out. The public events are kept only while someone watches.
func (m *Match) Follow() (start *Public, unfollow func()) {
	return m.watch(+1), func() { m.watch(-1) }
}

// Latest is the public view published last, for a spectator woken by Public.Changed.
func (m *Match) Latest() *Public { return m.pub.Load() }

func (m *Match) watch(delta int) *Public {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.watchers += delta
	switch {
	case m.watchers == 0:
		m.pub.Store(nil)
	case delta > 0 && (m.pub.Load() == nil || m.overLocked()):
		m.publishLocked() // over: what is revealed may have changed without a move (SeedWithheld)
	}
	return m.pub.Load()
}

// publishLocked builds the public view once for every spectator: the view if the ply moved,
// the events since the last one, and the end.
func (m *Match) publishLocked() {
	prev := m.pub.Load()
	p := &Public{Ply: int64(len(m.steps)), Changed: m.changedLocked(), Gone: m.gone.Load()}
	p.View = m.spectateLocked()
	if prev != nil {
		p.Events = prev.Events
	}
	if from := int64(len(p.Events)); from < int64(len(m.ev.refs)) {
		p.Events = append(p.Events, m.eventsLocked(engine.Spectator, from)...)
	}
	if m.overLocked() {
		p.Ended = m.endedLocked()
	}
	m.pub.Store(p)
}

// spectateLocked is the public view (the all-seeing one once the match is over). The
// message is shared by every spectator and must not be changed.
func (m *Match) spectateLocked() *orreryv1.Spectate {
	// The all-seeing view once the match is over, unless its duplicate set still runs.
	all := m.overLocked() && !m.env.Host.SeedWithheld(m.id)
	if c := m.spectate; c != nil && c.GetPly() == int64(len(m.steps)) && m.spectateOver == all {
		return c
	}
	v := &orreryv1.Spectate{Ply: int64(len(m.steps))}
	defer func() { m.spectate, m.spectateOver = v, all }()
	if o, ok := m.st.(engine.Omniscient); ok && all {
		v.Observation = wire.Observation(o.ObserveAll())
	} else {
		v.Observation = wire.Observation(m.st.Observe(engine.Spectator))
	}
	v.Text = m.st.Render(engine.Spectator)
	return v
}

// endedLocked is the match's end as seats and spectators see it: the seed and the salt that
// open its commitment, unless they are withheld.
func (m *Match) endedLocked() *orreryv1.MatchEnded {
	e := &orreryv1.MatchEnded{Result: wire.Result(m.result), SeedHash: m.seedHash, MatchId: m.id}
	e.Seed, e.SeedSalt = RevealSeed(m.overLocked(), m.cfg.Seed, m.seedSalt)
	if m.env.Host.SeedWithheld(m.id) {
		e.Seed, e.SeedSalt, e.SeedWithheld = 0, "", true
	}
	return e
}

// RevealSeed is the one place a match's seed and salt are revealed: to its seats and
// spectators once it has ended (and its result is stored), and in its replay.
func RevealSeed(ended bool, seed uint64, salt string) (uint64, string) {
	if !ended {
		return 0, ""
	}
	return seed, salt
}
