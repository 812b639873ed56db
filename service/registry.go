package service

import (
	"context"
	"sync"

	"github.com/orrery/orrery/engine"
	"github.com/orrery/orrery/service/cluster"
	"github.com/orrery/orrery/service/match"
)

// registry holds the matches in this server's memory: running, or ended with a seat still
// connected (Host.Released). Its lock is let go before any match's: a match that ends takes
// them in the other order.
type registry struct {
	mu      sync.Mutex // guards every field below
	matches map[string]*entry
	byToken map[[32]byte]seatRef
	// creating: matches Create has leased and not yet put in memory, which a takeover pass
	// must not take for strays (service/cluster).
	creating map[string]bool
}

// entry is a match in memory and the hashes of its seats' tokens and of its creator's
// (AbortMatch), which only the server knows: the match knows its seats by number.
type entry struct {
	m       *match.Match
	tokens  [][32]byte
	creator [32]byte // zero: a match made in process, which no creator token aborts
}

type seatRef struct {
	e    *entry
	seat engine.Seat
}

func newRegistry() *registry {
	return &registry{matches: make(map[string]*entry), byToken: make(map[[32]byte]seatRef), creating: make(map[string]bool)}
}

// lookup finds a match in memory.
func (r *registry) lookup(id string) *match.Match {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := r.matches[id]; e != nil {
		return e.m
	}
	return nil
}

// creator is the hash of match id's creator token: zero if it has none or is not in memory.
func (r *registry) creator(id string) [32]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e := r.matches[id]; e != nil {
		return e.creator
	}
	return [32]byte{}
}

// seat finds the seat whose token hashes to h.
func (r *registry) seat(h [32]byte) (seatRef, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ref, ok := r.byToken[h]
	return ref, ok
}

// all lists the matches in memory.
func (r *registry) all() []*match.Match {
	r.mu.Lock()
	defer r.mu.Unlock()
	ms := make([]*match.Match, 0, len(r.matches))
	for _, e := range r.matches {
		ms = append(ms, e.m)
	}
	return ms
}

// add puts a started match in memory, where its seats' tokens find it.
func (r *registry) add(m *match.Match, tokens [][32]byte, creator [32]byte) {
	e := &entry{m: m, tokens: tokens, creator: creator}
	r.mu.Lock()
	r.matches[m.ID()] = e
	for i, h := range tokens {
		r.byToken[h] = seatRef{e: e, seat: engine.Seat(i)}
	}
	r.mu.Unlock()
}

// remove takes m out of memory, if it is the match held under its id (a match rebuilt from
// the store for one caller never is): its seats' tokens no longer lead to it.
func (r *registry) remove(m *match.Match) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.matches[m.ID()]
	if e == nil || e.m != m {
		return false
	}
	delete(r.matches, e.m.ID())
	for _, h := range e.tokens {
		delete(r.byToken, h)
	}
	return true
}

// creatingNow marks match id as being created (on), or no longer (off).
func (r *registry) creatingNow(id string, on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if on {
		r.creating[id] = true
	} else {
		delete(r.creating, id)
	}
}

// start puts a match in memory, at the position log holds (a new match, or one re-run from
// its log after a restart), and issues its first decisions. creator is the hash of its
// creator token, zero for none.
func (s *Server) start(spec match.Spec, log *match.Log, tokens [][32]byte, creator [32]byte) *match.Match {
	s.live.Add(1)
	m := match.New(&s.env, spec, log)
	s.reg.add(m, tokens, creator)
	m.ReleaseIfIdle() // a resumed log that was complete may be stored as ended already
	return m
}

// drop takes a match this node no longer owns out of memory (match.HandOff), so that a
// rejoin is relayed to its next owner.
func (s *Server) drop(id string) {
	m := s.reg.lookup(id)
	if m == nil {
		return
	}
	m.MarkGone() // before its tokens stop leading here: a rejoin meanwhile is told it moved
	s.reg.remove(m)
	m.HandOff(s.now())
}

// local is the server as the cluster sees this node's arena (cluster.Local).
type local struct{ s *Server }

var _ cluster.Local = local{}

func (l local) Holds(id string) bool { return l.s.reg.lookup(id) != nil }

func (l local) Creating(id string) bool {
	l.s.reg.mu.Lock()
	defer l.s.reg.mu.Unlock()
	return l.s.reg.creating[id]
}

func (l local) SeatHere(h [32]byte) bool {
	_, ok := l.s.reg.seat(h)
	return ok
}

// Running lists the matches in memory that have not ended.
func (l local) Running() []string {
	var ids []string
	for _, m := range l.s.reg.all() {
		if !m.Ended() {
			ids = append(ids, m.ID())
		}
	}
	return ids
}

func (l local) Resume(ctx context.Context) error { return l.s.resume(ctx) }

func (l local) Drop(id string) { l.s.drop(id) }

func (l local) MarkGone(id string) {
	if m := l.s.reg.lookup(id); m != nil {
		m.MarkGone()
	}
}

func (l local) Sync() { l.s.Sync() }
